// lu_two_rows.cuh -- getrf on square float items of order n <= 16 (groups.cu launches it for
// GETRF_TWO_ROWS_MIN_FLOAT <= n <= GETRF_TWO_ROWS_MAX_FLOAT) with TWO rows per lane: W = 8
// lanes an item, lane l holding rows l and l + 8, so that a warp factors four items at once
// (lu_full.cuh: 16 lanes, one row each, two items a warp). The code is written for any even
// N <= 32 and either precision; only N = 16 in float is built, the one case it won.
//
// Why: in lu_full.cuh a step's pivot search, pivot-row store and broadcast loads, label
// exchange and branches are paid per row; with two rows a lane the search and the loads of
// the pivot row are paid once for two rows, and the two rows' updates are independent.
// Measured on an H200 against lu_full.cuh (docs/performance.md, "getrf with two rows a lane",
// session 41): float n = 16 1.14x faster (0.317 against 0.361 ms, 256 MiB), n = 9 1.06x, n = 12
// level; double n = 16 0.78-0.84x and n = 17 ... 32 (N = 32) 0.27-0.67x in both precisions:
// a double item's 32 rows-worth of registers halves the warps an SM holds (128 or 170
// registers, 4 or 3 blocks against lu_full's 7) and ncu counted only 6% fewer instructions
// for the same items, the integer work of the second row's key and predicates taking back
// what the search saved.
//
// A step: each lane picks the better of its two rows by the full search key (pivot_of's
// order: the first largest |a| among candidates, a NaN only on the diagonal), then the group
// finds the lane with the largest key by shuffles (the high words first; the full key and the
// first logical row only when two lanes tie on the high word, taken by the whole warp so
// that every shuffle runs on all 32 lanes). The pivot lane stores that row and its tail
// (reciprocal, logical row) in shared memory; every lane reads it back vector by vector
// inside the update, as in lu_full.cuh. Interchanges stay lazy (labels pos0 / pos1), each
// row is stored at its final place at the end.
//
// As lu_full.cuh: a grid of resident blocks, each group's next item copied into shared
// memory by cp.async while it factors the current one (a lane copies and reads only its own
// cells, so no barrier), items below N padded with an identity (only n steps run, the padding
// never becomes a pivot row). Semantics are lu_rows_bcast's (dgetf2 pivots, ties to the
// first logical row, NaN rules, info = first zero pivot; without pivots info from the
// diagonal at the end).
#ifndef KOBALT_CUDA_LU_TWO_ROWS_CUH
#define KOBALT_CUDA_LU_TWO_ROWS_CUH

#include <cuda_pipeline.h>

#include <type_traits>

#include "lu_full.cuh"

