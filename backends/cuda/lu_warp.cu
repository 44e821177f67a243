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
// GETRF_WARP_RECORD_MIN (double n = 5 ... 8 by default) it factors the item where it lies in
// the slice instead (lu_in_record, a panel of columns at a time), which frees most of the
// registers the item held: at n = 8 in double 152 registers instead of 238, so the shared
// memory (12 warps an SM) rather than the registers (8) limits the warps.
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

// Rows j and p of t[j .. N-1] exchanged by selects (p >= j at run time).
template <class T, int N> __device__ __forceinline__ void swap_in_regs(T (&t)[N], int j, int p) {
    const T tj = t[j];
#pragma unroll
    for (int i = j + 1; i < N; ++i) {
        const bool s = i == p;
        const T ti = t[i];
        t[j] = s ? ti : t[j];
        t[i] = s ? tj : ti;
    }
}
// Rows r and p of the record exchanged in columns 0 .. cols-1 (the factored L part).
template <class T, int N, bool U> __device__ __forceinline__ void swap_left(T *rec, int r, int p, int cols) {
#pragma unroll
    for (int k = 0; k < cols; ++k) {
        T &x = rec[ws::cell<N, U>(r, k)], &y = rec[ws::cell<N, U>(p, k)];
        const T t = x;
        x = y;
        y = t;
    }
}

// dgetf2 on the item where it lies in its record, by panels of NB columns held in registers:
// a panel is loaded, factored there (its interchanges by selects, each column updated by the
// panel's earlier steps as dgetf2 does) and stored once; then each trailing column is loaded
// once, takes the panel's NB interchanges by selects and its NB updates in step order, and
// is stored once. Only the columns left of the panel are exchanged in the record (loads and
// stores at the pivot row's runtime address). Each element sees dgetf2's operations in its
// order, so the same factors, pivots and info. Why panels: the kernel is bound by
// shared-memory traffic (ncu); the first record LU (two columns a step, every interchange in
// the record: about 440 accesses an item at n = 8 against 224 here) was 8% slower at n = 8
// on an H200; panels of 2, 3 and 4 were 1-2% apart, 4 the fastest (docs/performance.md).
constexpr int kPanel = 4;
template <class T, int N, int NB, bool U>
__device__ __forceinline__ void lu_in_record(T *rec, int (&pv)[N], int &info) {
    const auto at = [rec](int i, int j) -> T & { return rec[ws::cell<N, U>(i, j)]; };
    info = 0;
#pragma unroll
    for (int j = 0; j < N; j += NB) {
        const int w = NB < N - j ? NB : N - j; // a constant once the loop is unrolled
        T a[NB][N];                             // panel column s: rows j .. N-1
#pragma unroll
        for (int s = 0; s < w; ++s)
#pragma unroll
            for (int i = j; i < N; ++i) a[s][i] = at(i, j + s);
#pragma unroll
        for (int s = 0; s < w; ++s) {
            const int c = j + s;
            T pivot;
            const int p = pivot_row(a[s], c, pivot); // p != c only if pivot != 0 (NaN never wins)
            pv[c] = p;
#pragma unroll
            for (int s2 = 0; s2 < w; ++s2) swap_in_regs(a[s2], c, p);
            swap_left<T, N, U>(rec, c, p, j);
            scale_below(a[s], c, pivot, info);
#pragma unroll
            for (int s2 = s + 1; s2 < w; ++s2) { // step c's update of the panel's later columns
                const T u = a[s2][c];
#pragma unroll
                for (int i = c + 1; i < N; ++i) a[s2][i] -= a[s][i] * u;
            }
        }
#pragma unroll
        for (int s = 0; s < w; ++s)
#pragma unroll
            for (int i = j; i < N; ++i) at(i, j + s) = a[s][i];
#pragma unroll
        for (int k = j + w; k < N; ++k) {
            T t[N];
#pragma unroll
            for (int i = j; i < N; ++i) t[i] = at(i, k);
#pragma unroll
            for (int s = 0; s < w; ++s) swap_in_regs(t, j + s, pv[j + s]);
#pragma unroll
            for (int s = 0; s < w; ++s) {
                const T u = t[j + s];
#pragma unroll
                for (int i = j + s + 1; i < N; ++i) t[i] -= a[s][i] * u;
            }
#pragma unroll
            for (int i = j; i < N; ++i) at(i, k) = t[i];
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
            col ? lu_in_record<T, N, kPanel, true>(rec, pv, inf) : lu_in_record<T, N, kPanel, false>(rec, pv, inf);
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
