// triangular_direct.hpp -- triangular solves x = op(T)^{-1} x on one contiguous local vector
// x, runtime n <= fixed::DIRECT_MAX_N, the triangle read along its unit stride. Shared by
// getrs_direct.cpp (two solves per item, from getrf's factors) and trsv_direct.cpp (one
// solve per item). Included only by those files, which are compiled once per ISA (see
// fixed_common.hpp): everything here has internal linkage.
//
// Each triangle is read along its unit stride, which is known at compile time:
//   - op(triangle) with unit-stride columns (column-major NoTrans, row-major Trans):
//     column-oriented, four columns at a time: a 4x4 diagonal block solved in scalars,
//     then one rank-4 axpy update of the rest of x, which the compiler vectorises;
//   - op(triangle) with unit-stride rows (row-major NoTrans, column-major Trans):
//     row-oriented, four rows at a time: four dot products against the solved part of x
//     with SIMD accumulators, then the 4x4 diagonal block in scalars.
// The diagonal of a block is inverted before the block's solve (inv), off the dependency
// chain: 1.1-1.45x faster than dividing on it (dgetrs, one thread, in cache, n = 12..64).
// The order of the additions differs from LAPACK's, within the usual n eps bound.
//
// From memory, the four short runs a four-block reads are apparently not followed by the
// hardware prefetchers (no counters were read; the prefetches' effect is the evidence:
// docs/performance.md, "getrs above 32: the streamed direct solve" and "trsv at n = 9..256:
// the direct solve"), hence two prefetches: stream_ahead (getrs) and prefetch_triangle (trsv).
#ifndef KOBALT_OPENMP_TRIANGULAR_DIRECT_HPP
#define KOBALT_OPENMP_TRIANGULAR_DIRECT_HPP

#include "direct_vectors.hpp"
#include "fixed_common.hpp"

#include <cstdint>
#include <cstring>

