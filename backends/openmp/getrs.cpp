// getrs.cpp -- B_i = op(A_i)^{-1} B_i from getrf's factors (ipiv == NULL: no pivoting).
#include "batch_access.hpp"
#include "fixed_path.hpp"
#include "packed_path.hpp"
#include "slots.hpp"
#include "small_kernels.hpp"
#include "vendor_kernels.hpp"

namespace kobalt_openmp {
namespace {

// LAPACK dgetrs semantics: the interchanges are applied as dlaswp (forward before the
// NoTrans solves, backward after the Trans ones); ConjTrans is Trans for real data.
// With ipiv == NULL only the two triangular solves run. The core range-checked ipiv.
// Neither path allocates (the vendor path does its own interchanges and calls CBLAS
// trsm in the caller's layout instead of LAPACKE's transposing row-major getrs).
template <class T, class AItems, class BItems>
kobalt_status getrs(const char *routine, kobalt_layout layout, kobalt_op trans, kobalt_int n,
                    kobalt_int nrhs, AItems A, kobalt_int lda, const int *ipiv,
                    kobalt_int strideIpiv, BItems B, kobalt_int ldb, kobalt_int batch) {
    if (!fits_int32<T>(routine, {{"n", n}, {"nrhs", nrhs}, {"lda", lda}, {"ldb", ldb}}))
        return KOBALT_NOT_SUPPORTED;
    if (n == 0 || nrhs == 0) return KOBALT_SUCCESS;
    // One right-hand side at n <= 8: the in-place solve (getrs_tiny.cpp), whatever
    // the small/vendor/packed choice below.
    if (nrhs == 1 && n <= fixed::FIXED_MAX_N && n <= threshold(GETRS_TINY_MAX)) {
        const Strides sa = strides_of(layout, lda), sb = strides_of(layout, ldb);
        const bool t = trans != KOBALT_NO_TRANS;
        const auto a = fixed::items(A);
        const auto b = fixed::items(B);
        const int pairs = int(threshold(for_precision<T>(GETRS_TINY_PAIR_MAX, GETRS_TINY_PAIR_MAX_FLOAT)));
        // The AVX-512 copy (where the CPU has it) from GETRS_TINY_WIDE_MIN on; below, the AVX2
        // or baseline copy.
        if (n >= threshold(GETRS_TINY_WIDE_MIN))
            KOBALT_DIRECT_CALL(getrs_tiny<T>, t, int(n), a, fixed::mat(sa), ipiv, strideIpiv, b, int64_t(sb.rs), batch, pairs);
        else
            KOBALT_FIXED_CALL(getrs_tiny<T>, t, int(n), a, fixed::mat(sa), ipiv, strideIpiv, b, int64_t(sb.rs), batch, pairs);
        return KOBALT_SUCCESS;
    }
    // One right-hand side above the fixed-n kernels: the direct solve (getrs_direct.cpp),
    // whatever the small/vendor choice below; its offsets are 64-bit.
    if (nrhs == 1 && n > fixed::FIXED_MAX_N && n <= fixed::DIRECT_MAX_N &&
        n <= threshold(GETRS_DIRECT_MAX)) {
        const Strides sa = strides_of(layout, lda), sb = strides_of(layout, ldb);
        KOBALT_FIXED_CALL(getrs_direct<T>, trans != KOBALT_NO_TRANS,
                          n >= threshold(GETRS_STREAM_MIN), int(n), fixed::items(A),
                          fixed::mat(sa), ipiv, strideIpiv, fixed::items(B), int64_t(sb.rs),
                          batch);
        return KOBALT_SUCCESS;
    }
    const Path path = choose_path(GETRS_SMALL_MAX, n > nrhs ? n : nrhs, lda > ldb ? lda : ldb,
                                  batch);
    if (path == Path::small) {
        const Strides sa = strides_of(layout, lda), sb = strides_of(layout, ldb);
        const bool t = trans != KOBALT_NO_TRANS;
        if (packed::use_for_getrs<T>(n, batch)) {
            KOBALT_INTERLEAVED_CALL(packed_getrs<T>, t, int(n), packed::prefetch(), int(nrhs),
                                    fixed::items(A), fixed::mat(sa), ipiv, strideIpiv,
                                    fixed::items(B), fixed::mat(sb), batch);
            return KOBALT_SUCCESS;
        }
        if (fixed::fits(n)) {
            KOBALT_FIXED_CALL(getrs<T>, t, int(n), int(nrhs), fixed::items(A), fixed::mat(sa),
                              ipiv, strideIpiv, fixed::items(B), fixed::mat(sb), batch);
            return KOBALT_SUCCESS;
        }
        for_each_item(batch, [&](kobalt_int i) {
            small::getrs<T>(t, matrix_view<const T>(A[i], n, n, sa),
                            ipiv ? ipiv + i * strideIpiv : nullptr,
                            matrix_view<T>(B[i], n, nrhs, sb));
        });
    } else {
        const kobalt_op t = trans == KOBALT_NO_TRANS ? KOBALT_NO_TRANS : KOBALT_TRANS;
        for_each_item_on(batch, path, [&](kobalt_int i) {
            vendor::getrs(layout, t, int(n), int(nrhs), A[i], int(lda),
                          ipiv ? ipiv + i * strideIpiv : nullptr, B[i], int(ldb));
        });
    }
    return KOBALT_SUCCESS;
}

} // namespace

template <class Real>
kobalt_status getrs_strided(kobalt_layout layout, kobalt_op trans, kobalt_int n,
                            kobalt_int nrhs, const Real *A, kobalt_int lda, kobalt_int strideA,
                            const int *ipiv, kobalt_int strideIpiv, Real *B, kobalt_int ldb,
                            kobalt_int strideB, kobalt_int batch) {
    return getrs<Real>("getrs_strided", layout, trans, n, nrhs,
                       StridedItems<const Real>{A, strideA}, lda, ipiv, strideIpiv,
                       StridedItems<Real>{B, strideB}, ldb, batch);
}

template <class Real>
kobalt_status getrs_batched(kobalt_layout layout, kobalt_op trans, kobalt_int n,
                            kobalt_int nrhs, const Real *const A[], kobalt_int lda,
                            const int *ipiv, kobalt_int strideIpiv, Real *const B[],
                            kobalt_int ldb, kobalt_int batch) {
    return getrs<Real>("getrs_batched", layout, trans, n, nrhs, PointerItems<const Real>{A}, lda,
                       ipiv, strideIpiv, PointerItems<Real>{B}, ldb, batch);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(getrs_strided)
KOBALT_OPENMP_INSTANTIATE(getrs_batched)
