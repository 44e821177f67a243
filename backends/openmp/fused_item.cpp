// fused_item.cpp -- the fused call one item at a time, the item's columns in SIMD registers
// (fused_item.hpp). Compiled once, into the AVX-512 object of the interleaved kernels
// (KOBALT_IL_ISA = avx512); everything but the entry points has internal linkage.
//
// A column is a GCC vector of 8 elements (lane i = row i; lanes >= n are zero or garbage
// and never stored or searched): one zmm register in double and one ymm in single. Only
// AVX-512 has it so (docs/performance.md, "Fused call at n = 6 ... 8 on AVX-512", session
// 17): with AVX2 GCC lowers the 8-lane double permutes through the stack (session 9: this
// kernel's forerunner 4.5-6.7x slower than the packed path in double at n = 6, 8, 1.34x
// faster in float at n = 8), and the AVX2 and baseline copies this file once had took 6 and
// 8 times as long to build as the AVX-512 copy (a fifth of the plain CI build:
// docs/reliability.md, session 22). So there is no other copy: on CPUs without AVX-512 the
// fused call takes the packed or fixed-n path (fused_item.hpp).
// Tried in session 17 and taken out: the pivot index through a mask and tzcnt into a
// general register and back, the reciprocals of the whole column computed during the pivot
// search (5-10% faster in cache, 1.3x slower from memory), prefetching the next group.
#include "fused_item.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if !defined(__AVX512F__) || !defined(__AVX512VL__)
#error "fused_item.cpp is built only into the AVX-512 copy of the interleaved kernels"
#endif
#include <immintrin.h>

#include "pack_ops.hpp"
#include "static_chunks.hpp"

