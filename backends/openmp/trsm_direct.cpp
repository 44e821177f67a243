// trsm_direct.cpp -- trsm above the compile-time-n kernels (max(m, n) = FIXED_MAX_N + 1 up to
// TRSM_DIRECT_MAX): the left-side solve X = alpha op(A)^{-1} B that trsm.cpp reduces every
// side/transpose to, one item at a time, runtime sizes. Compiled once per ISA, as
// fixed_kernels.cpp (see fixed_common.hpp), and once more for AVX-512 (with getrf_direct.cpp
// the only fixed-path files with that copy: backends/openmp/CMakeLists.txt).
//
// These sizes ran KokkosBatched's SerialTrsm on strided views (up to TRSM_SMALL_MAX = 48 in
// double, 24 in single; OpenBLAS above), roughly tying the best peer; this solve was 1.15-3.4x
// faster from memory at n = 10..64 (one tie, 0.99) and 1.05-2.6x the best peer
// (docs/performance.md, "trsm at n = 9..48: the direct solve"). The kernel here is a small
// gemm: X is solved a block of rows at a time, and within a block all columns of a chunk of
// B at once, vectorised along the rows of X (B's columns), so each element of the triangle
// is loaded (broadcast) once per chunk and used for a whole vector or two of right-hand sides:
//   X[i, c] = (alpha B[i, c] - sum_{k < i} L[i, k] X[k, c]) / L[i, i]
// with a tile of R = 4 rows x NV vectors of columns held in registers (one FMA per element
// of L per vector), the 4x4 diagonal block then solved in registers. The chunk of X and the
// triangle both stay in L1 for the whole item; the triangle is read once per chunk.
//
// Rows of X must be unit-stride for that: B with unit-stride rows (row-major left, or the
// transposed view of column-major right) is solved in place; B with unit-stride columns is
// first copied, transposed, into a local array with rows padded to whole vectors (and
// back): the copy costs less than solving tail columns in scalars. An upper triangle is the lower
// one with both index orders reversed: negative strides on A and on the rows of X, the same
// kernel. The triangle is read by scalar broadcasts, so op(A)'s storage order does not matter.
// The diagonal is used as reciprocals (as KokkosBatched's trsm and the fixed-n kernels do).
// alpha == 0 zeroes B without reading A.
#include "direct_vectors.hpp"
#include "fixed_common.hpp"

#include <cstdint>

