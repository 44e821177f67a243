// getrs_pipe.cuh -- double getrs, column-major, NoTrans, one right-hand side, n <= 8
// (GETRS_PIPE_MIN on; docs/cuda.md): ONE THREAD PER ITEM, the operands piped through
// shared memory. Included by routines.cu.
//
// Why: the group kernel (groups.cu) gives an item 8 lanes; every step of its two solves
// is a shuffle + FMA chain shared by the 8 lanes, the permutation a runtime loop of
// dependent shuffles and the 8 divisions sit on the chain, so a warp instruction does the
// work of 4 items and the SM is busy with latency (65% of the copy bandwidth at n = 8 on
// an H200). Here a warp of 32 threads owns a chunk of 32 items: the warp copies the
// chunk's A, pivots and b with cp.async (8-byte / 4-byte pieces, consecutive lanes on
// consecutive addresses: coalesced, no registers held while in flight) into shared
// memory, then each thread solves its item from there (every warp instruction serves 32
// items) and the warp writes b back coalesced through shared memory. Two buffers: the next
// chunk's copies are issued before the current chunk is solved, so each warp always has
// loads in flight. One warp per block, so only __syncwarp is needed.
//
// Semantics are the group kernel's: the same row interchanges (ipiv 1-based, applied in
// order; an entry outside 1..n is skipped instead of read out of bounds), the same
// operations in the same order (x_i -= L_ij x_j by ascending j, then x_j /= U_jj and
// x_i -= U_ij x_j by descending j; a true division as dtrsm), so the results are those of
// the group kernel.
#ifndef KOBALT_CUDA_GETRS_PIPE_CUH
#define KOBALT_CUDA_GETRS_PIPE_CUH

#include <cuda_pipeline.h>

#include <atomic>

#include "common.cuh"

