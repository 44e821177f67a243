// il_lu_group.cuh -- interleaved getrf and fused call (product, LU, solve) with each N x N item
// held by G threads (G = 2 or 4; a warp holds 32 / G items; thread h of an item owns the
// columns c with c % G == h). Included by desc.cu (INTERLEAVED_GETRF_PAIR_EXCHANGE,
// INTERLEAVED_FUSED_GROUP).
//
// Why: one thread per item holds the whole n = 8 item (232 registers in getrf, 254 in the
// fused call), so an SM keeps 8 warps, each running a long dependent LU between its loads
// and stores; the DRAM idles (getrf 82%, the fused call 75% of the copy bandwidth on an H200,
// docs/performance.md). Split over G threads an item needs about 1 / G of the registers, so
// more items are resident, and each step's column updates run on G threads at once.
//
// Unlike il_getrf_pair (il_lu_pair.cuh) no branch depends on the lane, so the shuffles need
// no divergence-safe (collective) form: at step j the owner of column j sends its pivot row p
// and column j as it is BEFORE the row swap (rows j..N-1); every thread swaps and scales that
// copy in registers by the same operations (the owner's column j is identical on all G
// threads); row swaps and column updates are selects. A zero pivot always has p == j (|a| > 0
// is needed to move p), so the swap needs no pivot value.
//
// Semantics are those of kobalt_interleaved::lu / fused for one lane: the same pivot choice
// (first largest |a|, NaN never wins), info, reciprocal / division rule, every element by the
// same operations in the same order (factors and solutions bit-identical to the one-thread
// kernels); the fused call writes B only for items with info == 0.
#ifndef KOBALT_CUDA_IL_LU_GROUP_CUH
#define KOBALT_CUDA_IL_LU_GROUP_CUH

#include "../common/interleaved_algo.hpp"
#include "common.cuh"
#include "il_lu_pair.cuh" // opaque()

