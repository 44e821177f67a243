/*
 * kt_triangular.hpp -- well-conditioned random triangular test matrices.
 *
 * The referenced triangle gets off-diagonal entries in [-1,1] and a diagonal of
 * +-(n + [0,1)) (non-unit), or off-diagonal entries in [-1,1]/n (unit diagonal), so
 * every matrix is diagonally dominant. The triangle that uplo does not reference, and
 * the diagonal when diag is KOBALT_UNIT, hold NaN poison: reading them spoils the result.
 */
#ifndef KT_TRIANGULAR_HPP
#define KT_TRIANGULAR_HPP

#include "kt_batch.hpp"

namespace kt {

template <class T>
inline void fill_triangular(MatBatch<T> &A, kobalt_uplo uplo, kobalt_diag diag, Rng &rng)
{
    const kobalt_int n = A.rows;
    const double scale = diag == KOBALT_UNIT ? 1.0 / (double)std::max<kobalt_int>(n, 1) : 1.0;
    for (kobalt_int i = 0; i < A.batch; i++)
        for (kobalt_int c = 0; c < n; c++)
            for (kobalt_int r = 0; r < n; r++) {
                T v;
                if (r == c) {
                    if (diag == KOBALT_UNIT) v = poison<T>();
                    else v = (T)((rng.uniform() < 0 ? -1.0 : 1.0) * ((double)n + rng.uniform(0.0, 1.0)));
                } else if ((uplo == KOBALT_UPPER) == (r < c)) {
                    v = (T)(scale * rng.uniform());
                } else {
                    v = poison<T>();
                }
                A.at(i, r, c) = v;
            }
}

} // namespace kt

#endif
