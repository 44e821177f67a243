// validate.hpp -- one validator per routine of kobalt_routines.def.
//
// Each validator takes the function's public name, whether the call's memory is
// readable here (host memory: pointer arrays and pivots are inspected), and the
// routine's own parameters, and returns KOBALT_SUCCESS or KOBALT_INVALID_ARGUMENT
// with kobalt_last_error() set. Validators only read; they never write.
#pragma once

#include "checker.hpp"

namespace kobalt {
namespace validate {

// Stored shape of op(M) = rows x cols: the matrix in memory is transposed when op != N.
inline MatrixShape op_shape(const char *name, kobalt_op op, kobalt_int rows, const char *rows_name, kobalt_int cols,
                            const char *cols_name, kobalt_int ld, const char *ld_name, bool output) {
    if (op == KOBALT_NO_TRANS) return {name, rows, cols, rows_name, cols_name, ld, ld_name, output};
    return {name, cols, rows, cols_name, rows_name, ld, ld_name, output};
}

// ---- gemm ------------------------------------------------------------------------------
inline MatrixShape gemm_a(kobalt_op transa, kobalt_int m, kobalt_int k, kobalt_int lda) {
    return op_shape("A", transa, m, "m", k, "k", lda, "lda", false);
}
inline MatrixShape gemm_b(kobalt_op transb, kobalt_int k, kobalt_int n, kobalt_int ldb) {
    return op_shape("B", transb, k, "k", n, "n", ldb, "ldb", false);
}
inline MatrixShape gemm_c(kobalt_int m, kobalt_int n, kobalt_int ldc) { return {"C", m, n, "m", "n", ldc, "ldc", true}; }

template <class T>
kobalt_status gemm_strided(const char *fn, Access readable, kobalt_layout layout, kobalt_op transa, kobalt_op transb,
                           kobalt_int m, kobalt_int n, kobalt_int k, T, const T *A, kobalt_int lda, kobalt_int strideA,
                           const T *B, kobalt_int ldb, kobalt_int strideB, T, T *C, kobalt_int ldc, kobalt_int strideC,
                           kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).op("transa", transa).op("transb", transb)
        .size("m", m).size("n", n).size("k", k)
        .matrix(gemm_a(transa, m, k, lda), A, strideA, "strideA")
        .matrix(gemm_b(transb, k, n, ldb), B, strideB, "strideB")
        .matrix(gemm_c(m, n, ldc), C, strideC, "strideC")
        .status();
}

template <class T>
kobalt_status gemm_batched(const char *fn, Access readable, kobalt_layout layout, kobalt_op transa, kobalt_op transb,
                           kobalt_int m, kobalt_int n, kobalt_int k, T, const T *const A[], kobalt_int lda,
                           const T *const B[], kobalt_int ldb, T, T *const C[], kobalt_int ldc, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).op("transa", transa).op("transb", transb)
        .size("m", m).size("n", n).size("k", k)
        .matrix(gemm_a(transa, m, k, lda), reinterpret_cast<const void *const *>(A))
        .matrix(gemm_b(transb, k, n, ldb), reinterpret_cast<const void *const *>(B))
        .matrix(gemm_c(m, n, ldc), reinterpret_cast<const void *const *>(C))
        .status();
}

// ---- gemv ------------------------------------------------------------------------------
inline MatrixShape gemv_a(kobalt_int m, kobalt_int n, kobalt_int lda) { return {"A", m, n, "m", "n", lda, "lda", false}; }
inline VectorShape gemv_x(kobalt_op trans, kobalt_int m, kobalt_int n, kobalt_int incx) {
    return {"x", trans == KOBALT_NO_TRANS ? n : m, incx, "incx", false};
}
inline VectorShape gemv_y(kobalt_op trans, kobalt_int m, kobalt_int n, kobalt_int incy) {
    return {"y", trans == KOBALT_NO_TRANS ? m : n, incy, "incy", true};
}

template <class T>
kobalt_status gemv_strided(const char *fn, Access readable, kobalt_layout layout, kobalt_op trans, kobalt_int m,
                           kobalt_int n, T, const T *A, kobalt_int lda, kobalt_int strideA, const T *x,
                           kobalt_int incx, kobalt_int stridex, T, T *y, kobalt_int incy, kobalt_int stridey,
                           kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).op("trans", trans).size("m", m).size("n", n)
        .matrix(gemv_a(m, n, lda), A, strideA, "strideA")
        .vector(gemv_x(trans, m, n, incx), x, stridex, "stridex")
        .vector(gemv_y(trans, m, n, incy), y, stridey, "stridey")
        .status();
}

