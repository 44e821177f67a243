// gemv.cpp -- y_i = alpha op(A_i) x_i + beta y_i.
#include "batch_access.hpp"
#include "fixed_path.hpp"
#include "slots.hpp"
#include "small_kernels.hpp"
#include "vendor_kernels.hpp"

namespace kobalt_openmp {
namespace {

// As CBLAS: m == 0 or n == 0 leaves y untouched (no beta scaling). beta == 0 never
// reads y, alpha == 0 never reads A or x. A negative increment (BLAS semantics: element
// j at x + (len-1-j)*|inc|) sends the call to CBLAS, which implements exactly that.
template <class T, class AItems, class XItems, class YItems>
kobalt_status gemv(const char *routine, kobalt_layout layout, kobalt_op trans, kobalt_int m,
                   kobalt_int n, T alpha, AItems A, kobalt_int lda, XItems x, kobalt_int incx,
                   T beta, YItems y, kobalt_int incy, kobalt_int batch) {
    if (!fits_int32<T>(routine, {{"m", m}, {"n", n}, {"lda", lda}, {"incx", incx},
                                 {"incy", incy}}))
        return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    const bool positive = incx > 0 && incy > 0;
    // Unit increments up to GEMV_FIXED_MAX: the compile-time-n kernels (fixed_blas2.cpp),
    // whatever the small/vendor choice below would be.
    const kobalt_int size = m > n ? m : n;
    if (incx == 1 && incy == 1 && size <= threshold(GEMV_FIXED_MAX) &&
        size <= fixed::FIXED_GEMV_MAX_N && size * lda <= INT32_MAX) {
        const bool notrans = trans == KOBALT_NO_TRANS;
        KOBALT_FIXED_CALL(gemv<T>, int(notrans ? m : n), int(notrans ? n : m), alpha,
                          fixed::items(A), fixed::mat(op_strides(layout, trans, lda)),
                          fixed::items(x), beta, fixed::items(y), batch);
        return KOBALT_SUCCESS;
    }
    const Path path = choose_path(GEMV_SMALL_MAX, size,
                                  max3(lda, incx < 0 ? -incx : incx, incy < 0 ? -incy : incy),
                                  batch, positive);
    if (path == Path::small) {
        const bool notrans = trans == KOBALT_NO_TRANS;
        const kobalt_int rows = notrans ? m : n, cols = notrans ? n : m; // op(A) is rows x cols
        const Strides sa = op_strides(layout, trans, lda);
        for_each_item(batch, [&](kobalt_int i) {
            small::gemv<T>(alpha, matrix_view<const T>(A[i], rows, cols, sa),
                           vector_view<const T>(x[i], cols, incx), beta,
                           vector_view<T>(y[i], rows, incy));
        });
    } else {
        for_each_item_on(batch, path, [&](kobalt_int i) {
            vendor::gemv(layout, trans, int(m), int(n), alpha, A[i], int(lda), x[i], int(incx),
                         beta, y[i], int(incy));
        });
    }
    return KOBALT_SUCCESS;
}

} // namespace

template <class Real>
kobalt_status gemv_strided(kobalt_layout layout, kobalt_op trans, kobalt_int m, kobalt_int n,
                           Real alpha, const Real *A, kobalt_int lda, kobalt_int strideA,
                           const Real *x, kobalt_int incx, kobalt_int stridex, Real beta,
                           Real *y, kobalt_int incy, kobalt_int stridey, kobalt_int batch) {
    return gemv<Real>("gemv_strided", layout, trans, m, n, alpha,
                      StridedItems<const Real>{A, strideA}, lda,
                      StridedItems<const Real>{x, stridex}, incx, beta,
                      StridedItems<Real>{y, stridey}, incy, batch);
}

template <class Real>
kobalt_status gemv_batched(kobalt_layout layout, kobalt_op trans, kobalt_int m, kobalt_int n,
                           Real alpha, const Real *const A[], kobalt_int lda,
                           const Real *const x[], kobalt_int incx, Real beta, Real *const y[],
                           kobalt_int incy, kobalt_int batch) {
    return gemv<Real>("gemv_batched", layout, trans, m, n, alpha, PointerItems<const Real>{A},
                      lda, PointerItems<const Real>{x}, incx, beta, PointerItems<Real>{y}, incy,
                      batch);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(gemv_strided)
KOBALT_OPENMP_INSTANTIATE(gemv_batched)
