/*
 * test_dlopen_cycles.c -- libkobalt loaded and unloaded again and again.
 *
 * Each cycle dlopens libkobalt (RTLD_NOW | RTLD_LOCAL), resolves kobalt_dgetrf_strided and
 * kobalt_dgemm_strided, runs both on a small batch (so the plugins are discovered, loaded
 * and probed again by the fresh copy of the core), checks the results and dlcloses it.
 * After the cycles it checks that
 *   - every cycle gave the same, correct answers;
 *   - libkobalt is no longer mapped after its last dlclose (nothing pins it);
 *   - the resident set grew by less than RSS_BOUND KiB (default 4096) between cycle 10
 *     and the last one (the plugins themselves are never dlclosed by the core, by design,
 *     so they stay mapped once per process; re-opening them only bumps their reference
 *     count). RSS_BOUND 0 skips this check: under AddressSanitizer freed memory sits in
 *     its quarantine and the RSS grows whatever the library does.
 * Under LeakSanitizer (the sanitized configuration) or valgrind --leak-check=full any
 * block lost per cycle shows up as a leak at exit.
 *
 *   test_dlopen_cycles [CYCLES] [RSS_BOUND]     (defaults 200, 4096)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kobalt/kobalt.h>

#ifndef KOBALT_TEST_LIBRARY
#error "KOBALT_TEST_LIBRARY must name libkobalt"
#endif

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &v) == 1) break;
    if (f) fclose(f);
    return v;
}

static int mapped(const char *needle)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, needle)) found = 1;
    if (f) fclose(f);
    return found;
}

int main(int argc, char **argv)
{
    const int cycles = argc > 1 ? atoi(argv[1]) : 200;
    const long rss_bound = argc > 2 ? atol(argv[2]) : 4096;
    int failures = 0;
    long rss10 = 0;
    for (int c = 0; c < cycles; ++c) {
        void *lib = dlopen(KOBALT_TEST_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            printf("FAIL cycle %d: dlopen: %s\n", c, dlerror());
            return 1;
        }
        __typeof__(&kobalt_dgetrf_strided) getrf = (__typeof__(getrf))dlsym(lib, "kobalt_dgetrf_strided");
        __typeof__(&kobalt_dgemm_strided) gemm = (__typeof__(gemm))dlsym(lib, "kobalt_dgemm_strided");
        __typeof__(&kobalt_backend_count) count = (__typeof__(count))dlsym(lib, "kobalt_backend_count");
        if (!getrf || !gemm || !count) {
            printf("FAIL cycle %d: dlsym\n", c);
            return 1;
        }
        double A[8] = {1, 4, 2, 3, /* */ 2, 0, 0, 2};
        int ipiv[4] = {0}, info[2] = {-1, -1};
        kobalt_status st = getrf(KOBALT_COL_MAJOR, 2, 2, A, 2, 4, ipiv, 2, info, 2);
        /* [1 2;4 3] -> ipiv {2,2}, U = [4 3; 0 1.25], L21 = 0.25; [2 0;0 2] unchanged */
        if (st != KOBALT_SUCCESS || ipiv[0] != 2 || ipiv[1] != 2 || A[0] != 4 || A[1] != 0.25 || A[2] != 3 ||
            A[3] != 1.25 || info[0] != 0 || info[1] != 0 || A[4] != 2 || ipiv[2] != 1) {
            printf("FAIL cycle %d: dgetrf status %d, ipiv %d %d, A %g %g %g %g\n", c, st, ipiv[0], ipiv[1], A[0], A[1],
                   A[2], A[3]);
            ++failures;
        }
        double X[4] = {1, 2, 3, 4}, Y[4] = {1, 0, 0, 1}, Z[4] = {0};
        st = gemm(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 2.0, X, 2, 4, Y, 2, 4, 0.0, Z, 2, 4, 1);
        if (st != KOBALT_SUCCESS || Z[0] != 2 || Z[1] != 4 || Z[2] != 6 || Z[3] != 8 || count() < 1) {
            printf("FAIL cycle %d: dgemm status %d, Z %g %g %g %g, %d backends\n", c, st, Z[0], Z[1], Z[2], Z[3],
                   count());
            ++failures;
        }
        if (dlclose(lib) != 0) {
            printf("FAIL cycle %d: dlclose: %s\n", c, dlerror());
            ++failures;
        }
        if (c == 9) rss10 = rss_kib();
    }
    const long rss_end = rss_kib();
    const char *base = strrchr(KOBALT_TEST_LIBRARY, '/');
    base = base ? base + 1 : KOBALT_TEST_LIBRARY;
    const int still = mapped(base);
    printf("%d cycles; RSS after 10: %ld KiB, after %d: %ld KiB (growth %ld KiB); libkobalt %s mapped after the "
           "last dlclose; openmp plugin %s mapped (never dlclosed, by design)\n",
           cycles, rss10, cycles, rss_end, rss_end - rss10, still ? "STILL" : "no longer",
           mapped("libkobalt-openmp") ? "still" : "not");
    if (still) {
        printf("FAIL: libkobalt stays mapped after dlclose\n");
        ++failures;
    }
    if (rss_bound > 0 && cycles > 10 && rss_end - rss10 > rss_bound) {
        printf("FAIL: RSS grew by %ld KiB over %d cycles (bound %ld KiB)\n", rss_end - rss10, cycles - 10, rss_bound);
        ++failures;
    }
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
