// lu_pair.cu -- getrf's full-item kernel with two rows a lane (lu_pair.cuh has the LU
// steps and the reasons) and its launch on the resident grid; groups.cu calls
// launch_getrf_pair from GETRF_PAIR_MIN on.
#include <algorithm>
#include <type_traits>

#include "lu_pair.cuh"
#include "lu_pair_launch.cuh"

namespace kobalt_cuda {
namespace group {

// Blocks per SM the register cap aims at, and threads a block (W = 32: 64, so that the
// block's `next` buffers stay within the 48 KiB of static shared memory).
template <int W> constexpr int pair_threads() { return W == 32 ? 64 : 128; }
template <int W> constexpr int pair_blocks() { return 4; }

// As getrf_group_full (lu_full.cuh), two rows a lane. Pad false: n == W, a constant; S: the
// steps the LU runs (lu_pair_steps), W or, for n <= 3W/4, 3W/4.
template <int W, class T, class AA, bool Pivot, bool Pad, int S, int Blocks>
__global__ void __launch_bounds__(pair_threads<W>(), Blocks)
    getrf_group_pair(int n_items, MatDesc dA, AA A, int *ipiv, idx sp, int *info, idx batch) {
    const int n = Pad ? n_items : W;
    constexpr int L = W / 2;
    constexpr int G = pair_threads<W>() / L; // items per block
    constexpr int E = int(sizeof(typename Vec16<T>::type) / sizeof(T));
    using V2 = typename Vec2<T>::type;
    // float: 16 elements between items, so that a half warp's 8-byte loads (two items) fall
    // in different banks; double's 16-byte loads go by quarter warps (one item each)
    constexpr int K = W * W + (sizeof(T) == 4 ? 16 : 0); // elements an item
    __shared__ __align__(16) T next[G][K];
    __shared__ __align__(16) T rows[G][2 * (W + E)];
    const int g = int(threadIdx.x) / L, l = int(threadIdx.x) % L;
    const int r0 = 2 * l, r1 = 2 * l + 1;
    T *mine = next[g];
    // the cells no copy writes (a lane copies and reads only its rows' cells c * W + r0, r1)
#pragma unroll
    for (int c = 0; c < W; ++c) {
        if (r0 >= n || c >= n) mine[c * W + r0] = T(0);
        if (r1 >= n || c >= n) mine[c * W + r1] = T(0);
    }
    const idx stride = idx(gridDim.x) * G;
    const auto issue = [&](idx item) {
        if (item < batch) {
            const Mat<T> v = dA.global(A(item));
#pragma unroll
            for (int c = 0; c < W; ++c)
                if (c < n) {
                    if (r0 < n) __pipeline_memcpy_async(mine + c * W + r0, &v(r0, c), sizeof(T));
                    if (r1 < n) __pipeline_memcpy_async(mine + c * W + r1, &v(r1, c), sizeof(T));
                }
        }
        __pipeline_commit();
    };
    issue(idx(blockIdx.x) * G + g);
    // every lane of a block runs the same number of iterations
    for (idx base = idx(blockIdx.x) * G; base < batch; base += stride) {
        const idx item = base + g;
        const bool valid = item < batch;
        __pipeline_wait_prior(0);
        T a0[W], a1[W];
#pragma unroll
        for (int c = 0; c < W; ++c) {
            const V2 v = valid ? *reinterpret_cast<const V2 *>(mine + c * W + r0) : V2{};
            a0[c] = v.x;
            a1[c] = v.y;
        }
        issue(item + stride); // this lane's own cells, just read
        if (Pad) // the padding rows get a 1 on their diagonal: an identity block
#pragma unroll
            for (int c = 0; c < W; ++c) {
                if (c == r0 && r0 >= n) a0[c] = T(1);
                if (c == r1 && r1 >= n) a1[c] = T(1);
            }
        int piv0, piv1, pos0, pos1;
        const int r = lu_pair_steps<W, S, T, Pivot>(a0, a1, l, piv0, piv1, pos0, pos1, rows[g], n);
        if (valid) {
            const Mat<T> v = dA.global(A(item));
            if (r0 < n) {
                store_row(v, a0, pos0, n);
                if (Pivot) ipiv[item * sp + r0] = piv0 + 1;
            }
            if (r1 < n) {
                store_row(v, a1, pos1, n);
                if (Pivot) ipiv[item * sp + r1] = piv1 + 1;
            }
            if (l == 0) info[item] = r;
        }
    }
}

} // namespace group

// The resident grid, as launch_getrf_full_k (groups.cu): each warp walks several items and
// prefetches the next; the largest shared-memory carveout is asked for.
template <int W, class T, class AA, bool Pivot, bool Pad, int S, int Blocks>
static void launch_pair_b(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch,
                          cudaStream_t st) {
    using namespace group;
    constexpr int threads = pair_threads<W>();
    static const int per_sm = [] {
        const auto k = getrf_group_pair<W, T, AA, Pivot, Pad, S, Blocks>;
        cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxShared));
        int b = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, threads, 0) != cudaSuccess || b < 1) b = 1;
        cudaGetLastError();
        return b;
    }();
    constexpr idx per_block = threads / (W / 2);
    const idx blocks = std::min<idx>((batch + per_block - 1) / per_block, idx(multiprocessors()) * per_sm);
    getrf_group_pair<W, T, AA, Pivot, Pad, S, Blocks><<<int(std::max<idx>(1, blocks)), threads, 0, st>>>(n, dA, A, ipiv,
                                                                                            strideIpiv, info, batch);
}

