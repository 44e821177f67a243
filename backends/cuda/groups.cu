// groups.cu -- group kernels (groups.cuh, docs/cuda.md): W lanes of a warp per item, row
// i of the item's matrix in lane i's registers. Semantics are those of items.cuh (dgetf2
// pivots, info, BLAS edge cases). Every shuffle is executed by all 32 lanes of a warp:
// per-item conditions only predicate arithmetic and memory accesses, never a shuffle.
#include <algorithm>

#include "groups.cuh"

namespace kobalt_cuda {
namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 128;

template <int W, class T> __device__ __forceinline__ T shf(T v, int src) { return __shfl_sync(kFull, v, src, W); }
template <int W, class T> __device__ __forceinline__ T shx(T v, int m) { return __shfl_xor_sync(kFull, v, m, W); }

template <int W, class T> __device__ __forceinline__ T get(const T (&a)[W], int j) {
    T v = T(0);
#pragma unroll
    for (int c = 0; c < W; ++c)
        if (c == j) v = a[c];
    return v;
}
template <int W, class T> __device__ __forceinline__ void put(T (&a)[W], int j, T v) {
#pragma unroll
    for (int c = 0; c < W; ++c)
        if (c == j) a[c] = v;
}

template <int W> int grid_for(idx batch) {
    const idx per_block = kThreads / W;
    const idx blocks = (batch + per_block - 1) / per_block;
    const idx cap = idx(multiprocessors()) * (2048 / kThreads) * 8;
    return int(std::max<idx>(1, std::min(blocks, cap)));
}

// Every lane of a block runs the same number of iterations (base is per block).
#define KOBALT_GROUP_LOOP(W)                                                                   \
    const int lane = int(threadIdx.x) % W;                                                      \
    const idx per_block = blockDim.x / W;                                                       \
    for (idx base = idx(blockIdx.x) * per_block; base < batch; base += idx(gridDim.x) * per_block)

// acc = op(X) op(Y) rows: lane r gets row r (m x n result, inner dimension k). op(Y) is
// read W rows at a time, row p0+r by lane r (coalesced for column-major), and broadcast
// by shuffles; op(X)'s column p by every lane (coalesced for column-major).
template <int W, class T, class XA, class YA>
__device__ __forceinline__ void product(bool read, int m, int n, int k, const MatDesc &dX, XA X,
                                        const MatDesc &dY, YA Y, idx item, bool valid, int lane, T (&acc)[W]) {
#pragma unroll
    for (int c = 0; c < W; ++c) acc[c] = T(0);
    if (!read) return;
    Mat<const T> vx{nullptr, 0, 0}, vy{nullptr, 0, 0};
    if (valid) {
        vx = dX.global<const T>(X(item));
        vy = dY.global<const T>(Y(item));
    }
    for (int p0 = 0; p0 < k; p0 += W) {
        T yrow[W];
        const int pr = p0 + lane;
#pragma unroll
        for (int c = 0; c < W; ++c) yrow[c] = (valid && pr < k && c < n) ? vy(pr, c) : T(0);
        const int pe = min(W, k - p0);
        if (W <= 16) {
            // this lane's W elements of op(X) first, all loads in flight at once (a load
            // inside the step loop would expose its latency W times); then the unrolled steps
            T xrow[W];
#pragma unroll
            for (int pp = 0; pp < W; ++pp) xrow[pp] = (valid && lane < m && pp < pe) ? vx(lane, p0 + pp) : T(0);
#pragma unroll
            for (int pp = 0; pp < W; ++pp)
                if (pp < pe)
#pragma unroll
                    for (int c = 0; c < W; ++c)
                        if (c < n) acc[c] += xrow[pp] * shf<W>(yrow[c], pp);
        } else { // W = 32: three register rows would spill
#pragma unroll 1
            for (int pp = 0; pp < pe; ++pp) {
                const T x = (valid && lane < m) ? vx(lane, p0 + pp) : T(0);
#pragma unroll
                for (int c = 0; c < W; ++c)
                    if (c < n) acc[c] += x * shf<W>(yrow[c], pp);
            }
        }
    }
}

// dgetf2 on rows in registers (lane i: row i, a[c] = A(i,c)); returns info, sets mypiv
// (0-based pivot row of step `lane`). pivot false: no interchanges, info = first zero U(j,j).
//
// Row interchanges are lazy: a lane keeps its row and only its logical row number `pos`
// changes (swapping rows j and p swaps two labels, no data moves), so a step costs the
// pivot reduction, one ballot and the broadcasts of the pivot row. One permutation at the
// end puts row i back into lane i. The step loop is unrolled (W is a template constant) so
// every register index is static.
template <int W, class T> __device__ int lu_rows(int m, int n, T (&a)[W], int lane, bool pivot, int &mypiv) {
    const int kmin = m < n ? m : n;
    const T sfmin = sizeof(T) == 8 ? T(2.2250738585072014e-308) : T(1.17549435e-38f);
    const unsigned group_shift = (threadIdx.x & 31) / W * W;
    const unsigned group_mask = W == 32 ? kFull : ((1u << (W & 31)) - 1) << group_shift;
    int info = 0;
    int pos = lane; // logical row held by this lane
    mypiv = lane;
#pragma unroll
    for (int j = 0; j < W; ++j) {
        if (j >= kmin) break;
        T aj = a[j];
        int p = j, plane = j; // pivot row (logical) and the lane holding it
        if (pivot) {
            // first largest |a| at or below the diagonal, NaNs never chosen except on the
            // diagonal (dgetf2's sequential "v > amax" scan starting from |A(j,j)|); ties go
            // to the smaller logical row, which the packed (pos, lane) index orders
            T key;
            if (pos < j || pos >= m) key = T(-2);
            else if (isnan(aj)) key = pos == j ? T(INFINITY) : T(-1);
            else key = fabs(aj);
            int ki = pos * 64 + lane;
#pragma unroll
            for (int off = W / 2; off > 0; off >>= 1) {
                const T ok = shx<W>(key, off);
                const int oi = shx<W>(ki, off);
                if (ok > key || (ok == key && oi < ki)) {
                    key = ok;
                    ki = oi;
                }
            }
            p = ki >> 6;
            plane = ki & 63;
        }
        const T pv = shf<W>(aj, plane);
        if (pivot) {
            if (lane == j) mypiv = p;
            if (pv != T(0) && p != j) { // exchange the labels of rows j and p
                if (pos == j) pos = p;
                else if (lane == plane) pos = j;
            }
        }
        // the lane now holding logical row j (the pivot lane unless the pivot is zero)
        const int jlane = pivot ? __ffs(int(__ballot_sync(kFull, pos == j) & group_mask)) - 1 - int(group_shift) : j;
        const bool below = pos > j && pos < m;
        if (!pivot) {
            if (below) aj = aj / pv; // info comes from the diagonal at the end
        } else if (pv == T(0)) {
            if (info == 0) info = j + 1;
        } else if (below) {
            aj = fabs(pv) >= sfmin ? aj * (T(1) / pv) : aj / pv;
        }
        a[j] = aj;
#pragma unroll
        for (int c = j + 1; c < W; ++c)
            if (c < n) {
                const T u = shf<W>(a[c], jlane);
                if (below) a[c] -= aj * u;
            }
    }
    if (pivot) {
        // lane i takes the row whose label is i
        int src = lane;
#pragma unroll
        for (int s = 0; s < W; ++s)
            if (shf<W>(pos, s) == lane) src = s;
#pragma unroll
        for (int c = 0; c < W; ++c)
            if (c < n) a[c] = shf<W>(a[c], src);
    } else {
        const bool z = lane < kmin && get(a, lane) == T(0);
        const unsigned bal = __ballot_sync(kFull, z);
        const unsigned g = (bal & group_mask) >> group_shift;
        info = g ? __ffs(int(g)) : 0;
    }
    return info;
}

// Solves M x = b for the rows of M in registers: forward with M's lower triangle (unit
// diagonal if unitF), then backward with its upper triangle (unit if unitB).
template <int W, class T>
__device__ __forceinline__ void solve_rows(int n, const T (&a)[W], T &b, int lane, bool unitF, bool unitB) {
#pragma unroll
    for (int j = 0; j < W; ++j)
        if (j < n) {
            if (!unitF && lane == j) b = b / a[j];
            const T bj = shf<W>(b, j);
            if (lane > j) b -= a[j] * bj;
        }
#pragma unroll
    for (int j = W - 1; j >= 0; --j)
        if (j < n) {
            if (!unitB && lane == j) b = b / a[j];
            const T bj = shf<W>(b, j);
            if (lane < j) b -= a[j] * bj;
        }
}
// Row interchanges k <-> piv[k] (mp: lane k's 0-based pivot), in order or in reverse.
template <int W, class T> __device__ __forceinline__ T permute(T b, int mp, int n, int lane, bool forward) {
    for (int s = 0; s < n; ++s) {
        const int k = forward ? s : n - 1 - s;
        const int p = shf<W>(mp, k);
        const int src = lane == k ? p : lane == p ? k : lane;
        b = shf<W>(b, src);
    }
    return b;
}

// ---- kernels ----------------------------------------------------------------------------
template <int W, class T, class AA, class BA, class CA>
__global__ void __launch_bounds__(kThreads) gemm_group(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB,
                                                       BA B, T beta, MatDesc dC, CA C, idx batch) {
    const bool readAB = alpha != T(0) && k > 0, readC = beta != T(0);
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        T acc[W];
        product<W, T>(readAB, m, n, k, dA, A, dB, B, item, valid, lane, acc);
        if (valid && lane < m) {
            const Mat<T> vc = dC.global(C(item));
#pragma unroll
            for (int c = 0; c < W; ++c)
                if (c < n) {
                    const T v = alpha * acc[c];
                    vc(lane, c) = readC ? v + beta * vc(lane, c) : v;
                }
        }
    }
}

