// il_prefetch.cuh -- interleaved getrs (N x N factors, one thread per item) with the NEXT
// item's loads in flight while the thread solves the current one. Included by desc.cu
// (INTERLEAVED_GETRS_PREFETCH_MIN, _FLOAT).
//
// Why: the one-item kernel of desc.cu loads an item, solves, stores, and at n = 8 in double
// holds it in 188 registers, so an SM keeps 8 warps; while they solve, nothing is read. On an
// H200 (4.2 TB/s) that left getrs at 78% of the copy bandwidth at n = 8; this kernel gives
// 88-90% (docs/performance.md, session 6). Each thread walks a grid-stride sequence of items and copies
// item b + stride (factors, pivots, B's first column) from global into its own column of
// shared memory with cp.async (no registers held, no block barrier: a thread only ever
// reads the shared cells it fetched itself), then solves item b from the copy it fetched
// the round before.
//
// Semantics are the one-item kernel's: the same il::solve on the same values. The same
// scheme was slower for getrf (all n, 8 warps: 79% against 82% at n = 8) and for the fused
// call (every n; X, Y prefetched, product from shared memory: 69% against 75.5% at n = 8),
// and for getrs in float and at n = 3..5; docs/performance.md.
#ifndef KOBALT_CUDA_IL_PREFETCH_CUH
#define KOBALT_CUDA_IL_PREFETCH_CUH

#include <cuda_pipeline.h>

#include <atomic>

#include "../common/interleaved_algo.hpp"
#include "common.cuh"

namespace kobalt_cuda {
namespace {

namespace ilp = kobalt_interleaved;

// One element of this thread's next item: global -> this thread's shared cell, asynchronous.
template <class T> __device__ __forceinline__ void fetch(T *cell, const T *src) {
    __pipeline_memcpy_async(cell, src, sizeof(T));
}

// Threads per block: 64 (N = 8 double: 39 KiB of static shared memory, under the 48 KiB
// limit; 5 blocks per SM at 193 registers).
constexpr int kPrefetchThreads = 64;

// B = op(A)^{-1} B from getrf's factors; A, the pivots and B's first column prefetched
// (further columns, nrhs > 1, read when solved).
template <class T, int N, class COp, class Op, class Piv>
__global__ void __launch_bounds__(kPrefetchThreads)
    il_getrs_prefetch(bool trans, int nrhs, COp A, Piv piv, Op Bm, idx batch) {
    using O = ilp::ScalarOps<T>;
    constexpr int B = kPrefetchThreads;
    __shared__ T s[N * N + N][B];
    __shared__ int sp[N][B];
    const int t = int(threadIdx.x);
    const idx stride = idx(gridDim.x) * B;
    const bool pivoting = piv.p != nullptr;
    const auto issue = [&](idx item) {
        if (item < batch) {
            const ilp::Operand<const T> a = A.lane(item);
            const ilp::Operand<T> x = Bm.lane(item);
#pragma unroll
            for (int e = 0; e < N * N; ++e) fetch(&s[e][t], ilp::at(a, e % N, e / N));
#pragma unroll
            for (int i = 0; i < N; ++i) fetch(&s[N * N + i][t], const_cast<const T *>(ilp::at(x, i, 0)));
            if (pivoting) {
                const ilp::Pivots p = piv.lane(item);
#pragma unroll
                for (int j = 0; j < N; ++j) fetch(&sp[j][t], const_cast<const int *>(p.p + j * p.inc));
            }
        }
        __pipeline_commit();
    };
    idx b = idx(blockIdx.x) * B + t;
    issue(b);
    for (; b < batch; b += stride) {
        __pipeline_wait_prior(0);
        T a[N * N], x[N];
        int pv[N];
#pragma unroll
        for (int e = 0; e < N * N; ++e) a[e] = s[e][t];
#pragma unroll
        for (int i = 0; i < N; ++i) x[i] = s[N * N + i][t];
#pragma unroll
        for (int j = 0; j < N; ++j) pv[j] = pivoting ? sp[j][t] - 1 : j;
        issue(b + stride);
        const ilp::Operand<T> out = Bm.lane(b);
        for (int c = 0; c < nrhs; ++c) {
            if (c > 0)
#pragma unroll
                for (int i = 0; i < N; ++i) x[i] = *ilp::at(out, i, c);
            ilp::solve<O, N>(trans, a, pv, pivoting, x);
#pragma unroll
            for (int i = 0; i < N; ++i) *ilp::at(out, i, c) = x[i];
        }
    }
}

// Blocks to launch: as many as the SMs hold at once (each thread then walks several items,
// so its prefetch overlaps), never more than the batch needs. The per-SM count is a
// property of the kernel, queried once.
template <auto Kernel> unsigned prefetch_blocks(int threads, idx batch) {
    static std::atomic<int> per_sm{0};
    int r = per_sm.load(std::memory_order_relaxed);
    if (r == 0) {
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r, Kernel, threads, 0) != cudaSuccess || r < 1) {
            cudaGetLastError();
            r = 1;
        }
        per_sm.store(r, std::memory_order_relaxed);
    }
    const idx want = (batch + threads - 1) / threads, have = idx(multiprocessors()) * r;
    return unsigned(want < have ? (want > 0 ? want : 1) : have);
}

} // namespace
} // namespace kobalt_cuda

#endif
