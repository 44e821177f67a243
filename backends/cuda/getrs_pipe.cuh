// getrs_pipe.cuh -- double getrs, column-major, NoTrans, one right-hand side, n <= 8
// (GETRS_PIPE_MIN on; docs/cuda.md): ONE THREAD PER ITEM, the operands piped through
// shared memory. Included by routines.cu. From GETRS_PREFETCH_MIN (8 by default) the row
// kernel (getrs_rows.cuh) runs instead: it was faster at n = 7, 8, slower at n = 5.
//
// Why: the group kernel (groups.cu) gives an item 8 lanes; every step of its two solves
// is a shuffle + FMA chain shared by the 8 lanes, the permutation a runtime loop of
// dependent shuffles and the 8 divisions sit on the chain, so a warp instruction does the
// work of 4 items (ncu at n = 8 on an H200: ~82 M warp instructions, 65% of the copy
// bandwidth). Here a warp of 32 threads owns a chunk of 32 items: the warp copies the
// chunk's A (16- or 8-byte pieces), pivots and b with cp.async (consecutive lanes on
// consecutive addresses: coalesced, no registers held while in flight) into shared
// memory, then each thread solves its item from there (every warp instruction serves 32
// items: ~22 M warp instructions, 83% of the copy bandwidth) and the warp writes b back
// coalesced through shared memory. Two buffers: the next chunk's copies are issued before
// the current chunk is solved, so each warp always has loads in flight. One warp per
// block, so only __syncwarp is needed. 5 such blocks fit on an SM at W = 8 (shared
// memory); hence W = 6 for n = 5, 6 (8 per SM; H200: n = 5 0.220 -> 0.149 ms, n = 6
// 0.148 -> 0.108 ms against W = 8); at W = 16 (3 per SM) the scheme lost to the group
// kernel and was removed.
//
// Semantics are the group kernel's: the same row interchanges (ipiv 1-based, applied in
// order; an entry outside 1..n is skipped instead of read out of bounds), the same
// operations in the same order (x_i -= L_ij x_j by ascending j, then x_j /= U_jj and
// x_i -= U_ij x_j by descending j). One difference: x_j / U_jj is x_j times 1 / U_jj where
// that reciprocal is a normal number (2^-1022 <= |U_jj| <= 2^1022), so it can be computed
// off the dependent chain (results within an ulp per step of the division's); zero,
// subnormal, huge, infinite and NaN diagonals take the true division, as dtrsm.
#ifndef KOBALT_CUDA_GETRS_PIPE_CUH
#define KOBALT_CUDA_GETRS_PIPE_CUH

#include <cuda_pipeline.h>

#include <atomic>
#include <cstdint>

#include "common.cuh"

