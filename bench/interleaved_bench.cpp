// kobalt-interleaved-bench -- the interleaved layout against Kobalt's own standard layout
// on the host (issue 9's goal: at n <= 8 in double the interleaved path >= 2x the standard
// path).
//
// Per routine, precision and n, the same logical batch is stored twice:
//   standard     column-major items one after the other, called through kobalt_?X_strided
//                (the fixed-n AVX2 kernels, the KokkosBatched small path);
//   interleaved  element (i, j) of item b at (i + j*n)*batch + b (kobalt_?pack_interleaved),
//                called through kobalt_?X_desc (the SIMD kernels across the batch).
// Both are timed in the same run, alternating, on inputs restored (untimed) before every
// call; the table gives the median microseconds per item, the spread (max-min)/median,
// the ratio standard / interleaved, and the interleaved time as a % of the memory floor
// (bytes read once + written once over the copy bandwidth measured at start-up). Before
// timing, the interleaved results are unpacked and compared with the standard ones
// (pivots and info exactly, values to a few ulps of the item): "ok" or "MISMATCH".
//
//   kobalt-interleaved-bench [--routines gemm,gemv,trsv,trsm,getrf,getrs,fused]
//                            [--prec d,s] [--sizes 2,...,8] [--kb KB] [--reps R]
//                            [--pad P]
//   --kb: kilobytes of one n x n operand (default 65536: from memory; 512: in cache)
//   --pad: ldp = batch + P (default 0): element planes a power of two bytes apart share
//          cache sets, which the interleaved layout must avoid (docs/api.md)
#include <immintrin.h>
#include <kobalt/kobalt.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// STREAM-like copy bandwidth, bytes read + written per second (median of 9).
double copy_bandwidth(size_t bytes) {
    const size_t n = bytes / sizeof(double);
    std::vector<double> a(n, 1.0), b(n, 0.0);
    std::vector<double> t;
    for (int r = 0; r < 9; ++r) {
        const double t0 = now();
        double *__restrict__ pa = a.data(), *__restrict__ pb = b.data();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; ++i) pb[i] = pa[i];
        t.push_back(now() - t0);
    }
    std::sort(t.begin(), t.end());
    return 2.0 * double(n * sizeof(double)) / t[t.size() / 2];
}

// The core's double FMA rate, to put gemm's flops against (issue 9's bound: the
// interleaved path can beat the standard one by at most peak / the standard path's rate).
// peak: 12 independent chains of 256-bit FMAs (Zen 4: two FMA pipes of latency 4 need at
// least 8 in flight; 12 + the two constants fit the 16 registers; 16 chains did not fit
// and measured a third of the peak), double FMA lanes per second; clock: one dependent chain, FMA latency
// `latency` cycles (4 on Zen 4 and on Intel since Skylake). Best of 200 short runs, so that
// a shared machine's time slices do not count.
struct FmaRate {
    double lanes_per_s, clock_hz;
};
__attribute__((target("avx2,fma"))) FmaRate fma_rate(int latency) {
    constexpr long iters = 100000; // ~0.3 ms per rep: the best of 200 is one the scheduler left alone
    double best_par = 1e30, best_dep = 1e30;
    for (int r = 0; r < 200; ++r) {
        __m256d acc[12];
        for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_pd(1.0 + 1e-9 * i);
        const __m256d m = _mm256_set1_pd(0.9999999), a = _mm256_set1_pd(1e-9);
        double t0 = now();
        for (long it = 0; it < iters; ++it) {
            for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_pd(acc[i], m, a);
            __asm__ volatile("" : "+x"(acc[0]), "+x"(acc[1]), "+x"(acc[2]), "+x"(acc[3]), "+x"(acc[4]), "+x"(acc[5]));
            __asm__ volatile("" : "+x"(acc[6]), "+x"(acc[7]), "+x"(acc[8]), "+x"(acc[9]), "+x"(acc[10]), "+x"(acc[11]));
        }
        best_par = std::min(best_par, now() - t0);
        __m256d x = acc[0];
        t0 = now();
        for (long it = 0; it < iters; ++it) {
            x = _mm256_fmadd_pd(x, m, a);
            x = _mm256_fmadd_pd(x, m, a);
            __asm__ volatile("" : "+x"(x));
        }
        best_dep = std::min(best_dep, now() - t0);
        volatile double sink = _mm256_cvtsd_f64(x);
        (void)sink;
    }
    return {12.0 * 4.0 * double(iters) / best_par, 2.0 * latency * double(iters) / best_dep};
}

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string x;
    while (std::getline(ss, x, ',')) out.push_back(x);
    return out;
}