namespace {

// GCC's __builtin_shuffle (variable or constant lane indices, one or two operands). clang
// has no such builtin (its __builtin_shufflevector wants constant indices as separate
// arguments), so a clang build (CI's fuzz step) gets the same permutes as element loops:
// correct, slower, and never what the thresholds were measured with. Inside the
// anonymous namespace: each ISA copy of this file must keep its own.
#if defined(__clang__)
template <class V, class I> inline V kobalt_shuffle(V v, I idx) {
    constexpr int n = sizeof(V) / sizeof(v[0]);
    V o;
    for (int i = 0; i < n; ++i) o[i] = v[idx[i] & (n - 1)];
    return o;
}
template <class V, class I> inline V kobalt_shuffle(V a, V b, I idx) {
    constexpr int n = sizeof(V) / sizeof(a[0]);
    V o;
    for (int i = 0; i < n; ++i) {
        const int k = static_cast<int>(idx[i] & (2 * n - 1));
        o[i] = k < n ? a[k] : b[k - n];
    }
    return o;
}
// Object-like, so the commas of a braced index list need no protection.
#define KOBALT_SHUFFLE kobalt_shuffle
#else
#define KOBALT_SHUFFLE __builtin_shuffle
#endif

using kobalt_openmp::fixed::Items;
using kobalt_openmp::fixed::Mat;

constexpr int L = kobalt_openmp::interleaved::FUSED_ITEM_MAX_N; // lanes per column

template <class T> struct Col {
    using Int = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;
    typedef T V __attribute__((vector_size(L * sizeof(T))));
    typedef Int I __attribute__((vector_size(L * sizeof(T))));
};

template <class I> KOBALT_IL_FN I iota() { return I{0, 1, 2, 3, 4, 5, 6, 7}; }

// Lane j of v in every lane (j a constant after unrolling).
template <class V, class I> KOBALT_IL_FN V splat_lane(V v, int j) { return KOBALT_SHUFFLE(v, I{} + j); }

// Every lane the maximum (minimum) of all lanes: a butterfly of three exchange steps.
template <class V, class I> KOBALT_IL_FN V all_max(V m) {
    const I id = iota<I>();
    V o = KOBALT_SHUFFLE(m, id ^ 4);
    m = o > m ? o : m;
    o = KOBALT_SHUFFLE(m, id ^ 2);
    m = o > m ? o : m;
    o = KOBALT_SHUFFLE(m, id ^ 1);
    return o > m ? o : m;
}
template <class I> KOBALT_IL_FN I all_min(I m) {
    const I id = iota<I>();
    I o = KOBALT_SHUFFLE(m, id ^ 4);
    m = o < m ? o : m;
    o = KOBALT_SHUFFLE(m, id ^ 2);
    m = o < m ? o : m;
    o = KOBALT_SHUFFLE(m, id ^ 1);
    return o < m ? o : m;
}
static_assert(L == 8, "all_max, all_min and transpose are written for 8 lanes");

// N contiguous elements into lanes 0..N-1 (the rest zero), and back: never touches memory
// past the item. Masked loads and stores for N < 8 (a column is one zmm in double, one ymm
// in float): a partial memcpy of a vector went through the stack.
template <int N, class V, class T> KOBALT_IL_FN V load_col(const T *p) {
    if (N < L) {
        constexpr __mmask8 m = __mmask8((1u << N) - 1u);
        if constexpr (sizeof(T) == 8) return (V)_mm512_maskz_loadu_pd(m, p);
        else return (V)_mm256_maskz_loadu_ps(m, p);
    }
    V v;
    std::memcpy(&v, p, sizeof(V));
    return v;
}
template <int N, class V, class T> KOBALT_IL_FN void store_col(T *p, V v) {
    if (N < L) {
        constexpr __mmask8 m = __mmask8((1u << N) - 1u);
        if constexpr (sizeof(T) == 8) _mm512_mask_storeu_pd(p, m, (__m512d)v);
        else _mm256_mask_storeu_ps(p, m, (__m256)v);
        return;
    }
    std::memcpy(p, &v, sizeof(V));
}

// c[j] = column j of the 8 x 8 matrix whose row i is r[i] (three rounds of two-input
// shuffles, as an 8 x 8 in-register transpose).
template <class V, class I> KOBALT_IL_FN void transpose(const V *r, V *c) {
    V t[L], u[L];
    KOBALT_IL_UNROLL for (int k = 0; k < L; k += 2) {
        t[k] = KOBALT_SHUFFLE(r[k], r[k + 1], I{0, 8, 2, 10, 4, 12, 6, 14});
        t[k + 1] = KOBALT_SHUFFLE(r[k], r[k + 1], I{1, 9, 3, 11, 5, 13, 7, 15});
    }
    KOBALT_IL_UNROLL for (int k = 0; k < L; k += 4) KOBALT_IL_UNROLL for (int h = 0; h < 2; ++h) {
        u[k + h] = KOBALT_SHUFFLE(t[k + h], t[k + h + 2], I{0, 1, 8, 9, 4, 5, 12, 13});
        u[k + h + 2] = KOBALT_SHUFFLE(t[k + h], t[k + h + 2], I{2, 3, 10, 11, 6, 7, 14, 15});
    }
    KOBALT_IL_UNROLL for (int h = 0; h < 4; ++h) {
        c[h] = KOBALT_SHUFFLE(u[h], u[h + 4], I{0, 1, 2, 3, 8, 9, 10, 11});
        c[h + 4] = KOBALT_SHUFFLE(u[h], u[h + 4], I{4, 5, 6, 7, 12, 13, 14, 15});
    }
}

// The columns of an N x N item stored with unit row stride (U: i + j*ld) or by rows
// (i*ld + j: rows loaded, then transposed in registers). c[N..7] are zero.
template <int N, bool U, class T, class V = typename Col<T>::V, class I = typename Col<T>::I>
KOBALT_IL_FN void load_cols(V *c, const T *p, int64_t ld) {
    if (U) {
        KOBALT_IL_UNROLL for (int j = 0; j < L; ++j) c[j] = j < N ? load_col<N, V>(p + j * ld) : V{};
    } else {
        V r[L];
        KOBALT_IL_UNROLL for (int i = 0; i < L; ++i) r[i] = i < N ? load_col<N, V>(p + i * ld) : V{};
        transpose<V, I>(r, c);
    }
}
template <int N, bool U, class T, class V = typename Col<T>::V, class I = typename Col<T>::I>
KOBALT_IL_FN void store_cols(T *p, const V *c, int64_t ld) {
    if (U) {
        KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) store_col<N>(p + j * ld, c[j]);
    } else {
        V r[L];
        transpose<V, I>(c, r);
        KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) store_col<N>(p + i * ld, r[i]);
    }
}

template <class T> KOBALT_IL_FN T *item(const Items<T> &it, int64_t i) {
    return it.ptrs ? it.ptrs[i] : it.base + i * it.stride;
}

template <class T> struct Args {
    T alpha, beta;
    Items<const T> X;
    int64_t ldx;
    Items<const T> Y;
    int64_t ys, yc; // Y(p, j) at y[p*ys + j*yc]
    Items<T> A;
    int64_t lda;
    int *ipiv;
    int64_t sipiv;
    int nrhs;
    Items<T> B;
    int64_t sb, sc; // B(i, c) at b[i*sb + c*sc]
    int *info;
};