namespace kobalt_cuda {
namespace {

namespace pipe {

constexpr int kItems = 32; // items per chunk = threads per block (one warp)

// Shared-memory pitches (elements per item). Each thread reads its own item with 16-byte
// loads; a pitch of 2 mod 4 doubles puts the 8 threads of a quarter warp on 8 different
// 4-bank groups (no conflicts), and keeps every record 16-byte aligned.
template <int W> constexpr int pitch_a() { return W * W + 2; }
template <int W> constexpr int pitch_b() { return (W + 2) % 4 == 2 ? W + 2 : W + 4; }
constexpr int kPitchP = 12; // ints: 48 bytes, 12t mod 32 distinct 4-bank groups for t = 0..7

template <int W> struct Buffer {
    double a[kItems][pitch_a<W>()];
    double b[kItems][pitch_b<W>()];
    int p[kItems][kPitchP];
};

__device__ __forceinline__ double2 ld2(const double *s) { return *reinterpret_cast<const double2 *>(s); }

} // namespace pipe

// One warp per block; chunk c holds items 32c .. 32c+31. A(i, j) of item t at
// A(t) + i + j lda, b_i at B(t) + i, pivots at ipiv + t sp. V = 2: A is copied in 16-byte
// pieces (the launcher checked n, lda, the stride and the base pointer even / aligned),
// else in 8-byte pieces.
template <int W, int V, class AA, class BA>
__global__ void __launch_bounds__(pipe::kItems)
    getrs_pipe(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch) {
    using namespace pipe;
    __shared__ __align__(16) Buffer<W> buf[2];
    const int lane = int(threadIdx.x);
    const idx chunks = (batch + kItems - 1) / kItems;
    const bool pivoting = ipiv != nullptr;

    // This lane's pieces of an item's A (the same for every item): element e = (32k + lane) V
    // of the W x W block, i.e. rows r .. r+V-1 of column col; its offset in the item and
    // whether it lies inside n x n. Computed once, so a copy costs the item's pointer, one
    // add and the cp.async. W = 4, 8: the pieces tile the block (W = 4: one instruction covers
    // IPI items); W = 6: E = 36 is no multiple of 32 V, one item per instruction, the lanes
    // past E idle. W = 4, 8 keep their own expressions (the W = 6 guards on every W made
    // different code for them, and n = 2 ran 1.5-1.8% slower: docs/performance.md).
    constexpr int E = W * W;
    constexpr bool tiles = (32 * V) % E == 0 || E % (32 * V) == 0;
    constexpr int PER = !tiles ? (E + 32 * V - 1) / (32 * V) : E >= 32 * V ? E / (32 * V) : 1,
                  IPI = tiles && E < 32 * V ? 32 * V / E : 1;
    idx goff[PER];
    int soff[PER];
    bool ok[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) {
        const int raw = (k * 32 + lane) * V, e = tiles ? raw % E : raw, r = e % W, col = e / W;
        goff[k] = r + col * lda;
        soff[k] = (tiles ? lane * V / E : 0) * pitch_a<W>() + e; // IPI > 1: lane's item within the instruction
        ok[k] = (tiles || e < E) && r < n && col < n;
    }

    // copy chunk c into buffer s; lanes past n are predicated off (their cells are never read)
    const auto issue = [&](idx c, int s) {
        if (c < chunks) {
            const idx first = c * kItems;
            double *const sa = &buf[s].a[0][0];
#pragma unroll 8
            for (int t0 = 0; t0 < kItems; t0 += IPI) {
                const idx item = first + t0 + (IPI > 1 ? lane * V / E : 0);
                if (item < batch) {
                    const double *const src = A(item);
#pragma unroll
                    for (int k = 0; k < PER; ++k)
                        if (ok[k]) __pipeline_memcpy_async(sa + t0 * pitch_a<W>() + soff[k], src + goff[k], 8 * V);
                }
            }
#pragma unroll
            for (int t0 = 0; t0 < kItems; t0 += 32 / W) {
                const int t = t0 + lane / W, r = lane % W; // W = 6: lanes 30, 31 idle
                const idx item = first + t;
                if ((32 % W == 0 || (lane < 32 / W * W && t < kItems)) && item < batch && r < n) {
                    __pipeline_memcpy_async(&buf[s].b[t][r], B(item) + r, sizeof(double));
                    if (pivoting) __pipeline_memcpy_async(&buf[s].p[t][r], ipiv + item * sp + r, sizeof(int));
                }
            }
        }
        __pipeline_commit();
    };

    idx c = blockIdx.x;
    int s = 0;
    issue(c, s);
    for (; c < chunks; c += gridDim.x, s ^= 1) {
        issue(c + gridDim.x, s ^ 1); // the next chunk in flight while this one is solved
        __pipeline_wait_prior(1);
        __syncwarp();
        double *const sb = buf[s].b[lane];
        // row interchanges k <-> ipiv[k]-1 in order, on this thread's b in shared memory
        if (pivoting) {
            int pv[(W + 3) / 4 * 4];
#pragma unroll
            for (int k = 0; k < W; k += 4) {
                const int4 q = *reinterpret_cast<const int4 *>(&buf[s].p[lane][k]);
                pv[k] = q.x;
                pv[k + 1] = q.y;
                pv[k + 2] = q.z;
                pv[k + 3] = q.w;
            }
#pragma unroll
            for (int k = 0; k < W; ++k)
                if (k < n) {
                    const int p = pv[k] - 1;
                    if (p != k && unsigned(p) < unsigned(n)) {
                        const double u = sb[k], v = sb[p];
                        sb[k] = v;
                        sb[p] = u;
                    }
                }
        }
        double x[W];
#pragma unroll
        for (int i = 0; i < W; i += 2) {
            const double2 v = ld2(sb + i);
            x[i] = v.x;
            x[i + 1] = v.y;
        }
        const double *const a = buf[s].a[lane]; // A(i, j) = a[i + j W]
        // L (unit lower), column by column
#pragma unroll
        for (int j = 0; j < W - 1; ++j)
            if (j + 1 < n)
#pragma unroll
                for (int i = (j + 1) & ~1; i < W; i += 2) {
                    const double2 l = ld2(a + i + j * W);
                    if (i > j && i < n) x[i] -= l.x * x[j];
                    if (i + 1 < n) x[i + 1] -= l.y * x[j];
                }
        // U (upper, non-unit), column by column from the last. x_j / U_jj as x_j times the
        // reciprocal, which does not depend on x and so leaves the dependent chain, where
        // that is exact to an ulp: 2^-1022 <= |U_jj| <= 2^1022 (the reciprocal is then a
        // normal number); a true division otherwise (zero, subnormal, huge, inf, NaN).
#pragma unroll
        for (int j = W - 1; j >= 0; --j)
            if (j < n) {
                double u[W];
#pragma unroll
                for (int i = 0; i <= j; i += 2) {
                    const double2 v = ld2(a + i + j * W);
                    u[i] = v.x;
                    u[i + 1] = v.y;
                }
                const double d = u[j], ad = fabs(d), rd = 1.0 / d;
                x[j] = reciprocal_safe(ad) ? x[j] * rd : x[j] / d;
#pragma unroll
                for (int i = 0; i < j; ++i) x[i] -= u[i] * x[j];
            }
#pragma unroll
        for (int i = 0; i < W; i += 2) *reinterpret_cast<double2 *>(sb + i) = make_double2(x[i], x[i + 1]);
        __syncwarp();
        const idx first = c * kItems;
#pragma unroll
        for (int t0 = 0; t0 < kItems; t0 += 32 / W) {
            const int t = t0 + lane / W, r = lane % W;
            const idx item = first + t;
            if ((32 % W == 0 || (lane < 32 / W * W && t < kItems)) && item < batch && r < n)
                B(item)[r] = buf[s].b[t][r];
        }
        __syncwarp(); // buffer s is refilled by the next iteration's issue
    }
    __pipeline_wait_prior(0);
}

// Launches getrs_pipe with as many blocks as the SMs hold at once (each warp then walks
// several chunks, so its copies overlap its solves), never more than the chunks. The
// per-SM count is a property of the kernel, queried once.
template <int W, int V, class AA, class BA>
void pipe_launch(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch, cudaStream_t st) {
    constexpr auto K = getrs_pipe<W, V, AA, BA>;
    static std::atomic<int> per_sm{0};
    int r = per_sm.load(std::memory_order_relaxed);
    if (r == 0) {
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r, K, pipe::kItems, 0) != cudaSuccess || r < 1) {
            cudaGetLastError();
            r = 1;
        }
        per_sm.store(r, std::memory_order_relaxed);
    }
    const idx want = (batch + pipe::kItems - 1) / pipe::kItems, have = idx(multiprocessors()) * r;
    K<<<unsigned(want < have ? want : have), pipe::kItems, 0, st>>>(n, lda, A, ipiv, sp, B, batch);
}

