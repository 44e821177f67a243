// test_numerics.cpp -- hostile numbers: LU (getrf), solve (getrs) and the fused call on
// batches that mix good items with NaN and Inf entries, exactly singular and nearly
// singular items, badly scaled items (rows near overflow and underflow: 1e300/1e-300 in
// double, 1e37/1e-37 in float), Hilbert matrices and U diag(s) V^T with a chosen
// condition number (1e4 .. 1e12 double, 1e3 .. 1e6 float).
//
// For every item of every batch (orders 4..10, 16, 40, 60: both sides of GETRF_SMALL_MAX;
// 40 and 60 run the direct LU, GETRF_DIRECT_MIN .. _MAX, with the default thresholds;
// both layouts, both precisions; ctest runs it with the default thresholds and with every
// path forced, as the correctness tests):
//   - info and the pivots equal LAPACKE's (dgetrf on a copy of the item);
//   - for finite nonsingular items the backward error ||PA - LU||_1 / (||A||_1 n eps) and
//     the solve residual ||b - Ax||_1 / ((||A||_1 ||x||_1 + ||b||_1) n eps) are at most
//     10x LAPACKE's on the same item plus 10;
//   - a bad neighbour spoils nothing: every clean item is bitwise what it is in the same
//     batch with the bad items replaced by clean ones (not "the item alone": batches of
//     small fixed orders may run kernels vectorised across items), and the fused call (k = 0, so A is the item itself)
//     gives the same info and pivots and leaves B untouched where info > 0.
#include <lapacke.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/kt_rng.hpp"
#include "kobalt/kobalt.h"