// Step j of dgetf2 on the columns a (pivot search, row interchange, scaling, rank-1
// update), in the order of operations of fixed_kernels.cpp's lu(). perm: where each row
// of the current a came from (the interchanges so far, as one permutation for the solve).
// WB: one right-hand side b rides along as an extra column: its rows are interchanged
// with a's and it gets step j of the forward substitution (b_i -= L(i, j) b_j, i > j)
// once L's column j is known: the same operations on the same values, in the same order
// for each row, as applying all interchanges first and then solving with L (getrs).
template <class T, int N, bool WB, class V = typename Col<T>::V, class I = typename Col<T>::I>
KOBALT_IL_FN void lu_step(V *a, V &b, int j, bool pivoting, I &perm, int *piv, int &info, bool &normal) {
    const I lane = iota<I>();
    if (pivoting) {
        // First largest |a(i, j)| over i = j..N-1; NaN never wins, and a NaN at (j, j)
        // keeps row j (idamax's rule as dgetf2 calls it: nothing compares greater). The
        // index stays a vector (no round trip through a general register on the chain).
        const V col = a[j];
        const V mag = sign_cleared<I>(col);
        const V m = ((lane >= j) & (lane < N) & (mag == mag)) ? mag : V{} - T(1);
        const I first = all_min<I>(m == all_max<V, I>(m) ? lane : I{} + L);
        const V d = splat_lane<V, I>(col, j);
        const I p = d != d ? I{} + j : first;
        piv[j] = int(p[0]) + 1;
        // Rows j and p exchanged in every column (the identity where p == j; p != j only
        // for a non-zero pivot, which is LAPACK's condition for the swap).
        const I sw = lane == j ? p : (lane == p ? I{} + j : lane);
        KOBALT_IL_UNROLL for (int c = 0; c < N; ++c) a[c] = KOBALT_SHUFFLE(a[c], sw);
        perm = KOBALT_SHUFFLE(perm, sw);
        if (WB) b = KOBALT_SHUFFLE(b, sw);
    }
    const T pj = a[j][j];
    const auto below = lane > j;
    if (pj != T(0)) {
        if (std::fabs(pj) >= std::numeric_limits<T>::min()) {
            const T r = T(1) / pj;
            a[j] = below ? a[j] * r : a[j];
        } else {
            a[j] = below ? a[j] / pj : a[j];
            normal = false;
        }
    } else {
        if (info == 0) info = j + 1;
        normal = false;
        if (!pivoting) a[j] = below ? a[j] / pj : a[j]; // as SerialLU: Inf/NaN
    }
    KOBALT_IL_UNROLL for (int c = j + 1; c < N; ++c) {
        const V u = splat_lane<V, I>(a[c], j);
        a[c] = below ? a[c] - a[j] * u : a[c];
    }
    if (WB && j + 1 < N) b = below ? b - a[j] * splat_lane<V, I>(b, j) : b;
}

// Step j of the back substitution with U (rows j..N-1 of b solved). Rcp (every |U(j, j)|
// at least the smallest normal number, so 1/U(j, j) is finite): multiplies by the
// reciprocals rd, computed off the dependency chain (as getrs_tiny.cpp), instead of
// dividing by the diagonal d.
template <class T, bool Rcp, class V = typename Col<T>::V, class I = typename Col<T>::I>
KOBALT_IL_FN void back_step(const V *a, V rd, V d, V &b, int j) {
    const I lane = iota<I>();
    const V bj = splat_lane<V, I>(b, j);
    const V x = Rcp ? bj * splat_lane<V, I>(rd, j) : bj / splat_lane<V, I>(d, j);
    b = lane < j ? b - a[j] * x : (lane == j ? x : b);
}

// One right-hand side: element i at q[i*sb], into lanes 0..N-1 and back.
template <int N, class V, class T> KOBALT_IL_FN V load_rhs(const T *q, int64_t sb) {
    if (sb == 1) return load_col<N, V>(q);
    V b{};
    KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) b[i] = q[i * sb];
    return b;
}
template <int N, class V, class T> KOBALT_IL_FN void store_rhs(T *q, int64_t sb, V b) {
    if (sb == 1) store_col<N>(q, b);
    else KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) q[i * sb] = b[i];
}

// One right-hand side column b (lanes 0..N-1) through P, L and U (nrhs > 1; a single
// right-hand side rides along the LU instead, WB above).
template <class T, int N, bool Rcp, class V = typename Col<T>::V, class I = typename Col<T>::I>
KOBALT_IL_FN V solve(const V *a, bool pivoting, I perm, V rd, V d, V b) {
    const I lane = iota<I>();
    if (pivoting) b = KOBALT_SHUFFLE(b, perm);
    KOBALT_IL_UNROLL for (int j = 0; j + 1 < N; ++j) b = lane > j ? b - a[j] * splat_lane<V, I>(b, j) : b;
    KOBALT_IL_UNROLL for (int j = N - 1; j >= 0; --j) back_step<T, Rcp>(a, rd, d, b, j);
    return b;
}

