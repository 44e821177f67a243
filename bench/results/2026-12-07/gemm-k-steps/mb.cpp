// mb.cpp -- one thread, double 32 x 32 x 32 gemm (C = A B, column-major, beta 0) per item,
// timed with rdtsc (TSC ticks per item; the TSC runs at 2.1 GHz on the AMD Zen 5 VM, not at
// the core clock), every variant alternated within one process (21 rounds, median and
// quartiles), relative to libxsmm's JIT kernel in the same round set:
//   libxsmm          libxsmm_dmmdispatch(32, ...), prefetch none (kobalt-bench's peer)
//   rep6644 / rep665555  a replica of Kobalt's 4 x 6 block (4 vectors of A, up to 6 columns,
//                    A's vectors as loaded, one broadcast a column) with column blocks
//                    6,6,6,6,4,4 (Kobalt's) or 6,6,5,5,5,5 (libxsmm's); k one step at a time
//   repx uU          the same block, libxsmm's order (4 vectors of A, then per column a broadcast
//                    and 4 FMAs), k in steps of U (B's columns at constant offsets); "6644":
//                    Kobalt's column blocks
//   repy uU brs      repx u4 with B's column pointers and row stride known only at run time
//   kobalt 1/call    kobalt_dgemm_strided on one item a call (no parallel region, no prefetch)
//   kobalt batch     one kobalt_dgemm_strided over all items (OpenMP loop; from memory it
//                    prefetches the next item unless GEMM_PREFETCH_MIN_BYTES says otherwise)
//   kobalt n=2 call  the call overhead alone (a 2 x 2 item)
// Operands: one block, A, B, C a page + OFF bytes apart (so their 4 KiB residues differ),
// shifted by MIS bytes (16: the offset of a glibc mmap chunk, as std::vector gives).
//   g++ -O3 -march=native -fopenmp mb.cpp -I include -L build-host/lib -Wl,-rpath,$PWD/build-host/lib \
//       -lkobalt -lxsmm -lopenblas -lpthread -ldl -o mb
//   MIS=16 OMP_NUM_THREADS=1 KOBALT_PLUGIN_PATH=DIR ./mb ITEMS REPS OFF    (e.g. 32768 1 1024)
#include <immintrin.h>
#include <libxsmm.h>
#include <kobalt/kobalt.h>
#include <x86intrin.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <functional>
#include <cmath>
constexpr int N = 32;
typedef void (*Fn)(const double *, const double *, double *);

