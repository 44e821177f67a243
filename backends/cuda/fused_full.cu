// fused_full.cu -- the fused call at n = 9 ... 32 (k <= the group width W = 16 or 32, nrhs
// <= 1), any layout and op: W lanes per item, lane i building, factoring and solving row i
// in registers (FUSED_FULL_MIN / FUSED_FULL_MAX, docs/cuda.md).
//
// Why: the group kernel it replaces (fused_group in groups.cu) reached 25-30% of the copy
// bandwidth at n = 16 and 32 on an H200: it reads op(X) and op(Y) from global memory inside
// the product and factors with a shuffle per element. Here, as in getrf's full-item kernel
// (lu_full.cuh, 40-49% at n = 16, 32, which moves two thirds of the fused call's bytes):
//  - each group walks a grid-stride sequence of items on a grid of resident blocks, and
//    issues the next item's copies (cp.async) as soon as the current item is in registers,
//    so they land while it is factored and solved;
//  - op(X), op(Y) and A are staged row by row (row r of op(M) at r * P: whatever the layout
//    and transpose, lane r reads its own row of op(X) and A with 16-byte loads, and every
//    lane the same row of op(Y), a broadcast), so one product serves every op pair;
//  - the LU is lu_full.cuh's (pivot row through shared memory, lazy interchanges) with b
//    eliminated alongside (the forward solve for free), then one backward sweep of shuffles.
// n below W: the item is padded with an identity (cells outside the operands stay zero in
// shared memory, lanes >= n get a 1 on their diagonal), and only n elimination steps and n
// backward steps run, so the padding never reaches the item's rows or pivots.
#include <cuda_pipeline.h>

#include "fused_full.cuh"
#include "lu_full.cuh"
#include "warp_stage.cuh"

