/* Per-call cost of kobalt_dgemm_lu_trsv_strided at small batches: the plugin chosen by
   KOBALT_PLUGIN_PATH. Prints median ns per call over 7 repetitions. */
#include <kobalt/kobalt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) {
    int n = atoi(argv[1]), batch = atoi(argv[2]), calls = atoi(argv[3]);
    long nn = (long)n * n;
    double *X = malloc(sizeof(double) * nn * batch), *Y = malloc(sizeof(double) * nn * batch),
           *A = malloc(sizeof(double) * nn * batch), *B = malloc(sizeof(double) * n * batch);
    int *ipiv = malloc(sizeof(int) * n * batch), *info = malloc(sizeof(int) * batch);
    for (long i = 0; i < nn * batch; ++i) { X[i] = rand() / (double)RAND_MAX; Y[i] = rand() / (double)RAND_MAX; }
    double t[7];
    for (int r = 0; r < 7; ++r) {
        double s = now();
        for (int c = 0; c < calls; ++c) {
            for (long i = 0; i < nn * batch; i += nn) A[i] = 1; /* touch */
            for (long i = 0; i < n * batch; ++i) B[i] = 1;
            if (kobalt_dgemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, 1.0, X, n, nn, Y, n, nn,
                                             0.0, A, n, nn, ipiv, n, B, n, n, info, batch) != KOBALT_SUCCESS) return 1;
        }
        t[r] = (now() - s) / calls * 1e9;
    }
    qsort(t, 7, sizeof t[0], cmp);
    printf("n=%d batch=%d: median %.0f ns/call (min %.0f, max %.0f)\n", n, batch, t[3], t[0], t[6]);
    return 0;
}
