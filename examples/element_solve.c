/*
 * element_solve.c -- Kobalt's demo: many small element matrices, built, factored and
 * solved, once with the fused call and once with the three-call sequence.
 *
 * For every element i of a batch (the workload of the Kokkos Kernels batched-BLAS
 * documentation: small element matrices made by gemm, then LU and triangular solves):
 *
 *     A_i = alpha X_i Y_i + beta A0      X_i n x k, Y_i k x n, A0 = shift * I
 *     A_i = P_i L_i U_i                  LU with partial pivoting
 *     b_i = A_i^{-1} b_i                 nrhs load vectors, overwritten by the solution
 *
 * alpha = 1/k, beta = 1 and shift = n keep every A_i strictly diagonally dominant,
 * hence nonsingular and well conditioned.
 *
 *   fused:    kobalt_dgemm_lu_trsv_strided   one sweep over the batch
 *   sequence: kobalt_dgemm_strided, kobalt_dgetrf_strided, kobalt_dgetrs_strided
 *             three sweeps: each one streams the whole batch through the caches again
 *
 * Both run on identical inputs; the program checks that their solutions agree and that
 * sampled solutions have small residuals, then prints the median time of each and
 * their ratio. It exits nonzero when a call fails or the results disagree.
 *
 * Usage: element_solve [-n N] [-k K] [-b BATCH] [-r REPEATS] [-s NRHS] [-c]
 */
#define _POSIX_C_SOURCE 200809L

#include <kobalt/kobalt.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    kobalt_int n, k, batch, repeats, nrhs;
    kobalt_layout layout;
} options;

typedef struct {
    double *X, *Y, *A, *B, *Bfused;
    int *ipiv, *info;
    kobalt_int ldx, ldy, lda, ldb;
    kobalt_int strideX, strideY, strideA, strideB;
    double alpha, beta, shift;
} problem;

static void usage(FILE *out, const char *argv0)
{
    fprintf(out,
            "usage: %s [-n N] [-k K] [-b BATCH] [-r REPEATS] [-s NRHS] [-c]\n"
            "  -n N        order of each element matrix A_i (default 8)\n"
            "  -k K        inner dimension of A_i = X_i Y_i (default N)\n"
            "  -b BATCH    number of elements (default 200000)\n"
            "  -r REPEATS  timed repeats; the median is reported (default 5)\n"
            "  -s NRHS     right-hand sides per element (default 1)\n"
            "  -c          column-major storage (default row-major)\n",
            argv0);
}

static int parse_int(const char *s, kobalt_int min, kobalt_int *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < min) return -1;
    *out = (kobalt_int)v;
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, kobalt_int count)
{
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

/* A reproducible value in (-1, 1) for index i (splitmix64). */
static double noise(uint64_t i)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0;
}

/* Size of the largest data cache of CPU 0 from sysfs (glibc's sysconf misreports it on
 * some virtual machines), or 0 when unknown. */
static double last_level_cache_bytes(void)
{
    double best = 0.0;
    int best_level = 0;
    for (int i = 0; i < 16; ++i) {
        char path[96], type[32] = "", size[32] = "";
        int level = 0;
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!(f = fopen(path, "r"))) break;
        if (fscanf(f, "%31s", type) != 1) type[0] = '\0';
        fclose(f);
        if (strcmp(type, "Instruction") == 0) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%d", &level) != 1) level = 0;
            fclose(f);
        }
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%31s", size) != 1) size[0] = '\0';
            fclose(f);
        }
        char *end;
        double bytes = strtod(size, &end);
        if (*end == 'K') bytes *= 1024.0;
        else if (*end == 'M') bytes *= 1048576.0;
        if (level > best_level && bytes > 0) {
            best_level = level;
            best = bytes;
        }
    }
    return best;
}

