/*
 * test_loading.c -- plugin discovery and loading, one environment per ctest entry.
 *
 *   test_loading normal       the build's plugin folder: openmp loads, calls work; a
 *                             re-executed child without KOBALT_VERBOSE (and with
 *                             KOBALT_VERBOSE=0) prints nothing on stderr
 *   test_loading none         KOBALT_BACKENDS=none (or naming no backend): no backend, calls answer NO_BACKEND,
 *                             invalid arguments still answer INVALID_ARGUMENT
 *   test_loading only-openmp  KOBALT_BACKENDS=openmp: the one backend
 *   test_loading empty-path   KOBALT_PLUGIN_PATH="": as none
 *   test_loading missing-dir  KOBALT_PLUGIN_PATH=<a folder that does not exist>: as none
 *   test_loading only-openmp  also run with KOBALT_PLUGIN_PATH unset (libkobalt's own
 *                             folder), as a colon list naming the build folder twice,
 *                             and naming the plugin file itself
 *   test_loading plugin-dir   builds a temporary plugin folder holding broken plugins
 *                             next to a link to the real one, and re-executes itself
 *                             there (mode dir-child) with and without KOBALT_VERBOSE=1:
 *                             the broken ones are skipped, with a reason under verbose
 *
 * Diagnostics of this program go to stdout, so that stderr holds only what the library
 * prints. The program exits nonzero when a check failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kobalt/kobalt.h>

static int failures = 0;
static const char *mode = "";

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            ++failures;                                                      \
            printf("FAIL [%s] %s:%d: %s: ", mode, __FILE__, __LINE__, #cond); \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
            fflush(stdout);                                                  \
        }                                                                    \
    } while (0)

static int starts_with(const char *s, const char *prefix)
{
    return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- small calls with known answers -------------------------------------------------- */

/* C_i = A_i B_i for two 2x2 column-major items with integer entries: exact in any order. */
static kobalt_status small_dgemm(double C[8])
{
    static const double A[8] = {1, 3, 2, 4, /* item 1 */ 0, 1, 1, 0};
    static const double B[8] = {5, 7, 6, 8, /* item 1 */ 2, 3, 4, 5};
    for (int i = 0; i < 8; ++i) C[i] = -99;
    return kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0,
                                A, 2, 4, B, 2, 4, 0.0, C, 2, 4, 2);
}

static int small_dgemm_correct(const double C[8])
{
    /* [1 2;3 4][5 6;7 8] = [19 22;43 50]; [0 1;1 0][2 4;3 5] = [3 5;2 4] */
    static const double want[8] = {19, 43, 22, 50, 3, 2, 5, 4};
    return memcmp(C, want, sizeof want) == 0;
}

/* A 2x2 LU with a pivot: A = [1 2; 4 3] (col-major {1,4,2,3}) -> ipiv {2,2},
 * U = [4 3; 0 1.25], L21 = 0.25. */
static kobalt_status small_sgetrf(float A[4], int ipiv[2], int *info)
{
    A[0] = 1, A[1] = 4, A[2] = 2, A[3] = 3;
    ipiv[0] = ipiv[1] = -5;
    *info = -5;
    return kobalt_sgetrf_strided(KOBALT_COL_MAJOR, 2, 2, A, 2, 4, ipiv, 2, info, 1);
}

static void expect_working_backend(void)
{
    double C[8];
    kobalt_status st = small_dgemm(C);
    CHECK(st == KOBALT_SUCCESS, "dgemm_strided: %s (%s)", kobalt_status_name(st), kobalt_last_error());
    CHECK(small_dgemm_correct(C), "dgemm_strided result wrong: %g %g %g %g / %g %g %g %g", C[0], C[1],
          C[2], C[3], C[4], C[5], C[6], C[7]);

    float A[4];
    int ipiv[2], info;
    st = small_sgetrf(A, ipiv, &info);
    CHECK(st == KOBALT_SUCCESS, "sgetrf_strided: %s (%s)", kobalt_status_name(st), kobalt_last_error());
    CHECK(info == 0 && ipiv[0] == 2 && ipiv[1] == 2, "sgetrf: info %d ipiv %d %d", info, ipiv[0], ipiv[1]);
    CHECK(A[0] == 4 && A[1] == 0.25f && A[2] == 3 && A[3] == 1.25f, "sgetrf: LU %g %g %g %g", A[0],
          A[1], A[2], A[3]);
}

