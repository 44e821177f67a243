// desc.cu -- the _desc slots (operands in any strided layout) and pack/unpack on device
// memory. Three paths per call, in this order:
//   1. interleaved: every operand with elements has batch_stride 1 and the items are at
//      most INTERLEAVED_MAX (<= 8): one thread per item running the register kernels of
//      backends/common/interleaved_algo.hpp. Thread b reads element (i, j) of item b at
//      p + b + i*rs + j*cs, so a warp's 32 loads of one element are one coalesced access.
//      gemm has its own kernels for square items (every load before the first store; split
//      over warps with A staged in shared memory), see il_gemm_preload.
//   2. standard: column-/row-major items (backends/common/desc_standard.hpp) go to the
//      _strided slot unchanged (group kernels, cuBLAS).
//   3. general: one thread per item on strided global views (items.cuh), any strides.
#include <algorithm>

#include "../common/desc_standard.hpp"
#include "../common/interleaved_algo.hpp"
#include "common.cuh"
#include "il_lu_pair.cuh"
#include "il_prefetch.cuh"
#include "items.cuh"
#include "slots.cuh"

namespace kobalt_cuda {
namespace {

namespace il = kobalt_interleaved;
using il::Operand;
using il::Pivots;
using namespace kobalt_desc;

#define KOBALT_DESC_GRID_STRIDE(i, n)                                                              \
    for (idx i = idx(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += idx(gridDim.x) * blockDim.x)

constexpr int kThreads = 128;
int blocks_for(idx work) {
    const idx b = (work + kThreads - 1) / kThreads;
    return int(std::max<idx>(1, std::min<idx>(b, idx(multiprocessors()) * 64)));
}

kobalt_int interleaved_max() {
    const kobalt_int t = threshold(INTERLEAVED_MAX);
    return t < il::MAX_N ? t : il::MAX_N;
}

// ---- operands -----------------------------------------------------------------------------
// A described operand on the device: item b, element (i, j) at p[b*bs + i*rs + j*cs].
template <class T> struct DOp {
    T *p;
    idx rs, cs, bs;
    __device__ __forceinline__ Mat<T> item(idx b) const { return Mat<T>{p + b * bs, rs, cs}; }
    __device__ __forceinline__ Operand<T> lane(idx b) const { return Operand<T>{p + b * bs, rs, cs}; }
};
template <class T> DOp<T> dop(T *p, const kobalt_matrix_desc *d, kobalt_op op = KOBALT_NO_TRANS) {
    return op == KOBALT_NO_TRANS ? DOp<T>{p, d->row_stride, d->col_stride, d->batch_stride}
                                 : DOp<T>{p, d->col_stride, d->row_stride, d->batch_stride};
}
template <class T> DOp<T> dvec(T *p, const kobalt_matrix_desc *d) { return DOp<T>{p, d->row_stride, 0, d->batch_stride}; }
template <class T> DOp<T> dtrans(DOp<T> o) { return DOp<T>{o.p, o.cs, o.rs, o.bs}; }

// Pivots of item b: entry j at p[b*bs + j*inc]; p NULL: no pivoting.
struct DPiv {
    int *p;
    idx inc, bs;
    __device__ __forceinline__ Pivots lane(idx b) const { return Pivots{p ? p + b * bs : nullptr, inc, 1}; }
};
DPiv dpiv(int *ipiv, const kobalt_matrix_desc *d) {
    if (!ipiv) return {nullptr, 0, 0};
    return {ipiv, d->rows > 1 ? d->row_stride : 0, d->batch_stride};
}

// ---- general-stride item kernels -------------------------------------------------------------
template <class T>
__global__ void gemm_general(int m, int n, int k, T alpha, DOp<const T> A, DOp<const T> B, T beta, DOp<T> C, idx batch) {
    const bool readAB = alpha != T(0) && k > 0;
    KOBALT_DESC_GRID_STRIDE(b, batch) gemm_item<T>(m, n, k, alpha, A.item(b), B.item(b), beta, C.item(b), readAB);
}

template <class T>
__global__ void trsm_general(bool left, bool lower, bool unit, int m, int n, T alpha, DOp<const T> A, DOp<T> B,
                             idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch) trsm_item<T>(left, lower, unit, m, n, alpha, A.item(b), B.item(b));
}

template <class T> __global__ void getrf_general_kernel(int m, int n, DOp<T> A, DPiv piv, int *info, idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch)
    info[b] = getrf_item<T>(m, n, A.item(b), piv.p ? piv.p + b * piv.bs : nullptr, piv.inc);
}

template <class T>
__global__ void getrs_general_kernel(bool trans, int n, int nrhs, DOp<const T> A, DPiv piv, DOp<T> B, idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch)
    getrs_item<T>(trans, n, nrhs, A.item(b), piv.p ? piv.p + b * piv.bs : nullptr, B.item(b), piv.inc);
}

