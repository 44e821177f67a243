// test_cuda_routines.cpp -- every routine on device buffers (cudaMalloc) for s and d, both
// forms, both layouts, every option, against self-contained host references (naive BLAS,
// dgetf2-style LU with LAPACK pivots, getrs). Plain C++ (no cmocka: the GPU machine has
// none). Exits 77 ("no CUDA device: skipped") when no GPU can run, which ctest reports as
// a skip. Argument: "quick" runs a smaller sweep; "huge" adds the > 2^31-element batch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/cuda_check.hpp"
#include "kobalt/kobalt.h"


static std::mt19937_64 rng(12345);
template <class T> T rnd() { return T(std::uniform_real_distribution<double>(-1, 1)(rng)); }

using I = long long;
const kobalt_layout LAYOUTS[2] = {KOBALT_COL_MAJOR, KOBALT_ROW_MAJOR};
static const char *lname(kobalt_layout l) { return l == KOBALT_COL_MAJOR ? "col" : "row"; }

// One batch operand: `batch` items of rows x cols, with ld padding and a gap between
// items, host copy and device copy, and a device pointer array (items in reverse order of
// memory to exercise the indirection).
template <class T> struct Operand {
    I rows = 0, cols = 0, ld = 1, stride = 0, batch = 0;
    kobalt_layout layout = KOBALT_COL_MAJOR;
    std::vector<T> h;
    T *d = nullptr;
    T **dptr = nullptr;
    std::vector<T *> hp;
    Operand() = default;
    Operand(const Operand &) = delete;
    void init(kobalt_layout l, I r, I c, I b, int pad) {
        layout = l;
        rows = r;
        cols = c;
        batch = b;
        const I inner = l == KOBALT_COL_MAJOR ? r : c, outer = l == KOBALT_COL_MAJOR ? c : r;
        ld = std::max<I>(1, inner + pad);
        stride = ld * outer + pad * 3;
        const I n = std::max<I>(1, stride * b);
        h.resize(size_t(n));
        for (auto &v : h) v = rnd<T>();
        CUDA_OK(cudaMalloc(&d, sizeof(T) * size_t(n)));
        upload();
        hp.resize(size_t(b));
        for (I i = 0; i < b; ++i) hp[size_t(i)] = d + i * stride;
        CUDA_OK(cudaMalloc(&dptr, sizeof(T *) * size_t(std::max<I>(b, 1))));
        if (b) CUDA_OK(cudaMemcpy(dptr, hp.data(), sizeof(T *) * size_t(b), cudaMemcpyHostToDevice));
    }
    ~Operand() {
        if (d) cudaFree(d);
        if (dptr) cudaFree(dptr);
    }
    void upload() { CUDA_OK(cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice)); }
    std::vector<T> download() const {
        std::vector<T> o(h.size());
        CUDA_OK(cudaMemcpy(o.data(), d, sizeof(T) * h.size(), cudaMemcpyDeviceToHost));
        return o;
    }
    T &at(std::vector<T> &v, I item, I i, I j) const {
        return v[size_t(item * stride + (layout == KOBALT_COL_MAJOR ? i + j * ld : i * ld + j))];
    }
    T &at(I item, I i, I j) { return at(h, item, i, j); }
    // op(M)(i,j)
    T opat(I item, bool t, I i, I j) { return t ? at(item, j, i) : at(item, i, j); }
};

struct IntBuf {
    std::vector<int> h;
    int *d = nullptr;
    explicit IntBuf(size_t n, int fill = -7) : h(std::max<size_t>(n, 1), fill) {
        CUDA_OK(cudaMalloc(&d, sizeof(int) * h.size()));
        CUDA_OK(cudaMemcpy(d, h.data(), sizeof(int) * h.size(), cudaMemcpyHostToDevice));
    }
    ~IntBuf() { cudaFree(d); }
    std::vector<int> download() const {
        std::vector<int> o(h.size());
        CUDA_OK(cudaMemcpy(o.data(), d, sizeof(int) * h.size(), cudaMemcpyDeviceToHost));
        return o;
    }
};

template <class T> double eps() { return sizeof(T) == 8 ? 2.2e-16 : 1.2e-7; }

// Compares a whole buffer (logical elements within tol * scale, everything else exact:
// padding and gaps must be untouched). NaN equals NaN.
template <class T>
bool same(const std::vector<T> &got, const std::vector<T> &ref, double tol, double *worst = nullptr) {
    double scale = 1;
    for (T v : ref)
        if (std::isfinite(double(v))) scale = std::max(scale, std::fabs(double(v)));
    double w = 0;
    bool ok = true;
    for (size_t i = 0; i < got.size(); ++i) {
        const double g = got[i], r = ref[i];
        if (std::isnan(r) || std::isnan(g)) {
            if (std::isnan(r) != std::isnan(g)) ok = false;
            continue;
        }
        if (std::isinf(r) || std::isinf(g)) {
            if (g != r) ok = false;
            continue;
        }
        w = std::max(w, std::fabs(g - r) / scale);
    }
    if (worst) *worst = w;
    return ok && w <= tol;
}

static void sync_ok(const char *what) {
    const kobalt_status s = kobalt_synchronize();
    CHECK(s == KOBALT_SUCCESS, "%s: kobalt_synchronize: %s %s", what, kobalt_status_name(s), kobalt_last_error());
}

// ---- typed wrappers ---------------------------------------------------------------------
#define KT_DISPATCH(T, fn, ...)                                                                 \
    [&] {                                                                                      \
        if constexpr (sizeof(T) == 8) return kobalt_d##fn(__VA_ARGS__);                        \
        else return kobalt_s##fn(__VA_ARGS__);                                                 \
    }()

// ================================ gemm ==================================================
template <class T>
void test_gemm(kobalt_layout L, bool batched, kobalt_op ta, kobalt_op tb, I m, I n, I k, I batch, T alpha, T beta) {
    const bool tA = ta != KOBALT_NO_TRANS, tB = tb != KOBALT_NO_TRANS;
    Operand<T> A, B, C;
    A.init(L, tA ? k : m, tA ? m : k, batch, int(m % 2));
    B.init(L, tB ? n : k, tB ? k : n, batch, int(n % 3 == 0));
    C.init(L, m, n, batch, 1);
    if (alpha == T(0)) { // must not read A, B
        for (auto &v : A.h) v = NAN;
        for (auto &v : B.h) v = NAN;
        A.upload();
        B.upload();
    }
    if (beta == T(0)) { // must not read C
        for (I b = 0; b < batch; ++b)
            for (I i = 0; i < m; ++i)
                for (I j = 0; j < n; ++j) C.at(b, i, j) = NAN;
        C.upload();
    }
    std::vector<T> ref = C.h;
    for (I b = 0; b < batch; ++b)
        for (I i = 0; i < m; ++i)
            for (I j = 0; j < n; ++j) {
                double acc = 0;
                if (alpha != T(0))
                    for (I p = 0; p < k; ++p) acc += double(A.opat(b, tA, i, p)) * double(B.opat(b, tB, p, j));
                T &c = C.at(ref, b, i, j);
                c = beta == T(0) ? T(alpha * acc) : T(alpha * acc + double(beta) * double(c));
            }
    kobalt_status s;
    if (!batched)
        s = KT_DISPATCH(T, gemm_strided, L, ta, tb, m, n, k, alpha, A.d, A.ld, A.stride, B.d, B.ld, B.stride, beta,
                        C.d, C.ld, C.stride, batch);
    else
        s = KT_DISPATCH(T, gemm_batched, L, ta, tb, m, n, k, alpha, (const T *const *)A.dptr, A.ld,
                        (const T *const *)B.dptr, B.ld, beta, C.dptr, C.ld, batch);
    CHECK(s == KOBALT_SUCCESS, "gemm status %s: %s", kobalt_status_name(s), kobalt_last_error());
    sync_ok("gemm");
    double w;
    CHECK(same(C.download(), ref, 20 * eps<T>() * (k + 2), &w),
          "%cgemm %s %s ta=%d tb=%d m=%lld n=%lld k=%lld batch=%lld alpha=%g beta=%g err=%g", sizeof(T) == 8 ? 'd' : 's',
          batched ? "batched" : "strided", lname(L), ta, tb, m, n, k, batch, double(alpha), double(beta), w);
}

