// vendor_kernels.hpp -- the large path: one item through OpenBLAS CBLAS / LAPACKE.
//
// Called from inside the OpenMP loop over the batch, the OpenMP flavour of OpenBLAS
// runs single-threaded; called outside any parallel region (few large items) it uses
// its own threads. The kobalt enums carry the CBLAS values, so they cast directly.
// CBLAS handles negative increments with BLAS semantics, which is why vectors with a
// negative increment always come here. Sizes were checked to fit 32 bits per call.
#ifndef KOBALT_OPENMP_VENDOR_KERNELS_HPP
#define KOBALT_OPENMP_VENDOR_KERNELS_HPP

#include <cblas.h>
#include <lapacke.h>

#include <cmath>
#include <limits>

#include "common.hpp"

namespace kobalt_openmp {
namespace vendor {

inline CBLAS_ORDER order(kobalt_layout l) { return CBLAS_ORDER(l); }
inline CBLAS_TRANSPOSE op(kobalt_op o) { return CBLAS_TRANSPOSE(o); }
inline CBLAS_UPLO uplo(kobalt_uplo u) { return CBLAS_UPLO(u); }
inline CBLAS_DIAG diag(kobalt_diag d) { return CBLAS_DIAG(d); }
inline CBLAS_SIDE side(kobalt_side s) { return CBLAS_SIDE(s); }

// ---- BLAS, both precisions -------------------------------------------------------
inline void cblas_gemm(kobalt_layout l, kobalt_op ta, kobalt_op tb, int m, int n, int k, double alpha,
                 const double *A, int lda, const double *B, int ldb, double beta, double *C,
                 int ldc) {
    cblas_dgemm(order(l), op(ta), op(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
inline void cblas_gemm(kobalt_layout l, kobalt_op ta, kobalt_op tb, int m, int n, int k, float alpha,
                 const float *A, int lda, const float *B, int ldb, float beta, float *C,
                 int ldc) {
    cblas_sgemm(order(l), op(ta), op(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// C = beta C on an m x n matrix; beta == 0 writes zeros without reading C.
template <class T> void scale(kobalt_layout l, int m, int n, T beta, T *C, int ldc) {
    if (beta == T(1)) return;
    const int outer = l == KOBALT_COL_MAJOR ? n : m, inner = l == KOBALT_COL_MAJOR ? m : n;
    for (int64_t o = 0; o < outer; ++o) {
        T *line = C + o * ldc;
        if (beta == T(0))
            for (int i = 0; i < inner; ++i) line[i] = T(0);
        else
            for (int i = 0; i < inner; ++i) line[i] *= beta;
    }
}

// OpenBLAS 0.3.21's small-matrix gemm kernels compute alpha*(A B) even for alpha == 0,
// so a NaN in A or B would leak into C: alpha == 0 (and k == 0) is handled here, as
// the BLAS reference does, without reading A or B.
template <class T>
void gemm(kobalt_layout l, kobalt_op ta, kobalt_op tb, int m, int n, int k, T alpha, const T *A,
          int lda, const T *B, int ldb, T beta, T *C, int ldc) {
    if (alpha == T(0) || k == 0)
        scale(l, m, n, beta, C, ldc);
    else
        cblas_gemm(l, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

inline void gemv(kobalt_layout l, kobalt_op t, int m, int n, double alpha, const double *A,
                 int lda, const double *x, int incx, double beta, double *y, int incy) {
    cblas_dgemv(order(l), op(t), m, n, alpha, A, lda, x, incx, beta, y, incy);
}
inline void gemv(kobalt_layout l, kobalt_op t, int m, int n, float alpha, const float *A,
                 int lda, const float *x, int incx, float beta, float *y, int incy) {
    cblas_sgemv(order(l), op(t), m, n, alpha, A, lda, x, incx, beta, y, incy);
}

inline void trsv(kobalt_layout l, kobalt_uplo u, kobalt_op t, kobalt_diag d, int n,
                 const double *A, int lda, double *x, int incx) {
    cblas_dtrsv(order(l), uplo(u), op(t), diag(d), n, A, lda, x, incx);
}
inline void trsv(kobalt_layout l, kobalt_uplo u, kobalt_op t, kobalt_diag d, int n,
                 const float *A, int lda, float *x, int incx) {
    cblas_strsv(order(l), uplo(u), op(t), diag(d), n, A, lda, x, incx);
}

inline void trsm(kobalt_layout l, kobalt_side s, kobalt_uplo u, kobalt_op t, kobalt_diag d,
                 int m, int n, double alpha, const double *A, int lda, double *B, int ldb) {
    cblas_dtrsm(order(l), side(s), uplo(u), op(t), diag(d), m, n, alpha, A, lda, B, ldb);
}
inline void trsm(kobalt_layout l, kobalt_side s, kobalt_uplo u, kobalt_op t, kobalt_diag d,
                 int m, int n, float alpha, const float *A, int lda, float *B, int ldb) {
    cblas_strsm(order(l), side(s), uplo(u), op(t), diag(d), m, n, alpha, A, lda, B, ldb);
}

// ---- LAPACK ----------------------------------------------------------------------
// Pivoted LU; returns LAPACK's info (>= 0). LAPACK factors column-major only; LAPACKE's
// row-major path would allocate a transposed copy per item, inside the batch loop, and
// could fail half-way. Row-major items are instead transposed into `scratch` (m*n
// elements, column-major, allocated once per call by the caller), factored there and
// transposed back: the same logical matrix, so the same pivots and info as the
// column-major call. Column-major items are factored in place; no path allocates.
inline int getrf_colmajor(int m, int n, double *A, int lda, int *ipiv) {
    return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, m, n, A, lda, ipiv);
}
inline int getrf_colmajor(int m, int n, float *A, int lda, int *ipiv) {
    return LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, m, n, A, lda, ipiv);
}
template <class T>
int getrf(kobalt_layout l, int m, int n, T *A, int lda, int *ipiv, T *scratch) {
    if (l == KOBALT_COL_MAJOR) return getrf_colmajor(m, n, A, lda, ipiv);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) scratch[i + j * m] = A[i * lda + j];
    const int info = getrf_colmajor(m, n, scratch, m, ipiv);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) A[i * lda + j] = scratch[i + j * m];
    return info;
}
// Scratch elements getrf needs per thread.
inline size_t getrf_scratch_size(kobalt_layout l, kobalt_int m, kobalt_int n, bool pivoted) {
    return l == KOBALT_ROW_MAJOR && pivoted ? static_cast<size_t>(m) * static_cast<size_t>(n) : 0;
}

// LU without pivoting, which LAPACK lacks: right-looking, blocked by NB columns so the
// bulk of the work is one trsm and one gemm per block. Returns the first exactly-zero
// U(j,j), 1-based, or 0.
template <class T> int getrf_nopivot(kobalt_layout l, int m, int n, T *A, int lda) {
    constexpr int NB = 32; // panel width: a cache-friendly trsm/gemm block, not a dispatch threshold
    const Strides s = strides_of(l, lda);
    auto at = [&](int64_t i, int64_t j) -> T & { return A[i * s.rs + j * s.cs]; };
    const int kmin = m < n ? m : n;
    for (int j0 = 0; j0 < kmin; j0 += NB) {
        const int jb = kmin - j0 < NB ? kmin - j0 : NB;
        // Unblocked LU of the m-j0 x jb panel.
        for (int p = j0; p < j0 + jb; ++p) {
            const T pivot = at(p, p);
            for (int i = p + 1; i < m; ++i) at(i, p) /= pivot;
            for (int c = p + 1; c < j0 + jb; ++c) {
                const T u = at(p, c);
                for (int i = p + 1; i < m; ++i) at(i, c) -= at(i, p) * u;
            }
        }
        const int rest_n = n - j0 - jb, rest_m = m - j0 - jb;
        if (rest_n > 0) {
            // U12 = L11^{-1} A12, then A22 -= L21 U12.
            trsm(l, KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_UNIT, jb, rest_n, T(1),
                 &at(j0, j0), lda, &at(j0, j0 + jb), lda);
            if (rest_m > 0)
                gemm(l, KOBALT_NO_TRANS, KOBALT_NO_TRANS, rest_m, rest_n, jb, T(-1),
                     &at(j0 + jb, j0), lda, &at(j0, j0 + jb), lda, T(1), &at(j0 + jb, j0 + jb),
                     lda);
        }
    }
    for (int j = 0; j < kmin; ++j)
        if (at(j, j) == T(0)) return j + 1;
    return 0;
}

// B = op(A)^{-1} B from getrf's factors, as LAPACK dgetrs, but with the interchanges
// done here on the logical rows of B and the solves by CBLAS in the caller's layout:
// unlike LAPACKE_dgetrs in row-major, nothing is transposed or allocated.
template <class T>
void getrs(kobalt_layout l, kobalt_op t, int n, int nrhs, const T *A, int lda, const int *ipiv,
           T *B, int ldb) {
    const Strides s = strides_of(l, ldb);
    auto swap_rows = [&](int k) {
        const int p = ipiv[k] - 1;
        if (p == k) return;
        for (int64_t c = 0; c < nrhs; ++c) {
            T &a = B[k * s.rs + c * s.cs], &b = B[p * s.rs + c * s.cs];
            const T tmp = a;
            a = b;
            b = tmp;
        }
    };
    // One triangular solve with A's L (unit) or U factor. With one right-hand side it is a
    // trsv, as in OpenBLAS's own getrs: the trsm pair was 0.52-0.83x the LAPACK loop at
    // n = 128, 256 for a single column.
    auto solve = [&](kobalt_uplo u, kobalt_op op, kobalt_diag d) {
        if (nrhs == 1)
            trsv(l, u, op, d, n, A, lda, B, int(s.rs));
        else
            trsm(l, KOBALT_LEFT, u, op, d, n, nrhs, T(1), A, lda, B, ldb);
    };
    if (t == KOBALT_NO_TRANS) {
        if (ipiv)
            for (int k = 0; k < n; ++k) swap_rows(k);
        solve(KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_UNIT);
        solve(KOBALT_UPPER, KOBALT_NO_TRANS, KOBALT_NON_UNIT);
    } else {
        solve(KOBALT_UPPER, KOBALT_TRANS, KOBALT_NON_UNIT);
        solve(KOBALT_LOWER, KOBALT_TRANS, KOBALT_UNIT);
        if (ipiv)
            for (int k = n - 1; k >= 0; --k) swap_rows(k);
    }
}

} // namespace vendor
} // namespace kobalt_openmp

#endif
