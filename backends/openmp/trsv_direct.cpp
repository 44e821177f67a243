// trsv_direct.cpp -- trsv above the compile-time-n kernels (n = FIXED_MAX_N + 1 up to
// TRSV_DIRECT_MAX, positive increments): one item at a time, runtime n, x copied into a
// contiguous local vector (or, with incx = 1 up to TRSV_INPLACE_MAX, solved where it is) and
// solved by the one kernel that matches op(A)'s triangle and unit stride: triangular_direct.hpp's,
// or for the forward (lower) solves the sweeps below (TRSV_COL_SWEEP_MIN, TRSV_ROW_SWEEP_MAX).
// Compiled once per ISA, as fixed_kernels.cpp (see fixed_common.hpp).
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
// (docs/performance.md, "trsv at n = 9..256: the direct solve"). The forward row solve
// also prefetches the next item's triangle into L2 from TRSV_PREFETCH_NEXT_MIN; the rank-1
// column sweep prefetches nothing (docs/performance.md, "trsv NoTrans: the sweeps, in place
// and the next-item prefetch (branch hosttrsv, session 16)").
#include "triangular_direct.hpp"

#include <cstdint>
#include <type_traits>

namespace {

// x = L^{-1} x, L lower with unit-stride columns, one column at a time (rank-1 updates): the
// triangle is read once, in rising address order, which the hardware prefetchers follow
// without help (no software prefetch with it). From memory at n >= 48 (TRSV_COL_SWEEP_MIN)
// faster than lower_cols's rank-4 blocks with the triangle prefetched, as OpenBLAS's and
// KokkosBatched Unblocked's column sweeps were; slower below.
template <bool Unit, class T>
KF_INLINE void lower_cols_sweep(int n, const T *__restrict__ a, int64_t ld, T *__restrict__ x) {
    for (int j = 0; j < n; ++j) {
        const T *c = a + j * ld;
        T xj = x[j];
        if (!Unit) xj *= inv<Unit>(c[j]);
        x[j] = xj;
        for (int i = j + 1; i < n; ++i) x[i] -= c[i] * xj;
    }
}

// x = L^{-1} x, L lower with unit-stride rows (element (i, j) at i*ld + j), as a column sweep
// across the rows, four columns at a time: the 4x4 diagonal block in scalars, then each
// later row i updated by its four elements j..j+3 (adjacent in memory). At small n
// (TRSV_ROW_SWEEP_MAX) faster than lower_rows's dot products, whose SIMD loops hardly start
// there; KokkosBatched's Blocked trsv, which won there, sweeps the same way.
template <bool Unit, class T>
KF_INLINE void lower_rows_sweep(int n, const T *__restrict__ a, int64_t ld, T *__restrict__ x) {
    int j = 0;
    for (; j + 4 <= n; j += 4) {
        const T *q0 = a + j * ld + j, *q1 = q0 + ld, *q2 = q1 + ld, *q3 = q2 + ld; // rows j..j+3 from column j
        const T r0 = inv<Unit>(q0[0]), r1 = inv<Unit>(q1[1]), r2 = inv<Unit>(q2[2]),
                r3 = inv<Unit>(q3[3]);
        T x0 = x[j];
        if (!Unit) x0 *= r0;
        T x1 = x[j + 1] - q1[0] * x0;
        if (!Unit) x1 *= r1;
        T x2 = x[j + 2] - q2[0] * x0 - q2[1] * x1;
        if (!Unit) x2 *= r2;
        T x3 = x[j + 3] - q3[0] * x0 - q3[1] * x1 - q3[2] * x2;
        if (!Unit) x3 *= r3;
        x[j] = x0;
        x[j + 1] = x1;
        x[j + 2] = x2;
        x[j + 3] = x3;
        for (int i = j + 4; i < n; ++i) {
            const T *ri = a + i * ld + j;
            x[i] = x[i] - ri[0] * x0 - ri[1] * x1 - ri[2] * x2 - ri[3] * x3;
        }
    }
    for (; j < n; ++j) {
        if (!Unit) x[j] /= a[j * ld + j];
        const T xj = x[j];
        for (int i = j + 1; i < n; ++i) x[i] -= a[i * ld + j] * xj;
    }
}

// The one kernel of op(A)'s triangle and unit stride (Sweep: the sweep kernel of a forward
// solve, above).
template <bool Lower, bool Unit, bool Cols, bool Sweep, class T>
KF_INLINE void solve(int n, const T *__restrict__ a, int64_t ld, T *__restrict__ x) {
    if (Lower && Cols) {
        if (Sweep) lower_cols_sweep<Unit>(n, a, ld, x);
        else lower_cols<Unit, false>(n, a, ld, x);
    } else if (Lower) {
        if (Sweep) lower_rows_sweep<Unit>(n, a, ld, x);
        else lower_rows<Unit, false>(n, a, ld, x);
    } else if (Cols) upper_cols<Unit>(n, a, ld, x);
    else upper_rows<Unit>(n, a, ld, x);
}

// Lower: op(A) is lower triangular. Cols: op(A) has unit-stride columns (element (i, j) of
// op(A) at i + j*ld), else unit-stride rows (at i*ld + j). Sweep: the forward solve's sweep
// kernel (the column sweep takes no prefetch). Pre: prefetch the triangle first, Next: and
// the next item's into L2. InPlace: solve in x itself (incx == 1), else in a local copy.
template <bool Lower, bool Unit, bool Cols, bool Sweep, bool Pre, bool Next, bool InPlace, class T>
void trsv_direct_n(int n, Items<const T> A, int64_t ld, Items<T> X, int64_t incx,
                   int64_t batch) {
    loop(batch, [=](int64_t it) {
        const T *__restrict__ a = item(A, it);
        T *__restrict__ xp = item(X, it);
        if (Next && it + 1 < batch) prefetch_triangle<Lower, Cols, 1>(item(A, it + 1), ld, n);
        if (Pre) prefetch_triangle<Lower, Cols>(a, ld, n);
        if (InPlace) {
            solve<Lower, Unit, Cols, Sweep>(n, a, ld, xp);
            return;
        }
        T x[kobalt_openmp::fixed::DIRECT_MAX_N];
        for (int i = 0; i < n; ++i) x[i] = xp[i * incx];
        solve<Lower, Unit, Cols, Sweep>(n, a, ld, x);
        for (int i = 0; i < n; ++i) xp[i * incx] = x[i];
    });
}

// The storage-independent choices, as template arguments (with_flags has done the three
// storage/triangle flags): the sweeps and the next-item prefetch exist for the forward solves
// only, and the column sweep prefetches nothing.
template <bool L, bool U, bool C, class T>
void trsv_direct_opts(kobalt_openmp::fixed::TrsvDirectOpts o, int n, Items<const T> A,
                      int64_t ld, Items<T> x, int64_t incx, int64_t batch) {
    const bool in_place = o.in_place && incx == 1;
    const auto go = [&](auto sweep, auto pre, auto next) {
        constexpr bool S = decltype(sweep)::value, P = decltype(pre)::value,
                       N = decltype(next)::value;
        if (in_place) trsv_direct_n<L, U, C, S, P, N, true>(n, A, ld, x, incx, batch);
        else trsv_direct_n<L, U, C, S, P, N, false>(n, A, ld, x, incx, batch);
    };
    using Yes = std::true_type;
    using No = std::false_type;
    if (L && C && o.col_sweep) go(Yes{}, No{}, No{});
    else if (L && !C && o.row_sweep) {
        if (o.prefetch) go(Yes{}, Yes{}, No{});
        else go(Yes{}, No{}, No{});
    } else if (L && !C && o.prefetch && o.prefetch_next) go(No{}, Yes{}, Yes{});
    else if (o.prefetch) go(No{}, Yes{}, No{});
    else go(No{}, No{}, No{});
}

} // namespace

namespace kobalt_openmp {
namespace fixed {
namespace KOBALT_FIXED_ISA {

// a: op(A)'s storage (op_strides of the slot), so a.unit_rows means unit-stride columns.
template <class T>
void trsv_direct(bool lower, bool unit, TrsvDirectOpts o, int n, Items<const T> A, Mat a,
                 Items<T> x, int64_t incx, int64_t batch) {
    with_flags(lower, unit, a.unit_rows, [&](auto l, auto u, auto c) {
        constexpr bool L = decltype(l)::value, U = decltype(u)::value, C = decltype(c)::value;
        trsv_direct_opts<L, U, C>(o, n, A, a.ld, x, incx, batch);
    });
}

template void trsv_direct<double>(bool, bool, TrsvDirectOpts, int, Items<const double>, Mat,
                                  Items<double>, int64_t, int64_t);
template void trsv_direct<float>(bool, bool, TrsvDirectOpts, int, Items<const float>, Mat,
                                 Items<float>, int64_t, int64_t);

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