/* Validation precedes routing: an invalid call is refused whatever the backends. */
static void expect_invalid_refused(void)
{
    double A[4] = {0}, B[4] = {0}, C[4] = {7, 7, 7, 7};
    kobalt_status st = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2,
                                            2, 1.0, A, 1 /* lda < m */, 4, B, 2, 4, 0.0, C, 2, 4, 1);
    CHECK(st == KOBALT_INVALID_ARGUMENT, "dgemm_strided with lda=1 < m=2: got %s", kobalt_status_name(st));
    CHECK(starts_with(kobalt_last_error(), "kobalt_dgemm_strided: ") &&
              strstr(kobalt_last_error(), "lda") != NULL,
          "message \"%s\"", kobalt_last_error());
    CHECK(C[0] == 7 && C[3] == 7, "refused call wrote C");

    int info = 5;
    st = kobalt_sgetrf_batched(KOBALT_ROW_MAJOR, 2, 2, NULL, 2, NULL, 0, &info, 1);
    CHECK(st == KOBALT_INVALID_ARGUMENT, "sgetrf_batched with A=NULL: got %s", kobalt_status_name(st));
    CHECK(starts_with(kobalt_last_error(), "kobalt_sgetrf_batched: "), "message \"%s\"", kobalt_last_error());
    CHECK(info == 5, "refused call wrote info");
}

static void expect_no_backend(void)
{
    CHECK(kobalt_backend_count() == 0, "backend_count %d", kobalt_backend_count());
    CHECK(kobalt_backend_name(0) == NULL, "backend_name(0) = %s", kobalt_backend_name(0));

    double C[8];
    kobalt_status st = small_dgemm(C);
    CHECK(st == KOBALT_NO_BACKEND, "dgemm_strided: got %s", kobalt_status_name(st));
    CHECK(starts_with(kobalt_last_error(), "kobalt_dgemm_strided: "), "message \"%s\"", kobalt_last_error());
    CHECK(C[0] == -99 && C[7] == -99, "NO_BACKEND call wrote C");

    float A[4];
    int ipiv[2], info;
    st = small_sgetrf(A, ipiv, &info);
    CHECK(st == KOBALT_NO_BACKEND, "sgetrf_strided: got %s", kobalt_status_name(st));
    CHECK(starts_with(kobalt_last_error(), "kobalt_sgetrf_strided: "), "message \"%s\"", kobalt_last_error());

    double X[4] = {1, 0, 0, 1}, Y[4] = {1, 0, 0, 1}, M[4] = {0}, R[2] = {1, 1};
    double *Mp[1] = {M}, *Rp[1] = {R};
    const double *Xp[1] = {X}, *Yp[1] = {Y};
    st = kobalt_dgemm_lu_trsv_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 1,
                                      1.0, Xp, 2, Yp, 2, 0.0, Mp, 2, NULL, 0, Rp, 2, &info, 1);
    CHECK(st == KOBALT_NO_BACKEND, "dgemm_lu_trsv_batched: got %s", kobalt_status_name(st));
    CHECK(starts_with(kobalt_last_error(), "kobalt_dgemm_lu_trsv_batched: "), "message \"%s\"",
          kobalt_last_error());

    const float *Ap[1] = {A};
    float x[2] = {1, 1};
    float *xp[1] = {x};
    A[0] = A[3] = 1, A[1] = A[2] = 0;
    st = kobalt_strsv_batched(KOBALT_COL_MAJOR, KOBALT_UPPER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, 2, Ap,
                              2, xp, 1, 1);
    CHECK(st == KOBALT_NO_BACKEND, "strsv_batched: got %s", kobalt_status_name(st));

    expect_invalid_refused();

    /* Not specified: what an empty batch answers without a backend. Reported, not checked. */
    st = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0, NULL,
                              2, 4, NULL, 2, 4, 0.0, NULL, 2, 4, 0);
    printf("note [%s]: dgemm_strided with batch 0 and no backend answers %s\n", mode,
           kobalt_status_name(st));
}

/* ---- re-executing this program with another environment ------------------------------ */
typedef struct {
    int exit_code; /* -1: killed by a signal */
    char err[16384];
} child_result;

