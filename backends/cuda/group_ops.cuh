// group_ops.cuh -- the building blocks of the "group" kernels (docs/cuda.md): W = 4, 8,
// 16 or 32 lanes of one warp work on one item, lane i holding row i of the item's
// matrix in registers. Shuffles, register selects, the launch shape, dgetf2 on the rows
// (lu_rows), the triangular solves (solve_rows) and row interchanges (permute). Used by
// groups.cu (gemm, getrf, getrs, fused call) and inverse.cu (getri, matinv).
// Every shuffle is executed by all 32 lanes of a warp: per-item conditions only
// predicate arithmetic and memory accesses, never a shuffle.
#ifndef KOBALT_CUDA_GROUP_OPS_CUH
#define KOBALT_CUDA_GROUP_OPS_CUH

#include <algorithm>

#include "groups.cuh"

namespace kobalt_cuda {
namespace group {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 128;

template <int W, class T> __device__ __forceinline__ T shf(T v, int src) { return __shfl_sync(kFull, v, src, W); }
template <int W, class T> __device__ __forceinline__ T shx(T v, int m) { return __shfl_xor_sync(kFull, v, m, W); }

template <int W, class T> __device__ __forceinline__ T get(const T (&a)[W], int j) {
    T v = T(0);
#pragma unroll
    for (int c = 0; c < W; ++c)
        if (c == j) v = a[c];
    return v;
}
template <int W, class T> __device__ __forceinline__ void put(T (&a)[W], int j, T v) {
#pragma unroll
    for (int c = 0; c < W; ++c)
        if (c == j) a[c] = v;
}

// The 16-byte vector of T (shared-memory broadcasts: lu_bcast.cuh, gemm_bcast.cuh).
template <class T> struct Vec16;
template <> struct Vec16<double> { using type = double2; };
template <> struct Vec16<float> { using type = float4; };

template <int W> int grid_for(idx batch) {
    const idx per_block = kThreads / W;
    const idx blocks = (batch + per_block - 1) / per_block;
    const idx cap = idx(multiprocessors()) * (2048 / kThreads) * 8;
    return int(std::max<idx>(1, std::min(blocks, cap)));
}

// Every lane of a block runs the same number of iterations (base is per block).
#define KOBALT_GROUP_LOOP(W)                                                                   \
    const int lane = int(threadIdx.x) % W;                                                      \
    const idx per_block = blockDim.x / W;                                                       \
    for (idx base = idx(blockIdx.x) * per_block; base < batch; base += idx(gridDim.x) * per_block)

// Step j's interchange, done lazily: lane j records the pivot row p (for ipiv) and the
// logical labels of rows j and p are exchanged (plane: the lane holding row p). A zero
// pivot exchanges nothing, as dgetf2.
__device__ __forceinline__ void exchange_labels(int lane, int j, int p, int plane, bool nonzero, int &mypiv,
                                                int &pos) {
    if (lane == j) mypiv = p;
    if (nonzero && p != j) {
        if (pos == j) pos = p;
        else if (lane == plane) pos = j;
    }
}

// Step j of dgetf2 for one row's entry aj in the pivot column, pv the pivot, rp = 1 / pv
// (computed where it costs least), below: the row is below the pivot row. Without
// pivoting the entry is divided (info then comes from U's diagonal at the end); a zero
// pivot records info = j + 1 (the first only) and leaves the column unscaled; otherwise
// dgetf2's scaling rule (dgetf2_scale in common.cuh).
template <class T>
__device__ __forceinline__ T lu_multiplier(T aj, T pv, T rp, bool pivot, bool below, int j, int &info) {
    if (!pivot) return below ? aj / pv : aj;
    if (pv == T(0)) {
        if (info == 0) info = j + 1;
        return aj;
    }
    return below ? dgetf2_scale(aj, pv, rp) : aj;
}

// dgetf2 on rows in registers (lane i: row i, a[c] = A(i,c)); returns info, sets mypiv
// (0-based pivot row of step `lane`). pivot false: no interchanges, info = first zero U(j,j).
//
// Row interchanges are lazy: a lane keeps its row and only its logical row number `pos`
// changes (swapping rows j and p swaps two labels, no data moves), so a step costs the
// pivot reduction, one ballot and the broadcasts of the pivot row. One permutation at the
// end puts row i back into lane i. The step loop is unrolled (W is a template constant) so
// every register index is static.
template <int W, class T> __device__ int lu_rows(int m, int n, T (&a)[W], int lane, bool pivot, int &mypiv) {
    const int kmin = m < n ? m : n;
    const unsigned group_shift = (threadIdx.x & 31) / W * W;
    const unsigned group_mask = W == 32 ? kFull : ((1u << (W & 31)) - 1) << group_shift;
    int info = 0;
    int pos = lane; // logical row held by this lane
    mypiv = lane;
#pragma unroll
    for (int j = 0; j < W; ++j) {
        if (j >= kmin) break;
        T aj = a[j];
        int p = j, plane = j; // pivot row (logical) and the lane holding it
        if (pivot) {
            // first largest |a| at or below the diagonal, NaNs never chosen except on the
            // diagonal (dgetf2's sequential "v > amax" scan starting from |A(j,j)|); ties go
            // to the smaller logical row, which the packed (pos, lane) index orders
            T key;
            if (pos < j || pos >= m) key = T(-2);
            else if (isnan(aj)) key = pos == j ? T(INFINITY) : T(-1);
            else key = fabs(aj);
            int ki = pos * 64 + lane;
#pragma unroll
            for (int off = W / 2; off > 0; off >>= 1) {
                const T ok = shx<W>(key, off);
                const int oi = shx<W>(ki, off);
                if (ok > key || (ok == key && oi < ki)) {
                    key = ok;
                    ki = oi;
                }
            }
            p = ki >> 6;
            plane = ki & 63;
        }
        const T pv = shf<W>(aj, plane);
        if (pivot) exchange_labels(lane, j, p, plane, pv != T(0), mypiv, pos);
        // the lane now holding logical row j (the pivot lane unless the pivot is zero)
        const int jlane = pivot ? __ffs(int(__ballot_sync(kFull, pos == j) & group_mask)) - 1 - int(group_shift) : j;
        const bool below = pos > j && pos < m;
        aj = lu_multiplier(aj, pv, T(1) / pv, pivot, below, j, info);
        a[j] = aj;
#pragma unroll
        for (int c = j + 1; c < W; ++c)
            if (c < n) {
                const T u = shf<W>(a[c], jlane);
                if (below) a[c] -= aj * u;
            }
    }
    if (pivot) {
        // lane i takes the row whose label is i
        int src = lane;
#pragma unroll
        for (int s = 0; s < W; ++s)
            if (shf<W>(pos, s) == lane) src = s;
#pragma unroll
        for (int c = 0; c < W; ++c)
            if (c < n) a[c] = shf<W>(a[c], src);
    } else {
        const bool z = lane < kmin && get(a, lane) == T(0);
        const unsigned bal = __ballot_sync(kFull, z);
        const unsigned g = (bal & group_mask) >> group_shift;
        info = g ? __ffs(int(g)) : 0;
    }
    return info;
}

// Solves M x = b for the rows of M in registers: forward with M's lower triangle (unit
// diagonal if unitF), then backward with its upper triangle (unit if unitB).
template <int W, class T>
__device__ __forceinline__ void solve_rows(int n, const T (&a)[W], T &b, int lane, bool unitF, bool unitB) {
#pragma unroll
    for (int j = 0; j < W; ++j)
        if (j < n) {
            if (!unitF && lane == j) b = b / a[j];
            const T bj = shf<W>(b, j);
            if (lane > j) b -= a[j] * bj;
        }
#pragma unroll
    for (int j = W - 1; j >= 0; --j)
        if (j < n) {
            if (!unitB && lane == j) b = b / a[j];
            const T bj = shf<W>(b, j);
            if (lane < j) b -= a[j] * bj;
        }
}
// Row interchanges k <-> piv[k] (mp: lane k's 0-based pivot), in order or in reverse.
template <int W, class T> __device__ __forceinline__ T permute(T b, int mp, int n, int lane, bool forward) {
    for (int s = 0; s < n; ++s) {
        const int k = forward ? s : n - 1 - s;
        const int p = shf<W>(mp, k);
        const int src = lane == k ? p : lane == p ? k : lane;
        b = shf<W>(b, src);
    }
    return b;
}

inline int width(int d) { return d <= 4 ? 4 : d <= 8 ? 8 : d <= 16 ? 16 : d <= kGroupMax ? 32 : 0; }

} // namespace group
} // namespace kobalt_cuda

// One launch per group width: `launch` sees W as a constant; sizes above kGroupMax
// make the launcher return false (the caller then runs its one-thread-per-item kernel).
#define KOBALT_GROUP_SWITCH(d, launch)                                                          \
    switch (group::width(d)) {                                                                       \
    case 4: { constexpr int W = 4; launch; } break;                                             \
    case 8: { constexpr int W = 8; launch; } break;                                             \
    case 16: { constexpr int W = 16; launch; } break;                                           \
    case 32: { constexpr int W = 32; launch; } break;                                           \
    default: return false;                                                                      \
    }                                                                                           \
    return true;

#endif