template <int W, class T, class AA>
__global__ void __launch_bounds__(kThreads) getrf_group(int m, int n, MatDesc dA, AA A, int *ipiv, idx sp,
                                                        int *info, idx batch) {
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        Mat<T> v{nullptr, 0, 0};
        if (valid) v = dA.global(A(item));
        T a[W];
#pragma unroll
        for (int c = 0; c < W; ++c) a[c] = (valid && lane < m && c < n) ? v(lane, c) : T(0);
        int mypiv;
        const int r = lu_rows<W>(m, n, a, lane, ipiv != nullptr, mypiv);
        if (valid) {
            if (lane < m)
#pragma unroll
                for (int c = 0; c < W; ++c)
                    if (c < n) v(lane, c) = a[c];
            if (ipiv && lane < min(m, n)) ipiv[item * sp + lane] = mypiv + 1;
            if (lane == 0) info[item] = r;
        }
    }
}

template <int W, class T, class AA, class BA>
__global__ void __launch_bounds__(kThreads) getrs_group(bool trans, int n, int nrhs, MatDesc dA, AA A,
                                                        const int *ipiv, idx sp, MatDesc dB, BA B, idx batch) {
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        Mat<const T> va{nullptr, 0, 0};
        Mat<T> vb{nullptr, 0, 0};
        if (valid) {
            va = dA.global<const T>(A(item));
            if (trans) va = va.t();
            vb = dB.global(B(item));
        }
        T a[W];
#pragma unroll
        for (int c = 0; c < W; ++c) a[c] = (valid && lane < n && c < n) ? va(lane, c) : T(0);
        int mp = lane;
        if (ipiv && valid && lane < n) mp = ipiv[item * sp + lane] - 1;
        for (int c = 0; c < nrhs; ++c) {
            T b = (valid && lane < n) ? vb(lane, c) : T(0);
            if (ipiv && !trans) b = permute<W>(b, mp, n, lane, true);
            solve_rows<W>(n, a, b, lane, !trans, trans);
            if (ipiv && trans) b = permute<W>(b, mp, n, lane, false);
            if (valid && lane < n) vb(lane, c) = b;
        }
    }
}

