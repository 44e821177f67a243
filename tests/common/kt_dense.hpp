/*
 * kt_dense.hpp -- dense column-major double matrices for checking results: norms,
 * products, triangles, LU reconstruction and the scaled residuals the tests compare
 * against a threshold.
 */
#ifndef KT_DENSE_HPP
#define KT_DENSE_HPP

#include <stdint.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kobalt/kobalt.h"

namespace kt {

template <class T> inline double eps() { return (double)std::numeric_limits<T>::epsilon(); }

/* Scaled residuals below this pass (LAPACK's testing uses 30). */
constexpr double kThreshold = 30.0;

struct Dense {
    int64_t rows = 0, cols = 0;
    std::vector<double> a; /* column-major */
    Dense() = default;
    Dense(int64_t r, int64_t c, double v = 0.0) : rows(r), cols(c), a((size_t)(r * c), v) {}
    Dense(int64_t r, int64_t c, std::vector<double> d) : rows(r), cols(c), a(std::move(d)) {}
    double &operator()(int64_t i, int64_t j) { return a[(size_t)(i + j * rows)]; }
    double operator()(int64_t i, int64_t j) const { return a[(size_t)(i + j * rows)]; }
};

inline Dense transpose(const Dense &A)
{
    Dense T(A.cols, A.rows);
    for (int64_t j = 0; j < A.cols; j++)
        for (int64_t i = 0; i < A.rows; i++) T(j, i) = A(i, j);
    return T;
}
inline Dense op(const Dense &A, kobalt_op t) { return t == KOBALT_NO_TRANS ? A : transpose(A); }
inline Dense abs(const Dense &A)
{
    Dense B = A;
    for (auto &v : B.a) v = std::fabs(v);
    return B;
}
inline Dense mul(const Dense &A, const Dense &B)
{
    Dense C(A.rows, B.cols);
    for (int64_t j = 0; j < B.cols; j++)
        for (int64_t p = 0; p < A.cols; p++) {
            double b = B(p, j);
            if (b == 0.0) continue;
            const double *ac = A.a.data() + (size_t)(p * A.rows); /* data(): A may be empty */
            double *cc = C.a.data() + (size_t)(j * C.rows);
            for (int64_t i = 0; i < A.rows; i++) cc[i] += ac[i] * b;
        }
    return C;
}
/* max_j sum_i |A(i,j)| */
inline double norm1(const Dense &A)
{
    double m = 0;
    for (int64_t j = 0; j < A.cols; j++) {
        double s = 0;
        for (int64_t i = 0; i < A.rows; i++) s += std::fabs(A(i, j));
        if (!(s <= m)) m = s; /* propagates NaN */
    }
    return m;
}
inline double norm_inf(const Dense &A) { return norm1(transpose(A)); }
inline double norm_max(const Dense &A)
{
    double m = 0;
    for (double v : A.a)
        if (!(std::fabs(v) <= m)) m = std::fabs(v);
    return m;
}
inline bool all_finite(const Dense &A)
{
    for (double v : A.a)
        if (!std::isfinite(v)) return false;
    return true;
}

/* The triangle of A that uplo/diag reference, with a unit diagonal for KOBALT_UNIT. */
inline Dense triangle(const Dense &A, kobalt_uplo uplo, kobalt_diag diag)
{
    Dense T(A.rows, A.cols);
    for (int64_t j = 0; j < A.cols; j++)
        for (int64_t i = 0; i < A.rows; i++) {
            if (i == j) T(i, j) = diag == KOBALT_UNIT ? 1.0 : A(i, j);
            else if ((uplo == KOBALT_UPPER) == (i < j)) T(i, j) = A(i, j);
        }
    return T;
}

/* Unit lower trapezoid L (m x min) and upper trapezoid U (min x n) of packed factors. */
inline void split_lu(const Dense &F, Dense &Lo, Dense &Up)
{
    int64_t m = F.rows, n = F.cols, r = std::min(m, n);
    Lo = Dense(m, r);
    Up = Dense(r, n);
    for (int64_t j = 0; j < r; j++)
        for (int64_t i = 0; i < m; i++) Lo(i, j) = i == j ? 1.0 : (i > j ? F(i, j) : 0.0);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < r && i <= j; i++) Up(i, j) = F(i, j);
}

/* Apply LAPACK's row interchanges (1-based ipiv, min(m,n) of them) to A: P A. */
inline Dense apply_pivots(const Dense &A, const int *ipiv, int64_t count)
{
    Dense P = A;
    for (int64_t i = 0; i < count; i++) {
        int64_t p = ipiv[i] - 1;
        if (p < 0 || p >= A.rows) return Dense(A.rows, A.cols, std::nan("")); /* invalid pivot */
        if (p != i)
            for (int64_t j = 0; j < A.cols; j++) std::swap(P(i, j), P(p, j));
    }
    return P;
}

/* ||P A - L U||_1 / (max(m,n) eps ||A||_1); ipiv NULL: no pivoting. 0 for empty A. */
inline double lu_residual(const Dense &A, const Dense &F, const int *ipiv, double eps)
{
    if (A.rows == 0 || A.cols == 0) return 0.0;
    Dense Lo, Up;
    split_lu(F, Lo, Up);
    Dense PA = ipiv ? apply_pivots(A, ipiv, std::min(A.rows, A.cols)) : A;
    Dense LU = mul(Lo, Up);
    for (size_t p = 0; p < LU.a.size(); p++) LU.a[p] -= PA.a[p];
    double an = norm1(A);
    double r = norm1(LU);
    if (an == 0.0) return r == 0.0 ? 0.0 : INFINITY;
    if (!std::isfinite(r)) return INFINITY;
    return r / ((double)std::max(A.rows, A.cols) * eps * an);
}

/* Solve residual of M X = B (all dense, M n x n): max over columns j of
 * ||M x_j - b_j||_1 / (n eps ||M||_1 ||x_j||_1). A nonfinite X gives infinity. */
inline double solve_residual(const Dense &M, const Dense &X, const Dense &B, double eps)
{
    int64_t n = M.rows;
    if (n == 0 || X.cols == 0) return 0.0;
    if (!all_finite(X)) return INFINITY;
    Dense R = mul(M, X);
    double mn = norm1(M);
    double worst = 0.0;
    for (int64_t j = 0; j < X.cols; j++) {
        double rn = 0, xn = 0;
        for (int64_t i = 0; i < n; i++) {
            rn += std::fabs(R(i, j) - B(i, j));
            xn += std::fabs(X(i, j));
        }
        double q;
        if (xn == 0.0 || mn == 0.0) q = rn == 0.0 ? 0.0 : INFINITY;
        else q = rn / ((double)n * eps * mn * xn);
        if (!(q <= worst)) worst = q;
    }
    return worst;
}

} // namespace kt

#endif
