// validate_semiring.hpp -- validators of gemm_semiring_{strided,batched}: the semiring,
// then exactly gemm's rules (the shapes of validate.hpp's gemm_a, gemm_b, gemm_c).
#pragma once

#include "validate.hpp"

namespace kobalt {
namespace validate {

template <class T>
kobalt_status gemm_semiring_strided(const char *fn, Access readable, kobalt_semiring semiring, kobalt_layout layout,
                                    kobalt_op transa, kobalt_op transb, kobalt_int m, kobalt_int n, kobalt_int k, T,
                                    const T *A, kobalt_int lda, kobalt_int strideA, const T *B, kobalt_int ldb,
                                    kobalt_int strideB, T, T *C, kobalt_int ldc, kobalt_int strideC,
                                    kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .semiring(semiring).layout(layout).op("transa", transa).op("transb", transb)
        .size("m", m).size("n", n).size("k", k)
        .matrix(gemm_a(transa, m, k, lda), A, strideA, "strideA")
        .matrix(gemm_b(transb, k, n, ldb), B, strideB, "strideB")
        .matrix(gemm_c(m, n, ldc), C, strideC, "strideC")
        .status();
}

template <class T>
kobalt_status gemm_semiring_batched(const char *fn, Access readable, kobalt_semiring semiring, kobalt_layout layout,
                                    kobalt_op transa, kobalt_op transb, kobalt_int m, kobalt_int n, kobalt_int k, T,
                                    const T *const A[], kobalt_int lda, const T *const B[], kobalt_int ldb, T,
                                    T *const C[], kobalt_int ldc, kobalt_int batch) {
    return Checker(fn, readable, batch, sizeof(T))
        .semiring(semiring).layout(layout).op("transa", transa).op("transb", transb)
        .size("m", m).size("n", n).size("k", k)
        .matrix(gemm_a(transa, m, k, lda), reinterpret_cast<const void *const *>(A))
        .matrix(gemm_b(transb, k, n, ldb), reinterpret_cast<const void *const *>(B))
        .matrix(gemm_c(m, n, ldc), reinterpret_cast<const void *const *>(C))
        .status();
}

}  // namespace validate
}  // namespace kobalt
