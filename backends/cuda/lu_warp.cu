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
#include "lu_record.cuh"
#include "lu_warp.cuh"
#include "warp_stage.cuh"

namespace kobalt_cuda {

namespace {

namespace ilw = kobalt_interleaved;
namespace ws = warp_stage;

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
            col ? record::lu_in_record<T, N, record::kPanel, true>(rec, pv, inf)
                : record::lu_in_record<T, N, record::kPanel, false>(rec, pv, inf);
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