namespace kobalt_cuda {
namespace {

namespace pipe {

constexpr int kLanes = 32; // threads per block (one warp)

// Shared-memory pitches (elements per item). Each thread reads its own item with 16-byte
// loads; a pitch of 2 mod 4 doubles puts the 8 threads of a quarter warp on 8 different
// 4-bank groups (no conflicts), and keeps every record 16-byte aligned.
template <int W> constexpr int pitch_a() { return W * W + 2; }
template <int W> constexpr int pitch_b() { return W + 2; }
// ints: 12 (48 bytes: 12t mod 32 distinct 4-bank groups for t = 0..7) up to W = 8, 20 above
template <int W> constexpr int pitch_p() { return W <= 8 ? 12 : 20; }

// One chunk of NI items. NI = 32 up to W = 8 (every lane solves an item); at W = 16 an item
// takes 2.3 KB, so 16 items per chunk (half the lanes solve) keep 3 blocks on an SM.
template <int W, int NI> struct Buffer {
    double a[NI][pitch_a<W>()];
    double b[NI][pitch_b<W>()];
    int p[NI][pitch_p<W>()];
};
template <int W> constexpr int chunk_items() { return W <= 8 ? 32 : 16; }

__device__ __forceinline__ double2 ld2(const double *s) { return *reinterpret_cast<const double2 *>(s); }

} // namespace pipe

// One warp per block; chunk c holds items NI c .. NI c + NI - 1. A(i, j) of item t at
// A(t) + i + j lda, b_i at B(t) + i, pivots at ipiv + t sp. Two Buffer<W, NI> of dynamic
// shared memory.
template <int W, class AA, class BA>
__global__ void __launch_bounds__(pipe::kLanes)
    getrs_pipe(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch) {
    using namespace pipe;
    constexpr int kItems = chunk_items<W>();
    extern __shared__ __align__(16) unsigned char pipe_smem[];
    Buffer<W, kItems> *const buf = reinterpret_cast<Buffer<W, kItems> *>(pipe_smem);
    const int lane = int(threadIdx.x);
    const idx chunks = (batch + kItems - 1) / kItems;
    const bool pivoting = ipiv != nullptr;

    // copy chunk c into buffer s: A's W x W elements per item (E = W*W) over the 32 lanes,
    // b's and the pivots' W per item; lanes past n are predicated off (their cells are
    // never read)
    const auto issue = [&](idx c, int s) {
        if (c < chunks) {
            const idx first = c * kItems;
            constexpr int E = W * W;
            if constexpr (E >= 32) {
#pragma unroll 4
                for (int t = 0; t < kItems; ++t) {
                    const idx item = first + t;
#pragma unroll
                    for (int k = 0; k < E / 32; ++k) {
                        const int e = k * 32 + lane, r = e % W, col = e / W;
                        if (item < batch && r < n && col < n)
                            __pipeline_memcpy_async(&buf[s].a[t][e], A(item) + r + col * lda, sizeof(double));
                    }
                }
            } else {
#pragma unroll 4
                for (int t0 = 0; t0 < kItems; t0 += 32 / E) {
                    const int t = t0 + lane / E, e = lane % E, r = e % W, col = e / W;
                    const idx item = first + t;
                    if (item < batch && r < n && col < n)
                        __pipeline_memcpy_async(&buf[s].a[t][e], A(item) + r + col * lda, sizeof(double));
                }
            }
#pragma unroll
            for (int t0 = 0; t0 < kItems; t0 += 32 / W) {
                const int t = t0 + lane / W, r = lane % W;
                const idx item = first + t;
                if (item < batch && r < n) {
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
        const int me = lane < kItems ? lane : kItems - 1; // W = 16: lanes 16..31 idle (copy of 15)
        double *const sb = buf[s].b[me];
        // row interchanges k <-> ipiv[k]-1 in order, on this thread's b in shared memory
        if (pivoting && lane < kItems) {
            int pv[W];
#pragma unroll
            for (int k = 0; k < W; k += 4) {
                const int4 q = *reinterpret_cast<const int4 *>(&buf[s].p[me][k]);
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
        const double *const a = buf[s].a[me]; // A(i, j) = a[i + j W]
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
        // U (upper, non-unit), column by column from the last
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
                x[j] = x[j] / u[j];
#pragma unroll
                for (int i = 0; i < j; ++i) x[i] -= u[i] * x[j];
            }
        if (lane < kItems)
#pragma unroll
            for (int i = 0; i < W; i += 2) *reinterpret_cast<double2 *>(sb + i) = make_double2(x[i], x[i + 1]);
        __syncwarp();
        const idx first = c * kItems;
#pragma unroll
        for (int t0 = 0; t0 < kItems; t0 += 32 / W) {
            const int t = t0 + lane / W, r = lane % W;
            const idx item = first + t;
            if (item < batch && r < n) B(item)[r] = buf[s].b[t][r];
        }
        __syncwarp(); // buffer s is refilled by the next iteration's issue
    }
    __pipeline_wait_prior(0);
}

// Launches getrs_pipe<W> with as many blocks as the SMs hold at once (each warp then walks
// several chunks, so its copies overlap its solves), never more than the chunks. The
// shared-memory opt-in and the per-SM count are properties of the kernel, set and queried once.
template <int W, class AA, class BA>
void pipe_launch(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch, cudaStream_t st) {
    constexpr auto K = getrs_pipe<W, AA, BA>;
    constexpr int NI = pipe::chunk_items<W>();
    constexpr size_t bytes = 2 * sizeof(pipe::Buffer<W, NI>);
    static std::atomic<int> per_sm{0};
    int r = per_sm.load(std::memory_order_relaxed);
    if (r == 0) {
        if ((bytes <= 48 * 1024 ||
             cudaFuncSetAttribute(K, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)) == cudaSuccess) &&
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r, K, pipe::kLanes, bytes) == cudaSuccess && r >= 1) {
        } else {
            cudaGetLastError();
            r = 1;
        }
        per_sm.store(r, std::memory_order_relaxed);
    }
    const idx want = (batch + NI - 1) / NI, have = idx(multiprocessors()) * r;
    K<<<unsigned(want < have ? want : have), pipe::kLanes, bytes, st>>>(n, lda, A, ipiv, sp, B, batch);
}

// 1 <= n <= 16: W = 4 up to n = 4, 8 up to 8, else 16; false otherwise.
template <class AA, class BA>
bool pipe_getrs(int n, idx lda, AA A, const int *ipiv, idx sp, BA B, idx batch, cudaStream_t st) {
    if (n < 1 || n > 16 || batch < 1) return false;
    if (n <= 4) pipe_launch<4>(n, lda, A, ipiv, sp, B, batch, st);
    else if (n <= 8) pipe_launch<8>(n, lda, A, ipiv, sp, B, batch, st);
    else pipe_launch<16>(n, lda, A, ipiv, sp, B, batch, st);
    return true;
}

} // namespace
} // namespace kobalt_cuda

#endif
