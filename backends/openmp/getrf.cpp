// getrf.cpp -- A_i = P_i L_i U_i, LAPACK semantics (ipiv == NULL: no pivoting).
#include "batch_access.hpp"
#include "fixed_path.hpp"
#include "lu_nopivot_unit.hpp"
#include "packed_path.hpp"
#include "slots.hpp"
#include "small_kernels.hpp"
#include "thread_scratch.hpp"
#include "vendor_kernels.hpp"

namespace kobalt_openmp {
namespace {

// The direct LU (getrf_direct.cpp), checked before the small/vendor choice (as trsm's direct
// solve): at n = 56, 64 it also beat OpenBLAS, the vendor path above GETRF_SMALL_MAX
// (docs/performance.md, "getrf at n = 24 ... 64: the direct LU").
bool runs_direct(kobalt_int m, kobalt_int n, bool pivoted) {
    return pivoted && m == n && n >= threshold(GETRF_DIRECT_MIN) && n <= threshold(GETRF_DIRECT_MAX) &&
           n <= fixed::GETRF_DIRECT_MAX_N;
}
Path path_of(kobalt_int m, kobalt_int n, kobalt_int lda, bool pivoted, kobalt_int batch) {
    return choose_path(pivoted ? GETRF_SMALL_MAX : GETRF_NP_SMALL_MAX, m > n ? m : n, lda, batch);
}

// info[i] is LAPACK's info for item i: 0, or j > 0 when U(j,j) is exactly zero (the
// factorisation still completes). Row-major items give the same pivots and info as the
// column-major call on the same logical matrix, on both paths. A NaN or Inf only
// spreads through its own item. m == 0 or n == 0: info[i] = 0.
template <class T, class AItems>
kobalt_status getrf(const char *routine, kobalt_layout layout, kobalt_int m, kobalt_int n,
                    AItems A, kobalt_int lda, int *ipiv, kobalt_int strideIpiv, int *info,
                    kobalt_int batch) {
    if (!fits_int32<T>(routine, {{"m", m}, {"n", n}, {"lda", lda}})) return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) {
        for (kobalt_int i = 0; i < batch; ++i) info[i] = 0;
        return KOBALT_SUCCESS;
    }
    const Strides sa = strides_of(layout, lda);
    if (runs_direct(m, n, ipiv != nullptr)) {
        KOBALT_DIRECT_CALL(getrf_direct<T>, int(n), fixed::items(A), fixed::mat(sa), ipiv, strideIpiv,
                           info, batch);
        return KOBALT_SUCCESS;
    }
    const Path path = path_of(m, n, lda, ipiv != nullptr, batch);
    if (path == Path::small) {
        if (m == n && n == 2 && n <= threshold(GETRF_TINY_MAX)) {
            KOBALT_INTERLEAVED_CALL(tiny_getrf2<T>, fixed::items(A), fixed::mat(sa), ipiv, strideIpiv,
                                    info, batch);
            return KOBALT_SUCCESS;
        }
        if (m == n && packed::use<T>(n, batch)) {
            KOBALT_INTERLEAVED_CALL(packed_getrf<T>, int(n), packed::prefetch(),
                                    packed::tile_max_bytes<T>(false), packed::lu_block_min<T>(),
                                    fixed::items(A), fixed::mat(sa),
                                    ipiv, strideIpiv, info, batch);
            return KOBALT_SUCCESS;
        }
        if (m == n && fixed::fits(n)) {
            KOBALT_FIXED_CALL(getrf<T>, int(n), fixed::items(A), fixed::mat(sa), ipiv,
                              strideIpiv, info, batch);
            return KOBALT_SUCCESS;
        }
        if (!ipiv && m == n) { // standard layouts: columns or rows have unit stride
            const bool cols = layout == KOBALT_COL_MAJOR;
            for_each_item(batch, [&](kobalt_int i) {
                info[i] = cols ? lu_nopivot_unit<true>(int(n), A[i], lda)
                               : lu_nopivot_unit<false>(int(n), A[i], lda);
            });
            return KOBALT_SUCCESS;
        }
        for_each_item(batch, [&](kobalt_int i) {
            info[i] = small::getrf<T>(matrix_view<T>(A[i], m, n, sa),
                                      ipiv ? ipiv + i * strideIpiv : nullptr);
        });
        return KOBALT_SUCCESS;
    }
    ThreadScratch<T> scratch;
    if (!scratch.allocate(vendor::getrf_scratch_size(layout, m, n, ipiv != nullptr))) {
        report(precision_letter<T>(), routine,
               "cannot allocate the row-major LU workspace (%lld x %lld per thread)", (long long)m,
               (long long)n);
        return KOBALT_OUT_OF_MEMORY;
    }
    for_each_item_on(batch, path, [&](kobalt_int i) {
        info[i] = ipiv ? vendor::getrf(layout, int(m), int(n), A[i], int(lda),
                                       ipiv + i * strideIpiv, scratch.mine())
                       : vendor::getrf_nopivot(layout, int(m), int(n), A[i], int(lda));
    });
    return KOBALT_SUCCESS;
}

} // namespace

bool getrf_allocates(kobalt_layout layout, kobalt_int m, kobalt_int n, kobalt_int lda, bool pivoted) {
    if (m == 0 || n == 0 || runs_direct(m, n, pivoted)) return false;
    // The batch size only picks between the two vendor paths, which allocate alike.
    if (path_of(m, n, lda, pivoted, 1) == Path::small) return false;
    return vendor::getrf_scratch_size(layout, m, n, pivoted) != 0;
}

template <class Real>
kobalt_status getrf_strided(kobalt_layout layout, kobalt_int m, kobalt_int n, Real *A,
                            kobalt_int lda, kobalt_int strideA, int *ipiv, kobalt_int strideIpiv,
                            int *info, kobalt_int batch) {
    return getrf<Real>("getrf_strided", layout, m, n, StridedItems<Real>{A, strideA}, lda, ipiv,
                       strideIpiv, info, batch);
}

template <class Real>
kobalt_status getrf_batched(kobalt_layout layout, kobalt_int m, kobalt_int n, Real *const A[],
                            kobalt_int lda, int *ipiv, kobalt_int strideIpiv, int *info,
                            kobalt_int batch) {
    return getrf<Real>("getrf_batched", layout, m, n, PointerItems<Real>{A}, lda, ipiv,
                       strideIpiv, info, batch);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(getrf_strided)
KOBALT_OPENMP_INSTANTIATE(getrf_batched)