template <int JB>
__attribute__((always_inline)) inline void block(const double *a, const double *b, int ldb, double *c, int k) {
    __m512d acc[JB][4];
    for (int j = 0; j < JB; ++j) for (int v = 0; v < 4; ++v) acc[j][v] = _mm512_setzero_pd();
    const double *bp[JB];
    for (int j = 0; j < JB; ++j) bp[j] = b + j * ldb;
    for (int p = 0; p < k; ++p) {
        const double *ap = a + p * N;
        __m512d av[4];
        for (int v = 0; v < 4; ++v) av[v] = _mm512_loadu_pd(ap + 8 * v);
        for (int j = 0; j < JB; ++j) {
            __m512d bb = _mm512_set1_pd(bp[j][p]);
            for (int v = 0; v < 4; ++v) acc[j][v] = _mm512_fmadd_pd(av[v], bb, acc[j][v]);
        }
    }
    for (int j = 0; j < JB; ++j) for (int v = 0; v < 4; ++v) _mm512_storeu_pd(c + j * N + 8 * v, acc[j][v]);
}
template <int JB, int U>
__attribute__((always_inline)) inline void blockx(const double *a, const double *b, int ldb, double *c, int k) {
    __m512d acc[JB][4];
    for (int j = 0; j < JB; ++j) for (int v = 0; v < 4; ++v) acc[j][v] = _mm512_setzero_pd();
    for (int p = 0; p < k; p += U) {
#pragma GCC unroll 8
        for (int u = 0; u < U; ++u) {
            const double *ap = a + (p + u) * N;
            __m512d av0 = _mm512_loadu_pd(ap), av1 = _mm512_loadu_pd(ap + 8), av2 = _mm512_loadu_pd(ap + 16), av3 = _mm512_loadu_pd(ap + 24);
            asm volatile("" : "+v"(av0), "+v"(av1), "+v"(av2), "+v"(av3));
#pragma GCC unroll 8
            for (int j = 0; j < JB; ++j) {
                __m512d bb = _mm512_set1_pd(b[j * ldb + p + u]);
                acc[j][0] = _mm512_fmadd_pd(av0, bb, acc[j][0]);
                acc[j][1] = _mm512_fmadd_pd(av1, bb, acc[j][1]);
                acc[j][2] = _mm512_fmadd_pd(av2, bb, acc[j][2]);
                acc[j][3] = _mm512_fmadd_pd(av3, bb, acc[j][3]);
            }
        }
    }
    for (int j = 0; j < JB; ++j) for (int v = 0; v < 4; ++v) _mm512_storeu_pd(c + j * N + 8 * v, acc[j][v]);
}
template <int JB, int U, bool Barrier>
__attribute__((always_inline)) inline void blocky(const double *a, const double *b, int ldb, double *c, int k, long brs) {
    __m512d acc[JB][4];
    for (int j = 0; j < JB; ++j) for (int v = 0; v < 4; ++v) acc[j][v] = _mm512_setzero_pd();
    const double *bp[JB];
    for (int j = 0; j < JB; ++j) bp[j] = b + j * ldb;
    auto step = [&](int p) __attribute__((always_inline)) {
            const double *ap = a + p * N;
            __m512d av[4];
            for (int v = 0; v < 4; ++v) { av[v] = _mm512_loadu_pd(ap + 8 * v); asm("" : "+v"(av[v])); }
#pragma GCC unroll 8
            for (int j = 0; j < JB; ++j) {
                __m512d bb = _mm512_set1_pd(bp[j][p * brs]);
                for (int v = 0; v < 4; ++v) acc[j][v] = _mm512_fmadd_pd(av[v], bb, acc[j][v]);
            }
            if (Barrier) asm volatile("" ::: "memory");
    };
    int p = 0;
    for (; p + U <= k; p += U)
#pragma GCC unroll 8
        for (int u = 0; u < U; ++u) step(p + u);
    for (; p < k; ++p) step(p);
    for (int j = 0; j < JB; ++j) for (int v = 0; v < 4; ++v) _mm512_storeu_pd(c + j * N + 8 * v, acc[j][v]);
}
template <int U, bool Barrier>
__attribute__((noinline,noclone,noipa)) void repy(const double *a, const double *b, double *c, int k, long brs) {
    blocky<6, U, Barrier>(a, b, N, c, k, brs); blocky<6, U, Barrier>(a, b + 6 * N, N, c + 6 * N, k, brs);
    blocky<6, U, Barrier>(a, b + 12 * N, N, c + 12 * N, k, brs); blocky<6, U, Barrier>(a, b + 18 * N, N, c + 18 * N, k, brs);
    blocky<4, U, Barrier>(a, b + 24 * N, N, c + 24 * N, k, brs); blocky<4, U, Barrier>(a, b + 28 * N, N, c + 28 * N, k, brs);
}
template <int U>
__attribute__((noinline,noclone,noipa)) void repx6644(const double *a, const double *b, double *c, int k) {
    blockx<6, U>(a, b, N, c, k); blockx<6, U>(a, b + 6 * N, N, c + 6 * N, k);
    blockx<6, U>(a, b + 12 * N, N, c + 12 * N, k); blockx<6, U>(a, b + 18 * N, N, c + 18 * N, k);
    blockx<4, U>(a, b + 24 * N, N, c + 24 * N, k); blockx<4, U>(a, b + 28 * N, N, c + 28 * N, k);
}
template <int U>
__attribute__((noinline,noclone,noipa)) void repx(const double *a, const double *b, double *c, int k) {
    blockx<6, U>(a, b, N, c, k); blockx<6, U>(a, b + 6 * N, N, c + 6 * N, k);
    blockx<5, U>(a, b + 12 * N, N, c + 12 * N, k); blockx<5, U>(a, b + 17 * N, N, c + 17 * N, k);
    blockx<5, U>(a, b + 22 * N, N, c + 22 * N, k); blockx<5, U>(a, b + 27 * N, N, c + 27 * N, k);
}
__attribute__((noinline,noclone,noipa)) void rep6644(const double *a, const double *b, double *c, int k) {
    block<6>(a, b, N, c, k); block<6>(a, b + 6 * N, N, c + 6 * N, k);
    block<6>(a, b + 12 * N, N, c + 12 * N, k); block<6>(a, b + 18 * N, N, c + 18 * N, k);
    block<4>(a, b + 24 * N, N, c + 24 * N, k); block<4>(a, b + 28 * N, N, c + 28 * N, k);
}
__attribute__((noinline,noclone,noipa)) void rep665555(const double *a, const double *b, double *c, int k) {
    block<6>(a, b, N, c, k); block<6>(a, b + 6 * N, N, c + 6 * N, k);
    block<5>(a, b + 12 * N, N, c + 12 * N, k); block<5>(a, b + 17 * N, N, c + 17 * N, k);
    block<5>(a, b + 22 * N, N, c + 22 * N, k); block<5>(a, b + 27 * N, N, c + 27 * N, k);
}