// ================================ gemv ==================================================
template <class T>
void test_gemv(kobalt_layout L, bool batched, kobalt_op tr, I m, I n, I incx, I incy, I batch, T alpha, T beta) {
    const bool t = tr != KOBALT_NO_TRANS;
    const I lx = t ? m : n, ly = t ? n : m;
    Operand<T> A, X, Y;
    A.init(L, m, n, batch, 1);
    // vectors: stored as 1 x (len*|inc|) col-major rows of one
    X.init(KOBALT_COL_MAJOR, 1, std::max<I>(lx, 1) * std::llabs(incx), batch, 0);
    Y.init(KOBALT_COL_MAJOR, 1, std::max<I>(ly, 1) * std::llabs(incy), batch, 0);
    auto xe = [&](std::vector<T> &v, I b, I i) -> T & {
        const I pos = incx > 0 ? i * incx : (lx - 1 - i) * -incx;
        return v[size_t(b * X.stride + pos)];
    };
    auto ye = [&](std::vector<T> &v, I b, I i) -> T & {
        const I pos = incy > 0 ? i * incy : (ly - 1 - i) * -incy;
        return v[size_t(b * Y.stride + pos)];
    };
    if (beta == T(0)) {
        for (I b = 0; b < batch; ++b)
            for (I i = 0; i < ly; ++i) ye(Y.h, b, i) = NAN;
        Y.upload();
    }
    std::vector<T> ref = Y.h;
    if (m > 0 && n > 0)
        for (I b = 0; b < batch; ++b)
            for (I i = 0; i < ly; ++i) {
                double acc = 0;
                for (I j = 0; j < lx; ++j) acc += double(A.opat(b, t, i, j)) * double(xe(X.h, b, j));
                T &y = ye(ref, b, i);
                y = beta == T(0) ? T(alpha * acc) : T(alpha * acc + double(beta) * double(y));
            }
    kobalt_status s;
    if (!batched)
        s = KT_DISPATCH(T, gemv_strided, L, tr, m, n, alpha, A.d, A.ld, A.stride, X.d, incx, X.stride, beta, Y.d, incy,
                        Y.stride, batch);
    else
        s = KT_DISPATCH(T, gemv_batched, L, tr, m, n, alpha, (const T *const *)A.dptr, A.ld, (const T *const *)X.dptr,
                        incx, beta, Y.dptr, incy, batch);
    CHECK(s == KOBALT_SUCCESS, "gemv status %s: %s", kobalt_status_name(s), kobalt_last_error());
    sync_ok("gemv");
    double w;
    CHECK(same(Y.download(), ref, 20 * eps<T>() * (std::max(m, n) + 2), &w),
          "%cgemv %s %s tr=%d m=%lld n=%lld incx=%lld incy=%lld batch=%lld err=%g", sizeof(T) == 8 ? 'd' : 's',
          batched ? "batched" : "strided", lname(L), tr, m, n, incx, incy, batch, w);
}

// Makes item matrices well conditioned triangles: |diag| >= n.
template <class T> void dominant(Operand<T> &A, I n, I batch) {
    for (I b = 0; b < batch; ++b)
        for (I i = 0; i < n; ++i) {
            T &d = A.at(b, i, i);
            d = (d < 0 ? -1 : 1) * (T(n) + std::fabs(d));
        }
    A.upload();
}

// solves op(A) x = b on the host, A's triangle `lower` of the stored matrix
template <class T>
void host_trsv(Operand<T> &A, I b, bool lower, bool t, bool unit, I n, std::vector<double> &x) {
    const bool low = lower != t; // effective
    auto M = [&](I i, I j) { return double(A.opat(b, t, i, j)); };
    if (low)
        for (I i = 0; i < n; ++i) {
            double v = x[size_t(i)];
            for (I j = 0; j < i; ++j) v -= M(i, j) * x[size_t(j)];
            x[size_t(i)] = unit ? v : v / M(i, i);
        }
    else
        for (I i = n - 1; i >= 0; --i) {
            double v = x[size_t(i)];
            for (I j = i + 1; j < n; ++j) v -= M(i, j) * x[size_t(j)];
            x[size_t(i)] = unit ? v : v / M(i, i);
        }
}

// ================================ trsv ==================================================
template <class T>
void test_trsv(kobalt_layout L, bool batched, kobalt_uplo up, kobalt_op tr, kobalt_diag dg, I n, I incx, I batch) {
    Operand<T> A, X;
    A.init(L, n, n, batch, 1);
    dominant(A, n, batch);
    X.init(KOBALT_COL_MAJOR, 1, std::max<I>(n, 1) * std::llabs(incx), batch, 0);
    std::vector<T> ref = X.h;
    for (I b = 0; b < batch; ++b) {
        std::vector<double> x((size_t)n);
        auto pos = [&](I i) { return size_t(b * X.stride + (incx > 0 ? i * incx : (n - 1 - i) * -incx)); };
        for (I i = 0; i < n; ++i) x[size_t(i)] = X.h[pos(i)];
        host_trsv(A, b, up == KOBALT_LOWER, tr != KOBALT_NO_TRANS, dg == KOBALT_UNIT, n, x);
        for (I i = 0; i < n; ++i) ref[pos(i)] = T(x[size_t(i)]);
    }
    kobalt_status s;
    if (!batched)
        s = KT_DISPATCH(T, trsv_strided, L, up, tr, dg, n, A.d, A.ld, A.stride, X.d, incx, X.stride, batch);
    else
        s = KT_DISPATCH(T, trsv_batched, L, up, tr, dg, n, (const T *const *)A.dptr, A.ld, X.dptr, incx, batch);
    CHECK(s == KOBALT_SUCCESS, "trsv status %s: %s", kobalt_status_name(s), kobalt_last_error());
    sync_ok("trsv");
    double w;
    CHECK(same(X.download(), ref, 50 * eps<T>() * (n + 2), &w),
          "%ctrsv %s %s up=%d tr=%d dg=%d n=%lld incx=%lld batch=%lld err=%g", sizeof(T) == 8 ? 'd' : 's',
          batched ? "batched" : "strided", lname(L), up, tr, dg, n, incx, batch, w);
}

