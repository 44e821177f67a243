// getrs_rows.cuh -- double getrs, column-major, NoTrans, one right-hand side, n <= 32
// (from GETRS_PREFETCH_MIN, 8 by default: docs/cuda.md): W lanes per item, lane i holding row
// i of A in registers (its first NC columns: n rounded up to 4 from n = 9), each group's NEXT
// item copied global -> shared memory by cp.async while the current one is solved. Included
// by routines.cu.
//
// Why: the group kernel (groups.cu getrs_group) loads an item into registers, then solves
// it, then loads the next: a warp's loads are never in flight while it solves, and its
// permutation is a loop of two dependent shuffles per row (H200: n = 16 53%, n = 32 37% of
// the copy bandwidth; this kernel 80% and 72%, n = 7 and 8 ahead of the one-thread pipe
// kernel too: docs/performance.md). Here, as in getrf's lu_full.cuh:
//  - a lane copies, and later reads, only its own row of A (cells c * W + lane), so A needs
//    one buffer and no barrier: the lane reads its row into registers, then issues the
//    next item's copy into the same cells. b and the pivots are read by every lane of the
//    group, so they take two buffers (the next item's copy goes to the other one).
//  - the row interchanges are no chain of shuffles: lane j walks the pivots backwards
//    (broadcast reads from shared memory, integer compares only) to the original row whose
//    b ends at position j after the interchanges, and reads that b from shared memory.
//  - the solves are the group kernel's (one shuffle and one FMA a step); the division by
//    U_jj is the pipe kernel's (getrs_pipe.cuh): x_j times 1 / U_jj, computed by lane j off
//    the chain, where that reciprocal is a normal number (2^-1022 <= |U_jj| <= 2^1022),
//    a true division otherwise (zero, subnormal, huge, infinite, NaN diagonals).
// Semantics are the pipe kernel's: interchanges k <-> ipiv[k] - 1 in order (an entry outside
// 1..n skipped), x_i -= L_ij x_j by ascending j, then x_j /= U_jj and x_i -= U_ij x_j by
// descending j.
#ifndef KOBALT_CUDA_GETRS_ROWS_CUH
#define KOBALT_CUDA_GETRS_ROWS_CUH

#include <cuda_pipeline.h>

#include <algorithm>
#include <type_traits>

#include "common.cuh"
#include "getrs_pipe.cuh" // pieces16

