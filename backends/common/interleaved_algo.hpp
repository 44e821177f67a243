// interleaved_algo.hpp -- the tiny-matrix kernels of the interleaved layout, written once
// for "lanes": one lane is one item of the batch.
//
// In the interleaved layout (a kobalt_matrix_desc with batch_stride 1) element (i, j) of
// items b, b+1, ..., b+W-1 lies in W consecutive memory cells, so W items are processed
// by the same instruction stream with every operand element one SIMD vector -- no item
// is gathered, no loop runs over the batch inside a kernel. The host backend runs these
// algorithms with SIMD packs as lanes (backends/openmp/interleaved_kernels.cpp, W = 2..16
// per ISA); the CUDA backend runs them with one scalar lane per thread
// (backends/cuda/desc.cu), where a warp reading element (i, j) of 32 consecutive items is
// one coalesced access.
//
// An Ops class supplies the lane types and operations (ScalarOps below is the one-lane
// version):
//   T (element), V (W elements), I (W ints), M (W booleans);
//   load(const T *) / store(T *, V): the W items' element at that address, lanes
//     contiguous; splat(T), abs, gt, ge, ne (V x V -> M), sel(M, V, V), isplat(int),
//     ieq (I x I -> M), isel(M, I, I), mand, mnot, any(M), all(M);
//   load_ints(const int *p, lane_stride) / store_ints(int *p, lane_stride, I): one int per
//     lane at p[l * lane_stride].
// Sizes that index local arrays are template parameters (MM rows, N order; 0 = the
// runtime value, host only), so the compiler keeps the items in registers where it can.
//
// Semantics are those of the standard paths (backends/openmp/fixed_kernels.cpp,
// lu_pivoted.hpp): LAPACK dgetf2 pivots (first largest |a|, NaN never wins), info = first
// exactly zero pivot, reciprocal scaling above the smallest normal number and division
// below it, per lane. A lane whose pivot differs from its neighbours' swaps rows through
// masked selects; every lane's pivots and info are exactly what LAPACK gives for that item.
//
// Everything is in an unnamed namespace: each translation unit that includes this file
// (one per instruction set) gets its own copies, so no inline function compiled for
// AVX-512 can ever be linked into a caller compiled for the baseline.
#ifndef KOBALT_INTERLEAVED_ALGO_HPP
#define KOBALT_INTERLEAVED_ALGO_HPP

#include <cstdint>

#if defined(__CUDACC__)
#define KOBALT_IL_FN __host__ __device__ __forceinline__
#else
#define KOBALT_IL_FN __attribute__((always_inline)) inline
#endif
#if defined(__CUDA_ARCH__)
#define KOBALT_IL_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define KOBALT_IL_UNROLL
#else
#define KOBALT_IL_UNROLL _Pragma("GCC unroll 16")
#endif

