// kb.cpp -- TSC ticks per item of one dgemm call over ITEMS column-major N x N items (beta 0),
// median of 15 runs of REPS calls, from the top level (no parallel region of the caller):
//   g++ -O2 kb.cpp -I include -L build-host/lib -Wl,-rpath,$PWD/build-host/lib -lkobalt -o kb
//   OMP_NUM_THREADS=1 ./kb ITEMS REPS N
#include <kobalt/kobalt.h>
#include <x86intrin.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
int main(int argc, char **argv) {
    const int N = argc > 3 ? atoi(argv[3]) : 32, items = atoi(argv[1]), reps = atoi(argv[2]);
    const size_t s = N * N;
    double *A = (double *)aligned_alloc(64, s * items * 8), *B = (double *)aligned_alloc(64, s * items * 8),
           *C = (double *)aligned_alloc(64, s * items * 8);
    for (size_t i = 0; i < s * items; ++i) A[i] = rand() / (double)RAND_MAX - .5, B[i] = rand() / (double)RAND_MAX - .5, C[i] = 0;
    std::vector<double> t;
    for (int r = 0; r < 15; ++r) {
        unsigned long long t0 = __rdtsc();
        for (int q = 0; q < reps; ++q)
            kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, N, N, N, 1.0, A, N, s, B, N, s, 0.0, C, N, s, items);
        t.push_back(double(__rdtsc() - t0) / reps / items);
    }
    std::sort(t.begin(), t.end());
    printf("kobalt-batch items %d tsc/item min %.0f med %.0f max %.0f\n", items, t[0], t[7], t[14]);
}
