// lu_record.cuh -- dgetf2 on an N x N item where it lies in a warp-staged record in shared
// memory (element (i, j) at rec[warp_stage::cell<N, U>(i, j)]), one thread per item: the
// warp-staged getrf's LU from GETRF_WARP_RECORD_MIN (lu_warp.cu). The operations are
// kobalt_interleaved::lu's in its order (dgetf2's pivots, info and reciprocal rule), so the
// same factors, pivots and info as the register kernels.
#ifndef KOBALT_CUDA_LU_RECORD_CUH
#define KOBALT_CUDA_LU_RECORD_CUH

#include "../common/interleaved_algo.hpp"
#include "warp_stage.cuh"

namespace kobalt_cuda {
namespace record {

// The pieces of one dgetf2 step; c[j .. N-1] holds column j in registers.
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
    const bool big = (pivot < T(0) ? -pivot : pivot) >= kobalt_interleaved::smallest_normal<T>();
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
        T &x = rec[warp_stage::cell<N, U>(r, k)], &y = rec[warp_stage::cell<N, U>(p, k)];
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
    const auto at = [rec](int i, int j) -> T & { return rec[warp_stage::cell<N, U>(i, j)]; };
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

} // namespace record
} // namespace kobalt_cuda

#endif