template <int W, class T, class XA, class YA, class AA, class BA>
__global__ void __launch_bounds__(kThreads) fused_group(int n, int k, int nrhs, T alpha, MatDesc dX, XA X,
                                                        MatDesc dY, YA Y, T beta, MatDesc dA, AA A, int *ipiv,
                                                        idx sp, MatDesc dB, BA B, int *info, idx batch) {
    const bool readXY = alpha != T(0) && k > 0, readA = beta != T(0);
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        T a[W];
        product<W, T>(readXY, n, n, k, dX, X, dY, Y, item, valid, lane, a);
        Mat<T> va{nullptr, 0, 0}, vb{nullptr, 0, 0};
        if (valid) {
            va = dA.global(A(item));
            if (nrhs > 0) vb = dB.global(B(item));
        }
#pragma unroll
        for (int c = 0; c < W; ++c) {
            const T v = alpha * a[c];
            a[c] = (readA && valid && lane < n && c < n) ? v + beta * va(lane, c) : v;
        }
        int mypiv;
        const int r = lu_rows<W>(n, n, a, lane, ipiv != nullptr, mypiv);
        if (valid) {
            if (lane < n)
#pragma unroll
                for (int c = 0; c < W; ++c)
                    if (c < n) va(lane, c) = a[c];
            if (ipiv && lane < n) ipiv[item * sp + lane] = mypiv + 1;
            if (lane == 0) info[item] = r;
        }
        for (int c = 0; c < nrhs; ++c) {
            T b = (valid && lane < n) ? vb(lane, c) : T(0);
            if (ipiv) b = permute<W>(b, mypiv, n, lane, true);
            solve_rows<W>(n, a, b, lane, true, false);
            if (valid && r == 0 && lane < n) vb(lane, c) = b;
        }
    }
}

