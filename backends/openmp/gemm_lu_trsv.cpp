// gemm_lu_trsv.cpp -- the fused call, per item:
//   A_i = alpha op(X_i) op(Y_i) + beta A_i     (A n x n, op(X) n x k, op(Y) k x n)
//   A_i = P_i L_i U_i                           (no pivoting when ipiv == NULL)
//   B_i = A_i^{-1} B_i                          (n x nrhs; nrhs == 1 is the trsv case)
#include "batch_access.hpp"
#include "fixed_path.hpp"
#include "fused_item.hpp"
#include "packed_path.hpp"
#include "slots.hpp"
#include "small_kernels.hpp"
#include "thread_scratch.hpp"
#include "vendor_kernels.hpp"

namespace kobalt_openmp {
namespace {

// One parallel loop whose iteration does all three steps of one item while that item
// is in cache: never three sweeps over the batch (that is what makes the fused call
// faster than gemm + getrf + getrs on the same data).
//
// Singular items: when info[i] > 0 (an exactly zero U(j,j)), B_i is left untouched
// instead of being divided by zero as LAPACK's getrs would; A_i and ipiv_i still hold
// the completed factorisation, as getrf leaves them. Documented in docs/api.md.
template <class T, class XItems, class YItems, class AItems, class BItems>
kobalt_status gemm_lu_trsv(const char *routine, kobalt_layout layout, kobalt_op transx,
                           kobalt_op transy, kobalt_int n, kobalt_int k, kobalt_int nrhs,
                           T alpha, XItems X, kobalt_int ldx, YItems Y, kobalt_int ldy, T beta,
                           AItems A, kobalt_int lda, int *ipiv, kobalt_int strideIpiv, BItems B,
                           kobalt_int ldb, int *info, kobalt_int batch) {
    if (!fits_int32<T>(routine, {{"n", n}, {"k", k}, {"nrhs", nrhs}, {"ldx", ldx}, {"ldy", ldy},
                                 {"lda", lda}, {"ldb", ldb}}))
        return KOBALT_NOT_SUPPORTED;
    if (n == 0) {
        for (kobalt_int i = 0; i < batch; ++i) info[i] = 0;
        return KOBALT_SUCCESS;
    }
    const kobalt_int max_ld = max3(ldx, ldy, lda > ldb ? lda : ldb);
    const Path path = choose_path(GEMM_LU_TRSV_SMALL_MAX, max3(n, k, nrhs), max_ld, batch);
    if (path == Path::small) {
        const Strides sx = op_strides(layout, transx, ldx), sy = op_strides(layout, transy, ldy),
                      sa = strides_of(layout, lda), sb = strides_of(layout, ldb);
        // From FUSED_ITEM_MIN (FUSED_ITEM_MIN_FLOAT for float items) to 8, on AVX-512 CPUs:
        // one item at a time in SIMD registers (fused_item.cpp), for any batch size.
        if (n == k && n >= threshold(for_precision<T>(FUSED_ITEM_MIN, FUSED_ITEM_MIN_FLOAT)) &&
            n <= interleaved::FUSED_ITEM_MAX_N && interleaved::item_fused_runs()) {
            interleaved::avx512::item_fused<T>(int(n), alpha, fixed::items(X), fixed::mat(sx),
                                               fixed::items(Y), fixed::mat(sy), beta,
                                               fixed::items(A), fixed::mat(sa), ipiv, strideIpiv,
                                               int(nrhs), fixed::items(B), fixed::mat(sb), info,
                                               batch);
            return KOBALT_SUCCESS;
        }
        if (n == k && packed::use<T>(n, batch)) {
            KOBALT_INTERLEAVED_CALL(packed_fused<T>, int(n), packed::prefetch_bytes(),
                                    packed::tile_max_bytes<T>(true), alpha,
                                    fixed::items(X), fixed::mat(sx), fixed::items(Y),
                                    fixed::mat(sy), beta, fixed::items(A),
                                    fixed::mat(sa), ipiv, strideIpiv, int(nrhs), fixed::items(B),
                                    fixed::mat(sb), info, batch);
            return KOBALT_SUCCESS;
        }
        if (n == k && fixed::fits(n)) {
            KOBALT_FIXED_CALL(fused<T>, int(n), alpha, fixed::items(X), fixed::mat(sx),
                              fixed::items(Y), fixed::mat(sy), beta, fixed::items(A),
                              fixed::mat(sa), ipiv, strideIpiv, int(nrhs), fixed::items(B),
                              fixed::mat(sb), info, batch);
            return KOBALT_SUCCESS;
        }
        // The gemm step follows gemm's own threshold: past it, OpenBLAS's single-threaded
        // small-matrix gemm beats the inlined kernel, and the item is still in cache for
        // the LU and the solves that follow.
        const bool small_gemm = (n > k ? n : k) <= threshold(GEMM_SMALL_MAX);
        for_each_item(batch, [&](kobalt_int i) {
            const MatrixView<T> Ai = matrix_view<T>(A[i], n, n, sa);
            if (small_gemm)
                small::gemm<T>(alpha, matrix_view<const T>(X[i], n, k, sx),
                               matrix_view<const T>(Y[i], k, n, sy), beta, Ai);
            else
                vendor::gemm(layout, transx, transy, int(n), int(n), int(k), alpha, X[i],
                             int(ldx), Y[i], int(ldy), beta, A[i], int(lda));
            int *const piv = ipiv ? ipiv + i * strideIpiv : nullptr;
            const int r = small::getrf<T>(Ai, piv);
            info[i] = r;
            if (r == 0 && nrhs > 0)
                small::getrs<T>(false, Ai, piv, matrix_view<T>(B[i], n, nrhs, sb));
        });
        return KOBALT_SUCCESS;
    }
    ThreadScratch<T> scratch;
    if (!scratch.allocate(vendor::getrf_scratch_size(layout, n, n, ipiv != nullptr))) {
        report(precision_letter<T>(), routine,
               "cannot allocate the row-major LU workspace (%lld x %lld per thread)", (long long)n,
               (long long)n);
        return KOBALT_OUT_OF_MEMORY;
    }
    for_each_item_on(batch, path, [&](kobalt_int i) {
        T *const Ai = A[i];
        vendor::gemm(layout, transx, transy, int(n), int(n), int(k), alpha, X[i], int(ldx), Y[i],
                     int(ldy), beta, Ai, int(lda));
        int *const piv = ipiv ? ipiv + i * strideIpiv : nullptr;
        const int r = piv ? vendor::getrf(layout, int(n), int(n), Ai, int(lda), piv, scratch.mine())
                          : vendor::getrf_nopivot(layout, int(n), int(n), Ai, int(lda));
        info[i] = r;
        if (r == 0 && nrhs > 0)
            vendor::getrs<T>(layout, KOBALT_NO_TRANS, int(n), int(nrhs), Ai, int(lda), piv, B[i],
                             int(ldb));
    });
    return KOBALT_SUCCESS;
}

} // namespace

template <class Real>
kobalt_status gemm_lu_trsv_strided(kobalt_layout layout, kobalt_op transx, kobalt_op transy,
                                   kobalt_int n, kobalt_int k, kobalt_int nrhs, Real alpha,
                                   const Real *X, kobalt_int ldx, kobalt_int strideX,
                                   const Real *Y, kobalt_int ldy, kobalt_int strideY, Real beta,
                                   Real *A, kobalt_int lda, kobalt_int strideA, int *ipiv,
                                   kobalt_int strideIpiv, Real *B, kobalt_int ldb,
                                   kobalt_int strideB, int *info, kobalt_int batch) {
    return gemm_lu_trsv<Real>("gemm_lu_trsv_strided", layout, transx, transy, n, k, nrhs, alpha,
                              strided_items<const Real>(X, strideX, n == 0 || k == 0), ldx,
                              strided_items<const Real>(Y, strideY, n == 0 || k == 0), ldy, beta,
                              StridedItems<Real>{A, strideA}, lda, ipiv, strideIpiv,
                              strided_items<Real>(B, strideB, n == 0 || nrhs == 0), ldb, info,
                              batch);
}

template <class Real>
kobalt_status gemm_lu_trsv_batched(kobalt_layout layout, kobalt_op transx, kobalt_op transy,
                                   kobalt_int n, kobalt_int k, kobalt_int nrhs, Real alpha,
                                   const Real *const X[], kobalt_int ldx, const Real *const Y[],
                                   kobalt_int ldy, Real beta, Real *const A[], kobalt_int lda,
                                   int *ipiv, kobalt_int strideIpiv, Real *const B[],
                                   kobalt_int ldb, int *info, kobalt_int batch) {
    return gemm_lu_trsv<Real>("gemm_lu_trsv_batched", layout, transx, transy, n, k, nrhs, alpha,
                              pointer_items<const Real>(X, n == 0 || k == 0), ldx,
                              pointer_items<const Real>(Y, n == 0 || k == 0), ldy, beta,
                              PointerItems<Real>{A}, lda, ipiv, strideIpiv,
                              pointer_items<Real>(B, n == 0 || nrhs == 0), ldb, info, batch);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(gemm_lu_trsv_strided)
KOBALT_OPENMP_INSTANTIATE(gemm_lu_trsv_batched)
