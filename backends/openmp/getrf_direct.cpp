// getrf_direct.cpp -- getrf with partial pivoting of square items above the compile-time-n
// kernels (n = FIXED_MAX_N + 1 up to GETRF_DIRECT_MAX), one item at a time, runtime n.
// Compiled once per ISA, as trsm_direct.cpp (fixed_common.hpp), AVX-512 copy included.
//
// These sizes ran lu_pivoted.hpp, the scalar dgetf2 loop, compiled for the backend's
// baseline ISA (SSE2) on the item in place (3.7-14 GF/s on AMD Zen 5), or OpenBLAS above
// GETRF_SMALL_MAX. Here the item is copied into a local row-major array whose rows are padded
// to whole vectors (column-major items transposed on the way, by the W x W register
// transposes of direct_vectors.hpp), factored there by rows, and copied back. Each step j:
//  - the pivot search walks column j in scalars (a select, no branch per element);
//  - rows j and p are swapped whole, vector by vector (L's part too);
//  - each row below computes its multiplier l and subtracts l times row j from its part
//    right of column j, vectorised along the row.
// A first version worked by columns on a column-major copy (pivot search across vector
// lanes, scaling and rank-1 updates down the columns, rows swapped inside each column's
// vectors); by rows ran 1.3-1.5x faster (docs/performance.md, "getrf at n = 24 ... 64: the
// direct LU"). Padding columns are zeroed on the way in, computed on like the others and never
// copied out. Semantics are lu_pivoted.hpp's (LAPACK dgetf2): the pivot is the first row of
// maximal |a| (idamax: a later equal value and a NaN never win, a NaN on the diagonal keeps
// it), ipiv 1-based, l = a / pivot by one reciprocal when |pivot| is at least the smallest
// normal number and by division otherwise, info the first exactly zero pivot, whose rows are
// neither swapped nor scaled, and the factorisation carries on.
#include "direct_vectors.hpp"
#include "fixed_common.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

// LU with partial pivoting of the n x n row-major array a (row i at a + i*ld, ld a multiple
// of W, columns n .. ld-1 padding); returns LAPACK's info.
template <class T> KF_INLINE int lu_rows(int n, T *__restrict__ a, int ld, int *__restrict__ ipiv) {
    using S = Vec<T, kVecBytes>;
    using V = typename S::V;
    using VI = typename S::VI;
    using I = typename S::I;
    constexpr int W = S::W;
    const T sfmin = std::numeric_limits<T>::min();
    const VI iota = S::iota();
    int info = 0;
    for (int j = 0; j < n; ++j) {
        // idamax on column j: the first row of maximal |a|; a NaN in row j keeps p = j (nothing
        // compares greater), a later NaN never wins.
        int p = j;
        T amax = a[j * ld + j];
        amax = std::fabs(amax);
        if (amax == amax)
            for (int i = j + 1; i < n; ++i) {
                T v = a[i * ld + j];
                v = std::fabs(v);
                const bool w = v > amax;
                amax = w ? v : amax;
                p = w ? i : p;
            }
        ipiv[j] = p + 1;
        T *__restrict__ rj = a + j * ld;
        const T pivot = a[p * ld + j];
        // p != j only when the pivot is nonzero (a zero maximum is first found in row j).
        if (pivot == T(0)) {
            if (info == 0) info = j + 1;
        } else if (p != j) {
            T *__restrict__ rp = a + p * ld;
            for (int b = 0; b < n; b += W) {
                const V x = S::load(rj + b), y = S::load(rp + b);
                S::store(rj + b, y);
                S::store(rp + b, x);
            }
        }
        if (j + 1 == n) break;
        // Each row below: l = a(i, j) / pivot (unscaled after a zero pivot, as dgetf2), then
        // a(i, j+1 ..) -= l a(j, j+1 ..). The vector b0 holding column j + 1 may also hold
        // columns <= j: L's, kept, and column j, which takes l by a lane select (a scalar store
        // just before the vector load of the same bytes would stall store-to-load forwarding);
        // when column j is the last lane of the vector before, l is stored alone there.
        const int b0 = (j + 1) / W * W;
        const VI cols0 = iota + I(b0);
        const VI keep = cols0 < I(j);
        const VI at_j = cols0 == I(j);
        const bool j_alone = (j + 1) % W == 0;
        const bool recip = std::fabs(pivot) >= sfmin;
        const T r = T(1) / pivot;
        for (int i = j + 1; i < n; ++i) {
            T *__restrict__ ri = a + i * ld;
            const T x = ri[j];
            const T l = pivot == T(0) ? x : recip ? x * r : x / pivot;
            const V lv = S::splat(l);
            if (j_alone) ri[j] = l;
            const V x0 = S::load(ri + b0);
            const V y0 = x0 - lv * S::load(rj + b0);
            S::store(ri + b0, keep ? x0 : (at_j ? lv : y0));
            for (int b = b0 + W; b < n; b += W) S::store(ri + b, S::load(ri + b) - lv * S::load(rj + b));
        }
    }
    return info;
}

} // namespace

namespace kobalt_openmp {
namespace fixed {
namespace KOBALT_FIXED_ISA {

template <class T>
void getrf_direct(int n, Items<T> A, Mat a, int *ipiv, int64_t sipiv, int *info, int64_t batch) {
    constexpr int W = Vec<T, kVecBytes>::W;
    const int ld = (n + W - 1) / W * W; // at most GETRF_DIRECT_MAX_N, a multiple of every W
    // Row-major items are copied row by row, column-major ones transposed (W x W register
    // transposes); the padding columns are zeroed.
    const auto copy_in = [=](const T *p, T *buf) {
        if (a.unit_rows) {
            transpose_copy(p, int64_t(a.ld), buf, int64_t(ld), n, n);
        } else {
            for (int r = 0; r < n; ++r) std::memcpy(buf + r * ld, p + int64_t(r) * a.ld, n * sizeof(T));
        }
        for (int r = 0; r < n; ++r)
            for (int c = n; c < ld; ++c) buf[r * ld + c] = T(0);
    };
    const auto copy_out = [=](const T *buf, T *p) {
        if (a.unit_rows) {
            transpose_copy(buf, int64_t(ld), p, int64_t(a.ld), n, n);
        } else {
            for (int r = 0; r < n; ++r) std::memcpy(p + int64_t(r) * a.ld, buf + r * ld, n * sizeof(T));
        }
    };
    loop(batch, [=](int64_t i) {
        alignas(64) T buf[GETRF_DIRECT_MAX_N * GETRF_DIRECT_MAX_N];
        T *const p = item(A, i);
        copy_in(p, buf);
        info[i] = lu_rows(n, buf, ld, ipiv + i * sipiv);
        copy_out(buf, p);
    });
}

template void getrf_direct<double>(int, Items<double>, Mat, int *, int64_t, int *, int64_t);
template void getrf_direct<float>(int, Items<float>, Mat, int *, int64_t, int *, int64_t);

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
