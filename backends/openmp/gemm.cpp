// gemm.cpp -- C_i = alpha op(A_i) op(B_i) + beta C_i.
#include "batch_access.hpp"
#include "fixed_path.hpp"
#include "semiring_call.hpp"
#include "slots.hpp"
#include "small_kernels.hpp"
#include "vendor_kernels.hpp"

namespace kobalt_openmp {
namespace {

// Items above GEMM_SMALL_MAX up to GEMM_PANEL_MAX (float: GEMM_PANEL_MAX_FLOAT) on the semiring kernels' packed panels
// with an FMA term (PLUS_TIMES), where the CPU has AVX2 or AVX-512: register-blocked for
// the vector width found at run time, so OpenBLAS's choice of core does not matter (on AMD
// Zen 5, OpenBLAS 0.3.21 falls back to its Haswell kernels). false (nothing written) where
// the path does not apply or its per-thread scratch cannot be had: the caller runs OpenBLAS.
template <class T, class AItems, class BItems, class CItems>
bool panel_gemm(kobalt_layout layout, kobalt_op transa, kobalt_op transb, kobalt_int m, kobalt_int n,
                kobalt_int k, T alpha, AItems A, kobalt_int lda, BItems B, kobalt_int ldb, T beta, CItems C,
                kobalt_int ldc, kobalt_int batch) {
    if (max3(m, n, k) > threshold(for_precision<T>(GEMM_PANEL_MAX, GEMM_PANEL_MAX_FLOAT)) ||
        semiring::isa() == semiring::Isa::base)
        return false;
    return semiring::run(semiring::problem(KOBALT_PLUS_TIMES, layout, transa, transb, m, n, k, alpha, A, lda, B, ldb,
                                           beta, C, ldc, batch));
}

// One template for both batch forms; layout and transposes are turned into strides
// (small path) once, before the loop. beta == 0 never reads C and alpha == 0 never
// reads A or B, on both paths (KokkosBatched and OpenBLAS both honour it).
template <class T, class AItems, class BItems, class CItems>
kobalt_status gemm(const char *routine, kobalt_layout layout, kobalt_op transa,
                   kobalt_op transb, kobalt_int m, kobalt_int n, kobalt_int k, T alpha,
                   AItems A, kobalt_int lda, BItems B, kobalt_int ldb, T beta, CItems C,
                   kobalt_int ldc, kobalt_int batch) {
    if (!fits_int32<T>(routine, {{"m", m}, {"n", n}, {"k", k}, {"lda", lda}, {"ldb", ldb},
                                 {"ldc", ldc}}))
        return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    const Path path = choose_path(GEMM_SMALL_MAX, max3(m, n, k), max3(lda, ldb, ldc), batch);
    if (path == Path::small) {
        const Strides sa = op_strides(layout, transa, lda), sb = op_strides(layout, transb, ldb),
                      sc = strides_of(layout, ldc);
        // Square items up to FIXED_MAX_N: the compile-time-n kernel.
        if (m == n && n == k && fixed::fits(n)) {
            KOBALT_FIXED_CALL(gemm<T>, int(n), alpha, fixed::items(A), fixed::mat(sa),
                              fixed::items(B), fixed::mat(sb), beta, fixed::items(C),
                              fixed::mat(sc), batch);
            return KOBALT_SUCCESS;
        }
        for_each_item(batch, [&](kobalt_int i) {
            small::gemm<T>(alpha, matrix_view<const T>(A[i], m, k, sa),
                           matrix_view<const T>(B[i], k, n, sb), beta,
                           matrix_view<T>(C[i], m, n, sc));
        });
    } else if (!(path == Path::vendor && panel_gemm<T>(layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta,
                                                     C, ldc, batch))) {
        for_each_item_on(batch, path, [&](kobalt_int i) {
            vendor::gemm(layout, transa, transb, int(m), int(n), int(k), alpha, A[i], int(lda),
                         B[i], int(ldb), beta, C[i], int(ldc));
        });
    }
    return KOBALT_SUCCESS;
}

} // namespace

template <class Real>
kobalt_status gemm_strided(kobalt_layout layout, kobalt_op transa, kobalt_op transb,
                           kobalt_int m, kobalt_int n, kobalt_int k, Real alpha, const Real *A,
                           kobalt_int lda, kobalt_int strideA, const Real *B, kobalt_int ldb,
                           kobalt_int strideB, Real beta, Real *C, kobalt_int ldc,
                           kobalt_int strideC, kobalt_int batch) {
    return gemm<Real>("gemm_strided", layout, transa, transb, m, n, k, alpha,
                      strided_items<const Real>(A, strideA, m == 0 || k == 0), lda,
                      strided_items<const Real>(B, strideB, k == 0 || n == 0), ldb, beta,
                      StridedItems<Real>{C, strideC}, ldc, batch);
}

template <class Real>
kobalt_status gemm_batched(kobalt_layout layout, kobalt_op transa, kobalt_op transb,
                           kobalt_int m, kobalt_int n, kobalt_int k, Real alpha,
                           const Real *const A[], kobalt_int lda, const Real *const B[],
                           kobalt_int ldb, Real beta, Real *const C[], kobalt_int ldc,
                           kobalt_int batch) {
    return gemm<Real>("gemm_batched", layout, transa, transb, m, n, k, alpha,
                      pointer_items<const Real>(A, m == 0 || k == 0), lda,
                      pointer_items<const Real>(B, k == 0 || n == 0), ldb, beta,
                      PointerItems<Real>{C}, ldc, batch);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(gemm_strided)
KOBALT_OPENMP_INSTANTIATE(gemm_batched)