// ================================ trsm ==================================================
template <class T>
void test_trsm(kobalt_layout L, bool batched, kobalt_side sd, kobalt_uplo up, kobalt_op tr, kobalt_diag dg, I m, I n,
               I batch, T alpha) {
    const bool left = sd == KOBALT_LEFT, t = tr != KOBALT_NO_TRANS;
    const I na = left ? m : n;
    Operand<T> A, B;
    A.init(L, na, na, batch, 1);
    dominant(A, na, batch);
    B.init(L, m, n, batch, int(m % 2));
    std::vector<T> ref = B.h;
    for (I b = 0; b < batch; ++b) {
        if (left)
            for (I j = 0; j < n; ++j) {
                std::vector<double> x((size_t)m);
                for (I i = 0; i < m; ++i) x[size_t(i)] = double(alpha) * B.at(b, i, j);
                host_trsv(A, b, up == KOBALT_LOWER, t, dg == KOBALT_UNIT, m, x);
                for (I i = 0; i < m; ++i) B.at(ref, b, i, j) = T(x[size_t(i)]);
            }
        else // x op(A) = alpha b  <=> op(A)^T x^T = alpha b^T
            for (I i = 0; i < m; ++i) {
                std::vector<double> x((size_t)n);
                for (I j = 0; j < n; ++j) x[size_t(j)] = double(alpha) * B.at(b, i, j);
                host_trsv(A, b, up == KOBALT_LOWER, !t, dg == KOBALT_UNIT, n, x);
                for (I j = 0; j < n; ++j) B.at(ref, b, i, j) = T(x[size_t(j)]);
            }
    }
    kobalt_status s;
    if (!batched)
        s = KT_DISPATCH(T, trsm_strided, L, sd, up, tr, dg, m, n, alpha, A.d, A.ld, A.stride, B.d, B.ld, B.stride,
                        batch);
    else
        s = KT_DISPATCH(T, trsm_batched, L, sd, up, tr, dg, m, n, alpha, (const T *const *)A.dptr, A.ld, B.dptr, B.ld,
                        batch);
    CHECK(s == KOBALT_SUCCESS, "trsm status %s: %s", kobalt_status_name(s), kobalt_last_error());
    sync_ok("trsm");
    double w;
    CHECK(same(B.download(), ref, 50 * eps<T>() * (na + 2), &w),
          "%ctrsm %s %s sd=%d up=%d tr=%d dg=%d m=%lld n=%lld batch=%lld err=%g", sizeof(T) == 8 ? 'd' : 's',
          batched ? "batched" : "strided", lname(L), sd, up, tr, dg, m, n, batch, w);
}

// ================================ LU reference ===========================================
template <class T> int host_getrf(Operand<T> &A, std::vector<T> &v, I b, I m, I n, int *ipiv) {
    const I kmin = std::min(m, n);
    int info = 0;
    for (I j = 0; j < kmin; ++j) {
        if (ipiv) {
            I p = j;
            T amax = std::fabs(A.at(v, b, j, j));
            for (I i = j + 1; i < m; ++i)
                if (std::fabs(A.at(v, b, i, j)) > amax) {
                    amax = std::fabs(A.at(v, b, i, j));
                    p = i;
                }
            ipiv[j] = int(p + 1);
            const T piv = A.at(v, b, p, j);
            if (piv != T(0)) {
                if (p != j)
                    for (I c = 0; c < n; ++c) std::swap(A.at(v, b, j, c), A.at(v, b, p, c));
                for (I i = j + 1; i < m; ++i) A.at(v, b, i, j) /= piv;
            } else if (!info)
                info = int(j + 1);
        } else {
            const T piv = A.at(v, b, j, j);
            for (I i = j + 1; i < m; ++i) A.at(v, b, i, j) /= piv;
        }
        for (I c = j + 1; c < n; ++c)
            for (I i = j + 1; i < m; ++i) A.at(v, b, i, c) -= A.at(v, b, i, j) * A.at(v, b, j, c);
    }
    if (!ipiv)
        for (I j = 0; j < kmin; ++j)
            if (A.at(v, b, j, j) == T(0)) return int(j + 1);
    return info;
}
// B = op(LU)^{-1} B for one item, factors in Av
template <class T>
void host_getrs(Operand<T> &A, std::vector<T> &Av, I ab, bool t, I n, I nrhs, const int *ipiv, Operand<T> &B,
                std::vector<T> &Bv, I bb) {
    auto LU = [&](I i, I j) { return double(A.at(Av, ab, i, j)); };
    for (I c = 0; c < nrhs; ++c) {
        std::vector<double> x((size_t)n);
        for (I i = 0; i < n; ++i) x[size_t(i)] = B.at(Bv, bb, i, c);
        if (!t) {
            if (ipiv)
                for (I k = 0; k < n; ++k) std::swap(x[size_t(k)], x[size_t(ipiv[k] - 1)]);
            for (I i = 0; i < n; ++i)
                for (I j = 0; j < i; ++j) x[size_t(i)] -= LU(i, j) * x[size_t(j)];
            for (I i = n - 1; i >= 0; --i) {
                for (I j = i + 1; j < n; ++j) x[size_t(i)] -= LU(i, j) * x[size_t(j)];
                x[size_t(i)] /= LU(i, i);
            }
        } else {
            for (I i = 0; i < n; ++i) {
                for (I j = 0; j < i; ++j) x[size_t(i)] -= LU(j, i) * x[size_t(j)];
                x[size_t(i)] /= LU(i, i);
            }
            for (I i = n - 1; i >= 0; --i)
                for (I j = i + 1; j < n; ++j) x[size_t(i)] -= LU(j, i) * x[size_t(j)];
            if (ipiv)
                for (I k = n - 1; k >= 0; --k) std::swap(x[size_t(k)], x[size_t(ipiv[k] - 1)]);
        }
        for (I i = 0; i < n; ++i) B.at(Bv, bb, i, c) = T(x[size_t(i)]);
    }
}

// ================================ getrf =================================================
template <class T>
void test_getrf(kobalt_layout L, bool batched, bool pivot, I m, I n, I batch, bool ties = false,
                bool zero_cols = false) {
    Operand<T> A;
    A.init(L, m, n, batch, 1);
    const I kmin = std::min(m, n);
    if (!pivot) dominant(A, kmin, batch);
    // special items: 1 singular (zero column 0), 2 with a NaN
    if (batch > 1 && kmin > 0 && pivot)
        for (I i = 0; i < m; ++i) A.at(1, i, 0) = 0;
    if (batch > 2 && kmin > 1) A.at(2, m - 1, n - 1) = NAN;
    // exact ties of |a| in column 0 (the first, -3 at row m/3, must win over 3 further down),
    // and values equal in their high 32 bits (the later, larger one must win): the pivot
    // search compares the bits of |a| in pieces on the GPU (lu_bcast.cuh). Only where asked:
    // the cuBLAS path's pivots on ties are not checked against dgetf2 (its check redoes
    // singular and non-finite items only)
    if (ties && pivot && m >= 3 && kmin > 0) {
        const I r1 = m / 3, r2 = m - 1;
        if (batch > 3) {
            A.at(3, r1, 0) = T(-3);
            A.at(3, r2, 0) = T(3);
        }
        if (batch > 4) {
            A.at(4, r1, 0) = T(3);
            A.at(4, r2, 0) = std::nextafter(T(3), T(4));
        }
    }
    // items 5 and 6 (pivoted, when ties are asked for and zero_cols is not): entries in
    // {-2, ..., 2}, so that |a| ties exactly at many steps and between rows whose logical
    // order no longer matches their lanes (after interchanges), and pivots may be zero
    if (ties && pivot && !zero_cols)
        for (I b = 5; b < std::min<I>(batch, 7); ++b) {
            unsigned r = 2654435761u * unsigned(b + 1);
            for (I j = 0; j < n; ++j)
                for (I i = 0; i < m; ++i) {
                    r = r * 1103515245u + 12345u;
                    A.at(b, i, j) = T(int((r >> 16) % 5u) - 2);
                }
        }
    // items 5, 6, ...: column 5 q + 1 zero (it stays zero until its step), so their info
    // differs item by item (q * 5 + 2 where no earlier pivot is zero)
    if (zero_cols && pivot)
        for (I q = 0; 5 + q < batch && 5 * q + 1 < kmin; ++q)
            for (I i = 0; i < m; ++i) A.at(5 + q, i, 5 * q + 1) = 0;
    if (batch > 1) A.upload();
    const I sp = kmin + 2;
    IntBuf ipiv(size_t(sp * batch)), info(size_t(batch), -9);
    std::vector<T> ref = A.h;
    std::vector<int> rpiv = ipiv.h, rinfo((size_t)batch);
    for (I b = 0; b < batch; ++b)
        rinfo[size_t(b)] = host_getrf(A, ref, b, m, n, pivot ? rpiv.data() + b * sp : nullptr);
    kobalt_status s;
    if (!batched)
        s = KT_DISPATCH(T, getrf_strided, L, m, n, A.d, A.ld, A.stride, pivot ? ipiv.d : nullptr, sp, info.d, batch);
    else
        s = KT_DISPATCH(T, getrf_batched, L, m, n, A.dptr, A.ld, pivot ? ipiv.d : nullptr, sp, info.d, batch);
    CHECK(s == KOBALT_SUCCESS, "getrf status %s: %s", kobalt_status_name(s), kobalt_last_error());
    sync_ok("getrf");
    double w;
    const char P = sizeof(T) == 8 ? 'd' : 's';
    std::vector<int> gi = info.download();
    gi.resize(size_t(batch));
    CHECK(gi == rinfo, "%cgetrf %s %s info differs m=%lld n=%lld batch=%lld", P, batched ? "batched" : "strided",
          lname(L), m, n, batch);
    if (pivot) CHECK(ipiv.download() == rpiv, "%cgetrf %s %s ipiv differs m=%lld n=%lld batch=%lld", P,
                     batched ? "batched" : "strided", lname(L), m, n, batch);
    CHECK(same(A.download(), ref, 200 * eps<T>() * (kmin + 2), &w),
          "%cgetrf %s %s piv=%d m=%lld n=%lld batch=%lld err=%g", P, batched ? "batched" : "strided", lname(L), pivot, m,
          n, batch, w);
}

