// test_cuda_inverse.cpp -- kobalt_{s,d}getri_* and kobalt_{s,d}matinv_* on device buffers,
// both forms, both layouts, pivoted and not (getri), against self-contained host
// references: a dgetf2 LU (LAPACK pivots and info) and the scaled residual
// ||A C - I||_1 / (n eps ||A||_1 ||C||_1) < 30. Singular items must give LAPACK's info
// and leave C_i untouched; NaN items must not spoil the others; padding, gaps and the
// inputs must stay bit-identical. Plain C++ (the GPU machine has no cmocka); exits 77
// without a GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "common/cuda_check.hpp"
#include "kobalt/kobalt.h"


using I = long long;
static std::mt19937_64 rng(2024);
static double rnd() { return std::uniform_real_distribution<double>(-1, 1)(rng); }
template <class T> double eps() { return double(std::numeric_limits<T>::epsilon()); }
template <class T> const char *tname() { return sizeof(T) == 8 ? "d" : "s"; }

enum Kind { kRandom, kSingular, kNaN };

// A batch of n x n items with ld padding and gaps, on host and device (+ pointer array,
// items in reverse memory order).
template <class T> struct Items {
    I n = 0, ld = 1, stride = 1, batch = 0;
    bool col = true;
    std::vector<T> h;
    T *d = nullptr;
    T **dp = nullptr;
    Items(bool c, I n_, I b, int pad) : n(n_), batch(b), col(c) {
        ld = std::max<I>(1, n + pad);
        stride = ld * n + 3 * pad + 1;
        h.resize(size_t(std::max<I>(1, stride * b)));
        for (auto &v : h) v = T(rnd());
        CUDA_OK(cudaMalloc(&d, sizeof(T) * h.size()));
        std::vector<T *> p(size_t(std::max<I>(b, 1)));
        for (I i = 0; i < b; ++i) p[size_t(i)] = d + (b - 1 - i) * stride;
        CUDA_OK(cudaMalloc(&dp, sizeof(T *) * p.size()));
        CUDA_OK(cudaMemcpy(dp, p.data(), sizeof(T *) * p.size(), cudaMemcpyHostToDevice));
    }
    ~Items() {
        cudaFree(d);
        cudaFree(dp);
    }
    // storage slot of item i for the form (batched: reversed)
    I slot(I i, bool batched) const { return batched ? batch - 1 - i : i; }
    T &at(I s, I r, I c) { return h[size_t(s * stride + (col ? r + c * ld : r * ld + c))]; }
    void upload() { CUDA_OK(cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice)); }
    std::vector<T> download() const {
        std::vector<T> o(h.size());
        CUDA_OK(cudaMemcpy(o.data(), d, sizeof(T) * h.size(), cudaMemcpyDeviceToHost));
        return o;
    }
};

// dgetf2 on a dense column-major n x n copy (LAPACK pivots, info); pivot false: no pivoting.
static int lu(std::vector<double> &a, int n, std::vector<int> &piv, bool pivot) {
    int info = 0;
    piv.assign(size_t(n), 0);
    for (int j = 0; j < n; ++j) {
        int p = j;
        if (pivot) {
            double amax = std::fabs(a[j + j * n]);
            for (int i = j + 1; i < n; ++i)
                if (std::fabs(a[i + j * n]) > amax) amax = std::fabs(a[i + j * n]), p = i;
        }
        piv[size_t(j)] = p + 1;
        if (a[p + j * n] != 0) {
            if (p != j)
                for (int c = 0; c < n; ++c) std::swap(a[j + c * n], a[p + c * n]);
            for (int i = j + 1; i < n; ++i) a[i + j * n] /= a[j + j * n];
        } else if (info == 0) {
            info = j + 1;
        }
        for (int c = j + 1; c < n; ++c)
            for (int i = j + 1; i < n; ++i) a[i + c * n] -= a[i + j * n] * a[j + c * n];
    }
    return info;
}

static double residual(const std::vector<double> &A, const std::vector<double> &C, int n, double e) {
    if (n == 0) return 0;
    double an = 0, cn = 0, rn = 0;
    for (int j = 0; j < n; ++j) {
        double sa = 0, sc = 0, sr = 0;
        for (int i = 0; i < n; ++i) {
            sa += std::fabs(A[i + j * n]);
            sc += std::fabs(C[i + j * n]);
            double v = i == j ? -1.0 : 0.0;
            for (int k = 0; k < n; ++k) v += A[i + k * n] * C[k + j * n];
            sr += std::fabs(v);
            if (!std::isfinite(C[i + j * n])) return INFINITY;
        }
        an = std::max(an, sa), cn = std::max(cn, sc), rn = std::max(rn, sr);
    }
    return rn / (n * e * an * cn);
}