namespace kobalt_cuda {
namespace {

using namespace group;

constexpr int kFullWarps = 4; // warps a block

// One group's slot in shared memory (elements of T): op(X), op(Y) and, when beta != 0, A, each
// W rows of pitch P (16-byte aligned rows; lane r's row starts on its own bank group), then
// b (W), lu_full's two row buffers, and the lane holding each logical row (W ints).
template <int W, class T> struct Slot {
    static constexpr int E = 16 / int(sizeof(T));
    static constexpr int P = W + E;
    static constexpr int M = W * P;
    static constexpr int RS = lu_full_row<W, T, true>();
    __host__ __device__ static constexpr int elems(bool readA) { return (readA ? 3 : 2) * M + W + 2 * RS + W; }
};

// Blocks per SM the register cap aims at: what the slots (beta == 0) leave room for.
template <int W, class T> constexpr int full_fused_blocks() {
    return sizeof(T) == 8 ? (W == 32 ? 3 : 5) : (W == 32 ? 5 : 8);
}

struct FullShape {
    int n, k;
    bool readXY, readA, rhs; // alpha != 0 and k > 0; beta != 0; nrhs == 1
};

// Copies op(M) of one item (p; d describes the stored matrix) into dst, row r at dst + r * P:
// lane i copies memory element i of every stored column (row-major: row), so consecutive lanes
// read consecutive addresses.
template <int W, class T>
__device__ __forceinline__ void stage(T *dst, const MatDesc &d, const T *p, int lane) {
    constexpr int P = Slot<W, T>::P;
    const bool rows_inner = d.col != d.trans; // the stored fast index runs along op(M)'s rows
    const int inner = d.inner(), outer = d.outer();
    if (lane >= inner) return;
    const T *src = p + lane;
    T *cell = rows_inner ? dst + lane * P : dst + lane;
    const int step = rows_inner ? 1 : P;
#pragma unroll 8
    for (int o = 0; o < outer; ++o) {
        __pipeline_memcpy_async(cell, src, sizeof(T));
        src += d.ld;
        cell += step;
    }
}

// a += row `lane` of op(X) (xr) times op(Y) (ys, rows of pitch P, the same row read by every
// lane: a broadcast), the first NC columns. Cells past k are zero; below the group width
// (NC < W) the chunks of KC values of p from k on are skipped. At NC = W the loop stays
// unconditional: with the branch, n = 13 (k = 13, nothing to skip) ran 5% slower on an H200.
template <int W, class T, int NC>
__device__ __forceinline__ void product(const T *xr, const T *ys, T (&a)[NC], int k) {
    using V = typename Vec16<T>::type;
    constexpr int E = Slot<W, T>::E, P = Slot<W, T>::P, KC = 8; // KC: op(X) elements held at a time
#pragma unroll
    for (int p0 = 0; p0 < W; p0 += KC) {
        if (NC < W && p0 >= k) break;
        T x[KC];
#pragma unroll
        for (int q = 0; q < KC; q += E) {
            const V v = *reinterpret_cast<const V *>(xr + p0 + q);
#pragma unroll
            for (int e = 0; e < E; ++e) x[q + e] = reinterpret_cast<const T *>(&v)[e];
        }
#pragma unroll
        for (int pp = 0; pp < KC; ++pp) {
            const T *yr = ys + (p0 + pp) * P;
#pragma unroll
            for (int c = 0; c < NC; c += E) {
                const V v = *reinterpret_cast<const V *>(yr + c);
#pragma unroll
                for (int e = 0; e < E; ++e) a[c + e] += x[pp] * reinterpret_cast<const T *>(&v)[e];
            }
        }
    }
}

// NC: the columns a lane holds (n rounded up to 4 below W, as getrf's lu_full.cuh).
template <int W, int NC, class T, bool Pivot, class XA, class YA, class AA, class BA>
__global__ void __launch_bounds__(kFullWarps * 32, (full_fused_blocks<W, T>()))
    fused_full(FullShape sh, T alpha, MatDesc dX, XA X, MatDesc dY, YA Y, T beta, MatDesc dA, AA A, int *ipiv,
               idx sp, MatDesc dB, BA B, int *info, idx batch) {
    using S = Slot<W, T>;
    using V = typename Vec16<T>::type;
    constexpr int E = S::E, P = S::P, G = kFullWarps * 32 / W;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int g = int(threadIdx.x) / W, lane = int(threadIdx.x) % W, n = sh.n;
    const int elems = S::elems(sh.readA);
    T *const slot = reinterpret_cast<T *>(smem_raw) + g * elems;
    T *const xs = slot, *const ys = slot + S::M, *const as = slot + 2 * S::M;
    T *const bs = slot + (sh.readA ? 3 : 2) * S::M;
    T *const rows = bs + W;
    int *const lane_of = reinterpret_cast<int *>(rows + 2 * S::RS);
    // the cells outside the operands stay zero for good: the copies never write them
    for (int e = lane; e < elems; e += W) slot[e] = T(0);
    __syncwarp();
    const auto issue = [&](idx item) {
        if (item < batch) {
            if (sh.readXY) {
                stage<W>(xs, dX, X(item), lane);
                stage<W>(ys, dY, Y(item), lane);
            }
            if (sh.readA) stage<W>(as, dA, static_cast<const T *>(A(item)), lane);
            if (sh.rhs && lane < n) {
                const Mat<T> vb = dB.global(B(item));
                __pipeline_memcpy_async(bs + lane, &vb(lane, 0), sizeof(T));
            }
        }
        __pipeline_commit();
    };
    const idx stride = idx(gridDim.x) * G;
    issue(idx(blockIdx.x) * G + g);
    // every lane of a block runs the same number of iterations (the shuffles and warp
    // reductions of the LU take all 32 lanes)
    for (idx base = idx(blockIdx.x) * G; base < batch; base += stride) {
        const idx item = base + g;
        const bool valid = item < batch;
        __pipeline_wait_prior(0);
        __syncwarp(); // other lanes' copies (op(X) transposed, op(Y)) are visible
        T a[NC];
#pragma unroll
        for (int c = 0; c < NC; ++c) a[c] = T(0);
        if (sh.readXY) product<W>(xs + lane * P, ys, a, sh.k);
#pragma unroll
        for (int c = 0; c < NC; c += E) {
            V v{};
            if (sh.readA) v = *reinterpret_cast<const V *>(as + lane * P + c);
#pragma unroll
            for (int e = 0; e < E; ++e) {
                const T t = alpha * a[c + e];
                a[c + e] = sh.readA ? t + beta * reinterpret_cast<const T *>(&v)[e] : t;
            }
        }
        pad_identity<W>(a, lane, n);
        T b = bs[lane];
        __syncwarp(); // the slot is read: the next item's copies may land in it
        issue(item + stride);
        int mypiv, pos;
        T diag = T(1);
        const int r = lu_full_steps<W, T, Pivot, true>(a, lane, mypiv, pos, rows, b, diag, n);
        // b now holds y = L^{-1} P b for logical row pos; x = U^{-1} y, one row per step
        if (sh.rhs) {
            lane_of[pos] = lane;
            __syncwarp();
            const T rd = T(1) / diag;
            const bool recip = reciprocal_safe(fabs(diag));
#pragma unroll
            for (int j = NC - 1; j >= 0; --j) {
                if (j >= n) continue;
                if (pos == j) b = recip ? b * rd : b / diag;
                const T xj = shf<W>(b, lane_of[j]);
                if (pos < j) b -= a[j] * xj;
            }
        }
        if (valid) {
            if (lane < n) {
                store_row(dA.global(A(item)), a, pos, n);
                if (Pivot) ipiv[item * sp + lane] = mypiv + 1;
                if (sh.rhs && r == 0) {
                    const Mat<T> vb = dB.global(B(item));
                    vb(pos, 0) = b;
                }
            }
            if (lane == 0) info[item] = r;
        }
    }
}

template <int W, int NC, class T, bool Pivot, class XA, class YA, class AA, class BA>
bool launch_nc(const FullShape &sh, T alpha, const MatDesc &dX, XA X, const MatDesc &dY, YA Y, T beta,
               const MatDesc &dA, AA A, int *ipiv, idx sp, const MatDesc &dB, BA B, int *info, idx batch,
               cudaStream_t st) {
    constexpr int per_warp = 32 / W;
    const size_t bytes = sizeof(T) * size_t(Slot<W, T>::elems(sh.readA)) * per_warp;
    return warp_stage::launch_resident(fused_full<W, NC, T, Pivot, XA, YA, AA, BA>, kFullWarps, bytes, per_warp,
                                       batch, st, sh, alpha, dX, X, dY, Y, beta, dA, A, ipiv, sp, dB, B, info, batch);
}
template <int W, class T, bool Pivot, class XA, class YA, class AA, class BA>
bool launch(const FullShape &sh, T alpha, const MatDesc &dX, XA X, const MatDesc &dY, YA Y, T beta,
            const MatDesc &dA, AA A, int *ipiv, idx sp, const MatDesc &dB, BA B, int *info, idx batch,
            cudaStream_t st) {
    return group::with_full_columns<W>(sh.n, [&](auto nc) {
        return launch_nc<W, decltype(nc)::value, T, Pivot>(sh, alpha, dX, X, dY, Y, beta, dA, A, ipiv, sp, dB, B,
                                                           info, batch, st);
    });
}

template <int W, class T, class XA, class YA, class AA, class BA>
bool launch_w(const FullShape &sh, T alpha, const MatDesc &dX, XA X, const MatDesc &dY, YA Y, T beta,
              const MatDesc &dA, AA A, int *ipiv, idx sp, const MatDesc &dB, BA B, int *info, idx batch,
              cudaStream_t st) {
    if (ipiv) return launch<W, T, true>(sh, alpha, dX, X, dY, Y, beta, dA, A, ipiv, sp, dB, B, info, batch, st);
    return launch<W, T, false>(sh, alpha, dX, X, dY, Y, beta, dA, A, ipiv, sp, dB, B, info, batch, st);
}

} // namespace

template <class T, class XA, class YA, class AA, class BA>
bool full_fused(int n, int k, int nrhs, T alpha, const MatDesc &dX, XA X, const MatDesc &dY, YA Y, T beta,
                const MatDesc &dA, AA A, int *ipiv, idx strideIpiv, const MatDesc &dB, BA B, int *info, idx batch,
                cudaStream_t st) {
    const int W = group::width(n);
    if (n < 9 || W < 16 || k > W || nrhs > 1 || batch < 1) return false;
    FullShape sh;
    sh.n = n;
    sh.k = k;
    sh.readXY = alpha != T(0) && k > 0;
    sh.readA = beta != T(0);
    sh.rhs = nrhs == 1;
    if (W == 16)
        return launch_w<16, T>(sh, alpha, dX, X, dY, Y, beta, dA, A, ipiv, strideIpiv, dB, B, info, batch, st);
    return launch_w<32, T>(sh, alpha, dX, X, dY, Y, beta, dA, A, ipiv, strideIpiv, dB, B, info, batch, st);
}

#define KOBALT_FUSED_FULL_INSTANTIATE(T)                                                                        \
    template bool full_fused<T>(int, int, int, T, const MatDesc &, Strided<const T>, const MatDesc &,           \
                                Strided<const T>, T, const MatDesc &, Strided<T>, int *, idx, const MatDesc &,  \
                                Strided<T>, int *, idx, cudaStream_t);                                          \
    template bool full_fused<T>(int, int, int, T, const MatDesc &, Ptrs<const T>, const MatDesc &, Ptrs<const T>, \
                                T, const MatDesc &, Ptrs<T>, int *, idx, const MatDesc &, Ptrs<T>, int *, idx,   \
                                cudaStream_t);
KOBALT_FUSED_FULL_INSTANTIATE(double)
KOBALT_FUSED_FULL_INSTANTIATE(float)

} // namespace kobalt_cuda
