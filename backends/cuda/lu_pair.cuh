// lu_pair.cuh -- getrf's full-item kernel with two rows per lane (GETRF_PAIR_MIN; groups.cu
// launches it): an item of width W (16 or 32 by default, n below W padded with an identity as
// in lu_full.cuh) on L = W / 2 lanes, lane l holding rows 2l and 2l + 1. lu_full.cuh's kernel
// spends most of each elimination step on work that does not grow with the rows a lane
// holds: the pivot reduction, the pivot lane's stores, the broadcast of the tail, the label
// exchange and the reciprocal (ncu: about 115 warp instructions a step, 12 / 24 of them the
// update at W = 16 / 32). Here one warp instruction of that overhead serves twice as many
// items (four at W = 16, two at W = 32), the pivot row read from shared memory serves two
// rows, and the lane's two candidates are compared in registers before the one warp
// reduction. Otherwise as lu_full.cuh: each warp walks a grid-stride sequence of items with
// its next items copied global -> shared memory by cp.async while it factors the current
// ones; a lane copies and later reads only its own two rows (one 2-element load a column).
// Semantics are lu_rows_bcast's (dgetf2 pivots, ties to the first logical row, NaN rules,
// info = the first zero pivot; without pivots info from the diagonal at the end).
#ifndef KOBALT_CUDA_LU_PAIR_CUH
#define KOBALT_CUDA_LU_PAIR_CUH

#include <cuda_pipeline.h>

#include "lu_full.cuh"