// ================================ getrs =================================================
template <class T>
void test_getrs(kobalt_layout L, bool batched, kobalt_op tr, bool pivot, I n, I nrhs, I batch, int padA = 1) {
    Operand<T> A, B;
    A.init(L, n, n, batch, padA);
    if (!pivot) dominant(A, n, batch);
    const I sp = n + 1;
    std::vector<int> piv(size_t(std::max<I>(sp * batch, 1)), 1);
    for (I b = 0; b < batch; ++b) host_getrf(A, A.h, b, n, n, pivot ? piv.data() + b * sp : nullptr);
    A.upload();
    IntBuf ipiv(piv.size());
    CUDA_OK(cudaMemcpy(ipiv.d, piv.data(), sizeof(int) * piv.size(), cudaMemcpyHostToDevice));
    B.init(L, n, nrhs, batch, 1);
    std::vector<T> ref = B.h;
    for (I b = 0; b < batch; ++b)
        host_getrs(A, A.h, b, tr != KOBALT_NO_TRANS, n, nrhs, pivot ? piv.data() + b * sp : nullptr, B, ref, b);
    kobalt_status s;
    if (!batched)
        s = KT_DISPATCH(T, getrs_strided, L, tr, n, nrhs, A.d, A.ld, A.stride, pivot ? ipiv.d : nullptr, sp, B.d, B.ld,
                        B.stride, batch);
    else
        s = KT_DISPATCH(T, getrs_batched, L, tr, n, nrhs, (const T *const *)A.dptr, A.ld, pivot ? ipiv.d : nullptr, sp,
                        B.dptr, B.ld, batch);
    CHECK(s == KOBALT_SUCCESS, "getrs status %s: %s", kobalt_status_name(s), kobalt_last_error());
    sync_ok("getrs");
    double w;
    CHECK(same(B.download(), ref, 1e4 * eps<T>() * (n + 2), &w), "%cgetrs %s %s tr=%d piv=%d n=%lld nrhs=%lld batch=%lld err=%g",
          sizeof(T) == 8 ? 'd' : 's', batched ? "batched" : "strided", lname(L), tr, pivot, n, nrhs, batch, w);
}

// ================================ fused =================================================
template <class T>
void test_fused(kobalt_layout L, bool batched, kobalt_op tx, kobalt_op ty, bool pivot, I n, I k, I nrhs, I batch,
                T alpha, T beta, int pad = 1) {
    const bool tX = tx != KOBALT_NO_TRANS, tY = ty != KOBALT_NO_TRANS;
    Operand<T> X, Y, A, B;
    X.init(L, tX ? k : n, tX ? n : k, batch, pad);
    Y.init(L, tY ? n : k, tY ? k : n, batch, 0);
    A.init(L, n, n, batch, pad);
    B.init(L, n, nrhs, batch, pad);
    if (beta == T(0)) {
        for (I b = 0; b < batch; ++b)
            for (I i = 0; i < n; ++i)
                for (I j = 0; j < n; ++j) A.at(b, i, j) = NAN;
        A.upload();
    } else if (!pivot)
        dominant(A, n, batch);
    // item 1: X = 0 and A = 0 column -> singular (info > 0, B untouched); with beta = 0,
    // X = 0 alone (M = 0; A stays NaN-poisoned: it must not be read, also not when the
    // vendor path recomputes the failed item from X and Y)
    if (batch > 1 && (beta != T(0) || pivot)) {
        for (I i = 0; i < (tX ? k : n); ++i)
            for (I j = 0; j < (tX ? n : k); ++j) X.at(1, i, j) = 0;
        if (beta != T(0))
            for (I i = 0; i < n; ++i) A.at(1, i, 0) = 0;
        X.upload();
        A.upload();
    }
    const I sp = n + 1;
    IntBuf ipiv(size_t(sp * batch)), info(size_t(batch), -9);
    std::vector<T> refA = A.h, refB = B.h;
    Operand<T> &gemmA = A; // A's geometry; gemmA.h (a copy below) holds op(X) op(Y) products
    std::vector<T> keepA = A.h;
    std::vector<int> rpiv = ipiv.h, rinfo((size_t)batch);
    // |alpha| |op(X)| |op(Y)| + |beta| |A|: the scale of M's rounding errors. M is known only
    // to eps times this (a cancelling product is near 0 while its terms are not), so the
    // residual below is scaled by it rather than by |M|.
    std::vector<double> absM(size_t(batch * n * n), 0.0);
    for (I b = 0; b < batch; ++b) {
        for (I i = 0; i < n; ++i)
            for (I j = 0; j < n; ++j) {
                double acc = 0, absacc = 0;
                for (I p = 0; p < k && alpha != T(0); ++p) {
                    acc += double(X.opat(b, tX, i, p)) * double(Y.opat(b, tY, p, j));
                    absacc += std::fabs(double(X.opat(b, tX, i, p)) * double(Y.opat(b, tY, p, j)));
                }
                T &a = A.at(refA, b, i, j);
                absM[size_t((b * n + i) * n + j)] =
                    std::fabs(double(alpha)) * absacc + (beta == T(0) ? 0.0 : std::fabs(double(beta) * double(a)));
                a = beta == T(0) ? T(alpha * acc) : T(alpha * acc + double(beta) * double(a));
            }
        int *pv = pivot ? rpiv.data() + b * sp : nullptr;
        for (I i = 0; i < n; ++i)
            for (I j = 0; j < n; ++j) gemmA.at(gemmA.h, b, i, j) = A.at(refA, b, i, j);
        rinfo[size_t(b)] = host_getrf(A, refA, b, n, n, pv);
        if (rinfo[size_t(b)] == 0) host_getrs(A, refA, b, false, n, nrhs, pv, B, refB, b);
    }
    kobalt_status s;
    if (!batched)
        s = KT_DISPATCH(T, gemm_lu_trsv_strided, L, tx, ty, n, k, nrhs, alpha, X.d, X.ld, X.stride, Y.d, Y.ld, Y.stride,
                        beta, A.d, A.ld, A.stride, pivot ? ipiv.d : nullptr, sp, B.d, B.ld, B.stride, info.d, batch);
    else
        s = KT_DISPATCH(T, gemm_lu_trsv_batched, L, tx, ty, n, k, nrhs, alpha, (const T *const *)X.dptr, X.ld,
                        (const T *const *)Y.dptr, Y.ld, beta, A.dptr, A.ld, pivot ? ipiv.d : nullptr, sp, B.dptr, B.ld,
                        info.d, batch);
    CHECK(s == KOBALT_SUCCESS, "fused status %s: %s", kobalt_status_name(s), kobalt_last_error());
    sync_ok("fused");
    const char P = sizeof(T) == 8 ? 'd' : 's';
    std::vector<int> gi = info.download();
    gi.resize(size_t(batch));
    CHECK(gi == rinfo, "%cgemm_lu_trsv info differs n=%lld", P, n);
    if (pivot) CHECK(ipiv.download() == rpiv, "%cgemm_lu_trsv %s %s ipiv differs n=%lld k=%lld", P,
                     batched ? "batched" : "strided", lname(L), n, k);
    // B: a scaled residual ||M x - b|| / (n eps ||absM|| ||x||) <= 100 against the reconstructed
    // M = alpha op(X) op(Y) + beta A for items with info == 0 (whose logical elements are
    // then set to the reference's), everything else (failed items, padding, gaps) exact.
    std::vector<T> gotB = B.download(), prod = A.h;
    A.h = keepA;
    double worst_ratio = 0;
    for (I b = 0; b < batch; ++b) {
        if (rinfo[size_t(b)] != 0) continue;
        double anorm = 0;
        for (I i = 0; i < n; ++i) {
            double r = 0;
            for (I j = 0; j < n; ++j)
                r += std::max(std::fabs(double(A.at(prod, b, i, j))), absM[size_t((b * n + i) * n + j)]);
            anorm = std::max(anorm, r);
        }
        for (I c = 0; c < nrhs; ++c) {
            double xn = 0, rn = 0;
            for (I i = 0; i < n; ++i) xn = std::max(xn, std::fabs(double(B.at(gotB, b, i, c))));
            for (I i = 0; i < n; ++i) {
                double r = -double(B.at(B.h, b, i, c));
                for (I j = 0; j < n; ++j) r += double(A.at(prod, b, i, j)) * double(B.at(gotB, b, j, c));
                rn = std::max(rn, std::fabs(r));
            }
            const double ratio = rn / (double(n) * eps<T>() * anorm * xn + 1e-300);
            worst_ratio = std::isnan(ratio) || std::isnan(xn) ? 1e300 : std::max(worst_ratio, ratio);
            for (I i = 0; i < n; ++i) B.at(gotB, b, i, c) = B.at(refB, b, i, c);
        }
    }
    double w1, w2;
    CHECK(same(A.download(), refA, 500 * eps<T>() * (n + k + 2), &w1) && worst_ratio <= 100 &&
              same(gotB, refB, 0, &w2),
          "%cgemm_lu_trsv %s %s tx=%d ty=%d piv=%d n=%lld k=%lld nrhs=%lld batch=%lld errA=%g residual=%g errB=%g", P,
          batched ? "batched" : "strided", lname(L), tx, ty, pivot, n, k, nrhs, batch, w1, worst_ratio, w2);
}

