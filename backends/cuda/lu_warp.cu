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

// dgetf2 on the item where it lies in its record (element (i, j) at rec[ws::cell<N, U>(i, j)]),
// with the same operations in the same order as kobalt_interleaved::lu, so the same factors,
// pivots and info. Against the item in registers: a row interchange is two loads and two
// stores a column at a runtime address instead of a select for every row below and every
// column, and the item holds no registers, so more warps fit an SM; each update is a load, an
// FMA and a store.
template <class T, int N, bool U> __device__ __forceinline__ void lu_in_record(T *rec, int (&pv)[N], int &info) {
    const auto at = [rec](int i, int j) -> T & { return rec[ws::cell<N, U>(i, j)]; };
    const T sfmin = ilw::smallest_normal<T>();
    info = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) {
        T c[N]; // column j, rows j .. N-1
#pragma unroll
        for (int i = j; i < N; ++i) c[i] = at(i, j);
        T amax = c[j] < T(0) ? -c[j] : c[j], pivot = c[j];
        int p = j;
#pragma unroll
        for (int i = j + 1; i < N; ++i) {
            const T v = c[i] < T(0) ? -c[i] : c[i];
            const bool g = v > amax; // strict: the first largest wins, NaN never does
            amax = g ? v : amax;
            pivot = g ? c[i] : pivot;
            p = g ? i : p;
        }
        pv[j] = p;
        if (pivot != T(0) && p != j) {
#pragma unroll
            for (int k = 0; k < N; ++k) {
                T &x = at(j, k), &y = rec[ws::cell<N, U>(p, k)];
                const T t = x;
                x = y;
                y = t;
            }
#pragma unroll
            for (int i = j + 1; i < N; ++i) c[i] = at(i, j); // row p now holds the old row j
        }
        const bool nonzero = pivot != T(0);
        if (!nonzero && info == 0) info = j + 1;
        const bool big = (pivot < T(0) ? -pivot : pivot) >= sfmin;
        const T r = T(1) / pivot;
#pragma unroll
        for (int i = j + 1; i < N; ++i) {
            const T x = c[i];
            c[i] = big ? x * r : (nonzero ? x / pivot : x);
            at(i, j) = c[i];
        }
#pragma unroll
        for (int k = j + 1; k < N; ++k) {
            const T u = at(j, k);
#pragma unroll
            for (int i = j + 1; i < N; ++i) at(i, k) -= c[i] * u;
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