inline int width(int d) { return d <= 4 ? 4 : d <= 8 ? 8 : d <= 16 ? 16 : d <= kGroupMax ? 32 : 0; }

} // namespace

#define KOBALT_GROUP_SWITCH(d, launch)                                                          \
    switch (width(d)) {                                                                         \
    case 4: { constexpr int W = 4; launch; } break;                                             \
    case 8: { constexpr int W = 8; launch; } break;                                             \
    case 16: { constexpr int W = 16; launch; } break;                                           \
    case 32: { constexpr int W = 32; launch; } break;                                           \
    default: return false;                                                                      \
    }                                                                                           \
    return true;

template <class T, class AA, class BA, class CA>
bool group_gemm(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta, MatDesc dC, CA C,
                idx batch, cudaStream_t st) {
    KOBALT_GROUP_SWITCH(std::max(m, n), (gemm_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(
                                            m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch)))
}
template <class T, class AA>
bool group_getrf(int m, int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch,
                 cudaStream_t st) {
    KOBALT_GROUP_SWITCH(std::max(m, n), (getrf_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(
                                            m, n, dA, A, ipiv, strideIpiv, info, batch)))
}
template <class T, class AA, class BA>
bool group_getrs(bool trans, int n, int nrhs, MatDesc dA, AA A, const int *ipiv, idx strideIpiv, MatDesc dB,
                 BA B, idx batch, cudaStream_t st) {
    KOBALT_GROUP_SWITCH(n, (getrs_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(
                               trans, n, nrhs, dA, A, ipiv, strideIpiv, dB, B, batch)))
}
template <class T, class XA, class YA, class AA, class BA>
bool group_fused(int n, int k, int nrhs, T alpha, MatDesc dX, XA X, MatDesc dY, YA Y, T beta, MatDesc dA, AA A,
                 int *ipiv, idx strideIpiv, MatDesc dB, BA B, int *info, idx batch, cudaStream_t st) {
    KOBALT_GROUP_SWITCH(n, (fused_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(
                               n, k, nrhs, alpha, dX, X, dY, Y, beta, dA, A, ipiv, strideIpiv, dB, B, info, batch)))
}

#define KOBALT_GROUP_INSTANTIATE(T)                                                                              \
    template bool group_gemm<T>(int, int, int, T, MatDesc, Strided<const T>, MatDesc, Strided<const T>, T,     \
                                MatDesc, Strided<T>, idx, cudaStream_t);                                       \
    template bool group_gemm<T>(int, int, int, T, MatDesc, Ptrs<const T>, MatDesc, Ptrs<const T>, T, MatDesc,  \
                                Ptrs<T>, idx, cudaStream_t);                                                   \
    template bool group_getrf<T>(int, int, MatDesc, Strided<T>, int *, idx, int *, idx, cudaStream_t);         \
    template bool group_getrf<T>(int, int, MatDesc, Ptrs<T>, int *, idx, int *, idx, cudaStream_t);            \
    template bool group_getrs<T>(bool, int, int, MatDesc, Strided<const T>, const int *, idx, MatDesc,         \
                                 Strided<T>, idx, cudaStream_t);                                               \
    template bool group_getrs<T>(bool, int, int, MatDesc, Ptrs<const T>, const int *, idx, MatDesc, Ptrs<T>,   \
                                 idx, cudaStream_t);                                                           \
    template bool group_fused<T>(int, int, int, T, MatDesc, Strided<const T>, MatDesc, Strided<const T>, T,    \
                                 MatDesc, Strided<T>, int *, idx, MatDesc, Strided<T>, int *, idx,             \
                                 cudaStream_t);                                                                \
    template bool group_fused<T>(int, int, int, T, MatDesc, Ptrs<const T>, MatDesc, Ptrs<const T>, T, MatDesc, \
                                 Ptrs<T>, int *, idx, MatDesc, Ptrs<T>, int *, idx, cudaStream_t);
KOBALT_GROUP_INSTANTIATE(double)
KOBALT_GROUP_INSTANTIATE(float)

} // namespace kobalt_cuda
