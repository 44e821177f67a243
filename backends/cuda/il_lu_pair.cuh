// il_lu_pair.cuh -- interleaved getrf with each N x N item factored by TWO threads (lanes l
// and l + 16 of a warp; a warp holds 16 items). Included by desc.cu
// (INTERLEAVED_GETRF_PAIR_MIN).
//
// Why: one thread per item holds the whole n = 8 item (232 registers in double), so an SM
// keeps 8 warps, and each runs a long dependent LU between its loads and stores; on an H200
// the loads then leave the DRAM idle too often (82% of the copy bandwidth,
// docs/performance.md). Here thread h in {0, 1} owns the columns c with c % 2 == h (columns
// alternate so both halves have work at every step): half the registers per thread and
// each step's updates run on two threads at once. The owner of column j finds the pivot,
// scales the column and passes the pivot row and the column (one shuffle per element) to
// its partner; both swap rows and update their own columns.
//
// Semantics are those of kobalt_interleaved::lu for one lane: the same pivot choice (first
// largest |a|, NaN never wins), info, reciprocal / division rule, and every element by the
// same operations in the same order, so the factors are bit-identical to il_getrf's.
#ifndef KOBALT_CUDA_IL_LU_PAIR_CUH
#define KOBALT_CUDA_IL_LU_PAIR_CUH

#include "../common/interleaved_algo.hpp"
#include "common.cuh"

namespace kobalt_cuda {
namespace {

namespace ilq = kobalt_interleaved;

template <class V> __device__ __forceinline__ V opaque(V v) {
    asm volatile("" : "+l"(v));
    return v;
}

// Op: .lane(b) -> ilq::Operand<T>, Piv: .lane(b) -> ilq::Pivots (p NULL: no pivoting).
// BRANCHLESS (INTERLEAVED_GETRF_PAIR_BRANCHLESS): the row swap done by selects on every lane
// (p == j or a zero pivot hits no row) instead of under a branch that diverges whenever the
// warp's 16 items pivot differently; same results.
template <class T, int N, bool BRANCHLESS, class Op, class Piv>
__device__ __forceinline__ void il_getrf_pair_body(Op A, Piv piv, int *info, idx batch) {
    constexpr int K = (N + 1) / 2; // columns per thread (thread 1 owns N / 2 of them)
    constexpr unsigned full = 0xffffffffu;
    const int lane = int(threadIdx.x % 32), h = lane / 16;
    const idx warp = (idx(blockIdx.x) * blockDim.x + threadIdx.x) / 32, warps = idx(gridDim.x) * blockDim.x / 32;
    const bool pivoting = piv.p != nullptr;
    using O = ilq::ScalarOps<T>; // abs as il::lu's (v < 0 ? -v : v)
    const T zero = T(0), sfmin = ilq::smallest_normal<T>();
    // base is the same for the whole warp, so both lanes of every pair reach each shuffle
    for (idx base = warp * 16; base < batch; base += warps * 16) {
        const idx b = base + lane % 16;
        const bool live = b < batch;
        const ilq::Operand<T> item = A.lane(live ? b : 0);
        T a[K][N]; // a[q][i]: element (i, 2q + h)
#pragma unroll
        for (int q = 0; q < K; ++q)
#pragma unroll
            for (int i = 0; i < N; ++i) a[q][i] = live && 2 * q + h < N ? *ilq::at(item, i, 2 * q + h) : zero;
        int pv[N], inf = 0;
#pragma unroll
        for (int j = 0; j < N; ++j) {
            const int qj = j / 2;
            const bool own = h == j % 2;
            // the owner: pivot row and value of column j (il::lu's search)
            int p = j;
            T pivot = a[qj][j];
            if (pivoting) {
                T amax = O::abs(a[qj][j]);
#pragma unroll
                for (int i = j + 1; i < N; ++i) {
                    const T v = O::abs(a[qj][i]);
                    const bool g = v > amax;
                    amax = g ? v : amax;
                    p = g ? i : p;
                }
#pragma unroll
                for (int i = j + 1; i < N; ++i) pivot = p == i ? a[qj][i] : pivot;
            }
            // to the partner (the non-owner's values above are of its own column: discarded)
            const int po = __shfl_xor_sync(full, p, 16);
            const T pivo = __shfl_xor_sync(full, pivot, 16);
            if (!own) p = po, pivot = pivo;
            pv[j] = p;
            const bool nonzero = pivot != zero;
            // rows j and p swapped in every column this thread owns (column j too, on the owner)
            if (BRANCHLESS ? pivoting : pivoting && nonzero && p != j) {
#pragma unroll
                for (int q = 0; q < K; ++q) {
                    T rj = a[q][j];
#pragma unroll
                    for (int i = j + 1; i < N; ++i) {
                        const bool hit = (BRANCHLESS ? nonzero : true) && p == i;
                        const T ri = a[q][i];
                        a[q][i] = hit ? rj : ri;
                        rj = hit ? ri : rj;
                    }
                    a[q][j] = rj;
                }
            }
            if (!nonzero && inf == 0) inf = j + 1;
            // the owner scales column j below the diagonal
            if (own) {
                const bool big = O::abs(pivot) >= sfmin;
                const T r = T(1) / pivot;
                if (big) {
#pragma unroll
                    for (int i = j + 1; i < N; ++i) a[qj][i] *= r;
                } else {
#pragma unroll
                    for (int i = j + 1; i < N; ++i) {
                        const T x = a[qj][i];
                        const T qv = x / pivot; // big is false here: il::lu's sel(big, x * r, x / pivot)
                        a[qj][i] = pivoting ? (nonzero ? qv : x) : qv;
                    }
                }
            }
            // column j to both threads, then each updates its own columns right of j
            T l[N];
#pragma unroll
            for (int i = j + 1; i < N; ++i) {
                const T v = a[qj][i];
                const T w = __shfl_xor_sync(full, v, 16);
                l[i] = own ? v : w;
            }
#pragma unroll
            for (int q = 0; q < K; ++q)
                if (2 * q + h > j && 2 * q + h < N) {
                    const T u = a[q][j];
#pragma unroll
                    for (int i = j + 1; i < N; ++i) a[q][i] -= l[i] * u;
                }
        }
        if (live) {
            // store addresses recomputed from an opaque copy of the base and strides, not kept
            // live (two registers each) through the factorization since the loads
            const ilq::Operand<T> out{opaque(item.p), opaque(item.rs), opaque(item.cs)};
#pragma unroll
            for (int q = 0; q < K; ++q)
                if (2 * q + h < N)
#pragma unroll
                    for (int i = 0; i < N; ++i) *ilq::at(out, i, 2 * q + h) = a[q][i];
            if (h == 0) {
                if (pivoting) {
                    const ilq::Pivots pp = piv.lane(b);
#pragma unroll
                    for (int j = 0; j < N; ++j) pp.p[j * pp.inc] = pv[j] + 1;
                }
                info[b] = inf;
            }
        }
    }
}

template <class T, int N, bool BRANCHLESS, class Op, class Piv>
__global__ void il_getrf_pair(Op A, Piv piv, int *info, idx batch) {
    il_getrf_pair_body<T, N, BRANCHLESS>(A, piv, info, batch);
}

} // namespace
} // namespace kobalt_cuda

#endif
