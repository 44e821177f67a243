// groups.cu -- group kernels (groups.cuh, docs/cuda.md): W lanes of a warp per item, row
// i of the item's matrix in lane i's registers. Semantics are those of items.cuh (dgetf2
// pivots, info, BLAS edge cases). Every shuffle is executed by all 32 lanes of a warp:
// per-item conditions only predicate arithmetic and memory accesses, never a shuffle.
#include <algorithm>
#include <type_traits>

#include "gemm_bcast.cuh"
#include "group_ops.cuh"
#include "lu_bcast.cuh"
#include "lu_full.cuh"
#include "lu_two_rows.cuh"

namespace kobalt_cuda {
namespace {

using namespace group;

// acc = op(X) op(Y) rows: lane r gets row r (m x n result, inner dimension k). op(Y) is
// read W rows at a time, row p0+r by lane r (coalesced for column-major), and broadcast
// by shuffles; op(X)'s column p by every lane (coalesced for column-major).
template <int W, class T, class XA, class YA>
__device__ __forceinline__ void product(bool read, int m, int n, int k, const MatDesc &dX, XA X,
                                        const MatDesc &dY, YA Y, idx item, bool valid, int lane, T (&acc)[W]) {
#pragma unroll
    for (int c = 0; c < W; ++c) acc[c] = T(0);
    if (!read) return;
    Mat<const T> vx{nullptr, 0, 0}, vy{nullptr, 0, 0};
    if (valid) {
        vx = dX.global<const T>(X(item));
        vy = dY.global<const T>(Y(item));
    }
    for (int p0 = 0; p0 < k; p0 += W) {
        T yrow[W];
        const int pr = p0 + lane;
#pragma unroll
        for (int c = 0; c < W; ++c) yrow[c] = (valid && pr < k && c < n) ? vy(pr, c) : T(0);
        const int pe = min(W, k - p0);
        if (W <= 16) {
            // this lane's W elements of op(X) first, all loads in flight at once (a load
            // inside the step loop would expose its latency W times); then the unrolled steps
            T xrow[W];
#pragma unroll
            for (int pp = 0; pp < W; ++pp) xrow[pp] = (valid && lane < m && pp < pe) ? vx(lane, p0 + pp) : T(0);
#pragma unroll
            for (int pp = 0; pp < W; ++pp)
                if (pp < pe)
#pragma unroll
                    for (int c = 0; c < W; ++c)
                        if (c < n) acc[c] += xrow[pp] * shf<W>(yrow[c], pp);
        } else { // W = 32: three register rows would spill
#pragma unroll 1
            for (int pp = 0; pp < pe; ++pp) {
                const T x = (valid && lane < m) ? vx(lane, p0 + pp) : T(0);
#pragma unroll
                for (int c = 0; c < W; ++c)
                    if (c < n) acc[c] += x * shf<W>(yrow[c], pp);
            }
        }
    }
}

// ---- kernels ----------------------------------------------------------------------------
// The body of both gemm group kernels. sy != nullptr: op(B) broadcast through shared memory
// (product_bcast, gemm_bcast.cuh; GEMM_BCAST_MIN picks it), otherwise by shuffles.
template <int W, class T, bool Bcast, int NC, class AA, class BA, class CA>
__device__ __forceinline__ void gemm_group_body(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B,
                                                T beta, MatDesc dC, CA C, idx batch, T *sy) {
    const bool readAB = alpha != T(0) && k > 0, readC = beta != T(0);
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        T acc[W];
        if constexpr (Bcast)
            product_bcast<W, NC, T>(readAB, m, n, k, dA, A, dB, B, item, valid, lane, acc,
                                sy + (threadIdx.x / W) * BcastSlice<W, T>::size);
        else
            product<W, T>(readAB, m, n, k, dA, A, dB, B, item, valid, lane, acc);
        if (valid && lane < m) {
            const Mat<T> vc = dC.global(C(item));
#pragma unroll
            for (int c = 0; c < W; ++c)
                if (c < n) {
                    const T v = alpha * acc[c];
                    vc(lane, c) = readC ? v + beta * vc(lane, c) : v;
                }
        }
    }
}

// The shuffle kernel, as before the broadcast one came (no shared memory); runs only with
// GEMM_BCAST_MIN = 0 or below it (H200, double: 0.197 / 0.209 / 0.333 ms at n = 4 / 8 / 16
// against 0.194 / 0.190 / 0.192 ms broadcast).
template <int W, class T, class AA, class BA, class CA>
__global__ void __launch_bounds__(kThreads) gemm_group(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB,
                                                       BA B, T beta, MatDesc dC, CA C, idx batch) {
    gemm_group_body<W, T, false, W>(m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch, static_cast<T *>(nullptr));
}
// The broadcast kernel: each group's rows of op(B) in its slice of shared memory; NC
// columns computed (n <= NC). No register cap: at W = 16 (128-168 registers, 4 blocks
// per SM) a cap for 5 blocks (96 registers) spilled 72-272 bytes and lost (n = 16 0.192
// -> 0.278 ms, n = 12 0.197 -> 0.243 ms on an H200, docs/performance.md).
template <int W, class T, int NC, class AA, class BA, class CA>
__global__ void __launch_bounds__(kThreads)
    gemm_group_bcast(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta, MatDesc dC, CA C,
                     idx batch) {
    __shared__ __align__(16) T sy[kThreads / W * BcastSlice<W, T>::size];
    gemm_group_body<W, T, true, NC>(m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch, sy);
}

// The body of both getrf group kernels. rows != nullptr: lu_rows_bcast (redux pivot search,
// pivot row through shared memory, each row stored at its final place; GETRF_BCAST_MIN
// picks it), otherwise lu_rows (shuffles).
template <int W, class T, bool Bcast, class AA>
__device__ __forceinline__ void getrf_group_body(int m, int n, MatDesc dA, AA A, int *ipiv, idx sp, int *info,
                                                 idx batch, T *rows) {
    constexpr int E = 16 / int(sizeof(T));
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        Mat<T> v{nullptr, 0, 0};
        if (valid) v = dA.global(A(item));
        T a[W];
#pragma unroll
        for (int c = 0; c < W; ++c) a[c] = (valid && lane < m && c < n) ? v(lane, c) : T(0);
        int mypiv, pos = lane;
        int r;
        if constexpr (Bcast)
            r = lu_rows_bcast<W>(m, n, a, lane, ipiv != nullptr, mypiv, pos, rows + (threadIdx.x / W) * 2 * (W + E));
        else
            r = lu_rows<W>(m, n, a, lane, ipiv != nullptr, mypiv);
        if (valid) {
            // lane < m holds logical row pos < m (labels move among those rows only); the
            // shuffle kernel has put row i back into lane i
            const int out = Bcast ? pos : lane;
            if (out < m)
#pragma unroll
                for (int c = 0; c < W; ++c)
                    if (c < n) v(out, c) = a[c];
            if (ipiv && lane < min(m, n)) ipiv[item * sp + lane] = mypiv + 1;
            if (lane == 0) info[item] = r;
        }
    }
}

