// thresholds.hpp -- the size thresholds of the openmp backend, kept as data.
//
// The table exports kobalt_openmp::thresholds; the core may overwrite each value from
// the environment (KOBALT_OPENMP_<NAME>, then KOBALT_<NAME>) after init() and before
// the first call. Kernels therefore read the value at call time through threshold();
// no size constant appears anywhere else in the backend.
#ifndef KOBALT_OPENMP_THRESHOLDS_HPP
#define KOBALT_OPENMP_THRESHOLDS_HPP

#include <cstddef>

#include "kobalt/kobalt_backend.h"

namespace kobalt_openmp {

// Index of each threshold in the exported array (same order as thresholds.cpp).
enum ThresholdId : int {
    GEMM_SMALL_MAX,
    GEMV_SMALL_MAX,
    TRSV_SMALL_MAX,
    TRSM_SMALL_MAX,
    GETRF_SMALL_MAX,
    GETRS_SMALL_MAX,
    GEMM_LU_TRSV_SMALL_MAX,
    FEW_ITEMS_LARGE_MIN,
    GETRI_SMALL_MAX,
    INTERLEAVED_MAX,   // _desc calls in the interleaved layout (issue 9)
    DESC_GATHER_BYTES, // _desc calls in other layouts: scratch per gather round
    PACKED_LU_MAX,     // standard-layout getrf/getrs/fused through the interleaved kernels (issue 3)
    PACKED_GETRS_MIN,  // ... getrs only from this n on
    GETRF_NP_SMALL_MAX, // getrf without pivoting (ipiv NULL): its own crossover
    GEMV_FIXED_MAX,     // gemv, trsv, trsm: the compile-time-n kernels (fixed_blas2.cpp)
    TRSV_FIXED_MAX,
    TRSM_FIXED_MAX,
    GETRS_DIRECT_MAX,   // getrs, nrhs = 1, n above the fixed-n kernels: the direct solve (getrs_direct.cpp)
    GETRS_STREAM_MIN,   // ... which prefetches the whole item ahead from this n on
    GETRS_TINY_MAX,     // getrs, nrhs = 1, n <= 8: the in-place solve (getrs_tiny.cpp)
    TRSM_SMALL_MAX_FLOAT, // TRSM_SMALL_MAX for float items, whose crossover differs
    TRSV_DIRECT_MAX,    // trsv, incx > 0, n above the fixed-n kernels: the direct solve (trsv_direct.cpp)
    TRSV_PREFETCH_MAX,  // ... which prefetches each item's triangle first up to this n
    TRSM_DIRECT_MAX,    // trsm, max(m,n) above the fixed-n kernels: the direct solve (trsm_direct.cpp)
    TRSV_INPLACE_MAX,   // trsv direct solve: in place (incx == 1) up to this n, else a local copy of x
    TRSV_COL_SWEEP_MIN, // ... forward solve, unit-stride columns: rank-1 sweep, no prefetch from this n
    TRSV_ROW_SWEEP_MAX, // ... forward solve, unit-stride rows: column sweep across the rows up to this n
    TRSV_PREFETCH_NEXT_MIN, // ... forward solve, unit-stride rows: next item's triangle into L2 from this n
    TRSV_COL_SWEEP_MAX, // ... the rank-1 column sweep up to this n (from TRSV_COL_SWEEP_MIN)
    FUSED_ITEM_MIN,     // gemm_lu_trsv, k = n, double: the per-item register kernel (fused_item.cpp) from this n to 8
    FUSED_ITEM_MIN_FLOAT, // ... the same for float items
    GETRF_TINY_MAX,     // getrf, square items, n <= 2: in place, W items in registers (getrf_tiny.cpp)
    PACKED_PREFETCH_BYTES, // packed path: prefetch the packs ahead from this pack size (bytes) on
    PACKED_TILE_MAX_BYTES, // packed path, getrf and float fused: W x W tile copies up to this item size (bytes)
    PACKED_FUSED_TILE_MAX_BYTES, // ... the same for the fused call with double items
    GEMM_PANEL_MAX,     // gemm above GEMM_SMALL_MAX: largest max(m,n,k) on the packed-panel kernel (gemm.cpp)
    GEMM_PANEL_MAX_FLOAT, // ... the same for float items (the crossover with OpenBLAS differs)
    FUSED_COMPOSE_MIN,  // gemm_lu_trsv: from this n the three routines over cache-sized chunks
    FUSED_COMPOSE_MAX,  // ... up to this one (gemm_lu_trsv.cpp, composed)
    FUSED_CHUNK_BYTES,  // ... chunks of this many bytes of operands a thread
    GETRS_TINY_PAIR_MAX, // getrs in place (GETRS_TINY_MAX): two items solved together up to this n (at most 6)
    GETRS_TINY_PAIR_MAX_FLOAT, // ... the same for float items
    PIVOT_SCAN_PARALLEL_MIN, // the core's check of the pivot values: on all threads from this many pivots
    GEMM_PREFETCH_MIN_BYTES, // gemm / semiring kernels: prefetch each thread's next item from this call size
    GEMM_PREFETCH_ITEM_MAX_BYTES, // ... where op(A) and op(B) of an item each take at most this many bytes
    GETRF_DIRECT_MAX,   // getrf with pivoting, square items above the fixed-n kernels: the direct LU (getrf_direct.cpp)
    GETRF_DIRECT_MIN,   // ... from this n
    GETRS_TINY_WIDE_MIN, // getrs in place (GETRS_TINY_MAX): the AVX-512 copy of the solve from this n on
    GEMM_PREFETCH_AHEAD_BYTES, // gemm / semiring kernels' prefetch: as many items ahead as cover these bytes (1..4)
    PACKED_PREFETCH_AHEAD_BYTES, // packed path's prefetch: as many packs ahead as cover these bytes (1..6)
    PACKED_LU_BLOCK_MIN, // packed path, getrf, double: the LU one column at a time in the block from this n
    PACKED_LU_BLOCK_MIN_FLOAT, // ... the same for float items
    PACKED_FUSED_BY_ITEM_MAX_BYTES, // fused call with n == W: packs formed item by item up to this call size
    FUSED_REGION_MIN_BYTES, // gemm_lu_trsv composition: from this call size in one region, each thread its own chunks
    FUSED_REGION_CHUNK_BYTES, // ... chunks of this many bytes of operands there
    FUSED_REGION_COMPOSE_MIN, // ... and from this n below FUSED_COMPOSE_MIN too (double)
    FUSED_REGION_COMPOSE_MIN_FLOAT, // ... the same for float items
    FUSED_REGION_COMPOSE_ALSO, // ... and this one n below that too (double; 0: none)
    FUSED_REGION_COMPOSE_ALSO_FLOAT, // ... the same for float items
    THRESHOLD_COUNT
};

extern kobalt_threshold thresholds[THRESHOLD_COUNT];
// At load time, before the environment's overrides: defaults that depend on the BLAS found
// (GEMM_PANEL_MAX / _FLOAT off under OpenBLAS's AVX-512 kernels, lower under its Zen kernels);
// verbose: say what was chosen.
void adapt_defaults_to_blas(int verbose);
// ... and defaults that depend on the ISA copy of the kernels that runs (GETRS_TINY_PAIR_MAX
// / _FLOAT 6 under AVX-512, for the n that GETRS_TINY_WIDE_MIN sends to the AVX-512 copy).
void adapt_defaults_to_isa(int verbose);

inline kobalt_int threshold(ThresholdId id) { return thresholds[id].value; }

// The threshold of T's precision where double and float have their own (NAME, NAME_FLOAT).
template <class T> constexpr ThresholdId for_precision(ThresholdId for_double, ThresholdId for_float) {
    return sizeof(T) == 4 ? for_float : for_double;
}

} // namespace kobalt_openmp

#endif