namespace kobalt_cuda {
namespace group {

// The search key of one row's entry in the pivot column (pivot_of in lu_bcast.cuh): 0 for a
// non-candidate or an off-diagonal NaN, all ones for a NaN on the diagonal, else the bits of
// |a| plus one (a non-negative floating-point value orders like its bits).
__device__ __forceinline__ unsigned long long search_key(double a, bool cand, bool diag) {
    if (!cand) return 0;
    return isnan(a) ? (diag ? ~0ull : 0ull) : (unsigned long long)__double_as_longlong(fabs(a)) + 1;
}
__device__ __forceinline__ unsigned search_key(float a, bool cand, bool diag) {
    if (!cand) return 0;
    return isnan(a) ? (diag ? ~0u : 0u) : __float_as_uint(fabsf(a)) + 1;
}

template <int W, class K> __device__ __forceinline__ K group_max(K v) {
#pragma unroll
    for (int m = W / 2; m > 0; m /= 2) {
        const K o = __shfl_xor_sync(kFull, v, m, W);
        v = o > v ? o : v;
    }
    return v;
}
template <int W> __device__ __forceinline__ int group_min(int v) {
#pragma unroll
    for (int m = W / 2; m > 0; m /= 2) v = min(v, __shfl_xor_sync(kFull, v, m, W));
    return v;
}

// The group-relative lane whose best row (key, logical row pos) is the pivot: the largest key,
// on equal keys the smallest pos. Executed by all 32 lanes (every shuffle, every vote).
template <int W, class K> __device__ __forceinline__ int two_rows_pivot_lane(K key, int pos, unsigned shift) {
    constexpr unsigned gbits = W == 32 ? kFull : (1u << W) - 1;
    const unsigned hi = unsigned(key >> (8 * sizeof(K) - 32));
    const unsigned mhi = group_max<W>(hi);
    const unsigned top = (__ballot_sync(kFull, hi == mhi) >> shift) & gbits;
    // usually one lane holds the largest high word; else (ties, zero columns) every group
    // takes the exact path, so that its shuffles run on the whole warp
    if (!__any_sync(kFull, (top & (top - 1)) != 0)) return __ffs(int(top)) - 1;
    const K mk = group_max<W>(key);
    const int first = group_min<W>(key == mk ? pos : 0x7fffffff);
    return __ffs(int((__ballot_sync(kFull, key == mk && pos == first) >> shift) & gbits)) - 1;
}

// Threads and blocks per SM (the register cap: 65536 / (threads * blocks) registers a thread).
// ptxas (sm_90), N = 16 float, under 5 blocks' cap (96 registers): strided items 75-88
// registers, no spills; pointer arrays with padding (n < 16) 96 and 104-184 bytes of spills,
// unpadded 75-79, none. 19 KB of shared memory a block at 128 threads. (N = 32 needs 64 threads a block to stay within
// 48 KB of static shared memory in double.)
template <int N, class T> __host__ __device__ constexpr int two_rows_threads() { return N <= 16 ? 128 : 64; }
template <int N, class T> __host__ __device__ constexpr int two_rows_blocks() { return 5; }

// dgetf2 on an N x N item held as rows (a0: row lane, a1: row lane + W). buf: two row buffers
// of N + E elements (E = elements per 16 bytes), 16-byte aligned. Returns info; mypiv0/1: the
// 0-based pivot row of steps lane and lane + W; pos0/1: the logical rows a0 and a1 hold.
template <int N, class T, bool Pivot>
__device__ __forceinline__ int lu_two_rows_steps(T (&a0)[N], T (&a1)[N], int lane, int &mypiv0, int &mypiv1,
                                                 int &pos0, int &pos1, T *buf, int steps) {
    using V = typename Vec16<T>::type;
    using K = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
    constexpr int W = N / 2;
    constexpr int E = int(sizeof(V) / sizeof(T));
    constexpr int RS = N + E;
    const unsigned shift = (threadIdx.x & 31) / W * W;
    int info = 0;
    pos0 = lane;
    pos1 = lane + W;
    mypiv0 = lane;
    mypiv1 = lane + W;
#pragma unroll
    for (int j = 0; j < N; ++j) {
        if (j >= steps) break;
        const T x0 = a0[j], x1 = a1[j];
        bool r = j >= W; // without pivoting row j is a1 of lane j - W
        int plane = j % W, p = j;
        T xb = r ? x1 : x0;
        if (Pivot) {
            const K k0 = search_key(x0, pos0 >= j, pos0 == j), k1 = search_key(x1, pos1 >= j, pos1 == j);
            r = k1 > k0 || (k1 == k0 && pos1 < pos0);
            xb = r ? x1 : x0;
            plane = two_rows_pivot_lane<W>(r ? k1 : k0, r ? pos1 : pos0, shift);
        }
        const T rb = Pivot ? T(1) / xb : T(0); // this lane's candidate's reciprocal, during the search
        T *row = buf + (j & 1) * RS;
        const int v0 = j / E * E;
        if (lane == plane) {
            V tail{};
            T *e = reinterpret_cast<T *>(&tail);
            e[0] = rb;
            e[1] = int_bits<T>(r ? pos1 : pos0);
            if (r) put_pivot_row<N, E>(row, a1, v0, tail);
            else put_pivot_row<N, E>(row, a0, v0, tail);
        }
        __syncwarp();
        const V tail = *reinterpret_cast<const V *>(row + N);
        const T rp = reinterpret_cast<const T *>(&tail)[0];
        if (Pivot) p = bits_int(reinterpret_cast<const T *>(&tail)[1]);
        const T pv = row[j];
        if (Pivot) { // exchange_labels (group_ops.cuh) for two rows a lane
            if (lane == j) mypiv0 = p;
            if (lane + W == j) mypiv1 = p;
            if (pv != T(0) && p != j) {
                const bool me = lane == plane;
                if (pos0 == j) pos0 = p;
                else if (me && !r) pos0 = j;
                if (pos1 == j) pos1 = p;
                else if (me && r) pos1 = j;
            }
        }
        const bool below0 = pos0 > j, below1 = pos1 > j;
        const T l0 = lu_multiplier(x0, pv, rp, Pivot, below0, j, info); // rp == 1 / pv
        const T l1 = lu_multiplier(x1, pv, rp, Pivot, below1, j, info);
        a0[j] = l0;
        a1[j] = l1;
#pragma unroll
        for (int c = 0; c < N; c += E)
            if (c + E > j + 1) { // the vectors holding columns j + 1 on, one at a time
                const V v = *reinterpret_cast<const V *>(row + c);
                const T *e = reinterpret_cast<const T *>(&v);
#pragma unroll
                for (int q = 0; q < E; ++q)
                    if (c + q > j) {
                        if (below0) a0[c + q] -= l0 * e[q];
                        if (below1) a1[c + q] -= l1 * e[q];
                    }
            }
    }
    if (!Pivot) {
        const unsigned gbits = W == 32 ? kFull : (1u << W) - 1;
        const bool z0 = lane < steps && get(a0, lane) == T(0);
        const bool z1 = lane + W < steps && get(a1, lane + W) == T(0);
        const unsigned b0 = (__ballot_sync(kFull, z0) >> shift) & gbits;
        const unsigned b1 = (__ballot_sync(kFull, z1) >> shift) & gbits;
        const unsigned z = b0 | (b1 << W);
        info = z ? __ffs(int(z)) : 0;
    }
    return info;
}

template <int N, class T, class AA, bool Pivot, bool Pad>
__global__ void __launch_bounds__(two_rows_threads<N, T>(), two_rows_blocks<N, T>())
    getrf_two_rows(int n_items, MatDesc dA, AA A, int *ipiv, idx sp, int *info, idx batch) {
    constexpr int W = N / 2;
    constexpr int G = two_rows_threads<N, T>() / W; // items per block
    constexpr int S = N * N + W; // an item's cells; the W pads keep the groups of a warp on different banks
    constexpr int RS = N + int(sizeof(typename Vec16<T>::type) / sizeof(T));
    const int n = Pad ? n_items : N;
    __shared__ __align__(16) T next[G][S];
    __shared__ __align__(16) T rows[G][2 * RS];
    const int g = int(threadIdx.x) / W, lane = int(threadIdx.x) % W;
    T *mine = next[g];
    const int r0 = lane, r1 = lane + W;
    // the cells no copy writes (a lane copies and reads only its own cells c * N + r0 / r1)
#pragma unroll
    for (int c = 0; c < N; ++c) {
        if (r0 >= n || c >= n) mine[c * N + r0] = T(0);
        if (r1 >= n || c >= n) mine[c * N + r1] = T(0);
    }
    const idx stride = idx(gridDim.x) * G;
    const auto issue = [&](idx item) {
        if (item < batch) {
            const Mat<T> v = dA.global(A(item));
#pragma unroll
            for (int c = 0; c < N; ++c)
                if (c < n) {
                    if (r0 < n) __pipeline_memcpy_async(mine + c * N + r0, &v(r0, c), sizeof(T));
                    if (r1 < n) __pipeline_memcpy_async(mine + c * N + r1, &v(r1, c), sizeof(T));
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
        T a0[N], a1[N];
#pragma unroll
        for (int c = 0; c < N; ++c) {
            a0[c] = valid ? mine[c * N + r0] : T(0);
            a1[c] = valid ? mine[c * N + r1] : T(0);
        }
        issue(item + stride); // this lane's own cells, just read
        if (Pad) {
#pragma unroll
            for (int c = 0; c < N; ++c) {
                if (c == r0 && r0 >= n) a0[c] = T(1);
                if (c == r1 && r1 >= n) a1[c] = T(1);
            }
        }
        int mypiv0, mypiv1, pos0, pos1;
        const int r = lu_two_rows_steps<N, T, Pivot>(a0, a1, lane, mypiv0, mypiv1, pos0, pos1, rows[g], n);
        if (valid) {
            const Mat<T> v = dA.global(A(item));
            if (r0 < n) {
                store_row(v, a0, pos0, n);
                if (Pivot) ipiv[item * sp + r0] = mypiv0 + 1;
            }
            if (r1 < n) {
                store_row(v, a1, pos1, n);
                if (Pivot) ipiv[item * sp + r1] = mypiv1 + 1;
            }
            if (lane == 0) info[item] = r;
        }
    }
}

} // namespace group
} // namespace kobalt_cuda

#endif
