// desc_lapack.cpp -- getrf, getrs and the fused call on described operands (_desc
// slots): the interleaved SIMD kernels, the _strided slot, or gathered rounds
// (desc_common.hpp). Pivots and info keep LAPACK's meaning on every path.
#include "desc_common.hpp"
#include "slots.hpp"

namespace kobalt_openmp {

using namespace kobalt_desc;
using desc::interleaved_max;
using desc::Rounds;
using desc::Tight;

// The gathered pivots of a round: count x 1 ints per item, contiguous.
inline kobalt_matrix_desc tight_pivots(kobalt_int count) { return {count, 1, 1, count, count}; }

// ---- getrf: A = P L U ------------------------------------------------------------------
template <class Real>
kobalt_status getrf_desc(Real *A, const kobalt_matrix_desc *descA, int *ipiv, const kobalt_matrix_desc *descIpiv,
                         int *info, kobalt_int batch) {
    static const char routine[] = "getrf_desc";
    const kobalt_int m = descA->rows, n = descA->cols, r = m < n ? m : n;
    if (!desc::sizes_fit<Real>(routine, {{"m", m}, {"n", n}})) return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) {
        for (kobalt_int i = 0; i < batch; ++i) info[i] = 0;
        return KOBALT_SUCCESS;
    }
    if (all_interleaved({descA}, batch) && (m > n ? m : n) <= interleaved_max()) {
        KOBALT_INTERLEAVED_CALL(getrf<Real>, int(m), int(n), desc::operand(A, descA), desc::pivots(ipiv, descIpiv),
                                info, batch);
        return KOBALT_SUCCESS;
    }
    const StdPivots p = as_pivots(ipiv, descIpiv);
    for (kobalt_layout layout : kLayouts) {
        const Standard a = as_standard(*descA, layout);
        if (a.ok && p.ok) return getrf_strided<Real>(layout, m, n, A, a.ld, a.stride, ipiv, p.stride, info, batch);
    }
    const Tight ta(descA);
    const kobalt_matrix_desc tp = tight_pivots(r);
    Rounds<Real> rs;
    if (!rs.allocate(precision_letter<Real>(), routine, batch, {ta.item}, {ipiv ? r : 0}))
        return KOBALT_OUT_OF_MEMORY;
    for (kobalt_int first = 0; first < batch; first += rs.items) {
        const kobalt_int count = batch - first < rs.items ? batch - first : rs.items;
        int *const piv = ipiv ? rs.integer[0].data() : nullptr;
        desc::gather<Real>(A, descA, first, count, rs.real[0].data(), ta);
        const kobalt_status s = getrf_strided<Real>(KOBALT_COL_MAJOR, m, n, rs.real[0].data(), ta.ld, ta.item, piv,
                                                    r, info + first, count);
        if (s != KOBALT_SUCCESS) return s;
        desc::scatter(rs.real[0].data(), ta, first, count, A, descA);
        if (ipiv) desc::scatter(piv, Tight(&tp), first, count, ipiv, descIpiv);
    }
    return KOBALT_SUCCESS;
}

// ---- getrs: B = op(A)^{-1} B from getrf's factors --------------------------------------
template <class Real>
kobalt_status getrs_desc(kobalt_op trans, const Real *A, const kobalt_matrix_desc *descA, const int *ipiv,
                         const kobalt_matrix_desc *descIpiv, Real *B, const kobalt_matrix_desc *descB,
                         kobalt_int batch) {
    static const char routine[] = "getrs_desc";
    const kobalt_int n = descA->rows, nrhs = descB->cols;
    if (!desc::sizes_fit<Real>(routine, {{"n", n}, {"nrhs", nrhs}})) return KOBALT_NOT_SUPPORTED;
    if (n == 0 || nrhs == 0) return KOBALT_SUCCESS;
    int *const piv_rw = const_cast<int *>(ipiv); // the kernels take one pivot type; getrs only reads
    if (all_interleaved({descA, descB}, batch) && n <= interleaved_max()) {
        KOBALT_INTERLEAVED_CALL(getrs<Real>, trans != KOBALT_NO_TRANS, int(n), int(nrhs), desc::operand(A, descA),
                                desc::pivots(piv_rw, descIpiv), desc::operand(B, descB), batch);
        return KOBALT_SUCCESS;
    }
    const StdPivots p = as_pivots(ipiv, descIpiv);
    for (kobalt_layout layout : kLayouts) {
        const Standard a = as_standard(*descA, layout), b = as_standard(*descB, layout);
        if (a.ok && b.ok && p.ok)
            return getrs_strided<Real>(layout, trans, n, nrhs, A, a.ld, a.stride, ipiv, p.stride, B, b.ld, b.stride,
                                       batch);
    }
    const Tight ta(descA), tb(descB);
    const kobalt_matrix_desc tp = tight_pivots(n);
    Rounds<Real> rs;
    if (!rs.allocate(precision_letter<Real>(), routine, batch, {ta.item, tb.item}, {ipiv ? n : 0}))
        return KOBALT_OUT_OF_MEMORY;
    for (kobalt_int first = 0; first < batch; first += rs.items) {
        const kobalt_int count = batch - first < rs.items ? batch - first : rs.items;
        int *const piv = ipiv ? rs.integer[0].data() : nullptr;
        desc::gather(A, descA, first, count, rs.real[0].data(), ta);
        if (ipiv) desc::gather(ipiv, descIpiv, first, count, piv, Tight(&tp));
        desc::gather<Real>(B, descB, first, count, rs.real[1].data(), tb);
        const kobalt_status s = getrs_strided<Real>(KOBALT_COL_MAJOR, trans, n, nrhs, rs.real[0].data(), ta.ld,
                                                    ta.item, piv, n, rs.real[1].data(), tb.ld, tb.item, count);
        if (s != KOBALT_SUCCESS) return s;
        desc::scatter(rs.real[1].data(), tb, first, count, B, descB);
    }
    return KOBALT_SUCCESS;
}

