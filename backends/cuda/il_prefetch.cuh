// il_prefetch.cuh -- interleaved getrf and getrs (N x N items, one thread per item) with the
// NEXT item's loads in flight while the thread factors or solves the current one. Included
// by desc.cu (the INTERLEAVED_*_PREFETCH_MIN thresholds).
//
// Why: the one-item kernels of desc.cu load an item, compute, store, and at n = 8 hold the
// item in 130-255 registers, so an SM keeps about 8 warps; while they compute, nothing is
// read. On an H200 (4.2 TB/s) that left getrf / getrs / the fused call at 75-81% of the copy
// bandwidth at n = 8 (docs/performance.md). Here each thread walks a grid-stride sequence
// of items and copies item b + stride from global into its own column of shared memory
// with cp.async (no registers held, no block barrier: a thread only ever reads the shared
// cells it fetched itself), then computes item b from the copy it fetched the round before.
//
// Semantics are the one-item kernels': the same il:: algorithms on the same values, the
// same operands read and written. (The fused call done this way, X and Y prefetched and the
// product read from shared memory, was slower at every n: docs/performance.md.)
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

// Threads per block: 64 (N = 8 double: 32 KiB / 39 KiB of shared memory for getrf / getrs,
// 4-5 blocks per SM at the registers those kernels need; static shared memory < 48 KiB).
constexpr int kPrefetchThreads = 64;

// A = P L U, items of order N; Op: .lane(b) -> ilp::Operand<T>, Piv: .lane(b) -> ilp::Pivots.
// MINB: blocks per SM the registers must allow (__launch_bounds__; 1 = no cap below 255).
template <class T, int N, class Op, class Piv, int MINB = 1>
__global__ void __launch_bounds__(kPrefetchThreads, MINB) il_getrf_prefetch(Op A, Piv piv, int *info, idx batch) {
    using O = ilp::ScalarOps<T>;
    constexpr int B = kPrefetchThreads;
    __shared__ T s[N * N][B];
    const int t = int(threadIdx.x);
    const idx stride = idx(gridDim.x) * B;
    const auto issue = [&](idx item) {
        if (item < batch) {
            const ilp::Operand<T> a = A.lane(item);
#pragma unroll
            for (int e = 0; e < N * N; ++e) fetch(&s[e][t], ilp::at(a, e % N, e / N));
        }
        __pipeline_commit(); // an empty group past the end keeps the wait below uniform
    };
    idx b = idx(blockIdx.x) * B + t;
    issue(b);
    for (; b < batch; b += stride) {
        __pipeline_wait_prior(0);
        T a[N * N];
#pragma unroll
        for (int e = 0; e < N * N; ++e) a[e] = s[e][t];
        issue(b + stride); // overwrites the cells just read: same thread, after its reads
        int pv[N], inf;
        ilp::lu<O, N, N>(a, N, piv.p != nullptr, pv, inf);
        const ilp::Operand<T> out = A.lane(b);
#pragma unroll
        for (int e = 0; e < N * N; ++e) *ilp::at(out, e % N, e / N) = a[e];
        if (piv.p) ilp::store_pivots<O>(piv.lane(b), N, pv);
        info[b] = inf;
    }
}

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
