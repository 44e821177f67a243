/*
 * fault_plugin.c -- backends that load fine but are incomplete, for test_faults. Built as:
 *   KOBALT_FAULT_SHORT   struct_size ends before the first routine slot (a plugin built
 *                        against an older, shorter table): every routine must answer
 *                        KOBALT_NOT_SUPPORTED, even though the slots in its memory are set
 *   KOBALT_FAULT_NULLSLOT a full table with NULL slots (dgemm_strided, ...): those answer
 *                        KOBALT_NOT_SUPPORTED; dgetrf_strided is provided (writes info = 7);
 *                        sgemm_strided fails with KOBALT_BACKEND_ERROR and a message
 *   KOBALT_FAULT_DUP     a second backend named "openmp": skipped, the real one works
 * Each claims host memory as FALLBACK, like the openmp backend.
 */
#include <stddef.h>
#include <stdio.h>

#include <kobalt/kobalt_backend.h>

static const kobalt_core_services *core;

static int fault_init(const kobalt_core_services *c, char *why, size_t why_size)
{
    (void)why;
    (void)why_size;
    core = c;
    return 0;
}

static int fault_claim(const void *ptr)
{
    (void)ptr;
    return KOBALT_CLAIM_FALLBACK;
}

static kobalt_status must_not_run(kobalt_layout layout, kobalt_op transa, kobalt_op transb, kobalt_int m,
                                  kobalt_int n, kobalt_int k, double alpha, const double *A, kobalt_int lda,
                                  kobalt_int strideA, const double *B, kobalt_int ldb, kobalt_int strideB,
                                  double beta, double *C, kobalt_int ldc, kobalt_int strideC, kobalt_int batch)
{
    (void)layout, (void)transa, (void)transb, (void)m, (void)n, (void)k, (void)alpha, (void)A, (void)lda;
    (void)strideA, (void)B, (void)ldb, (void)strideB, (void)beta, (void)ldc, (void)strideC;
    for (kobalt_int i = 0; i < batch; ++i) C[i] = -12345.0; /* visible if the core called it */
    return KOBALT_SUCCESS;
}

static kobalt_status fake_dgetrf(kobalt_layout layout, kobalt_int m, kobalt_int n, double *A, kobalt_int lda,
                                 kobalt_int strideA, int *ipiv, kobalt_int strideIpiv, int *info,
                                 kobalt_int batch)
{
    (void)layout, (void)m, (void)n, (void)A, (void)lda, (void)strideA, (void)ipiv, (void)strideIpiv;
    for (kobalt_int i = 0; i < batch; ++i) info[i] = 7;
    return KOBALT_SUCCESS;
}

static kobalt_status failing_sgemm(kobalt_layout layout, kobalt_op transa, kobalt_op transb, kobalt_int m,
                                   kobalt_int n, kobalt_int k, float alpha, const float *A, kobalt_int lda,
                                   kobalt_int strideA, const float *B, kobalt_int ldb, kobalt_int strideB,
                                   float beta, float *C, kobalt_int ldc, kobalt_int strideC, kobalt_int batch)
{
    (void)layout, (void)transa, (void)transb, (void)m, (void)n, (void)k, (void)alpha, (void)A, (void)lda;
    (void)strideA, (void)B, (void)ldb, (void)strideB, (void)beta, (void)C, (void)ldc, (void)strideC, (void)batch;
    core->set_error("kobalt_sgemm_strided: fault backend: simulated device failure (code %d)", 42);
    return KOBALT_BACKEND_ERROR;
}

static const kobalt_backend_table table = {
    .abi_version = KOBALT_BACKEND_ABI_VERSION,
#if defined(KOBALT_FAULT_SHORT)
    .struct_size = offsetof(kobalt_backend_table, dgemm_strided),
    .name = "short",
    .dgemm_strided = must_not_run,
    .dgetrf_strided = fake_dgetrf,
#elif defined(KOBALT_FAULT_NULLSLOT)
    .struct_size = sizeof(kobalt_backend_table),
    .name = "nullslot",
    .dgetrf_strided = fake_dgetrf,
    .sgemm_strided = failing_sgemm,
#elif defined(KOBALT_FAULT_DUP)
    .struct_size = sizeof(kobalt_backend_table),
    .name = "openmp",
    .dgemm_strided = must_not_run,
#else
#error "define one KOBALT_FAULT_* variant"
#endif
    .memory_space = "host",
    .host_accessible = 1,
    .init = fault_init,
    .claim = fault_claim,
};

__attribute__((visibility("default"))) const kobalt_backend_table *kobalt_backend_get_table(uint32_t abi)
{
    (void)abi;
    return &table;
}
