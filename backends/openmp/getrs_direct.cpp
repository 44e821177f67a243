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
// interchanges happen on it, and B may be row-major with stride ldb), and the two
// triangular solves of triangular_direct.hpp run on it, each triangle read along its unit
// stride.
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
#include "triangular_direct.hpp"

#include <cstdint>
#include <type_traits>

namespace {

// One item: op(A) = P L U (NoTrans) or U^T L^T P^T (Trans), LAPACK dgetrs semantics.
// Cols: op(triangle) has unit-stride columns (see triangular_direct.hpp); ld is the other
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

// Nn: int (runtime n) or std::integral_constant<int, N> (n known at compile time: the
// solves' short loops and four-blocks unroll for exactly n).
template <bool Trans, bool Cols, bool Stream, class T, class Nn>
void getrs_direct_n(Nn nn, Items<const T> A, int64_t lda, const int *ipiv, int64_t sipiv,
                    Items<T> B, int64_t sb, int64_t batch) {
    loop(batch, [=](int64_t it) {
        const int n = nn;
        T x[kobalt_openmp::fixed::DIRECT_MAX_N];
        solve_item<Trans, Cols, Stream>(n, item(A, it), lda, ipiv ? ipiv + it * sipiv : nullptr,
                                        item(B, it), sb, x);
    });
}

// Calls f(n) with n as a compile-time constant for n = First ... kCompiledMax (the smallest
// sizes of the direct solve, where its loops are a few iterations long), else as int.
// Measured on an Intel AVX-512 VM (session 33, docs/performance.md "getrs at n = 9 ... 16:
// n known at compile time"): column-oriented solves 1.2-1.4x faster in double, level in
// float; row-oriented ones 1.14-1.32x in double from n = 12, but 0.92-0.96x below 12 (the
// dot products' unrolled leftovers), so rows start at kRowsCompiledMin.
constexpr int kCompiledMax = 16;
constexpr int kRowsCompiledMin = 12;
template <int First, class F> KF_INLINE void with_n(int n, const F &f) {
    if constexpr (First > kCompiledMax)
        f(n);
    else if (n == First)
        f(std::integral_constant<int, First>{});
    else
        with_n<First + 1>(n, f);
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
        const auto run = [&](auto nn) {
            getrs_direct_n<decltype(t)::value, decltype(c)::value, decltype(s)::value, T>(
                nn, A, a.ld, ipiv, sipiv, B, sb, batch);
        };
        with_n<decltype(c)::value ? kobalt_openmp::fixed::FIXED_MAX_N + 1 : kRowsCompiledMin>(n, run);
    });
}

template void getrs_direct<double>(bool, bool, int, Items<const double>, Mat, const int *,
                                   int64_t, Items<double>, int64_t, int64_t);
template void getrs_direct<float>(bool, bool, int, Items<const float>, Mat, const int *,
                                  int64_t, Items<float>, int64_t, int64_t);

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
