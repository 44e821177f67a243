// lu_warp.cu -- getrf of square pivoted items up to 8 x 8 in the standard layouts, one
// thread per item with the item in registers, staged through shared memory a warp at a
// time (warp_stage.cuh; GETRF_WARP_MAX, docs/cuda.md).
//
// Why: in the interleaved layout one thread per item, the whole item in registers
// (kobalt_interleaved::lu), reaches 82-85% of the copy bandwidth at n = 8 on an H200,
// while the group kernels that serve column- and row-major items (a lane per row,
// shuffles for every pivot search and broadcast) reach 59% (docs/performance.md). Here each
// lane takes its item from the warp's slice into registers, factors it with the interleaved
// kernels' LU (dgetf2's pivots, info and reciprocal rule) and puts it back. From
// GETRF_WARP_RECORD_MIN (double n = 7, 8 by default) it factors the item where it lies in the
// slice instead (lu_in_record), which frees the registers the item held: at n = 8 in double
// 64 registers instead of 238, so 12 warps an SM instead of 8.
#include "../common/interleaved_algo.hpp"
#include "common.cuh"
#include "lu_warp.cuh"
#include "warp_stage.cuh"

namespace kobalt_cuda {

namespace {

namespace ilw = kobalt_interleaved;
namespace ws = warp_stage;

// The pieces of one dgetf2 step on a record (element (i, j) at rec[ws::cell<N, U>(i, j)]),
// with the operations of kobalt_interleaved::lu in its order, so the same factors, pivots
// and info. c[j .. N-1] holds column j in registers.
// The pivot of column j: the first largest |c[i]|, i >= j (NaN never wins); returns its row.
template <class T, int N> __device__ __forceinline__ int pivot_row(const T (&c)[N], int j, T &pivot) {
    T amax = c[j] < T(0) ? -c[j] : c[j];
    pivot = c[j];
    int p = j;
#pragma unroll
    for (int i = j + 1; i < N; ++i) {
        const T v = c[i] < T(0) ? -c[i] : c[i];
        const bool g = v > amax; // strict: the first largest wins, NaN never does
        amax = g ? v : amax;
        pivot = g ? c[i] : pivot;
        p = g ? i : p;
    }
    return p;
}
// Rows j and p of the record exchanged (two loads and two stores a column at p's runtime address).
template <class T, int N, bool U> __device__ __forceinline__ void swap_rows(T *rec, int j, int p) {
#pragma unroll
    for (int k = 0; k < N; ++k) {
        T &x = rec[ws::cell<N, U>(j, k)], &y = rec[ws::cell<N, U>(p, k)];
        const T t = x;
        x = y;
        y = t;
    }
}
// info for a zero pivot, and column j's entries below the diagonal scaled by the pivot
// (reciprocal above the smallest normal number, division below it, left alone if it is zero).
template <class T, int N> __device__ __forceinline__ void scale_below(T (&c)[N], int j, T pivot, int &info) {
    const bool nonzero = pivot != T(0);
    if (!nonzero && info == 0) info = j + 1;
    const bool big = (pivot < T(0) ? -pivot : pivot) >= ilw::smallest_normal<T>();
    const T r = T(1) / pivot;
#pragma unroll
    for (int i = j + 1; i < N; ++i) {
        const T x = c[i];
        c[i] = big ? x * r : (nonzero ? x / pivot : x);
    }
}

// dgetf2 on the item where it lies in its record, two columns a step. Against the item in
// registers: a row interchange is two loads and two stores a column at a runtime address
// instead of a select for every row below and every column, and the item holds no registers,
// so more warps fit an SM (ncu: the kernel is then bound by shared-memory traffic). Columns j
// and j + 1 are factored in registers (column j + 1 updated by step j there), then each
// trailing element gets both steps' updates in one load and one store (a -= l_j u_j, then
// a -= l_j+1 u_j+1: its operations in dgetf2's order). Step j + 1's interchange moves rows
// whose trailing entries have not had step j's update yet, along with their multipliers, so
// the result is the same. One column a step (a load and a store of each trailing element per
// step) was 3% slower at n = 8 on an H200 (docs/performance.md).
template <class T, int N, bool U> __device__ __forceinline__ void lu_in_record(T *rec, int (&pv)[N], int &info) {
    const auto at = [rec](int i, int j) -> T & { return rec[ws::cell<N, U>(i, j)]; };
    info = 0;
#pragma unroll
    for (int j = 0; j < N; j += 2) {
        T c[N], d[N]; // columns j and j + 1, rows j .. N-1
#pragma unroll
        for (int i = j; i < N; ++i) c[i] = at(i, j);
        T pivot;
        const int p = pivot_row(c, j, pivot);
        pv[j] = p;
        if (pivot != T(0) && p != j) {
            swap_rows<T, N, U>(rec, j, p);
#pragma unroll
            for (int i = j + 1; i < N; ++i) c[i] = at(i, j);
        }
        scale_below(c, j, pivot, info);
        if (j + 1 == N) break; // odd N, the last column: no row below it, nothing to store
#pragma unroll
        for (int i = j; i < N; ++i) d[i] = at(i, j + 1);
#pragma unroll
        for (int i = j + 1; i < N; ++i) d[i] -= c[i] * d[j]; // step j's update of column j + 1
        T pivot2;
        const int p2 = pivot_row(d, j + 1, pivot2);
        pv[j + 1] = p2;
        if (pivot2 != T(0) && p2 != j + 1) {
            swap_rows<T, N, U>(rec, j + 1, p2); // column j + 1's cells are rewritten below
#pragma unroll
            for (int i = j + 2; i < N; ++i)
                if (i == p2) {
                    const T tc = c[j + 1], td = d[j + 1];
                    c[j + 1] = c[i];
                    c[i] = tc;
                    d[j + 1] = d[i];
                    d[i] = td;
                }
        }
        scale_below(d, j + 1, pivot2, info);
#pragma unroll
        for (int i = j + 1; i < N; ++i) {
            at(i, j) = c[i];
            at(i, j + 1) = d[i];
        }
#pragma unroll
        for (int k = j + 2; k < N; ++k) {
            const T u = at(j, k);
            const T u2 = at(j + 1, k) - c[j + 1] * u; // row j + 1's step-j update
            at(j + 1, k) = u2;
#pragma unroll
            for (int i = j + 2; i < N; ++i) {
                T a = at(i, k);
                a -= c[i] * u;
                a -= d[i] * u2;
                at(i, k) = a;
            }
        }
    }
}

// InRecord: the LU on the shared-memory record (lu_in_record), not in registers.
template <class T, int N, int BUF, bool InRecord, class AA>
__global__ void __launch_bounds__(ws::kWarpsPerBlock * 32)
    getrf_warp(bool flat, bool col, idx ld, AA A, int *ipiv, idx strideIpiv, int *info, idx batch) {
    constexpr int P = ws::pitch(N * N);
    T *const s = ws::warp_slices<T, BUF>(P);
    const auto in = [&](T *slice, idx first, int count) {
        ws::copy_square<N, true>(flat, slice, P, 0, A, ld, first, count);
    };
    const auto out = [&](T *slice, idx first, int count) {
        ws::copy_square<N, false>(flat, slice, P, 0, A, ld, first, count);
    };
    const auto work = [&](T *rec, bool mine, idx first) {
        int pv[N], inf;
        if constexpr (InRecord) {
            col ? lu_in_record<T, N, true>(rec, pv, inf) : lu_in_record<T, N, false>(rec, pv, inf);
        } else {
            T a[N * N]; // element (i, j) at a[i + j * N]
            ws::to_regs<N>(col, rec, a);
            ilw::lu<ilw::ScalarOps<T>, N, N>(a, N, true, pv, inf);
            ws::from_regs<N>(col, a, rec);
        }
        if (mine) {
            const idx item = first + threadIdx.x % 32;
            int *const piv = ipiv + item * strideIpiv;
#pragma unroll
            for (int j = 0; j < N; ++j) piv[j] = pv[j] + 1;
            info[item] = inf;
        }
    };
    ws::for_each_group<BUF>(s, P, batch, in, work, out);
}

template <class T, int N, class AA>
bool launch(bool col, idx ld, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, cudaStream_t st) {
    const size_t bytes = sizeof(T) * 32 * ws::pitch(N * N);
    if (N >= threshold(sizeof(T) == 8 ? GETRF_WARP_RECORD_MIN : GETRF_WARP_RECORD_MIN_FLOAT))
        return ws::launch_staged(getrf_warp<T, N, 1, true, AA>, getrf_warp<T, N, 2, true, AA>, ws::kWarpsPerBlock, bytes,
                                 batch, st, col, ld, A, ipiv, strideIpiv, info, batch);
    return ws::launch_staged(getrf_warp<T, N, 1, false, AA>, getrf_warp<T, N, 2, false, AA>, ws::kWarpsPerBlock, bytes,
                             batch, st, col, ld, A, ipiv, strideIpiv, info, batch);
}

} // namespace

template <class T, class AA>
bool warp_getrf(int n, const MatDesc &dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, cudaStream_t st) {
    if (!ipiv || dA.rows != n || dA.cols != n || dA.trans || batch < 1) return false;
    switch (n) {
#define KOBALT_WARP_CASE(N)                                                                        \
    case N: return launch<T, N>(dA.col, dA.ld, A, ipiv, strideIpiv, info, batch, st);
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
