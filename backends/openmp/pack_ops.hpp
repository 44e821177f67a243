// pack_ops.hpp -- the lane operations of backends/common/interleaved_algo.hpp on SIMD
// packs of W items (GCC vector extensions of KOBALT_IL_BYTES bytes), for the translation
// units compiled once per instruction set (interleaved_kernels.cpp, packed_kernels.cpp).
// Internal linkage only (unnamed namespace), like interleaved_algo.hpp: each ISA's copy
// stays in its own object.
#ifndef KOBALT_OPENMP_PACK_OPS_HPP
#define KOBALT_OPENMP_PACK_OPS_HPP

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "../common/interleaved_algo.hpp"
#include "lane_shuffles.hpp"

#if !defined(KOBALT_IL_ISA) || !defined(KOBALT_IL_BYTES)
#error "compile with -DKOBALT_IL_ISA=base|avx2|avx512 -DKOBALT_IL_BYTES=16|32|64"
#endif

// Whether PackOps's comparisons give AVX-512 mask registers (full-width packs only).
#if KOBALT_IL_BYTES == 64 && defined(__AVX512F__)
#define KOBALT_PACK_MASK_REGISTERS 1
#include <immintrin.h>
#else
#define KOBALT_PACK_MASK_REGISTERS 0
#endif

