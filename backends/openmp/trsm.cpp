// trsm.cpp -- B_i = alpha op(A_i)^{-1} B_i (left) or alpha B_i op(A_i)^{-1} (right).
#include "batch_access.hpp"
#include "fixed_path.hpp"
#include "slots.hpp"
#include "small_kernels.hpp"
#include "vendor_kernels.hpp"

namespace kobalt_openmp {
namespace {

// Small path, reduced once per call to a left-side NoTranspose solve on views:
//   left:  op(A) X = alpha B            -> solve with op(A) on B
//   right: X op(A) = alpha B  <=>  op(A)^T X^T = alpha B^T
//          -> solve with op(A)^T (strides swapped again) on the view B^T.
// A transposed triangle swaps lower and upper. alpha == 0 zeroes B without reading A.
template <bool Lower, bool Unit, class T, class AItems, class BItems>
void trsm_small(T alpha, kobalt_int na, AItems A, Strides sa, kobalt_int rows, kobalt_int cols,
                BItems B, Strides sb, kobalt_int batch) {
    for_each_item(batch, [&](kobalt_int i) {
        small::trsm<Lower, Unit, T>(alpha, matrix_view<const T>(A[i], na, na, sa),
                                    matrix_view<T>(B[i], rows, cols, sb));
    });
}

template <class T, class AItems, class BItems>
kobalt_status trsm(const char *routine, kobalt_layout layout, kobalt_side side,
                   kobalt_uplo uplo, kobalt_op transa, kobalt_diag diag, kobalt_int m,
                   kobalt_int n, T alpha, AItems A, kobalt_int lda, BItems B, kobalt_int ldb,
                   kobalt_int batch) {
    if (!fits_int32<T>(routine, {{"m", m}, {"n", n}, {"lda", lda}, {"ldb", ldb}}))
        return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    const kobalt_int size = m > n ? m : n, max_ld = lda > ldb ? lda : ldb;
    // Up to TRSM_FIXED_MAX the compile-time-n solve (fixed_blas2.cpp) on the same
    // reduced problem as the small path below, whatever the choice would be.
    const bool fixed_path = size <= threshold(TRSM_FIXED_MAX) && fixed::fits(size) &&
                            size * max_ld <= INT32_MAX;
    // Above them up to TRSM_DIRECT_MAX: the direct solve (trsm_direct.cpp) on the same
    // reduced problem, whatever the small/vendor choice below would be.
    const bool direct_path = !fixed_path && size > fixed::FIXED_MAX_N &&
                             size <= fixed::TRSM_DIRECT_MAX_N &&
                             size <= threshold(TRSM_DIRECT_MAX) && size * max_ld <= INT32_MAX;
    const Path path = choose_path(for_precision<T>(TRSM_SMALL_MAX, TRSM_SMALL_MAX_FLOAT), size, max_ld, batch);
    if (fixed_path || direct_path || path == Path::small) {
        const bool left = side == KOBALT_LEFT;
        Strides sa = op_strides(layout, transa, lda), sb = strides_of(layout, ldb);
        bool lower = (uplo == KOBALT_LOWER) == (transa == KOBALT_NO_TRANS); // uplo of op(A)
        kobalt_int rows = m, cols = n;
        if (!left) {
            sa = transposed(sa);
            sb = transposed(sb);
            lower = !lower;
            rows = n;
            cols = m;
        }
        const kobalt_int na = rows;
        const bool unit = diag == KOBALT_UNIT;
        if (fixed_path) {
            KOBALT_FIXED_CALL(trsm<T>, lower, unit, int(na), int(cols), alpha, fixed::items(A),
                              fixed::mat(sa), fixed::items(B), sb.rs, sb.cs, batch);
            return KOBALT_SUCCESS;
        }
        if (direct_path) {
            KOBALT_DIRECT_CALL(trsm_direct<T>, lower, unit, int(na), int(cols), alpha,
                               fixed::items(A), fixed::mat(sa), fixed::items(B), sb.rs, sb.cs,
                               batch);
            return KOBALT_SUCCESS;
        }
        if (lower && unit) trsm_small<true, true>(alpha, na, A, sa, rows, cols, B, sb, batch);
        else if (lower) trsm_small<true, false>(alpha, na, A, sa, rows, cols, B, sb, batch);
        else if (unit) trsm_small<false, true>(alpha, na, A, sa, rows, cols, B, sb, batch);
        else trsm_small<false, false>(alpha, na, A, sa, rows, cols, B, sb, batch);
    } else {
        for_each_item_on(batch, path, [&](kobalt_int i) {
            vendor::trsm(layout, side, uplo, transa, diag, int(m), int(n), alpha, A[i], int(lda),
                         B[i], int(ldb));
        });
    }
    return KOBALT_SUCCESS;
}

} // namespace

template <class Real>
kobalt_status trsm_strided(kobalt_layout layout, kobalt_side side, kobalt_uplo uplo,
                           kobalt_op transa, kobalt_diag diag, kobalt_int m, kobalt_int n,
                           Real alpha, const Real *A, kobalt_int lda, kobalt_int strideA, Real *B,
                           kobalt_int ldb, kobalt_int strideB, kobalt_int batch) {
    return trsm<Real>("trsm_strided", layout, side, uplo, transa, diag, m, n, alpha,
                      StridedItems<const Real>{A, strideA}, lda, StridedItems<Real>{B, strideB},
                      ldb, batch);
}

template <class Real>
kobalt_status trsm_batched(kobalt_layout layout, kobalt_side side, kobalt_uplo uplo,
                           kobalt_op transa, kobalt_diag diag, kobalt_int m, kobalt_int n,
                           Real alpha, const Real *const A[], kobalt_int lda, Real *const B[],
                           kobalt_int ldb, kobalt_int batch) {
    return trsm<Real>("trsm_batched", layout, side, uplo, transa, diag, m, n, alpha,
                      PointerItems<const Real>{A}, lda, PointerItems<Real>{B}, ldb, batch);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(trsm_strided)
KOBALT_OPENMP_INSTANTIATE(trsm_batched)
