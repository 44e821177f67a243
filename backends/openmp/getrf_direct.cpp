// getrf_direct.cpp -- getrf with partial pivoting of square items above the compile-time-n
// kernels (n = FIXED_MAX_N + 1 up to GETRF_DIRECT_MAX), one item at a time, runtime n.
// Compiled once per ISA, as trsm_direct.cpp (fixed_common.hpp), AVX-512 copy included.
//
// Row-major items only. These ran lu_pivoted.hpp, the scalar dgetf2 loop, in the backend's
// baseline ISA (SSE2), whose pivot search and scaling walk a strided column of the item: on
// AMD Zen 5 1.2-1.7x slower than on the same matrices stored by columns. Here the item is
// copied, transposed by W x W register transposes (direct_vectors.hpp), into a local
// column-major array whose columns are padded to whole vectors, factored there with every
// column operation vectorised along the rows, and copied back. (On column-major items the
// scalar loop, auto-vectorised along their columns, ran as fast as this kernel:
// docs/performance.md, "getrf at n = 20 ... 64: the direct LU".) Each step j:
//  - the pivot search runs over the vectors of column j: per lane the first maximal |a|
//    (strict >, so a later equal value and a NaN never win), then the largest lane value and
//    the smallest row holding it -- LAPACK's idamax, the first row of maximal |a|;
//  - rows j and p are swapped in column j and in the trailing columns as each is scaled or
//    updated, inside its vectors (lane selects, not scalar stores: below); the swaps of L's
//    columns (0 .. j-1), which no later step reads, are applied at the end;
//  - column j below the pivot is scaled by 1/pivot (divided when |pivot| is below the
//    smallest normal number), then each trailing column gets its rank-1 update, column j+1
//    first so that the next pivot search can start while the others are still updated.
// The first vector of a column also holds rows at or above j, which the scaling and the
// update must leave as they are: a lane select keeps them. Padding rows (n .. ld-1) are
// zeroed on the way in, computed on like the others, ignored by the pivot search and never
// copied out. Semantics are lu_pivoted.hpp's (LAPACK dgetf2): ipiv 1-based, info the first
// exactly zero pivot, whose column is neither swapped nor scaled, and the factorisation
// carries on.
#include "direct_vectors.hpp"
#include "fixed_common.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace {

template <class T> struct Lanes_of {
    using S = Vec<T, kVecBytes>;
    using V = typename S::V;
    static constexpr int W = S::W;
    // Lane indices and lane masks: integers of T's width, so that comparisons of V give VI.
    using I = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;
    typedef I VI __attribute__((vector_size(kVecBytes)));
    // x in every lane (not V{} + x, which turns -0.0 into +0.0).
    static KF_INLINE V splat(T x) { return splat(x, std::make_integer_sequence<int, W>{}); }
    template <int... K> static KF_INLINE V splat(T x, std::integer_sequence<int, K...>) {
        return V{((void)K, x)...}; // one broadcast (a lane-by-lane fill is W inserts)
    }
    static KF_INLINE VI iota() {
        VI v{};
        KF_UNROLL for (int k = 0; k < W; ++k) v[k] = I(k);
        return v;
    }
};

// v rotated by Shift lanes (lane k gets lane k + Shift mod W).
template <int Shift, class V, int... K> KOBALT_LANE_FN V rotate(V v, std::integer_sequence<int, K...>) {
    return __builtin_shufflevector(v, v, ((K + Shift) % int(sizeof...(K)))...);
}
// The largest (smallest) lane in every lane: log2(W) rotations by halves.
template <int W, int Shift = W / 2, class V> KF_INLINE V all_max(V v) {
    if constexpr (Shift == 0) {
        return v;
    } else {
        const V r = rotate<Shift>(v, Lanes<W>{});
        return all_max<W, Shift / 2>(v > r ? v : r);
    }
}
template <int W, int Shift = W / 2, class V> KF_INLINE V all_min(V v) {
    if constexpr (Shift == 0) {
        return v;
    } else {
        const V r = rotate<Shift>(v, Lanes<W>{});
        return all_min<W, Shift / 2>(v < r ? v : r);
    }
}

// The pivot row of column j (col: its element i at col[i], rows padded to whole vectors):
// the first row i in j .. n-1 of maximal |col[i]|, or j when col[j] is a NaN (idamax's
// first value, which nothing compares greater than).
template <class T> KF_INLINE int pivot_row(const T *__restrict__ col, int j, int n) {
    using L = Lanes_of<T>;
    using V = typename L::V;
    using VI = typename L::VI;
    using I = typename L::I;
    constexpr int W = L::W;
    if (col[j] != col[j]) return j;
    const VI iota = L::iota();
    const VI no_sign = VI{} + std::numeric_limits<I>::max(); // |x|: the sign bit cleared
    V best = V{} - T(1);                                      // below every |x|
    VI best_row = VI{};
    for (int b = j / W * W; b < n; b += W) {
        const VI row = iota + I(b);
        const V v = (V)((VI)L::S::load(col + b) & no_sign);
        const VI wins = (v > best) & (row >= I(j)) & (row < I(n));
        best = wins ? v : best;
        best_row = wins ? row : best_row;
    }
    const V top = all_max<W>(best);
    return int(all_min<W>(best == top ? best_row : VI{} + I(n))[0]);
}

