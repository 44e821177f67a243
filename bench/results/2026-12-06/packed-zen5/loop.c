/* loop.c: loop N BATCH REPS gemm|getrf|getrs|three|fused -- one Kobalt call (or Kobalt's own
 * three: gemm, getrf, getrs) on BATCH column-major N x N items (double; float when built with
 * -DLOOP_FLOAT), inputs restored by all threads before each timed call (as kobalt-bench does),
 * median of REPS (at most 1000) in ns per item. Session 47's A/B harness for the packed path on
 * AMD Zen 5 (ab.sh); loop_ab_distance.txt was run with an earlier version that restored the
 * inputs by one memcpy on the calling thread. Build: gcc -O2 -fopenmp [-DLOOP_FLOAT] loop.c
 * -I include -L build-host/lib -lkobalt -Wl,-rpath,$PWD/build-host/lib -o loop */
#include <kobalt/kobalt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef LOOP_FLOAT
typedef float R;
#define K(name) kobalt_s##name
#else
typedef double R;
#define K(name) kobalt_d##name
#endif
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: loop N BATCH REPS gemm|getrf|getrs|three|fused\n"); return 2; }
  int n = atoi(argv[1]); long batch = atol(argv[2]); int reps = atoi(argv[3]); const char *what = argv[4];
  if (reps < 1 || reps > 1000) reps = 1000;
  long nn = (long)n * n * batch;
  R *X = malloc(nn * sizeof(R)), *Y = malloc(nn * sizeof(R)), *A = malloc(nn * sizeof(R)), *A0 = malloc(nn * sizeof(R));
  R *B = malloc(n * batch * sizeof(R)), *B0 = malloc(n * batch * sizeof(R));
  int *ipiv = malloc(n * batch * sizeof(int)), *info = malloc(batch * sizeof(int));
  srand(1);
  for (long i = 0; i < nn; i++) { X[i] = rand() / (R)RAND_MAX - .5; Y[i] = rand() / (R)RAND_MAX - .5; A0[i] = rand() / (R)RAND_MAX - .5; }
  /* getrs alone: valid random pivots (row i swaps with a row i..n-1), A0 as the factors */
  for (long i = 0; i < n * batch; i++) { B0[i] = rand() / (R)RAND_MAX; ipiv[i] = (int)(i % n) + 1 + rand() % (n - (int)(i % n)); }
  for (long i = 0; i < nn; i += n + 1) A0[i] += n;
  double ts[1000];
  for (int r = 0; r < reps; r++) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < nn; i++) A[i] = A0[i];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n * batch; i++) B[i] = B0[i];
    double t = now();
    if (!strcmp(what, "gemm") || !strcmp(what, "three"))
      K(gemm_strided)(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1, X, n, n * n, Y, n, n * n, 1, A, n, n * n, batch);
    if (!strcmp(what, "getrf") || !strcmp(what, "three")) K(getrf_strided)(KOBALT_COL_MAJOR, n, n, A, n, n * n, ipiv, n, info, batch);
    if (!strcmp(what, "getrs")) K(getrs_strided)(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, 1, A0, n, n * n, ipiv, n, B, n, n, batch);
    if (!strcmp(what, "three")) K(getrs_strided)(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, 1, A, n, n * n, ipiv, n, B, n, n, batch);
    if (!strcmp(what, "fused"))
      K(gemm_lu_trsv_strided)(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, 1, X, n, n * n, Y, n, n * n, 1, A, n, n * n,
                              ipiv, n, B, n, n, info, batch);
    ts[r] = now() - t;
  }
  qsort(ts, reps, sizeof ts[0], cmp);
  printf("%s n=%d batch=%ld: %.3f ns/item\n", what, n, batch, ts[reps / 2] * 1e9 / batch);
  return 0;
}
