/*
 * test_faults.c -- faults a host program must survive, one mode per ctest entry.
 *
 *   test_faults short-table   the only backend's table ends before the routine slots:
 *                             every routine answers KOBALT_NOT_SUPPORTED, nothing written
 *   test_faults null-slot     NULL slots answer KOBALT_NOT_SUPPORTED; a provided slot runs;
 *                             a slot failing with KOBALT_BACKEND_ERROR passes its status
 *                             and message through
 *   test_faults dup-name      a second backend called "openmp" is skipped, the real one runs
 *   test_faults oom           under LD_PRELOAD=libkobalt_failing_malloc.so: workspace
 *                             allocation failures (the row-major LU scratch of the vendor
 *                             getrf and fused paths, forced by KOBALT_*_SMALL_MAX=0) return
 *                             KOBALT_OUT_OF_MEMORY with a message, never a crash and never
 *                             KOBALT_SUCCESS, and leave every output (A, ipiv, info, B)
 *                             untouched byte for byte; afterwards the same call succeeds
 *                             and matches an undisturbed run.
 *   test_faults oom-loading   under the same shim, with KOBALT_PLUGIN_PATH naming the
 *                             'nullslot' fault plugin (no dependency but libc): for every
 *                             allocation of the first call (plugin discovery and loading),
 *                             a child process makes that one allocation fail, or that one
 *                             and every later one: the call answers KOBALT_OUT_OF_MEMORY
 *                             with a message or succeeds, never aborts, and the next call
 *                             loads the backend and succeeds.
 * Exit status 0: passed, 77: skipped (the shim is not preloaded), 1: failed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kobalt/kobalt.h>

static int failures = 0;
static const char *mode = "";

#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        if (!(cond)) {                                                            \
            ++failures;                                                           \
            printf("FAIL [%s] %s:%d: %s: ", mode, __FILE__, __LINE__, #cond);     \
            printf(__VA_ARGS__);                                                  \
            printf("\n");                                                         \
        }                                                                         \
    } while (0)

static int has(const char *s, const char *part) { return s && strstr(s, part) != NULL; }

/* 3 column-major 2x2 products; C starts as a known pattern. */
static double A2[12], B2[12], C2[12], C2_before[12];
static void reset_gemm(void)
{
    for (int i = 0; i < 12; ++i) A2[i] = i + 1, B2[i] = 12 - i, C2[i] = C2_before[i] = -1.5 * i;
}
static kobalt_status dgemm3(void)
{
    return kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0, A2, 2, 4, B2, 2, 4,
                                0.0, C2, 2, 4, 3);
}

static void short_table(void)
{
    CHECK(kobalt_backend_count() == 1 && kobalt_backend_name(0) && strcmp(kobalt_backend_name(0), "short") == 0,
          "expected the one backend 'short', got %d (%s)", kobalt_backend_count(),
          kobalt_backend_name(0) ? kobalt_backend_name(0) : "none");
    reset_gemm();
    kobalt_status st = dgemm3();
    CHECK(st == KOBALT_NOT_SUPPORTED, "dgemm_strided on a table without slots: %s", kobalt_status_name(st));
    CHECK(has(kobalt_last_error(), "kobalt_dgemm_strided: ") && has(kobalt_last_error(), "'short'"),
          "message: %s", kobalt_last_error());
    CHECK(memcmp(C2, C2_before, sizeof C2) == 0, "C written although the routine is not provided");
    double A[4] = {2, 1, 1, 3};
    int ipiv[2] = {-1, -1}, info = -1;
    st = kobalt_dgetrf_strided(KOBALT_COL_MAJOR, 2, 2, A, 2, 4, ipiv, 2, &info, 1);
    CHECK(st == KOBALT_NOT_SUPPORTED && info == -1, "dgetrf_strided slot past struct_size: %s, info %d",
          kobalt_status_name(st), info);
    /* Validation still comes first, and an empty batch still succeeds. */
    st = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0, A2, 1, 4, B2, 2, 4,
                              0.0, C2, 2, 4, 3);
    CHECK(st == KOBALT_INVALID_ARGUMENT, "invalid lda: %s", kobalt_status_name(st));
    st = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0, A2, 2, 4, B2, 2, 4,
                              0.0, C2, 2, 4, 0);
    CHECK(st == KOBALT_SUCCESS, "empty batch: %s", kobalt_status_name(st));
    float S[4] = {0};
    st = kobalt_strsv_strided(KOBALT_ROW_MAJOR, KOBALT_UPPER, KOBALT_NO_TRANS, KOBALT_UNIT, 1, S, 1, 1, S + 1, 1, 1, 1);
    CHECK(st == KOBALT_NOT_SUPPORTED, "strsv_strided: %s", kobalt_status_name(st));
}

