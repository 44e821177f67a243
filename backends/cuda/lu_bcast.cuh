// lu_bcast.cuh -- dgetf2 on rows in registers (the layout of lu_rows in group_ops.cuh:
// W lanes per item, lane i holding row i), with the per-step shuffles replaced:
//  - the pivot search is a handful of integer warp reductions (redux.sync) on the bits of
//    |a| (for a non-negative double or float the bit pattern orders like the value)
//    instead of log2(W) rounds of (key, index) shuffles;
//  - the pivot row is written once to shared memory by its lane (16-byte stores) and read
//    back by every lane with broadcast 16-byte loads, instead of one shuffle per element
//    (two per double) per step.
// Interchanges stay lazy (a lane keeps its row, only its logical row label `pos` moves);
// the caller stores each row at its final place `pos`, so no permutation at the end.
// Used by getrf_group (groups.cu) from GETRF_BCAST_MIN on (docs/cuda.md).
#ifndef KOBALT_CUDA_LU_BCAST_CUH
#define KOBALT_CUDA_LU_BCAST_CUH

#include "group_ops.cuh"

namespace kobalt_cuda {
namespace group {

// Logical row of the pivot (dgetf2/idamax: first largest |a| among candidate rows, a NaN
// never chosen except on the diagonal, where it wins) packed with its lane: pos * 32 + lane.
// Non-candidate rows and off-diagonal NaNs get key 0, every finite or infinite |a| of a
// candidate at least 1, so the diagonal (always a candidate) beats them.
__device__ __forceinline__ unsigned pivot_of(double aj, bool cand, bool diag, unsigned tag, unsigned mask) {
    unsigned long long k = 0;
    if (cand) k = isnan(aj) ? (diag ? ~0ull : 0ull) : (unsigned long long)__double_as_longlong(fabs(aj)) + 1;
    const unsigned hi = unsigned(k >> 32), lo = unsigned(k);
    const unsigned mhi = __reduce_max_sync(mask, hi);
    const unsigned mlo = __reduce_max_sync(mask, hi == mhi ? lo : 0u);
    return __reduce_min_sync(mask, hi == mhi && lo == mlo ? tag : ~0u);
}
__device__ __forceinline__ unsigned pivot_of(float aj, bool cand, bool diag, unsigned tag, unsigned mask) {
    unsigned k = 0;
    if (cand) k = isnan(aj) ? (diag ? ~0u : 0u) : __float_as_uint(fabsf(aj)) + 1;
    const unsigned mk = __reduce_max_sync(mask, k);
    return __reduce_min_sync(mask, k == mk ? tag : ~0u);
}

// The pivot lane's share of a step: its row from vector v0 on (the columns the step still
// reads) into the row buffer with 16-byte stores, then the tail vector (the pivot's
// reciprocal first; lu_full.cuh adds the pivot's logical row).
template <int W, int E, class T, class V, int NC>
__device__ __forceinline__ void put_pivot_row(T *row, const T (&a)[NC], int v0, const V &tail) {
#pragma unroll
    for (int c = 0; c < NC; c += E)
        if (c >= v0) {
            V v;
            T *e = reinterpret_cast<T *>(&v);
#pragma unroll
            for (int q = 0; q < E; ++q) e[q] = a[c + q];
            *reinterpret_cast<V *>(row + c) = v;
        }
    *reinterpret_cast<V *>(row + W) = tail;
}

// buf: 2 (W + E) elements of shared memory for this group (E = elements per 16 bytes),
// 16-byte aligned (two row buffers, each the row and the pivot's reciprocal,
// alternating by step, so one __syncwarp per step orders both the write after the last
// step's reads and the reads after this step's write). Returns info, sets mypiv (0-based
// pivot row of step `lane`) and pos (the logical row this lane's registers hold).
template <int W, class T>
__device__ int lu_rows_bcast(int m, int n, T (&a)[W], int lane, bool pivot, int &mypiv, int &pos, T *buf) {
    using V = typename Vec16<T>::type;
    constexpr int E = int(sizeof(V) / sizeof(T)); // elements per 16-byte vector
    static_assert(W % E == 0, "group width must be a multiple of the vector width");
    const int kmin = m < n ? m : n;
    const unsigned group_shift = (threadIdx.x & 31) / W * W;
    const unsigned group_mask = W == 32 ? kFull : ((1u << (W & 31)) - 1) << group_shift;
    int info = 0;
    pos = lane;
    mypiv = lane;
#pragma unroll
    for (int j = 0; j < W; ++j) {
        if (j >= kmin) break;
        T aj = a[j];
        // every lane's reciprocal, computed while the pivot is searched (1/pv is a long
        // dependent sequence in double); the pivot lane passes its own with its row
        const T rj = T(1) / aj;
        int p = j, plane = j; // pivot row (logical) and the lane holding it
        if (pivot) {
            const unsigned t = pivot_of(aj, pos >= j && pos < m, pos == j, unsigned(pos * 32 + lane), group_mask);
            p = int(t >> 5);
            plane = int(t & 31);
        }
        // the pivot row (from the vector holding column j on) to shared memory, then to all
        T *row = buf + (j & 1) * (W + E);
        const int v0 = j / E * E; // a constant after unrolling
        if (lane == plane) {
            V tail{};
            *reinterpret_cast<T *>(&tail) = rj;
            put_pivot_row<W, E>(row, a, v0, tail);
        }
        __syncwarp();
        T u[W];
#pragma unroll
        for (int c = 0; c < W; c += E)
            if (c >= v0) {
                const V v = *reinterpret_cast<const V *>(row + c);
                const T *e = reinterpret_cast<const T *>(&v);
#pragma unroll
                for (int q = 0; q < E; ++q) u[c + q] = e[q];
            }
        const T pv = u[j], rp = row[W];
        if (pivot) exchange_labels(lane, j, p, plane, pv != T(0), mypiv, pos);
        const bool below = pos > j && pos < m;
        aj = lu_multiplier(aj, pv, rp, pivot, below, j, info); // rp == 1 / pv
        a[j] = aj;
#pragma unroll
        for (int c = j + 1; c < W; ++c)
            if (c < n && below) a[c] -= aj * u[c];
    }
    if (!pivot) {
        const bool z = lane < kmin && get(a, lane) == T(0);
        const unsigned bal = __ballot_sync(kFull, z);
        const unsigned g = (bal & group_mask) >> group_shift;
        info = g ? __ffs(int(g)) : 0;
    }
    return info;
}

} // namespace group
} // namespace kobalt_cuda

#endif
