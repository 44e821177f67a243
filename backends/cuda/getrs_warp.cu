// getrs_warp.cu -- getrs (nrhs = 1) at n <= 8 in the standard layouts: one thread per item,
// the factors in registers, each warp's 32 items (factors and b) staged through shared memory
// (warp_stage.cuh; GETRS_WARP_MIN / GETRS_WARP_MAX, docs/cuda.md).
//
// Why: the same staging took getrf at n = 2..5 from 36-76% to 83-87% of the copy bandwidth
// and the fused call at n = 2..4 to 86-90%; getrs had a one-thread kernel only for double,
// column-major, NoTrans (getrs_pipe.cuh, 52-91%), and the group kernel for the rest. A lane
// applies the interchanges and both triangular solves with the interleaved kernels' solve
// (kobalt_interleaved::solve, either transpose); its pivots are read straight from memory.
#include "../common/interleaved_algo.hpp"
#include "common.cuh"
#include "getrs_warp.cuh"
#include "warp_stage.cuh"

namespace kobalt_cuda {

namespace {

namespace ilw = kobalt_interleaved;
namespace ws = warp_stage;

// Cells of an item's record: the factors (n x n), b (n) and, where `ahead`, x (n more;
// otherwise x goes out through b's cells). One count for the kernel's pitch and the launch's
// slice size.
__host__ __device__ constexpr int record_cells(int n, bool ahead) { return n * n + (ahead ? 2 * n : n); }

// AHEAD (GETRS_WARP_AHEAD_MIN, one slice a warp): the next group's factors and b are copied
// into the slice as soon as this group's are in registers, so they are in flight during the
// solve and the write-back; x goes out through N more cells a record (a prefetch for
// N more cells instead of a second slice, which would halve the warps an SM).
template <class T, int N, int BUF, bool AHEAD, class AA, class BA>
__global__ void __launch_bounds__(ws::kWarpsPerBlock * 32)
    getrs_warp(bool flat, bool col, bool trans, idx lda, AA A, const int *ipiv, idx strideIpiv, idx ldb, BA B, idx batch) {
    constexpr int NN = N * N, offB = NN, offX = AHEAD ? NN + N : offB, P = ws::pitch(record_cells(N, AHEAD));
    T *const s = ws::warp_slices<T, BUF>(P);
    const auto in = [&](T *slice, idx first, int count) {
        ws::copy_square<N, true>(flat, slice, P, 0, A, lda, first, count);
        ws::copy_vector<N, true>(flat, col, slice, P, offB, B, ldb, first, count);
    };
    // the factors (element (i, j) at a[i + j * N]) and b (at a[NN + i]) into registers
    const auto build = [&](const T *rec, T (&a)[NN + N]) {
        ws::to_regs<N>(col, rec, a);
#pragma unroll
        for (int i = 0; i < N; ++i) a[NN + i] = rec[offB + i];
    };
    // the interchanges and both solves, x into b's cells
    const auto finish = [&](T *rec, T (&a)[NN + N], bool mine, idx first) {
        int pv[N];
        const int *const piv = ipiv && mine ? ipiv + (first + threadIdx.x % 32) * strideIpiv : nullptr;
#pragma unroll
        for (int j = 0; j < N; ++j) pv[j] = piv ? piv[j] - 1 : j;
        ilw::solve<ilw::ScalarOps<T>, N>(trans, a, pv, ipiv != nullptr, a + NN);
#pragma unroll
        for (int i = 0; i < N; ++i) rec[offX + i] = a[NN + i];
    };
    const auto out = [&](T *slice, idx first, int count) {
        ws::copy_vector<N, false>(flat, col, slice, P, offX, B, ldb, first, count);
    };
    if constexpr (AHEAD) {
        static_assert(BUF == 1, "the ahead mode has one slice a warp");
        ws::for_each_group_x_ahead<NN + N>(s, P, batch, in, [](T *, idx, int) {}, build, finish, out);
    } else {
        const auto work = [&](T *rec, bool mine, idx first) {
            T a[NN + N];
            build(rec, a);
            finish(rec, a, mine, first);
        };
        ws::for_each_group<BUF>(s, P, batch, in, work, out);
    }
}

template <class T, int N, class AA, class BA>
bool launch(bool col, bool trans, idx lda, AA A, const int *ipiv, idx strideIpiv, idx ldb, BA B, idx batch,
            cudaStream_t st) {
    const auto slice = [](bool ahead) { return sizeof(T) * 32 * ws::pitch(record_cells(N, ahead)); };
    const int ahead_min = int(threshold(GETRS_WARP_AHEAD_MIN));
    if (ahead_min > 0 && N >= ahead_min)
        return ws::launch_staged(getrs_warp<T, N, 1, true, AA, BA>, getrs_warp<T, N, 2, false, AA, BA>,
                                 ws::kWarpsPerBlock, slice(true), batch, st, col, trans, lda, A, ipiv, strideIpiv, ldb,
                                 B, batch);
    return ws::launch_staged(getrs_warp<T, N, 1, false, AA, BA>, getrs_warp<T, N, 2, false, AA, BA>,
                             ws::kWarpsPerBlock, slice(false), batch, st, col, trans, lda, A, ipiv, strideIpiv, ldb, B,
                             batch);
}

} // namespace

template <class T, class AA, class BA>
bool warp_getrs(int n, int nrhs, bool trans, const MatDesc &dA, AA A, const int *ipiv, idx strideIpiv,
                const MatDesc &dB, BA B, idx batch, cudaStream_t st) {
    if (nrhs != 1 || batch < 1) return false;
    switch (n) {
#define KOBALT_GETRS_WARP_CASE(N)                                                                  \
    case N: return launch<T, N>(dA.col, trans, dA.ld, A, ipiv, strideIpiv, dB.ld, B, batch, st);
        KOBALT_GETRS_WARP_CASE(1)
        KOBALT_GETRS_WARP_CASE(2)
        KOBALT_GETRS_WARP_CASE(3)
        KOBALT_GETRS_WARP_CASE(4)
        KOBALT_GETRS_WARP_CASE(5)
        KOBALT_GETRS_WARP_CASE(6)
        KOBALT_GETRS_WARP_CASE(7)
        KOBALT_GETRS_WARP_CASE(8)
#undef KOBALT_GETRS_WARP_CASE
    }
    return false;
}

#define KOBALT_GETRS_WARP_INSTANTIATE(T)                                                                           \
    template bool warp_getrs<T>(int, int, bool, const MatDesc &, Strided<const T>, const int *, idx, const MatDesc &, \
                                Strided<T>, idx, cudaStream_t);                                                    \
    template bool warp_getrs<T>(int, int, bool, const MatDesc &, Ptrs<const T>, const int *, idx, const MatDesc &,    \
                                Ptrs<T>, idx, cudaStream_t);
KOBALT_GETRS_WARP_INSTANTIATE(double)
KOBALT_GETRS_WARP_INSTANTIATE(float)

} // namespace kobalt_cuda