// The nrhs columns of B_i (element (i, c) at q[i*sb + c*sc]).
template <class T, int N, bool Rcp, class V = typename Col<T>::V, class I = typename Col<T>::I>
KOBALT_IL_FN void solve_all(const Args<T> &g, T *pb, const V *a, bool pivoting, I perm, V rd, V d) {
    for (int c = 0; c < g.nrhs; ++c) {
        T *const q = pb + c * g.sc;
        store_rhs<N>(q, g.sb, solve<T, N, Rcp>(a, pivoting, perm, rd, d, load_rhs<N, V>(q, g.sb)));
    }
}

// K items from i0 on: the K products, then the K LUs step by step interleaved (K
// independent dependency chains in flight), then the stores and the K solves. WB (nrhs ==
// 1): the right-hand side rides along the LU (lu_step) and the K back substitutions run
// interleaved too.
template <class T, int N, int K, bool UX, bool UA, bool WB>
KOBALT_IL_FN void group(const Args<T> &g, int64_t i0) {
    using V = typename Col<T>::V;
    using I = typename Col<T>::I;
    const I lane = iota<I>();
    V a[K][L];
    KOBALT_IL_UNROLL for (int k = 0; k < K; ++k) {
        KOBALT_IL_UNROLL for (int j = 0; j < L; ++j) a[k][j] = V{};
        if (g.alpha != T(0)) {
            V x[L];
            load_cols<N, UX>(x, item(g.X, i0 + k), g.ldx);
            const T *const y = item(g.Y, i0 + k);
            KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) {
                V acc{};
                KOBALT_IL_UNROLL for (int p = 0; p < N; ++p) acc += x[p] * y[p * g.ys + j * g.yc];
                a[k][j] = acc * g.alpha;
            }
        }
        if (g.beta != T(0)) {
            V c0[L];
            load_cols<N, UA>(c0, item(g.A, i0 + k), g.lda);
            KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) a[k][j] += c0[j] * g.beta;
        }
    }
    const bool pivoting = g.ipiv != nullptr;
    I perm[K];
    int inf[K];
    bool normal[K];
    int *piv[K];
    KOBALT_IL_UNROLL for (int k = 0; k < K; ++k) {
        perm[k] = lane;
        inf[k] = 0;
        normal[k] = true;
        piv[k] = pivoting ? g.ipiv + (i0 + k) * g.sipiv : nullptr;
    }
    V b[K];
    KOBALT_IL_UNROLL for (int k = 0; k < K; ++k) b[k] = WB ? load_rhs<N, V>(item(g.B, i0 + k), g.sb) : V{};
    KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) KOBALT_IL_UNROLL for (int k = 0; k < K; ++k)
        lu_step<T, N, WB>(a[k], b[k], j, pivoting, perm[k], piv[k], inf[k], normal[k]);
    KOBALT_IL_UNROLL for (int k = 0; k < K; ++k) {
        store_cols<N, UA>(item(g.A, i0 + k), a[k], g.lda);
        g.info[i0 + k] = inf[k];
    }
    // B_i stays untouched where info[i] > 0.
    if (WB) {
        V rd[K], d[K];
        bool all = true;
        KOBALT_IL_UNROLL for (int k = 0; k < K; ++k) {
            d[k] = V{} + T(1);
            KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) d[k] = lane == j ? a[k][j] : d[k];
            rd[k] = T(1) / d[k];
            all = all && inf[k] == 0 && normal[k];
        }
        if (all) {
            KOBALT_IL_UNROLL for (int j = N - 1; j >= 0; --j) KOBALT_IL_UNROLL for (int k = 0; k < K; ++k)
                back_step<T, true>(a[k], rd[k], d[k], b[k], j);
        } else {
            KOBALT_IL_UNROLL for (int k = 0; k < K; ++k) {
                if (inf[k] != 0) continue;
                if (normal[k]) KOBALT_IL_UNROLL for (int j = N - 1; j >= 0; --j) back_step<T, true>(a[k], rd[k], d[k], b[k], j);
                else KOBALT_IL_UNROLL for (int j = N - 1; j >= 0; --j) back_step<T, false>(a[k], rd[k], d[k], b[k], j);
            }
        }
        KOBALT_IL_UNROLL for (int k = 0; k < K; ++k)
            if (inf[k] == 0) store_rhs<N>(item(g.B, i0 + k), g.sb, b[k]);
        return;
    }
    KOBALT_IL_UNROLL for (int k = 0; k < K; ++k) {
        if (inf[k] != 0 || g.nrhs <= 0) continue;
        V d = V{} + T(1);
        KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) d = lane == j ? a[k][j] : d;
        const V rd = T(1) / d;
        T *const pb = item(g.B, i0 + k);
        if (normal[k]) solve_all<T, N, true>(g, pb, a[k], pivoting, perm[k], rd, d);
        else solve_all<T, N, false>(g, pb, a[k], pivoting, perm[k], rd, d);
    }
}

