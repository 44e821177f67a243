// test_cuda_desc.cpp -- the descriptor routines (*_desc) and pack/unpack on device memory,
// for s and d, against self-contained host references (naive gemm, dgetf2 with LAPACK's
// pivots in the working precision, triangular solves, residuals). Every operand gets a
// random kobalt_matrix_desc: interleaved (the one-thread-per-item register kernels),
// column-/row-major (the standard slots) or a random order with gaps (the general-stride
// kernels); cells of an output that are no element of it must keep their sentinel.
// Plain C++, exits 77 ("no CUDA device: skipped") when no GPU can run.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "common/cuda_check.hpp"
#include "kobalt/kobalt.h"

namespace {

char g_case_buf[512];
#define KOBALT_OK(x)                                                                           \
    do {                                                                                       \
        kobalt_status s_ = (x);                                                                \
        CHECK(s_ == KOBALT_SUCCESS, "%s: %s", kobalt_status_name(s_), kobalt_last_error());   \
        CUDA_OK(cudaDeviceSynchronize());                                                      \
    } while (0)

std::mt19937_64 rng(2024);
double uni() { return std::uniform_real_distribution<double>(-1, 1)(rng); }
long below(long n) { return long(rng() % (unsigned long long)n); }
template <class T> double eps() { return sizeof(T) == 8 ? 2.220446049250313e-16 : 1.1920929e-7; }

using I = long long;

// ---- a described batch on host and device ---------------------------------------------------
template <class E> E sentinel() { return E(-12345); }

template <class E> struct DBuf {
    kobalt_matrix_desc d{};
    I batch = 0;
    std::vector<E> h;
    std::vector<unsigned char> mask;
    E *dev = nullptr;
    DBuf(const kobalt_matrix_desc &desc, I b) : d(desc), batch(b) {
        size_t cells = 1;
        if (d.rows > 0 && d.cols > 0 && b > 0)
            cells = size_t((d.rows - 1) * d.row_stride + (d.cols - 1) * d.col_stride + (b - 1) * d.batch_stride + 1);
        h.assign(cells, sentinel<E>());
        mask.assign(cells, 0);
        for (I q = 0; q < b; ++q)
            for (I j = 0; j < d.cols; ++j)
                for (I i = 0; i < d.rows; ++i) mask[pos(q, i, j)] = 1;
        CUDA_OK(cudaMalloc(&dev, sizeof(E) * cells));
    }
    DBuf(const DBuf &) = delete;
    ~DBuf() { cudaFree(dev); }
    size_t pos(I q, I i, I j) const { return size_t(q * d.batch_stride + i * d.row_stride + j * d.col_stride); }
    E &at(I q, I i, I j) { return h[pos(q, i, j)]; }
    E at(I q, I i, I j) const { return h[pos(q, i, j)]; }
    void fill() {
        for (I q = 0; q < batch; ++q)
            for (I j = 0; j < d.cols; ++j)
                for (I i = 0; i < d.rows; ++i) at(q, i, j) = E(uni());
    }
    void up() { CUDA_OK(cudaMemcpy(dev, h.data(), sizeof(E) * h.size(), cudaMemcpyHostToDevice)); }
    std::vector<E> down() const {
        std::vector<E> o(h.size());
        CUDA_OK(cudaMemcpy(o.data(), dev, sizeof(E) * h.size(), cudaMemcpyDeviceToHost));
        return o;
    }
    // Cells that are no element keep their sentinel; returns how many were written.
    long padding_written(const std::vector<E> &got) const {
        long bad = 0;
        for (size_t p = 0; p < got.size(); ++p)
            if (!mask[p] && std::memcmp(&got[p], &h[p], sizeof(E)) != 0) ++bad;
        return bad;
    }
    // Item q as a column-major rows x cols double matrix, from `v` (host copy or download).
    std::vector<double> dense(const std::vector<E> &v, I q) const {
        std::vector<double> o(size_t(d.rows * d.cols));
        for (I j = 0; j < d.cols; ++j)
            for (I i = 0; i < d.rows; ++i) o[size_t(i + j * d.rows)] = double(v[pos(q, i, j)]);
        return o;
    }
};

enum Kind { kInterleaved, kInterleavedRow, kCol, kRow, kPermuted };
kobalt_matrix_desc make_desc(I rows, I cols, I batch, Kind kind) {
    I count[3] = {rows, cols, batch}, stride[3] = {0, 0, 0};
    int order[3] = {0, 1, 2};
    if (kind == kRow) std::swap(order[0], order[1]);
    if (kind == kInterleaved) order[0] = 2, order[1] = 0, order[2] = 1;
    if (kind == kInterleavedRow) order[0] = 2, order[1] = 1, order[2] = 0;
    if (kind == kPermuted)
        for (int i = 2; i > 0; --i) std::swap(order[i], order[below(i + 1)]);
    I span = 0;
    for (int k = 0; k < 3; ++k) {
        const int dim = order[k];
        I s = k == 0 ? (kind == kPermuted ? 1 + below(2) : 1) : span + 1 + (below(3) == 0 ? below(3) : 0);
        if (count[dim] <= 1) s = below(3);
        stride[dim] = s;
        if (count[dim] > 1) span += s * (count[dim] - 1);
    }
    if ((kind == kInterleaved || kind == kInterleavedRow) && batch > 1) stride[2] = 1;
    return kobalt_matrix_desc{rows, cols, stride[0], stride[1], stride[2]};
}
Kind pick(bool interleaved) { return interleaved ? Kind(below(2)) : Kind(2 + below(3)); }

// ---- host references ---------------------------------------------------------------------------
using Dense = std::vector<double>; // column-major, rows given by the caller
double norm1(const Dense &a, I r, I c) {
    double m = 0;
    for (I j = 0; j < c; ++j) {
        double s = 0;
        for (I i = 0; i < r; ++i) s += std::fabs(a[size_t(i + j * r)]);
        m = std::max(m, s);
    }
    return m;
}
Dense transpose(const Dense &a, I r, I c) {
    Dense t(a.size());
    for (I j = 0; j < c; ++j)
        for (I i = 0; i < r; ++i) t[size_t(j + i * c)] = a[size_t(i + j * r)];
    return t;
}

// dgetf2 in precision T on a column-major m x n array (LAPACK's pivots and info).
template <class T> int getf2(I m, I n, std::vector<T> &a, std::vector<int> &ipiv) {
    const I kmin = std::min(m, n);
    ipiv.assign(size_t(std::max<I>(kmin, 1)), 0);
    const T sfmin = sizeof(T) == 8 ? T(2.2250738585072014e-308) : T(1.17549435e-38f);
    int info = 0;
    for (I j = 0; j < kmin; ++j) {
        I p = j;
        T amax = std::fabs(a[size_t(j + j * m)]);
        for (I i = j + 1; i < m; ++i)
            if (std::fabs(a[size_t(i + j * m)]) > amax) amax = std::fabs(a[size_t(i + j * m)]), p = i;
        ipiv[size_t(j)] = int(p + 1);
        const T piv = a[size_t(p + j * m)];
        if (piv != T(0)) {
            if (p != j)
                for (I c = 0; c < n; ++c) std::swap(a[size_t(j + c * m)], a[size_t(p + c * m)]);
            if (std::fabs(piv) >= sfmin)
                for (I i = j + 1; i < m; ++i) a[size_t(i + j * m)] *= T(1) / piv;
            else
                for (I i = j + 1; i < m; ++i) a[size_t(i + j * m)] /= piv;
        } else if (info == 0) {
            info = int(j + 1);
        }
        for (I c = j + 1; c < n; ++c)
            for (I i = j + 1; i < m; ++i) a[size_t(i + c * m)] -= a[size_t(i + j * m)] * a[size_t(j + c * m)];
    }
    return info;
}

// ||P A - L U||_1 / (max(m,n) eps ||A||_1) of packed factors F.
// anorm >= 0 replaces ||A||_1 as the scale (the fused call: a bound of the gemm's terms).
double lu_residual(const Dense &A, const Dense &F, I m, I n, const int *ipiv, double e, double anorm = -1) {
    if (m == 0 || n == 0) return 0;
    const I r = std::min(m, n);
    Dense PA = A;
    if (ipiv)
        for (I j = 0; j < r; ++j)
            if (ipiv[j] - 1 != j)
                for (I c = 0; c < n; ++c) std::swap(PA[size_t(j + c * m)], PA[size_t(ipiv[j] - 1 + c * m)]);
    Dense R(size_t(m * n), 0);
    for (I j = 0; j < n; ++j)
        for (I i = 0; i < m; ++i) {
            double s = 0;
            for (I k = 0; k <= std::min(std::min(i, j), r - 1); ++k) {
                const double l = i == k ? 1.0 : F[size_t(i + k * m)];
                s += l * F[size_t(k + j * m)];
            }
            R[size_t(i + j * m)] = s - PA[size_t(i + j * m)];
        }
    const double an = anorm >= 0 ? anorm : norm1(A, m, n);
    const double rn = norm1(R, m, n);
    if (!std::isfinite(rn)) return INFINITY;
    return an == 0 ? (rn == 0 ? 0 : INFINITY) : rn / (double(std::max(m, n)) * e * an);
}

// max_j ||M x_j - b_j||_1 / (n eps ||M||_1 ||x_j||_1), M n x n.
double solve_residual(const Dense &M, const Dense &X, const Dense &B, I n, I cols, double e, double mnorm = -1) {
    double worst = 0;
    const double mn = mnorm >= 0 ? mnorm : norm1(M, n, n);
    for (I j = 0; j < cols; ++j) {
        double rn = 0, xn = 0;
        for (I i = 0; i < n; ++i) {
            double s = 0;
            for (I k = 0; k < n; ++k) s += M[size_t(i + k * n)] * X[size_t(k + j * n)];
            rn += std::fabs(s - B[size_t(i + j * n)]);
            xn += std::fabs(X[size_t(i + j * n)]);
        }
        if (!std::isfinite(rn)) return INFINITY;
        const double q = (xn == 0 || mn == 0) ? (rn == 0 ? 0 : INFINITY) : rn / (double(n) * e * mn * xn);
        worst = std::max(worst, q);
    }
    return worst;
}

const kobalt_op OPS[3] = {KOBALT_NO_TRANS, KOBALT_TRANS, KOBALT_CONJ_TRANS};
double op_at(const Dense &a, I rows, bool t, I i, I j) { return t ? a[size_t(j + i * rows)] : a[size_t(i + j * rows)]; }

// ---- gemm / gemv ---------------------------------------------------------------------------------
template <class T> void case_gemm(bool il, I m, I n, I k, I batch, bool vector) {
    const kobalt_op ta = OPS[below(3)], tb = vector ? KOBALT_NO_TRANS : OPS[below(3)];
    const bool na = ta == KOBALT_NO_TRANS, nb = tb == KOBALT_NO_TRANS;
    const T alpha = T(below(4) == 0 ? 0.0 : 1.25), beta = T(below(2) ? 0.0 : -0.5);
    DBuf<T> A(make_desc(na ? m : k, na ? k : m, batch, pick(il)), batch);
    DBuf<T> B(make_desc(vector ? k : (nb ? k : n), vector ? 1 : (nb ? n : k), batch, pick(il)), batch);
    DBuf<T> C(make_desc(m, n, batch, pick(il)), batch);
    std::snprintf(g_case_buf, sizeof g_case_buf, "%sgemm%s_desc il=%d m=%lld n=%lld k=%lld batch=%lld",
                  sizeof(T) == 8 ? "d" : "s", vector ? "(gemv)" : "", il, m, n, k, batch);
    g_case = g_case_buf;
    A.fill(), B.fill(), C.fill();
    A.up(), B.up(), C.up();
    if (vector) // gemv: A m x k (trans N) seen as op(A), x of length k, y of length m
        KOBALT_OK(sizeof(T) == 8
                      ? kobalt_dgemv_desc(ta, double(alpha), (const double *)A.dev, &A.d, (const double *)B.dev, &B.d,
                                          double(beta), (double *)C.dev, &C.d, batch)
                      : kobalt_sgemv_desc(ta, float(alpha), (const float *)A.dev, &A.d, (const float *)B.dev, &B.d,
                                          float(beta), (float *)C.dev, &C.d, batch));
    else
        KOBALT_OK(sizeof(T) == 8
                      ? kobalt_dgemm_desc(ta, tb, double(alpha), (const double *)A.dev, &A.d, (const double *)B.dev,
                                          &B.d, double(beta), (double *)C.dev, &C.d, batch)
                      : kobalt_sgemm_desc(ta, tb, float(alpha), (const float *)A.dev, &A.d, (const float *)B.dev, &B.d,
                                          float(beta), (float *)C.dev, &C.d, batch));
    const std::vector<T> got = C.down();
    CHECK(C.padding_written(got) == 0, "C: cells outside its elements written");
    long bad = 0;
    for (I q = 0; q < batch; ++q) {
        const Dense a = A.dense(A.h, q), b = B.dense(B.h, q), c0 = C.dense(C.h, q), c = C.dense(got, q);
        for (I j = 0; j < n; ++j)
            for (I i = 0; i < m; ++i) {
                double s = 0, bound = 0;
                if (alpha != T(0))
                    for (I p = 0; p < k; ++p) {
                        const double x = op_at(a, A.d.rows, !na, i, p) * op_at(b, B.d.rows, !nb, p, j);
                        s += x;
                        bound += std::fabs(x);
                    }
                double want = double(alpha) * s, tol = std::fabs(double(alpha)) * bound;
                if (beta != T(0)) want += double(beta) * c0[size_t(i + j * m)], tol += std::fabs(double(beta) * c0[size_t(i + j * m)]);
                if (!(std::fabs(c[size_t(i + j * m)] - want) <= 30.0 * double(k + 2) * eps<T>() * tol)) ++bad;
            }
    }
    CHECK(bad == 0, "%ld wrong element(s)", bad);
}

// ---- trsv / trsm ---------------------------------------------------------------------------------
template <class T> void case_trsm(bool il, I m, I n, I batch, bool vector) {
    const kobalt_side side = vector || below(2) ? KOBALT_LEFT : KOBALT_RIGHT;
    const kobalt_uplo uplo = below(2) ? KOBALT_LOWER : KOBALT_UPPER;
    const kobalt_diag diag = below(3) == 0 ? KOBALT_UNIT : KOBALT_NON_UNIT;
    const kobalt_op ta = OPS[below(3)];
    const T alpha = vector ? T(1) : T(below(5) == 0 ? 0.0 : -1.5);
    const I na = side == KOBALT_LEFT ? m : n;
    Kind ka = pick(il);
    DBuf<T> A(make_desc(na, na, batch, ka), batch);
    DBuf<T> B(make_desc(m, n, batch, pick(il)), batch);
    std::snprintf(g_case_buf, sizeof g_case_buf, "%s%s_desc il=%d m=%lld n=%lld batch=%lld",
                  sizeof(T) == 8 ? "d" : "s", vector ? "trsv" : "trsm", il, m, n, batch);
    g_case = g_case_buf;
    for (I q = 0; q < batch; ++q) // dominant triangle, the other one poisoned
        for (I j = 0; j < na; ++j)
            for (I i = 0; i < na; ++i)
                A.at(q, i, j) = i == j ? T(diag == KOBALT_UNIT ? NAN : double(na) + 1 + 0.5 * uni())
                                : ((uplo == KOBALT_LOWER) == (i > j) ? T(uni() / double(na)) : T(NAN));
    B.fill();
    A.up(), B.up();
    if (vector)
        KOBALT_OK(sizeof(T) == 8 ? kobalt_dtrsv_desc(uplo, ta, diag, (const double *)A.dev, &A.d, (double *)B.dev, &B.d, batch)
                                 : kobalt_strsv_desc(uplo, ta, diag, (const float *)A.dev, &A.d, (float *)B.dev, &B.d, batch));
    else
        KOBALT_OK(sizeof(T) == 8 ? kobalt_dtrsm_desc(side, uplo, ta, diag, double(alpha), (const double *)A.dev, &A.d,
                                                     (double *)B.dev, &B.d, batch)
                                 : kobalt_strsm_desc(side, uplo, ta, diag, float(alpha), (const float *)A.dev, &A.d,
                                                     (float *)B.dev, &B.d, batch));
    const std::vector<T> got = B.down();
    CHECK(B.padding_written(got) == 0, "B: cells outside its elements written");
    for (I q = 0; q < batch && m > 0 && n > 0; ++q) {
        Dense a = A.dense(A.h, q), x = B.dense(got, q), b0 = B.dense(B.h, q);
        for (I j = 0; j < na; ++j)
            for (I i = 0; i < na; ++i) {
                double &v = a[size_t(i + j * na)];
                if (i == j && diag == KOBALT_UNIT) v = 1;
                else if (i != j && (uplo == KOBALT_LOWER) != (i > j)) v = 0;
            }
        if (ta != KOBALT_NO_TRANS) a = transpose(a, na, na);
        if (alpha == T(0)) {
            CHECK(norm1(x, m, n) == 0, "alpha = 0 must zero B");
            continue;
        }
        for (double &v : b0) v *= double(alpha);
        const double r = side == KOBALT_LEFT ? solve_residual(a, x, b0, na, n, eps<T>())
                                             : solve_residual(transpose(a, na, na), transpose(x, m, n),
                                                              transpose(b0, m, n), na, m, eps<T>());
        CHECK(r < 30, "item %lld: residual %g", q, r);
    }
}

// ---- getrf / getrs ---------------------------------------------------------------------------------
template <class T> void case_getrf(bool il, I m, I n, I batch, bool pivot) {
    const I r = std::min(m, n);
    DBuf<T> A(make_desc(m, n, batch, pick(il)), batch);
    DBuf<int> P(make_desc(r, 1, batch, pick(il)), batch);
    DBuf<int> info(kobalt_matrix_desc{1, 1, 1, 1, 1}, batch);
    std::snprintf(g_case_buf, sizeof g_case_buf, "%sgetrf_desc il=%d m=%lld n=%lld batch=%lld pivot=%d",
                  sizeof(T) == 8 ? "d" : "s", il, m, n, batch, pivot);
    g_case = g_case_buf;
    A.fill();
    for (I q = 0; q < batch; ++q) {
        if (!pivot)
            for (I j = 0; j < r; ++j) A.at(q, j, j) = T(double(m + n + 1));
        else if (q % 5 == 3 && r > 0)
            for (I i = 0; i < m; ++i) A.at(q, i, (q / 5) % r) = T(0); // singular item
    }
    A.up(), P.up(), info.up();
    KOBALT_OK(sizeof(T) == 8 ? kobalt_dgetrf_desc((double *)A.dev, &A.d, pivot ? P.dev : nullptr, pivot ? &P.d : nullptr,
                                                  info.dev, batch)
                             : kobalt_sgetrf_desc((float *)A.dev, &A.d, pivot ? P.dev : nullptr, pivot ? &P.d : nullptr,
                                                  info.dev, batch));
    const std::vector<T> got = A.down();
    const std::vector<int> gp = P.down(), gi = info.down();
    CHECK(A.padding_written(got) == 0, "A: cells outside its elements written");
    CHECK(P.padding_written(gp) == 0, "ipiv: cells outside its elements written");
    for (I q = 0; q < batch; ++q) {
        std::vector<T> ref(size_t(m * n));
        for (I j = 0; j < n; ++j)
            for (I i = 0; i < m; ++i) ref[size_t(i + j * m)] = A.at(q, i, j);
        std::vector<int> rp;
        const int rinfo = pivot ? getf2(m, n, ref, rp) : 0;
        CHECK(gi[size_t(q)] == rinfo, "item %lld: info %d, dgetf2 %d", q, gi[size_t(q)], rinfo);
        std::vector<int> piv(size_t(std::max<I>(r, 1)));
        for (I j = 0; j < r && pivot; ++j) piv[size_t(j)] = gp[P.pos(q, j, 0)];
        bool same = true;
        for (I j = 0; j < r && pivot; ++j) same &= piv[size_t(j)] == rp[size_t(j)];
        CHECK(same, "item %lld: pivots differ from dgetf2's", q);
        const double res = lu_residual(A.dense(A.h, q), A.dense(got, q), m, n, pivot ? piv.data() : nullptr, eps<T>());
        CHECK(res < 30, "item %lld: LU residual %g", q, res);
    }
}

template <class T> void case_getrs(bool il, I n, I nrhs, I batch, bool pivot) {
    const kobalt_op trans = OPS[below(3)];
    DBuf<T> A(make_desc(n, n, batch, pick(il)), batch);
    DBuf<int> P(make_desc(n, 1, batch, pick(il)), batch);
    DBuf<T> B(make_desc(n, nrhs, batch, pick(il)), batch);
    std::snprintf(g_case_buf, sizeof g_case_buf, "%sgetrs_desc il=%d n=%lld nrhs=%lld batch=%lld pivot=%d",
                  sizeof(T) == 8 ? "d" : "s", il, n, nrhs, batch, pivot);
    g_case = g_case_buf;
    std::vector<Dense> orig;
    for (I q = 0; q < batch; ++q) {
        std::vector<T> a(size_t(n * n));
        for (auto &v : a) v = T(uni());
        if (!pivot)
            for (I j = 0; j < n; ++j) a[size_t(j + j * n)] = T(2 * n + 1);
        Dense ad(a.begin(), a.end());
        orig.push_back(ad);
        std::vector<int> rp;
        if (pivot) getf2(n, n, a, rp);
        else
            for (I j = 0; j < n; ++j)
                for (I i = j + 1; i < n; ++i) {
                    a[size_t(i + j * n)] /= a[size_t(j + j * n)];
                    for (I c = j + 1; c < n; ++c) a[size_t(i + c * n)] -= a[size_t(i + j * n)] * a[size_t(j + c * n)];
                }
        for (I j = 0; j < n; ++j) {
            for (I i = 0; i < n; ++i) A.at(q, i, j) = a[size_t(i + j * n)];
            if (pivot) P.at(q, j, 0) = rp[size_t(j)];
        }
    }
    B.fill();
    A.up(), P.up(), B.up();
    KOBALT_OK(sizeof(T) == 8
                  ? kobalt_dgetrs_desc(trans, (const double *)A.dev, &A.d, pivot ? P.dev : nullptr, pivot ? &P.d : nullptr,
                                       (double *)B.dev, &B.d, batch)
                  : kobalt_sgetrs_desc(trans, (const float *)A.dev, &A.d, pivot ? P.dev : nullptr, pivot ? &P.d : nullptr,
                                       (float *)B.dev, &B.d, batch));
    const std::vector<T> got = B.down();
    CHECK(B.padding_written(got) == 0, "B: cells outside its elements written");
    for (I q = 0; q < batch && n > 0; ++q) {
        const Dense M = trans == KOBALT_NO_TRANS ? orig[size_t(q)] : transpose(orig[size_t(q)], n, n);
        const double res = solve_residual(M, B.dense(got, q), B.dense(B.h, q), n, nrhs, eps<T>());
        CHECK(res < 30, "item %lld: solve residual %g", q, res);
    }
}

// ---- the fused call ----------------------------------------------------------------------------
// pivot false: ipiv NULL (no pivoting) on items made strictly column diagonally dominant, so
// that dgetf2's pivots are the identity and its factors are those of the unpivoted LU.
template <class T> void case_fused(bool il, I n, I k, I nrhs, I batch, bool pivot = true) {
    const kobalt_op tx = OPS[below(3)], ty = OPS[below(3)];
    const bool nx = tx == KOBALT_NO_TRANS, ny = ty == KOBALT_NO_TRANS;
    const T alpha = T(0.75), beta = T(1);
    DBuf<T> X(make_desc(nx ? n : k, nx ? k : n, batch, pick(il)), batch);
    DBuf<T> Y(make_desc(ny ? k : n, ny ? n : k, batch, pick(il)), batch);
    DBuf<T> A(make_desc(n, n, batch, pick(il)), batch);
    DBuf<int> P(make_desc(n, 1, batch, pick(il)), batch);
    DBuf<T> B(make_desc(n, nrhs, batch, pick(il)), batch);
    DBuf<int> info(kobalt_matrix_desc{1, 1, 1, 1, 1}, batch);
    std::snprintf(g_case_buf, sizeof g_case_buf, "%sgemm_lu_trsv_desc il=%d n=%lld k=%lld nrhs=%lld batch=%lld pivot=%d",
                  sizeof(T) == 8 ? "d" : "s", il, n, k, nrhs, batch, pivot);
    g_case = g_case_buf;
    X.fill(), Y.fill(), A.fill(), B.fill();
    for (I q = 0; q < batch; ++q)
        if (!pivot) { // |alpha op(X) op(Y)| <= 0.75 k and |A| < 1 per element, so a column's off-diagonal
            // sum is below (n - 1)(0.75 k + 1), less than n (k + 2) - 0.75 k: strictly dominant
            for (I j = 0; j < n; ++j) A.at(q, j, j) = T(double(n * (k + 2)));
        } else if (q % 7 == 2 && n > 0) { // singular: a zero column in op(Y) and in A
            const I j = q % n;
            for (I p = 0; p < k; ++p) (ny ? Y.at(q, p, j) : Y.at(q, j, p)) = T(0);
            for (I p = 0; p < n; ++p) A.at(q, p, j) = T(0);
        }
    X.up(), Y.up(), A.up(), P.up(), B.up(), info.up();
    KOBALT_OK(sizeof(T) == 8
                  ? kobalt_dgemm_lu_trsv_desc(tx, ty, double(alpha), (const double *)X.dev, &X.d, (const double *)Y.dev,
                                              &Y.d, double(beta), (double *)A.dev, &A.d, pivot ? P.dev : nullptr,
                                              pivot ? &P.d : nullptr, (double *)B.dev, &B.d, info.dev, batch)
                  : kobalt_sgemm_lu_trsv_desc(tx, ty, float(alpha), (const float *)X.dev, &X.d, (const float *)Y.dev,
                                              &Y.d, float(beta), (float *)A.dev, &A.d, pivot ? P.dev : nullptr,
                                              pivot ? &P.d : nullptr, (float *)B.dev, &B.d, info.dev, batch));
    const std::vector<T> ga = A.down(), gb = B.down();
    const std::vector<int> gp = P.down(), gi = info.down();
    CHECK(A.padding_written(ga) == 0 && B.padding_written(gb) == 0 && P.padding_written(gp) == 0,
          "cells outside the elements written");
    CHECK(pivot || gp == P.h, "ipiv NULL, but the pivot buffer was written");
    for (I q = 0; q < batch; ++q) {
        // reference: the gemm in precision T, then dgetf2
        std::vector<T> a(size_t(n * n));
        const Dense xd = X.dense(X.h, q), yd = Y.dense(Y.h, q);
        for (I j = 0; j < n; ++j)
            for (I i = 0; i < n; ++i) {
                T s = T(0);
                for (I p = 0; p < k; ++p) s += T(op_at(xd, X.d.rows, !nx, i, p)) * T(op_at(yd, Y.d.rows, !ny, p, j));
                a[size_t(i + j * n)] = alpha * s + beta * A.at(q, i, j);
            }
        const Dense Ar(a.begin(), a.end());
        std::vector<int> rp;
        const int rinfo = getf2(n, n, a, rp);
        CHECK(gi[size_t(q)] == rinfo, "item %lld: info %d, reference %d", q, gi[size_t(q)], rinfo);
        std::vector<int> piv(size_t(std::max<I>(n, 1)));
        bool same = true;
        for (I j = 0; j < n; ++j) same &= (piv[size_t(j)] = pivot ? gp[P.pos(q, j, 0)] : j + 1) == rp[size_t(j)];
        CHECK(same, "item %lld: pivots differ from the reference", q);
        if (n == 0) continue;
        // The new A carries the gemm's rounding: scale by max(||Ar||, ||G||), G = |alpha| |op X| |op Y| +
        // |beta| |A0| (a cancelling sum makes ||Ar|| alone far too small a scale).
        Dense G(size_t(n * n), 0.0);
        for (I j = 0; j < n; ++j)
            for (I i = 0; i < n; ++i) {
                double g = 0;
                for (I p = 0; p < k; ++p) g += std::fabs(op_at(xd, X.d.rows, !nx, i, p) * op_at(yd, Y.d.rows, !ny, p, j));
                G[size_t(i + j * n)] = std::fabs(double(alpha)) * g + std::fabs(double(beta) * double(A.at(q, i, j)));
            }
        const double scale = std::max(norm1(Ar, n, n), norm1(G, n, n));
        const double lr = lu_residual(Ar, A.dense(ga, q), n, n, piv.data(), eps<T>() * double(k + 2), scale);
        CHECK(lr < 30, "item %lld: LU residual %g", q, lr);
        if (gi[size_t(q)] != 0) {
            bool untouched = true;
            for (I c = 0; c < nrhs; ++c)
                for (I i = 0; i < n; ++i) untouched &= std::memcmp(&gb[B.pos(q, i, c)], &B.h[B.pos(q, i, c)], sizeof(T)) == 0;
            CHECK(untouched, "item %lld: singular, but B changed", q);
            continue;
        }
        const double sr = solve_residual(Ar, B.dense(gb, q), B.dense(B.h, q), n, nrhs, eps<T>() * double(k + 2), scale);
        CHECK(sr < 30, "item %lld: solve residual %g", q, sr);
    }
}

// ---- pack / unpack -----------------------------------------------------------------------------
template <class T> void case_pack(I rows, I cols, I batch, kobalt_layout layout) {
    std::snprintf(g_case_buf, sizeof g_case_buf, "%spack/unpack rows=%lld cols=%lld batch=%lld", sizeof(T) == 8 ? "d" : "s",
                  rows, cols, batch);
    g_case = g_case_buf;
    const bool col = layout == KOBALT_COL_MAJOR;
    const I lda = (col ? rows : cols) + 1, strideA = lda * (col ? cols : rows) + 2, ldp = batch + 5;
    DBuf<T> A(col ? kobalt_matrix_desc{rows, cols, 1, lda, strideA} : kobalt_matrix_desc{rows, cols, lda, 1, strideA},
              batch);
    DBuf<T> Pk(kobalt_desc_interleaved(rows, cols, ldp), batch);
    A.fill();
    A.up(), Pk.up();
    KOBALT_OK(sizeof(T) == 8 ? kobalt_dpack_interleaved(layout, rows, cols, (const double *)A.dev, lda, strideA,
                                                        (double *)Pk.dev, ldp, batch)
                             : kobalt_spack_interleaved(layout, rows, cols, (const float *)A.dev, lda, strideA,
                                                        (float *)Pk.dev, ldp, batch));
    const std::vector<T> p = Pk.down();
    CHECK(Pk.padding_written(p) == 0, "P: cells outside its elements written");
    long bad = 0;
    for (I q = 0; q < batch; ++q)
        for (I j = 0; j < cols; ++j)
            for (I i = 0; i < rows; ++i) bad += p[Pk.pos(q, i, j)] != A.at(q, i, j);
    CHECK(bad == 0, "pack: %ld wrong element(s)", bad);
    DBuf<T> U(A.d, batch);
    U.up();
    KOBALT_OK(sizeof(T) == 8 ? kobalt_dunpack_interleaved(layout, rows, cols, (const double *)Pk.dev, ldp,
                                                          (double *)U.dev, lda, strideA, batch)
                             : kobalt_sunpack_interleaved(layout, rows, cols, (const float *)Pk.dev, ldp,
                                                          (float *)U.dev, lda, strideA, batch));
    const std::vector<T> u = U.down();
    CHECK(U.padding_written(u) == 0, "A: cells outside its elements written");
    bad = 0;
    for (I q = 0; q < batch; ++q)
        for (I j = 0; j < cols; ++j)
            for (I i = 0; i < rows; ++i) bad += u[U.pos(q, i, j)] != A.at(q, i, j);
    CHECK(bad == 0, "unpack: %ld wrong element(s)", bad);
}

template <class T> void sweep() {
    const I batches[] = {1, 7, 31, 32, 33, 1000};
    for (int il = 1; il >= 0; --il) {
        const std::vector<I> sizes = il ? std::vector<I>{1, 2, 3, 4, 5, 6, 7, 8} : std::vector<I>{0, 1, 3, 8, 9, 17, 33};
        for (I s : sizes)
            for (I b : batches) {
                if (!il && s > 9 && b > 100) continue;
                const I other = il ? 1 + below(8) : 1 + below(12);
                case_gemm<T>(il, s, below(2) ? s : other, below(2) ? s : other, b, false);
                // square items at every size: their own kernels (il_gemm_preload, il_gemm_split_shared)
                case_gemm<T>(il, s, s, s, b, false);
                case_gemm<T>(il, s, 1, below(2) ? s : other, b, true);
                case_trsm<T>(il, s, 1, b, true);
                case_trsm<T>(il, s, other, b, false);
                case_getrf<T>(il, s, s, b, true);
                case_getrf<T>(il, s, below(2) ? s : std::min<I>(other, il ? 8 : 40), b, below(4) != 0);
                case_getrs<T>(il, s, below(3) ? 1 : other, b, below(4) != 0);
                case_fused<T>(il, s, below(2) ? s : other, below(3) ? 1 : 2, b);
                case_fused<T>(il, s, s, below(3) ? 1 : 3, b, false);
            }
    }
    // Batches beyond what the resident threads of the prefetching getrs hold at once (about
    // 42,000 threads on an H200), so each thread walks several items with the next one's loads
    // in flight, and the batch's last items have no next item to fetch (double n = 8 by
    // default, INTERLEAVED_GETRS_PREFETCH_MIN; cuda_desc_split_all: n = 5 and 8, both
    // precisions; cuda_desc_split_none: neither). getrf (two threads per item from
    // INTERLEAVED_GETRF_PAIR_MIN) and the fused call (register-capped kernel up to
    // INTERLEAVED_FUSED_BOUNDED_MAX) at the same batch: their grid-stride loops.
    for (I s : {5, 8}) {
        case_getrf<T>(true, s, s, 100003, true);
        case_getrf<T>(true, s, s, 100003, false);
        case_getrs<T>(true, s, s == 8 ? 1 : 2, 100003, true);
        case_getrs<T>(true, s, 1, 100003, false);
        case_fused<T>(true, s, s, s == 8 ? 1 : 2, 100003);
        case_fused<T>(true, s, s, 1, 100003, false);
    }
    for (I b : {1, 33, 1000})
        for (kobalt_layout l : {KOBALT_COL_MAJOR, KOBALT_ROW_MAJOR}) {
            case_pack<T>(3, 5, b, l);
            case_pack<T>(8, 8, b, l);
        }
}

} // namespace

int main() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        std::printf("no CUDA device: skipped\n");
        return 77;
    }
    bool cuda_backend = false;
    for (int i = 0; i < kobalt_backend_count(); ++i) cuda_backend |= std::strcmp(kobalt_backend_name(i), "cuda") == 0;
    if (!cuda_backend) {
        std::printf("the cuda backend did not load: failing\n");
        return 1;
    }
    sweep<double>();
    sweep<float>();
    std::printf("%ld checks passed, %ld failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
