// trsv.cpp -- x_i = op(A_i)^{-1} x_i, A_i triangular.
#include "batch_access.hpp"
#include "fixed_path.hpp"
#include "slots.hpp"
#include "small_kernels.hpp"
#include "vendor_kernels.hpp"

namespace kobalt_openmp {
namespace {

// Small path: op(A) is a view of A with swapped strides, and the transpose of a lower
// triangle is upper, so only Lower/Upper x Unit/NonUnit NoTranspose kernels exist; the
// choice is made once per call. Negative increments go to CBLAS (BLAS semantics).
template <bool Lower, bool Unit, class T, class AItems, class XItems>
void trsv_small(kobalt_int n, AItems A, Strides sa, XItems x, kobalt_int incx,
                kobalt_int batch) {
    for_each_item(batch, [&](kobalt_int i) {
        small::trsv<Lower, Unit, T>(matrix_view<const T>(A[i], n, n, sa),
                                    vector_view<T>(x[i], n, incx));
    });
}

template <class T, class AItems, class XItems>
kobalt_status trsv(const char *routine, kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans,
                   kobalt_diag diag, kobalt_int n, AItems A, kobalt_int lda, XItems x,
                   kobalt_int incx, kobalt_int batch) {
    if (!fits_int32<T>(routine, {{"n", n}, {"lda", lda}, {"incx", incx}}))
        return KOBALT_NOT_SUPPORTED;
    if (n == 0) return KOBALT_SUCCESS;
    const bool lower = (uplo == KOBALT_LOWER) == (trans == KOBALT_NO_TRANS); // uplo of op(A)
    const bool unit = diag == KOBALT_UNIT;
    // Positive increments up to TRSV_FIXED_MAX: the compile-time-n solve
    // (fixed_blas2.cpp) with x as its one column, whatever the choice below would be.
    if (incx > 0 && n <= threshold(TRSV_FIXED_MAX) && fixed::fits(n) &&
        n * (lda > incx ? lda : incx) <= INT32_MAX) {
        KOBALT_FIXED_CALL(trsm<T>, lower, unit, int(n), 1, T(1), fixed::items(A),
                          fixed::mat(op_strides(layout, trans, lda)), fixed::items(x), incx, 0,
                          batch);
        return KOBALT_SUCCESS;
    }
    // Positive increments above them up to TRSV_DIRECT_MAX: the direct solve
    // (trsv_direct.cpp) on a local copy of x, whatever the choice below.
    if (incx > 0 && n > fixed::FIXED_MAX_N && n <= fixed::DIRECT_MAX_N &&
        n <= threshold(TRSV_DIRECT_MAX) && n * (lda > incx ? lda : incx) <= INT32_MAX) {
        fixed::TrsvDirectOpts o;
        o.prefetch = n <= threshold(TRSV_PREFETCH_MAX);
        o.prefetch_next = n >= threshold(TRSV_PREFETCH_NEXT_MIN);
        o.in_place = n <= threshold(TRSV_INPLACE_MAX);
        o.col_sweep = n >= threshold(TRSV_COL_SWEEP_MIN) && n <= threshold(TRSV_COL_SWEEP_MAX);
        o.row_sweep = n <= threshold(TRSV_ROW_SWEEP_MAX);
        KOBALT_FIXED_CALL(trsv_direct<T>, lower, unit, o, int(n), fixed::items(A),
                          fixed::mat(op_strides(layout, trans, lda)), fixed::items(x),
                          int64_t(incx), batch);
        return KOBALT_SUCCESS;
    }
    const Path path =
        choose_path(TRSV_SMALL_MAX, n, lda > incx ? lda : incx, batch, incx > 0);
    if (path == Path::small) {
        const Strides sa = op_strides(layout, trans, lda);
        if (lower && unit) trsv_small<true, true, T>(n, A, sa, x, incx, batch);
        else if (lower) trsv_small<true, false, T>(n, A, sa, x, incx, batch);
        else if (unit) trsv_small<false, true, T>(n, A, sa, x, incx, batch);
        else trsv_small<false, false, T>(n, A, sa, x, incx, batch);
    } else {
        for_each_item_on(batch, path, [&](kobalt_int i) {
            vendor::trsv(layout, uplo, trans, diag, int(n), A[i], int(lda), x[i], int(incx));
        });
    }
    return KOBALT_SUCCESS;
}

} // namespace

template <class Real>
kobalt_status trsv_strided(kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans,
                           kobalt_diag diag, kobalt_int n, const Real *A, kobalt_int lda,
                           kobalt_int strideA, Real *x, kobalt_int incx, kobalt_int stridex,
                           kobalt_int batch) {
    return trsv<Real>("trsv_strided", layout, uplo, trans, diag, n,
                      StridedItems<const Real>{A, strideA}, lda, StridedItems<Real>{x, stridex},
                      incx, batch);
}

template <class Real>
kobalt_status trsv_batched(kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans,
                           kobalt_diag diag, kobalt_int n, const Real *const A[],
                           kobalt_int lda, Real *const x[], kobalt_int incx, kobalt_int batch) {
    return trsv<Real>("trsv_batched", layout, uplo, trans, diag, n, PointerItems<const Real>{A},
                      lda, PointerItems<Real>{x}, incx, batch);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(trsv_strided)
KOBALT_OPENMP_INSTANTIATE(trsv_batched)
