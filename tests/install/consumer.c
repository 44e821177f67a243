/*
 * consumer.c -- a program built against an *installed* Kobalt, once through
 * pkg-config and once through find_package(Kobalt). Run by run_install_test.sh.
 *
 *   consumer             expects at least one backend (the installed plugin, found
 *                        next to the installed libkobalt) and checks a tiny batched
 *                        dgemm and a dgetrf/dgetrs solve
 *   consumer --no-backend  expects no backend at all (KOBALT_PLUGIN_PATH set but
 *                        empty) and KOBALT_NO_BACKEND from a call
 */
#include <kobalt/kobalt.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FAIL(...)                                                                      \
    do {                                                                               \
        fprintf(stderr, "consumer: " __VA_ARGS__);                                     \
        fprintf(stderr, "\n");                                                         \
        return 1;                                                                      \
    } while (0)

static int check_status(const char *what, kobalt_status st)
{
    if (st != KOBALT_SUCCESS) {
        fprintf(stderr, "consumer: %s returned %s: %s\n", what, kobalt_status_name(st),
                kobalt_last_error());
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const int expect_none = argc > 1 && strcmp(argv[1], "--no-backend") == 0;
    char version[32];
    snprintf(version, sizeof version, "%d.%d.%d", KOBALT_VERSION_MAJOR, KOBALT_VERSION_MINOR,
             KOBALT_VERSION_PATCH);
    if (strcmp(kobalt_version(), version) != 0)
        FAIL("kobalt_version() is \"%s\", the header says \"%s\"", kobalt_version(), version);

    const int nb = kobalt_backend_count();
    printf("consumer: libkobalt %s, %d backend(s):", kobalt_version(), nb);
    for (int i = 0; i < nb; ++i) printf(" %s", kobalt_backend_name(i));
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
        kobalt_status st = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS,
                                                2, 2, 2, 2.0, &A[0][0], 2, 4, &B[0][0], 2, 4, 1.0,
                                                &C[0][0], 2, 4, 3);
        if (st != KOBALT_NO_BACKEND)
            FAIL("expected KOBALT_NO_BACKEND without plugins, got %s", kobalt_status_name(st));
        if (kobalt_last_error()[0] == '\0') FAIL("kobalt_last_error() is empty after a failed call");
        printf("consumer: no backend, as expected (\"%s\")\n", kobalt_last_error());
        return 0;
    }

    if (nb < 1) FAIL("no backend was loaded: the installed plugin was not found next to libkobalt");

    if (check_status("kobalt_dgemm_strided",
                     kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2,
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
                     kobalt_dgetrf_strided(KOBALT_ROW_MAJOR, 3, 3, M, 3, 9, ipiv, 3, &info, 1)))
        return 1;
    if (info != 0) FAIL("dgetrf info is %d, expected 0", info);
    if (check_status("kobalt_dgetrs_strided",
                     kobalt_dgetrs_strided(KOBALT_ROW_MAJOR, KOBALT_NO_TRANS, 3, 1, M, 3, 9, ipiv,
                                           3, b, 1, 3, 1)))
        return 1;
    for (int j = 0; j < 3; ++j)
        if (fabs(b[j] - (j + 1)) > 1e-12) FAIL("dgetrs x[%d] is %g, expected %d", j, b[j], j + 1);

    /* A refused call leaves a message naming the function. */
    kobalt_status st = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2,
                                            2, 2, 1.0, &A[0][0], 1, 4, &B[0][0], 2, 4, 0.0,
                                            &C[0][0], 2, 4, 3);
    if (st != KOBALT_INVALID_ARGUMENT)
        FAIL("lda 1 < m 2 returned %s, expected KOBALT_INVALID_ARGUMENT", kobalt_status_name(st));
    if (strncmp(kobalt_last_error(), "kobalt_dgemm_strided", 20) != 0)
        FAIL("kobalt_last_error() is \"%s\"", kobalt_last_error());

    printf("consumer: OK\n");
    return 0;
}