namespace {

int failures = 0, checks = 0, pivot_exempt_differ = 0;
#define CHECK(cond, ...)                                          \
    do {                                                          \
        ++checks;                                                 \
        if (!(cond)) {                                            \
            if (++failures <= 40) {                               \
                std::printf("FAIL %s:%d: ", __FILE__, __LINE__);  \
                std::printf(__VA_ARGS__);                         \
                std::printf("\n");                                \
            }                                                     \
        }                                                         \
    } while (0)

template <class T> struct K;
template <> struct K<double> {
    static kobalt_status getrf(kobalt_layout l, int64_t n, double *A, int64_t s, int *p, int *info, int64_t b) {
        return kobalt_dgetrf_strided(l, n, n, A, n, s, p, n, info, b);
    }
    static kobalt_status getrs(kobalt_layout l, int64_t n, const double *A, const int *p, double *B, int64_t b) {
        return kobalt_dgetrs_strided(l, KOBALT_NO_TRANS, n, 1, A, n, n * n, p, n, B, l == KOBALT_COL_MAJOR ? n : 1, n, b);
    }
    static kobalt_status fused(kobalt_layout l, int64_t n, double *A, int *p, double *B, int *info, int64_t b) {
        return kobalt_dgemm_lu_trsv_strided(l, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, 0, 1, 1.0, nullptr, n, 0, nullptr, n,
                                            0, 1.0, A, n, n * n, p, n, B, l == KOBALT_COL_MAJOR ? n : 1, n, info, b);
    }
    static int ref_getrf(kobalt_layout l, int n, double *A, int *p) {
        return LAPACKE_dgetrf_work(l == KOBALT_COL_MAJOR ? LAPACK_COL_MAJOR : LAPACK_ROW_MAJOR, n, n, A, n, p);
    }
    static int ref_getrs(kobalt_layout l, int n, const double *A, const int *p, double *B) {
        return LAPACKE_dgetrs_work(l == KOBALT_COL_MAJOR ? LAPACK_COL_MAJOR : LAPACK_ROW_MAJOR, 'N', n, 1, A, n, p, B,
                                   l == KOBALT_COL_MAJOR ? n : 1);
    }
    static constexpr double big = 1e300, tiny = 1e-300, cond_lo = 1e4, cond_hi = 1e12;
};
template <> struct K<float> {
    static kobalt_status getrf(kobalt_layout l, int64_t n, float *A, int64_t s, int *p, int *info, int64_t b) {
        return kobalt_sgetrf_strided(l, n, n, A, n, s, p, n, info, b);
    }
    static kobalt_status getrs(kobalt_layout l, int64_t n, const float *A, const int *p, float *B, int64_t b) {
        return kobalt_sgetrs_strided(l, KOBALT_NO_TRANS, n, 1, A, n, n * n, p, n, B, l == KOBALT_COL_MAJOR ? n : 1, n, b);
    }
    static kobalt_status fused(kobalt_layout l, int64_t n, float *A, int *p, float *B, int *info, int64_t b) {
        return kobalt_sgemm_lu_trsv_strided(l, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, 0, 1, 1.0f, nullptr, n, 0, nullptr, n,
                                            0, 1.0f, A, n, n * n, p, n, B, l == KOBALT_COL_MAJOR ? n : 1, n, info, b);
    }
    static int ref_getrf(kobalt_layout l, int n, float *A, int *p) {
        return LAPACKE_sgetrf_work(l == KOBALT_COL_MAJOR ? LAPACK_COL_MAJOR : LAPACK_ROW_MAJOR, n, n, A, n, p);
    }
    static int ref_getrs(kobalt_layout l, int n, const float *A, const int *p, float *B) {
        return LAPACKE_sgetrs_work(l == KOBALT_COL_MAJOR ? LAPACK_COL_MAJOR : LAPACK_ROW_MAJOR, 'N', n, 1, A, n, p, B,
                                   l == KOBALT_COL_MAJOR ? n : 1);
    }
    static constexpr float big = 1e37f, tiny = 1e-37f, cond_lo = 1e3f, cond_hi = 1e6f;
};

enum Kind { RANDOM, NAN_ENTRY, INF_ENTRY, ZERO_COLUMN, NEAR_SINGULAR, BIG_ROWS, TINY_ROWS, MIXED_SCALE, HILBERT,
            COND_LO, COND_HI, KINDS };
const char *kind_name[KINDS] = {"random", "NaN entry", "Inf entry", "zero column", "nearly singular", "rows near overflow",
                                "rows near underflow", "rows 1e+-300", "Hilbert", "cond lo", "cond hi"};

// Column-major logical matrix (i, j) -> a[i + j*n]; stored per layout later.
template <class T> std::vector<double> make(Kind kind, int n, kt::Rng &r) {
    std::vector<double> a(size_t(n * n));
    for (double &v : a) v = r.uniform();
    auto at = [&](int i, int j) -> double & { return a[size_t(i + j * n)]; };
    switch (kind) {
    case NAN_ENTRY: at(int(r.below(n)), int(r.below(n))) = std::numeric_limits<double>::quiet_NaN(); break;
    case INF_ENTRY: at(int(r.below(n)), int(r.below(n))) = -std::numeric_limits<double>::infinity(); break;
    case ZERO_COLUMN: {
        const int j = int(r.below(n));
        for (int i = 0; i < n; ++i) at(i, j) = 0;
        break;
    }
    case NEAR_SINGULAR: {  // last row = first row + tiny
        for (int j = 0; j < n; ++j) at(n - 1, j) = at(0, j) * (1 + 64 * std::numeric_limits<T>::epsilon() * r.uniform());
        break;
    }
    case BIG_ROWS:
    case TINY_ROWS:
    case MIXED_SCALE:
        for (int i = 0; i < n; ++i) {
            const double s = kind == BIG_ROWS ? K<T>::big : kind == TINY_ROWS ? K<T>::tiny : (i % 2 ? K<T>::big : K<T>::tiny);
            for (int j = 0; j < n; ++j) at(i, j) *= s;
        }
        break;
    case HILBERT:
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) at(i, j) = 1.0 / (i + j + 1);
        break;
    case COND_LO:
    case COND_HI: {  // H1 diag(s) H2, s geometric from 1 down to 1/cond
        const double cond = kind == COND_LO ? K<T>::cond_lo : K<T>::cond_hi;
        std::vector<double> u((size_t)n), v((size_t)n);
        for (int i = 0; i < n; ++i) u[size_t(i)] = r.uniform(), v[size_t(i)] = r.uniform();
        double uu = 0, vv = 0;
        for (int i = 0; i < n; ++i) uu += u[size_t(i)] * u[size_t(i)], vv += v[size_t(i)] * v[size_t(i)];
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                double sum = 0;  // (H1 S H2)(i,j) = sum_p H1(i,p) s_p H2(p,j)
                for (int p = 0; p < n; ++p) {
                    const double h1 = (i == p) - 2 * u[size_t(i)] * u[size_t(p)] / uu;
                    const double h2 = (p == j) - 2 * v[size_t(p)] * v[size_t(j)] / vv;
                    const double s = n > 1 ? std::pow(cond, -double(p) / (n - 1)) : 1.0;
                    sum += h1 * s * h2;
                }
                at(i, j) = sum;
            }
        break;
    }
    default: break;
    }
    return a;
}

