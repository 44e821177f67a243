// lu_full.cuh -- getrf's group kernel for square items (m == n, padded to the group width W
// with an identity: n = 16 ... 32 by default, GETRF_FULL_MIN; groups.cu launches it), whose
// LU (lu_full_steps) the fused call's staged kernel shares (fused_full.cu). Against the broadcast
// kernel (lu_bcast.cuh), which ncu found latency-bound (12.5% occupancy, 0.43 eligible
// warps per scheduler at W = 32):
//  - each warp walks a grid-stride sequence of items (grid = the resident blocks) and has
//    its NEXT items copied global -> shared memory by cp.async while it factors the
//    current ones from registers, so a warp never waits for its loads after the first
//    item; the copies hold no registers. A lane copies and later reads only its own row
//    (cells c * W + lane), so no barrier orders them.
//  - the sizes are compile-time (no `c < n`, `pos < m` predicates) and the pivot row is
//    read from shared memory vector by vector inside the update (no copy of it held in
//    registers), which leaves room for more warps per SM.
//  - at W = 16 (two groups per warp) the pivot search takes the shortcut of one redux.sync
//    and one full-warp ballot when a single row holds the largest high word of |a| (the
//    usual case); only on a tie of the high words does it run lu_bcast.cuh's (hi, lo,
//    first row) reductions. On an H200 that took n = 16 from 0.299 to 0.263 ms; at W = 32
//    the three reductions were faster (0.315 against 0.320 ms), so W = 32 keeps them.
//    The pivot's logical row comes with its row through shared memory.
// Semantics are lu_rows_bcast's (dgetf2 pivots, ties to the first logical row, NaN rules,
// info = first zero pivot; without pivots info from the diagonal at the end).
#ifndef KOBALT_CUDA_LU_FULL_CUH
#define KOBALT_CUDA_LU_FULL_CUH

#include <cuda_pipeline.h>

#include <type_traits>

#include "lu_bcast.cuh"