// ================================ drivers ===============================================
const kobalt_op OPS[3] = {KOBALT_NO_TRANS, KOBALT_TRANS, KOBALT_CONJ_TRANS};

template <class T> void sweep(const std::vector<I> &sizes, I batch, bool full_options) {
    for (kobalt_layout L : LAYOUTS)
        for (int f = 0; f < 2; ++f) {
            const bool bat = f == 1;
            for (I n : sizes) {
                const I m = n, k = (n % 3) + n / 2;
                for (int a = 0; a < 3; ++a)
                    for (int b = 0; b < 3; ++b) {
                        if (!full_options && (a == 2 || b == 2)) continue;
                        test_gemm<T>(L, bat, OPS[a], OPS[b], m, n + (n % 2), k, batch, T(1.5), T(-0.5));
                    }
                if (full_options) {
                    test_gemm<T>(L, bat, KOBALT_NO_TRANS, KOBALT_TRANS, m, n, k, batch, T(0), T(2));
                    test_gemm<T>(L, bat, KOBALT_TRANS, KOBALT_NO_TRANS, m, n, k, batch, T(0.5), T(0));
                    test_gemm<T>(L, bat, KOBALT_NO_TRANS, KOBALT_NO_TRANS, m, n, 0, batch, T(1), T(3));
                }
                for (int a = 0; a < 3; ++a) {
                    if (!full_options && a == 2) continue;
                    test_gemv<T>(L, bat, OPS[a], n, n + 1, 1, 1, batch, T(1), T(0.5));
                    if (full_options) {
                        test_gemv<T>(L, bat, OPS[a], n + 2, n, -2, 3, batch, T(-1), T(0));
                        // positive increments (the cuBLAS path above GEMV_SMALL_MAX): beta = -0
                        // must not read the NaN-poisoned y
                        test_gemv<T>(L, bat, OPS[a], n + 2, n, 2, 3, batch, T(-1), T(-0.0));
                        test_gemv<T>(L, bat, OPS[a], n, n, 2, -1, batch, T(0), T(2));
                    }
                }
                for (kobalt_uplo up : {KOBALT_UPPER, KOBALT_LOWER})
                    for (int a = 0; a < 3; ++a)
                        for (kobalt_diag dg : {KOBALT_NON_UNIT, KOBALT_UNIT}) {
                            if (!full_options && (a == 2 || dg == KOBALT_UNIT)) continue;
                            test_trsv<T>(L, bat, up, OPS[a], dg, n, (a == 1 ? -2 : 1), batch);
                            for (kobalt_side sd : {KOBALT_LEFT, KOBALT_RIGHT})
                                test_trsm<T>(L, bat, sd, up, OPS[a], dg, n, n / 2 + 1, batch, a == 0 ? T(1) : T(-0.75));
                        }
                if (full_options) test_trsm<T>(L, bat, KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, n, 3, batch, T(0));
                for (bool piv : {true, false}) {
                    test_getrf<T>(L, bat, piv, n, n, batch);
                    if (full_options) {
                        test_getrf<T>(L, bat, piv, n + 3, n, batch);
                        test_getrf<T>(L, bat, piv, n, n / 2, batch);
                    }
                    for (int a = 0; a < 3; ++a) {
                        if (!full_options && a == 2) continue;
                        test_getrs<T>(L, bat, OPS[a], piv, n, 1 + n % 4, batch);
                    }
                    test_fused<T>(L, bat, KOBALT_NO_TRANS, KOBALT_NO_TRANS, piv, n, n, 1, batch, T(1), T(1));
                    if (full_options) {
                        // beta = 0: A = alpha X^T Y must have full rank (k >= n); without
                        // pivoting such an A is not diagonally dominant, so only pivoted.
                        if (piv) test_fused<T>(L, bat, KOBALT_TRANS, KOBALT_NO_TRANS, piv, n, n + 1, 2, batch, T(0.5), T(0));
                        test_fused<T>(L, bat, KOBALT_NO_TRANS, KOBALT_CONJ_TRANS, piv, n, 3, 0, batch, T(1), T(1));
                    }
                }
            }
        }
}

// Mixed host/device pointers -> KOBALT_INVALID_ARGUMENT.
static void test_mixed() {
    double *d = nullptr;
    CUDA_OK(cudaMalloc(&d, sizeof(double) * 64));
    std::vector<double> h(64, 1.0);
    kobalt_status s = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 4, 4, 4, 1.0, d, 4, 16,
                                           h.data(), 4, 16, 0.0, d + 32, 4, 16, 1);
    CHECK(s == KOBALT_INVALID_ARGUMENT, "mixed pointers gave %s", kobalt_status_name(s));
    CHECK(std::strstr(kobalt_last_error(), "memory spaces") != nullptr, "message: %s", kobalt_last_error());
    cudaFree(d);
}

