// standalone timing of the packed column-at-a-time LU (lu_block) on one block in L1
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include "../../../work/main/backends/openmp/pack_ops.hpp"
namespace il = kobalt_interleaved;
#ifndef LUN
#define LUN 8
#endif
#include VARIANT_FILE
int main(int argc, char **argv) {
    using T = double;
    constexpr int W = 8, N = LUN;
    using O = PackOps<T, W>;
    const int blocks = argc > 1 ? atoi(argv[1]) : 16;
    const long reps = argc > 2 ? atol(argv[2]) : 200000;
    std::mt19937_64 g(1);
    std::uniform_real_distribution<T> d(-1, 1);
    alignas(64) static T src[64][N * N * W], blk[64][N * N * W];
    for (int b = 0; b < blocks; ++b) for (auto &x : src[b]) x = d(g);
    double best = 1e30; long sum = 0;
    for (int t = 0; t < 5; ++t) {
        auto t0 = std::chrono::steady_clock::now();
        for (long r = 0; r < reps; ++r) {
            int b = r % blocks;
            std::memcpy(blk[b], src[b], sizeof blk[b]);
            typename O::I pv[N], inf;
            VARIANT<O, N>(blk[b], true, pv, inf);
            sum += pv[N-2][0] + inf[0];
        }
        double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / reps / W;
        if (ns < best) best = ns;
    }
    // checksum of factors
    double cs = 0; for (int b = 0; b < blocks; ++b) for (auto x : blk[b]) cs += x;
    printf("%s N=%d: %.2f ns/item (best of 5) cs=%.6g %ld\n", VNAME, N, best, cs, sum);
}
