// direct_vectors.hpp -- vector types and the transposed copy shared by the runtime-n direct
// kernels compiled once per ISA (trsm_direct.cpp, getrf_direct.cpp): GCC vector-extension
// vectors of the widest size the file's ISA has, and W x W register-transposed copies
// between a column-major and a row-major array. Internal linkage only (unnamed namespace),
// as lane_shuffles.hpp: each ISA's object keeps its own copy.
#ifndef KOBALT_OPENMP_DIRECT_VECTORS_HPP
#define KOBALT_OPENMP_DIRECT_VECTORS_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "fixed_common.hpp"
#include "lane_shuffles.hpp"

namespace {

#if defined(__AVX512F__)
constexpr int kVecBytes = 64;
#elif defined(__AVX2__)
constexpr int kVecBytes = 32;
#else
constexpr int kVecBytes = 16;
#endif
// The transposed copies use at most 32-byte vectors: with
// 64-byte ones, W x W blocks would leave whole edges (n = 24: 8 of 24) to element loops.
constexpr int kCopyBytes = kVecBytes < 32 ? kVecBytes : 32;

// A vector of Bytes bytes of T (GCC vector extension), or a plain T for Bytes == sizeof(T).
template <class T, int Bytes> struct Vec {
    typedef T V __attribute__((vector_size(Bytes)));
    static constexpr int W = Bytes / int(sizeof(T));
    // Lane indices and lane masks: integers of T's width, so that comparisons of V give VI.
    using I = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;
    typedef I VI __attribute__((vector_size(Bytes)));
    // x in every lane by one broadcast: a lane-by-lane fill (v[l] = x) compiles to W inserts
    // (it cost getrf_direct.cpp up to 2x in float), and V{} + x turns -0.0 into +0.0.
    static KF_INLINE V splat(T x) { return splat(x, std::make_integer_sequence<int, W>{}); }
    template <int... K> static KF_INLINE V splat(T x, std::integer_sequence<int, K...>) {
        return V{((void)K, x)...};
    }
    // 0, 1, ..., W - 1.
    static KF_INLINE VI iota() { return iota(std::make_integer_sequence<int, W>{}); }
    template <int... K> static KF_INLINE VI iota(std::integer_sequence<int, K...>) { return VI{I(K)...}; }
    static KF_INLINE V load(const T *p) {
        V v;
        std::memcpy(&v, p, sizeof v); // unaligned
        return v;
    }
    static KF_INLINE void store(T *p, V v) { std::memcpy(p, &v, sizeof v); }
};
template <class T> struct Scalar {
    typedef T V;
    static constexpr int W = 1;
    static KF_INLINE V load(const T *p) { return *p; }
    static KF_INLINE void store(T *p, V v) { *p = v; }
};

// d[i * ld + j] = s[i + j * ls] for i < m, j < k: k vectors of m contiguous elements (stride
// ls) become m vectors of k contiguous elements (stride ld). Whole W x W blocks go through
// a register transpose (W vector loads, log2(W) rounds of lane zips, W vector stores), the
// edges element by element. trsm_direct.cpp copies column-major B in and out this way (with an
// element loop those two copies took more time than the solve itself: float n = 24 ... 32
// on AMD Zen 5, the in-place row-major solve 2.3-2.4x faster than the column-major one), and
// getrf_direct.cpp row-major items.
template <class T> KF_INLINE void transpose_copy(const T *__restrict__ s, int64_t ls,
                                                 T *__restrict__ d, int64_t ld, int m, int k) {
    using S = Vec<T, kCopyBytes>;
    using V = typename S::V;
    constexpr int W = S::W;
    const int mw = m / W * W, kw = k / W * W;
    for (int j = 0; j < kw; j += W) {
        for (int i = 0; i < mw; i += W) {
            V v[W];
            KF_UNROLL for (int r = 0; r < W; ++r) v[r] = S::load(s + i + (j + r) * ls);
            transpose<W>(v);
            KF_UNROLL for (int r = 0; r < W; ++r) S::store(d + (i + r) * ld + j, v[r]);
        }
        for (int i = mw; i < m; ++i)
            KF_UNROLL for (int r = 0; r < W; ++r) d[i * ld + j + r] = s[i + (j + r) * ls];
    }
    for (int j = kw; j < k; ++j)
        for (int i = 0; i < m; ++i) d[i * ld + j] = s[i + j * ls];
}

} // namespace

#endif