bool bad(Kind k) { return k == NAN_ENTRY || k == INF_ENTRY || k == ZERO_COLUMN || k == NEAR_SINGULAR || k == BIG_ROWS || k == TINY_ROWS || k == MIXED_SCALE; }

template <class T> void store(const std::vector<double> &a, int n, kobalt_layout l, T *out) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) out[l == KOBALT_COL_MAJOR ? i + j * n : i * n + j] = T(a[size_t(i + j * n)]);
}

template <class T> bool finite(const T *a, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (!std::isfinite(a[i])) return false;
    return true;
}

// ||P A - L U||_1 / (||A||_1 n eps), from the item A (original) and its factors F.
template <class T> double lu_error(kobalt_layout l, int n, const T *A, const T *F, const int *p) {
    auto get = [&](const T *M, int i, int j) { return double(M[l == KOBALT_COL_MAJOR ? i + j * n : i * n + j]); };
    std::vector<double> PA(size_t(n * n));
    std::vector<int> row((size_t)n);
    for (int i = 0; i < n; ++i) row[size_t(i)] = i;
    for (int i = 0; i < n; ++i) std::swap(row[size_t(i)], row[size_t(p[i] - 1)]);
    double anorm = 0, enorm = 0;
    for (int j = 0; j < n; ++j) {
        double ca = 0, ce = 0;
        for (int i = 0; i < n; ++i) {
            double lu = 0;
            for (int q = 0; q <= (i < j ? i : j); ++q) lu += (q == i ? 1.0 : get(F, i, q)) * get(F, q, j);
            ca += std::fabs(get(A, row[size_t(i)], j));
            ce += std::fabs(get(A, row[size_t(i)], j) - lu);
        }
        anorm = std::max(anorm, ca), enorm = std::max(enorm, ce);
    }
    return enorm / (anorm * n * std::numeric_limits<T>::epsilon());
}

template <class T> double solve_residual(kobalt_layout l, int n, const T *A, const T *x, const T *b) {
    auto get = [&](int i, int j) { return double(A[l == KOBALT_COL_MAJOR ? i + j * n : i * n + j]); };
    double anorm = 0, xn = 0, bn = 0, rn = 0;
    for (int j = 0; j < n; ++j) {
        double c = 0;
        for (int i = 0; i < n; ++i) c += std::fabs(get(i, j));
        anorm = std::max(anorm, c);
    }
    for (int i = 0; i < n; ++i) {
        double ax = 0;
        for (int j = 0; j < n; ++j) ax += get(i, j) * double(x[j]);
        rn += std::fabs(double(b[i]) - ax), xn += std::fabs(double(x[i])), bn += std::fabs(double(b[i]));
    }
    return rn / ((anorm * xn + bn) * n * std::numeric_limits<T>::epsilon());
}