// Overloads so that one template times both precisions.
kobalt_status gemm_s(int n, const double *A, const double *B, double *C, kobalt_int b) {
    return kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1.0, A, n, n * n, B, n, n * n,
                                0.0, C, n, n * n, b);
}
kobalt_status gemm_s(int n, const float *A, const float *B, float *C, kobalt_int b) {
    return kobalt_sgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1.0f, A, n, n * n, B, n, n * n,
                                0.0f, C, n, n * n, b);
}
kobalt_status gemm_d(const kobalt_matrix_desc *d, const double *A, const double *B, double *C, kobalt_int b) {
    return kobalt_dgemm_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, 1.0, A, d, B, d, 0.0, C, d, b);
}
kobalt_status gemm_d(const kobalt_matrix_desc *d, const float *A, const float *B, float *C, kobalt_int b) {
    return kobalt_sgemm_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, 1.0f, A, d, B, d, 0.0f, C, d, b);
}
kobalt_status gemv_s(int n, const double *A, const double *x, double *y, kobalt_int b) {
    return kobalt_dgemv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, n, 1.0, A, n, n * n, x, 1, n, 0.0, y, 1, n, b);
}
kobalt_status gemv_s(int n, const float *A, const float *x, float *y, kobalt_int b) {
    return kobalt_sgemv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, n, 1.0f, A, n, n * n, x, 1, n, 0.0f, y, 1, n, b);
}
kobalt_status gemv_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, const double *A, const double *x, double *y,
                     kobalt_int b) {
    return kobalt_dgemv_desc(KOBALT_NO_TRANS, 1.0, A, d, x, v, 0.0, y, v, b);
}
kobalt_status gemv_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, const float *A, const float *x, float *y,
                     kobalt_int b) {
    return kobalt_sgemv_desc(KOBALT_NO_TRANS, 1.0f, A, d, x, v, 0.0f, y, v, b);
}
kobalt_status trsv_s(int n, const double *A, double *x, kobalt_int b) {
    return kobalt_dtrsv_strided(KOBALT_COL_MAJOR, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, n, A, n, n * n, x, 1, n, b);
}
kobalt_status trsv_s(int n, const float *A, float *x, kobalt_int b) {
    return kobalt_strsv_strided(KOBALT_COL_MAJOR, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, n, A, n, n * n, x, 1, n, b);
}
kobalt_status trsv_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, const double *A, double *x, kobalt_int b) {
    return kobalt_dtrsv_desc(KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, A, d, x, v, b);
}
kobalt_status trsv_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, const float *A, float *x, kobalt_int b) {
    return kobalt_strsv_desc(KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, A, d, x, v, b);
}
kobalt_status trsm_s(int n, const double *A, double *B, kobalt_int b) {
    return kobalt_dtrsm_strided(KOBALT_COL_MAJOR, KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, n, n, 1.0, A,
                                n, n * n, B, n, n * n, b);
}
kobalt_status trsm_s(int n, const float *A, float *B, kobalt_int b) {
    return kobalt_strsm_strided(KOBALT_COL_MAJOR, KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, n, n, 1.0f, A,
                                n, n * n, B, n, n * n, b);
}
kobalt_status trsm_d(const kobalt_matrix_desc *d, const double *A, double *B, kobalt_int b) {
    return kobalt_dtrsm_desc(KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, 1.0, A, d, B, d, b);
}
kobalt_status trsm_d(const kobalt_matrix_desc *d, const float *A, float *B, kobalt_int b) {
    return kobalt_strsm_desc(KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, 1.0f, A, d, B, d, b);
}
kobalt_status getrf_s(int n, double *A, int *p, int *info, kobalt_int b) {
    return kobalt_dgetrf_strided(KOBALT_COL_MAJOR, n, n, A, n, n * n, p, n, info, b);
}
kobalt_status getrf_s(int n, float *A, int *p, int *info, kobalt_int b) {
    return kobalt_sgetrf_strided(KOBALT_COL_MAJOR, n, n, A, n, n * n, p, n, info, b);
}
kobalt_status getrf_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, double *A, int *p, int *info, kobalt_int b) {
    return kobalt_dgetrf_desc(A, d, p, v, info, b);
}
kobalt_status getrf_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, float *A, int *p, int *info, kobalt_int b) {
    return kobalt_sgetrf_desc(A, d, p, v, info, b);
}
kobalt_status getrs_s(int n, const double *A, const int *p, double *x, kobalt_int b) {
    return kobalt_dgetrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, 1, A, n, n * n, p, n, x, n, n, b);
}
kobalt_status getrs_s(int n, const float *A, const int *p, float *x, kobalt_int b) {
    return kobalt_sgetrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, 1, A, n, n * n, p, n, x, n, n, b);
}
kobalt_status getrs_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, const double *A, const int *p, double *x,
                      kobalt_int b) {
    return kobalt_dgetrs_desc(KOBALT_NO_TRANS, A, d, p, v, x, v, b);
}
kobalt_status getrs_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, const float *A, const int *p, float *x,
                      kobalt_int b) {
    return kobalt_sgetrs_desc(KOBALT_NO_TRANS, A, d, p, v, x, v, b);
}
kobalt_status fused_s(int n, const double *X, const double *Y, double *A, int *p, double *x, int *info, kobalt_int b) {
    return kobalt_dgemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, 1.0, X, n, n * n, Y, n,
                                        n * n, 0.0, A, n, n * n, p, n, x, n, n, info, b);
}
kobalt_status fused_s(int n, const float *X, const float *Y, float *A, int *p, float *x, int *info, kobalt_int b) {
    return kobalt_sgemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, 1.0f, X, n, n * n, Y, n,
                                        n * n, 0.0f, A, n, n * n, p, n, x, n, n, info, b);
}
kobalt_status fused_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, const double *X, const double *Y,
                      double *A, int *p, double *x, int *info, kobalt_int b) {
    return kobalt_dgemm_lu_trsv_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, 1.0, X, d, Y, d, 0.0, A, d, p, v, x, v, info, b);
}
kobalt_status fused_d(const kobalt_matrix_desc *d, const kobalt_matrix_desc *v, const float *X, const float *Y, float *A,
                      int *p, float *x, int *info, kobalt_int b) {
    return kobalt_sgemm_lu_trsv_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, 1.0f, X, d, Y, d, 0.0f, A, d, p, v, x, v, info, b);
}
// Elements between two element planes of the interleaved layout: the batch plus --pad.
kobalt_int g_pad = 0;
kobalt_int ldp(kobalt_int b) { return b + g_pad; }
kobalt_status pack(int r, int c, const double *A, double *P, kobalt_int b) {
    return kobalt_dpack_interleaved(KOBALT_COL_MAJOR, r, c, A, r, r * c, P, ldp(b), b);
}
kobalt_status pack(int r, int c, const float *A, float *P, kobalt_int b) {
    return kobalt_spack_interleaved(KOBALT_COL_MAJOR, r, c, A, r, r * c, P, ldp(b), b);
}
kobalt_status unpack(int r, int c, const double *P, double *A, kobalt_int b) {
    return kobalt_dunpack_interleaved(KOBALT_COL_MAJOR, r, c, P, ldp(b), A, r, r * c, b);
}
kobalt_status unpack(int r, int c, const float *P, float *A, kobalt_int b) {
    return kobalt_sunpack_interleaved(KOBALT_COL_MAJOR, r, c, P, ldp(b), A, r, r * c, b);
}
kobalt_status ipack(int r, const int *p, int *q, kobalt_int b) { // pivots: plain loop (ints)
    for (kobalt_int i = 0; i < b; ++i)
        for (int j = 0; j < r; ++j) q[j * ldp(b) + i] = p[i * r + j];
    return KOBALT_SUCCESS;
}