namespace kobalt_cuda {
namespace group {

template <class T> __device__ __forceinline__ T int_bits(int v);
template <> __device__ __forceinline__ double int_bits<double>(int v) { return __longlong_as_double((long long)v); }
template <> __device__ __forceinline__ float int_bits<float>(int v) { return __int_as_float(v); }
__device__ __forceinline__ int bits_int(double v) { return int(__double_as_longlong(v)); }
__device__ __forceinline__ int bits_int(float v) { return __float_as_int(v); }

// The group-relative lane holding the pivot row (see pivot_of in lu_bcast.cuh for the key).
// Executed by all 32 lanes of the warp (the ballot names them all).
template <int W, bool Shortcut>
__device__ __forceinline__ int pivot_lane(double aj, bool cand, bool diag, unsigned tag, unsigned mask,
                                          unsigned shift) {
    if (!Shortcut) return int(pivot_of(aj, cand, diag, tag, mask) & 31u);
    unsigned long long k = 0;
    if (cand) k = isnan(aj) ? (diag ? ~0ull : 0ull) : (unsigned long long)__double_as_longlong(fabs(aj)) + 1;
    const unsigned hi = unsigned(k >> 32), lo = unsigned(k);
    const unsigned mhi = __reduce_max_sync(mask, hi);
    const unsigned top = (__ballot_sync(kFull, hi == mhi) & mask) >> shift;
    if ((top & (top - 1)) == 0) return __ffs(int(top)) - 1; // one row holds the largest high word
    const unsigned mlo = __reduce_max_sync(mask, hi == mhi ? lo : 0u);
    return int(__reduce_min_sync(mask, hi == mhi && lo == mlo ? tag : ~0u) & 31u);
}
template <int W, bool Shortcut>
__device__ __forceinline__ int pivot_lane(float aj, bool cand, bool diag, unsigned tag, unsigned mask, unsigned) {
    return int(pivot_of(aj, cand, diag, tag, mask) & 31u);
}

// Elements of one of lu_full's two row buffers: the row, then the tail (the pivot's
// reciprocal, its logical row and, with a right-hand side, the pivot row's b at W + 2).
template <int W, class T, bool Rhs> __host__ __device__ constexpr int lu_full_row() {
    return W + (Rhs && sizeof(T) == 8 ? 2 : 1) * (16 / int(sizeof(T)));
}

// dgetf2 on a W x W item, lane i holding row i in a (lu_rows_bcast with m = n = W).
// buf: 2 lu_full_row<W, T, Rhs>() elements of 16-byte aligned shared memory for this group
// (two row buffers alternating by step).
// Rhs (the fused call, fused_full.cu): rhs is this row's entry of b, eliminated with the row
// (b_i -= l_ij b_j at step j, the forward solve L y = P b of dgetrs in its order: lane i's b
// belongs to the row it holds, so P needs no interchange), and diag gets U(pos, pos), the
// pivot of the step this row became.
// steps < W (the fused call's n < W, padded with an identity): only the first `steps` steps.
template <int W, class T, bool pivot, bool Rhs, int NC>
__device__ __forceinline__ int lu_full_steps(T (&a)[NC], int lane, int &mypiv, int &pos, T *buf, T &rhs, T &diag,
                                             int steps) {
    using V = typename Vec16<T>::type;
    constexpr int E = int(sizeof(V) / sizeof(T));
    constexpr int RS = lu_full_row<W, T, Rhs>();
    static_assert(W % E == 0 && NC % E == 0 && NC <= W, "widths: multiples of the vector width");
    const unsigned group_shift = (threadIdx.x & 31) / W * W;
    const unsigned group_mask = W == 32 ? kFull : ((1u << (W & 31)) - 1) << group_shift;
    int info = 0;
    pos = lane;
    mypiv = lane;
#pragma unroll
    for (int j = 0; j < NC; ++j) {
        if (j >= steps) break;
        T aj = a[j];
        const T rj = pivot ? T(1) / aj : T(0); // off the critical path, as in lu_bcast.cuh
        int plane = j;
        if (pivot) plane = pivot_lane<W, (W < 32)>(aj, pos >= j, pos == j, unsigned(pos * 32 + lane), group_mask, group_shift);
        T *row = buf + (j & 1) * RS;
        const int v0 = j / E * E;
        if (lane == plane) {
            V tail{};
            T *e = reinterpret_cast<T *>(&tail);
            e[0] = rj;
            e[1] = int_bits<T>(pos);
            if constexpr (Rhs && E > 2) e[2] = rhs;
            put_pivot_row<W, E>(row, a, v0, tail);
            if constexpr (Rhs && E == 2) row[W + 2] = rhs;
        }
        __syncwarp();
        const V tail = *reinterpret_cast<const V *>(row + W);
        const T rp = reinterpret_cast<const T *>(&tail)[0];
        const int p = pivot ? bits_int(reinterpret_cast<const T *>(&tail)[1]) : j;
        const T pv = row[j];
        if (pivot) exchange_labels(lane, j, p, plane, pv != T(0), mypiv, pos);
        const bool below = pos > j;
        if (Rhs && pos == j) diag = pv;
        aj = lu_multiplier(aj, pv, rp, pivot, below, j, info); // rp == 1 / pv
        a[j] = aj;
        if (below) {
#pragma unroll
            for (int c = 0; c < NC; c += E)
                if (c + E > j + 1) { // the vectors holding columns j + 1 on, one at a time
                    const V v = *reinterpret_cast<const V *>(row + c);
                    const T *e = reinterpret_cast<const T *>(&v);
#pragma unroll
                    for (int q = 0; q < E; ++q)
                        if (c + q > j) a[c + q] -= aj * e[q];
                }
            if (Rhs) rhs -= aj * row[W + 2];
        }
    }
    if (!pivot) {
        const bool z = lane < steps && get(a, lane) == T(0);
        const unsigned bal = __ballot_sync(kFull, z);
        const unsigned g = (bal & group_mask) >> group_shift;
        info = g ? __ffs(int(g)) : 0;
    }
    return info;
}

// An item of n < W padded to its group: lanes n .. W-1 (whose other entries are zero) get a 1
// on their diagonal, so that the padding is an identity block.
template <int W, class T, int NC> __device__ __forceinline__ void pad_identity(T (&a)[NC], int lane, int n) {
    if (n < W)
#pragma unroll
        for (int c = 0; c < NC; ++c)
            if (c == lane && lane >= n) a[c] = T(1);
}
// This lane's factored row (lanes < n) at its final logical place pos, its first n columns.
template <class T, int NC> __device__ __forceinline__ void store_row(const Mat<T> &v, const T (&a)[NC], int pos, int n) {
#pragma unroll
    for (int c = 0; c < NC; ++c)
        if (c < n) v(pos, c) = a[c];
}

// Blocks per SM the register cap aims at (65536 / (kThreads * blocks) registers a thread).
// ptxas (sm_90, double, pivoting): W = 32 at 5 blocks 96 registers, 12 bytes of spills (6
// blocks: 80 registers, 292 bytes; 4 blocks: 128, none); W = 16 at 7 blocks 72 registers,
// 8 bytes (8 blocks: 64, 32 bytes; 6 blocks: 80, none). On an H200: W = 32 4 blocks 0.365
// ms against 0.345 at 5; W = 16 8 blocks 0.288 against 0.277 at 7, 6 blocks 0.267 against
// 0.263 at 7 (docs/performance.md). A padded item below W holds NC = n rounded up to 4
// columns (12; 20, 24, 28): at NC = 20 and 24 the smaller footprint fits 6 blocks (80
// registers, 8 and 24 bytes of spills), at 28 it stays at 5 (96 registers, 12 bytes).
constexpr int full_blocks(int W, int NC) { return W == 32 ? (NC >= 28 ? 5 : 6) : 7; }

// The columns a lane holds for an item of order n in a group of W lanes: n rounded up to 4
// below W where that instance exists (12 at W = 16; 20, 24, 28 at W = 32), else W (and W
// at every other group width). getrf's
// launcher (groups.cu) and the fused call's (fused_full.cu) both choose through this, so
// the two kernels always hold the same columns: f is called with
// std::integral_constant<int, NC> and its result returned.
template <int W, class F> __host__ decltype(auto) with_full_columns(int n, F &&f) {
    if constexpr (W == 16) {
        if (n <= 12) return f(std::integral_constant<int, 12>{});
    } else if constexpr (W == 32) {
        if (n <= 20) return f(std::integral_constant<int, 20>{});
        if (n <= 24) return f(std::integral_constant<int, 24>{});
        if (n <= 28) return f(std::integral_constant<int, 28>{});
    }
    return f(std::integral_constant<int, W>{});
}

// n < W: the item is padded with an identity (cells past n stay zero in `next`, lanes >= n
// get a 1 on their diagonal) and only n steps run, as in fused_full.cu: the padding is never
// a candidate pivot row (its entries in the first n columns are zero and its logical rows
// come after the item's), so it changes neither the factors nor the pivots nor info.
// Pad false: n == W, a constant (the code of n = 16 and 32 before padding, which ptxas then
// compiles with fewer registers and spills).
template <int W, class T, class AA, bool Pivot, bool Pad, int NC = W>
__global__ void __launch_bounds__(kThreads, full_blocks(W, NC))
    getrf_group_full(int n_items, MatDesc dA, AA A, int *ipiv, idx sp, int *info, idx batch) {
    const int n = Pad ? n_items : W;
    constexpr int G = kThreads / W; // items per block
    __shared__ __align__(16) T next[G][NC * W];
    __shared__ __align__(16) T rows[G][2 * lu_full_row<W, T, false>()];
    const int g = int(threadIdx.x) / W, lane = int(threadIdx.x) % W;
    T *mine = next[g];
    // the cells no copy writes (a lane copies and reads only its own cells c * W + lane)
#pragma unroll
    for (int c = 0; c < NC; ++c)
        if (lane >= n || c >= n) mine[c * W + lane] = T(0);
    const idx stride = idx(gridDim.x) * G;
    const auto issue = [&](idx item) {
        if (item < batch && lane < n) {
            const Mat<T> v = dA.global(A(item));
#pragma unroll
            for (int c = 0; c < NC; ++c)
                if (c < n) __pipeline_memcpy_async(mine + c * W + lane, &v(lane, c), sizeof(T));
        }
        __pipeline_commit();
    };
    issue(idx(blockIdx.x) * G + g);
    // every lane of a block runs the same number of iterations
    for (idx base = idx(blockIdx.x) * G; base < batch; base += stride) {
        const idx item = base + g;
        const bool valid = item < batch;
        __pipeline_wait_prior(0);
        T a[NC];
#pragma unroll
        for (int c = 0; c < NC; ++c) a[c] = valid ? mine[c * W + lane] : T(0);
        issue(item + stride); // this lane's own cells, just read
        pad_identity<W>(a, lane, n);
        int mypiv, pos;
        T none = T(0), diag = T(0);
        const int r = lu_full_steps<W, T, Pivot, false>(a, lane, mypiv, pos, rows[g], none, diag, n);
        if (valid) {
            if (lane < n) {
                store_row(dA.global(A(item)), a, pos, n);
                if (Pivot) ipiv[item * sp + lane] = mypiv + 1;
            }
            if (lane == 0) info[item] = r;
        }
    }
}

} // namespace group
} // namespace kobalt_cuda

#endif