namespace kobalt_interleaved {

// Largest order the interleaved kernels hold in registers (a property of the kernels;
// the backends' INTERLEAVED_MAX thresholds choose below it).
constexpr int MAX_N = 8;

// An operand of the lanes: element (i, j) of lane 0's item at p[i*rs + j*cs]; lane l's
// item follows at p + l (batch_stride 1). Plain data, no member functions (shared by
// translation units compiled for different instruction sets).
template <class T> struct Operand {
    T *p;
    int64_t rs, cs;
};
// Pivots: entry j of lane l at p[l*lane + j*inc]; p == NULL means no pivoting.
struct Pivots {
    int *p;
    int64_t inc, lane;
};

namespace {

// One lane: plain scalars. The host runs it for the items after the last full SIMD pack;
// the CUDA backend runs it in every thread.
template <class Real> struct ScalarOps {
    using T = Real;
    using V = Real;
    using I = int;
    using M = bool;
    static KOBALT_IL_FN V load(const T *p) { return *p; }
    static KOBALT_IL_FN void store(T *p, V v) { *p = v; }
    static KOBALT_IL_FN V splat(T x) { return x; }
    static KOBALT_IL_FN V abs(V v) { return v < T(0) ? -v : v; }
    static KOBALT_IL_FN M gt(V a, V b) { return a > b; }
    static KOBALT_IL_FN M ge(V a, V b) { return a >= b; }
    static KOBALT_IL_FN M ne(V a, V b) { return a != b; }
    static KOBALT_IL_FN V sel(M m, V a, V b) { return m ? a : b; }
    static KOBALT_IL_FN I isplat(int x) { return x; }
    static KOBALT_IL_FN M ieq(I a, I b) { return a == b; }
    static KOBALT_IL_FN I isel(M m, I a, I b) { return m ? a : b; }
    static KOBALT_IL_FN M mand(M a, M b) { return a && b; }
    static KOBALT_IL_FN M mnot(M a) { return !a; }
    static KOBALT_IL_FN bool any(M m) { return m; }
    static KOBALT_IL_FN bool all(M m) { return m; }
    static KOBALT_IL_FN I load_ints(const int *p, int64_t) { return *p; }
    static KOBALT_IL_FN void store_ints(int *p, int64_t, I v) { *p = v; }
};

template <class T> KOBALT_IL_FN T *at(const Operand<T> &o, int i, int j) { return o.p + i * o.rs + j * o.cs; }
template <class T> KOBALT_IL_FN T smallest_normal() { return sizeof(T) == 8 ? T(2.2250738585072014e-308) : T(1.17549435e-38f); }

// One column j of C: C(:, j) = alpha op(A) op(B)(:, j) + beta C(:, j), for JB = 1 or 2
// adjacent columns at once (each loaded element of A then feeds JB multiply-adds).
template <class O, int MM, int JB>
KOBALT_IL_FN void gemm_columns(int j, int k, typename O::T alpha, const Operand<const typename O::T> &A,
                               const Operand<const typename O::T> &B, typename O::T beta,
                               const Operand<typename O::T> &C) {
    using T = typename O::T;
    using V = typename O::V;
    V acc[JB][MM];
    KOBALT_IL_UNROLL for (int c = 0; c < JB; ++c) KOBALT_IL_UNROLL for (int i = 0; i < MM; ++i) acc[c][i] = O::splat(T(0));
    if (alpha != T(0))
        KOBALT_IL_UNROLL for (int p = 0; p < k; ++p) {
            V b[JB];
            KOBALT_IL_UNROLL for (int c = 0; c < JB; ++c) b[c] = O::load(at(B, p, j + c));
            KOBALT_IL_UNROLL for (int i = 0; i < MM; ++i) {
                const V a = O::load(at(A, i, p));
                KOBALT_IL_UNROLL for (int c = 0; c < JB; ++c) acc[c][i] += a * b[c];
            }
        }
    KOBALT_IL_UNROLL for (int c = 0; c < JB; ++c) KOBALT_IL_UNROLL for (int i = 0; i < MM; ++i) {
        V v = acc[c][i] * alpha;
        if (beta != T(0)) v += O::load(at(C, i, j + c)) * beta;
        O::store(at(C, i, j + c), v);
    }
}

// C = alpha op(A) op(B) + beta C for MM x n items, inner size k (A, B already op-applied
// through their strides; NN, KK: n and k at compile time, 0 = runtime). beta == 0: C not
// read; alpha == 0: A and B not read.
template <class O, int MM, int NN = 0, int KK = 0>
KOBALT_IL_FN void gemm(int n_rt, int k_rt, typename O::T alpha, Operand<const typename O::T> A,
                       Operand<const typename O::T> B, typename O::T beta, Operand<typename O::T> C) {
    const int n = NN ? NN : n_rt, k = KK ? KK : k_rt;
    int j = 0;
    KOBALT_IL_UNROLL for (; j + 1 < n; j += 2) gemm_columns<O, MM, 2>(j, k, alpha, A, B, beta, C);
    if (j < n) gemm_columns<O, MM, 1>(j, k, alpha, A, B, beta, C);
}

// B = alpha A^{-1} B, A MM x MM (lower or upper triangle, unit diagonal or not), B MM x n.
// alpha == 0 zeroes B without reading A or B.
template <class O, int MM>
KOBALT_IL_FN void trsm(bool lower, bool unit, int n, typename O::T alpha, Operand<const typename O::T> A,
                       Operand<typename O::T> B) {
    using T = typename O::T;
    using V = typename O::V;
    for (int j = 0; j < n; ++j) {
        if (alpha == T(0)) {
            KOBALT_IL_UNROLL for (int i = 0; i < MM; ++i) O::store(at(B, i, j), O::splat(T(0)));
            continue;
        }
        V x[MM];
        KOBALT_IL_UNROLL for (int i = 0; i < MM; ++i) {
            x[i] = O::load(at(B, i, j));
            if (alpha != T(1)) x[i] *= alpha;
        }
        if (lower) {
            KOBALT_IL_UNROLL for (int i = 0; i < MM; ++i) {
                V v = x[i];
                KOBALT_IL_UNROLL for (int q = 0; q < i; ++q) v -= O::load(at(A, i, q)) * x[q];
                if (!unit) v /= O::load(at(A, i, i));
                x[i] = v;
            }
        } else {
            KOBALT_IL_UNROLL for (int i = MM - 1; i >= 0; --i) {
                V v = x[i];
                KOBALT_IL_UNROLL for (int q = i + 1; q < MM; ++q) v -= O::load(at(A, i, q)) * x[q];
                if (!unit) v /= O::load(at(A, i, i));
                x[i] = v;
            }
        }
        KOBALT_IL_UNROLL for (int i = 0; i < MM; ++i) O::store(at(B, i, j), x[i]);
    }
}

// The steps of one LU column, shared by lu below (all columns held at once) and the host's
// packed lu_block (one column in registers at a time), so both give the same results.
// A column is col[i] for rows i = j ... MM - 1.

// Step j's pivot: the first largest |col[i]| per lane (strict comparison, so NaN never
// wins); p receives its row, the result is its value.
template <class O, int MM>
KOBALT_IL_FN typename O::V find_pivot(const typename O::V *col, int j, typename O::I &p) {
    using V = typename O::V;
    V amax = O::abs(col[j]);
    p = O::isplat(j);
    KOBALT_IL_UNROLL for (int i = j + 1; i < MM; ++i) {
        const V v = O::abs(col[i]);
        const typename O::M g = O::gt(v, amax);
        amax = O::sel(g, v, amax);
        p = O::isel(g, O::isplat(i), p);
    }
    V pivot = col[j];
    KOBALT_IL_UNROLL for (int i = j + 1; i < MM; ++i) pivot = O::sel(O::ieq(p, O::isplat(i)), col[i], pivot);
    return pivot;
}

// Lanes whose pivot is non-zero and below the diagonal swap row j with it: hit[i] (i > j)
// marks the lanes whose pivot row is i. Returns whether any lane swaps (hit is unset if not).
template <class O, int MM>
KOBALT_IL_FN bool swap_masks(typename O::V pivot, typename O::I p, int j, typename O::M *hit) {
    using T = typename O::T;
    const typename O::M swap = O::mand(O::ne(pivot, O::splat(T(0))), O::mnot(O::ieq(p, O::isplat(j))));
    if (!O::any(swap)) return false;
    KOBALT_IL_UNROLL for (int i = j + 1; i < MM; ++i) hit[i] = O::mand(swap, O::ieq(p, O::isplat(i)));
    return true;
}

// Rows j ... MM - 1 of one column x: the lanes of row i where hit[i] exchange it with row j
// (at most one i per lane: the pivot row).
template <class O, int MM>
KOBALT_IL_FN void swap_rows_where(typename O::V *x, int j, const typename O::M *hit) {
    typename O::V rj = x[j];
    KOBALT_IL_UNROLL for (int i = j + 1; i < MM; ++i) {
        const typename O::V ri = x[i];
        x[i] = O::sel(hit[i], rj, ri);
        rj = O::sel(hit[i], ri, rj);
    }
    x[j] = rj;
}

// Step j's info (j + 1 in lanes whose pivot is exactly zero and whose info is still 0),
// then the column below the pivot scaled: by the reciprocal above the smallest normal
// number, by division below it (and by a zero pivot without pivoting); a zero pivot with
// pivoting leaves its column as it is.
template <class O, int MM>
KOBALT_IL_FN void scale_below_pivot(typename O::V *col, int j, typename O::V pivot, bool pivoting, typename O::I &info) {
    using T = typename O::T;
    using V = typename O::V;
    using M = typename O::M;
    const M nonzero = O::ne(pivot, O::splat(T(0)));
    info = O::isel(O::mand(O::mnot(nonzero), O::ieq(info, O::isplat(0))), O::isplat(j + 1), info);
    const M big = O::ge(O::abs(pivot), O::splat(smallest_normal<T>()));
    const V r = O::splat(T(1)) / pivot;
    if (O::all(big)) {
        KOBALT_IL_UNROLL for (int i = j + 1; i < MM; ++i) col[i] *= r;
    } else {
        KOBALT_IL_UNROLL for (int i = j + 1; i < MM; ++i) {
            const V x = col[i];
            const V q = O::sel(big, x * r, x / pivot);
            col[i] = pivoting ? O::sel(nonzero, q, x) : q;
        }
    }
}

// LU (dgetf2) of the local MM x n array a (element (i, c) at a[i + c*MM]), in place.
// pivoting: pv[j] receives the 0-based pivot row of step j per lane. info: LAPACK's, per
// lane. Without pivoting a zero pivot is divided by (Inf/NaN, as KokkosBatched SerialLU).
template <class O, int MM, int NN>
KOBALT_IL_FN void lu(typename O::V *a, int n_rt, bool pivoting, typename O::I *pv, typename O::I &info) {
    using V = typename O::V;
    const int n = NN ? NN : (n_rt < MAX_N ? n_rt : MAX_N);
    const int kmin = MM < n ? MM : n;
    info = O::isplat(0);
    KOBALT_IL_UNROLL for (int j = 0; j < kmin; ++j) {
        V *cj = a + j * MM;
        V pivot = cj[j];
        if (pivoting) {
            pivot = find_pivot<O, MM>(cj, j, pv[j]);
            typename O::M hit[MM];
            if (swap_masks<O, MM>(pivot, pv[j], j, hit)) {
                KOBALT_IL_UNROLL for (int c = 0; c < n; ++c) swap_rows_where<O, MM>(a + c * MM, j, hit);
            }
        }
        scale_below_pivot<O, MM>(cj, j, pivot, pivoting, info);
        KOBALT_IL_UNROLL for (int c = j + 1; c < n; ++c) {
            const V u = a[j + c * MM];
            KOBALT_IL_UNROLL for (int i = j + 1; i < MM; ++i) a[i + c * MM] -= cj[i] * u;
        }
    }
}

// b[k] <-> b[p] per lane (dlaswp of one row interchange, p 0-based; a p outside 0..N-1
// matches no row and swaps nothing).
template <class O, int N> KOBALT_IL_FN void swap_rows(typename O::V *b, int k, typename O::I p) {
    using V = typename O::V;
    const V bk = b[k];
    V nk = bk;
    KOBALT_IL_UNROLL for (int r = 0; r < N; ++r) {
        if (r == k) continue;
        const typename O::M s = O::ieq(p, O::isplat(r));
        nk = O::sel(s, b[r], nk);
        b[r] = O::sel(s, bk, b[r]);
    }
    b[k] = nk;
}

// U x = b in place, u(i, j) the upper triangle's element (i, j) as a vector: solve's back
// substitution on factors held in registers, and the host's on factors in a pack's block
// (backends/openmp/packed_kernels.cpp, back_solve_block).
template <class O, int N, class Upper> KOBALT_IL_FN void back_substitute(const Upper &u, typename O::V *b) {
    KOBALT_IL_UNROLL for (int j = N - 1; j >= 0; --j) {
        b[j] /= u(j, j);
        KOBALT_IL_UNROLL for (int i = 0; i < j; ++i) b[i] -= u(i, j) * b[j];
    }
}

// b = op(A)^{-1} b from the local N x N factors a = P L U (dgetrs: interchanges, L unit
// lower, U; for the transpose U^T, L^T, interchanges backwards).
template <class O, int N>
KOBALT_IL_FN void solve(bool trans, const typename O::V *a, const typename O::I *pv, bool pivoting,
                        typename O::V *b) {
    using V = typename O::V;
    if (!trans) {
        if (pivoting) KOBALT_IL_UNROLL for (int k = 0; k < N; ++k) swap_rows<O, N>(b, k, pv[k]);
        KOBALT_IL_UNROLL for (int j = 0; j < N; ++j)
            KOBALT_IL_UNROLL for (int i = j + 1; i < N; ++i) b[i] -= a[i + j * N] * b[j];
        back_substitute<O, N>([a](int i, int j) { return a[i + j * N]; }, b);
    } else {
        KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) {
            V s = b[i];
            KOBALT_IL_UNROLL for (int q = 0; q < i; ++q) s -= a[q + i * N] * b[q];
            b[i] = s / a[i + i * N];
        }
        KOBALT_IL_UNROLL for (int i = N - 1; i >= 0; --i) {
            V s = b[i];
            KOBALT_IL_UNROLL for (int q = i + 1; q < N; ++q) s -= a[q + i * N] * b[q];
            b[i] = s;
        }
        if (pivoting) KOBALT_IL_UNROLL for (int k = N - 1; k >= 0; --k) swap_rows<O, N>(b, k, pv[k]);
    }
}

template <class O> KOBALT_IL_FN void store_pivots(const Pivots &piv, int count, const typename O::I *pv) {
    KOBALT_IL_UNROLL for (int j = 0; j < count; ++j)
        O::store_ints(piv.p + j * piv.inc, piv.lane, pv[j] + O::isplat(1));
}

// A = P L U of MM x n items (NN = n at compile time, 0: runtime n <= MAX_N); info one int
// per lane, contiguous.
template <class O, int MM, int NN>
KOBALT_IL_FN void getrf(int n_rt, Operand<typename O::T> A, Pivots piv, int *info) {
    using V = typename O::V;
    using I = typename O::I;
    const int n = NN ? NN : (n_rt < MAX_N ? n_rt : MAX_N);
    V a[MM * (NN ? NN : MAX_N)];
    KOBALT_IL_UNROLL for (int c = 0; c < n; ++c)
        KOBALT_IL_UNROLL for (int i = 0; i < MM; ++i) a[i + c * MM] = O::load(at(A, i, c));
    I pv[MM], inf;
    lu<O, MM, NN>(a, n, piv.p != nullptr, pv, inf);
    KOBALT_IL_UNROLL for (int c = 0; c < n; ++c)
        KOBALT_IL_UNROLL for (int i = 0; i < MM; ++i) O::store(at(A, i, c), a[i + c * MM]);
    if (piv.p) store_pivots<O>(piv, MM < n ? MM : n, pv);
    O::store_ints(info, 1, inf);
}

// B = op(A)^{-1} B from getrf's N x N factors; B N x nrhs.
template <class O, int N>
KOBALT_IL_FN void getrs(bool trans, int nrhs, Operand<const typename O::T> A, Pivots piv, Operand<typename O::T> B) {
    using V = typename O::V;
    using I = typename O::I;
    V a[N * N];
    KOBALT_IL_UNROLL for (int c = 0; c < N; ++c) KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) a[i + c * N] = O::load(at(A, i, c));
    I pv[N];
    KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) pv[j] = O::isplat(j); // no pivoting: never read
    if (piv.p) KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) pv[j] = O::load_ints(piv.p + j * piv.inc, piv.lane) - O::isplat(1);
    for (int c = 0; c < nrhs; ++c) {
        V b[N];
        KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) b[i] = O::load(at(B, i, c));
        solve<O, N>(trans, a, pv, piv.p != nullptr, b);
        KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) O::store(at(B, i, c), b[i]);
    }
}

