/*
 * kt_lu.hpp -- LU factors for the solve tests: LAPACK's (pivoted) per item, and an
 * unpivoted LU in the working precision (for ipiv == NULL), in place on a batch item.
 */
#ifndef KT_LU_HPP
#define KT_LU_HPP

#include "kt_batch.hpp"
#include "kt_calls.hpp"

namespace kt {

/* Unpivoted LU of the n x n item i of A (diagonally dominant input), in place. */
template <class T> inline void lu_nopivot(MatBatch<T> &A, kobalt_int i)
{
    const kobalt_int n = A.rows;
    for (kobalt_int k = 0; k < n; k++) {
        const T p = A.at(i, k, k);
        for (kobalt_int r = k + 1; r < n; r++) A.at(i, r, k) /= p;
        for (kobalt_int c = k + 1; c < n; c++) {
            const T u = A.at(i, k, c);
            for (kobalt_int r = k + 1; r < n; r++) A.at(i, r, c) -= A.at(i, r, k) * u;
        }
    }
}

/* Makes item i diagonally dominant: diagonal entries +-(rows + cols + 1). */
template <class T> inline void make_dominant(MatBatch<T> &A, kobalt_int i)
{
    const kobalt_int r = std::min(A.rows, A.cols);
    for (kobalt_int c = 0; c < r; c++) A.at(i, c, c) = (T)((c % 2 ? -1.0 : 1.0) * (double)(A.rows + A.cols + 1));
}

} // namespace kt

#endif