// Step j of the LU with partial pivoting of the n x n column-major array a (column c at
// a + c*ld, ld a multiple of W, rows n .. ld-1 padding): pivot, interchange, scale, update.
// info: LAPACK's, set at the first exactly zero pivot.
template <class T>
KF_INLINE void lu_step(int n, int j, T *__restrict__ a, int ld, int *__restrict__ ipiv, int &info) {
    using L = Lanes_of<T>;
    using S = typename L::S;
    using V = typename L::V;
    using VI = typename L::VI;
    using I = typename L::I;
    constexpr int W = L::W;
    const T sfmin = std::numeric_limits<T>::min();
    const VI iota = L::iota();
    {
        T *__restrict__ cj = a + j * ld;
        const int p = pivot_row(cj, j, n);
        ipiv[j] = p + 1;
        // p != j only when the pivot is nonzero (a zero maximum is first found in row j).
        const T pivot = cj[p];
        if (pivot == T(0) && info == 0) info = j + 1;
        if (j + 1 == n) return; // the last row: p == j, nothing to swap, scale or update
        // Rows j and p trade places in each column below, inside the vectors: a scalar store
        // followed by a vector load of the same bytes stalls store-to-load forwarding (on
        // AMD Zen 5 such a swap before each column's update made this kernel slower than the
        // scalar LU). Row j, when it is not in the first updated vector (b0), is in a vector
        // no later step reads, and is stored alone.
        const int b0 = (j + 1) / W * W; // the vector holding row j + 1
        const int pb = p / W * W;       // the vector holding row p (>= b0 when p != j)
        const VI rows0 = iota + I(b0);
        const VI keep = rows0 <= I(j);               // rows of vector b0 left as they are
        const VI at_j = rows0 == I(j);               // row j, if in vector b0
        const VI at_p = (iota + I(pb)) == I(p);      // row p in vector pb
        const bool j_alone = (j + 1) % W == 0;
        const auto swap_in = [&](V x, int b, T to_j, T to_p) {
            if (b == b0) x = at_j ? L::splat(to_j) : x;
            if (b == pb) x = at_p ? L::splat(to_p) : x;
            return x;
        };
        {
            const T old_j = cj[j];
            if (j_alone) cj[j] = pivot;
            if (pivot != T(0)) {
                const bool recip = (pivot < T(0) ? -pivot : pivot) >= sfmin;
                const V r = L::splat(T(1) / pivot), d = L::splat(pivot);
                for (int b = b0; b < n; b += W) {
                    const V x = swap_in(S::load(cj + b), b, pivot, old_j);
                    const V y = recip ? x * r : x / d;
                    S::store(cj + b, b == b0 ? (keep ? x : y) : y);
                }
            }
        }
        for (int c = j + 1; c < n; ++c) {
            T *__restrict__ cc = a + c * ld;
            const T u = cc[p], old_j = cc[j]; // U(j, c) after the interchange, and row p's value
            if (j_alone) cc[j] = u;
            const V uv = L::splat(u);
            const V x0 = swap_in(S::load(cc + b0), b0, u, old_j);
            S::store(cc + b0, keep ? x0 : x0 - S::load(cj + b0) * uv);
            for (int b = b0 + W; b < n; b += W) {
                const V x = swap_in(S::load(cc + b), b, u, old_j);
                S::store(cc + b, x - S::load(cj + b) * uv);
            }
        }
    }
}

// After the last step: the interchanges of L's columns, row j with row p of columns
// 0 .. j-1, in step order.
template <class T> KF_INLINE void lu_swap_l(int n, T *__restrict__ a, int ld, const int *__restrict__ ipiv) {
    for (int j = 1; j < n; ++j) {
        const int p = ipiv[j] - 1;
        if (p == j) continue;
        for (int c = 0; c < j; ++c) {
            const T t = a[j + c * ld];
            a[j + c * ld] = a[p + c * ld];
            a[p + c * ld] = t;
        }
    }
}

// The whole LU of one array; returns LAPACK's info.
template <class T> KF_INLINE int lu_direct(int n, T *a, int ld, int *ipiv) {
    int info = 0;
    for (int j = 0; j < n; ++j) lu_step(n, j, a, ld, ipiv, info);
    lu_swap_l(n, a, ld, ipiv);
    return info;
}

} // namespace

namespace kobalt_openmp {
namespace fixed {
namespace KOBALT_FIXED_ISA {

template <class T>
void getrf_direct(int n, Items<T> A, Mat a, int *ipiv, int64_t sipiv, int *info, int64_t batch) {
    constexpr int W = Lanes_of<T>::W;
    const int ld = (n + W - 1) / W * W; // at most GETRF_DIRECT_MAX_N, a multiple of every W
    // The item's rows are unit-stride (row-major; column-major items stay on the scalar LU,
    // which auto-vectorises along their columns: getrf.cpp): its transpose is the local
    // column-major array.
    const auto copy_in = [=](const T *p, T *buf) {
        transpose_copy(p, int64_t(a.ld), buf, int64_t(ld), n, n);
        for (int c = 0; c < n; ++c)
            for (int r = n; r < ld; ++r) buf[r + c * ld] = T(0);
    };
    const auto copy_out = [=](const T *buf, T *p) { transpose_copy(buf, int64_t(ld), p, int64_t(a.ld), n, n); };
    loop(batch, [=](int64_t i) {
        alignas(64) T buf[GETRF_DIRECT_MAX_N * GETRF_DIRECT_MAX_N];
        T *const p = item(A, i);
        copy_in(p, buf);
        info[i] = lu_direct(n, buf, ld, ipiv + i * sipiv);
        copy_out(buf, p);
    });
}

template void getrf_direct<double>(int, Items<double>, Mat, int *, int64_t, int *, int64_t);
template void getrf_direct<float>(int, Items<float>, Mat, int *, int64_t, int *, int64_t);

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
