// fixed_kernels.hpp -- the tiny-size path: one kernel per order n = 1..FIXED_MAX_N,
// specialised at compile time (fully unrolled, the item held in local arrays that the
// compiler keeps in registers), each with its own OpenMP loop over the batch.
//
// fixed_kernels.cpp is compiled twice: once for the baseline ISA (namespace
// fixed::base) and once with -mavx2 -mfma (namespace fixed::avx2); the entry points
// below pick the AVX2 copy once per call when the CPU has it. The two copies share no
// inline code (everything in the .cpp has internal linkage), so the linker can never
// hand an AVX2 function to a baseline caller.
//
// Semantics are those of the small path (small_kernels.hpp, lu_pivoted.hpp): the same
// pivot choice (first maximal |a|), info, reciprocal scaling above the smallest normal
// number, the same operations per element; row-major items are loaded as their
// logical matrix, so both layouts give the same pivots, info and factors.
#ifndef KOBALT_OPENMP_FIXED_KERNELS_HPP
#define KOBALT_OPENMP_FIXED_KERNELS_HPP

#include <cstdint>

namespace kobalt_openmp {
namespace fixed {

// Largest order with a compile-time kernel (a property of the kernel table, not a
// tunable: the *_SMALL_MAX thresholds still decide small versus vendor path).
constexpr int FIXED_MAX_N = 8;
// gemv's kernels (fixed_blas2.cpp) fix only one dimension of op(A), the one along its
// unit stride, so they reach further at little code size.
constexpr int FIXED_GEMV_MAX_N = 16;
// getrs_direct (getrs_direct.cpp) and trsv_direct (trsv_direct.cpp) keep the right-hand
// side in a local array of this many elements: the largest n they take, whatever
// GETRS_DIRECT_MAX / TRSV_DIRECT_MAX say.
constexpr int DIRECT_MAX_N = 256;
// trsm_direct (trsm_direct.cpp) keeps a transposed copy of B (n x ncols) in a local array:
// the largest max(m, n) it takes, whatever TRSM_DIRECT_MAX says.
constexpr int TRSM_DIRECT_MAX_N = 64;
// getrf_direct (getrf_direct.cpp) factors a padded copy of the item in a local array: the
// largest n it takes, whatever GETRF_DIRECT_MAX says (a multiple of every vector width).
constexpr int GETRF_DIRECT_MAX_N = 64;

// Items of one operand: ptrs[i] when ptrs is set (pointer-array form), else
// base + i*stride. Plain data: no inline member functions cross the ISA boundary.
template <class T> struct Items {
    T *base;
    int64_t stride;
    T *const *ptrs;
};
// Storage of an item: element (i, j) at i + j*ld (unit_rows) or i*ld + j.
struct Mat {
    int ld;
    bool unit_rows;
};
// Column-major storage with ld == rows: an item's rows x C elements are one contiguous run.
// static: each object, whatever ISA it is compiled for, keeps its own copy.
static inline bool dense_cols(Mat m, int rows) { return m.unit_rows && m.ld == rows; }
// Row-major storage with ld == cols: an item's rows x cols elements are one contiguous run too.
static inline bool dense_rows(Mat m, int cols) { return !m.unit_rows && m.ld == cols; }
// Per-call choices of trsv_direct, from the thresholds (trsv.cpp; docs/performance.md, "trsv
// at n = 9..256: the direct solve" and "trsv NoTrans: ..."). Plain data.
struct TrsvDirectOpts {
    bool prefetch;      // prefetch each item's triangle whole first (TRSV_PREFETCH_MAX)
    bool prefetch_next; // forward row solve: also the next item's triangle, into L2 (TRSV_PREFETCH_NEXT_MIN)
    bool in_place;      // incx == 1: solve in x itself, no local copy (TRSV_INPLACE_MAX)
    bool col_sweep;     // forward column solve: one column at a time, no prefetch (TRSV_COL_SWEEP_MIN/MAX)
    bool row_sweep;     // forward row solve: as a column sweep across the rows (TRSV_ROW_SWEEP_MAX)
};

#define KOBALT_FIXED_DECLARE(ns)                                                              \
    namespace ns {                                                                            \
    template <class T>                                                                        \
    void gemm(int n, T alpha, Items<const T> A, Mat a, Items<const T> B, Mat b, T beta,       \
              Items<T> C, Mat c, int64_t batch);                                              \
    template <class T>                                                                        \
    void getrf(int n, Items<T> A, Mat a, int *ipiv, int64_t sipiv, int *info, int64_t batch); \
    template <class T>                                                                        \
    void getrs(bool trans, int n, int nrhs, Items<const T> A, Mat a, const int *ipiv,         \
               int64_t sipiv, Items<T> B, Mat b, int64_t batch);                              \
    template <class T>                                                                        \
    void getrs_direct(bool trans, bool stream, int n, Items<const T> A, Mat a,               \
                      const int *ipiv, int64_t sipiv, Items<T> B, int64_t sb, int64_t batch); \
    template <class T>                                                                        \
    void trsv_direct(bool lower, bool unit, TrsvDirectOpts o, int n, Items<const T> A, Mat a,  \
                     Items<T> x, int64_t incx, int64_t batch);                               \
    template <class T>                                                                        \
    void trsm_direct(bool lower, bool unit, int n, int ncols, T alpha, Items<const T> A,      \
                     Mat a, Items<T> B, int64_t brs, int64_t bcs, int64_t batch);            \
    template <class T>                                                                        \
    void getrf_direct(int n, Items<T> A, Mat a, int *ipiv, int64_t sipiv, int *info,          \
                      int64_t batch);                                                         \
    template <class T>                                                                        \
    void getrs_tiny(bool trans, int n, Items<const T> A, Mat a, const int *ipiv,             \
                    int64_t sipiv, Items<T> B, int64_t sb, int64_t batch, int pair_max);     \
    template <class T>                                                                        \
    void fused(int n, T alpha, Items<const T> X, Mat x, Items<const T> Y, Mat y, T beta,      \
               Items<T> A, Mat a, int *ipiv, int64_t sipiv, int nrhs, Items<T> B, Mat b,      \
               int *info, int64_t batch);                                                     \
    template <class T>                                                                        \
    void gemv(int m, int n, T alpha, Items<const T> A, Mat a, Items<const T> x, T beta,       \
              Items<T> y, int64_t batch);                                                     \
    template <class T>                                                                        \
    void trsm(bool lower, bool unit, int n, int ncols, T alpha, Items<const T> A, Mat a,      \
              Items<T> B, int64_t brs, int64_t bcs, int64_t batch);                           \
    }
KOBALT_FIXED_DECLARE(base)
KOBALT_FIXED_DECLARE(avx2)
#undef KOBALT_FIXED_DECLARE
// Only the direct trsm and getrf and the in-place getrs have an AVX-512 copy
// (backends/openmp/CMakeLists.txt says why); it is built with KOBALT_OPENMP_AVX512=ON, and
// called through KOBALT_DIRECT_CALL (fixed_path.hpp) where the interleaved kernels' choice
// (interleaved::isa(), which honours KOBALT_OPENMP_NO_AVX2 / _NO_AVX512) is AVX-512.
namespace avx512 {
template <class T>
void trsm_direct(bool lower, bool unit, int n, int ncols, T alpha, Items<const T> A, Mat a,
                 Items<T> B, int64_t brs, int64_t bcs, int64_t batch);
template <class T>
void getrf_direct(int n, Items<T> A, Mat a, int *ipiv, int64_t sipiv, int *info, int64_t batch);
template <class T>
void getrs_tiny(bool trans, int n, Items<const T> A, Mat a, const int *ipiv, int64_t sipiv,
                Items<T> B, int64_t sb, int64_t batch, int pair_max);
}

// True when the CPU runs the AVX2/FMA copy (checked once; KOBALT_OPENMP_NO_AVX2=1 in
// the environment forces the baseline copy, for comparison and testing).
bool use_avx2();

} // namespace fixed
} // namespace kobalt_openmp

#endif