// The shuffle kernel as it was before the broadcast kernel came: no register cap and no
// shared memory. Sharing one kernel with a (kThreads, 3) bound and a one-element shared
// array cost 9-10% at n = 4 and 8 on an H200 (0.177 -> 0.193 ms, 0.217 -> 0.240 ms,
// kobalt-cuda-bench, two alternated runs each); at W = 32 it needs 168 registers for 3
// blocks per SM (172, which small code changes gave, fell to 2 blocks: 0.80 -> 1.04 ms).
template <int W, class T, class AA>
__global__ void __launch_bounds__(kThreads) getrf_group(int m, int n, MatDesc dA, AA A, int *ipiv, idx sp, int *info,
                                                        idx batch) {
    getrf_group_body<W, T, false>(m, n, dA, A, ipiv, sp, info, batch, static_cast<T *>(nullptr));
}

// The broadcast kernel. MinBlocks caps the registers (65536 / (128 MinBlocks) per thread).
// Measured on an H200 (double, docs/performance.md): lu_rows_bcast at W = 32 uncapped
// 164-174 registers (2-3 blocks) 0.43-0.53 ms, 4 blocks (128 registers, 184 bytes of
// spills) 0.41 ms, 5 and 6 blocks spill 300+ bytes: 0.94 / 1.43 ms. At W = 16: 116
// registers (4 blocks) 0.44 ms, 5 blocks 0.39 ms, 6 blocks (80 registers, ~100 bytes of
// spills) 0.36 ms.
constexpr int bcast_blocks(int W) { return W == 32 ? 4 : W == 16 ? 6 : 1; }
template <int W, class T, class AA>
__global__ void __launch_bounds__(kThreads, bcast_blocks(W))
    getrf_group_bcast(int m, int n, MatDesc dA, AA A, int *ipiv, idx sp, int *info, idx batch) {
    constexpr int E = 16 / int(sizeof(T));
    __shared__ __align__(16) T rows[2 * (kThreads + kThreads / W * E)];
    getrf_group_body<W, T, true>(m, n, dA, A, ipiv, sp, info, batch, rows);
}