template <class T>
__global__ void fused_general(int n, int k, int nrhs, T alpha, DOp<const T> X, DOp<const T> Y, T beta, DOp<T> A,
                              DPiv piv, DOp<T> B, int *info, idx batch) {
    const bool readXY = alpha != T(0) && k > 0;
    KOBALT_DESC_GRID_STRIDE(b, batch) {
        const Mat<T> a = A.item(b);
        gemm_item<T>(n, n, k, alpha, X.item(b), Y.item(b), beta, a, readXY);
        int *const p = piv.p ? piv.p + b * piv.bs : nullptr;
        const int r = getrf_item<T>(n, n, a, p, piv.inc);
        info[b] = r;
        if (r == 0) getrs_item<T>(false, n, nrhs, Mat<const T>{a.p, a.rs, a.cs}, p, B.item(b), piv.inc);
    }
}

// ---- interleaved register kernels: one thread per item --------------------------------------
template <class T, int MM, int NK = 0>
__global__ void il_gemm(int n, int k, T alpha, DOp<const T> A, DOp<const T> B, T beta, DOp<T> C, idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch)
    il::gemm<il::ScalarOps<T>, MM, NK, NK>(n, k, alpha, A.lane(b), B.lane(b), beta, C.lane(b));
}
// The same product with an item's columns split: warp g of a block computes column pair
// (2g, 2g+1) of 32 consecutive items (lane = item, so every load stays coalesced). An 8 x 8
// item keeps 16 accumulators per thread instead of 64 and runs on 4 threads, which hides
// the load latency that leaves one thread per item at about half the copy bandwidth; the
// 4 warps read the same A elements, mostly from L1.
template <class T, int MM, int NK = 0>
__global__ void il_gemm_split(int n, int k, T alpha, DOp<const T> A, DOp<const T> B, T beta, DOp<T> C, idx batch) {
    const int j = 2 * int(threadIdx.x / 32);
    const int kk = NK ? NK : k;
    for (idx b = idx(blockIdx.x) * 32 + threadIdx.x % 32; b < batch; b += idx(gridDim.x) * 32) {
        if (j + 1 < n) il::gemm_columns<il::ScalarOps<T>, MM, 2>(j, kk, alpha, A.lane(b), B.lane(b), beta, C.lane(b));
        else if (j < n) il::gemm_columns<il::ScalarOps<T>, MM, 1>(j, kk, alpha, A.lane(b), B.lane(b), beta, C.lane(b));
    }
}
// Square M x M items (m == n == k), one thread per item, every load of A and B issued
// before the first store of C. The column-pair loop above cannot do that: C may alias A or
// B as far as the compiler knows, so each pair's loads wait for the previous pair's stores
// (one DRAM round trip per pair) and A is read again per pair. Costs 2 M^2 registers.
template <class T, int M>
__global__ void il_gemm_preload(T alpha, DOp<const T> A, DOp<const T> B, T beta, DOp<T> C, idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch) {
        const Operand<const T> a = A.lane(b), bb = B.lane(b);
        const Operand<T> c = C.lane(b);
        T ra[M * M], rb[M * M];
#pragma unroll
        for (int e = 0; e < M * M; ++e) ra[e] = rb[e] = T(0);
        if (alpha != T(0)) {
#pragma unroll
            for (int p = 0; p < M; ++p)
#pragma unroll
                for (int i = 0; i < M; ++i) ra[i + p * M] = *il::at(a, i, p), rb[i + p * M] = *il::at(bb, i, p);
        }
#pragma unroll
        for (int j = 0; j < M; ++j)
#pragma unroll
            for (int i = 0; i < M; ++i) {
                T acc = T(0); // the same order of operations as gemm_columns
#pragma unroll
                for (int p = 0; p < M; ++p) acc += ra[i + p * M] * rb[p + j * M];
                T v = acc * alpha;
                if (beta != T(0)) v += *il::at(c, i, j) * beta;
                *il::at(c, i, j) = v;
            }
    }
}
// il_gemm_split for square M x M items with A staged once per block in shared memory: the
// (M + 1) / 2 warps of a block share out the M^2 element planes of A of their 32 items
// (each plane one coalesced load, read from DRAM once), then warp g multiplies its column
// pair by A from shared memory. Without it each warp reads all of A itself (L1/L2).
template <class T, int M>
__global__ void il_gemm_split_shared(T alpha, DOp<const T> A, DOp<const T> B, T beta, DOp<T> C, idx batch) {
    constexpr int W = (M + 1) / 2, PER = (M * M + W - 1) / W;
    __shared__ T sa[M * M][32];
    const int lane = int(threadIdx.x % 32), w = int(threadIdx.x / 32), j = 2 * w;
    const bool read = alpha != T(0);
    // base is the same for the whole block, so every thread reaches both barriers
    for (idx base = idx(blockIdx.x) * 32; base < batch; base += idx(gridDim.x) * 32) {
        const idx b = base + lane;
        const bool live = b < batch;
        T rb[2][M], ta[PER];
        // Loads into registers first, shared stores after: a generic pointer may point
        // into shared memory, so a load written after a shared store waits for it.
#pragma unroll
        for (int c = 0; c < 2; ++c)
#pragma unroll
            for (int p = 0; p < M; ++p)
                rb[c][p] = live && read && j + c < M ? *il::at(B.lane(b), p, j + c) : T(0);
#pragma unroll
        for (int q = 0; q < PER; ++q) {
            const int e = w + q * W;
            ta[q] = live && read && e < M * M ? *il::at(A.lane(b), e % M, e / M) : T(0);
        }
#pragma unroll
        for (int q = 0; q < PER; ++q)
            if (w + q * W < M * M) sa[w + q * W][lane] = ta[q];
        __syncthreads();
        if (live) {
            const Operand<T> c = C.lane(b);
#pragma unroll
            for (int cc = 0; cc < 2; ++cc)
                if (j + cc < M) {
#pragma unroll
                    for (int i = 0; i < M; ++i) {
                        T acc = T(0);
#pragma unroll
                        for (int p = 0; p < M; ++p) acc += sa[i + p * M][lane] * rb[cc][p];
                        T v = acc * alpha;
                        if (beta != T(0)) v += *il::at(c, i, j + cc) * beta;
                        *il::at(c, i, j + cc) = v;
                    }
                }
        }
        __syncthreads();
    }
}
// Blocks of 32 items x (column pairs) warps, at most 64 resident-sized waves per SM.
dim3 split_blocks(idx batch) {
    return dim3(unsigned(std::max<idx>(1, std::min<idx>((batch + 31) / 32, idx(multiprocessors()) * 64))));
}

