// trsv_direct.cpp -- trsv above the compile-time-n kernels (n = FIXED_MAX_N + 1 up to
// TRSV_DIRECT_MAX, positive increments): one item at a time, runtime n, x copied into a
// contiguous local vector and solved there by the one kernel of triangular_direct.hpp that
// matches op(A)'s triangle and unit stride, then copied back. Compiled once per ISA, as
// fixed_kernels.cpp (see fixed_common.hpp).
//
// These sizes ran KokkosBatched's Blocked SerialTrsv (n <= TRSV_SMALL_MAX) on strided views
// or OpenBLAS's trsv per item: 0.63-0.87 of KokkosBatched's Unblocked trsv at n = 32..256
// (docs/performance.md, "trsv above 32 against KokkosBatched's Unblocked algorithm"). The
// same kernels run getrs with one right-hand side (getrs_direct.cpp), where they beat both.
//
// Prefetch (n <= TRSV_PREFETCH_MAX): the item's triangle is prefetched whole before the
// solve (prefetch_triangle). getrs's four-block-ahead stream_ahead, and the same restricted
// to the triangle (backwards for the upper solves), lost to it and to no prefetch at all
// from memory; above TRSV_PREFETCH_MAX the hardware prefetchers alone did best
// (docs/performance.md, "trsv at n = 9..256: the direct solve").
#include "triangular_direct.hpp"

#include <cstdint>
#include <type_traits>

namespace {

// Lower: op(A) is lower triangular. Cols: op(A) has unit-stride columns (element (i, j) of
// op(A) at i + j*ld), else unit-stride rows (at i*ld + j). Pre: prefetch the triangle first.
template <bool Lower, bool Unit, bool Cols, bool Pre, class T>
void trsv_direct_n(int n, Items<const T> A, int64_t ld, Items<T> X, int64_t incx,
                   int64_t batch) {
    loop(batch, [=](int64_t it) {
        T x[kobalt_openmp::fixed::DIRECT_MAX_N];
        const T *__restrict__ a = item(A, it);
        T *__restrict__ xp = item(X, it);
        if (Pre) prefetch_triangle<Lower, Cols>(a, ld, n);
        for (int i = 0; i < n; ++i) x[i] = xp[i * incx];
        if (Lower && Cols) lower_cols<Unit, false>(n, a, ld, x);
        else if (Lower) lower_rows<Unit, false>(n, a, ld, x);
        else if (Cols) upper_cols<Unit>(n, a, ld, x);
        else upper_rows<Unit>(n, a, ld, x);
        for (int i = 0; i < n; ++i) xp[i * incx] = x[i];
    });
}

} // namespace

namespace kobalt_openmp {
namespace fixed {
namespace KOBALT_FIXED_ISA {

// a: op(A)'s storage (op_strides of the slot), so a.unit_rows means unit-stride columns.
template <class T>
void trsv_direct(bool lower, bool unit, bool prefetch, int n, Items<const T> A, Mat a,
                 Items<T> x, int64_t incx, int64_t batch) {
    with_flags(lower, unit, a.unit_rows, [&](auto l, auto u, auto c) {
        constexpr bool L = decltype(l)::value, U = decltype(u)::value, C = decltype(c)::value;
        if (prefetch) trsv_direct_n<L, U, C, true>(n, A, a.ld, x, incx, batch);
        else trsv_direct_n<L, U, C, false>(n, A, a.ld, x, incx, batch);
    });
}

template void trsv_direct<double>(bool, bool, bool, int, Items<const double>, Mat,
                                  Items<double>, int64_t, int64_t);
template void trsv_direct<float>(bool, bool, bool, int, Items<const float>, Mat, Items<float>,
                                 int64_t, int64_t);

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