template <int W, class T, class AA, class BA>
__global__ void __launch_bounds__(kThreads) getrs_group(bool trans, int n, int nrhs, MatDesc dA, AA A,
                                                        const int *ipiv, idx sp, MatDesc dB, BA B, idx batch) {
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        Mat<const T> va{nullptr, 0, 0};
        Mat<T> vb{nullptr, 0, 0};
        if (valid) {
            va = dA.global<const T>(A(item));
            if (trans) va = va.t();
            vb = dB.global(B(item));
        }
        T a[W];
#pragma unroll
        for (int c = 0; c < W; ++c) a[c] = (valid && lane < n && c < n) ? va(lane, c) : T(0);
        int mp = lane;
        if (ipiv && valid && lane < n) mp = ipiv[item * sp + lane] - 1;
        for (int c = 0; c < nrhs; ++c) {
            T b = (valid && lane < n) ? vb(lane, c) : T(0);
            if (ipiv && !trans) b = permute<W>(b, mp, n, lane, true);
            solve_rows<W>(n, a, b, lane, !trans, trans);
            if (ipiv && trans) b = permute<W>(b, mp, n, lane, false);
            if (valid && lane < n) vb(lane, c) = b;
        }
    }
}

template <int W, class T, class XA, class YA, class AA, class BA>
__global__ void __launch_bounds__(kThreads) fused_group(int n, int k, int nrhs, T alpha, MatDesc dX, XA X,
                                                        MatDesc dY, YA Y, T beta, MatDesc dA, AA A, int *ipiv,
                                                        idx sp, MatDesc dB, BA B, int *info, idx batch) {
    const bool readXY = alpha != T(0) && k > 0, readA = beta != T(0);
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        T a[W];
        product<W, T>(readXY, n, n, k, dX, X, dY, Y, item, valid, lane, a);
        Mat<T> va{nullptr, 0, 0}, vb{nullptr, 0, 0};
        if (valid) {
            va = dA.global(A(item));
            if (nrhs > 0) vb = dB.global(B(item));
        }
#pragma unroll
        for (int c = 0; c < W; ++c) {
            const T v = alpha * a[c];
            a[c] = (readA && valid && lane < n && c < n) ? v + beta * va(lane, c) : v;
        }
        int mypiv;
        const int r = lu_rows<W>(n, n, a, lane, ipiv != nullptr, mypiv);
        if (valid) {
            if (lane < n)
#pragma unroll
                for (int c = 0; c < W; ++c)
                    if (c < n) va(lane, c) = a[c];
            if (ipiv && lane < n) ipiv[item * sp + lane] = mypiv + 1;
            if (lane == 0) info[item] = r;
        }
        for (int c = 0; c < nrhs; ++c) {
            T b = (valid && lane < n) ? vb(lane, c) : T(0);
            if (ipiv) b = permute<W>(b, mypiv, n, lane, true);
            solve_rows<W>(n, a, b, lane, true, false);
            if (valid && r == 0 && lane < n) vb(lane, c) = b;
        }
    }
}

} // namespace

