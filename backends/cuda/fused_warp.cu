// fused_warp.cu -- the fused call at n <= 8 (k == n, nrhs == 1) in the standard layouts: one
// thread per item, the item in registers, each warp's 32 items staged through shared memory
// (warp_stage.cuh; FUSED_WARP_MIN / FUSED_WARP_MAX, docs/cuda.md).
//
// Why: the group kernel (a lane per row) reached 41% of the copy bandwidth at n = 8 on an
// H200 and the interleaved layout's one-thread kernel 73-76% (docs/performance.md). A lane
// builds its item as a sum of n rank-1 updates (column p of op(X) times row p of op(Y), read
// from the slice: 2 n loads per p instead of n + 1 for a column-by-column product), factors it
// with the interleaved kernels' LU (dgetf2's pivots, info and reciprocal rule) and solves.
// The record of an item in the slice: X (n x n), Y (n x n), b (n), then A (n x n) only when
// beta != 0; the factors go back through A's cells, or through X's when A was not read.
#include "../common/interleaved_algo.hpp"
#include "common.cuh"
#include "fused_warp.cuh"
#include "warp_stage.cuh"

namespace kobalt_cuda {

namespace {

namespace ilw = kobalt_interleaved;
namespace ws = warp_stage;

// a = op(X) op(Y) from the records x and y (XU / YU: ws::cell's U for op(X) / op(Y)).
template <class T, int N, bool XU, bool YU>
__device__ __forceinline__ void product(const T *x, const T *y, T *a) {
#pragma unroll
    for (int e = 0; e < N * N; ++e) a[e] = T(0);
#pragma unroll
    for (int p = 0; p < N; ++p) {
        T xv[N], yv[N];
#pragma unroll
        for (int i = 0; i < N; ++i) xv[i] = x[ws::cell<N, XU>(i, p)];
#pragma unroll
        for (int j = 0; j < N; ++j) yv[j] = y[ws::cell<N, YU>(p, j)];
#pragma unroll
        for (int j = 0; j < N; ++j)
#pragma unroll
            for (int i = 0; i < N; ++i) a[i + j * N] += xv[i] * yv[j];
    }
}

struct Shape {
    bool col, xu, yu;   // layout; op(X) / op(Y) rows along the stored fast index
    bool readXY, readA; // alpha != 0; beta != 0
    idx ldx, ldy, lda, ldb;
};

constexpr int kFusedAheadFrom = 5; // smallest n with an ahead kernel (launch)

// An item's record: X (N x N), Y (N x N), b (N), then A (N x N) only when beta != 0.
template <int N> struct Record {
    static constexpr int NN = N * N, offY = NN, offB = 2 * NN, offA = 2 * NN + N;
    __host__ __device__ static constexpr int pitch(bool readA) { return ws::pitch(offA + (readA ? NN : 0)); }
};

// AHEAD (FUSED_WARP_AHEAD_MIN, one slice a warp, alpha != 0): the next group's op(X) is
// copied into X's cells as soon as this group's products are in registers, so half of the
// next group's input is in flight during the LU, the solve and the write-back (a prefetch
// without a second slice, which would halve the warps an SM); the factors then go back
// through Y's cells (free after the product) where A was not read.
template <class T, int N, int BUF, bool AHEAD, class XA, class YA, class AA, class BA>
__global__ void __launch_bounds__(ws::kWarpsPerBlock * 32)
    fused_warp(bool flat, Shape sh, T alpha, XA X, YA Y, T beta, AA A, int *ipiv, idx strideIpiv, BA B, int *info,
               idx batch) {
    using R = Record<N>;
    constexpr int NN = R::NN, offY = R::offY, offB = R::offB, offA = R::offA;
    const int P = R::pitch(sh.readA), outA = sh.readA ? offA : (AHEAD ? offY : 0);
    T *const s = ws::warp_slices<T, BUF>(P);
    unsigned solved = 0; // the group's items with info == 0, one bit a lane
    const auto in_x = [&](T *slice, idx first, int count) {
        if (sh.readXY) ws::copy_square<N, true>(flat, slice, P, 0, X, sh.ldx, first, count);
    };
    const auto in_rest = [&](T *slice, idx first, int count) {
        if (sh.readXY) ws::copy_square<N, true>(flat, slice, P, offY, Y, sh.ldy, first, count);
        if (sh.readA) ws::copy_square<N, true>(flat, slice, P, offA, A, sh.lda, first, count);
        ws::copy_vector<N, true>(flat, sh.col, slice, P, offB, B, sh.ldb, first, count);
    };
    const auto in = [&](T *slice, idx first, int count) {
        in_x(slice, first, count);
        in_rest(slice, first, count);
    };
    // a = op(X) op(Y) from the record (zero when alpha == 0)
    const auto build = [&](const T *rec, T (&a)[NN]) {
        if (sh.readXY) {
            if (sh.xu)
                sh.yu ? product<T, N, true, true>(rec, rec + offY, a) : product<T, N, true, false>(rec, rec + offY, a);
            else
                sh.yu ? product<T, N, false, true>(rec, rec + offY, a) : product<T, N, false, false>(rec, rec + offY, a);
        } else {
#pragma unroll
            for (int e = 0; e < NN; ++e) a[e] = T(0);
        }
    };
    // alpha a + beta A, the LU, the factors into the record, ipiv, info and the solve
    const auto finish = [&](T *rec, T (&a)[NN], bool mine, idx first) {
        if (sh.readA) {
            T c[NN];
            ws::to_regs<N>(sh.col, rec + offA, c);
#pragma unroll
            for (int e = 0; e < NN; ++e) {
                T v = a[e] * alpha;
                v += c[e] * beta;
                a[e] = v;
            }
        } else {
#pragma unroll
            for (int e = 0; e < NN; ++e) a[e] *= alpha;
        }
        const bool pivoting = ipiv != nullptr;
        int pv[N], inf;
#pragma unroll
        for (int j = 0; j < N; ++j) pv[j] = j; // no pivoting: never read
        ilw::lu<ilw::ScalarOps<T>, N, N>(a, N, pivoting, pv, inf);
        ws::from_regs<N>(sh.col, a, rec + outA);
        const idx item = first + threadIdx.x % 32;
        if (mine) {
            if (pivoting) {
                int *const piv = ipiv + item * strideIpiv;
#pragma unroll
                for (int j = 0; j < N; ++j) piv[j] = pv[j] + 1;
            }
            info[item] = inf;
        }
        solved = __ballot_sync(ws::kAll, mine && inf == 0);
        if (inf == 0) {
            T b[N];
#pragma unroll
            for (int i = 0; i < N; ++i) b[i] = rec[offB + i];
            ilw::solve<ilw::ScalarOps<T>, N>(false, a, pv, pivoting, b);
#pragma unroll
            for (int i = 0; i < N; ++i) rec[offB + i] = b[i];
        }
    };
    const auto out = [&](T *slice, idx first, int count) {
        ws::copy_square<N, false>(flat, slice, P, outA, A, sh.lda, first, count);
        ws::copy_vector<N, false>(flat, sh.col, slice, P, offB, B, sh.ldb, first, count, solved);
    };
    if constexpr (AHEAD) {
        static_assert(BUF == 1, "the ahead mode has one slice a warp");
        ws::for_each_group_x_ahead<NN>(s, P, batch, in_x, in_rest, build, finish, out);
    } else {
        const auto work = [&](T *rec, bool mine, idx first) {
            T a[NN]; // element (i, j) at a[i + j * N]
            build(rec, a);
            finish(rec, a, mine, first);
        };
        ws::for_each_group<BUF>(s, P, batch, in, work, out);
    }
}

template <class T, int N, class XA, class YA, class AA, class BA>
bool launch(const Shape &sh, T alpha, XA X, YA Y, T beta, AA A, int *ipiv, idx strideIpiv, BA B, int *info,
            idx batch, cudaStream_t st) {
    // one warp a block: a record of up to 3 n^2 + n elements makes the slices large, and
    // the SM's shared memory then holds whole warps rather than whole pairs of warps
    const size_t slice = sizeof(T) * 32 * Record<N>::pitch(sh.readA);
    const int ahead_min = int(threshold(FUSED_WARP_AHEAD_MIN));
    // the ahead kernels are compiled only from n = 5 (kFusedAheadFrom): below, the copies are
    // a small part of the time and the instantiations would only lengthen the build
    if constexpr (N >= kFusedAheadFrom) {
        if (sh.readXY && ahead_min > 0 && N >= ahead_min)
            return ws::launch_staged(fused_warp<T, N, 1, true, XA, YA, AA, BA>,
                                     fused_warp<T, N, 2, false, XA, YA, AA, BA>, 1, slice, batch, st, sh, alpha, X,
                                     Y, beta, A, ipiv, strideIpiv, B, info, batch);
    }
    return ws::launch_staged(fused_warp<T, N, 1, false, XA, YA, AA, BA>, fused_warp<T, N, 2, false, XA, YA, AA, BA>,
                             1, slice, batch, st, sh, alpha, X, Y, beta, A, ipiv, strideIpiv, B, info, batch);
}

} // namespace

template <class T, class XA, class YA, class AA, class BA>
bool warp_fused(int n, int k, int nrhs, T alpha, const MatDesc &dX, XA X, const MatDesc &dY, YA Y, T beta,
                const MatDesc &dA, AA A, int *ipiv, idx strideIpiv, const MatDesc &dB, BA B, int *info, idx batch,
                cudaStream_t st) {
    if (k != n || nrhs != 1 || batch < 1) return false;
    Shape sh;
    sh.col = dA.col;
    sh.xu = dX.col != dX.trans;
    sh.yu = dY.col != dY.trans;
    sh.readXY = alpha != T(0);
    sh.readA = beta != T(0);
    sh.ldx = dX.ld;
    sh.ldy = dY.ld;
    sh.lda = dA.ld;
    sh.ldb = dB.ld;
    switch (n) {
#define KOBALT_FUSED_WARP_CASE(N)                                                                  \
    case N: return launch<T, N>(sh, alpha, X, Y, beta, A, ipiv, strideIpiv, B, info, batch, st);
        KOBALT_FUSED_WARP_CASE(1)
        KOBALT_FUSED_WARP_CASE(2)
        KOBALT_FUSED_WARP_CASE(3)
        KOBALT_FUSED_WARP_CASE(4)
        KOBALT_FUSED_WARP_CASE(5)
        KOBALT_FUSED_WARP_CASE(6)
        KOBALT_FUSED_WARP_CASE(7)
        KOBALT_FUSED_WARP_CASE(8)
#undef KOBALT_FUSED_WARP_CASE
    }
    return false;
}

#define KOBALT_FUSED_WARP_INSTANTIATE(T)                                                                        \
    template bool warp_fused<T>(int, int, int, T, const MatDesc &, Strided<const T>, const MatDesc &,           \
                                Strided<const T>, T, const MatDesc &, Strided<T>, int *, idx, const MatDesc &,  \
                                Strided<T>, int *, idx, cudaStream_t);                                          \
    template bool warp_fused<T>(int, int, int, T, const MatDesc &, Ptrs<const T>, const MatDesc &, Ptrs<const T>, \
                                T, const MatDesc &, Ptrs<T>, int *, idx, const MatDesc &, Ptrs<T>, int *, idx,   \
                                cudaStream_t);
KOBALT_FUSED_WARP_INSTANTIATE(double)
KOBALT_FUSED_WARP_INSTANTIATE(float)

} // namespace kobalt_cuda
