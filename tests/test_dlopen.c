/*
 * test_dlopen.c -- libkobalt used the way a language binding uses it: dlopen'ed at run
 * time (this program does not link it), entry points found with dlsym, results compared
 * with CBLAS/LAPACKE. Then the library is closed and opened again, and still works.
 * KOBALT_TEST_LIBRARY is the built library's path.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include <kobalt/kobalt.h> /* types only: nothing here links against libkobalt */

static int failures = 0;
#define CHECK(cond, ...)                                               \
    do {                                                               \
        if (!(cond)) {                                                 \
            ++failures;                                                \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
            printf(__VA_ARGS__);                                       \
            printf("\n");                                              \
        }                                                              \
    } while (0)

typedef struct {
    void *handle;
    __typeof__(&kobalt_dgetrf_strided) dgetrf_strided;
    __typeof__(&kobalt_sgemm_strided) sgemm_strided;
    __typeof__(&kobalt_last_error) last_error;
    __typeof__(&kobalt_status_name) status_name;
    __typeof__(&kobalt_backend_count) backend_count;
    __typeof__(&kobalt_version) version;
} kobalt_api;

static void *must_sym(void *handle, const char *name)
{
    dlerror();
    void *p = dlsym(handle, name);
    CHECK(p != NULL, "dlsym(%s): %s", name, dlerror());
    return p;
}

static int open_api(kobalt_api *api)
{
    memset(api, 0, sizeof *api);
    api->handle = dlopen(KOBALT_TEST_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    CHECK(api->handle != NULL, "dlopen(%s): %s", KOBALT_TEST_LIBRARY, dlerror());
    if (!api->handle) return 0;
    api->dgetrf_strided = (__typeof__(api->dgetrf_strided))must_sym(api->handle, "kobalt_dgetrf_strided");
    api->sgemm_strided = (__typeof__(api->sgemm_strided))must_sym(api->handle, "kobalt_sgemm_strided");
    api->last_error = (__typeof__(api->last_error))must_sym(api->handle, "kobalt_last_error");
    api->status_name = (__typeof__(api->status_name))must_sym(api->handle, "kobalt_status_name");
    api->backend_count = (__typeof__(api->backend_count))must_sym(api->handle, "kobalt_backend_count");
    api->version = (__typeof__(api->version))must_sym(api->handle, "kobalt_version");
    /* internals stay internal */
    CHECK(dlsym(api->handle, "kobalt_backend_get_table") == NULL, "libkobalt exports the plugin getter");
    return api->dgetrf_strided && api->sgemm_strided && api->last_error && api->status_name &&
           api->backend_count && api->version;
}

static unsigned long long rng = 12345;
static double uniform(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* Three 5x5 column-major items with lda 6 against LAPACKE_dgetrf, item by item. */
static void check_dgetrf(const kobalt_api *api)
{
    enum { n = 5, lda = 6, stride = 32, batch = 3 };
    double A[batch * stride], R[batch * stride];
    int ipiv[batch * n], rpiv[n], info[batch];
    for (int i = 0; i < batch * stride; ++i) A[i] = R[i] = uniform();
    memset(info, 0x55, sizeof info);
    kobalt_status st = api->dgetrf_strided(KOBALT_COL_MAJOR, n, n, A, lda, stride, ipiv, n, info, batch);
    CHECK(st == KOBALT_SUCCESS, "dgetrf_strided: %s (%s)", api->status_name(st), api->last_error());
    for (int b = 0; b < batch; ++b) {
        int rinfo = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, R + b * stride, lda, rpiv);
        CHECK(info[b] == rinfo, "item %d: info %d, LAPACKE %d", b, info[b], rinfo);
        for (int j = 0; j < n; ++j)
            CHECK(ipiv[b * n + j] == rpiv[j], "item %d: ipiv[%d] %d, LAPACKE %d", b, j, ipiv[b * n + j], rpiv[j]);
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < lda; ++r) {
                double got = A[b * stride + c * lda + r], want = R[b * stride + c * lda + r];
                if (r >= n) /* padding rows are not touched */
                    CHECK(got == want, "item %d: padding (%d,%d) changed", b, r, c);
                else
                    CHECK(fabs(got - want) <= 1e-12 * (1 + fabs(want)), "item %d: LU(%d,%d) %.17g, LAPACKE %.17g",
                          b, r, c, got, want);
            }
    }
    /* items past the batch (the stride gap at the end) are untouched */
    for (int i = (batch - 1) * stride + lda * n; i < batch * stride; ++i)
        CHECK(A[i] == R[i], "tail element %d changed", i);
}