static void null_slot(void)
{
    CHECK(kobalt_backend_count() == 1, "expected one backend, got %d", kobalt_backend_count());
    reset_gemm();
    kobalt_status st = dgemm3();
    CHECK(st == KOBALT_NOT_SUPPORTED, "NULL dgemm_strided slot: %s", kobalt_status_name(st));
    CHECK(has(kobalt_last_error(), "kobalt_dgemm_strided: the 'nullslot' backend does not provide"),
          "message: %s", kobalt_last_error());
    CHECK(memcmp(C2, C2_before, sizeof C2) == 0, "C written");
    double A[8] = {2, 1, 1, 3, 2, 1, 1, 3};
    int ipiv[4], info[2] = {-1, -1};
    st = kobalt_dgetrf_strided(KOBALT_COL_MAJOR, 2, 2, A, 2, 4, ipiv, 2, info, 2);
    CHECK(st == KOBALT_SUCCESS && info[0] == 7 && info[1] == 7, "provided slot: %s, info %d %d",
          kobalt_status_name(st), info[0], info[1]);
    float SA[4] = {1, 2, 3, 4}, SC[4] = {0};
    st = kobalt_sgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0f, SA, 2, 0, SA, 2, 0,
                              0.0f, SC, 2, 4, 1);
    CHECK(st == KOBALT_BACKEND_ERROR, "failing slot: %s", kobalt_status_name(st));
    CHECK(has(kobalt_last_error(), "simulated device failure (code 42)"), "message: %s", kobalt_last_error());
    /* Every other routine: NOT_SUPPORTED, not a crash. */
    double x[2] = {1, 1};
    st = kobalt_dtrsv_strided(KOBALT_COL_MAJOR, KOBALT_UPPER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, 2, A, 2, 4, x, 1, 2, 1);
    CHECK(st == KOBALT_NOT_SUPPORTED, "dtrsv: %s", kobalt_status_name(st));
}

static void dup_name(void)
{
    CHECK(kobalt_backend_count() == 1 && strcmp(kobalt_backend_name(0), "openmp") == 0, "backends: %d",
          kobalt_backend_count());
    reset_gemm();
    kobalt_status st = dgemm3();
    CHECK(st == KOBALT_SUCCESS, "dgemm: %s", kobalt_status_name(st));
    /* item 0: [1 3;2 4] [12 10;11 9] = [45 37; 68 56] (column-major {45,68,37,56}) */
    CHECK(C2[0] == 45 && C2[1] == 68 && C2[2] == 37 && C2[3] == 56, "C = %g %g %g %g (the duplicate ran?)", C2[0],
          C2[1], C2[2], C2[3]);
}

/* ---- allocation failure -------------------------------------------------------------- */
enum { ON = 64, OBATCH = 6, OITEM = ON * ON, NRHS = 2 };
typedef void (*arm_fn)(long, long);
typedef void (*disarm_fn)(void);
typedef long (*count_fn)(void);

static double oA[OBATCH * OITEM], oA0[OBATCH * OITEM], oAref[OBATCH * OITEM];
static int oipiv[OBATCH * ON], oinfo[OBATCH], refpiv[OBATCH * ON], refinfo[OBATCH];
static double fX[OBATCH * OITEM], fY[OBATCH * OITEM], fB[OBATCH * ON * NRHS], fB0[OBATCH * ON * NRHS];

static void fill_lu_inputs(void)
{
    unsigned s = 12345;
    for (int i = 0; i < OBATCH * OITEM; ++i) {
        s = s * 1103515245u + 12345u;
        oA0[i] = (double)((s >> 8) % 2001) / 1000.0 - 1.0;
        fX[i] = oA0[i];
        fY[i] = -0.5 * oA0[i];
    }
    for (int i = 0; i < OBATCH * ON * NRHS; ++i) fB0[i] = (double)(i % 17) - 8.0;
}

