/*
 * test_routing.c -- memory-space routing, with the OpenMP backend and a fake "device"
 * backend (tests/routing/fake_device_plugin.c) that owns one static array.
 */
#include <kobalt/kobalt.h>

#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static double device_region[1024]; /* owned by the fake device backend */

static int setup_env(void **state)
{
    (void)state;
    char range[64];
    snprintf(range, sizeof range, "%llx:%llu", (unsigned long long)(uintptr_t)device_region,
             (unsigned long long)sizeof device_region);
    setenv("KOBALT_FAKE_DEVICE_RANGE", range, 1);
    setenv("KOBALT_PLUGIN_PATH", KOBALT_TEST_PLUGIN_DIR ":" KOBALT_FAKE_PLUGIN, 1);
    return 0;
}

static kobalt_status gemm_2x2(const double *A, const double *B, double *C)
{
    return kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0,
                                A, 2, 4, B, 2, 4, 0.0, C, 2, 4, 1);
}

static void test_both_backends_load(void **state)
{
    (void)state;
    assert_int_equal(kobalt_backend_count(), 2);
    assert_string_equal(kobalt_backend_name(0), "openmp");
    assert_string_equal(kobalt_backend_name(1), "fakedev");
}

static void test_host_memory_runs_on_host(void **state)
{
    (void)state;
    const double A[4] = {1, 2, 3, 4}, B[4] = {1, 0, 0, 1};
    double C[4] = {-1, -1, -1, -1};
    assert_int_equal(gemm_2x2(A, B, C), KOBALT_SUCCESS);
    for (int i = 0; i < 4; ++i) assert_true(C[i] == A[i]);
}

static void test_device_memory_runs_on_device_with_stream(void **state)
{
    (void)state;
    double *A = device_region, *B = device_region + 4, *C = device_region + 8;
    for (int i = 0; i < 12; ++i) device_region[i] = 0;
    assert_int_equal(kobalt_set_cuda_stream((void *)(uintptr_t)0x5000), KOBALT_SUCCESS);
    assert_true(kobalt_get_cuda_stream() == (void *)(uintptr_t)0x5000);
    assert_int_equal(gemm_2x2(A, B, C), KOBALT_SUCCESS);
    assert_true(C[0] == 42.0);                  /* the fake backend ran, not the host's */
    assert_true(C[1] == (double)0x5000);        /* and saw this thread's stream */
    kobalt_set_cuda_stream(NULL);
}

static void test_mixed_spaces_refused(void **state)
{
    (void)state;
    const double A[4] = {1, 2, 3, 4}, B[4] = {1, 0, 0, 1};
    double *C = device_region + 16;
    C[0] = C[1] = C[2] = C[3] = -7;
    assert_int_equal(gemm_2x2(A, B, C), KOBALT_INVALID_ARGUMENT);
    const char *msg = kobalt_last_error();
    assert_non_null(strstr(msg, "kobalt_dgemm_strided: C and A live in different memory spaces"));
    for (int i = 0; i < 4; ++i) assert_true(C[i] == -7);
}

static void test_missing_slot_not_supported(void **state)
{
    (void)state;
    double *A = device_region + 32;
    int ipiv[2], info[1];
    (void)ipiv;
    /* A, ipiv and info all in the fake space: the call routes there and the slot is NULL */
    int *dev_ints = (int *)(device_region + 64);
    assert_int_equal(kobalt_dgetrf_strided(KOBALT_COL_MAJOR, 2, 2, A, 2, 4, dev_ints, 2, dev_ints + 8, 1),
                     KOBALT_NOT_SUPPORTED);
    assert_non_null(strstr(kobalt_last_error(), "'fakedev' backend does not provide this routine"));
    (void)info;
    /* A table built before gemm_semiring existed leaves its slots NULL (designated
     * initialisers): the semiring routine answers the same way. */
    double *C = device_region + 48;
    assert_int_equal(kobalt_dgemm_semiring_strided(KOBALT_MIN_PLUS, KOBALT_COL_MAJOR, KOBALT_NO_TRANS,
                                                   KOBALT_NO_TRANS, 2, 2, 2, 0.0, A, 2, 4, A, 2, 4, INFINITY,
                                                   C, 2, 4, 1),
                     KOBALT_NOT_SUPPORTED);
    assert_non_null(strstr(kobalt_last_error(), "kobalt_dgemm_semiring_strided: the 'fakedev' backend"));
}