template <class T>
kobalt_status gemv_batched(const char *fn, Access readable, kobalt_layout layout, kobalt_op trans, kobalt_int m,
                           kobalt_int n, T, const T *const A[], kobalt_int lda, const T *const x[], kobalt_int incx, T,
                           T *const y[], kobalt_int incy, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).op("trans", trans).size("m", m).size("n", n)
        .matrix(gemv_a(m, n, lda), reinterpret_cast<const void *const *>(A))
        .vector(gemv_x(trans, m, n, incx), reinterpret_cast<const void *const *>(x))
        .vector(gemv_y(trans, m, n, incy), reinterpret_cast<const void *const *>(y))
        .status();
}

// ---- trsv ------------------------------------------------------------------------------
inline MatrixShape square(const char *name, kobalt_int n, const char *n_name, kobalt_int ld, const char *ld_name,
                          bool output) {
    return {name, n, n, n_name, n_name, ld, ld_name, output};
}

template <class T>
kobalt_status trsv_strided(const char *fn, Access readable, kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans,
                           kobalt_diag diag, kobalt_int n, const T *A, kobalt_int lda, kobalt_int strideA, T *x,
                           kobalt_int incx, kobalt_int stridex, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).uplo(uplo).op("trans", trans).diag(diag).size("n", n)
        .matrix(square("A", n, "n", lda, "lda", false), A, strideA, "strideA")
        .vector({"x", n, incx, "incx", true}, x, stridex, "stridex")
        .status();
}

template <class T>
kobalt_status trsv_batched(const char *fn, Access readable, kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans,
                           kobalt_diag diag, kobalt_int n, const T *const A[], kobalt_int lda, T *const x[],
                           kobalt_int incx, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).uplo(uplo).op("trans", trans).diag(diag).size("n", n)
        .matrix(square("A", n, "n", lda, "lda", false), reinterpret_cast<const void *const *>(A))
        .vector({"x", n, incx, "incx", true}, reinterpret_cast<const void *const *>(x))
        .status();
}

// ---- trsm ------------------------------------------------------------------------------
inline MatrixShape trsm_a(kobalt_side side, kobalt_int m, kobalt_int n, kobalt_int lda) {
    return side == KOBALT_LEFT ? square("A", m, "m", lda, "lda", false) : square("A", n, "n", lda, "lda", false);
}
inline MatrixShape trsm_b(kobalt_int m, kobalt_int n, kobalt_int ldb) { return {"B", m, n, "m", "n", ldb, "ldb", true}; }

template <class T>
kobalt_status trsm_strided(const char *fn, Access readable, kobalt_layout layout, kobalt_side side, kobalt_uplo uplo,
                           kobalt_op transa, kobalt_diag diag, kobalt_int m, kobalt_int n, T, const T *A,
                           kobalt_int lda, kobalt_int strideA, T *B, kobalt_int ldb, kobalt_int strideB,
                           kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).side(side).uplo(uplo).op("transa", transa).diag(diag).size("m", m).size("n", n)
        .matrix(trsm_a(side, m, n, lda), A, strideA, "strideA")
        .matrix(trsm_b(m, n, ldb), B, strideB, "strideB")
        .status();
}

template <class T>
kobalt_status trsm_batched(const char *fn, Access readable, kobalt_layout layout, kobalt_side side, kobalt_uplo uplo,
                           kobalt_op transa, kobalt_diag diag, kobalt_int m, kobalt_int n, T, const T *const A[],
                           kobalt_int lda, T *const B[], kobalt_int ldb, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).side(side).uplo(uplo).op("transa", transa).diag(diag).size("m", m).size("n", n)
        .matrix(trsm_a(side, m, n, lda), reinterpret_cast<const void *const *>(A))
        .matrix(trsm_b(m, n, ldb), reinterpret_cast<const void *const *>(B))
        .status();
}