namespace kobalt_cuda {
namespace {

namespace rows {
constexpr int kThreads = 128;
// Blocks per SM the register cap aims at, by the group width W and the columns NC a lane
// holds (ptxas, sm_90, double; the cap where the 16-byte kernel does not spill): NC = 32 5
// blocks (96 registers, 35 KiB of shared memory a block; 6 blocks: 80 registers and 44-68
// bytes of spills), 28 5 (94-96; 6 spills 24-40 bytes), 24 6 (80, 27 KiB), 20 7 (72, 23
// KiB; 8 spills 24-40 bytes); W = 16 (NC = 12 or 16) and narrower groups 8 (64 registers; 10
// spill). On an H200 (n = 24, NC = 24): 6 blocks 0.113 ms, 7 0.121, 8 0.141 (session 25).
constexpr int blocks(int W, int NC) {
    return W < 32 ? 8 : NC <= 20 ? 7 : NC <= 24 ? 6 : 5;
}
} // namespace rows

// V = 2: A copied in 16-byte pieces (rows 2k, 2k+1 of a column; the launcher checked n, lda,
// the stride even and the base aligned), lane l of the group taking piece l % (W / 2) of
// column c0 + l / (W / 2): W / 2 copies an item instead of n. A lane then copies cells of
// other lanes' rows, so a __syncwarp separates the reads of A from the next copy.
template <int W, int V, int NC, class AA, class BA>
__global__ void __launch_bounds__(rows::kThreads, rows::blocks(W, NC))
    getrs_rows(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch) {
    constexpr int G = rows::kThreads / W; // items per block
    static_assert(NC <= W && NC % 4 == 0, "NC columns (a multiple of 4) of a W-lane group");
    __shared__ __align__(16) double sa[G][NC * W];
    __shared__ __align__(16) double sb[2][G][W];
    __shared__ __align__(16) int spv[2][G][W];
    const int g = int(threadIdx.x) / W, lane = int(threadIdx.x) % W;
    const bool pivoting = ipiv != nullptr;
    double *const mine = sa[g];
    const idx stride = idx(gridDim.x) * G;
    // this lane's row of item's A, its b and its pivot; lanes at and past n copy nothing
    // (their cells are read but never feed a stored result)
    const auto issue = [&](idx item, int s) {
        if (item < batch && V == 2) {
            constexpr int H = W / 2;
            const int r = 2 * (lane % H), c1 = lane / H;
            const double *const src = A(item) + r + c1 * lda;
#pragma unroll
            for (int c0 = 0; c0 < NC; c0 += 2)
                if (r < n && c0 + c1 < n) __pipeline_memcpy_async(mine + (c0 + c1) * W + r, src + c0 * lda, 16);
        }
        if (item < batch && lane < n) {
            if (V == 1) {
                const double *const src = A(item) + lane;
#pragma unroll
                for (int c = 0; c < NC; ++c)
                    if (c < n) __pipeline_memcpy_async(mine + c * W + lane, src + c * lda, sizeof(double));
            }
            __pipeline_memcpy_async(&sb[s][g][lane], B(item) + lane, sizeof(double));
            if (pivoting) __pipeline_memcpy_async(&spv[s][g][lane], ipiv + item * sp + lane, sizeof(int));
        }
        __pipeline_commit();
    };
    int s = 0;
    issue(idx(blockIdx.x) * G + g, s);
    // every lane of a block runs the same number of iterations (the __syncwarp below)
    for (idx base = idx(blockIdx.x) * G; base < batch; base += stride, s ^= 1) {
        const idx item = base + g;
        __pipeline_wait_prior(0);
        __syncwarp(); // b and the pivots of buffer s, copied by the other lanes, are visible
        double a[NC];
#pragma unroll
        for (int c = 0; c < NC; ++c) a[c] = mine[c * W + lane];
        // U_ii (own cell: row lane, column lane); lanes at or past NC (>= n) hold no row
        const double d = lane < NC ? mine[lane * W + lane] : 1.0;
        if (V == 2) __syncwarp(); // every lane's row read before the copy overwrites it
        issue(item + stride, s ^ 1); // V = 1: own cells of A, just read; buffer s ^ 1 was read last round
        // the original row q whose b is x_lane after the interchanges k = 0 .. n-1: undo them
        // from the last (lane is moved by k <-> p only when it is k or p)
        int q = lane;
        if (pivoting) {
#pragma unroll
            for (int k0 = NC - 4; k0 >= 0; k0 -= 4) {
                const int4 v = *reinterpret_cast<const int4 *>(&spv[s][g][k0]);
                const int pk[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
                for (int t = 3; t >= 0; --t) {
                    const int k = k0 + t, p = pk[t] - 1;
                    if (k < n && p != k && unsigned(p) < unsigned(n)) q = q == k ? p : q == p ? k : q;
                }
            }
        }
        double x = sb[s][g][q];
        // L (unit lower): x_i -= L_ij x_j, j ascending
#pragma unroll
        for (int j = 0; j < NC; ++j)
            if (j < n) {
                const double xj = __shfl_sync(0xffffffffu, x, j, W);
                if (lane > j) x -= a[j] * xj;
            }
        // U (upper): x_j /= U_jj on lane j, then x_i -= U_ij x_j, j descending
        const double ad = fabs(d), rd = 1.0 / d;
        const bool recip = reciprocal_safe(ad);
#pragma unroll
        for (int j = NC - 1; j >= 0; --j)
            if (j < n) {
                if (lane == j) {
                    if (recip) x *= rd;
                    else x = x / d;
                }
                const double xj = __shfl_sync(0xffffffffu, x, j, W);
                if (lane < j) x -= a[j] * xj;
            }
        if (item < batch && lane < n) B(item)[lane] = x;
    }
    __pipeline_wait_prior(0);
}

// Launches getrs_rows on the blocks that are resident at once (each warp then walks several
// items and has the next in flight), never more than the items need; the largest
// shared-memory carveout is asked for. The per-SM count is a property of the kernel.
template <int W, int V, int NC, class AA, class BA>
void rows_launch(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch, cudaStream_t st) {
    constexpr auto K = getrs_rows<W, V, NC, AA, BA>;
    static const int per_sm = [] {
        cudaFuncSetAttribute(K, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxShared));
        int b = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, K, rows::kThreads, 0) != cudaSuccess || b < 1) b = 1;
        cudaGetLastError();
        return b;
    }();
    constexpr idx per_block = rows::kThreads / W;
    const idx blocks = std::min<idx>((batch + per_block - 1) / per_block, idx(multiprocessors()) * per_sm);
    K<<<unsigned(std::max<idx>(1, blocks)), rows::kThreads, 0, st>>>(n, lda, A, ipiv, sp, B, batch);
}

// 16-byte pieces where pieces16 (getrs_pipe.cuh) allows them: strided A only (pointer
// arrays: 8 bytes, the V = 2 kernel not instantiated for them).
template <int W, int NC = W, class AA, class BA>
void rows_pick(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch, cudaStream_t st) {
    if constexpr (std::is_same_v<AA, Strided<const double>>) {
        if (pieces16(n, lda, A)) return rows_launch<W, 2, NC>(n, lda, A, ipiv, sp, B, batch, st);
    }
    rows_launch<W, 1, NC>(n, lda, A, ipiv, sp, B, batch, st);
}

// 1 <= n <= 32: the group width of n (4, 8, 16, 32) and the columns a lane holds (n rounded
// up to a multiple of 4 from n = 9); false otherwise. Holding W columns at every n of the
// width took n = 17 / 20 / 24 to 0.265 / 0.191 / 0.148 ms on an H200, 20 / 20 / 24 columns
// 0.166 / 0.133 / 0.113 ms: the steps past n are skipped by a branch but still issued, and
// fewer registers and less shared memory allow more blocks (docs/performance.md, session 25).
template <class AA, class BA>
bool rows_getrs(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch, cudaStream_t st) {
    if (n < 1 || n > 32 || batch < 1) return false;
    if (n <= 4) rows_pick<4>(n, lda, A, ipiv, sp, B, batch, st);
    else if (n <= 8) rows_pick<8>(n, lda, A, ipiv, sp, B, batch, st);
    else if (n <= 12) rows_pick<16, 12>(n, lda, A, ipiv, sp, B, batch, st);
    else if (n <= 16) rows_pick<16>(n, lda, A, ipiv, sp, B, batch, st);
    else if (n <= 20) rows_pick<32, 20>(n, lda, A, ipiv, sp, B, batch, st);
    else if (n <= 24) rows_pick<32, 24>(n, lda, A, ipiv, sp, B, batch, st);
    else if (n <= 28) rows_pick<32, 28>(n, lda, A, ipiv, sp, B, batch, st);
    else rows_pick<32>(n, lda, A, ipiv, sp, B, batch, st);
    return true;
}

} // namespace
} // namespace kobalt_cuda

#endif