int main(int argc, char **argv) {
    const int items = argc > 1 ? atoi(argv[1]) : 1;
    const int reps = argc > 2 ? atoi(argv[2]) : 2000;
    const size_t s = N * N;
    const long off = argc > 3 ? atol(argv[3]) : 0; // bytes between the operands' 4 KiB residues
    char *blk = (char *)aligned_alloc(4096, 4 * (s * items * 8 + 8192));
    const long mis = getenv("MIS") ? atol(getenv("MIS")) : 0; blk += mis;
    double *A = (double *)blk, *B = (double *)(blk + s * items * 8 + 4096 + off),
           *C = (double *)(blk + 2 * (s * items * 8 + 4096) + 2 * off), *R = (double *)aligned_alloc(64, s * items * 8);
    printf("A %% 4096 = %ld, B %ld, C %ld\n", (long)A % 4096, (long)B % 4096, (long)C % 4096);
    srand(1);
    for (size_t i = 0; i < s * items; ++i) A[i] = rand() / (double)RAND_MAX - .5, B[i] = rand() / (double)RAND_MAX - .5;
    libxsmm_init();
    const libxsmm_blasint n = N; const double one = 1, zero = 0; const int flags = 0;
    Fn xs = (Fn)libxsmm_dmmdispatch(n, n, n, &n, &n, &n, &one, &zero, &flags, nullptr);
    std::vector<std::pair<std::string, std::function<void(int)>>> vs;
    auto add = [&](const char *name, auto f) {
        vs.push_back({name, [=](int it) { for (int i = 0; i < it; ++i) f(A + i * s, B + i * s, C + i * s); }});
    };
    volatile int kv = N;
    add("libxsmm", [=](const double *a, const double *b, double *c) { xs(a, b, c); });
    add("rep6644 rtk", [=](const double *a, const double *b, double *c) { rep6644(a, b, c, kv); });
    add("rep665555 rtk", [=](const double *a, const double *b, double *c) { rep665555(a, b, c, kv); });
    add("repx u1", [=](const double *a, const double *b, double *c) { repx<1>(a, b, c, kv); });
    volatile long bv = 1;
    add("repy u4 brs", [=](const double *a, const double *b, double *c) { repy<4, false>(a, b, c, kv, bv); });
    add("repy u1 brs", [=](const double *a, const double *b, double *c) { repy<1, false>(a, b, c, kv, bv); });
    add("repx u4 6644", [=](const double *a, const double *b, double *c) { repx6644<4>(a, b, c, kv); });
    add("repx u2", [=](const double *a, const double *b, double *c) { repx<2>(a, b, c, kv); });
    add("repx u8", [=](const double *a, const double *b, double *c) { repx<8>(a, b, c, kv); });
    add("repx u4", [=](const double *a, const double *b, double *c) { repx<4>(a, b, c, kv); });
    add("kobalt 1/call", [=](const double *a, const double *b, double *c) {
        kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, N, N, N, 1.0, a, N, s, b, N, s, 0.0, c, N, s, 1); });
    vs.push_back({"kobalt batch", [=](int it) {
        kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, N, N, N, 1.0, A, N, s, B, N, s, 0.0, C, N, s, it); }});
    vs.push_back({"kobalt n=2 call", [=](int it) {
        for (int i = 0; i < it; ++i) kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 1.0, A, 2, 4, B, 2, 4, 0.0, C, 2, 4, 1); }});
    std::vector<std::vector<double>> t(vs.size());
    for (int r = 0; r < 21; ++r)
        for (size_t v = 0; v < vs.size(); ++v) {
            unsigned long long t0 = __rdtsc();
            for (int q = 0; q < reps; ++q) vs[v].second(items);
            t[v].push_back(double(__rdtsc() - t0) / reps / items);
        }
    for (size_t v = 0; v < vs.size(); ++v) {
        std::sort(t[v].begin(), t[v].end());
        printf("%-16s items %5d  tsc/item min %7.0f q1 %7.0f med %7.0f q3 %7.0f   med/libxsmm %.3f\n", vs[v].first.c_str(), items, t[v][0], t[v][5], t[v][10], t[v][15], t[v][10] / t[0][10]);
    }
    return 0;
}
