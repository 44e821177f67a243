// getrf_tiny.cpp -- getrf of square 2 x 2 items on the caller's items in place, W items at
// a time in SIMD registers (packed_kernels.hpp declares it; GETRF_TINY_MAX chooses it).
// Compiled once per ISA with KOBALT_IL_ISA set, like packed_kernels.cpp; everything but the
// entry point has internal linkage.
//
// At n = 2 an item is four elements, two pivots and an info: the LU is a handful of
// operations and the call should run at the copy bandwidth. The packed path (the default
// before this kernel) copies W items element by element into a block on the stack, runs
// the interleaved LU there and copies them back: two extra passes, at 58-68 % of the copy
// floor in double and behind Eigen's fixed-size PartialPivLU (docs/performance.md, "getrf at
// n = 2 in place"). Here a block of W items of a dense strided batch (lda = 2, stride 4)
// is loaded as four vectors and de-interleaved in registers by two rounds of even/odd lane
// selections (the stores interleave it back the same way); any other layout (pointer
// arrays, padding, and the last items of a thread's chunk) fills the same four vectors
// element by element. The LU itself is then one instruction stream for the W lanes.
//
// Semantics are the fixed path's (fixed_kernels.cpp): LAPACK dgetf2 pivots (the first
// maximum; a NaN never wins) and info, the multiplier as a product with the pivot's
// reciprocal when |pivot| is at least the smallest normal number, else a division; with
// pivoting a zero pivot leaves its column unscaled, without pivoting (ipiv NULL) it divides,
// as SerialLU does. A NaN or Inf stays in its own lane.
#include "packed_kernels.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "pack_ops.hpp"
#include "static_chunks.hpp"

