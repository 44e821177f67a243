// lu_pivoted.hpp -- LU with partial pivoting of one small strided item.
//
// Kokkos Kernels 3.4 has no pivoted LU functor (SerialLU does not pivot), so this is
// the same unblocked right-looking algorithm as LAPACK's dgetf2, written in the style
// of the KokkosBatched serial kernels: inlined, templated on the scalar, on a view.
//
// LAPACK semantics, which the tests compare against:
//  - the pivot of column j is the FIRST row of maximal |a| at or below the diagonal
//    (idamax: a later equal value does not win; a NaN never wins over an earlier value);
//  - ipiv is 1-based; the whole logical row is swapped (L's computed part too);
//  - an exactly zero pivot sets info = j+1 (the first one only), the column is then not
//    scaled and the factorisation carries on, as dgetf2 does;
//  - the column below the pivot is multiplied by 1/pivot when |pivot| >= the smallest
//    normal number, and divided by the pivot otherwise.
// The matrix is the LOGICAL matrix of the view: a row-major item gets the same pivots,
// info and (bitwise) factors as the column-major call on the same logical matrix; only
// the loop order of the rank-1 update follows the unit stride.
#ifndef KOBALT_OPENMP_LU_PIVOTED_HPP
#define KOBALT_OPENMP_LU_PIVOTED_HPP

#include <cmath>
#include <limits>

#include <Kokkos_Core.hpp>

namespace kobalt_openmp {

// RS / CS: 1 when that stride is known to be 1 at compile time, 0 when it is runtime.
template <class T, int RS, int CS>
KOKKOS_FORCEINLINE_FUNCTION int lu_pivoted_strided(const int m, const int n,
                                                   T *__restrict__ A, const int rs_in,
                                                   const int cs_in, int *__restrict__ ipiv) {
    const int rs = RS ? RS : rs_in;
    const int cs = CS ? CS : cs_in;
    const int kmin = m < n ? m : n;
    const T sfmin = std::numeric_limits<T>::min();
    int info = 0;
    for (int j = 0; j < kmin; ++j) {
        T *__restrict__ colj = A + j * cs; // column j, row i at colj[i*rs]
        int p = j;
        T amax = std::abs(colj[j * rs]);
        for (int i = j + 1; i < m; ++i) {
            const T v = std::abs(colj[i * rs]);
            if (v > amax) {
                amax = v;
                p = i;
            }
        }
        ipiv[j] = p + 1;
        const T pivot = colj[p * rs];
        if (pivot != T(0)) {
            if (p != j) {
                T *__restrict__ rj = A + j * rs;
                T *__restrict__ rp = A + p * rs;
                for (int c = 0; c < n; ++c) {
                    const T t = rj[c * cs];
                    rj[c * cs] = rp[c * cs];
                    rp[c * cs] = t;
                }
            }
            if (std::abs(pivot) >= sfmin) {
                const T r = T(1) / pivot;
                for (int i = j + 1; i < m; ++i) colj[i * rs] *= r;
            } else {
                for (int i = j + 1; i < m; ++i) colj[i * rs] /= pivot;
            }
        } else if (info == 0) {
            info = j + 1;
        }
        // Rank-1 update of the trailing block, A22 -= a21 * a12^T, walking the unit
        // stride innermost; every element gets the same single operation either way.
        if (RS == 1 || CS == 0) {
            for (int c = j + 1; c < n; ++c) {
                const T u = A[j * rs + c * cs];
                T *__restrict__ colc = A + c * cs;
                for (int i = j + 1; i < m; ++i) colc[i * rs] -= colj[i * rs] * u;
            }
        } else {
            const T *__restrict__ rowj = A + j * rs;
            for (int i = j + 1; i < m; ++i) {
                T *__restrict__ rowi = A + i * rs;
                const T l = rowi[j * cs];
                for (int c = j + 1; c < n; ++c) rowi[c * cs] -= l * rowj[c * cs];
            }
        }
    }
    return info;
}

// Factorises the view's logical matrix in place; returns LAPACK's info (0 or j >= 1).
template <class ViewType>
KOKKOS_FORCEINLINE_FUNCTION int lu_pivoted(const ViewType &A, int *ipiv) {
    using T = typename ViewType::non_const_value_type;
    const int m = int(A.extent(0)), n = int(A.extent(1));
    const int s0 = int(A.stride_0()), s1 = int(A.stride_1());
    if (s0 == 1) return lu_pivoted_strided<T, 1, 0>(m, n, A.data(), s0, s1, ipiv);
    if (s1 == 1) return lu_pivoted_strided<T, 0, 1>(m, n, A.data(), s0, s1, ipiv);
    return lu_pivoted_strided<T, 0, 0>(m, n, A.data(), s0, s1, ipiv);
}

} // namespace kobalt_openmp

#endif