// The fused element solve of N x N items: A = alpha op(X) op(Y) + beta A (inner size k;
// KK = k at compile time, 0 = runtime), A = P L U, B = A^{-1} B for the lanes whose info
// is 0 (the others keep their B). EarlyB: B's first column is read before the LU, not after
// A is stored (the compiler may not move a load above stores that may alias, and A and B
// may not overlap: docs/api.md), so that on the GPU the load is in flight during the LU
// (INTERLEAVED_FUSED_EARLY_B, backends/cuda/desc.cu).
template <class O, int N, int KK = 0, bool EarlyB = false>
KOBALT_IL_FN void fused(int k, int nrhs, typename O::T alpha, Operand<const typename O::T> X,
                        Operand<const typename O::T> Y, typename O::T beta, Operand<typename O::T> A, Pivots piv,
                        Operand<typename O::T> B, int *info) {
    using T = typename O::T;
    using V = typename O::V;
    using I = typename O::I;
    V a[N * N];
    KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) {
        V acc[N];
        KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) acc[i] = O::splat(T(0));
        if (alpha != T(0)) {
            if (KK) {
                KOBALT_IL_UNROLL for (int p = 0; p < KK; ++p) {
                    const V y = O::load(at(Y, p, j));
                    KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) acc[i] += O::load(at(X, i, p)) * y;
                }
            } else {
                for (int p = 0; p < k; ++p) {
                    const V y = O::load(at(Y, p, j));
                    KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) acc[i] += O::load(at(X, i, p)) * y;
                }
            }
        }
        KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) {
            V v = acc[i] * alpha;
            if (beta != T(0)) v += O::load(at(A, i, j)) * beta;
            a[i + j * N] = v;
        }
    }
    V b_first[N];
    if (EarlyB && nrhs > 0) KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) b_first[i] = O::load(at(B, i, 0));
    I pv[N], inf;
    KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) pv[j] = O::isplat(j); // no pivoting: never read
    const bool pivoting = piv.p != nullptr;
    lu<O, N, N>(a, N, pivoting, pv, inf);
    KOBALT_IL_UNROLL for (int c = 0; c < N; ++c) KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) O::store(at(A, i, c), a[i + c * N]);
    if (pivoting) store_pivots<O>(piv, N, pv);
    O::store_ints(info, 1, inf);
    const typename O::M ok = O::ieq(inf, O::isplat(0));
    if (!O::any(ok)) return;
    const bool every = O::all(ok);
    for (int c = 0; c < nrhs; ++c) {
        V b[N], b0[N];
        KOBALT_IL_UNROLL for (int i = 0; i < N; ++i)
            b0[i] = b[i] = EarlyB && c == 0 ? b_first[i] : O::load(at(B, i, c));
        solve<O, N>(false, a, pv, pivoting, b);
        KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) O::store(at(B, i, c), every ? b[i] : O::sel(ok, b[i], b0[i]));
    }
}

} // namespace
} // namespace kobalt_interleaved

#endif
