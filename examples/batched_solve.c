/*
 * batched_solve.c -- a plain C program using Kobalt: a batched dgemm, a dgetrf/dgetrs
 * solve, and a refused call. The tests build it three ways against an *installed*
 * Kobalt, as its users do (tests/install/run_install_test.sh):
 *
 *   pkg-config       cc batched_solve.c $(pkg-config --cflags --libs kobalt)
 *   CMake            find_package(Kobalt) + target_link_libraries(app Kobalt::kobalt)
 *   dlopen           cc -DKOBALT_EXAMPLE_DLOPEN batched_solve.c $(pkg-config --cflags kobalt) -ldl
 *                    no link-time dependency: libkobalt is opened by its SONAME at run
 *                    time and every routine resolved with dlsym, as a framework would.
 *
 *   batched_solve               expects at least one backend and checks the results
 *   batched_solve --no-backend  expects no backend (KOBALT_PLUGIN_PATH set but empty)
 *                               and KOBALT_NO_BACKEND from a call
 */
#include <kobalt/kobalt.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifdef KOBALT_EXAMPLE_DLOPEN
#include <dlfcn.h>

/* One function pointer per routine used, typed from the header's own prototype. */
#define KOBALT_USED(X)                                                                  \
    X(version) X(last_error) X(status_name) X(backend_count) X(backend_name)           \
    X(dgemm_strided) X(dgetrf_strided) X(dgetrs_strided)
#define KOBALT_POINTER(name) static __typeof__(&kobalt_##name) p_##name;
KOBALT_USED(KOBALT_POINTER)
#define K(name) p_##name

static int load_kobalt(void)
{
    void *lib = dlopen("libkobalt.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "batched_solve: dlopen(libkobalt.so.0): %s\n", dlerror());
        return 1;
    }
#define KOBALT_RESOLVE(name)                                                            \
    if (!(*(void **)&p_##name = dlsym(lib, "kobalt_" #name))) {                         \
        fprintf(stderr, "batched_solve: dlsym(kobalt_" #name "): %s\n", dlerror());     \
        return 1;                                                                       \
    }
    KOBALT_USED(KOBALT_RESOLVE)
    return 0;
}
#else
#define K(name) kobalt_##name
static int load_kobalt(void) { return 0; }
#endif

#define FAIL(...)                                                                      \
    do {                                                                               \
        fprintf(stderr, "batched_solve: " __VA_ARGS__);                                     \
        fprintf(stderr, "\n");                                                         \
        return 1;                                                                      \
    } while (0)

static int check_status(const char *what, kobalt_status st)
{
    if (st != KOBALT_SUCCESS) {
        fprintf(stderr, "batched_solve: %s returned %s: %s\n", what, K(status_name)(st),
                K(last_error)());
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const int expect_none = argc > 1 && strcmp(argv[1], "--no-backend") == 0;
    if (load_kobalt() != 0) return 1;
    char version[32];
    snprintf(version, sizeof version, "%d.%d.%d", KOBALT_VERSION_MAJOR, KOBALT_VERSION_MINOR,
             KOBALT_VERSION_PATCH);
    if (strcmp(K(version)(), version) != 0)
        FAIL("K(version)() is \"%s\", the header says \"%s\"", K(version)(), version);

    const int nb = K(backend_count)();
    printf("batched_solve: libkobalt %s, %d backend(s):", K(version)(), nb);
    for (int i = 0; i < nb; ++i) printf(" %s", K(backend_name)(i));
    printf("\n");

    /* Three column-major 2x2 items: C_i = 2 A_i B_i + C_i. */
    const double A[3][4] = {{1, 2, 3, 4}, {0, 1, -1, 0}, {2, 0, 0, 2}};
    const double B[3][4] = {{1, 0, 0, 1}, {5, 6, 7, 8}, {1, 1, 1, 1}};
    double C[3][4] = {{1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0, 0, -1}};
    const double expect[3][4] = {
        {3, 5, 7, 9},   /* 2*A + 1 */
        {-12, 10, -16, 14}, /* A = [0 -1; 1 0], A*B = [-6 -8; 5 7] col-major {-6,5,-8,7} */
        {4, 4, 4, 3},   /* 2*2I*ones + C */
    };

    if (expect_none) {
        if (nb != 0) FAIL("expected no backend with KOBALT_PLUGIN_PATH set but empty, got %d", nb);
        kobalt_status st = K(dgemm_strided)(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS,
                                                2, 2, 2, 2.0, &A[0][0], 2, 4, &B[0][0], 2, 4, 1.0,
                                                &C[0][0], 2, 4, 3);
        if (st != KOBALT_NO_BACKEND)
            FAIL("expected KOBALT_NO_BACKEND without plugins, got %s", K(status_name)(st));
        if (K(last_error)()[0] == '\0') FAIL("K(last_error)() is empty after a failed call");
        printf("batched_solve: no backend, as expected (\"%s\")\n", K(last_error)());
        return 0;
    }

    if (nb < 1) FAIL("no backend was loaded: the installed plugin was not found next to libkobalt");

    if (check_status("kobalt_dgemm_strided",
                     K(dgemm_strided)(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2,
                                          2, 2.0, &A[0][0], 2, 4, &B[0][0], 2, 4, 1.0, &C[0][0], 2,
                                          4, 3)))
        return 1;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            if (fabs(C[i][j] - expect[i][j]) > 1e-12)
                FAIL("dgemm item %d entry %d is %g, expected %g", i, j, C[i][j], expect[i][j]);

    /* One row-major 3x3 solve with pivoting: M x = b with x = (1, 2, 3). */
    double M[9] = {0, 2, 1, 1, 1, 1, 4, 0, 3};
    double b[3] = {0 * 1 + 2 * 2 + 1 * 3, 1 + 2 + 3, 4 * 1 + 0 + 3 * 3};
    int ipiv[3], info = -1;
    if (check_status("kobalt_dgetrf_strided",
                     K(dgetrf_strided)(KOBALT_ROW_MAJOR, 3, 3, M, 3, 9, ipiv, 3, &info, 1)))
        return 1;
    if (info != 0) FAIL("dgetrf info is %d, expected 0", info);
    if (check_status("kobalt_dgetrs_strided",
                     K(dgetrs_strided)(KOBALT_ROW_MAJOR, KOBALT_NO_TRANS, 3, 1, M, 3, 9, ipiv,
                                           3, b, 1, 3, 1)))
        return 1;
    for (int j = 0; j < 3; ++j)
        if (fabs(b[j] - (j + 1)) > 1e-12) FAIL("dgetrs x[%d] is %g, expected %d", j, b[j], j + 1);

    /* A refused call leaves a message naming the function. */
    kobalt_status st = K(dgemm_strided)(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2,
                                            2, 2, 1.0, &A[0][0], 1, 4, &B[0][0], 2, 4, 0.0,
                                            &C[0][0], 2, 4, 3);
    if (st != KOBALT_INVALID_ARGUMENT)
        FAIL("lda 1 < m 2 returned %s, expected KOBALT_INVALID_ARGUMENT", K(status_name)(st));
    if (strncmp(K(last_error)(), "kobalt_dgemm_strided", 20) != 0)
        FAIL("K(last_error)() is \"%s\"", K(last_error)());

    printf("batched_solve: OK\n");
    return 0;
}