template <class T, class AA, class BA, class CA>
bool group_gemm(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta, MatDesc dC, CA C,
                idx batch, bool bcast, bool narrow, cudaStream_t st) {
    if (bcast && narrow && group::width(std::max(m, n)) == 16) { // n = 9..12: 12 columns
        gemm_group_bcast<16, T, 12><<<grid_for<16>(batch), kThreads, 0, st>>>(m, n, k, alpha, dA, A, dB, B, beta,
                                                                             dC, C, batch);
        return true;
    }
    if (bcast) { // (the switch macro ends in `return true`)
        KOBALT_GROUP_SWITCH(std::max(m, n), (gemm_group_bcast<W, T, W><<<grid_for<W>(batch), kThreads, 0, st>>>(
                                                m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch)))
    }
    KOBALT_GROUP_SWITCH(std::max(m, n), (gemm_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(
                                            m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch)))
}
// The full-item kernel (lu_full.cuh) on a grid of the blocks that are resident at once:
// each warp then walks several items and prefetches the next. The largest shared-memory
// carveout is asked for (W = 32 double: 34 KiB a block).
template <int W, class T, class AA, bool Pivot, bool Pad, int NC = W>
void launch_getrf_full_k(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch,
                         cudaStream_t st) {
    static const int per_sm = [] {
        const auto k = getrf_group_full<W, T, AA, Pivot, Pad, NC>;
        cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxShared));
        int b = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, kThreads, 0) != cudaSuccess || b < 1) b = 1;
        cudaGetLastError();
        return b;
    }();
    constexpr idx per_block = kThreads / W;
    const idx blocks = std::min<idx>((batch + per_block - 1) / per_block, idx(multiprocessors()) * per_sm);
    getrf_group_full<W, T, AA, Pivot, Pad, NC><<<int(std::max<idx>(1, blocks)), kThreads, 0, st>>>(
        n, dA, A, ipiv, strideIpiv, info, batch);
}
template <int W, class T, class AA, bool Pivot>
void launch_getrf_full_p(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, cudaStream_t st) {
    if (n == W) return launch_getrf_full_k<W, T, AA, Pivot, false>(n, dA, A, ipiv, strideIpiv, info, batch, st);
    with_full_columns<W>(n, [&](auto nc) {
        launch_getrf_full_k<W, T, AA, Pivot, true, decltype(nc)::value>(n, dA, A, ipiv, strideIpiv, info, batch, st);
    });
}
template <int W, class T, class AA>
void launch_getrf_full(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, cudaStream_t st) {
    if (ipiv) launch_getrf_full_p<W, T, AA, true>(n, dA, A, ipiv, strideIpiv, info, batch, st);
    else launch_getrf_full_p<W, T, AA, false>(n, dA, A, ipiv, strideIpiv, info, batch, st);
}

// The two-rows kernel (lu_two_rows.cuh), N = 16, on a grid of the blocks resident at once.
template <int N, class T, class AA, bool Pivot, bool Pad>
void launch_getrf_two_rows_k(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch,
                             cudaStream_t st) {
    constexpr int threads = two_rows_threads<N, T>();
    static const int per_sm = [] {
        const auto k = getrf_two_rows<N, T, AA, Pivot, Pad>;
        cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxShared));
        int b = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, threads, 0) != cudaSuccess || b < 1) b = 1;
        cudaGetLastError();
        return b;
    }();
    constexpr idx per_block = threads / (N / 2);
    const idx blocks = std::min<idx>((batch + per_block - 1) / per_block, idx(multiprocessors()) * per_sm);
    getrf_two_rows<N, T, AA, Pivot, Pad><<<int(std::max<idx>(1, blocks)), threads, 0, st>>>(n, dA, A, ipiv,
                                                                                          strideIpiv, info, batch);
}
template <int N, class T, class AA>
void launch_getrf_two_rows(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch,
                           cudaStream_t st) {
    const auto pad = [&](auto pivot) {
        constexpr bool P = decltype(pivot)::value;
        if (n == N) launch_getrf_two_rows_k<N, T, AA, P, false>(n, dA, A, ipiv, strideIpiv, info, batch, st);
        else launch_getrf_two_rows_k<N, T, AA, P, true>(n, dA, A, ipiv, strideIpiv, info, batch, st);
    };
    if (ipiv) pad(std::true_type{});
    else pad(std::false_type{});
}