namespace {

using kobalt_openmp::fixed::Items;
using kobalt_openmp::fixed::Mat;

// G items of four contiguous elements as one vector of 4G lanes, and back: halves joined
// (split) by lane selections, so that W items of a pointer array fill the four vectors with
// one load per item (two per vector in the SSE2 copy of double) and no trip through memory.
template <class V, int... K> KOBALT_IL_FN auto join(V a, V b, std::integer_sequence<int, K...>) {
    return __builtin_shufflevector(a, b, K...);
}
template <int Off, class V, int... K> KOBALT_IL_FN auto part(V v, std::integer_sequence<int, K...>) {
    return __builtin_shufflevector(v, v, (Off + K)...);
}
template <class T, int G> struct Items4 {
    typedef T V __attribute__((vector_size(4 * G * sizeof(T))));
    using Half = Items4<T, G / 2>;
    static KOBALT_IL_FN V load(T *const *p) { return join(Half::load(p), Half::load(p + G / 2), Lanes<4 * G>{}); }
    static KOBALT_IL_FN void store(T *const *p, V v) {
        Half::store(p, part<0>(v, Lanes<2 * G>{}));
        Half::store(p + G / 2, part<2 * G>(v, Lanes<2 * G>{}));
    }
};
template <class T> struct Items4<T, 1> {
    typedef T V __attribute__((vector_size(4 * sizeof(T))));
    static KOBALT_IL_FN V load(T *const *p) {
        V v;
        std::memcpy(&v, p[0], sizeof v);
        return v;
    }
    static KOBALT_IL_FN void store(T *const *p, V v) { std::memcpy(p[0], &v, sizeof v); }
};

template <class T> struct Block {
    static constexpr int W = lanes_of<T>();
    using Ops = PackOps<T, W>;
    using V = typename Ops::V;
    using I = typename Ops::I;
    using I32 = typename Ops::I32;

    // Element (i, j) of lane l in e[i + 2*j][l].
    V e[4];
    I piv, info;

    // W items of four contiguous elements in z, slot k of item l in lane (4l + k) % W of
    // z[(4l + k) / W], to e and back. Column-major slots are e's order; row-major ones hold
    // (0,0) (0,1) (1,0) (1,1).
    KOBALT_IL_FN void split(const V *z, bool cols) {
        const Lanes<W> s{};
        const V e01 = even(z[0], z[1], s), o01 = odd(z[0], z[1], s), e23 = even(z[2], z[3], s),
                o23 = odd(z[2], z[3], s);
        e[0] = even(e01, e23, s);
        e[3] = odd(o01, o23, s);
        const V s1 = even(o01, o23, s), s2 = odd(e01, e23, s);
        e[1] = cols ? s1 : s2;
        e[2] = cols ? s2 : s1;
    }
    KOBALT_IL_FN void merge(V *z, bool cols) const {
        const Lanes<W> s{};
        const V s1 = cols ? e[1] : e[2], s2 = cols ? e[2] : e[1];
        const V e01 = lo(e[0], s2, s), e23 = hi(e[0], s2, s), o01 = lo(s1, e[3], s), o23 = hi(s1, e[3], s);
        z[0] = lo(e01, o01, s);
        z[1] = hi(e01, o01, s);
        z[2] = lo(e23, o23, s);
        z[3] = hi(e23, o23, s);
    }
    // The dense case: W items at p, slot k of item l at p[4*l + k].
    KOBALT_IL_FN void load_dense(const T *p, bool cols) {
        const V z[4] = {Ops::load(p), Ops::load(p + W), Ops::load(p + 2 * W), Ops::load(p + 3 * W)};
        split(z, cols);
    }
    KOBALT_IL_FN void store_dense(T *p, bool cols) const {
        V z[4];
        merge(z, cols);
        for (int k = 0; k < 4; ++k) Ops::store(p + k * W, z[k]);
    }
    // Each item's four elements contiguous at p[l] (lda 2), the items anywhere. Below four
    // lanes (double in the SSE2 copy) through a dense copy on the stack.
    KOBALT_IL_FN void load_compact(T *const *p, bool cols) {
        if constexpr (W >= 4) {
            using C = Items4<T, W / 4>;
            const V z[4] = {C::load(p), C::load(p + W / 4), C::load(p + W / 2), C::load(p + 3 * W / 4)};
            split(z, cols);
        } else {
            alignas(64) T buf[4 * W];
            for (int l = 0; l < W; ++l) std::memcpy(buf + 4 * l, p[l], 4 * sizeof(T));
            load_dense(buf, cols);
        }
    }
    KOBALT_IL_FN void store_compact(T *const *p, bool cols) const {
        if constexpr (W >= 4) {
            using C = Items4<T, W / 4>;
            V z[4];
            merge(z, cols);
            for (int k = 0; k < 4; ++k) C::store(p + k * W / 4, z[k]);
        } else {
            alignas(64) T buf[4 * W];
            store_dense(buf, cols);
            for (int l = 0; l < W; ++l) std::memcpy(p[l], buf + 4 * l, 4 * sizeof(T));
        }
    }

    // Any layout: items first .. first+count-1 (count <= W), element k at item + off[k].
    // Lanes from count on hold the identity, so that they compute nothing but finite values.
    KOBALT_IL_FN void load_items(const Items<T> &A, int64_t first, int count, const int64_t *off) {
        for (int k = 0; k < 4; ++k) e[k] = Ops::splat(k == 0 || k == 3 ? T(1) : T(0));
        for (int l = 0; l < count; ++l) {
            const T *q = item(A, first + l);
            KOBALT_IL_UNROLL for (int k = 0; k < 4; ++k) e[k][l] = q[off[k]];
        }
    }
    KOBALT_IL_FN void store_items(const Items<T> &A, int64_t first, int count, const int64_t *off) const {
        for (int l = 0; l < count; ++l) {
            T *q = item(A, first + l);
            KOBALT_IL_UNROLL for (int k = 0; k < 4; ++k) q[off[k]] = e[k][l];
        }
    }
    static KOBALT_IL_FN T *item(const Items<T> &it, int64_t i) {
        return it.ptrs ? it.ptrs[i] : it.base + i * it.stride;
    }

    template <bool Pivot> KOBALT_IL_FN void lu() {
        V p = e[0], q = e[1], u = e[2], w = e[3];
        if (Pivot) {
            const auto swap = Ops::gt(Ops::abs(q), Ops::abs(p)); // a NaN never wins, as in idamax's loop
            const V p2 = Ops::sel(swap, q, p), q2 = Ops::sel(swap, p, q);
            const V u2 = Ops::sel(swap, w, u), w2 = Ops::sel(swap, u, w);
            p = p2;
            q = q2;
            u = u2;
            w = w2;
            piv = Ops::isel(swap, Ops::isplat(2), Ops::isplat(1)); // 2 where rows 1 and 2 swapped
        }
        V l = q * (T(1) / p);
        const auto normal = Ops::ge(Ops::abs(p), Ops::splat(std::numeric_limits<T>::min()));
        // Off the common path: a lane with a zero, subnormal or NaN pivot takes LAPACK's
        // division, or with pivoting keeps its (zero) column when the pivot is zero.
        if (!Ops::all(normal)) {
            l = Ops::sel(normal, l, q / p);
            if (Pivot) l = Ops::sel(Ops::ne(p, Ops::splat(T(0))), l, q);
        }
        w = w - l * u;
        const I zero = Ops::isplat(0);
        info = Ops::isel(Ops::ne(p, Ops::splat(T(0))), Ops::isel(Ops::ne(w, Ops::splat(T(0))), zero, Ops::isplat(2)),
                         Ops::isplat(1));
        e[0] = p;
        e[1] = l;
        e[2] = u;
        e[3] = w;
    }

    // Pivots (1 or 2 for the first row, 2 for the second) and info of lanes 0..count-1.
    KOBALT_IL_FN void store_pivots(int *ipiv, int64_t sipiv, int64_t first, int count) const {
        const I32 p32 = __builtin_convertvector(piv, I32);
        int *const q = ipiv + first * sipiv;
        if (sipiv == 2 && count == W) {
            const Lanes<W> s{};
            const I32 two = I32{} + 2;
            const I32 a = lo(p32, two, s), b = hi(p32, two, s);
            std::memcpy(q, &a, sizeof a);
            std::memcpy(q + W, &b, sizeof b);
            return;
        }
        for (int l = 0; l < count; ++l) {
            q[l * sipiv] = p32[l];
            q[l * sipiv + 1] = 2;
        }
    }
    KOBALT_IL_FN void store_info(int *out, int count) const {
        const I32 i32 = __builtin_convertvector(info, I32);
        if (count == W) {
            std::memcpy(out, &i32, sizeof i32);
            return;
        }
        for (int l = 0; l < count; ++l) out[l] = i32[l];
    }
};

template <class T, bool Pivot>
void getrf2(Items<T> A, Mat a, int *ipiv, int64_t sipiv, int *info, int64_t batch) {
    using B = Block<T>;
    constexpr int W = B::W;
    // dense: the whole batch is one array of items; compact: each item's four elements are
    // contiguous (lda 2) but the items are not (padding, pointer arrays): one load per item.
    const bool dense = !A.ptrs && A.stride == 4 && a.ld == 2, compact = a.ld == 2;
    const int64_t ld = a.ld;
    const int64_t off[4] = {0, a.unit_rows ? 1 : ld, a.unit_rows ? ld : 1, ld + 1};
    kobalt_openmp::for_static_chunks(batch, [&](int64_t lo_item, int64_t hi_item) {
        for (int64_t i = lo_item; i < hi_item; i += W) {
            const int count = hi_item - i < W ? int(hi_item - i) : W;
            B b;
            const bool whole = dense && count == W, gathered = !dense && compact && count == W;
            T *p[W];
            if (gathered)
                for (int l = 0; l < W; ++l) p[l] = B::item(A, i + l);
            if (whole) b.load_dense(A.base + 4 * i, a.unit_rows);
            else if (gathered) b.load_compact(p, a.unit_rows);
            else b.load_items(A, i, count, off);
            b.template lu<Pivot>();
            if (whole) b.store_dense(A.base + 4 * i, a.unit_rows);
            else if (gathered) b.store_compact(p, a.unit_rows);
            else b.store_items(A, i, count, off);
            if (Pivot) b.store_pivots(ipiv, sipiv, i, count);
            b.store_info(info + i, count);
        }
    });
}

} // namespace

namespace kobalt_openmp {
namespace interleaved {
namespace KOBALT_IL_ISA {

template <class T>
void tiny_getrf2(fixed::Items<T> A, fixed::Mat a, int *ipiv, int64_t sipiv, int *info, int64_t batch) {
    if (ipiv) getrf2<T, true>(A, a, ipiv, sipiv, info, batch);
    else getrf2<T, false>(A, a, ipiv, sipiv, info, batch);
}

template void tiny_getrf2<double>(fixed::Items<double>, fixed::Mat, int *, int64_t, int *, int64_t);
template void tiny_getrf2<float>(fixed::Items<float>, fixed::Mat, int *, int64_t, int *, int64_t);

} // namespace KOBALT_IL_ISA
} // namespace interleaved
} // namespace kobalt_openmp