/* Row-major C_i = 0.5 A_i B_i^T + 2 C_i against cblas_sgemm; plus a small exact case. */
static void check_sgemm(const kobalt_api *api)
{
    enum { m = 4, n = 3, k = 5, lda = 5, ldb = 6, ldc = 4, batch = 3, sA = 20, sB = 18, sC = 16 };
    float A[batch * sA], B[batch * sB], C[batch * sC], R[batch * sC];
    for (int i = 0; i < batch * sA; ++i) A[i] = (float)uniform();
    for (int i = 0; i < batch * sB; ++i) B[i] = (float)uniform();
    for (int i = 0; i < batch * sC; ++i) C[i] = R[i] = (float)uniform();
    kobalt_status st = api->sgemm_strided(KOBALT_ROW_MAJOR, KOBALT_NO_TRANS, KOBALT_TRANS, m, n, k, 0.5f,
                                          A, lda, sA, B, ldb, sB, 2.0f, C, ldc, sC, batch);
    CHECK(st == KOBALT_SUCCESS, "sgemm_strided: %s (%s)", api->status_name(st), api->last_error());
    for (int b = 0; b < batch; ++b)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 0.5f, A + b * sA, lda, B + b * sB, ldb,
                    2.0f, R + b * sC, ldc);
    for (int b = 0; b < batch; ++b)
        for (int r = 0; r < m; ++r)
            for (int c = 0; c < ldc; ++c) {
                float got = C[b * sC + r * ldc + c], want = R[b * sC + r * ldc + c];
                if (c >= n)
                    CHECK(got == want, "item %d: padding (%d,%d) changed", b, r, c);
                else
                    CHECK(fabsf(got - want) <= 1e-5f * (1 + fabsf(want)), "item %d: C(%d,%d) %.9g, CBLAS %.9g", b,
                          r, c, got, want);
            }

    /* [1 2;3 4] * [1 1;0 1] = [1 3;3 7], row-major, exact */
    float a[4] = {1, 2, 3, 4}, bb[4] = {1, 1, 0, 1}, cc[4] = {0};
    st = api->sgemm_strided(KOBALT_ROW_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0f, a, 2, 0, bb, 2,
                            0, 0.0f, cc, 2, 4, 1);
    CHECK(st == KOBALT_SUCCESS, "small sgemm: %s", api->status_name(st));
    CHECK(cc[0] == 1 && cc[1] == 3 && cc[2] == 3 && cc[3] == 7, "small sgemm %g %g %g %g", cc[0], cc[1], cc[2],
          cc[3]);

    /* and a refusal, through the same handle */
    st = api->sgemm_strided(KOBALT_ROW_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0f, a, 1, 0, bb, 2, 0,
                            0.0f, cc, 2, 4, 1);
    CHECK(st == KOBALT_INVALID_ARGUMENT, "sgemm with lda 1: %s", api->status_name(st));
    CHECK(strncmp(api->last_error(), "kobalt_sgemm_strided: ", 22) == 0, "message \"%s\"", api->last_error());
}

int main(void)
{
    kobalt_api api;
    for (int round = 0; round < 2; ++round) {
        if (!open_api(&api)) break;
        printf("round %d: libkobalt %s, %d backend(s)\n", round, api.version(), api.backend_count());
        CHECK(api.backend_count() >= 1, "no backend after dlopen");
        check_dgetrf(&api);
        check_sgemm(&api);
        CHECK(dlclose(api.handle) == 0, "dlclose: %s", dlerror());
    }
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