static void test_device_pointer_arrays_not_read(void **state)
{
    (void)state;
    /* A pointer array in the fake device space is not host-readable: the core must not
     * dereference it (its NULL items would otherwise be refused); the call reaches the
     * backend, which lacks the slot. */
    const double **arrays = (const double **)(device_region + 128);
    arrays[0] = arrays[1] = arrays[2] = NULL;
    double *const *C = (double *const *)(device_region + 128);
    assert_int_equal(kobalt_dgemm_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2,
                                          1.0, arrays, 2, arrays, 2, 0.0, C, 2, 3),
                     KOBALT_NOT_SUPPORTED);
}

/* A _desc call on device memory: the core reads the descriptors (host structs) to validate
 * and route, passes them on unchanged, and never reads the data. */
static void test_desc_call_routes_with_its_descriptors(void **state)
{
    (void)state;
    double *A = device_region + 256, *B = device_region + 320, *C = device_region + 384;
    const kobalt_matrix_desc dA = {2, 2, 1, 2, 5}, dB = {2, 2, 2, 1, 4}, dC = {2, 2, 3, 1, 6};
    for (int i = 0; i < 4; ++i) C[i] = 0;
    assert_int_equal(kobalt_dgemm_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, 1.0, A, &dA, B, &dB, 0.0, C, &dC, 3),
                     KOBALT_SUCCESS);
    assert_true(C[0] == 43.0);
    assert_true(C[1] == 5.0 && C[2] == 1.0 && C[3] == 3.0);
    /* the same call with an overlapping C is refused by the core, before any backend */
    const kobalt_matrix_desc bad = {2, 2, 1, 1, 6};
    C[0] = -1;
    assert_int_equal(kobalt_dgemm_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, 1.0, A, &dA, B, &dB, 0.0, C, &bad, 3),
                     KOBALT_INVALID_ARGUMENT);
    assert_non_null(strstr(kobalt_last_error(), "kobalt_dgemm_desc: descC lets elements of C share memory"));
    assert_true(C[0] == -1);
    /* host C with device A: mixed spaces */
    double hostC[12];
    assert_int_equal(kobalt_dgemm_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, 1.0, A, &dA, B, &dB, 0.0, hostC, &dC, 1),
                     KOBALT_INVALID_ARGUMENT);
    assert_non_null(strstr(kobalt_last_error(), "C and A live in different memory spaces"));
}

/* getrs_desc with device pivots holding nonsense: not host-readable, so not inspected by
 * the core; the fake backend lacks the slot. */
static void test_desc_device_pivots_not_read(void **state)
{
    (void)state;
    double *A = device_region + 512, *B = device_region + 576;
    int *ipiv = (int *)(device_region + 640);
    for (int i = 0; i < 8; ++i) ipiv[i] = -99;
    const kobalt_matrix_desc dA = {2, 2, 1, 2, 4}, dP = {2, 1, 1, 0, 2}, dB = {2, 1, 1, 0, 2};
    assert_int_equal(kobalt_dgetrs_desc(KOBALT_NO_TRANS, A, &dA, ipiv, &dP, B, &dB, 3), KOBALT_NOT_SUPPORTED);
    assert_non_null(strstr(kobalt_last_error(), "'fakedev' backend does not provide this routine"));
}

static void test_synchronize_reaches_backend(void **state)
{
    (void)state;
    assert_int_equal(kobalt_synchronize(), KOBALT_BACKEND_ERROR);
    assert_string_equal(kobalt_last_error(), "fake-device: synchronize reached the backend");
}

static void *stream_in_new_thread(void *arg)
{
    (void)arg;
    return kobalt_get_cuda_stream();
}

static void test_stream_is_per_thread(void **state)
{
    (void)state;
    kobalt_set_cuda_stream((void *)(uintptr_t)0x7000);
    pthread_t t;
    void *seen = (void *)1;
    assert_int_equal(pthread_create(&t, NULL, stream_in_new_thread, NULL), 0);
    pthread_join(t, &seen);
    assert_null(seen);
    assert_true(kobalt_get_cuda_stream() == (void *)(uintptr_t)0x7000);
    kobalt_set_cuda_stream(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_both_backends_load),
        cmocka_unit_test(test_host_memory_runs_on_host),
        cmocka_unit_test(test_device_memory_runs_on_device_with_stream),
        cmocka_unit_test(test_mixed_spaces_refused),
        cmocka_unit_test(test_missing_slot_not_supported),
        cmocka_unit_test(test_device_pointer_arrays_not_read),
        cmocka_unit_test(test_desc_call_routes_with_its_descriptors),
        cmocka_unit_test(test_desc_device_pivots_not_read),
        cmocka_unit_test(test_synchronize_reaches_backend),
        cmocka_unit_test(test_stream_is_per_thread),
    };
    return cmocka_run_group_tests(tests, setup_env, NULL);
}