namespace {

// The non-unit diagonal of a block is inverted before the block's solve: a division on the
// solve's dependency chain costs its full latency per row, the reciprocal is independent of
// x. As in KokkosBatched's inner trsm, which ran these sizes before, 1/d is used whatever d
// (a subnormal d gives an infinite reciprocal where LAPACK's division may stay finite).
template <bool Unit, class T> KF_INLINE T inv(T d) { return Unit ? T(1) : T(1) / d; }

// The dot products' vectors: at most 32 bytes, as the transposed copies' (kCopyBytes), also
// in the AVX-512 copy: their length is the solved part of x, under 64, so wider vectors
// would leave more of it to the scalar tail.
template <class T> using DotVec = Vec<T, kCopyBytes>;

template <class T, class V> KF_INLINE T lanes_total(V v) {
    T s = v[0];
    KF_UNROLL for (int l = 1; l < int(sizeof(V) / sizeof(T)); ++l) s += v[l];
    return s;
}

// s[r] = sum_{k < len} row_r[k] x[k] for R rows (R = 1 or 4): R independent SIMD
// accumulators, so the dot products overlap instead of waiting on one FMA chain.
template <int R, class T>
KF_INLINE void dots(const T *const *row, const T *__restrict__ x, int len, T *s) {
    using S = DotVec<T>;
    typename S::V acc[R];
    KF_UNROLL for (int r = 0; r < R; ++r) acc[r] = typename S::V{};
    int k = 0;
    for (; k + S::W <= len; k += S::W) {
        const typename S::V xv = S::load(x + k);
        KF_UNROLL for (int r = 0; r < R; ++r) acc[r] += S::load(row[r] + k) * xv;
    }
    KF_UNROLL for (int r = 0; r < R; ++r) {
        T t = lanes_total<T>(acc[r]);
        for (int kk = k; kk < len; ++kk) t += row[r][kk] * x[kk];
        s[r] = t;
    }
}

// Prefetches the stored vectors (columns, or rows for row-oriented storage) [v0, v1), each
// n elements at a + v*ld, whole, into L1: every cache line they touch, once. Issued one
// four-block ahead of getrs's first solve, it covers the whole item by the end of that
// solve, so that the second solve, on the other triangle, runs from cache.
template <class T>
KF_INLINE void stream_ahead(const T *a, int64_t ld, int n, int v0, int v1) {
    if (v1 > n) v1 = n;
    for (int v = v0; v < v1; ++v) {
        const uintptr_t lo = uintptr_t(a + v * ld), hi = uintptr_t(a + v * ld + n - 1);
        for (uintptr_t p = lo & ~uintptr_t(63); p <= hi; p += 64)
            __builtin_prefetch(reinterpret_cast<const void *>(p), 0, 3);
    }
}

// How far ahead stream_ahead runs, in vectors: one block of four. Eight, twelve, sixteen,
// and one block plus the next item's first block all measured slower from memory (dgetrs,
// one thread, n = 32..64; the next-item prefetch cost 1.5x at n = 32).
constexpr int kAhead = 4;

// Prefetches the triangle of one item whole, before its only solve (trsv), in ascending
// address order: every cache line holding part of the triangle, once. Lower == Cols: the
// stored vector v holds the triangle's elements v..n-1 (columns of a lower or rows of an
// upper triangle), else 0..v. Issued at once, the misses overlap instead of arriving one
// four-block at a time, and the rising addresses are a stream the L2 prefetcher follows
// into the next item; the backward (upper) solves, which start at the item's last vector,
// gain most (docs/performance.md, "trsv at n = 9..256: the direct solve", where a
// four-block-ahead prefetch of the triangle, backwards for the upper solves, lost).
// Locality: __builtin_prefetch's (3: into L1; 1, prefetcht1: into L2).
template <bool Lower, bool Cols, int Locality = 3, class T>
KF_INLINE void prefetch_triangle(const T *a, int64_t ld, int n) {
    for (int v = 0; v < n; ++v) {
        const int lo = Lower == Cols ? v : 0, hi = Lower == Cols ? n - 1 : v;
        const uintptr_t p0 = uintptr_t(a + v * ld + lo), p1 = uintptr_t(a + v * ld + hi);
        for (uintptr_t p = p0 & ~uintptr_t(63); p <= p1; p += 64)
            __builtin_prefetch(reinterpret_cast<const void *>(p), 0, Locality);
    }
}

// ---- op(T) with unit-stride columns: column j at a + j*ld ------------------------------

// x = L^{-1} x, L lower (Unit: unit diagonal, not read). Stream: prefetch the whole item
// ahead (getrs's first solve, stream_ahead).
template <bool Unit, bool Stream, class T>
KF_INLINE void lower_cols(int n, const T *__restrict__ a, int64_t ld, T *__restrict__ x) {
    int j = 0;
    if (Stream) stream_ahead(a, ld, n, 0, kAhead);
    for (; j + 4 <= n; j += 4) {
        if (Stream) stream_ahead(a, ld, n, j + kAhead, j + kAhead + 4);
        const T *c0 = a + j * ld, *c1 = c0 + ld, *c2 = c1 + ld, *c3 = c2 + ld;
        const T d0 = c0[j], d1 = c1[j + 1], d2 = c2[j + 2], d3 = c3[j + 3];
        const T r0 = inv<Unit>(d0), r1 = inv<Unit>(d1), r2 = inv<Unit>(d2), r3 = inv<Unit>(d3);
        T x0 = x[j];
        if (!Unit) x0 *= r0;
        T x1 = x[j + 1] - c0[j + 1] * x0;
        if (!Unit) x1 *= r1;
        T x2 = x[j + 2] - c0[j + 2] * x0 - c1[j + 2] * x1;
        if (!Unit) x2 *= r2;
        T x3 = x[j + 3] - c0[j + 3] * x0 - c1[j + 3] * x1 - c2[j + 3] * x2;
        if (!Unit) x3 *= r3;
        x[j] = x0;
        x[j + 1] = x1;
        x[j + 2] = x2;
        x[j + 3] = x3;
        for (int i = j + 4; i < n; ++i)
            x[i] = x[i] - c0[i] * x0 - c1[i] * x1 - c2[i] * x2 - c3[i] * x3;
    }
    for (; j < n; ++j) {
        const T *c = a + j * ld;
        if (!Unit) x[j] *= inv<Unit>(c[j]);
        const T xj = x[j];
        for (int i = j + 1; i < n; ++i) x[i] -= c[i] * xj;
    }
}

// x = U^{-1} x, U upper: the n % 4 last columns one by one, then blocks of four upwards.
template <bool Unit, class T>
KF_INLINE void upper_cols(int n, const T *__restrict__ a, int64_t ld, T *__restrict__ x) {
    int j = n - 1;
    for (; j >= 0 && (j + 1) % 4 != 0; --j) {
        const T *c = a + j * ld;
        if (!Unit) x[j] *= inv<Unit>(c[j]);
        const T xj = x[j];
        for (int i = 0; i < j; ++i) x[i] -= c[i] * xj;
    }
    for (; j >= 3; j -= 4) { // columns j-3..j
        const int j0 = j - 3;
        const T *c0 = a + j0 * ld, *c1 = c0 + ld, *c2 = c1 + ld, *c3 = c2 + ld;
        const T d0 = c0[j0], d1 = c1[j0 + 1], d2 = c2[j0 + 2], d3 = c3[j0 + 3];
        const T r0 = inv<Unit>(d0), r1 = inv<Unit>(d1), r2 = inv<Unit>(d2), r3 = inv<Unit>(d3);
        T x3 = x[j0 + 3];
        if (!Unit) x3 *= r3;
        T x2 = x[j0 + 2] - c3[j0 + 2] * x3;
        if (!Unit) x2 *= r2;
        T x1 = x[j0 + 1] - c3[j0 + 1] * x3 - c2[j0 + 1] * x2;
        if (!Unit) x1 *= r1;
        T x0 = x[j0] - c3[j0] * x3 - c2[j0] * x2 - c1[j0] * x1;
        if (!Unit) x0 *= r0;
        x[j0] = x0;
        x[j0 + 1] = x1;
        x[j0 + 2] = x2;
        x[j0 + 3] = x3;
        for (int i = 0; i < j0; ++i)
            x[i] = x[i] - c3[i] * x3 - c2[i] * x2 - c1[i] * x1 - c0[i] * x0;
    }
}

// ---- op(T) with unit-stride rows: row i at a + i*ld ------------------------------------

template <bool Unit, bool Stream, class T>
KF_INLINE void lower_rows(int n, const T *__restrict__ a, int64_t ld, T *__restrict__ x) {
    int i = 0;
    if (Stream) stream_ahead(a, ld, n, 0, kAhead);
    for (; i + 4 <= n; i += 4) {
        if (Stream) stream_ahead(a, ld, n, i + kAhead, i + kAhead + 4);
        const T *r[4] = {a + i * ld, a + (i + 1) * ld, a + (i + 2) * ld, a + (i + 3) * ld};
        T s[4];
        const T d0 = r[0][i], d1 = r[1][i + 1], d2 = r[2][i + 2], d3 = r[3][i + 3];
        const T v0 = inv<Unit>(d0), v1 = inv<Unit>(d1), v2 = inv<Unit>(d2), v3 = inv<Unit>(d3);
        dots<4>(r, x, i, s); // the solved part x[0..i)
        T x0 = x[i] - s[0];
        if (!Unit) x0 *= v0;
        T x1 = x[i + 1] - s[1] - r[1][i] * x0;
        if (!Unit) x1 *= v1;
        T x2 = x[i + 2] - s[2] - r[2][i] * x0 - r[2][i + 1] * x1;
        if (!Unit) x2 *= v2;
        T x3 = x[i + 3] - s[3] - r[3][i] * x0 - r[3][i + 1] * x1 - r[3][i + 2] * x2;
        if (!Unit) x3 *= v3;
        x[i] = x0;
        x[i + 1] = x1;
        x[i + 2] = x2;
        x[i + 3] = x3;
    }
    for (; i < n; ++i) {
        const T *r[1] = {a + i * ld};
        T s[1];
        dots<1>(r, x, i, s);
        x[i] -= s[0];
        if (!Unit) x[i] *= inv<Unit>(r[0][i]);
    }
}

template <bool Unit, class T>
KF_INLINE void upper_rows(int n, const T *__restrict__ a, int64_t ld, T *__restrict__ x) {
    int i = n - 1;
    for (; i >= 0 && (i + 1) % 4 != 0; --i) {
        const T *r[1] = {a + i * ld + (i + 1)};
        T s[1];
        dots<1>(r, x + i + 1, n - i - 1, s);
        x[i] -= s[0];
        if (!Unit) x[i] *= inv<Unit>(a[i * ld + i]);
    }
    for (; i >= 3; i -= 4) { // rows i0..i0+3; the solved part is x[i0+4..n)
        const int i0 = i - 3, k0 = i0 + 4;
        const T *q[4] = {a + i0 * ld, a + (i0 + 1) * ld, a + (i0 + 2) * ld, a + (i0 + 3) * ld};
        const T *r[4] = {q[0] + k0, q[1] + k0, q[2] + k0, q[3] + k0};
        T s[4];
        const T d0 = q[0][i0], d1 = q[1][i0 + 1], d2 = q[2][i0 + 2], d3 = q[3][i0 + 3];
        const T v0 = inv<Unit>(d0), v1 = inv<Unit>(d1), v2 = inv<Unit>(d2), v3 = inv<Unit>(d3);
        dots<4>(r, x + k0, n - k0, s);
        T x3 = x[i0 + 3] - s[3];
        if (!Unit) x3 *= v3;
        T x2 = x[i0 + 2] - s[2] - q[2][i0 + 3] * x3;
        if (!Unit) x2 *= v2;
        T x1 = x[i0 + 1] - s[1] - q[1][i0 + 3] * x3 - q[1][i0 + 2] * x2;
        if (!Unit) x1 *= v1;
        T x0 = x[i0] - s[0] - q[0][i0 + 3] * x3 - q[0][i0 + 2] * x2 - q[0][i0 + 1] * x1;
        if (!Unit) x0 *= v0;
        x[i0] = x0;
        x[i0 + 1] = x1;
        x[i0 + 2] = x2;
        x[i0 + 3] = x3;
    }
}

} // namespace

#endif