namespace {

// |v| lane by lane by clearing the sign bit (one AND, where `v < 0 ? -v : v` takes a compare,
// a negation and a blend); I is the integer vector of v's shape. It differs from that form
// only for -0 and a NaN's sign: for callers whose |v| feeds comparisons only (PackOps::abs,
// fused_item.cpp's pivot search).
template <class I, class V> KOBALT_IL_FN V sign_cleared(V v) {
    using Int = std::decay_t<decltype(I{}[0])>;
    return (V)((I)v & (I{} + std::numeric_limits<Int>::max()));
}

// W items of T per pack: the Ops of interleaved_algo.hpp on GCC vectors.
template <class Real, int W> struct PackOps {
    using T = Real;
    using Int = std::conditional_t<sizeof(Real) == 8, int64_t, int32_t>;
    typedef Real V __attribute__((vector_size(W * sizeof(Real))));
    typedef Int I __attribute__((vector_size(W * sizeof(Real))));
    typedef int32_t I32 __attribute__((vector_size(W * sizeof(int32_t))));

    static KOBALT_IL_FN V load(const T *p) {
        V v;
        std::memcpy(&v, p, sizeof v); // unaligned: items need not start on a vector boundary
        return v;
    }
    static KOBALT_IL_FN void store(T *p, V v) { std::memcpy(p, &v, sizeof v); }
    // x in every lane by one broadcast (V{} + x would turn -0.0 into +0.0).
    static KOBALT_IL_FN V splat(T x) { return splat(x, std::make_integer_sequence<int, W>{}); }
    template <int... K> static KOBALT_IL_FN V splat(T x, std::integer_sequence<int, K...>) {
        return V{((void)K, x)...};
    }
    // abs feeds comparisons only (find_pivot, scale_below_pivot, getrf_tiny): sign_cleared.
    static KOBALT_IL_FN V abs(V v) { return sign_cleared<I>(v); }
    static KOBALT_IL_FN I isplat(int x) { return I{} + Int(x); }
#if KOBALT_PACK_MASK_REGISTERS
    // AVX-512 at full width: a comparison is a mask register (k1-k7), as the blends and the
    // mask logic take them. As all-ones vectors (GCC's vector comparisons) every select had
    // first turned its vector back into a mask (vpcmpneqq) and every live mask held a vector
    // register: in the packed LU at double n = 8 (lu_block) 123 such compares and 477 spills
    // and reloads (docs/performance.md, "AVX-512 masks in mask registers, and |v| by its
    // sign bit").
    static_assert(W * sizeof(T) == 64, "mask registers for full-width packs only");
    using M = std::conditional_t<(W > 8), __mmask16, __mmask8>;
    static constexpr M all_lanes = M((1u << W) - 1);
    static KOBALT_IL_FN M gt(V a, V b) { return cmp<_CMP_GT_OQ>(a, b); }
    static KOBALT_IL_FN M ge(V a, V b) { return cmp<_CMP_GE_OQ>(a, b); }
    static KOBALT_IL_FN M ne(V a, V b) { return cmp<_CMP_NEQ_UQ>(a, b); } // NaN != x, as GCC's a != b
    static KOBALT_IL_FN V sel(M m, V a, V b) {
        if constexpr (sizeof(T) == 8) return (V)_mm512_mask_blend_pd(m, (__m512d)b, (__m512d)a);
        else return (V)_mm512_mask_blend_ps(m, (__m512)b, (__m512)a);
    }
    static KOBALT_IL_FN M ieq(I a, I b) {
        if constexpr (sizeof(Int) == 8) return _mm512_cmpeq_epi64_mask((__m512i)a, (__m512i)b);
        else return _mm512_cmpeq_epi32_mask((__m512i)a, (__m512i)b);
    }
    static KOBALT_IL_FN I isel(M m, I a, I b) {
        if constexpr (sizeof(Int) == 8) return (I)_mm512_mask_blend_epi64(m, (__m512i)b, (__m512i)a);
        else return (I)_mm512_mask_blend_epi32(m, (__m512i)b, (__m512i)a);
    }
    static KOBALT_IL_FN M mand(M a, M b) { return M(a & b); }
    static KOBALT_IL_FN M mnot(M a) { return M(~a & all_lanes); }
    static KOBALT_IL_FN bool any(M m) { return m != 0; }
    static KOBALT_IL_FN bool all(M m) { return m == all_lanes; }

  private:
    template <int P> static KOBALT_IL_FN M cmp(V a, V b) {
        if constexpr (sizeof(T) == 8) return _mm512_cmp_pd_mask((__m512d)a, (__m512d)b, P);
        else return _mm512_cmp_ps_mask((__m512)a, (__m512)b, P);
    }

  public:
#else
    using M = I; // comparisons give all-ones / zero lanes
    static KOBALT_IL_FN M gt(V a, V b) { return a > b; }
    static KOBALT_IL_FN M ge(V a, V b) { return a >= b; }
    static KOBALT_IL_FN M ne(V a, V b) { return a != b; }
    static KOBALT_IL_FN V sel(M m, V a, V b) { return m ? a : b; }
    static KOBALT_IL_FN M ieq(I a, I b) { return a == b; }
    static KOBALT_IL_FN I isel(M m, I a, I b) { return m ? a : b; }
    static KOBALT_IL_FN M mand(M a, M b) { return a & b; }
    static KOBALT_IL_FN M mnot(M a) { return ~a; }
    static KOBALT_IL_FN bool any(M m) {
        Int r = 0;
        for (int l = 0; l < W; ++l) r |= m[l];
        return r != 0;
    }
    static KOBALT_IL_FN bool all(M m) {
        Int r = -1;
        for (int l = 0; l < W; ++l) r &= m[l];
        return r != 0;
    }
#endif
    static KOBALT_IL_FN I load_ints(const int *p, int64_t lane) {
        if (lane == 1) {
            I32 v;
            std::memcpy(&v, p, sizeof v);
            return __builtin_convertvector(v, I);
        }
        I r;
        for (int l = 0; l < W; ++l) r[l] = p[l * lane];
        return r;
    }
    static KOBALT_IL_FN void store_ints(int *p, int64_t lane, I v) {
        if (lane == 1) {
            const I32 w = __builtin_convertvector(v, I32);
            std::memcpy(p, &w, sizeof w);
            return;
        }
        for (int l = 0; l < W; ++l) p[l * lane] = int(v[l]);
    }
};

// Items of T per SIMD pack in this translation unit's instruction set.
template <class T> constexpr int lanes_of() { return KOBALT_IL_BYTES / int(sizeof(T)); }

} // namespace

#endif