// ---- the fused call: A = alpha op(X) op(Y) + beta A; A = P L U; B = A^{-1} B ----------
template <class Real>
kobalt_status gemm_lu_trsv_desc(kobalt_op transx, kobalt_op transy, Real alpha, const Real *X,
                                const kobalt_matrix_desc *descX, const Real *Y, const kobalt_matrix_desc *descY,
                                Real beta, Real *A, const kobalt_matrix_desc *descA, int *ipiv,
                                const kobalt_matrix_desc *descIpiv, Real *B, const kobalt_matrix_desc *descB,
                                int *info, kobalt_int batch) {
    static const char routine[] = "gemm_lu_trsv_desc";
    const kobalt_int n = descA->rows, nrhs = descB->cols;
    const kobalt_int k = transx == KOBALT_NO_TRANS ? descX->cols : descX->rows;
    if (!desc::sizes_fit<Real>(routine, {{"n", n}, {"k", k}, {"nrhs", nrhs}})) return KOBALT_NOT_SUPPORTED;
    if (n == 0) {
        for (kobalt_int i = 0; i < batch; ++i) info[i] = 0;
        return KOBALT_SUCCESS;
    }
    if (all_interleaved({descX, descY, descA, descB}, batch) && (n > k ? n : k) <= interleaved_max()) {
        KOBALT_INTERLEAVED_CALL(fused<Real>, int(n), int(k), int(nrhs), alpha, desc::operand(X, descX, transx),
                                desc::operand(Y, descY, transy), beta, desc::operand(A, descA),
                                desc::pivots(ipiv, descIpiv), desc::operand(B, descB), info, batch);
        return KOBALT_SUCCESS;
    }
    const StdPivots p = as_pivots(ipiv, descIpiv);
    for (kobalt_layout layout : kLayouts) {
        const Standard a = as_standard(*descA, layout), b = as_standard(*descB, layout);
        const OpStandard x = op_standard(*descX, transx, layout), y = op_standard(*descY, transy, layout);
        if (a.ok && b.ok && x.ok && y.ok && p.ok)
            return gemm_lu_trsv_strided<Real>(layout, x.op, y.op, n, k, nrhs, alpha, X, x.ld, x.stride, Y, y.ld,
                                              y.stride, beta, A, a.ld, a.stride, ipiv, p.stride, B, b.ld, b.stride,
                                              info, batch);
    }
    const bool readXY = alpha != Real(0) && k > 0, readA = beta != Real(0);
    const Tight tx(descX, readXY), ty(descY, readXY), ta(descA), tb(descB);
    const kobalt_matrix_desc tp = tight_pivots(n);
    Rounds<Real> rs;
    if (!rs.allocate(precision_letter<Real>(), routine, batch, {tx.item, ty.item, ta.item, tb.item}, {ipiv ? n : 0}))
        return KOBALT_OUT_OF_MEMORY;
    const kobalt_int ldx = tx.item ? tx.ld : (transx == KOBALT_NO_TRANS ? n : (k > 1 ? k : 1));
    const kobalt_int ldy = ty.item ? ty.ld : (transy == KOBALT_NO_TRANS ? (k > 1 ? k : 1) : n);
    for (kobalt_int first = 0; first < batch; first += rs.items) {
        const kobalt_int count = batch - first < rs.items ? batch - first : rs.items;
        int *const piv = ipiv ? rs.integer[0].data() : nullptr;
        desc::gather(X, descX, first, count, rs.real[0].data(), tx);
        desc::gather(Y, descY, first, count, rs.real[1].data(), ty);
        if (readA) desc::gather<Real>(A, descA, first, count, rs.real[2].data(), ta);
        desc::gather<Real>(B, descB, first, count, rs.real[3].data(), tb);
        const kobalt_status s = gemm_lu_trsv_strided<Real>(
            KOBALT_COL_MAJOR, transx, transy, n, k, nrhs, alpha, rs.real[0].data(), ldx, tx.item, rs.real[1].data(),
            ldy, ty.item, beta, rs.real[2].data(), ta.ld, ta.item, piv, n, rs.real[3].data(), tb.ld, tb.item,
            info + first, count);
        if (s != KOBALT_SUCCESS) return s;
        desc::scatter(rs.real[2].data(), ta, first, count, A, descA);
        if (ipiv) desc::scatter(piv, Tight(&tp), first, count, ipiv, descIpiv);
        desc::scatter(rs.real[3].data(), tb, first, count, B, descB);
    }
    return KOBALT_SUCCESS;
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(getrf_desc)
KOBALT_OPENMP_INSTANTIATE(getrs_desc)
KOBALT_OPENMP_INSTANTIATE(gemm_lu_trsv_desc)
