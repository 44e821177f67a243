// packed_path.hpp -- when a getrf/getrs/fused call with standard-layout items runs through
// the interleaved kernels on packs of W items (packed_kernels.hpp). Included by the
// routine .cpp files only (baseline ISA), inside their small path.
#ifndef KOBALT_OPENMP_PACKED_PATH_HPP
#define KOBALT_OPENMP_PACKED_PATH_HPP

#include "common.hpp"
#include "fixed_kernels.hpp"
#include "packed_kernels.hpp"

namespace kobalt_openmp {
namespace packed {

// Order n within PACKED_LU_MAX (and the kernels' 1..8), and at least one full pack: with
// fewer than W items every item would run as a single lane, where the fixed-n kernels
// are faster.
template <class T> inline bool use(kobalt_int n, kobalt_int batch) {
    return n >= 1 && n <= fixed::FIXED_MAX_N && n <= threshold(PACKED_LU_MAX) &&
           batch >= interleaved::lanes_for(int(sizeof(T)));
}
// getrs does about as many flops as it copies (n^2 of each per right-hand side), so the copy
// into the pack outweighs the vectorised solve until n = 7 (measured against the fixed-n
// solve with its register interchanges, docs/performance.md); it starts at PACKED_GETRS_MIN.
template <class T> inline bool use_for_getrs(kobalt_int n, kobalt_int batch) {
    return n >= threshold(PACKED_GETRS_MIN) && use<T>(n, batch);
}

// Bytes of one operand's pack (W dense column-major items) from which the pack's copies
// prefetch the packs ahead, and how far (packed_kernels.cpp, prefetch_ahead).
inline interleaved::PackPrefetch prefetch() {
    return {threshold(PACKED_PREFETCH_BYTES), threshold(PACKED_PREFETCH_AHEAD_BYTES)};
}
// Largest item (bytes of one n x n matrix) whose copies go as W x W tiles (packed_kernels.cpp,
// DenseCopy) for getrf and the fused call; the fused call with double items has its own,
// lower bound. getrs takes tiles at every size (packed_kernels.cpp, getrs_n).
template <class T> inline int64_t tile_max_bytes(bool fused) {
    return threshold(fused && sizeof(T) == 8 ? PACKED_FUSED_TILE_MAX_BYTES : PACKED_TILE_MAX_BYTES);
}

// Smallest n whose packs getrf factors one column at a time in the block
// (packed_kernels.cpp, lu_block) instead of in registers.
template <class T> inline int lu_block_min() {
    return int(threshold(for_precision<T>(PACKED_LU_BLOCK_MIN, PACKED_LU_BLOCK_MIN_FLOAT)));
}

// Whether the fused call forms its packs item by item (packed_kernels.cpp, fused_pack_by_item):
// n equal to the pack's width, X and A dense column-major, and the call's X, Y and A within
// PACKED_FUSED_BY_ITEM_MAX_BYTES (it won in L2 and L3, not from memory).
template <class T> inline bool fused_by_item(kobalt_int n, kobalt_int batch, fixed::Mat x, fixed::Mat a) {
    const int64_t bytes = 3 * int64_t(n) * n * int64_t(sizeof(T)) * batch; // n <= 8: no overflow
    return n == interleaved::lanes_for(int(sizeof(T))) && fixed::dense_cols(x, int(n)) &&
           fixed::dense_cols(a, int(n)) && bytes <= threshold(PACKED_FUSED_BY_ITEM_MAX_BYTES) && use<T>(n, batch);
}

} // namespace packed
} // namespace kobalt_openmp

#endif
