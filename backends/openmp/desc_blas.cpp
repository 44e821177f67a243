// desc_blas.cpp -- gemm, gemv, trsv and trsm on described operands (_desc slots): the
// interleaved SIMD kernels, the _strided slot, or gathered rounds (desc_common.hpp).
#include "desc_common.hpp"
#include "slots.hpp"

namespace kobalt_openmp {

using namespace kobalt_desc;
using desc::interleaved_max;
using desc::Operand;
using desc::Rounds;
using desc::Tight;

// ---- gemm: C = alpha op(A) op(B) + beta C ---------------------------------------------
template <class Real>
kobalt_status gemm_desc(kobalt_op transa, kobalt_op transb, Real alpha, const Real *A,
                        const kobalt_matrix_desc *descA, const Real *B, const kobalt_matrix_desc *descB,
                        Real beta, Real *C, const kobalt_matrix_desc *descC, kobalt_int batch) {
    static const char routine[] = "gemm_desc";
    const kobalt_int m = descC->rows, n = descC->cols;
    const kobalt_int k = transa == KOBALT_NO_TRANS ? descA->cols : descA->rows;
    if (!desc::sizes_fit<Real>(routine, {{"m", m}, {"n", n}, {"k", k}})) return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    if (all_interleaved({descA, descB, descC}, batch) && max3(m, n, k) <= interleaved_max()) {
        KOBALT_INTERLEAVED_CALL(gemm<Real>, int(m), int(n), int(k), alpha, desc::operand(A, descA, transa),
                                desc::operand(B, descB, transb), beta, desc::operand(C, descC), batch);
        return KOBALT_SUCCESS;
    }
    for (kobalt_layout layout : kLayouts) {
        const Standard c = as_standard(*descC, layout);
        const OpStandard a = op_standard(*descA, transa, layout), b = op_standard(*descB, transb, layout);
        if (c.ok && a.ok && b.ok)
            return gemm_strided<Real>(layout, a.op, b.op, m, n, k, alpha, A, a.ld, a.stride, B, b.ld, b.stride,
                                      beta, C, c.ld, c.stride, batch);
    }
    const bool readAB = alpha != Real(0) && k > 0, readC = beta != Real(0);
    const Tight ta(descA, readAB), tb(descB, readAB), tc(descC);
    Rounds<Real> r;
    if (!r.allocate(precision_letter<Real>(), routine, batch, {ta.item, tb.item, tc.item}, {})) return KOBALT_OUT_OF_MEMORY;
    // Empty scratch operands still need a valid leading dimension for the slot.
    const kobalt_int lda = ta.item ? ta.ld : (transa == KOBALT_NO_TRANS ? (m > 1 ? m : 1) : (k > 1 ? k : 1));
    const kobalt_int ldb = tb.item ? tb.ld : (transb == KOBALT_NO_TRANS ? (k > 1 ? k : 1) : (n > 1 ? n : 1));
    for (kobalt_int first = 0; first < batch; first += r.items) {
        const kobalt_int count = batch - first < r.items ? batch - first : r.items;
        desc::gather(A, descA, first, count, r.real[0].data(), ta);
        desc::gather(B, descB, first, count, r.real[1].data(), tb);
        if (readC) desc::gather<Real>(C, descC, first, count, r.real[2].data(), tc);
        const kobalt_status s = gemm_strided<Real>(KOBALT_COL_MAJOR, transa, transb, m, n, k, alpha,
                                                   r.real[0].data(), lda, ta.item, r.real[1].data(), ldb, tb.item,
                                                   beta, r.real[2].data(), tc.ld, tc.item, count);
        if (s != KOBALT_SUCCESS) return s;
        desc::scatter(r.real[2].data(), tc, first, count, C, descC);
    }
    return KOBALT_SUCCESS;
}

// ---- gemv: y = alpha op(A) x + beta y (m == 0 or n == 0: y untouched, as CBLAS) -------
template <class Real>
kobalt_status gemv_desc(kobalt_op trans, Real alpha, const Real *A, const kobalt_matrix_desc *descA, const Real *x,
                        const kobalt_matrix_desc *descx, Real beta, Real *y, const kobalt_matrix_desc *descy,
                        kobalt_int batch) {
    static const char routine[] = "gemv_desc";
    const kobalt_int m = descA->rows, n = descA->cols;
    if (!desc::sizes_fit<Real>(routine, {{"m", m}, {"n", n}})) return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    const bool notrans = trans == KOBALT_NO_TRANS;
    const kobalt_int rows = notrans ? m : n, cols = notrans ? n : m; // op(A)
    if (all_interleaved({descA, descx, descy}, batch) && (m > n ? m : n) <= interleaved_max()) {
        const Operand<const Real> xv{x, descx->row_stride, 0};
        const Operand<Real> yv{y, descy->row_stride, 0};
        KOBALT_INTERLEAVED_CALL(gemm<Real>, int(rows), 1, int(cols), alpha, desc::operand(A, descA, trans), xv, beta,
                                yv, batch);
        return KOBALT_SUCCESS;
    }
    const StdVector vx = as_vector(*descx), vy = as_vector(*descy);
    for (kobalt_layout layout : kLayouts) {
        const Standard a = as_standard(*descA, layout);
        if (a.ok && vx.ok && vy.ok)
            return gemv_strided<Real>(layout, trans, m, n, alpha, A, a.ld, a.stride, x, vx.inc, vx.stride, beta, y,
                                      vy.inc, vy.stride, batch);
    }
    const bool readC = beta != Real(0);
    const Tight ta(descA), tx(descx), ty(descy);
    Rounds<Real> r;
    if (!r.allocate(precision_letter<Real>(), routine, batch, {ta.item, tx.item, ty.item}, {})) return KOBALT_OUT_OF_MEMORY;
    for (kobalt_int first = 0; first < batch; first += r.items) {
        const kobalt_int count = batch - first < r.items ? batch - first : r.items;
        desc::gather(A, descA, first, count, r.real[0].data(), ta);
        desc::gather(x, descx, first, count, r.real[1].data(), tx);
        if (readC) desc::gather<Real>(y, descy, first, count, r.real[2].data(), ty);
        const kobalt_status s = gemv_strided<Real>(KOBALT_COL_MAJOR, trans, m, n, alpha, r.real[0].data(), ta.ld,
                                                   ta.item, r.real[1].data(), 1, tx.item, beta, r.real[2].data(), 1,
                                                   ty.item, count);
        if (s != KOBALT_SUCCESS) return s;
        desc::scatter(r.real[2].data(), ty, first, count, y, descy);
    }
    return KOBALT_SUCCESS;
}

// ---- trsv: x = op(A)^{-1} x ----------------------------------------------------------
template <class Real>
kobalt_status trsv_desc(kobalt_uplo uplo, kobalt_op trans, kobalt_diag diag, const Real *A,
                        const kobalt_matrix_desc *descA, Real *x, const kobalt_matrix_desc *descx, kobalt_int batch) {
    static const char routine[] = "trsv_desc";
    const kobalt_int n = descA->rows;
    if (!desc::sizes_fit<Real>(routine, {{"n", n}})) return KOBALT_NOT_SUPPORTED;
    if (n == 0) return KOBALT_SUCCESS;
    if (all_interleaved({descA, descx}, batch) && n <= interleaved_max()) {
        const bool lower = (uplo == KOBALT_LOWER) == (trans == KOBALT_NO_TRANS); // triangle of op(A)
        const Operand<Real> xv{x, descx->row_stride, 0};
        KOBALT_INTERLEAVED_CALL(trsm<Real>, lower, diag == KOBALT_UNIT, int(n), 1, Real(1),
                                desc::operand(A, descA, trans), xv, batch);
        return KOBALT_SUCCESS;
    }
    const StdVector vx = as_vector(*descx);
    for (kobalt_layout layout : kLayouts) {
        const Standard a = as_standard(*descA, layout);
        if (a.ok && vx.ok)
            return trsv_strided<Real>(layout, uplo, trans, diag, n, A, a.ld, a.stride, x, vx.inc, vx.stride, batch);
    }
    const Tight ta(descA), tx(descx);
    Rounds<Real> r;
    if (!r.allocate(precision_letter<Real>(), routine, batch, {ta.item, tx.item}, {})) return KOBALT_OUT_OF_MEMORY;
    for (kobalt_int first = 0; first < batch; first += r.items) {
        const kobalt_int count = batch - first < r.items ? batch - first : r.items;
        desc::gather(A, descA, first, count, r.real[0].data(), ta);
        desc::gather<Real>(x, descx, first, count, r.real[1].data(), tx);
        const kobalt_status s = trsv_strided<Real>(KOBALT_COL_MAJOR, uplo, trans, diag, n, r.real[0].data(), ta.ld,
                                                   ta.item, r.real[1].data(), 1, tx.item, count);
        if (s != KOBALT_SUCCESS) return s;
        desc::scatter(r.real[1].data(), tx, first, count, x, descx);
    }
    return KOBALT_SUCCESS;
}

// ---- trsm: B = alpha op(A)^{-1} B (left) or alpha B op(A)^{-1} (right) -----------------
template <class Real>
kobalt_status trsm_desc(kobalt_side side, kobalt_uplo uplo, kobalt_op transa, kobalt_diag diag, Real alpha,
                        const Real *A, const kobalt_matrix_desc *descA, Real *B, const kobalt_matrix_desc *descB,
                        kobalt_int batch) {
    static const char routine[] = "trsm_desc";
    const kobalt_int m = descB->rows, n = descB->cols;
    if (!desc::sizes_fit<Real>(routine, {{"m", m}, {"n", n}})) return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    const bool left = side == KOBALT_LEFT;
    if (all_interleaved({descA, descB}, batch) && (m > n ? m : n) <= interleaved_max()) {
        // Left: op(A) X = alpha B. Right: X op(A) = alpha B <=> op(A)^T X^T = alpha B^T.
        bool lower = (uplo == KOBALT_LOWER) == (transa == KOBALT_NO_TRANS);
        Operand<const Real> a = desc::operand(A, descA, transa);
        Operand<Real> b = desc::operand(B, descB);
        if (!left) {
            a = desc::transpose(a);
            b = desc::transpose(b);
            lower = !lower;
        }
        KOBALT_INTERLEAVED_CALL(trsm<Real>, lower, diag == KOBALT_UNIT, int(left ? m : n), int(left ? n : m), alpha, a,
                                b, batch);
        return KOBALT_SUCCESS;
    }
    for (kobalt_layout layout : kLayouts) {
        const Standard b = as_standard(*descB, layout);
        const OpStandard a = op_standard(*descA, transa, layout);
        if (a.ok && b.ok)
            return trsm_strided<Real>(layout, side, a.flipped ? flip(uplo) : uplo, a.op, diag, m, n, alpha, A, a.ld,
                                      a.stride, B, b.ld, b.stride, batch);
    }
    const bool read = alpha != Real(0);
    const Tight ta(descA, read), tb(descB);
    Rounds<Real> r;
    if (!r.allocate(precision_letter<Real>(), routine, batch, {ta.item, tb.item}, {})) return KOBALT_OUT_OF_MEMORY;
    const kobalt_int na = left ? m : n, lda = na > 1 ? na : 1;
    for (kobalt_int first = 0; first < batch; first += r.items) {
        const kobalt_int count = batch - first < r.items ? batch - first : r.items;
        desc::gather(A, descA, first, count, r.real[0].data(), ta);
        if (read) desc::gather<Real>(B, descB, first, count, r.real[1].data(), tb);
        const kobalt_status s = trsm_strided<Real>(KOBALT_COL_MAJOR, side, uplo, transa, diag, m, n, alpha,
                                                   r.real[0].data(), lda, ta.item, r.real[1].data(), tb.ld, tb.item,
                                                   count);
        if (s != KOBALT_SUCCESS) return s;
        desc::scatter(r.real[1].data(), tb, first, count, B, descB);
    }
    return KOBALT_SUCCESS;
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(gemm_desc)
KOBALT_OPENMP_INSTANTIATE(gemv_desc)
KOBALT_OPENMP_INSTANTIATE(trsv_desc)
KOBALT_OPENMP_INSTANTIATE(trsm_desc)