namespace {

// Rows i0..i0+R-1 of one chunk of NV vectors (S) of X: row i at x + i*xs, L(i, k) at
// a + i*ars + k*acs, rows k < i0 already solved; inv[i] = 1 / L(i, i) unless Unit.
template <class S, int NV, int R, bool Unit, class T>
KF_INLINE void solve_rows(int i0, T alpha, const T *__restrict__ a, int64_t ars, int64_t acs,
                          const T *__restrict__ inv, T *__restrict__ x, int64_t xs) {
    using V = typename S::V;
    V acc[R][NV];
    const T *ar[R];
    KF_UNROLL for (int r = 0; r < R; ++r) {
        ar[r] = a + (i0 + r) * ars;
        KF_UNROLL for (int v = 0; v < NV; ++v) acc[r][v] = alpha * S::load(x + (i0 + r) * xs + v * S::W);
    }
    const T *xk = x;
    for (int k = 0; k < i0; ++k, xk += xs) {
        V xv[NV];
        KF_UNROLL for (int v = 0; v < NV; ++v) xv[v] = S::load(xk + v * S::W);
        KF_UNROLL for (int r = 0; r < R; ++r) {
            const T l = ar[r][k * acs];
            KF_UNROLL for (int v = 0; v < NV; ++v) acc[r][v] -= l * xv[v];
        }
    }
    KF_UNROLL for (int r = 0; r < R; ++r) {
        KF_UNROLL for (int q = 0; q < r; ++q) {
            const T l = ar[r][(i0 + q) * acs];
            KF_UNROLL for (int v = 0; v < NV; ++v) acc[r][v] -= l * acc[q][v];
        }
        if (!Unit) KF_UNROLL for (int v = 0; v < NV; ++v) acc[r][v] *= inv[i0 + r];
        KF_UNROLL for (int v = 0; v < NV; ++v) S::store(x + (i0 + r) * xs + v * S::W, acc[r][v]);
    }
}

// The whole forward solve of one chunk: blocks of four rows, then the rest one by one.
template <class S, int NV, bool Unit, class T>
KF_INLINE void solve_chunk(int n, T alpha, const T *a, int64_t ars, int64_t acs, const T *inv,
                           T *x, int64_t xs) {
    int i = 0;
    for (; i + 4 <= n; i += 4) solve_rows<S, NV, 4, Unit>(i, alpha, a, ars, acs, inv, x, xs);
    for (; i < n; ++i) solve_rows<S, NV, 1, Unit>(i, alpha, a, ars, acs, inv, x, xs);
}

// X (n x cols, row i at x + i*xs, unit-stride rows) = alpha L^{-1} X: chunks of two full
// vectors, then one, then 32 bytes (AVX-512 only), then 16 (AVX2 and up), then single columns.
template <bool Unit, class T>
KF_INLINE void solve_item(int n, int cols, T alpha, const T *a, int64_t ars, int64_t acs,
                          T *x, int64_t xs) {
    using Full = Vec<T, kVecBytes>;
    constexpr int W = Full::W;
    T inv[kobalt_openmp::fixed::TRSM_DIRECT_MAX_N];
    if (!Unit)
        for (int i = 0; i < n; ++i) inv[i] = T(1) / a[i * (ars + acs)];
    int c = 0;
    for (; c + 2 * W <= cols; c += 2 * W) solve_chunk<Full, 2, Unit>(n, alpha, a, ars, acs, inv, x + c, xs);
    if (c + W <= cols) {
        solve_chunk<Full, 1, Unit>(n, alpha, a, ars, acs, inv, x + c, xs);
        c += W;
    }
#if defined(__AVX512F__)
    using Quarter = Vec<T, 32>; // what is left after the 64-byte chunks: 8 floats / 4 doubles
    if (c + Quarter::W <= cols) {
        solve_chunk<Quarter, 1, Unit>(n, alpha, a, ars, acs, inv, x + c, xs);
        c += Quarter::W;
    }
#endif
#if defined(__AVX2__)
    using Half = Vec<T, 16>;
    if (c + Half::W <= cols) {
        solve_chunk<Half, 1, Unit>(n, alpha, a, ars, acs, inv, x + c, xs);
        c += Half::W;
    }
#endif
    if constexpr (sizeof(T) == 4) { // two floats (8 bytes)
        if (c + 2 <= cols) {
            solve_chunk<Vec<T, 8>, 1, Unit>(n, alpha, a, ars, acs, inv, x + c, xs);
            c += 2;
        }
    }
    for (; c < cols; ++c) solve_chunk<Scalar<T>, 1, Unit>(n, alpha, a, ars, acs, inv, x + c, xs);
}

// Prefetches count vectors of len elements, vector v at p + v*ld (ld > 0), every cache line
// once, in ascending address order.
template <class T> KF_INLINE void prefetch_vectors(const T *p, int64_t ld, int count, int len) {
    for (int v = 0; v < count; ++v) {
        const uintptr_t lo = uintptr_t(p + v * ld), hi = uintptr_t(p + v * ld + len - 1);
        for (uintptr_t q = lo & ~uintptr_t(63); q <= hi; q += 64)
            __builtin_prefetch(reinterpret_cast<const void *>(q), 0, 3);
    }
}

// B = alpha op(A)^{-1} B for each item; op(A) n x n at (i, k) -> i*ars + k*acs, B n x cols at
// (i, c) -> i*brs + c*bcs, one of brs, bcs being 1.
template <bool Unit, class T>
void trsm_direct_items(bool lower, int n, int cols, T alpha, Items<const T> A, int64_t ars,
                       int64_t acs, Items<T> B, int64_t brs, int64_t bcs, int64_t batch) {
    // The upper solve is the lower one on reversed rows and columns of A and reversed rows
    // of X: shift the origin to the last element and negate the strides.
    const int64_t a_off = lower ? 0 : (n - 1) * (ars + acs);
    const int64_t ars_ = lower ? ars : -ars, acs_ = lower ? acs : -acs;
    const bool in_place = bcs == 1 || cols == 1;
    constexpr int W = Vec<T, kCopyBytes>::W;
    const int ldx = (cols + W - 1) / W * W; // at most TRSM_DIRECT_MAX_N, a multiple of W
    loop(batch, [=](int64_t it) {
        T *__restrict__ b = item(B, it);
        if (alpha == T(0)) {
            for (int c = 0; c < cols; ++c)
                for (int i = 0; i < n; ++i) b[i * brs + c * bcs] = T(0);
            return;
        }
        const T *a = item(A, it) + a_off;
        if (!lower) {
            // The reversed (upper) solve starts at the item's last row and walks down, where
            // the hardware prefetchers (following rising addresses) do not help: prefetch the
            // item's stored A square and, in place, B whole, in ascending order first (as
            // trsv_direct's prefetch_triangle). In place at d n = 12 the upper solves were
            // 0.72 / 0.80x main's without it, 1.81 / 1.78x with it (other-cases/ and
            // other-cases-prefetch/ in bench/results/2026-11-27/host-trsm-direct).
            const T *a0 = item(A, it);
            if (ars == 1) prefetch_vectors(a0, acs, n, n);
            else prefetch_vectors(a0, ars, n, n);
            if (in_place) prefetch_vectors<T>(b, brs, n, cols);
        }
        if (in_place) {
            T *x = lower ? b : b + (n - 1) * brs;
            solve_item<Unit>(n, cols, alpha, a, ars_, acs_, x, lower ? brs : -brs);
            return;
        }
        // Unit-stride columns (brs == 1): X = B^T locally, rows of X contiguous, each padded
        // with zeros to whole vectors (ldx), so that no column is solved in scalars.
        T buf[kobalt_openmp::fixed::TRSM_DIRECT_MAX_N * kobalt_openmp::fixed::TRSM_DIRECT_MAX_N];
        transpose_copy(b, bcs, buf, ldx, n, cols);
        for (int i = 0; i < n; ++i)
            for (int c = cols; c < ldx; ++c) buf[i * ldx + c] = T(0);
        T *x = lower ? buf : buf + (n - 1) * ldx;
        solve_item<Unit>(n, ldx, alpha, a, ars_, acs_, x, lower ? ldx : -ldx);
        transpose_copy(buf, int64_t(ldx), b, bcs, cols, n);
    });
}

} // namespace

namespace kobalt_openmp {
namespace fixed {
namespace KOBALT_FIXED_ISA {

// a: op(A)'s storage (op_strides of the slot, transposed again for the right side).
template <class T>
void trsm_direct(bool lower, bool unit, int n, int ncols, T alpha, Items<const T> A, Mat a,
                 Items<T> B, int64_t brs, int64_t bcs, int64_t batch) {
    const int64_t ars = a.unit_rows ? 1 : a.ld, acs = a.unit_rows ? a.ld : 1;
    if (unit) trsm_direct_items<true>(lower, n, ncols, alpha, A, ars, acs, B, brs, bcs, batch);
    else trsm_direct_items<false>(lower, n, ncols, alpha, A, ars, acs, B, brs, bcs, batch);
}

template void trsm_direct<double>(bool, bool, int, int, double, Items<const double>, Mat,
                                  Items<double>, int64_t, int64_t, int64_t);
template void trsm_direct<float>(bool, bool, int, int, float, Items<const float>, Mat,
                                 Items<float>, int64_t, int64_t, int64_t);

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