// TEMPORARY A/B: GETRF_PAIR_CAP 1 / 3 = register caps for 3 / 5 blocks an SM (W = 16, 32);
// else the default (4)
template <int W, class T, class AA, bool Pivot, bool Pad, int S>
static void launch_pair_k(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch,
                          cudaStream_t st) {
    if constexpr (W >= 16 && std::is_same<AA, Strided<T>>::value) {
        const kobalt_int cap = threshold(GETRF_PAIR_CAP);
        if (cap == 1) return launch_pair_b<W, T, AA, Pivot, Pad, S, 3>(n, dA, A, ipiv, strideIpiv, info, batch, st);
        if (cap == 3) return launch_pair_b<W, T, AA, Pivot, Pad, S, 5>(n, dA, A, ipiv, strideIpiv, info, batch, st);
    }
    launch_pair_b<W, T, AA, Pivot, Pad, S, group::pair_blocks<W>()>(n, dA, A, ipiv, strideIpiv, info, batch, st);
}

template <int W, class T, class AA, bool Pivot>
static void launch_pair_p(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch,
                          cudaStream_t st) {
    constexpr int S3 = 3 * W / 4;
    if (n == W) launch_pair_k<W, T, AA, Pivot, false, W>(n, dA, A, ipiv, strideIpiv, info, batch, st);
    else if (n <= S3) launch_pair_k<W, T, AA, Pivot, true, S3>(n, dA, A, ipiv, strideIpiv, info, batch, st);
    else launch_pair_k<W, T, AA, Pivot, true, W>(n, dA, A, ipiv, strideIpiv, info, batch, st);
}

template <int W, class T, class AA>
void launch_getrf_pair(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, cudaStream_t st) {
    if (ipiv) launch_pair_p<W, T, AA, true>(n, dA, A, ipiv, strideIpiv, info, batch, st);
    else launch_pair_p<W, T, AA, false>(n, dA, A, ipiv, strideIpiv, info, batch, st);
}

#define KOBALT_PAIR_INSTANTIATE(W, T)                                                                        \
    template void launch_getrf_pair<W, T, Strided<T>>(int, MatDesc, Strided<T>, int *, idx, int *, idx,      \
                                                      cudaStream_t);                                         \
    template void launch_getrf_pair<W, T, Ptrs<T>>(int, MatDesc, Ptrs<T>, int *, idx, int *, idx, cudaStream_t);
KOBALT_PAIR_INSTANTIATE(4, float)
KOBALT_PAIR_INSTANTIATE(8, float)
KOBALT_PAIR_INSTANTIATE(16, float)
KOBALT_PAIR_INSTANTIATE(32, float)
KOBALT_PAIR_INSTANTIATE(4, double)
KOBALT_PAIR_INSTANTIATE(8, double)
KOBALT_PAIR_INSTANTIATE(16, double)
KOBALT_PAIR_INSTANTIATE(32, double)

} // namespace kobalt_cuda