// Items per group with one right-hand side (the LU chains interleaved): 4 up to n = 4, 3 up
// to 7, 2 at 8 (two items' 16 columns and their temporaries fill the 32 zmm registers; at
// n = 7 three items spill a few vectors). Session 17 ("Fused call at n = 6 ... 8 on
// AVX-512" in docs/performance.md) measured K = 3 at n = 6 about 4% faster than 2 in cache.
template <int N> constexpr int group_size() { return N <= 4 ? 4 : N <= 7 ? 3 : 2; }

// WB false (nrhs != 1, the rarer case) one item at a time, to bound the code size.
template <class T, int N, bool UX, bool UA, bool WB> void run(const Args<T> &g, int64_t batch) {
    constexpr int K = WB ? group_size<N>() : 1;
    const auto chunk = [&g](int64_t lo, int64_t hi) {
        int64_t i = lo;
        for (; i + K <= hi; i += K) group<T, N, K, UX, UA, WB>(g, i);
        for (; i < hi; ++i) group<T, N, 1, UX, UA, WB>(g, i);
    };
    kobalt_openmp::for_static_chunks(batch, chunk);
}

template <class T, int N, bool WB> void run_n(const Args<T> &g, bool ux, bool ua, int64_t batch) {
    if (ux) {
        if (ua) run<T, N, true, true, WB>(g, batch);
        else run<T, N, true, false, WB>(g, batch);
    } else {
        if (ua) run<T, N, false, true, WB>(g, batch);
        else run<T, N, false, false, WB>(g, batch);
    }
}
template <class T, int N> void run_n(const Args<T> &g, bool ux, bool ua, int64_t batch) {
    if (g.nrhs == 1) run_n<T, N, true>(g, ux, ua, batch);
    else run_n<T, N, false>(g, ux, ua, batch);
}

} // namespace

namespace kobalt_openmp {
namespace interleaved {
namespace avx512 {

template <class T>
void item_fused(int n, T alpha, Items<const T> X, Mat x, Items<const T> Y, Mat y, T beta, Items<T> A, Mat a,
                int *ipiv, int64_t sipiv, int nrhs, Items<T> B, Mat b, int *info, int64_t batch) {
    const Args<T> g{alpha, beta, X,     x.ld,  Y, y.unit_rows ? 1 : int64_t(y.ld), y.unit_rows ? int64_t(y.ld) : 1,
                    A,     a.ld, ipiv, sipiv, nrhs, B, b.unit_rows ? 1 : int64_t(b.ld),
                    b.unit_rows ? int64_t(b.ld) : 1, info};
    switch (n) {
    case 1: run_n<T, 1>(g, x.unit_rows, a.unit_rows, batch); break;
    case 2: run_n<T, 2>(g, x.unit_rows, a.unit_rows, batch); break;
    case 3: run_n<T, 3>(g, x.unit_rows, a.unit_rows, batch); break;
    case 4: run_n<T, 4>(g, x.unit_rows, a.unit_rows, batch); break;
    case 5: run_n<T, 5>(g, x.unit_rows, a.unit_rows, batch); break;
    case 6: run_n<T, 6>(g, x.unit_rows, a.unit_rows, batch); break;
    case 7: run_n<T, 7>(g, x.unit_rows, a.unit_rows, batch); break;
    case 8: run_n<T, 8>(g, x.unit_rows, a.unit_rows, batch); break;
    default: break;
    }
}

template void item_fused<double>(int, double, Items<const double>, Mat, Items<const double>, Mat, double,
                                 Items<double>, Mat, int *, int64_t, int, Items<double>, Mat, int *, int64_t);
template void item_fused<float>(int, float, Items<const float>, Mat, Items<const float>, Mat, float, Items<float>,
                                Mat, int *, int64_t, int, Items<float>, Mat, int *, int64_t);

} // namespace avx512
} // namespace interleaved
} // namespace kobalt_openmp
