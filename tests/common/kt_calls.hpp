/*
 * kt_calls.hpp -- precision-overloaded wrappers, so a test template over T calls the
 * right routine:
 *   kb::gemm_strided(...)       Kobalt, expanded from kobalt_routines.def
 *   ref::gemm(...)              CBLAS / LAPACKE on one item (the reference)
 */
#ifndef KT_CALLS_HPP
#define KT_CALLS_HPP

#include <cblas.h>
#include <lapacke.h>

#include "kobalt/kobalt.h"

namespace kb {
#define KOBALT_ROUTINE(name, params, args, route)                                            \
    inline kobalt_status name params { return KOBALT_NAME(name) args; }
#include "kobalt/kobalt_routines_all.def"
#undef KOBALT_ROUTINE
} // namespace kb

namespace ref {

/* Kobalt's enums carry the CBLAS values. */
inline CBLAS_ORDER L(kobalt_layout l) { return (CBLAS_ORDER)l; }
inline CBLAS_TRANSPOSE T(kobalt_op t) { return (CBLAS_TRANSPOSE)t; }
inline CBLAS_UPLO U(kobalt_uplo u) { return (CBLAS_UPLO)u; }
inline CBLAS_DIAG D(kobalt_diag d) { return (CBLAS_DIAG)d; }
inline CBLAS_SIDE S(kobalt_side s) { return (CBLAS_SIDE)s; }
inline int lapack_layout(kobalt_layout l) { return l == KOBALT_ROW_MAJOR ? LAPACK_ROW_MAJOR : LAPACK_COL_MAJOR; }
inline char lapack_trans(kobalt_op t) { return t == KOBALT_NO_TRANS ? 'N' : t == KOBALT_TRANS ? 'T' : 'C'; }

inline void gemm(kobalt_layout l, kobalt_op ta, kobalt_op tb, int m, int n, int k, double alpha,
                 const double *A, int lda, const double *B, int ldb, double beta, double *C, int ldc)
{ cblas_dgemm(L(l), T(ta), T(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); }
inline void gemm(kobalt_layout l, kobalt_op ta, kobalt_op tb, int m, int n, int k, float alpha,
                 const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc)
{ cblas_sgemm(L(l), T(ta), T(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); }

inline void gemv(kobalt_layout l, kobalt_op t, int m, int n, double alpha, const double *A, int lda,
                 const double *x, int incx, double beta, double *y, int incy)
{ cblas_dgemv(L(l), T(t), m, n, alpha, A, lda, x, incx, beta, y, incy); }
inline void gemv(kobalt_layout l, kobalt_op t, int m, int n, float alpha, const float *A, int lda,
                 const float *x, int incx, float beta, float *y, int incy)
{ cblas_sgemv(L(l), T(t), m, n, alpha, A, lda, x, incx, beta, y, incy); }

inline void trsv(kobalt_layout l, kobalt_uplo u, kobalt_op t, kobalt_diag d, int n, const double *A,
                 int lda, double *x, int incx)
{ cblas_dtrsv(L(l), U(u), T(t), D(d), n, A, lda, x, incx); }
inline void trsv(kobalt_layout l, kobalt_uplo u, kobalt_op t, kobalt_diag d, int n, const float *A,
                 int lda, float *x, int incx)
{ cblas_strsv(L(l), U(u), T(t), D(d), n, A, lda, x, incx); }

inline void trsm(kobalt_layout l, kobalt_side s, kobalt_uplo u, kobalt_op t, kobalt_diag d, int m, int n,
                 double alpha, const double *A, int lda, double *B, int ldb)
{ cblas_dtrsm(L(l), S(s), U(u), T(t), D(d), m, n, alpha, A, lda, B, ldb); }
inline void trsm(kobalt_layout l, kobalt_side s, kobalt_uplo u, kobalt_op t, kobalt_diag d, int m, int n,
                 float alpha, const float *A, int lda, float *B, int ldb)
{ cblas_strsm(L(l), S(s), U(u), T(t), D(d), m, n, alpha, A, lda, B, ldb); }

/* LAPACKE returns info (negative: argument error, which a test treats as a bug in the test). */
inline int getrf(kobalt_layout l, int m, int n, double *A, int lda, int *ipiv)
{ return LAPACKE_dgetrf_work(lapack_layout(l), m, n, A, lda, ipiv); }
inline int getrf(kobalt_layout l, int m, int n, float *A, int lda, int *ipiv)
{ return LAPACKE_sgetrf_work(lapack_layout(l), m, n, A, lda, ipiv); }

inline int getrs(kobalt_layout l, kobalt_op t, int n, int nrhs, const double *A, int lda, const int *ipiv,
                 double *B, int ldb)
{ return LAPACKE_dgetrs_work(lapack_layout(l), lapack_trans(t), n, nrhs, A, lda, ipiv, B, ldb); }
inline int getrs(kobalt_layout l, kobalt_op t, int n, int nrhs, const float *A, int lda, const int *ipiv,
                 float *B, int ldb)
{ return LAPACKE_sgetrs_work(lapack_layout(l), lapack_trans(t), n, nrhs, A, lda, ipiv, B, ldb); }

} // namespace ref

#endif