void must(kobalt_status s, const char *what) {
    if (s != KOBALT_SUCCESS) {
        std::fprintf(stderr, "%s: %s (%s)\n", what, kobalt_status_name(s), kobalt_last_error());
        std::exit(1);
    }
}

// One operand in both layouts, with pristine copies for restoring in-place inputs.
template <class T> struct Pair {
    int r = 0, c = 0;
    kobalt_int batch = 0;
    std::vector<T> std_, il, std0, il0;
    void init(int rows, int cols, kobalt_int b, const std::function<T(kobalt_int, int, int)> &value) {
        r = rows, c = cols, batch = b;
        std_.resize(size_t(b) * r * c);
        il.assign(size_t(ldp(b)) * r * c, T(0));
#pragma omp parallel for schedule(static)
        for (kobalt_int i = 0; i < b; ++i)
            for (int j = 0; j < c; ++j)
                for (int q = 0; q < r; ++q) std_[size_t(i) * r * c + q + j * r] = value(i, q, j);
        must(pack(r, c, std_.data(), il.data(), b), "pack");
        std0 = std_;
        il0 = il;
    }
    void restore() {
        std::memcpy(std_.data(), std0.data(), std_.size() * sizeof(T));
        std::memcpy(il.data(), il0.data(), il.size() * sizeof(T));
    }
    // Largest |standard - unpacked interleaved| over the batch, relative to the item's max.
    double mismatch() const {
        std::vector<T> back(std_.size());
        must(unpack(r, c, il.data(), back.data(), batch), "unpack");
        double worst = 0;
        for (kobalt_int i = 0; i < batch; ++i) {
            double scale = 1e-300, diff = 0;
            for (int e = 0; e < r * c; ++e) {
                const size_t k = size_t(i) * r * c + e;
                scale = std::max(scale, std::fabs(double(std_[k])));
                const double d = std::fabs(double(std_[k]) - double(back[k]));
                diff = std::isnan(d) ? INFINITY : std::max(diff, d);
            }
            worst = std::max(worst, diff / scale);
        }
        return worst;
    }
};

