// getrs_direct.cpp -- getrs with one right-hand side at mid n (from FIXED_MAX_N + 1 up to
// GETRS_DIRECT_MAX): one item at a time, runtime n, the solves written directly on the
// caller's factors. Compiled once per ISA, as fixed_kernels.cpp (see fixed_common.hpp).
//
// The small path ran these sizes as two KokkosBatched trsm calls on a one-column strided
// view, after a laswp through view accessors: runtime strides for every element, so
// nothing vectorised, and a view built per item. KokkosBatched's own SerialGetrs (swaps,
// then two SerialTrsv) beat it 1.2-2.8x at n = 10..32 (docs/performance.md, issue 3).
//
// Here the right-hand side is copied into a contiguous local vector (n elements: the
// interchanges happen on it, and B may be row-major with stride ldb), and each triangle
// is read along its unit stride, which is known at compile time:
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
// From memory the factors are streamed once, by the first solve (stream_ahead): each
// step of four columns/rows prefetches the next four whole columns/rows (both triangles),
// so the first solve reads the item in one ascending stream and the second solve, which
// walks the other triangle backwards, finds it in L1/L2. Without it, each four-block read
// four short runs (n - j elements), apparently not followed by the hardware prefetchers
// (no counters were read; the prefetch's effect is the evidence), and the second solve's
// triangle came from memory again, backwards: at n = 40..56 in double, column-major, the
// solve lost to OpenBLAS's column-by-column trsv (one monotonic stream) by 0.71-0.94x;
// with it, it is 1.06-1.45x faster than the vendor path there (docs/performance.md,
// "getrs above 32: the streamed direct solve").
#include "fixed_common.hpp"

#include <cstdint>
#include <cstring>

namespace {

// The non-unit diagonal of a block is inverted before the block's solve: a division on the
// solve's dependency chain costs its full latency per row, the reciprocal is independent of
// x. As in KokkosBatched's inner trsm, which ran these sizes before, 1/d is used whatever d
// (a subnormal d gives an infinite reciprocal where LAPACK's division may stay finite).
template <bool Unit, class T> KF_INLINE T inv(T d) { return Unit ? T(1) : T(1) / d; }

#if defined(__AVX2__)
constexpr int kVecBytes = 32;
#else
constexpr int kVecBytes = 16;
#endif

template <class T> struct Simd {
    typedef T V __attribute__((vector_size(kVecBytes)));
    static constexpr int W = kVecBytes / int(sizeof(T));
    static KF_INLINE V load(const T *p) {
        V v;
        std::memcpy(&v, p, sizeof v); // unaligned load
        return v;
    }
    static KF_INLINE T sum(V v) {
        T s = v[0];
        KF_UNROLL for (int l = 1; l < W; ++l) s += v[l];
        return s;
    }
};

// s[r] = sum_{k < len} row_r[k] x[k] for R rows (R = 1 or 4): R independent SIMD
// accumulators, so the dot products overlap instead of waiting on one FMA chain.
template <int R, class T>
KF_INLINE void dots(const T *const *row, const T *__restrict__ x, int len, T *s) {
    using S = Simd<T>;
    typename S::V acc[R];
    KF_UNROLL for (int r = 0; r < R; ++r) acc[r] = typename S::V{};
    int k = 0;
    for (; k + S::W <= len; k += S::W) {
        const typename S::V xv = S::load(x + k);
        KF_UNROLL for (int r = 0; r < R; ++r) acc[r] += S::load(row[r] + k) * xv;
    }
    KF_UNROLL for (int r = 0; r < R; ++r) {
        T t = S::sum(acc[r]);
        for (int kk = k; kk < len; ++kk) t += row[r][kk] * x[kk];
        s[r] = t;
    }
}

// Prefetches the stored vectors (columns, or rows for row-oriented storage) [v0, v1), each
// n elements at a + v*ld, whole, into L1: every cache line they touch, once. Issued one
// four-block ahead of the first solve, it covers the whole item by the end of that solve.
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

// ---- op(T) with unit-stride columns: column j at a + j*ld ------------------------------

// x = L^{-1} x, L lower (Unit: unit diagonal, not read). The first solve of each item:
// it streams the whole item in (stream_ahead).
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
        if (!Unit) x[j] /= c[j];
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
        if (!Unit) x[j] /= c[j];
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
        if (!Unit) x[i] /= r[0][i];
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
        if (!Unit) x[i] /= a[i * ld + i];
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

// One item: op(A) = P L U (NoTrans) or U^T L^T P^T (Trans), LAPACK dgetrs semantics.
// Cols: op(triangle) has unit-stride columns (see the header comment); ld is the other
// stride of the stored A. Stream: the first solve prefetches the whole item ahead.
template <bool Trans, bool Cols, bool Stream, class T>
KF_INLINE void solve_item(int n, const T *__restrict__ a, int64_t ld, const int *ipiv,
                          T *__restrict__ b, int64_t sb, T *__restrict__ x) {
    for (int i = 0; i < n; ++i) x[i] = b[i * sb];
    if (!Trans && ipiv)
        for (int k = 0; k < n; ++k) {
            const int p = ipiv[k] - 1;
            const T t = x[k];
            x[k] = x[p];
            x[p] = t;
        }
    if (Cols) {
        lower_cols<!Trans, Stream>(n, a, ld, x); // L (unit) or U^T
        upper_cols<Trans>(n, a, ld, x);          // U or L^T (unit)
    } else {
        lower_rows<!Trans, Stream>(n, a, ld, x);
        upper_rows<Trans>(n, a, ld, x);
    }
    if (Trans && ipiv)
        for (int k = n - 1; k >= 0; --k) {
            const int p = ipiv[k] - 1;
            const T t = x[k];
            x[k] = x[p];
            x[p] = t;
        }
    for (int i = 0; i < n; ++i) b[i * sb] = x[i];
}

template <bool Trans, bool Cols, bool Stream, class T>
void getrs_direct_n(int n, Items<const T> A, int64_t lda, const int *ipiv, int64_t sipiv,
                    Items<T> B, int64_t sb, int64_t batch) {
    loop(batch, [=](int64_t it) {
        T x[kobalt_openmp::fixed::DIRECT_MAX_N];
        solve_item<Trans, Cols, Stream>(n, item(A, it), lda, ipiv ? ipiv + it * sipiv : nullptr,
                                        item(B, it), sb, x);
    });
}

} // namespace

namespace kobalt_openmp {
namespace fixed {
namespace KOBALT_FIXED_ISA {

template <class T>
void getrs_direct(bool trans, bool stream, int n, Items<const T> A, Mat a, const int *ipiv,
                  int64_t sipiv, Items<T> B, int64_t sb, int64_t batch) {
    // op(triangle) has unit-stride columns when A is stored by columns and not
    // transposed, or stored by rows and transposed.
    const bool cols = a.unit_rows != trans;
    with_flags(trans, cols, stream, [&](auto t, auto c, auto s) {
        getrs_direct_n<decltype(t)::value, decltype(c)::value, decltype(s)::value>(
            n, A, a.ld, ipiv, sipiv, B, sb, batch);
    });
}

template void getrs_direct<double>(bool, bool, int, Items<const double>, Mat, const int *,
                                   int64_t, Items<double>, int64_t, int64_t);
template void getrs_direct<float>(bool, bool, int, Items<const float>, Mat, const int *,
                                  int64_t, Items<float>, int64_t, int64_t);

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
