// common.cuh -- what the CUDA backend's slots share: the core's services, error
// reporting, thresholds (data, overridable from the environment), per-thread library
// handles, and the device-side views and per-item kernels (docs/cuda.md).
#ifndef KOBALT_CUDA_COMMON_CUH
#define KOBALT_CUDA_COMMON_CUH

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cstdint>
#include <limits>

#include "kobalt/kobalt_backend.h"

namespace kobalt_cuda {

extern const kobalt_core_services *core;
void report(char precision, const char *routine, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
template <class T> constexpr char precision_letter() { return sizeof(T) == 8 ? 'd' : 's'; }

// LAPACK's sfmin (dlamch('S'), the smallest normal number). dgetf2 scales the entries below
// a pivot by its reciprocal only when |pivot| >= sfmin, where 1 / pivot cannot overflow,
// and divides by the pivot otherwise; every LU kernel of this backend follows that rule
// through dgetf2_scale (recip = 1 / pivot, computed by the caller off the critical path).
template <class T> __host__ __device__ constexpr T sfmin() { return std::numeric_limits<T>::min(); }
template <class T> __device__ __forceinline__ T dgetf2_scale(T a, T pivot, T recip) {
    return fabs(pivot) >= sfmin<T>() ? a * recip : a / pivot;
}
// getrs's division by U's diagonal entry d (|d| = ad) may use 1 / d, computed off the
// dependency chain, only where both |d| and 1 / |d| are normal numbers (x * (1 / d) is then
// x / d up to rounding); elsewhere it divides.
template <class T> __device__ __forceinline__ bool reciprocal_safe(T ad) {
    return ad >= sfmin<T>() && ad <= T(1) / sfmin<T>();
}

enum ThresholdId : int {
    GEMM_SMALL_MAX,
    GEMV_SMALL_MAX,
    TRSV_SMALL_MAX,
    TRSM_SMALL_MAX,
    GETRF_SMALL_MAX,
    GETRS_SMALL_MAX,
    GEMM_LU_TRSV_SMALL_MAX,
    FEW_ITEMS_MAX,
    STAGE_BYTES_MAX,
    GROUP_MIN,
    GROUP_MAX,
    VENDOR_CHECK,
    INTERLEAVED_MAX, // _desc calls with every batch_stride 1 (desc.cu)
    INTERLEAVED_GEMM_SPLIT_MIN, // interleaved gemm: columns split over warps from this size (desc.cu)
    INTERLEAVED_FUSED_UNROLL_MAX, // interleaved fused call, one thread per item: k unrolled up to this n (desc.cu)
    SEMIRING_GROUP_MAX,
    SEMIRING_TILE_MIN,
    SEMIRING_TILE_MIN_FLOAT,
    SEMIRING_TILE_BUFFERS,
    SEMIRING_TILE_SMALL_MAX, // largest max(m,n) on the 24 x 24 tile (3 x 3 per thread)
    INTERLEAVED_GEMM_PRELOAD_MAX, // interleaved gemm, one thread per item: all loads first up to this n (desc.cu)
    INTERLEAVED_GEMM_SHARED_MIN, // interleaved gemm split over warps: A staged in shared memory from this n (desc.cu)
    INTERLEAVED_GETRS_PREFETCH_MIN, // interleaved getrs in double: next item's loads in flight (cp.async) from this n (il_prefetch.cuh)
    INTERLEAVED_GETRS_PREFETCH_MIN_FLOAT, // the same in float
    INTERLEAVED_FUSED_BOUNDED_MAX, // interleaved fused call (k == n, unrolled): registers capped for 12 warps per SM up to this n (desc.cu)
    INTERLEAVED_GETRF_PAIR_MIN, // interleaved getrf in double: two threads per item from this n (il_lu_pair.cuh)
    INTERLEAVED_GETRF_PAIR_MIN_FLOAT, // the same in float
    VENDOR_INPLACE, // getrf / fused call on cuBLAS, column-major pivoted: factor in place (routines.cu)
    SCRATCH_KEEP_MB, // stream-ordered scratch kept reserved between calls (scratch.cu)
    INTERLEAVED_GETRF_PAIR_BRANCHLESS, // the pair kernel's row swaps by selects on every lane, no branch (il_lu_pair.cuh)
    INTERLEAVED_GETRF_PAIR_THREADS, // the pair kernel's block size (desc.cu)
    GETRF_BCAST_MIN, // getrf group kernel: redux pivot search + pivot row through shared memory from this size (lu_bcast.cuh)
    GETRF_FULL_MIN, // getrf group kernel: square items m == n == group width from this n on the prefetching kernel (lu_full.cuh)
    GETRS_PIPE_MIN, // double getrs, column-major NoTrans nrhs 1, n <= 8: one thread per item, operands piped through shared memory (getrs_pipe.cuh)
    GETRS_PIPE_MAX, // the largest n of the pipe kernel (at most 8)
    GEMM_BCAST_MIN, // gemm group kernel: op(B) broadcast through shared memory from this max(m,n) (gemm_bcast.cuh)
    GEMM_BCAST_NARROW_MAX, // gemm broadcast kernel, 16-lane group: 12 columns up to this max(m,n) (at most 12)
    GEMM_TILE_MIN, // gemm: smallest max(m,n,k) on the tile kernel (gemm_tile.cu)
    GEMM_TILE_MAX, // gemm: largest max(m,n,k) on the tile kernel (at most 32; 0: never)
    GEMM_TILE_SMALL_MAX, // gemm tile kernel: largest max(m,n) on the 24 x 24 tile (3 x 3 a thread)
    GEMM_TILE_BUFFERS, // gemm tile kernel: stage buffers (2: next stage copied during the product)
    SEMIRING_TILE_BLOCKS_PER_SM, // semiring tile kernel: grid blocks per SM, grid-stride; 0 = one block per item (semiring_tile.cuh)
    GETRS_PREFETCH_MIN, // double getrs, column-major NoTrans nrhs 1, n <= 32: lane per row, next item prefetched by cp.async (getrs_rows.cuh)
    GETRF_BLOCK_MAX, // getrf, square pivoted items above GETRF_SMALL_MAX up to this n: one thread block per item (lu_block.cuh) instead of cuBLAS
    GETRF_BLOCK_WARPS, // the block-per-item getrf's warps per block (8 or 16)
    GETRF_WARP_MIN, // getrf, square pivoted items: smallest n on the warp-staged one-thread kernel (lu_warp.cu)
    GETRF_WARP_MAX, // the largest (at most 8; 0: off)
    FUSED_WARP_MIN, // fused call, k == n, nrhs == 1: smallest n on the warp-staged one-thread kernel (fused_warp.cu)
    FUSED_WARP_MAX, // the largest (at most 8; 0: off)
    GETRS_WARP_MIN, // getrs, nrhs == 1, column- or row-major: smallest n on the warp-staged one-thread kernel (getrs_warp.cu)
    GETRS_WARP_MAX, // the largest (at most 8; 0: off)
    WARP_STAGE_BUFFERS, // warp-staged kernels (warp_stage.cuh): slices a warp (2: next group copied during the work)
    WARP_STAGE_CONTIGUOUS, // warp-staged kernels: a contiguous group copied by the short loop (0: the general loop always)
    FUSED_FULL_MIN, // fused call, k <= group width, nrhs <= 1: smallest n (from 9) on the staged group kernel (fused_full.cu)
    FUSED_FULL_MAX, // the largest (at most 32; 0: off)
    GETRF_WARP_RECORD_MIN, // warp-staged getrf in double: LU on the item's shared-memory record (not registers) from this n (lu_warp.cu)
    GETRF_WARP_RECORD_MIN_FLOAT, // the same in float
    GEMM_TILE_MAX_FLOAT, // gemm in float: GEMM_TILE_MAX (the tile kernel's largest max(m,n,k); 32)
    FUSED_WARP_AHEAD_MIN, // fused_warp.cu: smallest n (5..8) whose next group's op(X) is copied during the LU; 0: off
    GETRS_WARP_AHEAD_MIN, // getrs_warp.cu: smallest n whose next group's factors and b are copied during the solve; 0: off
    INTERLEAVED_FUSED_EARLY_B,     // interleaved fused call in double, n = k = 7: B's first column loaded before the LU (1) or after storing A (0)
    GEMM_LU_TRSV_FULL_MAX_FLOAT, // float fused call above GEMM_LU_TRSV_SMALL_MAX: largest n tried on fused_full.cu's kernel first
    GETRF_TWO_ROWS_MIN_FLOAT, // sgetrf, square items: smallest n on the two-rows-a-lane kernel (lu_two_rows.cuh); 0: off
    GETRF_TWO_ROWS_MAX_FLOAT, // the largest (at most 16)
    THRESHOLD_COUNT
};
extern kobalt_threshold thresholds[THRESHOLD_COUNT];
inline kobalt_int threshold(ThresholdId id) { return thresholds[id].value; }

inline cudaStream_t stream() {
    return core && core->cuda_stream ? static_cast<cudaStream_t>(core->cuda_stream()) : nullptr;
}
// This thread's handles, created on first use, bound to this thread's stream. NULL on failure.
cublasHandle_t blas_handle();
cusolverDnHandle_t solver_handle();
int multiprocessors();

// Stream-ordered scratch on this thread's stream (scratch.cu): Kobalt's own pool per device,
// which keeps up to SCRATCH_KEEP_MB MiB reserved between calls (0: CUDA's default pool).
// false (and *p = NULL, no CUDA error left behind) when the memory cannot be had.
bool scratch_alloc(void **p, size_t bytes);
void scratch_free(void *p);

// Error mapping after a launch or a library call.
kobalt_status launch_status(char p, const char *routine);
kobalt_status blas_status(char p, const char *routine, cublasStatus_t s, const char *what);
kobalt_status solver_status(char p, const char *routine, cusolverStatus_t s, const char *what);

using idx = long long;

// ---- device views -----------------------------------------------------------------------
template <class T> struct Mat {
    T *p;
    idx rs, cs;
    __device__ __forceinline__ T &operator()(idx i, idx j) const { return p[i * rs + j * cs]; }
    __device__ __forceinline__ Mat t() const { return Mat{p, cs, rs}; }
};
template <class T> struct Vec {
    T *p;
    idx inc;
    __device__ __forceinline__ T &operator[](idx i) const { return p[i * inc]; }
};

// Item i of a batch operand: base + i*stride, or ptrs[i] (device pointer array).
template <class T> struct Strided {
    T *base;
    idx stride;
    // host too: the vendor paths offset strided operands on the host (a __device__-only
    // call from host template code compiles to exit(1) under nvcc, no diagnostic)
    __host__ __device__ __forceinline__ T *operator()(idx i) const { return base + i * stride; }
};
template <class T> struct Ptrs {
    T *const *p;
    __device__ __forceinline__ T *operator()(idx i) const { return p[i]; }
};

// A stored matrix operand: rows x cols as stored, its layout and whether the routine
// uses its transpose. Knows its global view and its packed view in shared memory.
struct MatDesc {
    int rows = 0, cols = 0;
    idx ld = 0;
    bool col = true, trans = false;
    int P = 0; // padded elements per item in shared memory (odd: no bank conflicts)
    __host__ __device__ int inner() const { return col ? rows : cols; }
    __host__ __device__ int outer() const { return col ? cols : rows; }
    template <class T> __device__ Mat<T> global(T *p) const {
        const idx rs = col ? 1 : ld, cs = col ? ld : 1;
        return trans ? Mat<T>{p, cs, rs} : Mat<T>{p, rs, cs};
    }
    template <class T> __device__ Mat<T> shared(T *p) const {
        const idx in = inner();
        const idx rs = col ? 1 : in, cs = col ? in : 1;
        return trans ? Mat<T>{p, cs, rs} : Mat<T>{p, rs, cs};
    }
};
inline MatDesc mat_desc(kobalt_layout layout, kobalt_int rows, kobalt_int cols, kobalt_int ld,
                        bool trans = false) {
    MatDesc d;
    d.rows = int(rows);
    d.cols = int(cols);
    d.ld = ld;
    d.col = layout == KOBALT_COL_MAJOR;
    d.trans = trans;
    const long long e = (long long)rows * cols;
    d.P = e == 0 ? 0 : int(e | 1);
    return d;
}
struct VecDesc {
    int len = 0;
    idx inc = 1;
    int P = 0;
    __host__ __device__ int inner() const { return 1; }
    __host__ __device__ int outer() const { return len; }
    __host__ __device__ idx ld() const { return inc < 0 ? -inc : inc; }
    template <class T> __device__ Vec<T> global(T *p) const {
        return Vec<T>{p + (inc < 0 ? idx(len - 1) * (-inc) : 0), inc};
    }
    template <class T> __device__ Vec<T> shared(T *p) const {
        return Vec<T>{p + (inc < 0 ? len - 1 : 0), inc < 0 ? -1 : 1};
    }
};
inline VecDesc vec_desc(kobalt_int len, kobalt_int inc) {
    VecDesc d;
    d.len = int(len);
    d.inc = inc;
    d.P = len == 0 ? 0 : int(len | 1);
    return d;
}

} // namespace kobalt_cuda

#endif