static kobalt_status lu_call(void)
{
    return kobalt_dgetrf_strided(KOBALT_ROW_MAJOR, ON, ON, oA, ON, OITEM, oipiv, ON, oinfo, OBATCH);
}

static kobalt_status fused_call(void)
{
    return kobalt_dgemm_lu_trsv_strided(KOBALT_ROW_MAJOR, KOBALT_NO_TRANS, KOBALT_TRANS, ON, ON, NRHS, 1.0, fX, ON,
                                        OITEM, fY, ON, OITEM, 1.0, oA, ON, OITEM, oipiv, ON, fB, NRHS, ON * NRHS,
                                        oinfo, OBATCH);
}

static void reset_outputs(void)
{
    memcpy(oA, oA0, sizeof oA);
    memcpy(fB, fB0, sizeof fB);
    for (int i = 0; i < OBATCH * ON; ++i) oipiv[i] = -77;
    for (int i = 0; i < OBATCH; ++i) oinfo[i] = -77;
}

/* Items whose A, pivots or info changed. */
static int items_touched(const char *what, int fused)
{
    int touched = 0;
    for (int i = 0; i < OBATCH; ++i) {
        int t = memcmp(oA + i * OITEM, oA0 + i * OITEM, OITEM * sizeof(double)) != 0;
        for (int j = 0; j < ON; ++j) t |= oipiv[i * ON + j] != -77;
        t |= oinfo[i] != -77;
        if (fused) t |= memcmp(fB + i * ON * NRHS, fB0 + i * ON * NRHS, ON * NRHS * sizeof(double)) != 0;
        if (t) ++touched;
    }
    printf("  %s: %d of %d items written (A, ipiv, info%s)\n", what, touched, OBATCH, fused ? ", B" : "");
    return touched;
}

static void oom(void)
{
    arm_fn arm = (arm_fn)dlsym(RTLD_DEFAULT, "failing_malloc_arm");
    disarm_fn disarm = (disarm_fn)dlsym(RTLD_DEFAULT, "failing_malloc_disarm");
    count_fn count = (count_fn)dlsym(RTLD_DEFAULT, "failing_malloc_failures");
    if (!arm || !disarm || !count) {
        printf("SKIP: libkobalt_failing_malloc.so is not preloaded\n");
        exit(77);
    }
    fill_lu_inputs();
    for (int fused = 0; fused <= 1; ++fused) {
        const char *name = fused ? "dgemm_lu_trsv_strided" : "dgetrf_strided";
        kobalt_status (*call)(void) = fused ? fused_call : lu_call;
        /* The undisturbed run, which also starts the OpenMP threads. */
        reset_outputs();
        kobalt_status st = call();
        CHECK(st == KOBALT_SUCCESS, "%s without faults: %s (%s)", name, kobalt_status_name(st), kobalt_last_error());
        memcpy(oAref, oA, sizeof oA);
        memcpy(refpiv, oipiv, sizeof oipiv);
        memcpy(refinfo, oinfo, sizeof oinfo);
        double Bref[OBATCH * ON * NRHS];
        memcpy(Bref, fB, sizeof fB);

        /* skip, count: every allocation fails; only the first; only the third (a later item). */
        const long plans[][2] = {{0, -1}, {0, 1}, {2, 1}};
        for (size_t p = 0; p < sizeof plans / sizeof plans[0]; ++p) {
            reset_outputs();
            arm(plans[p][0], plans[p][1]);
            st = call();
            disarm();
            long failed = count();
            char what[160];
            snprintf(what, sizeof what, "%s, allocations %ld.. failing (%s): %s, %ld failed", name, plans[p][0] + 1,
                     plans[p][1] < 0 ? "all" : "one", kobalt_status_name(st), failed);
            int touched = items_touched(what, fused);
            /* The first allocation of the call must exist (the vendor path's workspace);
             * a later one may not (the library allocates its workspace once per call). */
            if (plans[p][0] == 0) CHECK(failed > 0, "%s: no allocation was attempted (is the vendor path forced?)", what);
            if (failed > 0) {
                CHECK(st == KOBALT_OUT_OF_MEMORY, "%s: expected KOBALT_OUT_OF_MEMORY", what);
                CHECK(has(kobalt_last_error(), name), "%s: message %s", what, kobalt_last_error());
                CHECK(touched == 0, "%s: outputs of %d item(s) written by a failed call", what, touched);
            }
            /* The library recovers: the same call succeeds and matches the reference. */
            reset_outputs();
            st = call();
            CHECK(st == KOBALT_SUCCESS && memcmp(oA, oAref, sizeof oA) == 0 && memcmp(oipiv, refpiv, sizeof oipiv) == 0 &&
                      memcmp(oinfo, refinfo, sizeof oinfo) == 0 && (!fused || memcmp(fB, Bref, sizeof fB) == 0),
                  "%s: the call after the failure differs from the undisturbed run (%s)", what, kobalt_status_name(st));
        }
    }
}

