// lu_nopivot_unit.hpp -- LU without pivoting (getrf with ipiv NULL) of one square item whose
// columns (column-major) or rows (row-major) have unit stride: right-looking, unblocked,
// with the unit stride known at compile time, so every update is a unit-stride axpy the
// compiler vectorises.
//
// The small path ran these items through KokkosBatched SerialLU on strided views (runtime
// strides for every element, nothing vectorised) and the vendor path through a panel loop
// with runtime strides too (vendor::getrf_nopivot): both 0.58-0.98 of the bench's
// KokkosBatched call at n = 10..40 (docs/performance.md, "getrf_np"). This kernel was
// 1.07-2.8x faster than that peer at n = 10..48 in both layouts and precisions, and faster
// than the blocked CBLAS loop up to n = 128 (not at 256 column-major: GETRF_NP_SMALL_MAX).
// As LAPACK's dgetf2: the pivot's reciprocal scales the column when the pivot is a normal
// number, and a subnormal pivot divides (its reciprocal can overflow to Inf where the
// quotients are finite); a zero pivot divides too, giving Inf/NaN in its item only, and
// info names the first exactly zero U(j,j), as on the other paths.
#ifndef KOBALT_OPENMP_LU_NOPIVOT_UNIT_HPP
#define KOBALT_OPENMP_LU_NOPIVOT_UNIT_HPP

#include <cmath>
#include <cstdint>
#include <limits>

namespace kobalt_openmp {

// Cols: element (i, j) at a[i + j*ld]; otherwise at a[i*ld + j]. Returns LAPACK's info.
template <bool Cols, class T> int lu_nopivot_unit(int n, T *__restrict__ a, int64_t ld) {
    for (int k = 0; k < n; ++k) {
        const T p = a[k * ld + k];
        const bool divide = !(std::abs(p) >= std::numeric_limits<T>::min()); // subnormal, zero or NaN
        const T r = T(1) / p;
        if (Cols) { // scale column k below the diagonal, then a rank-1 update column by column
            T *__restrict__ ck = a + k * ld;
            if (divide)
                for (int i = k + 1; i < n; ++i) ck[i] /= p;
            else
                for (int i = k + 1; i < n; ++i) ck[i] *= r;
            for (int j = k + 1; j < n; ++j) {
                T *__restrict__ cj = a + j * ld;
                const T u = cj[k];
                for (int i = k + 1; i < n; ++i) cj[i] -= ck[i] * u;
            }
        } else { // row by row: l(i, k), then row i -= l(i, k) * row k
            const T *__restrict__ rk = a + k * ld;
            for (int i = k + 1; i < n; ++i) {
                T *__restrict__ ri = a + i * ld;
                const T l = divide ? ri[k] / p : ri[k] * r;
                ri[k] = l;
                for (int j = k + 1; j < n; ++j) ri[j] -= l * rk[j];
            }
        }
    }
    for (int j = 0; j < n; ++j)
        if (a[j * ld + j] == T(0)) return j + 1;
    return 0;
}

} // namespace kobalt_openmp

#endif