// ---- getrf -----------------------------------------------------------------------------
inline MatrixShape getrf_a(kobalt_int m, kobalt_int n, kobalt_int lda) { return {"A", m, n, "m", "n", lda, "lda", true}; }

template <class T>
kobalt_status getrf_strided(const char *fn, Access readable, kobalt_layout layout, kobalt_int m, kobalt_int n, T *A,
                            kobalt_int lda, kobalt_int strideA, int *ipiv, kobalt_int strideIpiv, int *info,
                            kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).size("m", m).size("n", n)
        .matrix(getrf_a(m, n, lda), A, strideA, "strideA")
        .pivots(ipiv, m < n ? m : n, "min(m, n)", strideIpiv, true)
        .info(info)
        .status();
}

template <class T>
kobalt_status getrf_batched(const char *fn, Access readable, kobalt_layout layout, kobalt_int m, kobalt_int n,
                            T *const A[], kobalt_int lda, int *ipiv, kobalt_int strideIpiv, int *info,
                            kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).size("m", m).size("n", n)
        .matrix(getrf_a(m, n, lda), reinterpret_cast<const void *const *>(A))
        .pivots(ipiv, m < n ? m : n, "min(m, n)", strideIpiv, true)
        .info(info)
        .status();
}

// ---- getrs -----------------------------------------------------------------------------
inline MatrixShape rhs(kobalt_int n, kobalt_int nrhs, kobalt_int ldb) {
    return {"B", n, nrhs, "n", "nrhs", ldb, "ldb", true};
}

template <class T>
kobalt_status getrs_strided(const char *fn, Access readable, kobalt_layout layout, kobalt_op trans, kobalt_int n,
                            kobalt_int nrhs, const T *A, kobalt_int lda, kobalt_int strideA, const int *ipiv,
                            kobalt_int strideIpiv, T *B, kobalt_int ldb, kobalt_int strideB, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).op("trans", trans).size("n", n).size("nrhs", nrhs)
        .matrix(square("A", n, "n", lda, "lda", false), A, strideA, "strideA")
        .pivots(ipiv, n, "n", strideIpiv, false)
        .matrix(rhs(n, nrhs, ldb), B, strideB, "strideB")
        .pivot_values(ipiv, n, strideIpiv)  // reads ipiv: last, once the call is well formed
        .status();
}

template <class T>
kobalt_status getrs_batched(const char *fn, Access readable, kobalt_layout layout, kobalt_op trans, kobalt_int n,
                            kobalt_int nrhs, const T *const A[], kobalt_int lda, const int *ipiv,
                            kobalt_int strideIpiv, T *const B[], kobalt_int ldb, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).op("trans", trans).size("n", n).size("nrhs", nrhs)
        .matrix(square("A", n, "n", lda, "lda", false), reinterpret_cast<const void *const *>(A))
        .pivots(ipiv, n, "n", strideIpiv, false)
        .matrix(rhs(n, nrhs, ldb), reinterpret_cast<const void *const *>(B))
        .pivot_values(ipiv, n, strideIpiv)  // reads ipiv: last, once the call is well formed
        .status();
}

// ---- gemm_lu_trsv ----------------------------------------------------------------------
inline MatrixShape fused_x(kobalt_op transx, kobalt_int n, kobalt_int k, kobalt_int ldx) {
    return op_shape("X", transx, n, "n", k, "k", ldx, "ldx", false);
}
inline MatrixShape fused_y(kobalt_op transy, kobalt_int n, kobalt_int k, kobalt_int ldy) {
    return op_shape("Y", transy, k, "k", n, "n", ldy, "ldy", false);
}

template <class T>
kobalt_status gemm_lu_trsv_strided(const char *fn, Access readable, kobalt_layout layout, kobalt_op transx,
                                   kobalt_op transy, kobalt_int n, kobalt_int k, kobalt_int nrhs, T, const T *X,
                                   kobalt_int ldx, kobalt_int strideX, const T *Y, kobalt_int ldy, kobalt_int strideY,
                                   T, T *A, kobalt_int lda, kobalt_int strideA, int *ipiv, kobalt_int strideIpiv, T *B,
                                   kobalt_int ldb, kobalt_int strideB, int *info, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).op("transx", transx).op("transy", transy).size("n", n).size("k", k).size("nrhs", nrhs)
        .matrix(fused_x(transx, n, k, ldx), X, strideX, "strideX")
        .matrix(fused_y(transy, n, k, ldy), Y, strideY, "strideY")
        .matrix(square("A", n, "n", lda, "lda", true), A, strideA, "strideA")
        .pivots(ipiv, n, "n", strideIpiv, true)
        .matrix(rhs(n, nrhs, ldb), B, strideB, "strideB")
        .info(info)
        .status();
}

