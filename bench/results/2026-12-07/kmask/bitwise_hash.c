/* hash of getrf / getrs / fused / desc outputs over random, singular and NaN items */
#include <kobalt/kobalt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
static unsigned long long h = 1469598103934665603ULL;
static FILE *dumpf; static int callno;
static void mix(const void *p, size_t n) { if (dumpf) { fprintf(dumpf, "CALL %d %zu\n", callno++, n); fwrite(p, 1, n, dumpf); fputc('\n', dumpf); } const unsigned char *c = p; for (size_t i = 0; i < n; ++i) { h ^= c[i]; h *= 1099511628211ULL; } }
static unsigned long long rs = 88172645463325252ULL;
static double rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (double)(rs >> 11) / 9007199254740992.0 * 2 - 1; }
static void fill(double *a, long n, int special) {
    for (long i = 0; i < n; ++i) a[i] = rnd();
    if (special) for (long i = 0; i < n; i += 97) { int k = (int)((rs >> 5) % 5); a[i] = k == 0 ? 0 : k == 1 ? NAN : k == 2 ? INFINITY : k == 3 ? 1e-310 : a[i]; rnd(); }
}
static void fills(float *a, long n) { for (long i = 0; i < n; ++i) a[i] = (float)rnd(); for (long i = 0; i < n; i += 89) a[i] = 0; }
int main(void) {
    const long batch = getenv("BW_BATCH") ? atol(getenv("BW_BATCH")) : 1003;
    for (int n = 1; n <= 8; ++n) for (int lay = 0; lay < 2; ++lay) for (int sp = 0; sp < 2; ++sp) {
        kobalt_layout L = lay ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR;
        if (dumpf) { fclose(dumpf); dumpf = NULL; }
        if (getenv("DUMPALL") && n == 3 && lay == 0 && sp == 0) dumpf = fopen(getenv("DUMPALL"), "wb");
        long nn = (long)n * n;
        double *A = malloc(sizeof(double) * nn * batch), *X = malloc(sizeof(double) * nn * batch), *Y = malloc(sizeof(double) * nn * batch), *B = malloc(sizeof(double) * n * 3 * batch);
        int *ip = malloc(sizeof(int) * n * batch), *info = malloc(sizeof(int) * batch);
        fill(A, nn * batch, sp);
        if (sp) for (long b = 0; b < batch; b += 7) for (int i = 0; i < n; ++i) A[b * nn + i * n] = 0; /* zero columns/rows */
        kobalt_dgetrf_strided(L, n, n, A, n, nn, ip, n, info, batch);
        mix(A, sizeof(double) * nn * batch); mix(ip, sizeof(int) * n * batch); mix(info, sizeof(int) * batch);
        for (int t = 0; t < 2; ++t) { fill(B, (long)n * 3 * batch, 0);
            kobalt_dgetrs_strided(L, t ? KOBALT_TRANS : KOBALT_NO_TRANS, n, 3, A, n, nn, ip, n, B, lay ? 3 : n, n * 3, batch);
            mix(B, sizeof(double) * n * 3 * batch);
            fill(B, (long)n * batch, 0);
            kobalt_dgetrs_strided(L, t ? KOBALT_TRANS : KOBALT_NO_TRANS, n, 1, A, n, nn, ip, n, B, lay ? 1 : n, n, batch);
            mix(B, sizeof(double) * n * batch);
            if (getenv("DUMP") && n == 8 && lay == 1 && sp == 1) { char fn[64]; sprintf(fn, "%s.t%d", getenv("DUMP"), t); FILE *f = fopen(fn, "wb"); fwrite(B, sizeof(double), (size_t)n * batch, f); fclose(f); }
            { float *Af = malloc(sizeof(float) * nn * batch), *Bf = malloc(sizeof(float) * n * batch); int *ipf = malloc(sizeof(int) * n * batch), *inf = malloc(sizeof(int) * batch);
              fills(Af, nn * batch); kobalt_sgetrf_strided(L, n, n, Af, n, nn, ipf, n, inf, batch); fills(Bf, n * batch);
              kobalt_sgetrs_strided(L, t ? KOBALT_TRANS : KOBALT_NO_TRANS, n, 1, Af, n, nn, ipf, n, Bf, lay ? 1 : n, n, batch);
              mix(Bf, sizeof(float) * n * batch); free(Af); free(Bf); free(ipf); free(inf); } }
        fill(X, nn * batch, sp); fill(Y, nn * batch, 0); fill(A, nn * batch, 0); fill(B, (long)n * batch, 0);
        kobalt_dgemm_lu_trsv_strided(L, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, 1.0, X, n, nn, Y, n, nn, sp ? 0.5 : 0.0, A, n, nn, ip, n, B, 1, n, info, batch);
        mix(A, sizeof(double) * nn * batch); mix(ip, sizeof(int) * n * batch); mix(info, sizeof(int) * batch); mix(B, sizeof(double) * n * batch);
        /* interleaved */
        kobalt_matrix_desc dA = kobalt_desc_interleaved(n, n, batch), dP = kobalt_desc_interleaved(n, 1, batch), dB = kobalt_desc_interleaved(n, 1, batch);
        fill(A, nn * batch, sp);
        kobalt_dgetrf_desc(A, &dA, ip, &dP, info, batch);
        mix(A, sizeof(double) * nn * batch); mix(ip, sizeof(int) * n * batch); mix(info, sizeof(int) * batch);
        fill(B, (long)n * batch, 0);
        kobalt_dgetrs_desc(KOBALT_NO_TRANS, A, &dA, ip, &dP, B, &dB, batch); mix(B, sizeof(double) * n * batch);
        fill(X, nn * batch, sp); fill(Y, nn * batch, 0); fill(A, nn * batch, 0); fill(B, (long)n * batch, 0);
        kobalt_dgemm_lu_trsv_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, 1.0, X, &dA, Y, &dA, 0.25, A, &dA, ip, &dP, B, &dB, info, batch);
        mix(A, sizeof(double) * nn * batch); mix(ip, sizeof(int) * n * batch); mix(info, sizeof(int) * batch); mix(B, sizeof(double) * n * batch);
        /* float getrf + fused */
        float *As = malloc(sizeof(float) * nn * batch), *Xs = malloc(sizeof(float) * nn * batch), *Ys = malloc(sizeof(float) * nn * batch), *Bs = malloc(sizeof(float) * n * batch);
        fills(As, nn * batch);
        kobalt_sgetrf_strided(L, n, n, As, n, nn, ip, n, info, batch);
        mix(As, sizeof(float) * nn * batch); mix(ip, sizeof(int) * n * batch); mix(info, sizeof(int) * batch);
        fills(Xs, nn * batch); fills(Ys, nn * batch); fills(Bs, n * batch);
        kobalt_sgemm_lu_trsv_strided(L, KOBALT_NO_TRANS, KOBALT_TRANS, n, n, 1, 1.0f, Xs, n, nn, Ys, n, nn, 0.0f, As, n, nn, ip, n, Bs, 1, n, info, batch);
        mix(As, sizeof(float) * nn * batch); mix(ip, sizeof(int) * n * batch); mix(info, sizeof(int) * batch); mix(Bs, sizeof(float) * n * batch);
        fills(As, nn * batch);
        kobalt_sgetrf_desc(As, &dA, ip, &dP, info, batch);
        mix(As, sizeof(float) * nn * batch); mix(ip, sizeof(int) * n * batch); mix(info, sizeof(int) * batch);
        free(A); free(X); free(Y); free(B); free(ip); free(info); free(As); free(Xs); free(Ys); free(Bs);
        printf("n=%d lay=%d sp=%d %016llx\n", n, lay, sp, h);
    }
    return 0;
}