struct Timing {
    double med, lo, hi;
};
Timing stats(std::vector<double> t) {
    std::sort(t.begin(), t.end());
    return {t[t.size() / 2], t.front(), t.back()};
}

struct Line {
    std::string routine;
    char prec;
    int n;
    kobalt_int batch;
    Timing std_, il;
    double floor_s;
    bool ok;
};

template <class T>
Line run(const std::string &routine, int n, kobalt_int batch, int reps, double bw) {
    std::mt19937_64 rng(7 + n);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> noise(size_t(1) << 16);
    for (auto &v : noise) v = u(rng);
    auto rnd = [&](kobalt_int i, int q, int j) { return T(noise[size_t(i * 131 + q * 17 + j * 7) & 0xffff]); };
    // LU inputs: a row permutation (by the item) of a diagonally dominant matrix, so that
    // partial pivoting must swap, differently in neighbouring items.
    auto lu_in = [&](kobalt_int i, int q, int j) {
        const int row = int((q + i) % n);
        return T(row == j ? double(2 * n) : 0.0) + rnd(i, q, j);
    };
    auto tri = [&](kobalt_int i, int q, int j) { return q == j ? T(n + 1) : (q > j ? rnd(i, q, j) : T(0)); };
    const kobalt_matrix_desc dm = kobalt_desc_interleaved(n, n, ldp(batch)), dv = kobalt_desc_interleaved(n, 1, ldp(batch));
    Pair<T> A, B, C, x; // x: the fused call's right-hand side
    std::vector<int> pstd, pil, istd, iil, p0;
    double bytes = 0;
    std::function<void()> fs, fi, restore = [] {};
    std::function<bool()> check;
    const size_t es = sizeof(T), item = size_t(n) * n;
    if (routine == "gemm") {
        A.init(n, n, batch, rnd), B.init(n, n, batch, rnd), C.init(n, n, batch, rnd);
        fs = [&] { must(gemm_s(n, A.std_.data(), B.std_.data(), C.std_.data(), batch), "gemm"); };
        fi = [&] { must(gemm_d(&dm, A.il.data(), B.il.data(), C.il.data(), batch), "gemm_desc"); };
        check = [&] { return C.mismatch() < 1e3 * std::numeric_limits<T>::epsilon(); };
        bytes = 3.0 * item * es;
    } else if (routine == "gemv") {
        A.init(n, n, batch, rnd), B.init(n, 1, batch, rnd), C.init(n, 1, batch, rnd);
        fs = [&] { must(gemv_s(n, A.std_.data(), B.std_.data(), C.std_.data(), batch), "gemv"); };
        fi = [&] { must(gemv_d(&dm, &dv, A.il.data(), B.il.data(), C.il.data(), batch), "gemv_desc"); };
        check = [&] { return C.mismatch() < 1e3 * std::numeric_limits<T>::epsilon(); };
        bytes = double(item + 2 * n) * es;
    } else if (routine == "trsv" || routine == "trsm") {
        const int cols = routine == "trsv" ? 1 : n;
        A.init(n, n, batch, tri), B.init(n, cols, batch, rnd);
        restore = [&] { B.restore(); };
        if (cols == 1) {
            fs = [&] { must(trsv_s(n, A.std_.data(), B.std_.data(), batch), "trsv"); };
            fi = [&] { must(trsv_d(&dm, &dv, A.il.data(), B.il.data(), batch), "trsv_desc"); };
        } else {
            fs = [&] { must(trsm_s(n, A.std_.data(), B.std_.data(), batch), "trsm"); };
            fi = [&] { must(trsm_d(&dm, A.il.data(), B.il.data(), batch), "trsm_desc"); };
        }
        check = [&] { return B.mismatch() < 1e3 * std::numeric_limits<T>::epsilon(); };
        bytes = double(n * (n + 1) / 2 + 2 * n * cols) * es;
    } else if (routine == "getrf") {
        A.init(n, n, batch, lu_in);
        pstd.assign(size_t(batch) * n, 0), pil.assign(size_t(ldp(batch)) * n, 0), istd.assign(size_t(batch), 0), iil = istd;
        restore = [&] { A.restore(); };
        fs = [&] { must(getrf_s(n, A.std_.data(), pstd.data(), istd.data(), batch), "getrf"); };
        fi = [&] { must(getrf_d(&dm, &dv, A.il.data(), pil.data(), iil.data(), batch), "getrf_desc"); };
        check = [&] {
            for (kobalt_int i = 0; i < batch; ++i)
                for (int j = 0; j < n; ++j)
                    if (pstd[size_t(i) * n + j] != pil[size_t(j) * ldp(batch) + i]) return false;
            return istd == iil && A.mismatch() < 1e3 * std::numeric_limits<T>::epsilon();
        };
        bytes = 2.0 * item * es + double(n + 1) * sizeof(int);
    } else if (routine == "getrs") {
        A.init(n, n, batch, lu_in);
        pstd.assign(size_t(batch) * n, 0), pil.assign(size_t(ldp(batch)) * n, 0), istd.assign(size_t(batch), 0), iil = istd;
        must(getrf_s(n, A.std_.data(), pstd.data(), istd.data(), batch), "getrf");
        must(pack(n, n, A.std_.data(), A.il.data(), batch), "pack");
        ipack(n, pstd.data(), pil.data(), batch);
        B.init(n, 1, batch, rnd);
        restore = [&] { B.restore(); };
        fs = [&] { must(getrs_s(n, A.std_.data(), pstd.data(), B.std_.data(), batch), "getrs"); };
        fi = [&] { must(getrs_d(&dm, &dv, A.il.data(), pil.data(), B.il.data(), batch), "getrs_desc"); };
        check = [&] { return B.mismatch() < 1e4 * std::numeric_limits<T>::epsilon(); };
        bytes = double(item + 2 * n) * es + double(n) * sizeof(int);
    } else { // fused, k = n, nrhs = 1, beta = 0: the element solve
        A.init(n, n, batch, lu_in), B.init(n, n, batch, [&](kobalt_int i, int q, int j) {
            return q == j ? T(1) : T(0.01) * rnd(i, q, j);
        });
        C.init(n, n, batch, rnd); // A_new, overwritten
        pstd.assign(size_t(batch) * n, 0), pil.assign(size_t(ldp(batch)) * n, 0), istd.assign(size_t(batch), 0), iil = istd;
        x.init(n, 1, batch, rnd);
        restore = [&] { x.restore(); };
        fs = [&] {
            must(fused_s(n, A.std_.data(), B.std_.data(), C.std_.data(), pstd.data(), x.std_.data(), istd.data(), batch),
                 "fused");
        };
        fi = [&] {
            must(fused_d(&dm, &dv, A.il.data(), B.il.data(), C.il.data(), pil.data(), x.il.data(), iil.data(), batch),
                 "fused_desc");
        };
        check = [&] {
            for (kobalt_int i = 0; i < batch; ++i)
                for (int j = 0; j < n; ++j)
                    if (pstd[size_t(i) * n + j] != pil[size_t(j) * ldp(batch) + i]) return false;
            return istd == iil && x.mismatch() < 1e4 * std::numeric_limits<T>::epsilon();
        };
        bytes = 3.0 * item * es + 2.0 * n * es + double(n + 1) * sizeof(int);
    }
    restore();
    fs();
    fi();
    const bool ok = check();
    std::vector<double> ts, ti;
    for (int r = 0; r < reps; ++r) {
        for (int k = 0; k < 2; ++k) {
            restore();
            const bool std_first = (r + k) % 2 == 0;
            const double t0 = now();
            std_first ? fs() : fi();
            const double t1 = now();
            (std_first ? ts : ti).push_back(t1 - t0);
        }
    }
    return {routine, sizeof(T) == 8 ? 'd' : 's', n, batch, stats(ts), stats(ti), bytes * double(batch) / bw, ok};
}

} // namespace