template <class T> void run(int n, kobalt_layout l, kt::Rng &r, double &worst_ratio) {
    const char *prec = sizeof(T) == 8 ? "d" : "s";
    const char *lay = l == KOBALT_COL_MAJOR ? "col" : "row";
    // Every kind twice, shuffled, so that bad items sit between good ones.
    std::vector<Kind> kinds;
    for (int k = 0; k < KINDS; ++k) kinds.push_back(Kind(k)), kinds.push_back(Kind(k));
    for (size_t i = kinds.size() - 1; i > 0; --i) std::swap(kinds[i], kinds[size_t(r.below(int64_t(i) + 1))]);
    const int64_t batch = int64_t(kinds.size()), sq = int64_t(n) * n;
    std::vector<T> A0(size_t(sq * batch)), A(size_t(sq * batch)), b0(size_t(n * batch));
    for (int64_t i = 0; i < batch; ++i) store<T>(make<T>(kinds[size_t(i)], n, r), n, l, A0.data() + i * sq);
    for (T &v : b0) v = T(r.uniform());
    A = A0;
    std::vector<int> ipiv(size_t(n * batch), -9), info(size_t(batch), -9);
    kobalt_status st = K<T>::getrf(l, n, A.data(), sq, ipiv.data(), info.data(), batch);
    CHECK(st == KOBALT_SUCCESS, "%sgetrf n=%d %s: %s", prec, n, lay, kobalt_status_name(st));
    // The same batch with every bad item replaced by a clean random one.
    std::vector<T> C(A0);
    for (int64_t i = 0; i < batch; ++i)
        if (bad(kinds[size_t(i)])) store<T>(make<T>(RANDOM, n, r), n, l, C.data() + i * sq);
    std::vector<int> cpiv(size_t(n * batch), -9), cinfo((size_t)batch, -9);
    K<T>::getrf(l, n, C.data(), sq, cpiv.data(), cinfo.data(), batch);
    std::vector<T> x = b0;
    std::vector<int> info_ok(info);
    st = K<T>::getrs(l, n, A.data(), ipiv.data(), x.data(), batch);
    CHECK(st == KOBALT_SUCCESS, "%sgetrs n=%d %s: %s", prec, n, lay, kobalt_status_name(st));
    // The fused call on the same items (k = 0: A_i = 1 * A_i).
    std::vector<T> FA = A0, FB = b0;
    std::vector<int> fpiv(size_t(n * batch), -9), finfo(size_t(batch), -9);
    st = K<T>::fused(l, n, FA.data(), fpiv.data(), FB.data(), finfo.data(), batch);
    CHECK(st == KOBALT_SUCCESS, "%sgemm_lu_trsv n=%d %s: %s", prec, n, lay, kobalt_status_name(st));

    for (int64_t i = 0; i < batch; ++i) {
        const Kind kind = kinds[size_t(i)];
        const T *a0 = A0.data() + i * sq;
        // LAPACKE on a copy
        std::vector<T> R(a0, a0 + sq);
        std::vector<int> rp((size_t)n);
        const int rinfo = K<T>::ref_getrf(l, n, R.data(), rp.data());
        CHECK(rinfo == info[size_t(i)], "%sgetrf n=%d %s item %lld (%s): info %d, LAPACKE %d", prec, n, lay,
              (long long)i, kind_name[kind], info[size_t(i)], rinfo);
        // Pivots: exactly LAPACKE's, except where the choice is not determined by the
        // matrix: items with a NaN or Inf (NaN comparisons: OpenBLAS's optimised i?amax and
        // the reference one Kobalt's small LU follows pick differently) and Hilbert
        // matrices past 1/eps (ties up to rounding, which blocked and unblocked LU break
        // differently), and nearly singular items (the last pivot is chosen among rounding
        // noise). Those are counted, and held to info and residuals instead.
        // Every pivot written, and in LAPACK's range j+1..n (the exempt items below too).
        bool piv_range = true;
        for (int j = 0; j < n; ++j) piv_range &= ipiv[size_t(i * n + j)] >= j + 1 && ipiv[size_t(i * n + j)] <= n;
        CHECK(piv_range, "%sgetrf n=%d %s item %lld (%s): a pivot outside j+1..n (or not written)", prec, n, lay,
              (long long)i, kind_name[kind]);
        if (!piv_range) continue;  // the residuals below index with the pivots
        const bool same_piv = std::memcmp(rp.data(), ipiv.data() + i * n, size_t(n) * sizeof(int)) == 0;
        if (kind == NAN_ENTRY || kind == INF_ENTRY || kind == HILBERT || kind == NEAR_SINGULAR)
            pivot_exempt_differ += !same_piv;
        else
            CHECK(same_piv, "%sgetrf n=%d %s item %lld (%s): pivots differ from LAPACKE", prec, n, lay, (long long)i,
                  kind_name[kind]);
        // isolation: a bad neighbour spoils nothing (compared with the batch whose bad
        // items were replaced by clean ones; same positions, so same kernels)
        if (!bad(kind))
            CHECK(std::memcmp(C.data() + i * sq, A.data() + i * sq, size_t(sq) * sizeof(T)) == 0 &&
                      cinfo[size_t(i)] == info[size_t(i)] &&
                      std::memcmp(cpiv.data() + i * n, ipiv.data() + i * n, size_t(n) * sizeof(int)) == 0,
                  "%sgetrf n=%d %s item %lld (%s): differs when its bad neighbours are replaced by clean items", prec, n,
                  lay, (long long)i, kind_name[kind]);
        // fused: same info and pivots; B untouched when singular
        CHECK(finfo[size_t(i)] == info[size_t(i)] &&
                  (kind == NAN_ENTRY || kind == INF_ENTRY || kind == HILBERT || kind == NEAR_SINGULAR ||  // see above
                   std::memcmp(fpiv.data() + i * n, ipiv.data() + i * n, size_t(n) * sizeof(int)) == 0),
              "%sgemm_lu_trsv n=%d %s item %lld (%s): info %d/pivots differ from getrf (info %d)", prec, n, lay,
              (long long)i, kind_name[kind], finfo[size_t(i)], info[size_t(i)]);
        if (finfo[size_t(i)] > 0)
            CHECK(std::memcmp(FB.data() + i * n, b0.data() + i * n, size_t(n) * sizeof(T)) == 0,
                  "%sgemm_lu_trsv n=%d %s item %lld (%s): B written although info > 0", prec, n, lay, (long long)i,
                  kind_name[kind]);
        // residuals for finite, nonsingular items
        if (info[size_t(i)] == 0 && finite(a0, size_t(sq)) && finite(A.data() + i * sq, size_t(sq)) &&
            finite(R.data(), size_t(sq))) {
            const double ek = lu_error<T>(l, n, a0, A.data() + i * sq, ipiv.data() + i * n);
            const double er = lu_error<T>(l, n, a0, R.data(), rp.data());
            CHECK(ek <= 10 * er + 10, "%sgetrf n=%d %s item %lld (%s): backward error %.3g vs LAPACKE %.3g", prec, n,
                  lay, (long long)i, kind_name[kind], ek, er);
            std::vector<T> rx(b0.begin() + i * n, b0.begin() + (i + 1) * n);
            K<T>::ref_getrs(l, n, R.data(), rp.data(), rx.data());
            if (finite(rx.data(), size_t(n)) && finite(x.data() + i * n, size_t(n))) {
                const double rk = solve_residual<T>(l, n, a0, x.data() + i * n, b0.data() + i * n);
                const double rr = solve_residual<T>(l, n, a0, rx.data(), b0.data() + i * n);
                CHECK(rk <= 10 * rr + 10, "%sgetrs n=%d %s item %lld (%s): residual %.3g vs LAPACKE %.3g", prec, n, lay,
                      (long long)i, kind_name[kind], rk, rr);
                if (rr > 0) worst_ratio = std::max(worst_ratio, rk / rr);
            }
        }
    }
}

}  // namespace

int main() {
    kt::Rng r(20240607);
    double worst_d = 0, worst_s = 0;
    for (int n : {4, 5, 6, 7, 8, 9, 10, 16, 40, 60})
        for (kobalt_layout l : {KOBALT_COL_MAJOR, KOBALT_ROW_MAJOR}) {
            run<double>(n, l, r, worst_d);
            run<float>(n, l, r, worst_s);
        }
    std::printf("%d checks, %d failures; worst solve residual ratio Kobalt/LAPACKE: double %.2f, float %.2f; "
                "NaN/Inf/Hilbert/nearly singular items whose pivots differ from LAPACKE's (allowed): %d\n",
                checks, failures, worst_d, worst_s, pivot_exempt_differ);
    return failures ? 1 : 0;
}
