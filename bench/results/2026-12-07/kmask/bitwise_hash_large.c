#include <kobalt/kobalt.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
static unsigned long long h = 1469598103934665603ULL;
static void mix(const void *p, size_t n) { const unsigned char *c = p; for (size_t i = 0; i < n; ++i) { h ^= c[i]; h *= 1099511628211ULL; } }
static unsigned long long rs = 88172645463325252ULL;
static double rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (double)(rs >> 11) / 9007199254740992.0 * 2 - 1; }
int main(void) {
    int sizes[] = {9, 12, 16, 24, 32, 48, 64};
    for (int si = 0; si < 7; ++si) for (int lay = 0; lay < 2; ++lay) {
        int n = sizes[si]; long batch = 301, nn = (long)n * n;
        kobalt_layout L = lay ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR;
        double *A = malloc(8 * nn * batch), *X = malloc(8 * nn * batch), *B = malloc(8 * n * batch);
        int *ip = malloc(4 * n * batch), *info = malloc(4 * batch);
        for (long i = 0; i < nn * batch; ++i) A[i] = rnd();
        for (long i = 0; i < nn * batch; i += 101) A[i] = (i / 101) % 3 == 0 ? NAN : (i / 101) % 3 == 1 ? 0 : INFINITY;
        for (long b = 0; b < batch; b += 5) for (int i = 0; i < n; ++i) A[b * nn + i * n + 1] = 0;
        kobalt_dgetrf_strided(L, n, n, A, n, nn, ip, n, info, batch);
        mix(A, 8 * nn * batch); mix(ip, 4 * n * batch); mix(info, 4 * batch);
        for (long i = 0; i < n * batch; ++i) B[i] = rnd();
        kobalt_dgetrs_strided(L, KOBALT_NO_TRANS, n, 1, A, n, nn, ip, n, B, lay ? 1 : n, n, batch);
        mix(B, 8 * n * batch);
        printf("n=%d lay=%d %016llx\n", n, lay, h);
        free(A); free(X); free(B); free(ip); free(info);
    }
}