template <class T, int MM>
__global__ void il_trsm(bool lower, bool unit, int n, T alpha, DOp<const T> A, DOp<T> B, idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch) il::trsm<il::ScalarOps<T>, MM>(lower, unit, n, alpha, A.lane(b), B.lane(b));
}
template <class T, int N> __global__ void il_getrf(DOp<T> A, DPiv piv, int *info, idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch) il::getrf<il::ScalarOps<T>, N, N>(N, A.lane(b), piv.lane(b), info + b);
}
template <class T, int N>
__global__ void il_getrs(bool trans, int nrhs, DOp<const T> A, DPiv piv, DOp<T> B, idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch) il::getrs<il::ScalarOps<T>, N>(trans, nrhs, A.lane(b), piv.lane(b), B.lane(b));
}
// KK: k at compile time (k == N), 0: at run time. EarlyB: B's first column loaded before the
// LU (INTERLEAVED_FUSED_EARLY_B, double n = 7: il::fused's load of B after storing A left
// each item waiting one more DRAM round trip after its LU; H200 n = 7 85.0% -> 87.3% of the
// copy bandwidth; at n = 8, where the kernel spills, this form gained nothing (a separate
// kernel had, +1.4 points): docs/performance.md "Issue 9, the fused call at n = 8").
template <class T, int N, int KK = 0, bool EarlyB = false>
__global__ void il_fused(int k, int nrhs, T alpha, DOp<const T> X, DOp<const T> Y, T beta, DOp<T> A, DPiv piv,
                         DOp<T> B, int *info, idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch)
    il::fused<il::ScalarOps<T>, N, KK, EarlyB>(k, nrhs, alpha, X.lane(b), Y.lane(b), beta, A.lane(b), piv.lane(b),
                                               B.lane(b), info + b);
}
// il_fused with k == N and the registers capped so that kBoundedWarps warps fit on an SM
// (INTERLEAVED_FUSED_BOUNDED_MAX). At n = 6 in double il_fused needs 188 registers (8 warps
// per SM); capped at 168 it spills 32 bytes and 12 warps keep more loads in flight: 86% ->
// 90% of the copy bandwidth on an H200 (n = 4, where the cap does not bind but ptxas schedules
// differently, 94 registers instead of 82: 87% -> 92.5%). At n = 7 / 8 the cap spills 480 / 1312 bytes and
// loses (64% / 41%), and getrf capped lost at n = 7 / 8 (62 / 286 bytes spilled; 82% / 59%
// against 87.5% / 82%), so only the fused call has it (docs/performance.md).
constexpr int kBoundedWarps = 12;
template <class T, int N>
__global__ void __launch_bounds__(kThreads, kBoundedWarps * 32 / kThreads)
    il_fused_bounded(int nrhs, T alpha, DOp<const T> X, DOp<const T> Y, T beta, DOp<T> A, DPiv piv, DOp<T> B,
                     int *info, idx batch) {
    KOBALT_DESC_GRID_STRIDE(b, batch)
    il::fused<il::ScalarOps<T>, N, N>(N, nrhs, alpha, X.lane(b), Y.lane(b), beta, A.lane(b), piv.lane(b), B.lane(b),
                                      info + b);
}