/* env: "NAME=value" sets, "NAME" alone unsets; NULL-terminated. */
static void run_child(const char *child_mode, const char *const *env, child_result *r)
{
    int fds[2];
    memset(r, 0, sizeof *r);
    if (pipe(fds) != 0) {
        perror("pipe");
        exit(2);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        close(fds[1]);
        for (const char *const *e = env; *e; ++e) {
            const char *eq = strchr(*e, '=');
            if (eq) {
                char name[256];
                snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
                setenv(name, eq + 1, 1);
            } else {
                unsetenv(*e);
            }
        }
        execl("/proc/self/exe", "test_loading", child_mode, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t used = 0;
    for (;;) {
        char buf[4096];
        ssize_t got = read(fds[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        size_t keep = (size_t)got;
        if (used + keep > sizeof r->err - 1) keep = sizeof r->err - 1 - used;
        memcpy(r->err + used, buf, keep);
        used += keep;
    }
    r->err[used] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void print_stderr(const char *what, const child_result *r)
{
    printf("---- stderr of %s (exit %d) ----\n%s%s---- end ----\n", what, r->exit_code, r->err,
           r->err[0] && r->err[strlen(r->err) - 1] != '\n' ? "\n" : "");
}

/* ---- the temporary plugin folder ----------------------------------------------------- */
static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    if (!in || !out) {
        if (in) fclose(in);
        return -1;
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
    fclose(in);
    return fclose(out);
}

static void mode_plugin_dir(void)
{
    char dir[] = "/tmp/kobalt-loading-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(2);
    }
    char path[4096];
    struct stat sb;
    CHECK(stat(KOBALT_TEST_REAL_PLUGIN, &sb) == 0, "real plugin %s missing", KOBALT_TEST_REAL_PLUGIN);

    snprintf(path, sizeof path, "%s/libkobalt-bogus.so", dir);
    FILE *f = fopen(path, "w");
    fputs("this is not a shared object\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/libkobalt-nogetter.so", dir);
    CHECK(copy_file(KOBALT_TEST_FAKE_NOGETTER, path) == 0, "copy %s", KOBALT_TEST_FAKE_NOGETTER);
    snprintf(path, sizeof path, "%s/libkobalt-nulltable.so", dir);
    CHECK(copy_file(KOBALT_TEST_FAKE_NULLTABLE, path) == 0, "copy %s", KOBALT_TEST_FAKE_NULLTABLE);
    snprintf(path, sizeof path, "%s/libkobalt-initfail.so", dir);
    CHECK(copy_file(KOBALT_TEST_FAKE_INITFAIL, path) == 0, "copy %s", KOBALT_TEST_FAKE_INITFAIL);
    snprintf(path, sizeof path, "%s/libkobalt-badabi.so", dir);
    CHECK(copy_file(KOBALT_TEST_FAKE_BADABI, path) == 0, "copy %s", KOBALT_TEST_FAKE_BADABI);
    snprintf(path, sizeof path, "%s/libkobalt-openmp.so", dir);
    CHECK(symlink(KOBALT_TEST_REAL_PLUGIN, path) == 0, "symlink %s", path);

    char env_path[4200];
    snprintf(env_path, sizeof env_path, "KOBALT_PLUGIN_PATH=%s", dir);

    child_result r;
    const char *verbose_env[] = {env_path, "KOBALT_VERBOSE=1", "KOBALT_BACKENDS", NULL};
    run_child("dir-child", verbose_env, &r);
    print_stderr("dir-child with KOBALT_VERBOSE=1", &r);
    CHECK(r.exit_code == 0, "dir-child (verbose) failed, see its output above");
    CHECK(strstr(r.err, "libkobalt-bogus.so") != NULL, "verbose stderr does not name libkobalt-bogus.so");
    CHECK(strstr(r.err, "libkobalt-nogetter.so") != NULL, "verbose stderr does not name libkobalt-nogetter.so");
    CHECK(strstr(r.err, "libkobalt-nulltable.so") != NULL, "verbose stderr does not name libkobalt-nulltable.so");
    CHECK(strstr(r.err, "libkobalt-badabi.so") != NULL, "verbose stderr does not name libkobalt-badabi.so");
    CHECK(strstr(r.err, "kobalt-test-initfail: no device here") != NULL,
          "verbose stderr does not give the init reason of libkobalt-initfail.so");

    const char *quiet_env[] = {env_path, "KOBALT_VERBOSE", "KOBALT_BACKENDS", NULL};
    run_child("dir-child", quiet_env, &r);
    print_stderr("dir-child without KOBALT_VERBOSE", &r);
    CHECK(r.exit_code == 0, "dir-child (quiet) failed, see its output above");
    CHECK(r.err[0] == '\0', "stderr not empty without KOBALT_VERBOSE");

    const char *files[] = {"bogus", "nogetter", "nulltable", "initfail", "badabi", "openmp"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        snprintf(path, sizeof path, "%s/libkobalt-%s.so", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* In the temporary folder: only the real plugin survives. */
static void mode_dir_child(void)
{
    CHECK(kobalt_backend_count() == 1, "backend_count %d", kobalt_backend_count());
    CHECK(kobalt_backend_name(0) && strcmp(kobalt_backend_name(0), "openmp") == 0, "backend_name(0) %s",
          kobalt_backend_name(0) ? kobalt_backend_name(0) : "(null)");
    CHECK(kobalt_backend_name(1) == NULL, "backend_name(1) %s", kobalt_backend_name(1));
    expect_working_backend();
    expect_invalid_refused();
}

static void mode_quiet_child(void)
{
    CHECK(kobalt_backend_count() >= 1, "backend_count %d", kobalt_backend_count());
    expect_working_backend();
    expect_invalid_refused();
    double C[8];
    small_dgemm(C); /* a success after a failure */
}

static void mode_normal(void)
{
    char version[64];
    snprintf(version, sizeof version, "%d.%d.%d", KOBALT_VERSION_MAJOR, KOBALT_VERSION_MINOR,
             KOBALT_VERSION_PATCH);
    CHECK(kobalt_version() && strcmp(kobalt_version(), version) == 0, "version %s, header says %s",
          kobalt_version(), version);
    CHECK(strcmp(kobalt_status_name(KOBALT_SUCCESS), "KOBALT_SUCCESS") == 0, "%s",
          kobalt_status_name(KOBALT_SUCCESS));
    CHECK(strcmp(kobalt_status_name(KOBALT_NO_BACKEND), "KOBALT_NO_BACKEND") == 0, "%s",
          kobalt_status_name(KOBALT_NO_BACKEND));
    CHECK(strcmp(kobalt_status_name(KOBALT_BACKEND_ERROR), "KOBALT_BACKEND_ERROR") == 0, "%s",
          kobalt_status_name(KOBALT_BACKEND_ERROR));
    CHECK(strcmp(kobalt_status_name((kobalt_status)99), "unknown status") == 0, "%s",
          kobalt_status_name((kobalt_status)99));
    CHECK(kobalt_last_error() && kobalt_last_error()[0] == '\0', "last_error before any failure: \"%s\"",
          kobalt_last_error());

    int count = kobalt_backend_count();
    CHECK(count >= 1, "backend_count %d", count);
    CHECK(kobalt_backend_name(0) && strcmp(kobalt_backend_name(0), "openmp") == 0, "backend_name(0) %s",
          kobalt_backend_name(0) ? kobalt_backend_name(0) : "(null)");
    CHECK(kobalt_backend_name(-1) == NULL, "backend_name(-1) not NULL");
    CHECK(kobalt_backend_name(count) == NULL, "backend_name(count) not NULL");
    CHECK(kobalt_backend_count() == count, "backend_count changed");

    expect_working_backend();
    CHECK(kobalt_last_error()[0] == '\0', "last_error after successful calls: \"%s\"", kobalt_last_error());
    expect_invalid_refused();

    child_result r;
    const char *unset_env[] = {"KOBALT_VERBOSE", NULL};
    run_child("quiet-child", unset_env, &r);
    CHECK(r.exit_code == 0, "quiet-child failed");
    CHECK(r.err[0] == '\0', "stderr not empty without KOBALT_VERBOSE");
    if (r.exit_code != 0 || r.err[0]) print_stderr("quiet-child", &r);

    const char *zero_env[] = {"KOBALT_VERBOSE=0", NULL};
    run_child("quiet-child", zero_env, &r);
    CHECK(r.exit_code == 0, "quiet-child (KOBALT_VERBOSE=0) failed");
    CHECK(r.err[0] == '\0', "stderr not empty with KOBALT_VERBOSE=0");
    if (r.exit_code != 0 || r.err[0]) print_stderr("quiet-child KOBALT_VERBOSE=0", &r);

    /* For the log only: what verbose prints on a normal start. */
    const char *verbose_env[] = {"KOBALT_VERBOSE=1", NULL};
    run_child("quiet-child", verbose_env, &r);
    CHECK(r.exit_code == 0, "quiet-child (KOBALT_VERBOSE=1) failed");
    print_stderr("quiet-child KOBALT_VERBOSE=1", &r);
}

static void mode_only_openmp(void)
{
    CHECK(kobalt_backend_count() == 1, "backend_count %d", kobalt_backend_count());
    CHECK(kobalt_backend_name(0) && strcmp(kobalt_backend_name(0), "openmp") == 0, "backend_name(0)");
    expect_working_backend();
}

int main(int argc, char **argv)
{
    mode = argc > 1 ? argv[1] : "normal";
    if (strcmp(mode, "normal") == 0) mode_normal();
    else if (strcmp(mode, "none") == 0 || strcmp(mode, "missing-dir") == 0) expect_no_backend();
    else if (strcmp(mode, "empty-path") == 0) {
        const char *path = getenv("KOBALT_PLUGIN_PATH");
        CHECK(path != NULL && path[0] == '\0', "KOBALT_PLUGIN_PATH should be set and empty here");
        expect_no_backend();
    }
    else if (strcmp(mode, "only-openmp") == 0) mode_only_openmp();
    else if (strcmp(mode, "plugin-dir") == 0) mode_plugin_dir();
    else if (strcmp(mode, "dir-child") == 0) mode_dir_child();
    else if (strcmp(mode, "quiet-child") == 0) mode_quiet_child();
    else {
        printf("unknown mode %s\n", mode);
        return 2;
    }
    printf("%s [%s]: %d failure(s)\n", failures ? "FAILED" : "passed", mode, failures);
    return failures ? 1 : 0;
}