/* One child per allocation of the first call: 0 passed, 1 failed, 2 nothing failed
 * (past the last allocation of the first call). */
static int oom_loading_child(arm_fn arm, disarm_fn disarm, count_fn count, long skip, long fails)
{
    double A[4] = {2, 1, 1, 3};
    int ipiv[2], info = -1;
    arm(skip, fails);
    kobalt_status st = kobalt_dgetrf_strided(KOBALT_COL_MAJOR, 2, 2, A, 2, 4, ipiv, 2, &info, 1);
    disarm();
    const long failed = count();
    int ok = 1;
    if (st == KOBALT_OUT_OF_MEMORY) {
        ok = has(kobalt_last_error(), "kobalt_dgetrf_strided: out of memory") && info == -1;
        if (!ok) printf("FAIL allocation %ld: message \"%s\", info %d\n", skip + 1, kobalt_last_error(), info);
    } else if (st != KOBALT_SUCCESS) {
        printf("FAIL allocation %ld (%ld failed): %s (%s)\n", skip + 1, failed, kobalt_status_name(st),
               kobalt_last_error());
        ok = 0;
    }
    st = kobalt_dgetrf_strided(KOBALT_COL_MAJOR, 2, 2, A, 2, 4, ipiv, 2, &info, 1);
    if (st != KOBALT_SUCCESS || info != 7 || kobalt_backend_count() != 1) {
        printf("FAIL allocation %ld: the next call: %s, info %d, %d backend(s) (%s)\n", skip + 1,
               kobalt_status_name(st), info, kobalt_backend_count(), kobalt_last_error());
        ok = 0;
    }
    if (!ok) return 1;
    return failed == 0 ? 2 : 0;
}

static void oom_loading(void)
{
    arm_fn arm = (arm_fn)dlsym(RTLD_DEFAULT, "failing_malloc_arm");
    disarm_fn disarm = (disarm_fn)dlsym(RTLD_DEFAULT, "failing_malloc_disarm");
    count_fn count = (count_fn)dlsym(RTLD_DEFAULT, "failing_malloc_failures");
    if (!arm || !disarm || !count) {
        printf("SKIP: libkobalt_failing_malloc.so is not preloaded\n");
        exit(77);
    }
    for (long fails = 1; fails >= -1; fails -= 2) { /* one allocation; every one from there on */
        long skip = 0;
        for (;; ++skip) {
            fflush(stdout);
            const pid_t pid = fork();
            if (pid == 0) _exit(oom_loading_child(arm, disarm, count, skip, fails));
            int status = 0;
            waitpid(pid, &status, 0);
            if (WIFSIGNALED(status)) {
                printf("FAIL allocation %ld failing (%s): the process died of signal %d\n", skip + 1,
                       fails < 0 ? "and every later one" : "alone", WTERMSIG(status));
                ++failures;
                continue;
            }
            const int code = WEXITSTATUS(status);
            if (code == 2) break; /* past the first call's last allocation */
            if (code != 0) ++failures;
            if (skip > 10000) break;
        }
        printf("  first call, allocation k failing (%s), k = 1..%ld: no abort, every next call loads the backend\n",
               fails < 0 ? "and every later one" : "alone", skip);
        CHECK(skip > 3, "only %ld allocation(s) in the first call: is the shim preloaded?", skip);
    }
}

int main(int argc, char **argv)
{
    mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "short-table") == 0) short_table();
    else if (strcmp(mode, "null-slot") == 0) null_slot();
    else if (strcmp(mode, "dup-name") == 0) dup_name();
    else if (strcmp(mode, "oom") == 0) oom();
    else if (strcmp(mode, "oom-loading") == 0) oom_loading();
    else {
        fprintf(stderr, "usage: test_faults short-table|null-slot|dup-name|oom|oom-loading\n");
        return 2;
    }
    printf("%s: %s (%d failure(s))\n", mode, failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