template <class T, class AA>
bool group_getrf(int m, int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, bool bcast,
                 bool full, bool two_rows, cudaStream_t st) {
    if constexpr (sizeof(T) == 4) // float only: the one precision it won in (lu_two_rows.cuh)
        if (two_rows && m == n && n <= 16) { // (n below 16: padded with an identity)
            launch_getrf_two_rows<16, T>(n, dA, A, ipiv, strideIpiv, info, batch, st);
            return true;
        }
    if (full && m == n) { // (n below the group width: padded with an identity)
        KOBALT_GROUP_SWITCH(n, (launch_getrf_full<W, T>(n, dA, A, ipiv, strideIpiv, info, batch, st)))
    }
    if (bcast) { // (the switch macro ends in `return true`)
        KOBALT_GROUP_SWITCH(std::max(m, n), (getrf_group_bcast<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(
                                                m, n, dA, A, ipiv, strideIpiv, info, batch)))
    }
    KOBALT_GROUP_SWITCH(std::max(m, n), (getrf_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(
                                            m, n, dA, A, ipiv, strideIpiv, info, batch)))
}
template <class T, class AA, class BA>
bool group_getrs(bool trans, int n, int nrhs, MatDesc dA, AA A, const int *ipiv, idx strideIpiv, MatDesc dB,
                 BA B, idx batch, cudaStream_t st) {
    KOBALT_GROUP_SWITCH(n, (getrs_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(
                               trans, n, nrhs, dA, A, ipiv, strideIpiv, dB, B, batch)))
}
template <class T, class XA, class YA, class AA, class BA>
bool group_fused(int n, int k, int nrhs, T alpha, MatDesc dX, XA X, MatDesc dY, YA Y, T beta, MatDesc dA, AA A,
                 int *ipiv, idx strideIpiv, MatDesc dB, BA B, int *info, idx batch, cudaStream_t st) {
    KOBALT_GROUP_SWITCH(n, (fused_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(
                               n, k, nrhs, alpha, dX, X, dY, Y, beta, dA, A, ipiv, strideIpiv, dB, B, info, batch)))
}

#define KOBALT_GROUP_INSTANTIATE(T)                                                                              \
    template bool group_gemm<T>(int, int, int, T, MatDesc, Strided<const T>, MatDesc, Strided<const T>, T,     \
                                MatDesc, Strided<T>, idx, bool, bool, cudaStream_t);                           \
    template bool group_gemm<T>(int, int, int, T, MatDesc, Ptrs<const T>, MatDesc, Ptrs<const T>, T, MatDesc,  \
                                Ptrs<T>, idx, bool, bool, cudaStream_t);                                       \
    template bool group_getrf<T>(int, int, MatDesc, Strided<T>, int *, idx, int *, idx, bool, bool, bool,    \
                                  cudaStream_t);                                                             \
    template bool group_getrf<T>(int, int, MatDesc, Ptrs<T>, int *, idx, int *, idx, bool, bool, bool,       \
                                  cudaStream_t);                                                             \
    template bool group_getrs<T>(bool, int, int, MatDesc, Strided<const T>, const int *, idx, MatDesc,         \
                                 Strided<T>, idx, cudaStream_t);                                               \
    template bool group_getrs<T>(bool, int, int, MatDesc, Ptrs<const T>, const int *, idx, MatDesc, Ptrs<T>,   \
                                 idx, cudaStream_t);                                                           \
    template bool group_fused<T>(int, int, int, T, MatDesc, Strided<const T>, MatDesc, Strided<const T>, T,    \
                                 MatDesc, Strided<T>, int *, idx, MatDesc, Strided<T>, int *, idx,             \
                                 cudaStream_t);                                                                \
    template bool group_fused<T>(int, int, int, T, MatDesc, Ptrs<const T>, MatDesc, Ptrs<const T>, T, MatDesc, \
                                 Ptrs<T>, int *, idx, MatDesc, Ptrs<T>, int *, idx, cudaStream_t);
KOBALT_GROUP_INSTANTIATE(double)
KOBALT_GROUP_INSTANTIATE(float)

} // namespace kobalt_cuda
