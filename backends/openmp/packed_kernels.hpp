// packed_kernels.hpp -- standard-layout items through the interleaved SIMD kernels: getrf
// (square), getrs and the fused call at n <= 8, for column- or row-major items, strided or
// pointer-array (the PACKED_MAX threshold decides, packed_path.hpp).
//
// The OpenMP loop runs over packs of W consecutive items (W = the SIMD lanes of the ISA:
// 2/4/8 doubles, 4/8/16 floats). Each pack is copied ("transposed") into a block on the
// thread's stack, element (i, j) of the pack's item l at block[(i + j*n)*W + l] -- the
// interleaved layout of backends/common/interleaved_algo.hpp, a few KiB, so it stays in
// L1; dense column-major items (ld = n) move as W x W tiles transposed in registers (getrf
// and the float fused call up to PACKED_TILE_MAX_BYTES per item, the double fused call up to
// PACKED_FUSED_TILE_MAX_BYTES, getrs always), with the packs ahead prefetched from
// PACKED_PREFETCH_BYTES (PACKED_PREFETCH_AHEAD_BYTES ahead), any other layout or size element
// by element
// --, the interleaved kernel runs on the block (one instruction stream for W items, per
// lane pivoting), and the results are copied back. Pivots and info are written straight
// into the caller's arrays (the kernels take a lane stride). A last pack with fewer than W
// items runs the same algorithm one item at a time on the item itself (one lane).
//
// Semantics are the fixed path's (fixed_kernels.hpp): LAPACK dgetf2 pivots and info, the
// fused call leaves B_i untouched where info[i] > 0 (those lanes are not copied back).
//
// Compiled once per ISA like interleaved_kernels.cpp (namespaces base, avx2, avx512 of
// kobalt_openmp::interleaved; KOBALT_INTERLEAVED_CALL picks one). Argument lists are the
// fixed kernels' (fixed::Items, fixed::Mat).
//
// tiny_getrf2 (getrf_tiny.cpp, chosen by GETRF_TINY_MAX ahead of the packed path) is not a
// packed kernel: it factors 2 x 2 items in place, W at a time in registers, with no copy.
#ifndef KOBALT_OPENMP_PACKED_KERNELS_HPP
#define KOBALT_OPENMP_PACKED_KERNELS_HPP

#include <cstdint>

#include "fixed_kernels.hpp"
#include "interleaved_kernels.hpp"

namespace kobalt_openmp {
namespace interleaved {

// Where the copies prefetch the packs ahead: from one operand's pack of `from` bytes
// (PACKED_PREFETCH_BYTES), as many packs ahead as cover `ahead` bytes of all the operands'
// packs (PACKED_PREFETCH_AHEAD_BYTES, packed_kernels.cpp).
struct PackPrefetch {
    int64_t from;
    int64_t ahead;
};

#define KOBALT_PACKED_DECLARE(ns)                                                             \
    namespace ns {                                                                            \
    template <class T>                                                                        \
    void packed_getrf(int n, PackPrefetch prefetch, int64_t tile_max, int lu_block_min,       \
                      fixed::Items<T> A, fixed::Mat a, int *ipiv, int64_t sipiv, int *info,   \
                      int64_t batch);                                                         \
    template <class T>                                                                        \
    void packed_getrs(bool trans, int n, PackPrefetch prefetch, int nrhs,                     \
                      fixed::Items<const T> A,                                                \
                      fixed::Mat a, const int *ipiv, int64_t sipiv, fixed::Items<T> B,        \
                      fixed::Mat b, int64_t batch);                                           \
    template <class T>                                                                        \
    void packed_fused(int n, PackPrefetch prefetch, int64_t tile_max, bool by_item, T alpha,  \
                      fixed::Items<const T> X,                                                \
                      fixed::Mat x,                                                           \
                      fixed::Items<const T> Y, fixed::Mat y, T beta, fixed::Items<T> A,       \
                      fixed::Mat a, int *ipiv, int64_t sipiv, int nrhs, fixed::Items<T> B,    \
                      fixed::Mat b, int *info, int64_t batch);                                \
    template <class T>                                                                        \
    void tiny_getrf2(fixed::Items<T> A, fixed::Mat a, int *ipiv, int64_t sipiv, int *info,    \
                     int64_t batch);                                                          \
    }
KOBALT_PACKED_DECLARE(base)
KOBALT_PACKED_DECLARE(avx2)
KOBALT_PACKED_DECLARE(avx512)
#undef KOBALT_PACKED_DECLARE

// Items per pack of the copy isa() picks, for elements of element_size bytes.
int lanes_for(int element_size);

} // namespace interleaved
} // namespace kobalt_openmp

#endif
