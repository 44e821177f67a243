// lane_shuffles.hpp -- lane selections with constant indices on GCC vector-extension vectors
// (GCC 12 and clang both have __builtin_shufflevector), and the W x W register transpose
// built from them. Used by the per-ISA kernel files: pack_ops.hpp (the interleaved and
// packed kernels, getrf_tiny.cpp) and trsm_direct.cpp (its transposed copy of B).
// Internal linkage only (unnamed namespace): each ISA's object keeps its own copy, so no
// function compiled for one instruction set is ever linked into a caller of another.
#ifndef KOBALT_OPENMP_LANE_SHUFFLES_HPP
#define KOBALT_OPENMP_LANE_SHUFFLES_HPP

#include <utility>

#define KOBALT_LANE_FN __attribute__((always_inline)) inline

namespace {

// The lane indices 0 .. W-1, passed to select the lane count of the helpers below.
template <int W> using Lanes = std::make_integer_sequence<int, W>;
// Even (odd) lanes of the concatenation a:b.
template <class V, int... K> KOBALT_LANE_FN V even(V a, V b, std::integer_sequence<int, K...>) {
    return __builtin_shufflevector(a, b, (2 * K)...);
}
template <class V, int... K> KOBALT_LANE_FN V odd(V a, V b, std::integer_sequence<int, K...>) {
    return __builtin_shufflevector(a, b, (2 * K + 1)...);
}
// a0 b0 a1 b1 ... from the first (lo) or second (hi) halves of a and b.
template <class V, int... K> KOBALT_LANE_FN V lo(V a, V b, std::integer_sequence<int, K...>) {
    constexpr int W = sizeof...(K);
    return __builtin_shufflevector(a, b, (K % 2 ? W + K / 2 : K / 2)...);
}
template <class V, int... K> KOBALT_LANE_FN V hi(V a, V b, std::integer_sequence<int, K...>) {
    constexpr int W = sizeof...(K);
    return __builtin_shufflevector(a, b, (K % 2 ? W + W / 2 + K / 2 : W / 2 + K / 2)...);
}

// W x W transpose in registers, in place: on entry v[r] is row r, on return v[c] is column c
// (row r's element c in lane r). log2(W) rounds of lo/hi zips of v[i] with v[i + W/2]: one
// two-source lane permute per vector and round, instead of W*W scalar moves.
template <int W, class V> KOBALT_LANE_FN void transpose(V *v) {
    _Pragma("GCC unroll 16") for (int round = 1; round < W; round *= 2) {
        V t[W];
        _Pragma("GCC unroll 16") for (int i = 0; i < W / 2; ++i) {
            t[2 * i] = lo(v[i], v[i + W / 2], Lanes<W>{});
            t[2 * i + 1] = hi(v[i], v[i + W / 2], Lanes<W>{});
        }
        _Pragma("GCC unroll 16") for (int i = 0; i < W; ++i) v[i] = t[i];
    }
}

} // namespace

#endif
