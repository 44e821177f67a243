/*
 * shortest_paths.c -- all-pairs shortest paths for a batch of small weighted graphs with
 * Kobalt's min-plus gemm, checked against Floyd-Warshall.
 *
 * Each graph i has n nodes and a weight matrix W_i: W_i(u,v) is the length of the edge
 * u -> v, +infinity where there is none, 0 on the diagonal. Over the min-plus semiring
 * (add = min, multiply = +) the matrix "product" D (x) D gives, for every pair, the
 * shortest path that is a path of D followed by a path of D; with 0 on the diagonal,
 * squaring D = W repeatedly, ceil(log2(n-1)) times, gives shortest paths of up to
 * 2^t >= n-1 edges: all of them, since no shortest path needs more (no negative cycles).
 * Every squaring is one call for the whole batch:
 *
 *     kobalt_dgemm_semiring_strided(KOBALT_MIN_PLUS, layout, N, N, n, n, n,
 *                                   0.0,       alpha: the multiply's identity (plain product)
 *                                   D, n, n*n, D, n, n*n,
 *                                   INFINITY,  beta: the add identity, C is not read
 *                                   Dnext, n, n*n, batch);
 *
 * Weights are small integers, so every path length is exact in double and the check
 * against Floyd-Warshall is exact. Prints the median time of the squarings against
 * Floyd-Warshall's on one core.
 *
 *   shortest_paths [-n N] [-b BATCH] [-r REPEATS] [-d DENSITY] [-c]
 *       -n 16  nodes per graph   -b 20000  graphs   -r 3  timed repeats
 *       -d 0.3 edge probability  -c  column-major (default row-major)
 * Exits nonzero when a call fails or a distance differs.
 */
#include <kobalt/kobalt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long rng_state = 0x5eed;
static double uniform01(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int n = 16, reps = 3, col = 0;
    long batch = 20000;
    double density = 0.3;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-b") && i + 1 < argc) batch = atol(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-d") && i + 1 < argc) density = atof(argv[++i]);
        else if (!strcmp(argv[i], "-c")) col = 1;
        else {
            fprintf(stderr, "usage: %s [-n N] [-b BATCH] [-r REPEATS] [-d DENSITY] [-c]\n", argv[0]);
            return 2;
        }
    }
    if (n < 1 || batch < 1 || reps < 1) {
        fprintf(stderr, "n, batch and repeats must be positive\n");
        return 2;
    }
    const kobalt_layout layout = col ? KOBALT_COL_MAJOR : KOBALT_ROW_MAJOR;
    const size_t nn = (size_t)n * (size_t)n, total = nn * (size_t)batch;
    double *W = malloc(total * sizeof *W), *D = malloc(total * sizeof *D), *E = malloc(total * sizeof *E),
           *F = malloc(total * sizeof *F);
    if (!W || !D || !E || !F) {
        fprintf(stderr, "out of memory (%zu bytes per buffer)\n", total * sizeof *W);
        return 1;
    }

    /* Random digraphs: an edge with probability `density`, integer length 1..9. The
     * layout only changes where W(u,v) is stored. */
    for (long g = 0; g < batch; ++g)
        for (int u = 0; u < n; ++u)
            for (int v = 0; v < n; ++v) {
                const double w = u == v ? 0.0 : uniform01() < density ? (double)(1 + (int)(9 * uniform01())) : INFINITY;
                W[(size_t)g * nn + (col ? (size_t)u + (size_t)v * n : (size_t)u * n + v)] = w;
            }
    int squarings = 0;
    while (n > 2 && (1L << squarings) < n - 1) ++squarings;

    /* All pairs by repeated min-plus squaring: D -> E -> D ... */
    double *times = malloc((size_t)reps * sizeof *times);
    double *result = NULL;
    for (int r = 0; r < reps; ++r) {
        memcpy(D, W, total * sizeof *D);
        double *src = D, *dst = E;
        const double t0 = now();
        for (int s = 0; s < squarings; ++s) {
            const kobalt_status st = kobalt_dgemm_semiring_strided(
                KOBALT_MIN_PLUS, layout, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 0.0, src, n, (kobalt_int)nn, src, n,
                (kobalt_int)nn, INFINITY, dst, n, (kobalt_int)nn, batch);
            if (st != KOBALT_SUCCESS) {
                fprintf(stderr, "kobalt_dgemm_semiring_strided: %s: %s\n", kobalt_status_name(st), kobalt_last_error());
                return 1;
            }
            double *t = src;
            src = dst;
            dst = t;
        }
        times[r] = now() - t0;
        result = src;
    }
    qsort(times, (size_t)reps, sizeof *times, cmp_double);

    /* Floyd-Warshall, graph by graph, on one core. */
    memcpy(F, W, total * sizeof *F);
    const double t0 = now();
    for (long g = 0; g < batch; ++g) {
        double *d = F + (size_t)g * nn;
        for (int k = 0; k < n; ++k)
            for (int u = 0; u < n; ++u) {
                const double duk = col ? d[u + (size_t)k * n] : d[(size_t)u * n + k];
                if (duk == INFINITY) continue;
                for (int v = 0; v < n; ++v) {
                    double *duv = col ? &d[u + (size_t)v * n] : &d[(size_t)u * n + v];
                    const double dkv = col ? d[k + (size_t)v * n] : d[(size_t)k * n + v];
                    if (duk + dkv < *duv) *duv = duk + dkv;
                }
            }
    }
    const double t_fw = now() - t0;

    long bad = 0, finite = 0;
    for (size_t e = 0; e < total; ++e) {
        if (result[e] != F[e]) {
            if (bad < 5)
                fprintf(stderr, "graph %zu, entry %zu: min-plus %g, Floyd-Warshall %g\n", e / nn, e % nn, result[e],
                        F[e]);
            ++bad;
        }
        finite += isfinite(F[e]) != 0;
    }
    printf("%ld graphs of %d nodes (%s), edge probability %.2f: %d min-plus squarings\n", batch, n,
           col ? "column-major" : "row-major", density, squarings);
    printf("  reachable pairs: %.1f%%; distances %s Floyd-Warshall (%ld differ)\n", 100.0 * (double)finite / (double)total,
           bad ? "DIFFER from" : "equal", bad);
    printf("  kobalt min-plus squarings: %.3f ms (median of %d); Floyd-Warshall, one core: %.3f ms\n",
           1e3 * times[reps / 2], reps, 1e3 * t_fw);
    free(times);
    free(W);
    free(D);
    free(E);
    free(F);
    return bad ? 1 : 0;
}
