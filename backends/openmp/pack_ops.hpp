// pack_ops.hpp -- the lane operations of backends/common/interleaved_algo.hpp on SIMD
// packs of W items (GCC vector extensions of KOBALT_IL_BYTES bytes), for the translation
// units compiled once per instruction set (interleaved_kernels.cpp, packed_kernels.cpp).
// Internal linkage only (unnamed namespace), like interleaved_algo.hpp: each ISA's copy
// stays in its own object.
#ifndef KOBALT_OPENMP_PACK_OPS_HPP
#define KOBALT_OPENMP_PACK_OPS_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "../common/interleaved_algo.hpp"
#include "lane_shuffles.hpp"

#if !defined(KOBALT_IL_ISA) || !defined(KOBALT_IL_BYTES)
#error "compile with -DKOBALT_IL_ISA=base|avx2|avx512 -DKOBALT_IL_BYTES=16|32|64"
#endif

namespace {

// W items of T per pack: the Ops of interleaved_algo.hpp on GCC vectors.
template <class Real, int W> struct PackOps {
    using T = Real;
    using Int = std::conditional_t<sizeof(Real) == 8, int64_t, int32_t>;
    typedef Real V __attribute__((vector_size(W * sizeof(Real))));
    typedef Int I __attribute__((vector_size(W * sizeof(Real))));
    typedef int32_t I32 __attribute__((vector_size(W * sizeof(int32_t))));
    using M = I; // comparisons give all-ones / zero lanes

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
    static KOBALT_IL_FN V abs(V v) { return v < T(0) ? -v : v; }
    static KOBALT_IL_FN M gt(V a, V b) { return a > b; }
    static KOBALT_IL_FN M ge(V a, V b) { return a >= b; }
    static KOBALT_IL_FN M ne(V a, V b) { return a != b; }
    static KOBALT_IL_FN V sel(M m, V a, V b) { return m ? a : b; }
    static KOBALT_IL_FN I isplat(int x) { return I{} + Int(x); }
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