template <class T>
kobalt_status gemm_lu_trsv_batched(const char *fn, Access readable, kobalt_layout layout, kobalt_op transx,
                                   kobalt_op transy, kobalt_int n, kobalt_int k, kobalt_int nrhs, T,
                                   const T *const X[], kobalt_int ldx, const T *const Y[], kobalt_int ldy, T,
                                   T *const A[], kobalt_int lda, int *ipiv, kobalt_int strideIpiv, T *const B[],
                                   kobalt_int ldb, int *info, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).op("transx", transx).op("transy", transy).size("n", n).size("k", k).size("nrhs", nrhs)
        .matrix(fused_x(transx, n, k, ldx), reinterpret_cast<const void *const *>(X))
        .matrix(fused_y(transy, n, k, ldy), reinterpret_cast<const void *const *>(Y))
        .matrix(square("A", n, "n", lda, "lda", true), reinterpret_cast<const void *const *>(A))
        .pivots(ipiv, n, "n", strideIpiv, true)
        .matrix(rhs(n, nrhs, ldb), reinterpret_cast<const void *const *>(B))
        .info(info)
        .status();
}

// ---- getri / matinv --------------------------------------------------------------------
// A (getrf's factors for getri, the matrix itself for matinv) is read, C written.
template <class T>
kobalt_status getri_strided(const char *fn, Access readable, kobalt_layout layout, kobalt_int n, const T *A,
                            kobalt_int lda, kobalt_int strideA, const int *ipiv, kobalt_int strideIpiv, T *C,
                            kobalt_int ldc, kobalt_int strideC, int *info, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).size("n", n)
        .matrix(square("A", n, "n", lda, "lda", false), A, strideA, "strideA")
        .pivots(ipiv, n, "n", strideIpiv, false)
        .matrix(square("C", n, "n", ldc, "ldc", true), C, strideC, "strideC")
        .info(info)
        .pivot_values(ipiv, n, strideIpiv)  // reads ipiv: last, once the call is well formed
        .status();
}

template <class T>
kobalt_status getri_batched(const char *fn, Access readable, kobalt_layout layout, kobalt_int n, const T *const A[],
                            kobalt_int lda, const int *ipiv, kobalt_int strideIpiv, T *const C[], kobalt_int ldc,
                            int *info, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).size("n", n)
        .matrix(square("A", n, "n", lda, "lda", false), reinterpret_cast<const void *const *>(A))
        .pivots(ipiv, n, "n", strideIpiv, false)
        .matrix(square("C", n, "n", ldc, "ldc", true), reinterpret_cast<const void *const *>(C))
        .info(info)
        .pivot_values(ipiv, n, strideIpiv)  // reads ipiv: last, once the call is well formed
        .status();
}

template <class T>
kobalt_status matinv_strided(const char *fn, Access readable, kobalt_layout layout, kobalt_int n, const T *A,
                             kobalt_int lda, kobalt_int strideA, T *C, kobalt_int ldc, kobalt_int strideC, int *info,
                             kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).size("n", n)
        .matrix(square("A", n, "n", lda, "lda", false), A, strideA, "strideA")
        .matrix(square("C", n, "n", ldc, "ldc", true), C, strideC, "strideC")
        .info(info)
        .status();
}

template <class T>
kobalt_status matinv_batched(const char *fn, Access readable, kobalt_layout layout, kobalt_int n, const T *const A[],
                             kobalt_int lda, T *const C[], kobalt_int ldc, int *info, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .layout(layout).size("n", n)
        .matrix(square("A", n, "n", lda, "lda", false), reinterpret_cast<const void *const *>(A))
        .matrix(square("C", n, "n", ldc, "ldc", true), reinterpret_cast<const void *const *>(C))
        .info(info)
        .status();
}

}  // namespace validate
}  // namespace kobalt

// The semiring gemm family keeps its validators in their own file.
#include "validate_semiring.hpp"
