// Per-call cost of Kobalt's parallel region when it runs one thread: a batch call of ITEMS
// items of n x n from each thread of the caller's own parallel region (nested: one thread
// inside), against the same items called one at a time (no region).
#include <kobalt/kobalt.h>
#include <omp.h>
#include <x86intrin.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char **argv) {
    const int n = atoi(argv[1]), items = atoi(argv[2]), reps = atoi(argv[3]);
    const long s = long(n) * n;
    const int T = omp_get_max_threads();
    std::vector<double> A(s * items * T, 0.5), B(s * items * T, 0.25), C(s * items * T);
    std::vector<double> tb, t1;
    for (int r = 0; r < 11; ++r) {
        unsigned long long t0 = __rdtsc();
#pragma omp parallel
        {
            const long o = s * items * omp_get_thread_num();
            for (int q = 0; q < reps; ++q)
                kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1.0, &A[o], n, s, &B[o], n, s, 0.0, &C[o], n, s, items);
        }
        tb.push_back(double(__rdtsc() - t0) / reps);
        t0 = __rdtsc();
#pragma omp parallel
        {
            const long o = s * items * omp_get_thread_num();
            for (int q = 0; q < reps; ++q)
                for (int i = 0; i < items; ++i)
                    kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1.0, &A[o + i * s], n, s, &B[o + i * s], n, s, 0.0, &C[o + i * s], n, s, 1);
        }
        t1.push_back(double(__rdtsc() - t0) / reps);
    }
    std::sort(tb.begin(), tb.end()); std::sort(t1.begin(), t1.end());
    printf("n %d items %d threads %d: batch call %.0f ticks, one item a call %.0f ticks (median)\n", n, items, T, tb[5], t1[5]);
}