// The prefetching getrs of il_prefetch.cuh (from INTERLEAVED_GETRS_PREFETCH_MIN): grid from
// the kernel's occupancy.
template <class T, int N>
void launch_getrs_prefetch(bool trans, int nrhs, DOp<const T> a, DPiv p, DOp<T> b, idx batch) {
    const unsigned g = prefetch_blocks<il_getrs_prefetch<T, N, DOp<const T>, DOp<T>, DPiv>>(kPrefetchThreads, batch);
    il_getrs_prefetch<T, N, DOp<const T>, DOp<T>, DPiv><<<g, kPrefetchThreads, 0, stream()>>>(trans, nrhs, a, p, b, batch);
}

#define KOBALT_DESC_SWITCH(n, CALL)                                                                \
    switch (n) {                                                                                   \
    case 1: CALL(1); break;                                                                        \
    case 2: CALL(2); break;                                                                        \
    case 3: CALL(3); break;                                                                        \
    case 4: CALL(4); break;                                                                        \
    case 5: CALL(5); break;                                                                        \
    case 6: CALL(6); break;                                                                        \
    case 7: CALL(7); break;                                                                        \
    case 8: CALL(8); break;                                                                        \
    default: break;                                                                                \
    }
static_assert(il::MAX_N == 8, "KOBALT_DESC_SWITCH covers 1..MAX_N");

template <class T> kobalt_status launched(const char *routine) { return launch_status(precision_letter<T>(), routine); }

// ---- pack / unpack ---------------------------------------------------------------------------
// Thread t moves element e = t / batch of item b = t % batch: consecutive threads touch
// consecutive cells of one element plane of P (coalesced), the strided side is read or
// written through the caches.
template <class T, bool Pack>
__global__ void pack_kernel(int rows, int cols, T *A, idx rs, idx cs, idx strideA, T *P, idx ldp, idx batch) {
    const idx total = batch * rows * cols;
    KOBALT_DESC_GRID_STRIDE(t, total) {
        const idx e = t / batch, b = t - e * batch;
        const idx i = e % rows, j = e / rows;
        T *a = A + b * strideA + i * rs + j * cs;
        T *p = P + e * ldp + b;
        if (Pack) *p = *a;
        else *a = *p;
    }
}

} // namespace

