/*
 * fake_device_plugin.c -- a test backend that pretends to own a "device" memory space:
 * the address range given in KOBALT_FAKE_DEVICE_RANGE ("<address>:<bytes>", set by
 * test_routing before its first call). It lets the routing rules be tested without a
 * GPU: calls on that range must come here, host calls must not, mixed calls must be
 * refused, missing slots must answer KOBALT_NOT_SUPPORTED, and the stream and
 * synchronize hooks must reach the backend.
 *
 * It provides two routines, which do no arithmetic: dgemm_strided marks C[0] = 42 and
 * stores the calling thread's stream in C[1]; dgemm_desc marks C[0] = 43 and copies the
 * descriptors it received (host structs the core passes through unchanged) into C[1..3],
 * so the test can see the call arrived.
 */
#include <kobalt/kobalt_backend.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const kobalt_core_services *core;
static uintptr_t range_lo, range_hi;

static int fake_init(const kobalt_core_services *services, char *why, size_t why_size)
{
    const char *range = getenv("KOBALT_FAKE_DEVICE_RANGE");
    unsigned long long lo = 0, bytes = 0;
    if (!range || sscanf(range, "%llx:%llu", &lo, &bytes) != 2) {
        snprintf(why, why_size, "KOBALT_FAKE_DEVICE_RANGE is not set");
        return 1;
    }
    core = services;
    range_lo = (uintptr_t)lo;
    range_hi = (uintptr_t)(lo + bytes);
    return 0;
}

static int fake_claim(const void *ptr)
{
    const uintptr_t p = (uintptr_t)ptr;
    return p >= range_lo && p < range_hi ? KOBALT_CLAIM_OWNER : KOBALT_CLAIM_NONE;
}

static kobalt_status fake_dgemm_strided(kobalt_layout layout, kobalt_op transa, kobalt_op transb,
                                        kobalt_int m, kobalt_int n, kobalt_int k, double alpha,
                                        const double *A, kobalt_int lda, kobalt_int strideA,
                                        const double *B, kobalt_int ldb, kobalt_int strideB,
                                        double beta, double *C, kobalt_int ldc, kobalt_int strideC,
                                        kobalt_int batch)
{
    (void)layout, (void)transa, (void)transb, (void)m, (void)n, (void)k, (void)alpha, (void)A;
    (void)lda, (void)strideA, (void)B, (void)ldb, (void)strideB, (void)beta, (void)ldc;
    (void)strideC, (void)batch;
    C[0] = 42.0;
    C[1] = (double)(uintptr_t)core->cuda_stream();
    return KOBALT_SUCCESS;
}

static kobalt_status fake_dgemm_desc(kobalt_op transa, kobalt_op transb, double alpha, const double *A,
                                     const kobalt_matrix_desc *descA, const double *B,
                                     const kobalt_matrix_desc *descB, double beta, double *C,
                                     const kobalt_matrix_desc *descC, kobalt_int batch)
{
    (void)transa, (void)transb, (void)alpha, (void)A, (void)B, (void)beta, (void)batch;
    C[0] = 43.0;
    C[1] = (double)descA->batch_stride;
    C[2] = (double)descB->col_stride;
    C[3] = (double)descC->row_stride;
    return KOBALT_SUCCESS;
}

static kobalt_status fake_synchronize(void)
{
    core->set_error("fake-device: synchronize reached the backend");
    return KOBALT_BACKEND_ERROR;
}

static const kobalt_backend_table table = {
    .abi_version = KOBALT_BACKEND_ABI_VERSION,
    .struct_size = sizeof(kobalt_backend_table),
    .name = "fakedev",
    .memory_space = "fake device",
    .host_accessible = 0,
    .init = fake_init,
    .claim = fake_claim,
    .synchronize = fake_synchronize,
    .dgemm_strided = fake_dgemm_strided,
    .dgemm_desc = fake_dgemm_desc,
};

__attribute__((visibility("default"))) const kobalt_backend_table *kobalt_backend_get_table(uint32_t abi)
{
    (void)abi;
    return &table;
}