// One call of getri (inverse_of_factors) or matinv, checked.
template <class T> void run(bool getri, bool col, bool batched, bool pivot, I n, I batch, const std::vector<Kind> &kinds,
                            int pad, cudaStream_t stream = nullptr) {
    const kobalt_layout L = col ? KOBALT_COL_MAJOR : KOBALT_ROW_MAJOR;
    Items<T> A(col, n, batch, pad), C(col, n, batch, pad + 1);
    std::vector<std::vector<double>> orig(static_cast<size_t>(batch));
    std::vector<int> want(size_t(batch), 0), hpiv(size_t(std::max<I>(1, batch * (n + 2))), -9);
    const I sp = n + 2;
    for (I i = 0; i < batch; ++i) {
        const I s = A.slot(i, batched);
        std::vector<double> a(size_t(n * n));
        for (I c = 0; c < n; ++c)
            for (I r = 0; r < n; ++r) {
                double v = rnd();
                if (!pivot && r == c) v = (c % 2 ? -1.0 : 1.0) * double(2 * n + 1); // no pivoting: dominant
                if (kinds[size_t(i)] == kSingular && c == n / 2) v = 0;           // a zero column
                a[size_t(r + c * n)] = v;
            }
        if (kinds[size_t(i)] == kNaN && n > 0) a[size_t(n / 2 + (n / 2) * n)] = NAN;
        for (auto &v : a) v = double(T(v)); // the matrix as stored in T
        orig[size_t(i)] = a;
        std::vector<double> f = a;
        std::vector<int> p;
        const int info = lu(f, int(n), p, pivot || !getri);
        want[size_t(i)] = kinds[size_t(i)] == kNaN ? -1 : info;
        const std::vector<double> &stored = getri ? f : a;
        for (I c = 0; c < n; ++c)
            for (I r = 0; r < n; ++r) A.at(s, r, c) = T(stored[size_t(r + c * n)]);
        for (I j = 0; j < n; ++j) hpiv[size_t(i * sp + j)] = p[size_t(j)];
    }
    A.upload();
    C.upload();
    int *dpiv = nullptr, *dinfo = nullptr;
    CUDA_OK(cudaMalloc(&dpiv, sizeof(int) * hpiv.size()));
    CUDA_OK(cudaMemcpy(dpiv, hpiv.data(), sizeof(int) * hpiv.size(), cudaMemcpyHostToDevice));
    std::vector<int> hinfo(size_t(batch) + 2, 0x5a5a5a5a);
    CUDA_OK(cudaMalloc(&dinfo, sizeof(int) * hinfo.size()));
    CUDA_OK(cudaMemcpy(dinfo, hinfo.data(), sizeof(int) * hinfo.size(), cudaMemcpyHostToDevice));
    const std::vector<T> a0 = A.h, c0 = C.h;

    kobalt_set_cuda_stream(stream);
    kobalt_status st;
    const int *ip = pivot ? dpiv : nullptr;
    if (getri)
        st = batched ? (sizeof(T) == 8
                            ? kobalt_dgetri_batched(L, n, (const double *const *)A.dp, A.ld, ip, sp, (double *const *)C.dp, C.ld, dinfo + 1, batch)
                            : kobalt_sgetri_batched(L, n, (const float *const *)A.dp, A.ld, ip, sp, (float *const *)C.dp, C.ld, dinfo + 1, batch))
                     : (sizeof(T) == 8
                            ? kobalt_dgetri_strided(L, n, (const double *)A.d, A.ld, A.stride, ip, sp, (double *)C.d, C.ld, C.stride, dinfo + 1, batch)
                            : kobalt_sgetri_strided(L, n, (const float *)A.d, A.ld, A.stride, ip, sp, (float *)C.d, C.ld, C.stride, dinfo + 1, batch));
    else
        st = batched ? (sizeof(T) == 8
                            ? kobalt_dmatinv_batched(L, n, (const double *const *)A.dp, A.ld, (double *const *)C.dp, C.ld, dinfo + 1, batch)
                            : kobalt_smatinv_batched(L, n, (const float *const *)A.dp, A.ld, (float *const *)C.dp, C.ld, dinfo + 1, batch))
                     : (sizeof(T) == 8
                            ? kobalt_dmatinv_strided(L, n, (const double *)A.d, A.ld, A.stride, (double *)C.d, C.ld, C.stride, dinfo + 1, batch)
                            : kobalt_smatinv_strided(L, n, (const float *)A.d, A.ld, A.stride, (float *)C.d, C.ld, C.stride, dinfo + 1, batch));
    const kobalt_status sync = kobalt_synchronize();
    kobalt_set_cuda_stream(nullptr);
    const char *what = getri ? "getri" : "matinv";
    CHECK(st == KOBALT_SUCCESS && sync == KOBALT_SUCCESS, "%s%s_%s %s n=%lld batch=%lld: status %s / %s (%s)",
          tname<T>(), what, batched ? "batched" : "strided", col ? "col" : "row", n, batch, kobalt_status_name(st),
          kobalt_status_name(sync), kobalt_last_error());
    const std::vector<T> a1 = A.download(), c1 = C.download();
    std::vector<int> info(hinfo.size()), piv1(hpiv.size());
    CUDA_OK(cudaMemcpy(info.data(), dinfo, sizeof(int) * info.size(), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(piv1.data(), dpiv, sizeof(int) * piv1.size(), cudaMemcpyDeviceToHost));
    CHECK(std::memcmp(a1.data(), a0.data(), sizeof(T) * a0.size()) == 0, "%s n=%lld: A (an input) changed", what, n);
    CHECK(piv1 == hpiv, "%s n=%lld: ipiv (an input) changed", what, n);
    CHECK(info[0] == 0x5a5a5a5a && info[size_t(batch) + 1] == 0x5a5a5a5a, "%s n=%lld: info guard overwritten", what, n);
    // C: every element outside the items' logical n x n untouched
    std::vector<char> logical(c0.size(), 0);
    for (I s = 0; s < batch; ++s)
        for (I c = 0; c < n; ++c)
            for (I r = 0; r < n; ++r) logical[size_t(s * C.stride + (col ? r + c * C.ld : r * C.ld + c))] = 1;
    long bad = 0;
    for (size_t e = 0; e < c0.size(); ++e)
        if (!logical[e] && std::memcmp(&c0[e], &c1[e], sizeof(T)) != 0) ++bad;
    CHECK(bad == 0, "%s%s n=%lld %s: %ld padding element(s) of C overwritten", tname<T>(), what, n, col ? "col" : "row", bad);
    for (I i = 0; i < batch; ++i) {
        if (want[size_t(i)] < 0) continue; // NaN item: only the others are specified
        const I s = C.slot(i, batched);
        CHECK(info[size_t(i) + 1] == want[size_t(i)], "%s%s_%s %s n=%lld item %lld: info %d, expected %d", tname<T>(),
              what, batched ? "batched" : "strided", col ? "col" : "row", n, i, info[size_t(i) + 1], want[size_t(i)]);
        std::vector<double> cd(size_t(n * n));
        bool untouched = true;
        for (I c = 0; c < n; ++c)
            for (I r = 0; r < n; ++r) {
                const size_t e = size_t(s * C.stride + (col ? r + c * C.ld : r * C.ld + c));
                cd[size_t(r + c * n)] = double(c1[e]);
                untouched = untouched && std::memcmp(&c0[e], &c1[e], sizeof(T)) == 0;
            }
        if (want[size_t(i)] > 0) {
            CHECK(untouched, "%s n=%lld item %lld: singular but C was written", what, n, i);
            continue;
        }
        const double r = residual(orig[size_t(i)], cd, int(n), eps<T>());
        CHECK(r < 30, "%s%s_%s %s n=%lld item %lld%s: ||A C - I|| scaled residual %g", tname<T>(), what,
              batched ? "batched" : "strided", col ? "col" : "row", n, i, pivot ? "" : " (no pivoting)", r);
    }
    cudaFree(dpiv);
    cudaFree(dinfo);
}

template <class T> void sweep() {
    const std::vector<I> sizes = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40};
    const std::vector<Kind> mixed = {kRandom, kSingular, kRandom, kNaN, kRandom};
    for (I n : sizes)
        for (int col = 0; col < 2; ++col)
            for (int batched = 0; batched < 2; ++batched) {
                run<T>(true, col, batched, true, n, 5, mixed, int(n % 3));
                run<T>(true, col, batched, false, n, 3, {kRandom, kRandom, kRandom}, 1);
                run<T>(false, col, batched, true, n, 5, mixed, int((n + 1) % 3));
            }
    // many items, and a user stream
    run<T>(true, true, false, true, 4, 70001, std::vector<Kind>(70001, kRandom), 0);
    run<T>(false, false, true, true, 8, 20001, std::vector<Kind>(20001, kRandom), 1);
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    run<T>(false, true, false, true, 16, 3001, std::vector<Kind>(3001, kRandom), 0, s);
    run<T>(true, true, true, true, 32, 3001, std::vector<Kind>(3001, kRandom), 0, s);
    CUDA_OK(cudaStreamDestroy(s));
}

int main() {
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
    sweep<double>();
    sweep<float>();
    std::printf("inverse: %ld passed, %ld failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