namespace kobalt_cuda {
namespace {

namespace ilg = kobalt_interleaved;

// Blocks of 128 threads an SM must hold (the register cap): getrf G = 2 -> 4 (126 registers,
// 132 uncapped: 16 warps), G = 4 -> 5 (96 registers, 100 uncapped: 20 warps); the fused
// call 4 for both (128 registers; G = 2 spills 92 bytes, G = 4 none; uncapped 254 / 214, as
// ptxas then issues every load of the product first). nvcc 13.0, sm_90, double n = 8.
template <int G> constexpr int getrf_group_min_blocks() { return G == 2 ? 4 : 5; }
constexpr int kFusedGroupMinBlocks = 4;

// Where an item's G threads are in the warp: lanes s, s + 32 / G, ... (s = lane % (32 / G)).
template <int G> struct GroupLanes {
    static constexpr int IW = 32 / G; // items per warp
    int lane, h, s;
    __device__ __forceinline__ GroupLanes() : lane(int(threadIdx.x % 32)), h(lane / IW), s(lane % IW) {}
    __device__ __forceinline__ int of(int owner) const { return s + IW * owner; }
};

// The LU of the item (a[q][i] = element (i, G q + h)), pivots pv (0-based), info inf; FWD:
// b (replicated on the G threads) = L^{-1} P b on the way, each step's swap and column
// applied as they are made (the same operands in the same order as solve()'s swaps first,
// then the forward substitution).
template <class T, int N, int G, bool FWD>
__device__ __forceinline__ void group_lu(T (&a)[(N + G - 1) / G][N], int (&pv)[N], int &inf, bool pivoting,
                                         const GroupLanes<G> &g, T (&b)[N]) {
    constexpr int K = (N + G - 1) / G;
    constexpr unsigned full = 0xffffffffu;
    using O = ilg::ScalarOps<T>;
    const T zero = T(0), sfmin = ilg::smallest_normal<T>();
    inf = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) {
        const int qj = j / G, oj = j % G;
        const bool own = g.h == oj;
        // pivot search on a[qj] by every thread (the others' result is discarded): no branch
        int p = j;
        if (pivoting) {
            T amax = O::abs(a[qj][j]);
#pragma unroll
            for (int i = j + 1; i < N; ++i) {
                const T v = O::abs(a[qj][i]);
                const bool gt = v > amax;
                amax = gt ? v : amax;
                p = gt ? i : p;
            }
        }
        // the owner's p and unswapped column j to every thread
        const int src = g.of(oj);
        p = __shfl_sync(full, p, src);
        T c[N];
#pragma unroll
        for (int i = j; i < N; ++i) c[i] = __shfl_sync(full, a[qj][i], src);
        pv[j] = p;
        // rows j and p swapped (p == j: no row hit) in the copy, every own column and b
        {
            T rj = c[j];
#pragma unroll
            for (int i = j + 1; i < N; ++i) {
                const bool hit = p == i;
                const T ri = c[i];
                c[i] = hit ? rj : ri;
                rj = hit ? ri : rj;
            }
            c[j] = rj;
        }
#pragma unroll
        for (int q = 0; q < K; ++q) {
            T rj = a[q][j];
#pragma unroll
            for (int i = j + 1; i < N; ++i) {
                const bool hit = p == i;
                const T ri = a[q][i];
                a[q][i] = hit ? rj : ri;
                rj = hit ? ri : rj;
            }
            a[q][j] = rj;
        }
        if (FWD) {
            T rj = b[j];
#pragma unroll
            for (int i = j + 1; i < N; ++i) {
                const bool hit = p == i;
                const T ri = b[i];
                b[i] = hit ? rj : ri;
                rj = hit ? ri : rj;
            }
            b[j] = rj;
        }
        const T pivot = c[j];
        const bool nonzero = pivot != zero;
        if (!nonzero && inf == 0) inf = j + 1;
        // column j scaled on every thread (il::lu's rule: the reciprocal above the smallest
        // normal number, the division below it; a zero pivot with pivoting leaves the column)
        const bool big = O::abs(pivot) >= sfmin;
        const T r = T(1) / pivot;
        T l[N];
#pragma unroll
        for (int i = j + 1; i < N; ++i) l[i] = c[i] * r;
        if (!big) {
#pragma unroll
            for (int i = j + 1; i < N; ++i) {
                const T x = c[i];
                const T qv = x / pivot;
                l[i] = pivoting ? (nonzero ? qv : x) : qv;
            }
        }
        // the owner keeps the scaled column; columns right of j updated (a[qj] of the
        // threads after the owner is column G qj + h > j; before it, a finished column)
#pragma unroll
        for (int q = 0; q < K; ++q) {
            if (q < qj || G * q >= N) continue;
            const T u = a[q][j];
#pragma unroll
            for (int i = j + 1; i < N; ++i) {
                const T upd = a[q][i] - l[i] * u;
                if (q > qj) a[q][i] = upd;
                else a[q][i] = own ? l[i] : (g.h > oj ? upd : a[q][i]);
            }
        }
        if (FWD) {
#pragma unroll
            for (int i = j + 1; i < N; ++i) b[i] -= l[i] * b[j];
        }
    }
}

// The item's factors, pivots and info to memory (addresses recomputed from an opaque copy of
// the base and strides rather than kept live through the LU).
template <class T, int N, int G, class Piv>
__device__ __forceinline__ void group_store(const ilg::Operand<T> &item, const T (&a)[(N + G - 1) / G][N],
                                            const int (&pv)[N], int inf, Piv piv, int *info, idx b, int h) {
    constexpr int K = (N + G - 1) / G;
    const ilg::Operand<T> out{opaque(item.p), opaque(item.rs), opaque(item.cs)};
#pragma unroll
    for (int q = 0; q < K; ++q)
        if (G * q + h < N)
#pragma unroll
            for (int i = 0; i < N; ++i) *ilg::at(out, i, G * q + h) = a[q][i];
    if (h == 0) {
        if (piv.p) {
            const ilg::Pivots pp = piv.lane(b);
#pragma unroll
            for (int j = 0; j < N; ++j) pp.p[j * pp.inc] = pv[j] + 1;
        }
        info[b] = inf;
    }
}

// getrf: Op .lane(b) -> ilg::Operand<T>, Piv .lane(b) -> ilg::Pivots (p NULL: no pivoting).
template <class T, int N, int G, class Op, class Piv>
__global__ void __launch_bounds__(128, getrf_group_min_blocks<G>()) il_getrf_group(Op A, Piv piv, int *info, idx batch) {
    constexpr int K = (N + G - 1) / G, IW = 32 / G;
    const GroupLanes<G> g;
    const idx warp = (idx(blockIdx.x) * blockDim.x + threadIdx.x) / 32, warps = idx(gridDim.x) * blockDim.x / 32;
    const bool pivoting = piv.p != nullptr;
    // base is the same for the whole warp, so every thread of a warp reaches each shuffle
    for (idx base = warp * IW; base < batch; base += warps * IW) {
        const idx b = base + g.s;
        const bool live = b < batch;
        const ilg::Operand<T> item = A.lane(live ? b : 0);
        T a[K][N];
#pragma unroll
        for (int q = 0; q < K; ++q)
#pragma unroll
            for (int i = 0; i < N; ++i) a[q][i] = live && G * q + g.h < N ? *ilg::at(item, i, G * q + g.h) : T(0);
        int pv[N], inf;
        T none[N];
        group_lu<T, N, G, false>(a, pv, inf, pivoting, g, none);
        if (live) group_store<T, N, G>(item, a, pv, inf, piv, info, b, g.h);
    }
}

// The fused call with k == N, one right-hand side: A = alpha op(X) op(Y) + beta A (thread h
// computes its own columns), A = P L U, x = A^{-1} b (b loaded before the LU, swapped and
// forward-substituted on the way; the back substitution with U's columns passed by the
// owner, the same operations on every thread). B is written only where info == 0.
template <class T, int N, int G, class XOp, class AOp, class Piv>
__global__ void __launch_bounds__(128, kFusedGroupMinBlocks)
    il_fused_group(T alpha, XOp X, XOp Y, T beta, AOp A, Piv piv, AOp B, int *info, idx batch) {
    constexpr int K = (N + G - 1) / G, IW = 32 / G;
    constexpr unsigned full = 0xffffffffu;
    const GroupLanes<G> g;
    const idx warp = (idx(blockIdx.x) * blockDim.x + threadIdx.x) / 32, warps = idx(gridDim.x) * blockDim.x / 32;
    const bool pivoting = piv.p != nullptr;
    for (idx base = warp * IW; base < batch; base += warps * IW) {
        const idx b = base + g.s;
        const bool live = b < batch;
        const idx bl = live ? b : 0;
        T a[K][N];
        {
            const auto x = X.lane(bl), y = Y.lane(bl);
            // il::fused's product: acc += X(i, p) Y(p, c) over p, then * alpha (+ beta A)
#pragma unroll
            for (int q = 0; q < K; ++q)
#pragma unroll
                for (int i = 0; i < N; ++i) a[q][i] = T(0);
            if (alpha != T(0)) {
#pragma unroll
                for (int p = 0; p < N; ++p) {
                    T yv[K];
#pragma unroll
                    for (int q = 0; q < K; ++q) yv[q] = live && G * q + g.h < N ? *ilg::at(y, p, G * q + g.h) : T(0);
#pragma unroll
                    for (int i = 0; i < N; ++i) {
                        const T xv = live ? *ilg::at(x, i, p) : T(0);
#pragma unroll
                        for (int q = 0; q < K; ++q) a[q][i] += xv * yv[q];
                    }
                }
            }
            const ilg::Operand<T> ai = A.lane(bl);
#pragma unroll
            for (int q = 0; q < K; ++q)
#pragma unroll
                for (int i = 0; i < N; ++i) {
                    T v = a[q][i] * alpha;
                    if (beta != T(0)) v += (live && G * q + g.h < N ? *ilg::at(ai, i, G * q + g.h) : T(0)) * beta;
                    a[q][i] = v;
                }
        }
        T rhs[N];
        {
            const ilg::Operand<T> bi = B.lane(bl);
#pragma unroll
            for (int i = 0; i < N; ++i) rhs[i] = live ? *ilg::at(bi, i, 0) : T(0);
        }
        int pv[N], inf;
        group_lu<T, N, G, true>(a, pv, inf, pivoting, g, rhs);
        // back substitution: column j of U (rows 0..j) from its owner
#pragma unroll
        for (int j = N - 1; j >= 0; --j) {
            const int src = g.of(j % G);
            T u[N];
#pragma unroll
            for (int i = 0; i <= j; ++i) u[i] = __shfl_sync(full, a[j / G][i], src);
            rhs[j] /= u[j];
#pragma unroll
            for (int i = 0; i < j; ++i) rhs[i] -= u[i] * rhs[j];
        }
        if (live) {
            const ilg::Operand<T> ai = A.lane(b);
            group_store<T, N, G>(ai, a, pv, inf, piv, info, b, g.h);
            if (inf == 0) {
                const ilg::Operand<T> bo = B.lane(b);
                const ilg::Operand<T> out{opaque(bo.p), opaque(bo.rs), opaque(bo.cs)};
#pragma unroll
                for (int i = 0; i < N; ++i)
                    if (i % G == g.h) *ilg::at(out, i, 0) = rhs[i];
            }
        }
    }
}

} // namespace
} // namespace kobalt_cuda

#endif
