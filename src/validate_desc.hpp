// validate_desc.hpp -- the validators of the _desc routines and of pack/unpack
// (kobalt_routines.def, "Descriptor forms"). Same contract as validate.hpp: the public
// name, whether the memory is host-readable, the routine's own parameters; only reads.
#pragma once

#include "desc_checker.hpp"

namespace kobalt {
namespace validate {

inline bool transposed(kobalt_op op) { return op != KOBALT_NO_TRANS; }

// ---- gemm: op(A) m x k, op(B) k x n, C m x n ------------------------------------------
template <class T>
kobalt_status gemm_desc(const char *fn, Access readable, kobalt_op transa, kobalt_op transb, T, const T *A,
                        const kobalt_matrix_desc *descA, const T *B, const kobalt_matrix_desc *descB, T, T *C,
                        const kobalt_matrix_desc *descC, kobalt_int batch) {
    DescChecker c(fn, readable, batch);
    c.op("transa", transa).op("transb", transb);
    const DescDims a = c.matrix("A", A, "descA", descA, sizeof(T), false, transposed(transa));
    const DescDims b =
        c.matrix("B", B, "descB", descB, sizeof(T), false, transposed(transb), {a.cols, "k, the columns of op(A)"});
    c.matrix("C", C, "descC", descC, sizeof(T), true, false, {a.rows, "m, the rows of op(A)"},
             {b.cols, "n, the columns of op(B)"});
    return c.status();
}

// ---- gemv: op(A) rows x cols, x of length cols, y of length rows ------------------------
template <class T>
kobalt_status gemv_desc(const char *fn, Access readable, kobalt_op trans, T, const T *A,
                        const kobalt_matrix_desc *descA, const T *x, const kobalt_matrix_desc *descx, T, T *y,
                        const kobalt_matrix_desc *descy, kobalt_int batch) {
    DescChecker c(fn, readable, batch);
    c.op("trans", trans);
    const DescDims a = c.matrix("A", A, "descA", descA, sizeof(T), false, transposed(trans));
    c.vector("x", x, "descx", descx, sizeof(T), false, {a.cols, "the columns of op(A)"});
    c.vector("y", y, "descy", descy, sizeof(T), true, {a.rows, "the rows of op(A)"});
    return c.status();
}

// A square operand: its cols must equal its rows.
inline kobalt_int square(DescChecker &c, const char *name, const void *ptr, const char *desc_name,
                         const kobalt_matrix_desc *desc, size_t element_size, bool output) {
    const DescDims d = c.matrix(name, ptr, desc_name, desc, element_size, output, false, {},
                                {desc ? desc->rows : -1, "its rows (it must be square)"});
    return d.rows;
}

// ---- trsv: A n x n, x of length n ------------------------------------------------------
template <class T>
kobalt_status trsv_desc(const char *fn, Access readable, kobalt_uplo uplo, kobalt_op trans, kobalt_diag diag,
                        const T *A, const kobalt_matrix_desc *descA, T *x, const kobalt_matrix_desc *descx,
                        kobalt_int batch) {
    DescChecker c(fn, readable, batch);
    c.uplo(uplo).op("trans", trans).diag(diag);
    const kobalt_int n = square(c, "A", A, "descA", descA, sizeof(T), false);
    c.vector("x", x, "descx", descx, sizeof(T), true, {n, "n, the order of A"});
    return c.status();
}

// ---- trsm: A square, B m x n with m (left) or n (right) the order of A ----------------
template <class T>
kobalt_status trsm_desc(const char *fn, Access readable, kobalt_side side, kobalt_uplo uplo, kobalt_op transa,
                        kobalt_diag diag, T, const T *A, const kobalt_matrix_desc *descA, T *B,
                        const kobalt_matrix_desc *descB, kobalt_int batch) {
    DescChecker c(fn, readable, batch);
    c.side(side).uplo(uplo).op("transa", transa).diag(diag);
    const kobalt_int na = square(c, "A", A, "descA", descA, sizeof(T), false);
    if (side == KOBALT_LEFT)
        c.matrix("B", B, "descB", descB, sizeof(T), true, false, {na, "the order of A (side = KOBALT_LEFT)"});
    else
        c.matrix("B", B, "descB", descB, sizeof(T), true, false, {}, {na, "the order of A (side = KOBALT_RIGHT)"});
    return c.status();
}

// ---- getrf: A m x n, pivots min(m, n) x 1 ------------------------------------------------
template <class T>
kobalt_status getrf_desc(const char *fn, Access readable, T *A, const kobalt_matrix_desc *descA, int *ipiv,
                         const kobalt_matrix_desc *descIpiv, int *info, kobalt_int batch) {
    DescChecker c(fn, readable, batch);
    const DescDims a = c.matrix("A", A, "descA", descA, sizeof(T), true);
    c.pivots(ipiv, descIpiv, {a.rows < a.cols ? a.rows : a.cols, "min(m, n) of A"}, true);
    c.info(info);
    return c.status();
}

// ---- getrs: A n x n factors, pivots n x 1, B n x nrhs ---------------------------------
template <class T>
kobalt_status getrs_desc(const char *fn, Access readable, kobalt_op trans, const T *A, const kobalt_matrix_desc *descA,
                         const int *ipiv, const kobalt_matrix_desc *descIpiv, T *B, const kobalt_matrix_desc *descB,
                         kobalt_int batch) {
    DescChecker c(fn, readable, batch);
    c.op("trans", trans);
    const kobalt_int n = square(c, "A", A, "descA", descA, sizeof(T), false);
    c.pivots(ipiv, descIpiv, {n, "n, the order of A"}, false);
    c.matrix("B", B, "descB", descB, sizeof(T), true, false, {n, "n, the order of A"});
    c.pivot_values(ipiv, descIpiv, n);  // reads ipiv: last, once the call is well formed
    return c.status();
}

// ---- fused: op(X) n x k, op(Y) k x n, A n x n, pivots n x 1, B n x nrhs --------------
template <class T>
kobalt_status gemm_lu_trsv_desc(const char *fn, Access readable, kobalt_op transx, kobalt_op transy, T, const T *X,
                                const kobalt_matrix_desc *descX, const T *Y, const kobalt_matrix_desc *descY, T, T *A,
                                const kobalt_matrix_desc *descA, int *ipiv, const kobalt_matrix_desc *descIpiv, T *B,
                                const kobalt_matrix_desc *descB, int *info, kobalt_int batch) {
    DescChecker c(fn, readable, batch);
    c.op("transx", transx).op("transy", transy);
    const DescDims x = c.matrix("X", X, "descX", descX, sizeof(T), false, transposed(transx));
    c.matrix("Y", Y, "descY", descY, sizeof(T), false, transposed(transy), {x.cols, "k, the columns of op(X)"},
             {x.rows, "n, the rows of op(X)"});
    c.matrix("A", A, "descA", descA, sizeof(T), true, false, {x.rows, "n, the rows of op(X)"},
             {x.rows, "n, the rows of op(X)"});
    c.pivots(ipiv, descIpiv, {x.rows, "n, the rows of op(X)"}, true);
    c.matrix("B", B, "descB", descB, sizeof(T), true, false, {x.rows, "n, the rows of op(X)"});
    c.info(info);
    return c.status();
}

// ---- pack / unpack between standard strided items and the interleaved layout ----------
inline MatrixShape packed_items(kobalt_int rows, kobalt_int cols, kobalt_int lda, bool output) {
    return {"A", rows, cols, "rows", "cols", lda, "lda", output};
}

template <class T>
kobalt_status pack_interleaved(const char *fn, Access readable, kobalt_layout layout, kobalt_int rows, kobalt_int cols,
                               const T *A, kobalt_int lda, kobalt_int strideA, T *P, kobalt_int ldp,
                               kobalt_int batch) {
    DescChecker c(fn, readable, batch, sizeof(T));
    c.base().layout(layout).size("rows", rows).size("cols", cols);
    c.base().matrix(packed_items(rows, cols, lda, false), A, strideA, "strideA");
    c.interleaved("P", P, rows, cols, ldp, sizeof(T));
    return c.status();
}

template <class T>
kobalt_status unpack_interleaved(const char *fn, Access readable, kobalt_layout layout, kobalt_int rows,
                                 kobalt_int cols, const T *P, kobalt_int ldp, T *A, kobalt_int lda,
                                 kobalt_int strideA, kobalt_int batch) {
    DescChecker c(fn, readable, batch, sizeof(T));
    c.base().layout(layout).size("rows", rows).size("cols", cols);
    c.interleaved("P", P, rows, cols, ldp, sizeof(T));
    if (!c.failed()) c.base().matrix(packed_items(rows, cols, lda, true), A, strideA, "strideA");
    return c.status();
}

}  // namespace validate
}  // namespace kobalt
