// lu_warp.cu -- getrf of square pivoted items up to 8 x 8 in the standard layouts, one
// thread per item with the item in registers, staged through shared memory a warp at a
// time (GETRF_WARP_MAX, docs/cuda.md).
//
// Why: in the interleaved layout one thread per item, the whole item in registers
// (kobalt_interleaved::lu), reaches 82-85% of the copy bandwidth at n = 8 on an H200,
// while the group kernels that serve column- and row-major items (a lane per row,
// shuffles for every pivot search and broadcast) reach 59% (docs/performance.md). Items
// stored one after the other cannot be read one per thread without wasting most of each
// memory transaction, so each warp copies its 32 items into its own slice of shared
// memory with cp.async (consecutive lanes, consecutive addresses: whole lines for packed
// items), each lane then takes its item into registers, factors it with the interleaved
// kernels' LU (dgetf2's pivots, info and reciprocal rule), puts it back, and the warp
// writes the slice back the way it read it. No block barrier: a warp only touches its own
// slice, so the warps of an SM overlap their loads with each other's factorizations.
#include <cuda_pipeline.h>

#include <algorithm>

#include "../common/interleaved_algo.hpp"
#include "common.cuh"
#include "lu_warp.cuh"

namespace kobalt_cuda {

namespace {

namespace ilw = kobalt_interleaved;

constexpr int kWarpsPerBlock = 2;

// Elements per item in shared memory: n*n rounded up to an odd number, so that the 32 lanes'
// items start on different banks when each lane reads its own item.
template <int N> constexpr int pitch() { return (N * N) | 1; }

// This lane's item pointer for the strided form; the pointer-array form reads the array
// once per lane and passes it by shuffle to the lanes copying that item's elements.
template <class T> __device__ __forceinline__ T *item_ptr(Strided<T> A, idx first, T *, int it) {
    return A(first + it);
}
template <class T> __device__ __forceinline__ T *item_ptr(Ptrs<T>, idx, T *mine, int it) {
    return reinterpret_cast<T *>(__shfl_sync(0xffffffffu, reinterpret_cast<unsigned long long>(mine), it));
}

template <class T, int N, class AA>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    getrf_warp(bool col, idx ld, AA A, int *ipiv, idx strideIpiv, int *info, idx batch) {
    constexpr int NN = N * N, P = pitch<N>();
    __shared__ T slices[kWarpsPerBlock][32 * P];
    T *const s = slices[threadIdx.x / 32];
    const int lane = int(threadIdx.x % 32);
    const idx warps = idx(gridDim.x) * kWarpsPerBlock;
    for (idx first = (idx(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32) * 32; first < batch;
         first += warps * 32) {
        const int count = batch - first < 32 ? int(batch - first) : 32;
        T *const mine = lane < count ? A(first + lane) : nullptr;
        // element r of item it (storage order: inner index fastest) at s[it * P + r]
#pragma unroll 8
        for (int e = lane; e < 32 * NN; e += 32) {
            const int it = e / NN, r = e % NN;
            T *const p = item_ptr(A, first, mine, it);
            if (it < count) __pipeline_memcpy_async(s + it * P + r, p + idx(r / N) * ld + r % N, sizeof(T));
        }
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncwarp();
        T a[NN]; // element (i, j) at a[i + j * N]
        int pv[N], inf;
#pragma unroll
        for (int j = 0; j < N; ++j)
#pragma unroll
            for (int i = 0; i < N; ++i) a[i + j * N] = s[lane * P + (col ? i + j * N : j + i * N)];
        ilw::lu<ilw::ScalarOps<T>, N, N>(a, N, true, pv, inf);
#pragma unroll
        for (int j = 0; j < N; ++j)
#pragma unroll
            for (int i = 0; i < N; ++i) s[lane * P + (col ? i + j * N : j + i * N)] = a[i + j * N];
        if (lane < count) {
            int *const piv = ipiv + (first + lane) * strideIpiv;
#pragma unroll
            for (int j = 0; j < N; ++j) piv[j] = pv[j] + 1;
            info[first + lane] = inf;
        }
        __syncwarp();
#pragma unroll 8
        for (int e = lane; e < 32 * NN; e += 32) {
            const int it = e / NN, r = e % NN;
            T *const p = item_ptr(A, first, mine, it);
            if (it < count) p[idx(r / N) * ld + r % N] = s[it * P + r];
        }
        __syncwarp(); // the slice is read before the next group's copies land in it
    }
}

template <class T, int N, class AA>
void launch(bool col, idx ld, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, cudaStream_t st) {
    const auto kernel = getrf_warp<T, N, AA>;
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kWarpsPerBlock * 32, 0) != cudaSuccess ||
        per_sm < 1) {
        cudaGetLastError();
        per_sm = 1;
    }
    const idx groups = (batch + 31) / 32;
    const idx blocks = std::min<idx>((groups + kWarpsPerBlock - 1) / kWarpsPerBlock, idx(multiprocessors()) * per_sm);
    kernel<<<int(std::max<idx>(blocks, 1)), kWarpsPerBlock * 32, 0, st>>>(col, ld, A, ipiv, strideIpiv, info, batch);
}

} // namespace

template <class T, class AA>
bool warp_getrf(int n, const MatDesc &dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, cudaStream_t st) {
    if (!ipiv || dA.rows != n || dA.cols != n || dA.trans || batch < 1) return false;
    switch (n) {
#define KOBALT_WARP_CASE(N)                                                                        \
    case N: launch<T, N>(dA.col, dA.ld, A, ipiv, strideIpiv, info, batch, st); return true;
        KOBALT_WARP_CASE(1)
        KOBALT_WARP_CASE(2)
        KOBALT_WARP_CASE(3)
        KOBALT_WARP_CASE(4)
        KOBALT_WARP_CASE(5)
        KOBALT_WARP_CASE(6)
        KOBALT_WARP_CASE(7)
        KOBALT_WARP_CASE(8)
#undef KOBALT_WARP_CASE
    }
    return false;
}

#define KOBALT_WARP_INSTANTIATE(T)                                                                 \
    template bool warp_getrf<T>(int, const MatDesc &, Strided<T>, int *, idx, int *, idx, cudaStream_t); \
    template bool warp_getrf<T>(int, const MatDesc &, Ptrs<T>, int *, idx, int *, idx, cudaStream_t);
KOBALT_WARP_INSTANTIATE(double)
KOBALT_WARP_INSTANTIATE(float)

} // namespace kobalt_cuda