namespace kobalt_cuda {
namespace group {

// A lane's two rows in one column (rows 2l, 2l + 1 are adjacent in a column of `next`).
template <class T> struct Vec2;
template <> struct Vec2<double> { using type = double2; };
template <> struct Vec2<float> { using type = float2; };

// The pivot key of pivot_of (lu_bcast.cuh): 0 for non-candidates and off-diagonal NaNs, the
// largest value for a NaN on the diagonal, else the bits of |a| plus one (which order like |a|).
__device__ __forceinline__ unsigned long long pair_key(double a, bool cand, bool diag) {
    unsigned long long k = 0;
    if (cand) k = isnan(a) ? (diag ? ~0ull : 0ull) : (unsigned long long)__double_as_longlong(fabs(a)) + 1;
    return k;
}
__device__ __forceinline__ unsigned pair_key(float a, bool cand, bool diag) {
    unsigned k = 0;
    if (cand) k = isnan(a) ? (diag ? ~0u : 0u) : __float_as_uint(fabsf(a)) + 1;
    return k;
}
// The group-relative lane whose key is largest, ties to the smallest tag (pos * 32 + lane):
// one redux.sync and one ballot when a single lane holds the largest high word (the usual
// case), else lu_bcast.cuh's reductions. Executed by all 32 lanes (the ballot names them all).
__device__ __forceinline__ int pair_lane(unsigned long long k, unsigned tag, unsigned mask, unsigned shift) {
    const unsigned hi = unsigned(k >> 32), lo = unsigned(k);
    const unsigned mhi = __reduce_max_sync(mask, hi);
    const unsigned top = (__ballot_sync(kFull, hi == mhi) & mask) >> shift;
    if ((top & (top - 1)) == 0) return __ffs(int(top)) - 1;
    const unsigned mlo = __reduce_max_sync(mask, hi == mhi ? lo : 0u);
    return int(__reduce_min_sync(mask, hi == mhi && lo == mlo ? tag : ~0u) & 31u);
}
__device__ __forceinline__ int pair_lane(unsigned k, unsigned tag, unsigned mask, unsigned shift) {
    const unsigned mk = __reduce_max_sync(mask, k);
    const unsigned top = (__ballot_sync(kFull, k == mk) & mask) >> shift;
    if ((top & (top - 1)) == 0) return __ffs(int(top)) - 1;
    return int(__reduce_min_sync(mask, k == mk ? tag : ~0u) & 31u);
}

// The pivot row's elements from column v0 on into the row buffer, one store each.
template <int W, class T> __device__ __forceinline__ void put_row_elements(T *row, const T (&a)[W], int v0) {
#pragma unroll
    for (int c = 0; c < W; ++c)
        if (c >= v0) row[c] = a[c];
}
// a[c] -= m * row[c] for the columns c > j, the row read vector by vector.
template <int W, int E, class T> __device__ __forceinline__ void update_row(T (&a)[W], T m, const T *row, int j) {
    using V = typename Vec16<T>::type;
#pragma unroll
    for (int c = 0; c < W; c += E)
        if (c + E > j + 1) { // the vectors holding columns j + 1 on, one at a time
            const V v = *reinterpret_cast<const V *>(row + c);
            const T *e = reinterpret_cast<const T *>(&v);
#pragma unroll
            for (int q = 0; q < E; ++q)
                if (c + q > j) a[c + q] -= m * e[q];
        }
}

// dgetf2 on a W x W item, lane l of its L = W / 2 lanes holding row 2l in a0 and row 2l + 1
// in a1. buf: 2 (W + E) elements of 16-byte aligned shared memory for this group (two row
// buffers alternating by step, each the row from the pivot's vector on and a tail: the
// pivot's reciprocal and its logical row). Sets piv0 / piv1 (0-based pivot row of steps
// 2l / 2l + 1) and pos0 / pos1 (the logical rows this lane's registers hold); returns info.
// S steps run, S >= n (the item's size; n < W: the padding is an identity, so that the steps
// past n change no entry, pivot or info of the item: no item row is a candidate there, the
// padding's pivots are 1 or NaN, never 0); n only bounds the diagonal that info reads without
// pivoting. S is a constant because an early exit out of the unrolled steps, as lu_full.cuh
// has, made ptxas keep far more registers live (W = 16 double: 1.7 KiB of spills at 128).
template <int W, int S, class T, bool pivot>
__device__ __forceinline__ int lu_pair_steps(T (&a0)[W], T (&a1)[W], int l, int &piv0, int &piv1, int &pos0,
                                             int &pos1, T *buf, int n) {
    using V = typename Vec16<T>::type;
    constexpr int E = int(sizeof(V) / sizeof(T));
    constexpr int L = W / 2;
    constexpr int RS = W + E;
    static_assert(W % E == 0 && L <= 16 && S <= W, "two rows a lane, at most 16 lanes an item");
    const unsigned shift = (threadIdx.x & 31) / L * L;
    const unsigned mask = ((1u << L) - 1) << shift;
    int info = 0;
    pos0 = 2 * l;
    pos1 = 2 * l + 1;
    piv0 = pos0;
    piv1 = pos1;
#pragma unroll
    for (int j = 0; j < S; ++j) {
        const T x0 = a0[j], x1 = a1[j];
        int plane = j / 2;         // without pivoting row j stays in lane j / 2,
        bool second = (j & 1) != 0; // in its second slot for odd j
        T rj = T(0);
        if (pivot) {
            const auto k0 = pair_key(x0, pos0 >= j, pos0 == j), k1 = pair_key(x1, pos1 >= j, pos1 == j);
            second = k1 > k0 || (k1 == k0 && pos1 < pos0); // the lane's candidate
            // its reciprocal, computed while the pivot is searched (a long sequence in double)
            rj = T(1) / (second ? x1 : x0);
            plane = pair_lane(second ? k1 : k0, unsigned((second ? pos1 : pos0) * 32 + l), mask, shift);
        }
        T *row = buf + (j & 1) * RS;
        const int v0 = j / E * E;
        if (l == plane) {
            V tail{};
            T *e = reinterpret_cast<T *>(&tail);
            e[0] = rj;
            e[1] = int_bits<T>(second ? pos1 : pos0);
            // element by element: 16-byte stores of a0 or a1 chosen at run time cost register
            // moves to pair the elements up (SASS of the first version)
            if (second) put_row_elements<W>(row, a1, v0);
            else put_row_elements<W>(row, a0, v0);
            *reinterpret_cast<V *>(row + W) = tail;
        }
        __syncwarp();
        const V tail = *reinterpret_cast<const V *>(row + W);
        const T rp = reinterpret_cast<const T *>(&tail)[0];
        const int p = pivot ? bits_int(reinterpret_cast<const T *>(&tail)[1]) : j;
        const T pv = row[j];
        if (pivot) {
            if (l == j / 2) {
                if (j & 1) piv1 = p;
                else piv0 = p;
            }
            if (pv != T(0) && p != j) { // rows j and p exchange labels (a zero pivot: no interchange)
                const bool mine = l == plane;
                if (pos0 == j) pos0 = p;
                else if (mine && !second) pos0 = j;
                if (pos1 == j) pos1 = p;
                else if (mine && second) pos1 = j;
            }
        }
        const bool b0 = pos0 > j, b1 = pos1 > j;
        const T m0 = lu_multiplier(x0, pv, rp, pivot, b0, j, info); // rp == 1 / pv
        const T m1 = lu_multiplier(x1, pv, rp, pivot, b1, j, info);
        a0[j] = m0;
        a1[j] = m1;
        // one branch a row, each reading the pivot row again (broadcast loads): predicated
        // updates of both rows in one loop became an FMA and two selects an element
        if (b0) update_row<W, E>(a0, m0, row, j);
        if (b1) update_row<W, E>(a1, m1, row, j);
    }
    if (!pivot) { // info = the first zero on U's diagonal among the item's n
        const int r0 = 2 * l, r1 = 2 * l + 1;
        const bool z0 = r0 < n && get(a0, r0) == T(0), z1 = r1 < n && get(a1, r1) == T(0);
        const unsigned first = __reduce_min_sync(mask, z0 ? unsigned(r0 + 1) : z1 ? unsigned(r1 + 1) : ~0u);
        info = first == ~0u ? 0 : int(first);
    }
    return info;
}

} // namespace group
} // namespace kobalt_cuda

#endif