static void *xalloc(size_t count, size_t size)
{
    void *p = NULL;
    size_t bytes = count * size;
    if (bytes == 0) bytes = 64;
    if (posix_memalign(&p, 64, (bytes + 63) / 64 * 64) != 0) {
        fprintf(stderr, "element_solve: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* Element (r, c) of a matrix stored with leading dimension ld in the given layout. */
static size_t at(kobalt_layout layout, kobalt_int ld, kobalt_int r, kobalt_int c)
{
    return layout == KOBALT_COL_MAJOR ? (size_t)(r + c * ld) : (size_t)(r * ld + c);
}

/* A_i = A0 = shift * I, b_i = the load vectors: the inputs every run starts from. */
static void reset(const options *o, problem *p)
{
    const kobalt_int n = o->n;
    memset(p->A, 0, (size_t)(o->batch * p->strideA) * sizeof(double));
    for (kobalt_int i = 0; i < o->batch; ++i) {
        double *A = p->A + i * p->strideA;
        for (kobalt_int j = 0; j < n; ++j) A[j * (n + 1)] = p->shift;
    }
    const size_t nb = (size_t)(o->batch * p->strideB);
    for (size_t e = 0; e < nb; ++e) p->B[e] = noise(3 * (uint64_t)e + 2);
}

static int failed(const char *call, kobalt_status st)
{
    if (st == KOBALT_SUCCESS) return 0;
    fprintf(stderr, "element_solve: %s returned %s: %s\n", call, kobalt_status_name(st),
            kobalt_last_error());
    return 1;
}

static int check_info(const char *what, const options *o, const int *info)
{
    for (kobalt_int i = 0; i < o->batch; ++i)
        if (info[i] != 0) {
            fprintf(stderr, "element_solve: %s: info[%lld] = %d (singular element matrix)\n",
                    what, (long long)i, info[i]);
            return 1;
        }
    return 0;
}

static kobalt_status run_fused(const options *o, problem *p)
{
    return kobalt_dgemm_lu_trsv_strided(o->layout, KOBALT_NO_TRANS, KOBALT_NO_TRANS, o->n, o->k,
                                        o->nrhs, p->alpha, p->X, p->ldx, p->strideX, p->Y, p->ldy,
                                        p->strideY, p->beta, p->A, p->lda, p->strideA, p->ipiv,
                                        o->n, p->B, p->ldb, p->strideB, p->info, o->batch);
}

/* The three-call sequence; t[0..2] receive the time of each call. */
static int run_sequence(const options *o, problem *p, double t[3])
{
    double t0 = now();
    if (failed("kobalt_dgemm_strided",
               kobalt_dgemm_strided(o->layout, KOBALT_NO_TRANS, KOBALT_NO_TRANS, o->n, o->n, o->k,
                                    p->alpha, p->X, p->ldx, p->strideX, p->Y, p->ldy, p->strideY,
                                    p->beta, p->A, p->lda, p->strideA, o->batch)))
        return 1;
    double t1 = now();
    if (failed("kobalt_dgetrf_strided",
               kobalt_dgetrf_strided(o->layout, o->n, o->n, p->A, p->lda, p->strideA, p->ipiv,
                                     o->n, p->info, o->batch)))
        return 1;
    double t2 = now();
    /* getrs has no info: a singular factor would divide by zero. The demo's matrices are
     * nonsingular by construction; check_info() below confirms it. */
    if (failed("kobalt_dgetrs_strided",
               kobalt_dgetrs_strided(o->layout, KOBALT_NO_TRANS, o->n, o->nrhs, p->A, p->lda,
                                     p->strideA, p->ipiv, o->n, p->B, p->ldb, p->strideB,
                                     o->batch)))
        return 1;
    double t3 = now();
    t[0] = t1 - t0;
    t[1] = t2 - t1;
    t[2] = t3 - t2;
    return 0;
}

/* max over items of ||x_fused - x_seq||_inf / ||x_seq||_inf */
static double scaled_difference(const options *o, const problem *p)
{
    double worst = 0.0;
    for (kobalt_int i = 0; i < o->batch; ++i) {
        const double *a = p->Bfused + i * p->strideB, *b = p->B + i * p->strideB;
        double diff = 0.0, norm = 0.0;
        for (kobalt_int e = 0; e < p->strideB; ++e) {
            diff = fmax(diff, fabs(a[e] - b[e]));
            norm = fmax(norm, fabs(b[e]));
        }
        double d = diff / (norm > 0.0 ? norm : 1.0);
        if (!(d <= worst)) worst = d; /* also catches NaN */
    }
    return worst;
}

/* Independent check of sampled items: rebuild A_i from X_i, Y_i and measure
 * ||A_i x - b||_inf / ((||A_i||_inf ||x||_inf + ||b||_inf) n eps). */
static double sampled_residual(const options *o, const problem *p)
{
    const kobalt_int n = o->n, k = o->k;
    const kobalt_int step = o->batch > 1000 ? o->batch / 1000 : 1;
    double *A = xalloc((size_t)(n * n), sizeof(double));
    double worst = 0.0;
    for (kobalt_int i = 0; i < o->batch; i += step) {
        const double *X = p->X + i * p->strideX, *Y = p->Y + i * p->strideY;
        const double *x = p->Bfused + i * p->strideB;
        double anorm = 0.0;
        for (kobalt_int r = 0; r < n; ++r) {
            double rowsum = 0.0;
            for (kobalt_int c = 0; c < n; ++c) {
                double s = 0.0;
                for (kobalt_int l = 0; l < k; ++l)
                    s += X[at(o->layout, p->ldx, r, l)] * Y[at(o->layout, p->ldy, l, c)];
                A[r * n + c] = p->alpha * s + p->beta * (r == c ? p->shift : 0.0);
                rowsum += fabs(A[r * n + c]);
            }
            anorm = fmax(anorm, rowsum);
        }
        for (kobalt_int j = 0; j < o->nrhs; ++j) {
            double rnorm = 0.0, xnorm = 0.0, bnorm = 0.0;
            for (kobalt_int r = 0; r < n; ++r) {
                const size_t be = (size_t)(i * p->strideB) + at(o->layout, p->ldb, r, j);
                const double b = noise(3 * (uint64_t)be + 2);
                double s = 0.0;
                for (kobalt_int c = 0; c < n; ++c) s += A[r * n + c] * x[at(o->layout, p->ldb, c, j)];
                rnorm = fmax(rnorm, fabs(s - b));
                xnorm = fmax(xnorm, fabs(x[at(o->layout, p->ldb, r, j)]));
                bnorm = fmax(bnorm, fabs(b));
            }
            double res = rnorm / ((anorm * xnorm + bnorm) * (double)n * DBL_EPSILON);
            if (!(res <= worst)) worst = res;
        }
    }
    free(A);
    return worst;
}

int main(int argc, char **argv)
{
    options o = {8, -1, 200000, 5, 1, KOBALT_ROW_MAJOR};
    int opt;
    while ((opt = getopt(argc, argv, "n:k:b:r:s:ch")) != -1) {
        int bad = 0;
        switch (opt) {
        case 'n': bad = parse_int(optarg, 1, &o.n); break;
        case 'k': bad = parse_int(optarg, 1, &o.k); break;
        case 'b': bad = parse_int(optarg, 1, &o.batch); break;
        case 'r': bad = parse_int(optarg, 1, &o.repeats); break;
        case 's': bad = parse_int(optarg, 1, &o.nrhs); break;
        case 'c': o.layout = KOBALT_COL_MAJOR; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
        if (bad) {
            fprintf(stderr, "element_solve: -%c needs a positive integer, got '%s'\n", opt, optarg);
            return 2;
        }
    }
    if (optind != argc) {
        usage(stderr, argv[0]);
        return 2;
    }
    if (o.k < 0) o.k = o.n;
    const int col = o.layout == KOBALT_COL_MAJOR;

    problem p;
    p.alpha = 1.0 / (double)o.k;
    p.beta = 1.0;
    p.shift = (double)o.n;
    p.ldx = col ? o.n : o.k;   /* X_i: n x k */
    p.ldy = col ? o.k : o.n;   /* Y_i: k x n */
    p.lda = o.n;               /* A_i: n x n */
    p.ldb = col ? o.n : o.nrhs; /* B_i: n x nrhs */
    p.strideX = o.n * o.k;
    p.strideY = o.k * o.n;
    p.strideA = o.n * o.n;
    p.strideB = o.n * o.nrhs;

    const size_t nx = (size_t)(o.batch * p.strideX), ny = (size_t)(o.batch * p.strideY);
    const size_t na = (size_t)(o.batch * p.strideA), nb = (size_t)(o.batch * p.strideB);
    p.X = xalloc(nx, sizeof(double));
    p.Y = xalloc(ny, sizeof(double));
    p.A = xalloc(na, sizeof(double));
    p.B = xalloc(nb, sizeof(double));
    p.Bfused = xalloc(nb, sizeof(double));
    p.ipiv = xalloc((size_t)(o.batch * o.n), sizeof(int));
    p.info = xalloc((size_t)o.batch, sizeof(int));
    for (size_t e = 0; e < nx; ++e) p.X[e] = noise(3 * (uint64_t)e);
    for (size_t e = 0; e < ny; ++e) p.Y[e] = noise(3 * (uint64_t)e + 1);

    /* Bytes one pass over the batch touches: X, Y, A, B, pivots and info. */
    const double bytes = (double)(nx + ny + na + nb) * sizeof(double) +
                         (double)(o.batch * (o.n + 1)) * sizeof(int);
    printf("Kobalt %s, backends:", kobalt_version());
    const int nbackends = kobalt_backend_count();
    for (int i = 0; i < nbackends; ++i) printf(" %s", kobalt_backend_name(i));
    printf("%s\n", nbackends ? "" : " none");
    printf("batch %lld of n=%lld element matrices (k=%lld, nrhs=%lld, %s), %.0f MiB of data",
           (long long)o.batch, (long long)o.n, (long long)o.k, (long long)o.nrhs,
           col ? "column-major" : "row-major", bytes / 1048576.0);
    const double llc = last_level_cache_bytes();
    if (llc > 0) printf(" (%.1fx the %.0f MiB last-level cache)", bytes / llc, llc / 1048576.0);
    printf("\n");

    /* Untimed first runs: load the backends, fault the pages in, check the results. */
    reset(&o, &p);
    if (failed("kobalt_dgemm_lu_trsv_strided", run_fused(&o, &p))) return 1;
    if (check_info("fused", &o, p.info)) return 1;
    memcpy(p.Bfused, p.B, nb * sizeof(double));
    double tseq[3];
    reset(&o, &p);
    if (run_sequence(&o, &p, tseq)) return 1;
    if (check_info("sequence", &o, p.info)) return 1;

    const double tol = 1000.0 * (double)o.n * DBL_EPSILON;
    const double diff = scaled_difference(&o, &p);
    const double resid = sampled_residual(&o, &p);
    printf("fused vs sequence: max scaled difference %.2e (tolerance %.1e)\n", diff, tol);
    printf("fused residual (sampled items): max %.2f  (||Ax-b|| / ((||A|| ||x|| + ||b||) n eps))\n",
           resid);
    int status = 0;
    if (!(diff <= tol)) {
        fprintf(stderr, "element_solve: FAILED: the fused and the three-call results disagree\n");
        status = 1;
    }
    if (!(resid <= 100.0)) {
        fprintf(stderr, "element_solve: FAILED: the fused solution has a large residual\n");
        status = 1;
    }
    if (status) return status;

    double *tf = xalloc((size_t)o.repeats, sizeof(double));
    double *ts = xalloc((size_t)(4 * o.repeats), sizeof(double));
    double *tg = ts + o.repeats, *tl = tg + o.repeats, *tr = tl + o.repeats;
    for (kobalt_int r = 0; r < o.repeats; ++r) {
        reset(&o, &p);
        double t0 = now();
        kobalt_status st = run_fused(&o, &p);
        tf[r] = now() - t0;
        if (failed("kobalt_dgemm_lu_trsv_strided", st)) return 1;
        reset(&o, &p);
        if (run_sequence(&o, &p, tseq)) return 1;
        tg[r] = tseq[0];
        tl[r] = tseq[1];
        tr[r] = tseq[2];
        ts[r] = tseq[0] + tseq[1] + tseq[2];
    }
    const double mf = median(tf, o.repeats), ms = median(ts, o.repeats);
    printf("median of %lld repeats:\n", (long long)o.repeats);
    printf("  fused    kobalt_dgemm_lu_trsv_strided       %9.3f ms\n", 1e3 * mf);
    printf("  sequence dgemm + dgetrf + dgetrs            %9.3f ms  (%.3f + %.3f + %.3f)\n",
           1e3 * ms, 1e3 * median(tg, o.repeats), 1e3 * median(tl, o.repeats),
           1e3 * median(tr, o.repeats));
    printf("  sequence / fused                            %9.2fx\n", ms / mf);

    free(tf);
    free(ts);
    free(p.X);
    free(p.Y);
    free(p.A);
    free(p.B);
    free(p.Bfused);
    free(p.ipiv);
    free(p.info);
    return 0;
}