// ---- gemm -------------------------------------------------------------------------------------
template <class Real>
kobalt_status gemm_desc(kobalt_op transa, kobalt_op transb, Real alpha, const Real *A, const kobalt_matrix_desc *descA,
                        const Real *B, const kobalt_matrix_desc *descB, Real beta, Real *C,
                        const kobalt_matrix_desc *descC, kobalt_int batch) {
    static const char r[] = "gemm_desc";
    const kobalt_int m = descC->rows, n = descC->cols;
    const kobalt_int k = transa == KOBALT_NO_TRANS ? descA->cols : descA->rows;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    const DOp<const Real> a = dop(A, descA, transa), b = dop(B, descB, transb);
    const DOp<Real> c = dop(C, descC);
    const kobalt_int split_min = threshold(INTERLEAVED_GEMM_SPLIT_MIN);
    // square items: every size at compile time (the preload and shared-A kernels)
    const kobalt_int sq = m == n && n == k ? m : 0;
    if (all_interleaved({descA, descB, descC}, batch) && std::max(m, std::max(n, k)) <= interleaved_max() &&
        split_min > 0 && std::max(m, std::max(n, k)) >= split_min) {
        const unsigned threads = unsigned(32 * ((n + 1) / 2));
        const kobalt_int shared_min = threshold(INTERLEAVED_GEMM_SHARED_MIN);
        if (sq > 0 && shared_min > 0 && sq >= shared_min) {
#define KOBALT_DESC_CALL(M)                                                                        \
    il_gemm_split_shared<Real, M><<<split_blocks(batch), threads, 0, stream()>>>(alpha, a, b, beta, c, batch)
            KOBALT_DESC_SWITCH(int(sq), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
            return launched<Real>(r);
        }
#define KOBALT_DESC_CALL(M)                                                                        \
    (n == M && k == M                                                                                  \
         ? il_gemm_split<Real, M, M><<<split_blocks(batch), threads, 0, stream()>>>(int(n), int(k), alpha, a, b, beta, c, batch) \
         : il_gemm_split<Real, M><<<split_blocks(batch), threads, 0, stream()>>>(int(n), int(k), alpha, a, b, beta, c, batch))
        KOBALT_DESC_SWITCH(int(m), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
        return launched<Real>(r);
    }
    if (all_interleaved({descA, descB, descC}, batch) && std::max(m, std::max(n, k)) <= interleaved_max()) {
        if (sq > 0 && sq <= threshold(INTERLEAVED_GEMM_PRELOAD_MAX)) {
#define KOBALT_DESC_CALL(M)                                                                        \
    il_gemm_preload<Real, M><<<blocks_for(batch), kThreads, 0, stream()>>>(alpha, a, b, beta, c, batch)
            KOBALT_DESC_SWITCH(int(sq), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
            return launched<Real>(r);
        }
#define KOBALT_DESC_CALL(M)                                                                        \
    (n == M && k == M                                                                                  \
         ? il_gemm<Real, M, M><<<blocks_for(batch), kThreads, 0, stream()>>>(int(n), int(k), alpha, a, b, beta, c, batch) \
         : il_gemm<Real, M><<<blocks_for(batch), kThreads, 0, stream()>>>(int(n), int(k), alpha, a, b, beta, c, batch))
        KOBALT_DESC_SWITCH(int(m), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
        return launched<Real>(r);
    }
    for (kobalt_layout layout : kLayouts) {
        const Standard sc = as_standard(*descC, layout);
        const OpStandard sa = op_standard(*descA, transa, layout), sb = op_standard(*descB, transb, layout);
        if (sc.ok && sa.ok && sb.ok)
            return gemm_strided<Real>(layout, sa.op, sb.op, m, n, k, alpha, A, sa.ld, sa.stride, B, sb.ld, sb.stride,
                                      beta, C, sc.ld, sc.stride, batch);
    }
    gemm_general<Real><<<blocks_for(batch), kThreads, 0, stream()>>>(int(m), int(n), int(k), alpha, a, b, beta, c, batch);
    return launched<Real>(r);
}

// ---- gemv (m == 0 or n == 0: y untouched) -------------------------------------------------
template <class Real>
kobalt_status gemv_desc(kobalt_op trans, Real alpha, const Real *A, const kobalt_matrix_desc *descA, const Real *x,
                        const kobalt_matrix_desc *descx, Real beta, Real *y, const kobalt_matrix_desc *descy,
                        kobalt_int batch) {
    static const char r[] = "gemv_desc";
    const kobalt_int m = descA->rows, n = descA->cols;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    const bool nt = trans == KOBALT_NO_TRANS;
    const kobalt_int rows = nt ? m : n, cols = nt ? n : m;
    const DOp<const Real> a = dop(A, descA, trans), xv = dvec(x, descx);
    const DOp<Real> yv = dvec(y, descy);
    if (all_interleaved({descA, descx, descy}, batch) && (m > n ? m : n) <= interleaved_max()) {
#define KOBALT_DESC_CALL(M) il_gemm<Real, M><<<blocks_for(batch), kThreads, 0, stream()>>>(1, int(cols), alpha, a, xv, beta, yv, batch)
        KOBALT_DESC_SWITCH(int(rows), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
        return launched<Real>(r);
    }
    const StdVector vx = as_vector(*descx), vy = as_vector(*descy);
    for (kobalt_layout layout : kLayouts) {
        const Standard sa = as_standard(*descA, layout);
        if (sa.ok && vx.ok && vy.ok)
            return gemv_strided<Real>(layout, trans, m, n, alpha, A, sa.ld, sa.stride, x, vx.inc, vx.stride, beta, y,
                                      vy.inc, vy.stride, batch);
    }
    gemm_general<Real><<<blocks_for(batch), kThreads, 0, stream()>>>(int(rows), 1, int(cols), alpha, a, xv, beta, yv,
                                                                     batch);
    return launched<Real>(r);
}

// ---- trsv / trsm ------------------------------------------------------------------------------
template <class Real>
kobalt_status trsv_desc(kobalt_uplo uplo, kobalt_op trans, kobalt_diag diag, const Real *A,
                        const kobalt_matrix_desc *descA, Real *x, const kobalt_matrix_desc *descx, kobalt_int batch) {
    static const char r[] = "trsv_desc";
    const kobalt_int n = descA->rows;
    if (n == 0) return KOBALT_SUCCESS;
    const bool lower = (uplo == KOBALT_LOWER) == (trans == KOBALT_NO_TRANS), unit = diag == KOBALT_UNIT;
    const DOp<const Real> a = dop(A, descA, trans);
    const DOp<Real> xv = dvec(x, descx);
    if (all_interleaved({descA, descx}, batch) && n <= interleaved_max()) {
#define KOBALT_DESC_CALL(M) il_trsm<Real, M><<<blocks_for(batch), kThreads, 0, stream()>>>(lower, unit, 1, Real(1), a, xv, batch)
        KOBALT_DESC_SWITCH(int(n), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
        return launched<Real>(r);
    }
    const StdVector vx = as_vector(*descx);
    for (kobalt_layout layout : kLayouts) {
        const Standard sa = as_standard(*descA, layout);
        if (sa.ok && vx.ok)
            return trsv_strided<Real>(layout, uplo, trans, diag, n, A, sa.ld, sa.stride, x, vx.inc, vx.stride, batch);
    }
    trsm_general<Real><<<blocks_for(batch), kThreads, 0, stream()>>>(true, lower, unit, int(n), 1, Real(1), a, xv, batch);
    return launched<Real>(r);
}

template <class Real>
kobalt_status trsm_desc(kobalt_side side, kobalt_uplo uplo, kobalt_op transa, kobalt_diag diag, Real alpha,
                        const Real *A, const kobalt_matrix_desc *descA, Real *B, const kobalt_matrix_desc *descB,
                        kobalt_int batch) {
    static const char r[] = "trsm_desc";
    const kobalt_int m = descB->rows, n = descB->cols;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    const bool left = side == KOBALT_LEFT, unit = diag == KOBALT_UNIT;
    const bool lower = (uplo == KOBALT_LOWER) == (transa == KOBALT_NO_TRANS); // triangle of op(A)
    const DOp<const Real> a = dop(A, descA, transa);
    const DOp<Real> b = dop(B, descB);
    if (all_interleaved({descA, descB}, batch) && (m > n ? m : n) <= interleaved_max()) {
        // Right side: X op(A) = alpha B  <=>  op(A)^T X^T = alpha B^T.
        const DOp<const Real> aa = left ? a : dtrans(a);
        const DOp<Real> bb = left ? b : dtrans(b);
        const bool lo = left ? lower : !lower;
        const int na = int(left ? m : n), other = int(left ? n : m);
#define KOBALT_DESC_CALL(M) il_trsm<Real, M><<<blocks_for(batch), kThreads, 0, stream()>>>(lo, unit, other, alpha, aa, bb, batch)
        KOBALT_DESC_SWITCH(na, KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
        return launched<Real>(r);
    }
    for (kobalt_layout layout : kLayouts) {
        const Standard sb = as_standard(*descB, layout);
        const OpStandard sa = op_standard(*descA, transa, layout);
        if (sa.ok && sb.ok)
            return trsm_strided<Real>(layout, side, sa.flipped ? flip(uplo) : uplo, sa.op, diag, m, n, alpha, A, sa.ld,
                                      sa.stride, B, sb.ld, sb.stride, batch);
    }
    trsm_general<Real><<<blocks_for(batch), kThreads, 0, stream()>>>(left, lower, unit, int(m), int(n), alpha, a, b,
                                                                     batch);
    return launched<Real>(r);
}

// ---- getrf / getrs / fused --------------------------------------------------------------------
template <class Real>
kobalt_status getrf_desc(Real *A, const kobalt_matrix_desc *descA, int *ipiv, const kobalt_matrix_desc *descIpiv,
                         int *info, kobalt_int batch) {
    static const char r[] = "getrf_desc";
    const kobalt_int m = descA->rows, n = descA->cols;
    if (m == 0 || n == 0) return cudaMemsetAsync(info, 0, size_t(batch) * sizeof(int), stream()) == cudaSuccess
                                      ? KOBALT_SUCCESS
                                      : launched<Real>(r);
    const DOp<Real> a = dop(A, descA);
    const DPiv p = dpiv(ipiv, descIpiv);
    if (all_interleaved({descA}, batch) && m == n && n <= interleaved_max()) {
        const kobalt_int pair =
            threshold(sizeof(Real) == 8 ? INTERLEAVED_GETRF_PAIR_MIN : INTERLEAVED_GETRF_PAIR_MIN_FLOAT);
        if (pair > 0 && n >= pair) { // two threads per item (il_lu_pair.cuh)
            const bool branchless = threshold(INTERLEAVED_GETRF_PAIR_BRANCHLESS) != 0;
            // block size: a multiple of 32 up to 256 (at 2 x 126 registers an SM holds 512
            // threads); anything else runs 128
            const kobalt_int tt = threshold(INTERLEAVED_GETRF_PAIR_THREADS);
            const int t = tt >= 32 && tt <= 256 && tt % 32 == 0 ? int(tt) : 128;
            const int g = int(std::max<idx>(1, std::min<idx>((2 * idx(batch) + t - 1) / t,
                                                            idx(multiprocessors()) * 64 * kThreads / t)));
#define KOBALT_DESC_CALL(N)                                                                        \
    (branchless ? il_getrf_pair<Real, N, true, DOp<Real>, DPiv><<<g, t, 0, stream()>>>(a, p, info, batch)           \
                : il_getrf_pair<Real, N, false, DOp<Real>, DPiv><<<g, t, 0, stream()>>>(a, p, info, batch))
            KOBALT_DESC_SWITCH(int(n), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
            return launched<Real>(r);
        }
#define KOBALT_DESC_CALL(N) il_getrf<Real, N><<<blocks_for(batch), kThreads, 0, stream()>>>(a, p, info, batch)
        KOBALT_DESC_SWITCH(int(n), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
        return launched<Real>(r);
    }
    const StdPivots sp = as_pivots(ipiv, descIpiv);
    for (kobalt_layout layout : kLayouts) {
        const Standard sa = as_standard(*descA, layout);
        if (sa.ok && sp.ok) return getrf_strided<Real>(layout, m, n, A, sa.ld, sa.stride, ipiv, sp.stride, info, batch);
    }
    getrf_general_kernel<Real><<<blocks_for(batch), kThreads, 0, stream()>>>(int(m), int(n), a, p, info, batch);
    return launched<Real>(r);
}

template <class Real>
kobalt_status getrs_desc(kobalt_op trans, const Real *A, const kobalt_matrix_desc *descA, const int *ipiv,
                         const kobalt_matrix_desc *descIpiv, Real *B, const kobalt_matrix_desc *descB,
                         kobalt_int batch) {
    static const char r[] = "getrs_desc";
    const kobalt_int n = descA->rows, nrhs = descB->cols;
    if (n == 0 || nrhs == 0) return KOBALT_SUCCESS;
    const bool t = trans != KOBALT_NO_TRANS;
    const DOp<const Real> a = dop(A, descA);
    const DOp<Real> b = dop(B, descB);
    const DPiv p = dpiv(const_cast<int *>(ipiv), descIpiv);
    if (all_interleaved({descA, descB}, batch) && n <= interleaved_max()) {
        const kobalt_int pf =
            threshold(sizeof(Real) == 8 ? INTERLEAVED_GETRS_PREFETCH_MIN : INTERLEAVED_GETRS_PREFETCH_MIN_FLOAT);
        if (pf > 0 && n >= pf) {
#define KOBALT_DESC_CALL(N) launch_getrs_prefetch<Real, N>(t, int(nrhs), a, p, b, batch)
            KOBALT_DESC_SWITCH(int(n), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
            return launched<Real>(r);
        }
#define KOBALT_DESC_CALL(N) il_getrs<Real, N><<<blocks_for(batch), kThreads, 0, stream()>>>(t, int(nrhs), a, p, b, batch)
        KOBALT_DESC_SWITCH(int(n), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
        return launched<Real>(r);
    }
    const StdPivots sp = as_pivots(ipiv, descIpiv);
    for (kobalt_layout layout : kLayouts) {
        const Standard sa = as_standard(*descA, layout), sb = as_standard(*descB, layout);
        if (sa.ok && sb.ok && sp.ok)
            return getrs_strided<Real>(layout, trans, n, nrhs, A, sa.ld, sa.stride, ipiv, sp.stride, B, sb.ld, sb.stride,
                                       batch);
    }
    getrs_general_kernel<Real><<<blocks_for(batch), kThreads, 0, stream()>>>(t, int(n), int(nrhs), a, p, b, batch);
    return launched<Real>(r);
}

template <class Real>
kobalt_status gemm_lu_trsv_desc(kobalt_op transx, kobalt_op transy, Real alpha, const Real *X,
                                const kobalt_matrix_desc *descX, const Real *Y, const kobalt_matrix_desc *descY,
                                Real beta, Real *A, const kobalt_matrix_desc *descA, int *ipiv,
                                const kobalt_matrix_desc *descIpiv, Real *B, const kobalt_matrix_desc *descB,
                                int *info, kobalt_int batch) {
    static const char r[] = "gemm_lu_trsv_desc";
    const kobalt_int n = descA->rows, nrhs = descB->cols;
    const kobalt_int k = transx == KOBALT_NO_TRANS ? descX->cols : descX->rows;
    if (n == 0) return cudaMemsetAsync(info, 0, size_t(batch) * sizeof(int), stream()) == cudaSuccess
                           ? KOBALT_SUCCESS
                           : launched<Real>(r);
    const DOp<const Real> x = dop(X, descX, transx), y = dop(Y, descY, transy);
    const DOp<Real> a = dop(A, descA), b = dop(B, descB);
    const DPiv p = dpiv(ipiv, descIpiv);
    if (all_interleaved({descX, descY, descA, descB}, batch) && (n > k ? n : k) <= interleaved_max()) {
        // k at compile time lets every load of op(X) and op(Y) be issued ahead of its
        // multiply-adds (the runtime loop issues N + 1 loads, then waits): on an H100 the 8 x 8
        // call went from 53% to 85% of the copy bandwidth, although that kernel spills a few
        // registers. INTERLEAVED_FUSED_UNROLL_MAX = 0 keeps the runtime loop (tests).
        const bool kc = k == n && n <= threshold(INTERLEAVED_FUSED_UNROLL_MAX);
        // double n = 7 (above the capped kernel's default): B's first column loaded before the
        // LU (il_fused with EarlyB)
        if constexpr (sizeof(Real) == 8)
            if (kc && n == 7 && threshold(INTERLEAVED_FUSED_EARLY_B) != 0 &&
                n > threshold(INTERLEAVED_FUSED_BOUNDED_MAX)) {
                il_fused<Real, 7, 7, true><<<blocks_for(batch), kThreads, 0, stream()>>>(7, int(nrhs), alpha, x, y, beta,
                                                                                         a, p, b, info, batch);
                return launched<Real>(r);
            }
        if (kc && n <= threshold(INTERLEAVED_FUSED_BOUNDED_MAX)) {
#define KOBALT_DESC_CALL(N)                                                                        \
    il_fused_bounded<Real, N><<<blocks_for(batch), kThreads, 0, stream()>>>(int(nrhs), alpha, x, y, beta, a, p, b, \
                                                                            info, batch)
            KOBALT_DESC_SWITCH(int(n), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
            return launched<Real>(r);
        }
#define KOBALT_DESC_CALL(N)                                                                        \
    (kc ? il_fused<Real, N, N><<<blocks_for(batch), kThreads, 0, stream()>>>(int(k), int(nrhs), alpha, x, y, beta, a, p, \
                                                                             b, info, batch)                          \
        : il_fused<Real, N><<<blocks_for(batch), kThreads, 0, stream()>>>(int(k), int(nrhs), alpha, x, y, beta, a, p, b, \
                                                                          info, batch))
        KOBALT_DESC_SWITCH(int(n), KOBALT_DESC_CALL)
#undef KOBALT_DESC_CALL
        return launched<Real>(r);
    }
    const StdPivots sp = as_pivots(ipiv, descIpiv);
    for (kobalt_layout layout : kLayouts) {
        const Standard sa = as_standard(*descA, layout), sb = as_standard(*descB, layout);
        const OpStandard sx = op_standard(*descX, transx, layout), sy = op_standard(*descY, transy, layout);
        if (sa.ok && sb.ok && sx.ok && sy.ok && sp.ok)
            return gemm_lu_trsv_strided<Real>(layout, sx.op, sy.op, n, k, nrhs, alpha, X, sx.ld, sx.stride, Y, sy.ld,
                                              sy.stride, beta, A, sa.ld, sa.stride, ipiv, sp.stride, B, sb.ld,
                                              sb.stride, info, batch);
    }
    fused_general<Real><<<blocks_for(batch), kThreads, 0, stream()>>>(int(n), int(k), int(nrhs), alpha, x, y, beta, a,
                                                                      p, b, info, batch);
    return launched<Real>(r);
}

// ---- pack / unpack ----------------------------------------------------------------------------
template <class Real>
kobalt_status pack_interleaved(kobalt_layout layout, kobalt_int rows, kobalt_int cols, const Real *A, kobalt_int lda,
                               kobalt_int strideA, Real *P, kobalt_int ldp, kobalt_int batch) {
    if (rows == 0 || cols == 0) return KOBALT_SUCCESS;
    const bool col = layout == KOBALT_COL_MAJOR;
    pack_kernel<Real, true><<<blocks_for(batch * rows * cols), kThreads, 0, stream()>>>(
        int(rows), int(cols), const_cast<Real *>(A), col ? 1 : lda, col ? lda : 1, strideA, P, ldp, batch);
    return launched<Real>("pack_interleaved");
}

template <class Real>
kobalt_status unpack_interleaved(kobalt_layout layout, kobalt_int rows, kobalt_int cols, const Real *P, kobalt_int ldp,
                                 Real *A, kobalt_int lda, kobalt_int strideA, kobalt_int batch) {
    if (rows == 0 || cols == 0) return KOBALT_SUCCESS;
    const bool col = layout == KOBALT_COL_MAJOR;
    pack_kernel<Real, false><<<blocks_for(batch * rows * cols), kThreads, 0, stream()>>>(
        int(rows), int(cols), A, col ? 1 : lda, col ? lda : 1, strideA, const_cast<Real *>(P), ldp, batch);
    return launched<Real>("unpack_interleaved");
}

#define KOBALT_DESC_INSTANTIATE(fn)                                                                \
    template decltype(fn<double>) fn<double>;                                                      \
    template decltype(fn<float>) fn<float>;
KOBALT_DESC_INSTANTIATE(gemm_desc)
KOBALT_DESC_INSTANTIATE(gemv_desc)
KOBALT_DESC_INSTANTIATE(trsv_desc)
KOBALT_DESC_INSTANTIATE(trsm_desc)
KOBALT_DESC_INSTANTIATE(getrf_desc)
KOBALT_DESC_INSTANTIATE(getrs_desc)
KOBALT_DESC_INSTANTIATE(gemm_lu_trsv_desc)
KOBALT_DESC_INSTANTIATE(pack_interleaved)
KOBALT_DESC_INSTANTIATE(unpack_interleaved)

} // namespace kobalt_cuda
