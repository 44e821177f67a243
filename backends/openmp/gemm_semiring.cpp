// gemm_semiring.cpp -- C_i = add(mult(alpha, op(A_i) op(B_i)), mult(beta, C_i)) over a
// semiring (docs/api.md). PLUS_TIMES is ordinary gemm and runs gemm's own paths
// (gemm.cpp); every other semiring runs the kernels of semiring_kernels.hpp.
#include <cstdlib>
#include <cstring>

#include "batch_access.hpp"
#include "common.hpp"
#include "semiring_call.hpp"
#include "slots.hpp"

namespace kobalt_openmp {
namespace semiring {

Isa isa() {
    static const Isa chosen = [] {
        auto set = [](const char *name) {
            const char *v = std::getenv(name);
            return v && *v && std::strcmp(v, "0") != 0;
        };
        __builtin_cpu_init();
        if (set("KOBALT_OPENMP_NO_AVX2") || !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
            return Isa::base;
        if (!KOBALT_OPENMP_HAVE_AVX512 || set("KOBALT_OPENMP_NO_AVX512") || !__builtin_cpu_supports("avx512f") ||
            !__builtin_cpu_supports("avx512vl"))
            return Isa::avx2;
        return Isa::avx512;
    }();
    return chosen;
}

} // namespace semiring

namespace {

template <class T, class AItems, class BItems, class CItems>
kobalt_status gemm_semiring(const char *routine, kobalt_semiring sr, kobalt_layout layout,
                            kobalt_op transa, kobalt_op transb, kobalt_int m, kobalt_int n,
                            kobalt_int k, T alpha, AItems A, kobalt_int lda, BItems B,
                            kobalt_int ldb, T beta, CItems C, kobalt_int ldc, kobalt_int batch) {
    // Checked here, with this routine's name, before PLUS_TIMES is handed to gemm.
    if (!fits_int32<T>(routine, {{"m", m}, {"n", n}, {"k", k}, {"lda", lda}, {"ldb", ldb},
                                 {"ldc", ldc}}))
        return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    if (!semiring::run(semiring::problem(sr, layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                                         batch))) {
        report(precision_letter<T>(), routine, "could not allocate %zu bytes of scratch per thread",
               semiring::scratch_per_thread(int(k)) * sizeof(T));
        return KOBALT_OUT_OF_MEMORY;
    }
    return KOBALT_SUCCESS;
}

} // namespace

template <class Real>
kobalt_status gemm_semiring_strided(kobalt_semiring semiring, kobalt_layout layout,
                                    kobalt_op transa, kobalt_op transb, kobalt_int m,
                                    kobalt_int n, kobalt_int k, Real alpha, const Real *A,
                                    kobalt_int lda, kobalt_int strideA, const Real *B,
                                    kobalt_int ldb, kobalt_int strideB, Real beta, Real *C,
                                    kobalt_int ldc, kobalt_int strideC, kobalt_int batch) {
    if (semiring == KOBALT_PLUS_TIMES) {
        if (!fits_int32<Real>("gemm_semiring_strided", {{"m", m}, {"n", n}, {"k", k},
                                                         {"lda", lda}, {"ldb", ldb}, {"ldc", ldc}}))
            return KOBALT_NOT_SUPPORTED;
        return gemm_strided<Real>(layout, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb,
                                  strideB, beta, C, ldc, strideC, batch);
    }
    return gemm_semiring<Real>("gemm_semiring_strided", semiring, layout, transa, transb, m, n, k,
                               alpha, StridedItems<const Real>{A, strideA}, lda,
                               StridedItems<const Real>{B, strideB}, ldb, beta,
                               StridedItems<Real>{C, strideC}, ldc, batch);
}

template <class Real>
kobalt_status gemm_semiring_batched(kobalt_semiring semiring, kobalt_layout layout,
                                    kobalt_op transa, kobalt_op transb, kobalt_int m,
                                    kobalt_int n, kobalt_int k, Real alpha, const Real *const A[],
                                    kobalt_int lda, const Real *const B[], kobalt_int ldb,
                                    Real beta, Real *const C[], kobalt_int ldc, kobalt_int batch) {
    if (semiring == KOBALT_PLUS_TIMES) {
        if (!fits_int32<Real>("gemm_semiring_batched", {{"m", m}, {"n", n}, {"k", k},
                                                         {"lda", lda}, {"ldb", ldb}, {"ldc", ldc}}))
            return KOBALT_NOT_SUPPORTED;
        return gemm_batched<Real>(layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                                  ldc, batch);
    }
    return gemm_semiring<Real>("gemm_semiring_batched", semiring, layout, transa, transb, m, n, k,
                               alpha, PointerItems<const Real>{A}, lda, PointerItems<const Real>{B},
                               ldb, beta, PointerItems<Real>{C}, ldc, batch);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(gemm_semiring_strided)
KOBALT_OPENMP_INSTANTIATE(gemm_semiring_batched)