// A user stream: the call queues on it and returns; kobalt_synchronize waits.
static void test_stream() {
    cudaStream_t st;
    CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    kobalt_set_cuda_stream(st);
    CHECK(kobalt_get_cuda_stream() == (void *)st, "stream not kept");
    test_fused<double>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, 6, 6, 2, 20000, 1.0, 1.0);
    test_gemm<float>(KOBALT_ROW_MAJOR, true, KOBALT_TRANS, KOBALT_NO_TRANS, 40, 40, 40, 5, 1.f, 1.f);
    kobalt_set_cuda_stream(nullptr);
    cudaStreamDestroy(st);
}

// > 2^31 elements in one batch: sgetrf on n = 2 items (4 floats each) over 600M items,
// then sgemm strided on the same buffer; checks a sample of items at the far end.
static void test_huge() {
    const I n = 2, items = 600000000LL, sz = n * n; // 2.4e9 elements, 9.6 GB
    float *A = nullptr;
    int *ipiv = nullptr, *info = nullptr;
    if (cudaMalloc(&A, sizeof(float) * size_t(items * sz)) != cudaSuccess ||
        cudaMalloc(&ipiv, sizeof(int) * size_t(items * n)) != cudaSuccess ||
        cudaMalloc(&info, sizeof(int) * size_t(items)) != cudaSuccess) {
        std::printf("huge: not enough device memory, skipped\n");
        cudaGetLastError();
        return;
    }
    // A_i = [[1, 2], [3, 4]] col-major ([1,3] first column): pivots [2,2], U = [[3,4],[0,2/3]]
    std::vector<float> one = {1, 3, 2, 4};
    std::vector<float> chunk(size_t(sz) * 1000000);
    for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = one[i % 4];
    for (I c = 0; c < items; c += 1000000)
        CUDA_OK(cudaMemcpy(A + c * sz, chunk.data(), sizeof(float) * chunk.size(), cudaMemcpyHostToDevice));
    kobalt_status s = kobalt_sgetrf_strided(KOBALT_COL_MAJOR, n, n, A, n, sz, ipiv, n, info, items);
    CHECK(s == KOBALT_SUCCESS, "huge getrf: %s", kobalt_last_error());
    sync_ok("huge getrf");
    for (I item : {I(0), I(536870911), I(536870912), items - 1}) {
        float a[4];
        int p[2], inf;
        CUDA_OK(cudaMemcpy(a, A + item * sz, sizeof a, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(p, ipiv + item * n, sizeof p, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(&inf, info + item, sizeof inf, cudaMemcpyDeviceToHost));
        CHECK(inf == 0 && p[0] == 2 && p[1] == 2 && a[0] == 3 && std::fabs(a[1] - 1.f / 3) < 1e-6f && a[2] == 4 &&
                  std::fabs(a[3] - (2 - 4.f / 3)) < 1e-6f,
              "huge getrf item %lld: %g %g %g %g piv %d %d info %d", item, a[0], a[1], a[2], a[3], p[0], p[1], inf);
    }
    // C_i = 2 * A_i * I  written over the first half by gemm with B = identity batch-broadcast (strideB 0)
    float *Bid = nullptr;
    CUDA_OK(cudaMalloc(&Bid, sizeof(float) * 4));
    float id[4] = {1, 0, 0, 1};
    CUDA_OK(cudaMemcpy(Bid, id, sizeof id, cudaMemcpyHostToDevice));
    s = kobalt_sgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2, 2, 2, 2.f, A, 2, sz, Bid, 2, 0,
                             0.f, A, 2, sz, items);
    CHECK(s == KOBALT_SUCCESS, "huge gemm: %s", kobalt_last_error());
    sync_ok("huge gemm");
    float a[4];
    CUDA_OK(cudaMemcpy(a, A + (items - 1) * sz, sizeof a, cudaMemcpyDeviceToHost));
    CHECK(a[0] == 6 && a[2] == 8, "huge gemm last item %g %g", a[0], a[2]);
    cudaFree(Bid);
    cudaFree(A);
    cudaFree(ipiv);
    cudaFree(info);
}

int main(int argc, char **argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        std::printf("no CUDA device: skipped\n");
        return 77;
    }
    bool cuda_backend = false;
    for (int i = 0; i < kobalt_backend_count(); ++i)
        if (std::strcmp(kobalt_backend_name(i), "cuda") == 0) cuda_backend = true;
    if (!cuda_backend) {
        std::printf("FAIL: a CUDA device is present but the cuda backend did not load (KOBALT_VERBOSE=1 says why)\n");
        return 1;
    }
    const std::string mode = argc > 1 ? argv[1] : "full";
    if (mode == "huge") {
        test_huge();
    } else if (mode == "getrf") {
        // getrf alone over the group kernels' sizes (run with GETRF_BCAST_MIN = 1 and 0 so
        // that both kernels see every size), batch 7: singular, NaN and tie items
        for (kobalt_layout L : LAYOUTS)
            for (int f = 0; f < 2; ++f)
                // the full-item kernel holds n rounded up to 4 columns below its width (12;
                // 20, 24, 28): both ends of each
                for (I n : {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 15, 16, 17, 20, 21, 24, 25, 28, 29, 31, 32})
                    for (bool piv : {true, false}) {
                        test_getrf<double>(L, f == 1, piv, n, n, 7, true);
                        test_getrf<float>(L, f == 1, piv, n, n, 7, true);
                        test_getrf<double>(L, f == 1, piv, n, std::max<I>(1, n / 2), 7, true);
                        test_getrf<float>(L, f == 1, piv, std::max<I>(1, n / 2), n, 7, true);
                    }
        for (I n : {8, 16, 32}) {
            test_getrf<double>(KOBALT_COL_MAJOR, false, true, n, n, 3001, true);
            test_getrf<float>(KOBALT_ROW_MAJOR, true, true, n, n, 3001, true);
        }
        // enough items that every warp of lu_full.cuh's resident grid walks several of
        // them (its prefetch of the next item), and lu_warp.cu's warps several groups of 32,
        // with and without pivoting
        for (I n : {4, 8, 16, 32}) {
            test_getrf<double>(KOBALT_COL_MAJOR, false, true, n, n, 40001, true);
            test_getrf<double>(KOBALT_ROW_MAJOR, true, false, n, n, 40001, true);
            test_getrf<float>(KOBALT_COL_MAJOR, true, true, n, n, 40001, true);
        }
    } else if (mode == "getrf_block") {
        // square pivoted getrf above the group kernels (lu_block.cuh on one block per item,
        // or cuBLAS with its check where GETRF_BLOCK_MAX is 0 or the size does not fit; the
        // ties are checked only with argument "ties", the cuBLAS path's pivots on ties
        // differing from dgetf2): both layouts and forms, singular, NaN and tie items, and
        // items whose info differs (zero columns); sizes on both sides of each register
        // shape (32 rows a lane); 1 .. 32 reach it with GETRF_SMALL_MAX = 0. Then the
        // fused call, which runs this getrf above GEMM_LU_TRSV_SMALL_MAX.
        const bool ties = argc > 2 && std::string(argv[2]) == "ties";
        for (kobalt_layout L : LAYOUTS)
            for (int f = 0; f < 2; ++f)
                for (I n : {1, 5, 17, 32, 33, 47, 64, 65, 100, 128}) {
                    test_getrf<double>(L, f == 1, true, n, n, 12, ties, true);
                    test_getrf<float>(L, f == 1, true, n, n, 12, ties, true);
                }
        for (kobalt_layout L : LAYOUTS)
            for (I n : {129, 160, 192}) {
                test_getrf<float>(L, false, true, n, n, 12, ties, true);
                test_getrf<double>(L, true, true, n, n, 3, false, true); // above the kernel's sizes: cuBLAS
            }
        // several items per block (the grid is the resident blocks)
        test_getrf<double>(KOBALT_COL_MAJOR, false, true, 64, 64, 3001, ties, true);
        test_getrf<double>(KOBALT_ROW_MAJOR, true, true, 128, 128, 1001, ties, true);
        test_getrf<float>(KOBALT_COL_MAJOR, true, true, 100, 100, 1001, ties, true);
        for (I n : {33, 64, 100, 128})
            for (kobalt_layout L : LAYOUTS) {
                test_fused<double>(L, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 2, 7, 1.0, 1.0);
                test_fused<double>(L, true, KOBALT_TRANS, KOBALT_NO_TRANS, true, n, n + 1, 1, 7, 0.5, 0.0);
                test_fused<float>(L, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 1, 7, 1.f, 1.f);
                test_fused<float>(L, true, KOBALT_TRANS, KOBALT_NO_TRANS, true, n, n + 1, 2, 7, 0.5f, 0.f);
            }
    } else if (mode == "getrs") {
        // getrs alone around the warp-staged kernel (getrs_warp.cu: nrhs 1, n <= 8, any layout,
        // transpose and precision; the defaults), the one-thread pipe kernel (getrs_pipe.cuh:
        // double, column-major, NoTrans, nrhs 1, n <= 8) and the prefetching row kernel
        // (getrs_rows.cuh: the same cases up to n = 32); run with GETRS_WARP_MAX = 0 and
        // GETRS_PIPE_MIN = 1 / 0 and GETRS_PREFETCH_MIN = 1 / 0
        // so that they and the group kernel see every size): both forms, pivoted and not, ld
        // padding and gaps (Operand), batches that end inside a 32-item chunk or a block's
        // groups, and 70,001 items so that every warp walks several chunks or items (the
        // prefetch of the next one runs); the cases next to them (trans, nrhs 2, row-major,
        // float) must take the other kernels unchanged.
        for (int f = 0; f < 2; ++f)
            // the row kernel holds n rounded up to 4 columns from n = 9 (12, 16, 20, 24, 28, 32):
            // sizes at both ends of each
            for (I n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 15, 16, 17, 20, 21, 24, 25, 28, 29, 31, 32})
                for (bool piv : {true, false}) {
                    // A padded by 1 (lda = n + 1: 8-byte pieces), packed (lda = n, stride n*n) and
                    // padded by 2: 16-byte pieces on the strided form at even n
                    for (I batch : {1, 33, 3001})
                        for (int pad : {1, 0, 2})
                            test_getrs<double>(KOBALT_COL_MAJOR, f == 1, KOBALT_NO_TRANS, piv, n, 1, batch, pad);
                    test_getrs<double>(KOBALT_COL_MAJOR, f == 1, KOBALT_TRANS, piv, n, 1, 33);
                    test_getrs<double>(KOBALT_COL_MAJOR, f == 1, KOBALT_NO_TRANS, piv, n, 2, 33);
                    test_getrs<double>(KOBALT_ROW_MAJOR, f == 1, KOBALT_NO_TRANS, piv, n, 1, 33);
                    test_getrs<float>(KOBALT_COL_MAJOR, f == 1, KOBALT_NO_TRANS, piv, n, 1, 33);
                    // the rest of the warp-staged kernel's cases (getrs_warp.cu: nrhs 1, any
                    // layout, transpose and precision)
                    test_getrs<double>(KOBALT_ROW_MAJOR, f == 1, KOBALT_TRANS, piv, n, 1, 37);
                    test_getrs<float>(KOBALT_ROW_MAJOR, f == 1, KOBALT_CONJ_TRANS, piv, n, 1, 37, 0);
                    test_getrs<float>(KOBALT_COL_MAJOR, f == 1, KOBALT_TRANS, piv, n, 1, 5);
                }
        for (I n : {2, 7}) {
            test_getrs<double>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, true, n, 1, 300001, 0);
            test_getrs<float>(KOBALT_ROW_MAJOR, true, KOBALT_TRANS, true, n, 1, 300001);
        }
        for (I n : {3, 4, 5, 6, 8, 12, 16, 20, 24, 28, 32}) {
            test_getrs<double>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, true, n, 1, 70001, 0);
            test_getrs<double>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, true, n, 1, 70001);
            test_getrs<double>(KOBALT_COL_MAJOR, true, KOBALT_NO_TRANS, true, n, 1, 70001);
        }
    } else if (mode == "fused") {
        // the fused call at n <= 8 with k == n and nrhs == 1 (fused_warp.cu; run also with
        // FUSED_WARP_MAX = 0 for the group kernel and WARP_STAGE_BUFFERS = 2): every op pair,
        // both layouts and forms, pivoted and not, beta 0 (A NaN-poisoned: must not be read)
        // and 1, alpha 0, padded and packed operands, a singular item (item 1: info > 0, B
        // untouched), batches ending inside a warp's group of 32, and enough items that each
        // warp walks several groups (the next group's copies in flight with two slices)
        for (kobalt_layout L : LAYOUTS)
            for (int f = 0; f < 2; ++f)
                for (I n = 1; n <= 8; ++n) {
                    for (int a = 0; a < 3; ++a)
                        for (int b = 0; b < 3; ++b) {
                            test_fused<double>(L, f == 1, OPS[a], OPS[b], true, n, n, 1, 37, 1.0, 1.0, (a + b) % 2);
                            test_fused<float>(L, f == 1, OPS[a], OPS[b], true, n, n, 1, 37, 1.f, -1.f, (a + b + 1) % 2);
                            // beta = 0: A not read, the factors written through X's cells
                            test_fused<double>(L, f == 1, OPS[a], OPS[b], true, n, n, 1, 37, -1.5, 0.0, (a + b + 1) % 2);
                            test_fused<float>(L, f == 1, OPS[a], OPS[b], true, n, n, 1, 37, 0.75f, 0.f, (a + b) % 2);
                        }
                    for (int pad : {0, 1}) {
                        test_fused<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, false, n, n, 1, 33, 1.0, 1.0, pad);
                        test_fused<float>(L, f == 1, KOBALT_TRANS, KOBALT_NO_TRANS, false, n, n, 1, 33, -0.5f, 1.f, pad);
                        test_fused<double>(L, f == 1, KOBALT_TRANS, KOBALT_NO_TRANS, true, n, n, 1, 33, 0.5, 0.0, pad);
                        test_fused<float>(L, f == 1, KOBALT_NO_TRANS, KOBALT_TRANS, true, n, n, 1, 33, 2.f, 0.f, pad);
                        test_fused<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 1, 5, 0.0, 1.0, pad);
                    }
                    test_fused<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 1, 1, 1.0, 1.0);
                }
        // n = 9 ... 32 on the staged group kernel (fused_full.cu, the default FUSED_FULL_MIN ..
        // MAX = 9 .. 32, at 17 .. 32 only where GEMM_LU_TRSV_SMALL_MAX is raised, as cuda_fused_full32
        // does; cuda_fused_group runs the same on the group kernel, FUSED_FULL_MAX = 0):
        // every op pair at the group widths 16, 32 and at sizes below them (identity padding; a
        // lane holds n rounded up to 4 columns, 12, 20, 24, 28: both ends of each),
        // pivoted and not, beta 0 (A NaN-poisoned) / != 0, alpha 0, padded and packed operands,
        // k below n and at the group width, and the cases it leaves to the group kernel (k above
        // the width, nrhs 2); nrhs 0; 40,001 items (each group walks several, the next one's
        // copies in flight). Unpivoted items keep alpha small against A's dominant diagonal.
        for (kobalt_layout L : LAYOUTS)
            for (int f = 0; f < 2; ++f)
                for (I n : {9, 12, 13, 16, 17, 20, 21, 24, 28, 29, 32}) {
                    const I width = n <= 16 ? 16 : 32;
                    for (int a = 0; a < 3; ++a)
                        for (int b = 0; b < 3; ++b) {
                            test_fused<double>(L, f == 1, OPS[a], OPS[b], true, n, n, 1, 9, 1.0, 1.0, (a + b) % 2);
                            test_fused<float>(L, f == 1, OPS[a], OPS[b], true, n, n, 1, 9, 1.f, -1.f, (a + b + 1) % 2);
                        }
                    for (int pad : {0, 1}) {
                        test_fused<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, false, n, n, 1, 7, 0.25, 1.0, pad);
                        test_fused<float>(L, f == 1, KOBALT_TRANS, KOBALT_NO_TRANS, false, n, n, 1, 7, -0.125f, 1.f, pad);
                        test_fused<double>(L, f == 1, KOBALT_TRANS, KOBALT_NO_TRANS, true, n, n, 1, 7, 0.5, 0.0, pad);
                        test_fused<float>(L, f == 1, KOBALT_NO_TRANS, KOBALT_TRANS, true, n, n, 1, 7, 2.f, 0.f, pad);
                        test_fused<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 1, 5, 0.0, 1.0, pad);
                    }
                    test_fused<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_TRANS, true, n, std::max<I>(1, n / 3), 1, 7, 1.0, 1.0);
                    test_fused<double>(L, f == 1, KOBALT_TRANS, KOBALT_TRANS, true, n, width, 1, 7, 1.0, 0.0);
                    test_fused<float>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, width + 1, 1, 5, 1.f, 1.f);
                    test_fused<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 0, 5, 1.0, 1.0);
                    test_fused<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 2, 5, 1.0, 1.0);
                    test_fused<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 1, 1, 1.0, 1.0);
                }
        for (I n : {16, 32}) {
            test_fused<double>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 1, 40001, 1.0, 0.0, 0);
            test_fused<double>(KOBALT_ROW_MAJOR, true, KOBALT_NO_TRANS, KOBALT_TRANS, true, n, n, 1, 40001, 1.0, 1.0);
            test_fused<float>(KOBALT_COL_MAJOR, true, KOBALT_TRANS, KOBALT_NO_TRANS, false, n, n, 1, 40001, 0.25f, 1.f);
        }
        for (I n : {2, 5, 8}) {
            const I many = n == 5 ? 40001 : 300001;
            test_fused<double>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, n, n, 1, many, 1.0, 0.0, 0);
            test_fused<double>(KOBALT_ROW_MAJOR, true, KOBALT_NO_TRANS, KOBALT_TRANS, true, n, n, 1, many, 1.0, 1.0);
            test_fused<float>(KOBALT_COL_MAJOR, true, KOBALT_TRANS, KOBALT_NO_TRANS, false, n, n, 1, many, 1.f, 1.f);
        }
    } else if (mode == "gemm") {
        // gemm alone over the group kernels' sizes (run with GEMM_SMALL_MAX = 64 and
        // GEMM_BCAST_MIN = 1 and 0, so that the shuffle and the shared-memory kernels see every
        // width, and k up to 41 runs several chunks of op(B) per item): every op pair, both
        // layouts and forms, square and rectangular, alpha / beta zero (NaN-poisoned operands)
        for (kobalt_layout L : LAYOUTS)
            for (int f = 0; f < 2; ++f)
                for (I n : {1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 15, 16, 17, 19, 20, 23, 24, 25, 28, 29, 31, 32}) {
                    for (int a = 0; a < 3; ++a)
                        for (int b = 0; b < 3; ++b) {
                            test_gemm<double>(L, f == 1, OPS[a], OPS[b], n, n, n, 5, 1.5, -0.5);
                            test_gemm<float>(L, f == 1, OPS[a], OPS[b], n, n, n, 5, 1.5f, -0.5f);
                        }
                    for (I k : {I(1), n / 2 + 1, n + 9}) {
                        test_gemm<double>(L, f == 1, KOBALT_TRANS, KOBALT_NO_TRANS, n, n / 2 + 1, k, 5, -1.0, 0.0);
                        test_gemm<float>(L, f == 1, KOBALT_NO_TRANS, KOBALT_TRANS, n / 2 + 1, n, k, 5, 1.f, 2.f);
                        test_gemm<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, k, 5, 2.0, 1.0);
                    }
                    test_gemm<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_TRANS, n, n, n, 5, 0.0, 2.0);
                    test_gemm<float>(L, f == 1, KOBALT_TRANS, KOBALT_TRANS, n, n, n, 5, 0.f, 0.f);
                    test_gemm<double>(L, f == 1, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 0, 5, 1.0, 3.0);
                }
        // enough items that groups run several items each (the grid is capped at 128 warps
        // per SM), so a group's shared-memory slice is reused across items
        test_gemm<double>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 16, 16, 16, 150001, 1.0, 1.0);
        test_gemm<double>(KOBALT_COL_MAJOR, true, KOBALT_NO_TRANS, KOBALT_TRANS, 12, 12, 12, 150001, 1.0, 0.0);
        test_gemm<double>(KOBALT_ROW_MAJOR, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 24, 24, 40, 70001, 1.0, 0.0);
        test_gemm<float>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 16, 16, 16, 150001, 1.f, 1.f);
        // the tile kernel's blocks walk several items (grid capped at 32 blocks per SM), with
        // and without C read, rectangular, transposed and row-major
        test_gemm<double>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 20, 20, 20, 30001, 1.0, 0.0);
        test_gemm<double>(KOBALT_ROW_MAJOR, true, KOBALT_TRANS, KOBALT_NO_TRANS, 27, 21, 30, 30001, -1.0, 0.5);
        test_gemm<float>(KOBALT_COL_MAJOR, false, KOBALT_TRANS, KOBALT_TRANS, 31, 31, 31, 30001, 1.f, 1.f);
    } else {
        const std::vector<I> all = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100};
        const std::vector<I> some = {1, 2, 4, 8, 16, 32};
        sweep<double>(all, 3, true);
        sweep<float>(all, 3, true);
        sweep<double>({1, 3, 8, 33}, 1, false);
        sweep<float>({1, 3, 8, 33}, 1, false);
        sweep<double>(some, 3001, false);
        sweep<float>({4, 17}, 3001, false);
        sweep<double>({128, 200}, 2, false);
        // batch > 65,535
        test_gemm<double>(KOBALT_COL_MAJOR, false, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 4, 4, 4, 70001, 1.0, 1.0);
        test_gemm<float>(KOBALT_ROW_MAJOR, true, KOBALT_TRANS, KOBALT_NO_TRANS, 3, 3, 3, 70001, 1.f, 0.f);
        test_getrf<double>(KOBALT_COL_MAJOR, false, true, 4, 4, 70001);
        test_getrf<float>(KOBALT_ROW_MAJOR, true, true, 2, 2, 70001);
        test_getrs<double>(KOBALT_ROW_MAJOR, false, KOBALT_TRANS, true, 4, 2, 70001);
        test_fused<double>(KOBALT_COL_MAJOR, true, KOBALT_NO_TRANS, KOBALT_NO_TRANS, true, 8, 8, 1, 70001, 1.0, 1.0);
        test_trsv<float>(KOBALT_COL_MAJOR, false, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, 5, 1, 70001);
        test_trsm<double>(KOBALT_ROW_MAJOR, false, KOBALT_RIGHT, KOBALT_UPPER, KOBALT_TRANS, KOBALT_UNIT, 4, 4, 70001, 2.0);
        test_gemv<double>(KOBALT_COL_MAJOR, true, KOBALT_TRANS, 6, 5, 1, 1, 70001, 1.0, 1.0);
        test_mixed();
        test_stream();
    }
    std::printf("%s: %ld passed, %ld failed\n", mode.c_str(), g_pass, g_fail);
    return g_fail ? 1 : 0;
}