int main(int argc, char **argv) {
    std::string routines = "gemm,gemv,trsv,trsm,getrf,getrs,fused", precs = "d,s", sizes = "2,3,4,5,6,7,8";
    double kb = 65536;
    int reps = 11;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--routines") routines = v;
        else if (a == "--prec") precs = v;
        else if (a == "--sizes") sizes = v;
        else if (a == "--kb") kb = std::atof(v.c_str());
        else if (a == "--reps") reps = std::atoi(v.c_str());
        else if (a == "--pad") g_pad = std::atoll(v.c_str());
        else {
            std::fprintf(stderr, "usage: %s [--routines ...] [--prec d,s] [--sizes ...] [--kb KB] [--reps R]\n", argv[0]);
            return 2;
        }
    }
    const double bw = copy_bandwidth(size_t(256) << 20);
    // gemm lines also give each path's double (float: single) FMA lanes per second as a %
    // of the core's peak, measured here (one thread: the kernels, not the threading).
    const FmaRate fr = routines.find("gemm") != std::string::npos ? fma_rate(4) : FmaRate{0, 0};
    if (fr.lanes_per_s > 0)
        std::printf("FMA peak %.2f G double lanes/s on one core (%.2f per cycle at the %.2f GHz that a dependent "
                    "chain of latency 4 gives)\n",
                    fr.lanes_per_s / 1e9, fr.lanes_per_s / fr.clock_hz, fr.clock_hz / 1e9);
    std::printf("kobalt-interleaved-bench: %d OpenMP threads, copy bandwidth %.1f GB/s (read + write), "
                "one n x n operand %.0f KiB, ldp = batch + %lld, median of %d\n",
                omp_get_max_threads(), bw / 1e9, kb, (long long)g_pad, reps);
    std::printf("%-6s %s %2s %9s | %12s %7s | %12s %7s | %6s | %6s | %s\n", "", "p", "n", "batch", "standard us", "spread",
                "interleav us", "spread", "ratio", "floor%", "check");
    for (const std::string &p : split(precs))
        for (const std::string &r : split(routines))
            for (const std::string &s : split(sizes)) {
                const int n = std::atoi(s.c_str());
                const size_t es = p == "d" ? 8 : 4;
                const kobalt_int batch = std::max<kobalt_int>(1, kobalt_int(kb * 1024 / double(es * n * n)));
                const Line L = p == "d" ? run<double>(r, n, batch, reps, bw) : run<float>(r, n, batch, reps, bw);
                const double per = 1e6 / double(batch);
                std::printf("%-6s %c %2d %9lld | %12.4f %6.0f%% | %12.4f %6.0f%% | %5.2fx | %5.0f%% | %s", L.routine.c_str(),
                            L.prec, L.n, (long long)L.batch, L.std_.med * per, 100 * (L.std_.hi - L.std_.lo) / L.std_.med,
                            L.il.med * per, 100 * (L.il.hi - L.il.lo) / L.il.med, L.std_.med / L.il.med,
                            100 * L.floor_s / L.il.med, L.ok ? "ok" : "MISMATCH");
                if (r == "gemm" && fr.lanes_per_s > 0) {
                    // n^3 FMAs per item; float lanes count twice (a 256-bit FMA holds 8).
                    const double peak = fr.lanes_per_s * (p == "d" ? 1.0 : 2.0), fmas = double(n) * n * n * double(batch);
                    std::printf(" | FMA peak %% std %4.1f%% il %4.1f%% (bound il/std <= %.2fx)", 100 * fmas / L.std_.med / peak,
                                100 * fmas / L.il.med / peak, L.std_.med * peak / fmas);
                }
                std::printf("\n");
                std::fflush(stdout);
            }
    return 0;
}