// 16-byte pieces need every column of every item to start on 16 bytes and hold an even
// count: n, lda, the stride even and the base aligned. Pointer arrays: unknown, 8 bytes.
template <class T> bool pieces16(int n, idx lda, Strided<const T> A) {
    return n % 2 == 0 && lda % 2 == 0 && A.stride % 2 == 0 && reinterpret_cast<uintptr_t>(A.base) % 16 == 0;
}
template <class T> bool pieces16(int, idx, Ptrs<const T>) { return false; }

// 1 <= n <= 8: W = 4 up to n = 4, 6 up to 6, else 8; false otherwise.
template <class AA, class BA>
bool pipe_getrs(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch, cudaStream_t st) {
    if (n < 1 || n > 8 || batch < 1) return false;
    const bool v2 = pieces16(n, lda, A);
    if (n <= 4) {
        if (v2) pipe_launch<4, 2>(n, lda, A, ipiv, sp, B, batch, st);
        else pipe_launch<4, 1>(n, lda, A, ipiv, sp, B, batch, st);
    } else if (n <= 6) {
        if (v2) pipe_launch<6, 2>(n, lda, A, ipiv, sp, B, batch, st);
        else pipe_launch<6, 1>(n, lda, A, ipiv, sp, B, batch, st);
    } else {
        if (v2) pipe_launch<8, 2>(n, lda, A, ipiv, sp, B, batch, st);
        else pipe_launch<8, 1>(n, lda, A, ipiv, sp, B, batch, st);
    }
    return true;
}

} // namespace
} // namespace kobalt_cuda

#endif
