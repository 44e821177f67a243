// test_cublas_dropin.cu -- the cuBLAS drop-in test (docs/cublas.md). Written only
// against cublas_v2.h and the CUDA runtime: no Kobalt header. It calls every entry
// point libkobalt-cublas.so exports, in every precision, on random data, and is run
// twice by run_dropin.sh:
//
//   test_cublas_dropin plain FILE   plain cuBLAS; records statuses, pivots, info values
//                                   and outputs into FILE
//   test_cublas_dropin shim FILE    the same calls through the shim (LD_PRELOAD, or the
//                                   twin executable linked with -lkobalt-cublas ahead of
//                                   -lcublas), compared with FILE: the same status
//                                   codes (bad arguments included), the same pivots on
//                                   random data, the same info values on singular items,
//                                   outputs as close as cuBLAS's own rounding allows
//                                   (forwarded calls: bit for bit), and the shim's
//                                   KOBALT_CUBLAS_VERBOSE=1 log naming the expected path
//                                   of every call (served by Kobalt or forwarded).
//
// Both modes also check every result against host references (products, scaled
// residuals of the factorisations, solves and inverses), so a plain run validates the
// test's own reading of cuBLAS. The first thing each mode checks is where the cuBLAS
// symbols resolve: libcublas (plain) or libkobalt-cublas (shim).
// Exit status 77 ("skipped") without a CUDA device.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

// ---- checks --------------------------------------------------------------------------
static long g_pass = 0, g_fail = 0;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) ++g_pass;                                                                        \
        else if (++g_fail < 60) {                                                                  \
            std::printf("FAIL %s:%d: ", __FILE__, __LINE__);                                       \
            std::printf(__VA_ARGS__);                                                              \
            std::printf("\n");                                                                     \
        }                                                                                          \
    } while (0)
#define CUDA_OK(x)                                                                                 \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);   \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

static bool g_shim = false;
static std::mt19937_64 g_rng(20251121);
static double rnd() { return std::uniform_real_distribution<double>(-1, 1)(g_rng); }

// ---- the recording of the plain run, and the comparison of the shim run with it ----------
static FILE *g_rec = nullptr;
struct Entry {
    std::string key;
    std::vector<double> v;
};
static void write_entry(const std::string &key, const std::vector<double> &v) {
    const uint32_t kl = uint32_t(key.size());
    const uint64_t n = v.size();
    std::fwrite(&kl, sizeof kl, 1, g_rec);
    std::fwrite(key.data(), 1, kl, g_rec);
    std::fwrite(&n, sizeof n, 1, g_rec);
    std::fwrite(v.data(), sizeof(double), v.size(), g_rec);
}
static bool read_entry(Entry &e) {
    uint32_t kl = 0;
    uint64_t n = 0;
    if (std::fread(&kl, sizeof kl, 1, g_rec) != 1) return false;
    e.key.resize(kl);
    if (kl && std::fread(&e.key[0], 1, kl, g_rec) != kl) return false;
    if (std::fread(&n, sizeof n, 1, g_rec) != 1) return false;
    e.v.resize(size_t(n));
    return n == 0 || std::fread(e.v.data(), sizeof(double), size_t(n), g_rec) == n;
}
// tol < 0: bit for bit; else |plain - shim| <= tol * max(1, max |plain|).
static void record(const std::string &key, const std::vector<double> &v, double tol) {
    if (!g_shim) {
        write_entry(key, v);
        return;
    }
    Entry e;
    if (!read_entry(e) || e.key != key) {
        CHECK(false, "%s: not found in the plain run's recording (got '%s')", key.c_str(), e.key.c_str());
        return;
    }
    if (e.v.size() != v.size()) {
        CHECK(false, "%s: %zu values, plain run %zu", key.c_str(), v.size(), e.v.size());
        return;
    }
    double scale = 1;
    for (double x : e.v)
        if (std::isfinite(x)) scale = std::max(scale, std::fabs(x));
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        const bool ok = tol < 0 ? std::memcmp(&v[i], &e.v[i], sizeof(double)) == 0
                                : (std::isnan(v[i]) && std::isnan(e.v[i])) || std::fabs(v[i] - e.v[i]) <= tol * scale;
        if (!ok && bad++ == 0) first = i;
    }
    CHECK(bad == 0, "%s: %zu of %zu values differ from the plain run (first [%zu]: %.17g, plain %.17g)", key.c_str(),
          bad, v.size(), first, bad ? v[first] : 0.0, bad ? e.v[first] : 0.0);
}
static void record_ints(const std::string &key, const std::vector<int> &v) {
    record(key, std::vector<double>(v.begin(), v.end()), -1);
}
static void record_status(const std::string &key, cublasStatus_t s) { record_ints(key + " status", {int(s)}); }

// ---- the shim's log ------------------------------------------------------------------------
// In shim mode stderr goes to a temporary file; after each call the new lines are read
// and the last line "kobalt-cublas: <fn>(" names the path the call took.
enum Path { SERVED, FORWARDED, EITHER };
static int g_log_read = -1;
static std::string g_log_pending;
static void expect_path(const char *fn, Path want, const std::string &what) {
    if (!g_shim) return;
    char buf[4096];
    ssize_t got;
    while ((got = read(g_log_read, buf, sizeof buf)) > 0) g_log_pending.append(buf, size_t(got));
    const std::string prefix = std::string("kobalt-cublas: ") + fn + "(";
    std::string last;
    size_t pos = 0;
    while (pos < g_log_pending.size()) {
        size_t end = g_log_pending.find('\n', pos);
        if (end == std::string::npos) end = g_log_pending.size();
        const std::string line = g_log_pending.substr(pos, end - pos);
        if (line.compare(0, prefix.size(), prefix) == 0) last = line;
        pos = end + 1;
    }
    g_log_pending.clear();
    if (last.empty()) {
        CHECK(false, "%s: the shim logged no line for %s", what.c_str(), fn);
        return;
    }
    const bool served = last.find(") -> kobalt") != std::string::npos;
    const bool forwarded = last.find(") -> cuBLAS") != std::string::npos;
    CHECK(served || forwarded, "%s: unreadable log line: %s", what.c_str(), last.c_str());
    if (want == SERVED) CHECK(served, "%s: expected Kobalt, log: %s", what.c_str(), last.c_str());
    if (want == FORWARDED) CHECK(forwarded, "%s: expected cuBLAS, log: %s", what.c_str(), last.c_str());
}

// ---- device buffers -------------------------------------------------------------------------
template <class T> struct Dev {
    T *p = nullptr;
    size_t n = 0;
    explicit Dev(size_t count) : n(std::max<size_t>(count, 1)) { CUDA_OK(cudaMalloc(&p, sizeof(T) * n)); }
    Dev(const std::vector<T> &h) : Dev(h.size()) { put(h); }
    ~Dev() { cudaFree(p); }
    Dev(const Dev &) = delete;
    void put(const std::vector<T> &h) { CUDA_OK(cudaMemcpy(p, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice)); }
    std::vector<T> get() const {
        std::vector<T> h(n);
        CUDA_OK(cudaMemcpy(h.data(), p, sizeof(T) * n, cudaMemcpyDeviceToHost));
        return h;
    }
};

// A batch of column-major rows x cols items (ld, gaps between items), host and device,
// with a device pointer array holding the items in reverse memory order.
template <class T> struct Mats {
    int rows, cols, ld, batch;
    long long stride;
    std::vector<T> h;
    Dev<T> d;
    Dev<T *> ptrs;
    Mats(int r, int c, int b, int pad = 1)
        : rows(r), cols(c), ld(std::max(1, r + pad)), batch(b), stride((long long)ld * std::max(c, 1) + 2),
          h(size_t(stride * std::max(b, 1)), T{}), d(h.size()), ptrs(size_t(std::max(b, 1))) {
        std::vector<T *> p(size_t(std::max(b, 1)));
        for (int i = 0; i < b; ++i) p[size_t(i)] = d.p + (long long)(b - 1 - i) * stride;
        ptrs.put(p);
    }
    // item i of the pointer-array form lives at slot b-1-i; the strided form uses slot i
    T &at(int slot, int r, int c) { return h[size_t(slot * stride + r + (long long)c * ld)]; }
    void up() { d.put(h); }
    void down() { h = d.get(); }
    T *const *arr() const { return ptrs.p; }
};
template <class T> std::vector<double> as_doubles(const std::vector<T> &v) { return std::vector<double>(v.begin(), v.end()); }

template <class T> double eps() { return double(std::numeric_limits<T>::epsilon()); }
template <class T> const char *P() { return sizeof(T) == 8 ? "D" : "S"; }

// ---- cuBLAS by type ---------------------------------------------------------------------------
template <class T> struct B;
#define KT_BIND(P, T)                                                                              \
    template <> struct B<T> {                                                                      \
        static constexpr auto gemmStrided = cublas##P##gemmStridedBatched;                         \
        static constexpr auto gemmStrided64 = cublas##P##gemmStridedBatched_64;                    \
        static constexpr auto gemm = cublas##P##gemmBatched;                                       \
        static constexpr auto gemm64 = cublas##P##gemmBatched_64;                                  \
        static constexpr auto gemvStrided = cublas##P##gemvStridedBatched;                         \
        static constexpr auto gemvStrided64 = cublas##P##gemvStridedBatched_64;                    \
        static constexpr auto gemv = cublas##P##gemvBatched;                                       \
        static constexpr auto gemv64 = cublas##P##gemvBatched_64;                                  \
        static constexpr auto trsm = cublas##P##trsmBatched;                                       \
        static constexpr auto trsm64 = cublas##P##trsmBatched_64;                                  \
        static constexpr auto getrf = cublas##P##getrfBatched;                                     \
        static constexpr auto getrs = cublas##P##getrsBatched;                                     \
        static constexpr auto getri = cublas##P##getriBatched;                                     \
        static constexpr auto matinv = cublas##P##matinvBatched;                                   \
        static constexpr auto geqrf = cublas##P##geqrfBatched;                                     \
        static constexpr auto gels = cublas##P##gelsBatched;                                       \
    };
KT_BIND(D, double)
KT_BIND(S, float)
KT_BIND(C, cuComplex)
KT_BIND(Z, cuDoubleComplex)
template <class T> struct G;
template <> struct G<double> {
    static constexpr auto grouped = cublasDgemmGroupedBatched;
    static constexpr auto grouped64 = cublasDgemmGroupedBatched_64;
};
template <> struct G<float> {
    static constexpr auto grouped = cublasSgemmGroupedBatched;
    static constexpr auto grouped64 = cublasSgemmGroupedBatched_64;
};

static std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static std::string fmt(const char *f, ...) {
    char b[512];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(b, sizeof b, f, ap);
    va_end(ap);
    return b;
}
static const char *opc(cublasOperation_t o) { return o == CUBLAS_OP_N ? "N" : o == CUBLAS_OP_T ? "T" : "C"; }
// The path a call of this size should take. With KOBALT_CUBLAS_<family>_MIN and _MAX in
// the environment (the LD_PRELOAD test sets them) the shim serves exactly that range;
// with the shim's defaults (the linked test), sizes 3 and 4 lie in every family's range,
// sizes above 32 in none (docs/cublas.md), and the rest depends on the family.
static Path expect(const char *family, int size) {
    const std::string f = std::string("KOBALT_CUBLAS_") + family;
    const char *lo = std::getenv((f + "_MIN").c_str()), *hi = std::getenv((f + "_MAX").c_str());
    if (lo && hi) return size >= std::atoi(lo) && size <= std::atoi(hi) ? SERVED : FORWARDED;
    return size > 32 ? FORWARDED : size >= 3 && size <= 4 ? SERVED : EITHER;
}

// ================================================================================================
// gemm: C = alpha op(A) op(B) + beta C against a host product; plain vs shim within rounding.
template <class T>
void gemm_case(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, int batch, T alpha,
               T beta, int form /*0 strided 1 batched 2 strided_64 3 batched_64*/) {
    const int ar = ta == CUBLAS_OP_N ? m : k, ac = ta == CUBLAS_OP_N ? k : m;
    const int br = tb == CUBLAS_OP_N ? k : n, bc = tb == CUBLAS_OP_N ? n : k;
    Mats<T> A(ar, ac, batch), Bm(br, bc, batch, 2), C(m, n, batch, 0);
    for (auto &v : A.h) v = T(rnd());
    for (auto &v : Bm.h) v = T(rnd());
    for (auto &v : C.h) v = beta == T(0) ? std::numeric_limits<T>::quiet_NaN() : T(rnd()); // beta 0: C not read
    const std::vector<T> c0 = C.h;
    A.up(), Bm.up(), C.up();
    static const char *forms[] = {"gemmStridedBatched", "gemmBatched", "gemmStridedBatched_64", "gemmBatched_64"};
    const std::string fn = std::string("cublas") + P<T>() + forms[form];
    cublasStatus_t s;
    if (form == 0)
        s = B<T>::gemmStrided(h, ta, tb, m, n, k, &alpha, A.d.p, A.ld, A.stride, Bm.d.p, Bm.ld, Bm.stride, &beta, C.d.p,
                              C.ld, C.stride, batch);
    else if (form == 1)
        s = B<T>::gemm(h, ta, tb, m, n, k, &alpha, (const T *const *)A.arr(), A.ld, (const T *const *)Bm.arr(), Bm.ld,
                       &beta, C.arr(), C.ld, batch);
    else if (form == 2)
        s = B<T>::gemmStrided64(h, ta, tb, m, n, k, &alpha, A.d.p, A.ld, A.stride, Bm.d.p, Bm.ld, Bm.stride, &beta,
                                C.d.p, C.ld, C.stride, batch);
    else
        s = B<T>::gemm64(h, ta, tb, m, n, k, &alpha, (const T *const *)A.arr(), A.ld, (const T *const *)Bm.arr(), Bm.ld,
                         &beta, C.arr(), C.ld, batch);
    CUDA_OK(cudaDeviceSynchronize());
    const std::string key = fmt("%s %s%s m=%d n=%d k=%d", fn.c_str(), opc(ta), opc(tb), m, n, k);
    expect_path(fn.c_str(), expect("GEMM", std::max({m, n, k})), key);
    record_status(key, s);
    CHECK(s == CUBLAS_STATUS_SUCCESS, "%s: status %d", key.c_str(), int(s));
    C.down();
    const bool ptr = form == 1 || form == 3;
    double worst = 0;
    for (int i = 0; i < batch; ++i) {
        const int sa = ptr ? batch - 1 - i : i;
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < m; ++r) {
                double acc = 0, mag = 0;
                for (int p = 0; p < k; ++p) {
                    const double a = ta == CUBLAS_OP_N ? double(A.at(sa, r, p)) : double(A.at(sa, p, r));
                    const double b = tb == CUBLAS_OP_N ? double(Bm.at(sa, p, c)) : double(Bm.at(sa, c, p));
                    acc += a * b, mag += std::fabs(a * b);
                }
                const double c0v = beta == T(0) ? 0.0 : double(c0[size_t(sa * C.stride + r + (long long)c * C.ld)]);
                const double want = double(alpha) * acc + double(beta) * c0v;
                const double err = std::fabs(double(C.at(sa, r, c)) - want) /
                                   ((k + 2) * eps<T>() * (std::fabs(double(alpha)) * mag + std::fabs(double(beta) * c0v) + 1e-300));
                worst = std::max(worst, std::isnan(err) ? INFINITY : err);
            }
    }
    CHECK(worst <= 4, "%s: error %.3g x the rounding bound", key.c_str(), worst);
    // padding and gaps of C must be as before
    bool pad = true;
    for (size_t e = 0; e < C.h.size(); ++e) {
        const long long item = (long long)e / C.stride, off = (long long)e % C.stride;
        const bool logical = item < batch && off % C.ld < m && off / C.ld < n;
        if (!logical) pad = pad && std::memcmp(&C.h[e], &c0[e], sizeof(T)) == 0;
    }
    CHECK(pad, "%s: padding of C written", key.c_str());
    record(key + " C", as_doubles(C.h), 64 * std::max(k, 1) * eps<T>());
}

template <class T> void gemm_all(cublasHandle_t h) {
    const cublasOperation_t ops[][2] = {{CUBLAS_OP_N, CUBLAS_OP_N}, {CUBLAS_OP_T, CUBLAS_OP_N}, {CUBLAS_OP_N, CUBLAS_OP_C},
                                         {CUBLAS_OP_C, CUBLAS_OP_T}};
    const int shapes[][3] = {{3, 5, 4}, {8, 8, 8}, {1, 7, 2}, {16, 12, 16}, {40, 40, 40}};
    for (auto &sh : shapes)
        for (auto &o : ops)
            for (int form = 0; form < 2; ++form)
                gemm_case<T>(h, o[0], o[1], sh[0], sh[1], sh[2], 37, T(1.5), T(-0.5), form);
    gemm_case<T>(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, 19, T(1), T(0), 0); // beta 0 over NaN C
    gemm_case<T>(h, CUBLAS_OP_T, CUBLAS_OP_T, 5, 6, 0, 5, T(2), T(3), 1);  // k = 0: C = beta C
    gemm_case<T>(h, CUBLAS_OP_N, CUBLAS_OP_T, 6, 5, 7, 23, T(1), T(1), 2);
    gemm_case<T>(h, CUBLAS_OP_T, CUBLAS_OP_N, 6, 5, 7, 23, T(1), T(1), 3);
    gemm_case<T>(h, CUBLAS_OP_N, CUBLAS_OP_N, 33, 8, 8, 11, T(1), T(1), 2);
}

// Grouped gemm: two or three groups, each checked against the host product.
template <class T, class I> void grouped_case(cublasHandle_t h, bool big) {
    const int ng = big ? 3 : 2;
    std::vector<cublasOperation_t> ta = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_N}, tb = {CUBLAS_OP_N, CUBLAS_OP_N, CUBLAS_OP_T};
    std::vector<I> m = {4, 3, big ? 40 : 2}, n = {4, 5, 6}, k = {4, 2, 3}, size = {5, 7, 4};
    std::vector<T> alpha = {T(1), T(2), T(-1)}, beta = {T(0.5), T(0), T(1)};
    std::vector<I> lda(3), ldb(3), ldc(3);
    int total = 0;
    for (int g = 0; g < ng; ++g) total += int(size[size_t(g)]);
    const int maxd = 40;
    Mats<T> A(maxd, maxd, total, 0), Bm(maxd, maxd, total, 0), C(maxd, maxd, total, 0);
    for (auto &v : A.h) v = T(rnd());
    for (auto &v : Bm.h) v = T(rnd());
    for (auto &v : C.h) v = T(rnd());
    const std::vector<T> c0 = C.h;
    A.up(), Bm.up(), C.up();
    for (int g = 0; g < 3; ++g) lda[size_t(g)] = ldb[size_t(g)] = ldc[size_t(g)] = A.ld;
    const bool is64 = sizeof(I) == 8;
    const std::string fn = std::string("cublas") + P<T>() + (is64 ? "gemmGroupedBatched_64" : "gemmGroupedBatched");
    cublasStatus_t s;
    if (is64)
        s = G<T>::grouped64(h, ta.data(), tb.data(), (const int64_t *)m.data(), (const int64_t *)n.data(),
                            (const int64_t *)k.data(), alpha.data(), (const T *const *)A.arr(), (const int64_t *)lda.data(),
                            (const T *const *)Bm.arr(), (const int64_t *)ldb.data(), beta.data(), C.arr(),
                            (const int64_t *)ldc.data(), ng, (const int64_t *)size.data());
    else
        s = G<T>::grouped(h, ta.data(), tb.data(), (const int *)m.data(), (const int *)n.data(), (const int *)k.data(),
                          alpha.data(), (const T *const *)A.arr(), (const int *)lda.data(), (const T *const *)Bm.arr(),
                          (const int *)ldb.data(), beta.data(), C.arr(), (const int *)ldc.data(), ng,
                          (const int *)size.data());
    CUDA_OK(cudaDeviceSynchronize());
    const std::string key = fmt("%s groups=%d%s", fn.c_str(), ng, big ? " (one group of 40)" : "");
    expect_path(fn.c_str(), big ? FORWARDED : SERVED, key);
    record_status(key, s);
    CHECK(s == CUBLAS_STATUS_SUCCESS, "%s: status %d", key.c_str(), int(s));
    C.down();
    double worst = 0;
    int item = 0;
    for (int g = 0; g < ng; ++g)
        for (int q = 0; q < int(size[size_t(g)]); ++q, ++item) {
            const int sl = total - 1 - item; // pointer arrays hold items in reverse memory order
            for (int c = 0; c < int(n[size_t(g)]); ++c)
                for (int r = 0; r < int(m[size_t(g)]); ++r) {
                    double acc = 0, mag = 0;
                    for (int p = 0; p < int(k[size_t(g)]); ++p) {
                        const double a = ta[size_t(g)] == CUBLAS_OP_N ? double(A.at(sl, r, p)) : double(A.at(sl, p, r));
                        const double b = tb[size_t(g)] == CUBLAS_OP_N ? double(Bm.at(sl, p, c)) : double(Bm.at(sl, c, p));
                        acc += a * b, mag += std::fabs(a * b);
                    }
                    const double cv = double(c0[size_t(sl * C.stride + r + (long long)c * C.ld)]);
                    const double want = double(alpha[size_t(g)]) * acc + double(beta[size_t(g)]) * cv;
                    const double err = std::fabs(double(C.at(sl, r, c)) - want) /
                                       ((k[size_t(g)] + 2) * eps<T>() * (std::fabs(double(alpha[size_t(g)])) * mag + std::fabs(cv) + 1e-300));
                    worst = std::max(worst, err);
                }
        }
    CHECK(worst <= 4, "%s: error %.3g x the rounding bound", key.c_str(), worst);
    record(key + " C", as_doubles(C.h), 64 * 40 * eps<T>());
}

// ================================================================================================
// gemv: y = alpha op(A) x + beta y.
template <class T>
void gemv_case(cublasHandle_t h, cublasOperation_t t, int m, int n, int incx, int incy, int batch, int form) {
    const int lx = t == CUBLAS_OP_N ? n : m, ly = t == CUBLAS_OP_N ? m : n;
    Mats<T> A(m, n, batch), X(1 + (lx - 1) * std::abs(incx), 1, batch, 0), Y(1 + (ly - 1) * std::abs(incy), 1, batch, 0);
    for (auto &v : A.h) v = T(rnd());
    for (auto &v : X.h) v = T(rnd());
    for (auto &v : Y.h) v = T(rnd());
    const std::vector<T> y0 = Y.h;
    A.up(), X.up(), Y.up();
    const T alpha = T(0.75), beta = T(-1.25);
    static const char *forms[] = {"gemvStridedBatched", "gemvBatched", "gemvStridedBatched_64", "gemvBatched_64"};
    const std::string fn = std::string("cublas") + P<T>() + forms[form];
    cublasStatus_t s;
    if (form == 0)
        s = B<T>::gemvStrided(h, t, m, n, &alpha, A.d.p, A.ld, A.stride, X.d.p, incx, X.stride, &beta, Y.d.p, incy,
                              Y.stride, batch);
    else if (form == 1)
        s = B<T>::gemv(h, t, m, n, &alpha, (const T *const *)A.arr(), A.ld, (const T *const *)X.arr(), incx, &beta,
                       Y.arr(), incy, batch);
    else if (form == 2)
        s = B<T>::gemvStrided64(h, t, m, n, &alpha, A.d.p, A.ld, A.stride, X.d.p, incx, X.stride, &beta, Y.d.p, incy,
                                Y.stride, batch);
    else
        s = B<T>::gemv64(h, t, m, n, &alpha, (const T *const *)A.arr(), A.ld, (const T *const *)X.arr(), incx, &beta,
                         Y.arr(), incy, batch);
    CUDA_OK(cudaDeviceSynchronize());
    const std::string key = fmt("%s %s m=%d n=%d incx=%d incy=%d", fn.c_str(), opc(t), m, n, incx, incy);
    expect_path(fn.c_str(), expect("GEMV", std::max(m, n)), key);
    record_status(key, s);
    CHECK(s == CUBLAS_STATUS_SUCCESS, "%s: status %d", key.c_str(), int(s));
    Y.down();
    const bool ptr = form == 1 || form == 3;
    auto xi = [&](int sl, int j) { return double(X.at(sl, incx > 0 ? j * incx : (lx - 1 - j) * -incx, 0)); };
    auto yi = [&](const std::vector<T> &v, int sl, int j) {
        return double(v[size_t(sl * Y.stride + (incy > 0 ? j * incy : (ly - 1 - j) * -incy))]);
    };
    double worst = 0;
    for (int i = 0; i < batch; ++i) {
        const int sl = ptr ? batch - 1 - i : i;
        for (int r = 0; r < ly; ++r) {
            double acc = 0, mag = 0;
            for (int j = 0; j < lx; ++j) {
                const double a = t == CUBLAS_OP_N ? double(A.at(sl, r, j)) : double(A.at(sl, j, r));
                acc += a * xi(sl, j), mag += std::fabs(a * xi(sl, j));
            }
            const double want = double(alpha) * acc + double(beta) * yi(y0, sl, r);
            const double err = std::fabs(yi(Y.h, sl, r) - want) /
                               ((lx + 2) * eps<T>() * (std::fabs(double(alpha)) * mag + std::fabs(double(beta) * yi(y0, sl, r)) + 1e-300));
            worst = std::max(worst, err);
        }
    }
    CHECK(worst <= 4, "%s: error %.3g x the rounding bound", key.c_str(), worst);
    record(key + " y", as_doubles(Y.h), 64 * std::max(lx, 1) * eps<T>());
}

template <class T> void gemv_all(cublasHandle_t h) {
    const int shapes[][2] = {{5, 3}, {8, 8}, {1, 6}, {32, 20}, {40, 40}};
    for (auto &sh : shapes)
        for (cublasOperation_t t : {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C})
            for (int form = 0; form < 2; ++form) gemv_case<T>(h, t, sh[0], sh[1], 1, 2, 29, form);
    gemv_case<T>(h, CUBLAS_OP_N, 6, 4, -1, 1, 13, 0); // negative increments: BLAS order
    gemv_case<T>(h, CUBLAS_OP_T, 6, 4, 2, -3, 13, 1);
    gemv_case<T>(h, CUBLAS_OP_N, 7, 5, 1, 1, 17, 2);
    gemv_case<T>(h, CUBLAS_OP_T, 7, 5, 1, 1, 17, 3);
}

// ================================================================================================
// trsm: op(A) X = alpha B (left) or X op(A) = alpha B (right), A well conditioned.
template <class T>
void trsm_case(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t t,
               cublasDiagType_t diag, int m, int n, int batch, bool is64) {
    const int na = side == CUBLAS_SIDE_LEFT ? m : n;
    Mats<T> A(na, na, batch), Bm(m, n, batch);
    for (auto &v : A.h) v = T(rnd());
    for (int s = 0; s < batch; ++s)
        for (int j = 0; j < na; ++j) A.at(s, j, j) = T((j % 2 ? -1 : 1) * (2.0 + std::fabs(rnd())));
    for (auto &v : Bm.h) v = T(rnd());
    const std::vector<T> b0 = Bm.h;
    A.up(), Bm.up();
    const T alpha = T(1.5);
    const std::string fn = std::string("cublas") + P<T>() + (is64 ? "trsmBatched_64" : "trsmBatched");
    const cublasStatus_t s =
        is64 ? B<T>::trsm64(h, side, uplo, t, diag, m, n, &alpha, (const T *const *)A.arr(), A.ld, Bm.arr(), Bm.ld, batch)
             : B<T>::trsm(h, side, uplo, t, diag, m, n, &alpha, (const T *const *)A.arr(), A.ld, Bm.arr(), Bm.ld, batch);
    CUDA_OK(cudaDeviceSynchronize());
    const std::string key = fmt("%s %s%s%s%s m=%d n=%d", fn.c_str(), side == CUBLAS_SIDE_LEFT ? "L" : "R",
                                uplo == CUBLAS_FILL_MODE_LOWER ? "L" : "U", opc(t), diag == CUBLAS_DIAG_UNIT ? "U" : "N", m, n);
    expect_path(fn.c_str(), expect("TRSM", std::max(m, n)), key);
    record_status(key, s);
    CHECK(s == CUBLAS_STATUS_SUCCESS, "%s: status %d", key.c_str(), int(s));
    Bm.down();
    // residual: op(A) X - alpha B0 (left) / X op(A) - alpha B0 (right), scaled
    double worst = 0;
    for (int i = 0; i < batch; ++i) {
        const int sl = batch - 1 - i;
        auto a = [&](int r, int c) -> double { // op(A)(r, c) with the triangle and diag applied
            const int rr = t == CUBLAS_OP_N ? r : c, cc = t == CUBLAS_OP_N ? c : r;
            if (rr == cc) return diag == CUBLAS_DIAG_UNIT ? 1.0 : double(A.at(sl, rr, cc));
            const bool in = uplo == CUBLAS_FILL_MODE_LOWER ? rr > cc : rr < cc;
            return in ? double(A.at(sl, rr, cc)) : 0.0;
        };
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < m; ++r) {
                double v = 0, mag = 0;
                if (side == CUBLAS_SIDE_LEFT)
                    for (int p = 0; p < m; ++p) v += a(r, p) * double(Bm.at(sl, p, c)), mag += std::fabs(a(r, p) * double(Bm.at(sl, p, c)));
                else
                    for (int p = 0; p < n; ++p) v += double(Bm.at(sl, r, p)) * a(p, c), mag += std::fabs(double(Bm.at(sl, r, p)) * a(p, c));
                const double want = double(alpha) * double(b0[size_t(sl * Bm.stride + r + (long long)c * Bm.ld)]);
                worst = std::max(worst, std::fabs(v - want) / ((na + 2) * eps<T>() * (mag + std::fabs(want) + 1e-300)));
            }
    }
    CHECK(worst <= 8, "%s: residual %.3g x the rounding bound", key.c_str(), worst);
    record(key + " B", as_doubles(Bm.h), 256 * na * eps<T>());
}

template <class T> void trsm_all(cublasHandle_t h) {
    for (cublasSideMode_t sd : {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT})
        for (cublasFillMode_t up : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
            for (cublasOperation_t t : {CUBLAS_OP_N, CUBLAS_OP_T})
                for (cublasDiagType_t dg : {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT}) trsm_case<T>(h, sd, up, t, dg, 5, 3, 21, false);
    trsm_case<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, CUBLAS_DIAG_NON_UNIT, 8, 8, 21, true);
    trsm_case<T>(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 16, 32, 9, false);
    trsm_case<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, 40, 8, 9, false);
}

// ================================================================================================
// LU helpers (host, column-major, dgetf2 pivots).
static int host_lu(std::vector<double> &a, int n, std::vector<int> &piv, bool pivot) {
    int info = 0;
    piv.assign(size_t(n), 0);
    for (int j = 0; j < n; ++j) {
        int p = j;
        if (pivot)
            for (int i = j + 1; i < n; ++i)
                if (std::fabs(a[size_t(i + j * n)]) > std::fabs(a[size_t(p + j * n)])) p = i;
        piv[size_t(j)] = p + 1;
        if (a[size_t(p + j * n)] != 0) {
            if (p != j)
                for (int c = 0; c < n; ++c) std::swap(a[size_t(j + c * n)], a[size_t(p + c * n)]);
            for (int i = j + 1; i < n; ++i) a[size_t(i + j * n)] /= a[size_t(j + j * n)];
        } else if (!info) {
            info = j + 1;
        }
        for (int c = j + 1; c < n; ++c)
            for (int i = j + 1; i < n; ++i) a[size_t(i + c * n)] -= a[size_t(i + j * n)] * a[size_t(j + c * n)];
    }
    return info;
}
// ||A C - I||_1 / (n eps ||A||_1 ||C||_1)
static double inverse_residual(const std::vector<double> &A, const std::vector<double> &C, int n, double e) {
    double an = 0, cn = 0, rn = 0;
    for (int j = 0; j < n; ++j) {
        double sa = 0, sc = 0, sr = 0;
        for (int i = 0; i < n; ++i) {
            if (!std::isfinite(C[size_t(i + j * n)])) return INFINITY;
            sa += std::fabs(A[size_t(i + j * n)]), sc += std::fabs(C[size_t(i + j * n)]);
            double v = i == j ? -1.0 : 0.0;
            for (int k = 0; k < n; ++k) v += A[size_t(i + k * n)] * C[size_t(k + j * n)];
            sr += std::fabs(v);
        }
        an = std::max(an, sa), cn = std::max(cn, sc), rn = std::max(rn, sr);
    }
    return n ? rn / (n * e * an * cn) : 0.0;
}
template <class T> std::vector<double> item(Mats<T> &M, int slot) {
    std::vector<double> a(size_t(M.rows * M.cols));
    for (int c = 0; c < M.cols; ++c)
        for (int r = 0; r < M.rows; ++r) a[size_t(r + c * M.rows)] = double(M.at(slot, r, c));
    return a;
}

// getrf: pivots equal to the plain run's (random items), info equal (singular items: a
// zero column), ||P A - L U|| small.
template <class T> void getrf_case(cublasHandle_t h, int n, int batch, bool pivot, bool singular) {
    Mats<T> A(n, n, batch);
    for (auto &v : A.h) v = T(rnd());
    for (int s = 0; s < batch; ++s) {
        if (!pivot)
            for (int j = 0; j < n; ++j) A.at(s, j, j) = T((j % 2 ? -1 : 1) * (2.0 * n + 1));
        if (singular && s % 3 == 1)
            for (int r = 0; r < n; ++r) A.at(s, r, (s / 3) % n) = T(0);
    }
    std::vector<T> before = A.h;
    A.up();
    Dev<int> piv{size_t(n) * batch}, info{size_t(batch)};
    std::vector<int> p0(size_t(n) * batch, -5), i0(size_t(batch), -5);
    piv.put(p0), info.put(i0);
    const std::string fn = std::string("cublas") + P<T>() + "getrfBatched";
    const cublasStatus_t s = B<T>::getrf(h, n, A.arr(), A.ld, pivot ? piv.p : nullptr, info.p, batch);
    CUDA_OK(cudaDeviceSynchronize());
    const std::string key = fmt("%s n=%d%s%s", fn.c_str(), n, pivot ? "" : " no pivoting", singular ? " singular items" : "");
    expect_path(fn.c_str(), expect("GETRF", n), key);
    record_status(key, s);
    CHECK(s == CUBLAS_STATUS_SUCCESS, "%s: status %d", key.c_str(), int(s));
    A.down();
    const std::vector<int> pv = piv.get(), iv = info.get();
    record_ints(key + " info", iv);
    if (!singular && pivot) record_ints(key + " ipiv", pv);
    double worst = 0;
    for (int i = 0; i < batch; ++i) {
        const int sl = batch - 1 - i;
        const bool sing = singular && sl % 3 == 1;
        if (sing) {
            CHECK(iv[size_t(i)] > 0, "%s item %d: singular, info %d", key.c_str(), i, iv[size_t(i)]);
            continue;
        }
        CHECK(iv[size_t(i)] == 0, "%s item %d: info %d", key.c_str(), i, iv[size_t(i)]);
        // P A - L U
        std::vector<double> a(size_t(n * n)), f = item(A, sl);
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < n; ++r) a[size_t(r + c * n)] = double(before[size_t(sl * A.stride + r + (long long)c * A.ld)]);
        if (pivot)
            for (int j = 0; j < n; ++j) {
                const int p = pv[size_t(i * n + j)] - 1;
                if (p < j || p >= n) {
                    worst = INFINITY;
                    break;
                }
                for (int c = 0; c < n; ++c) std::swap(a[size_t(j + c * n)], a[size_t(p + c * n)]);
            }
        double rn = 0, an = 0;
        for (int c = 0; c < n; ++c) {
            double sr = 0, sa = 0;
            for (int r = 0; r < n; ++r) {
                double v = 0;
                for (int k = 0; k <= std::min(r, c); ++k) v += (k == r ? 1.0 : f[size_t(r + k * n)]) * f[size_t(k + c * n)];
                sr += std::fabs(v - a[size_t(r + c * n)]), sa += std::fabs(a[size_t(r + c * n)]);
            }
            rn = std::max(rn, sr), an = std::max(an, sa);
        }
        worst = std::max(worst, rn / (n * eps<T>() * an));
    }
    CHECK(worst < 30, "%s: ||PA - LU|| scaled residual %.3g", key.c_str(), worst);
}

// getrs / getri use factors made on the host (identical input in both runs).
template <class T> struct Factored {
    Mats<T> A;         // the factors
    std::vector<std::vector<double>> orig;
    std::vector<int> piv; // n per item, item i in pointer-array order
    Dev<int> dpiv;
    Factored(int n, int batch, bool pivot, bool singular) : A(n, n, batch), orig(size_t(batch)), piv(size_t(n) * batch), dpiv(size_t(n) * batch) {
        for (int i = 0; i < batch; ++i) {
            std::vector<double> a(size_t(n * n));
            for (int c = 0; c < n; ++c)
                for (int r = 0; r < n; ++r) a[size_t(r + c * n)] = double(T(rnd() + (!pivot && r == c ? (c % 2 ? -1 : 1) * (2.0 * n + 1) : 0)));
            orig[size_t(i)] = a;
            std::vector<int> p;
            host_lu(a, n, p, pivot);
            if (singular && i % 3 == 1) a[size_t((i / 3) % n) * (n + 1)] = 0; // a zero on U's diagonal
            const int sl = batch - 1 - i;
            for (int c = 0; c < n; ++c)
                for (int r = 0; r < n; ++r) A.at(sl, r, c) = T(a[size_t(r + c * n)]);
            for (int j = 0; j < n; ++j) piv[size_t(i * n + j)] = p[size_t(j)];
        }
        A.up();
        dpiv.put(piv);
    }
};

template <class T> void getrs_case(cublasHandle_t h, cublasOperation_t t, int n, int nrhs, int batch, bool pivot) {
    Factored<T> F(n, batch, pivot, false);
    Mats<T> X(n, nrhs, batch);
    for (auto &v : X.h) v = T(rnd());
    const std::vector<T> b0 = X.h;
    X.up();
    int hinfo = -99;
    const std::string fn = std::string("cublas") + P<T>() + "getrsBatched";
    const cublasStatus_t s = B<T>::getrs(h, t, n, nrhs, (const T *const *)F.A.arr(), F.A.ld, pivot ? F.dpiv.p : nullptr,
                                         X.arr(), X.ld, &hinfo, batch);
    CUDA_OK(cudaDeviceSynchronize());
    const std::string key = fmt("%s %s n=%d nrhs=%d%s", fn.c_str(), opc(t), n, nrhs, pivot ? "" : " no pivoting");
    expect_path(fn.c_str(), expect("GETRS", n), key);
    record_status(key, s);
    record_ints(key + " info", {hinfo});
    CHECK(s == CUBLAS_STATUS_SUCCESS && hinfo == 0, "%s: status %d info %d", key.c_str(), int(s), hinfo);
    X.down();
    double worst = 0;
    for (int i = 0; i < batch; ++i) {
        const int sl = batch - 1 - i;
        const std::vector<double> &a = F.orig[size_t(i)];
        for (int c = 0; c < nrhs; ++c) {
            double rn = 0, xn = 0, an = 0;
            for (int r = 0; r < n; ++r) {
                double v = 0;
                for (int k = 0; k < n; ++k) v += (t == CUBLAS_OP_N ? a[size_t(r + k * n)] : a[size_t(k + r * n)]) * double(X.at(sl, k, c));
                rn += std::fabs(v - double(b0[size_t(sl * X.stride + r + (long long)c * X.ld)]));
                xn += std::fabs(double(X.at(sl, r, c)));
            }
            for (int cc = 0; cc < n; ++cc) {
                double sa = 0;
                for (int r = 0; r < n; ++r) sa += std::fabs(a[size_t(r + cc * n)]);
                an = std::max(an, sa);
            }
            worst = std::max(worst, rn / (n * eps<T>() * an * xn + 1e-300));
        }
    }
    CHECK(worst < 30, "%s: ||op(A) x - b|| scaled residual %.3g", key.c_str(), worst);
}

template <class T> void getri_case(cublasHandle_t h, int n, int batch, bool pivot, bool singular) {
    Factored<T> F(n, batch, pivot, singular);
    Mats<T> C(n, n, batch);
    for (auto &v : C.h) v = T(rnd());
    C.up();
    Dev<int> info{size_t(batch)};
    info.put(std::vector<int>(size_t(batch), -5));
    const std::string fn = std::string("cublas") + P<T>() + "getriBatched";
    const cublasStatus_t s = B<T>::getri(h, n, (const T *const *)F.A.arr(), F.A.ld, pivot ? F.dpiv.p : nullptr, C.arr(),
                                         C.ld, info.p, batch);
    CUDA_OK(cudaDeviceSynchronize());
    const std::string key = fmt("%s n=%d%s%s", fn.c_str(), n, pivot ? "" : " no pivoting", singular ? " singular items" : "");
    expect_path(fn.c_str(), expect("GETRI", n), key);
    record_status(key, s);
    CHECK(s == CUBLAS_STATUS_SUCCESS, "%s: status %d", key.c_str(), int(s));
    C.down();
    const std::vector<int> iv = info.get();
    record_ints(key + " info", iv);
    double worst = 0;
    for (int i = 0; i < batch; ++i) {
        if (singular && i % 3 == 1) {
            CHECK(iv[size_t(i)] == (i / 3) % n + 1, "%s item %d: info %d, expected %d", key.c_str(), i, iv[size_t(i)], (i / 3) % n + 1);
            continue;
        }
        CHECK(iv[size_t(i)] == 0, "%s item %d: info %d", key.c_str(), i, iv[size_t(i)]);
        worst = std::max(worst, inverse_residual(F.orig[size_t(i)], item(C, batch - 1 - i), n, eps<T>()));
    }
    CHECK(worst < 30, "%s: ||A C - I|| scaled residual %.3g", key.c_str(), worst);
}

template <class T> void matinv_case(cublasHandle_t h, int n, int batch, bool singular) {
    Mats<T> A(n, n, batch), C(n, n, batch);
    for (auto &v : A.h) v = T(rnd());
    for (int s = 0; s < batch; ++s)
        if (singular && (batch - 1 - s) % 3 == 1)
            for (int r = 0; r < n; ++r) A.at(s, r, ((batch - 1 - s) / 3) % n) = T(0);
    for (auto &v : C.h) v = T(rnd());
    const std::vector<T> a0 = A.h;
    A.up(), C.up();
    Dev<int> info{size_t(batch)};
    info.put(std::vector<int>(size_t(batch), -5));
    const std::string fn = std::string("cublas") + P<T>() + "matinvBatched";
    const cublasStatus_t s = B<T>::matinv(h, n, (const T *const *)A.arr(), A.ld, C.arr(), C.ld, info.p, batch);
    CUDA_OK(cudaDeviceSynchronize());
    const std::string key = fmt("%s n=%d%s", fn.c_str(), n, singular ? " singular items" : "");
    expect_path(fn.c_str(), expect("MATINV", n), key);
    record_status(key, s);
    CHECK(s == CUBLAS_STATUS_SUCCESS, "%s: status %d", key.c_str(), int(s));
    A.down(), C.down();
    CHECK(A.h == a0, "%s: A changed", key.c_str());
    const std::vector<int> iv = info.get();
    record_ints(key + " info", iv);
    double worst = 0;
    for (int i = 0; i < batch; ++i) {
        if (singular && i % 3 == 1) {
            CHECK(iv[size_t(i)] == (i / 3) % n + 1, "%s item %d: info %d, expected %d", key.c_str(), i, iv[size_t(i)], (i / 3) % n + 1);
            continue;
        }
        CHECK(iv[size_t(i)] == 0, "%s item %d: info %d", key.c_str(), i, iv[size_t(i)]);
        worst = std::max(worst, inverse_residual(item(A, batch - 1 - i), item(C, batch - 1 - i), n, eps<T>()));
    }
    CHECK(worst < 30, "%s: ||A C - I|| scaled residual %.3g", key.c_str(), worst);
}

template <class T> void lapack_all(cublasHandle_t h) {
    for (int n : {1, 2, 3, 5, 8, 16, 32, 40}) {
        getrf_case<T>(h, n, 57, true, false);
        getrf_case<T>(h, n, 30, true, true);
        getri_case<T>(h, n, 31, true, false);
        getri_case<T>(h, n, 30, true, true);
        if (n <= 32) { // cuBLAS's matinv refuses n > 32 (bad_arguments checks that status)
            matinv_case<T>(h, n, 31, false);
            matinv_case<T>(h, n, 30, true);
        }
        for (cublasOperation_t t : {CUBLAS_OP_N, CUBLAS_OP_T}) getrs_case<T>(h, t, n, n % 3 + 1, 23, true);
    }
    getrf_case<T>(h, 6, 25, false, false);
    getri_case<T>(h, 6, 25, false, false);
    getrs_case<T>(h, CUBLAS_OP_C, 7, 2, 19, false);
    if (sizeof(T) == 8) getrf_case<T>(h, 4, 70001, true, false); // many items (double: float near-ties
                                                                  // could legitimately swap pivots)
}

// ================================================================================================
// Forwarded routines: geqrf, gels (all precisions) and every complex routine. Outputs must
// equal the plain run's bit for bit (the shim hands the call to cuBLAS unchanged).
template <class T> T make(double re, double im);
template <> double make<double>(double re, double) { return re; }
template <> float make<float>(double re, double) { return float(re); }
template <> cuComplex make<cuComplex>(double re, double im) { return make_cuComplex(float(re), float(im)); }
template <> cuDoubleComplex make<cuDoubleComplex>(double re, double im) { return make_cuDoubleComplex(re, im); }
template <class T> constexpr bool is_complex() {
    return std::is_same<T, cuComplex>::value || std::is_same<T, cuDoubleComplex>::value;
}
// The values of a buffer as doubles (complex: real and imaginary parts), exactly.
template <class T> std::vector<double> values(const std::vector<T> &v) {
    using Part = typename std::conditional<sizeof(T) == 4 || std::is_same<T, cuComplex>::value, float, double>::type;
    constexpr size_t parts = sizeof(T) / sizeof(Part);
    std::vector<double> o;
    o.reserve(v.size() * parts);
    for (const T &x : v) {
        Part p[parts];
        std::memcpy(p, &x, sizeof(T));
        for (size_t k = 0; k < parts; ++k) o.push_back(double(p[k]));
    }
    return o;
}
template <class T> const char *PC() {
    return std::is_same<T, double>::value ? "D" : std::is_same<T, float>::value ? "S" : std::is_same<T, cuComplex>::value ? "C" : "Z";
}

template <class T> void qr_ls(cublasHandle_t h) {
    const int m = 6, n = 4, nrhs = 2, batch = 5;
    Mats<T> A(m, n, batch, 0), Tau(n, 1, batch, 0), C(m, nrhs, batch, 0);
    for (auto &v : A.h) v = make<T>(rnd(), rnd());
    for (auto &v : C.h) v = make<T>(rnd(), rnd());
    A.up(), C.up(), Tau.up();
    int info = -99;
    std::string fn = std::string("cublas") + PC<T>() + "geqrfBatched";
    cublasStatus_t s = B<T>::geqrf(h, m, n, A.arr(), A.ld, Tau.arr(), &info, batch);
    CUDA_OK(cudaDeviceSynchronize());
    expect_path(fn.c_str(), FORWARDED, fn);
    record_status(fn, s);
    record_ints(fn + " info", {info});
    A.down(), Tau.down();
    record(fn + " A", values(A.h), -1);
    record(fn + " tau", values(Tau.h), -1);
    // gels on fresh A
    for (auto &v : A.h) v = make<T>(rnd(), rnd());
    A.up();
    Dev<int> dinfo{size_t(batch)};
    dinfo.put(std::vector<int>(size_t(batch), -5));
    info = -99;
    fn = std::string("cublas") + PC<T>() + "gelsBatched";
    s = B<T>::gels(h, CUBLAS_OP_N, m, n, nrhs, A.arr(), A.ld, C.arr(), C.ld, &info, dinfo.p, batch);
    CUDA_OK(cudaDeviceSynchronize());
    expect_path(fn.c_str(), FORWARDED, fn);
    record_status(fn, s);
    record_ints(fn + " info", {info});
    record_ints(fn + " devInfo", dinfo.get());
    C.down();
    record(fn + " C", values(C.h), -1);
}

template <class T> void complex_all(cublasHandle_t h) {
    const int n = 3, batch = 3;
    const T one = make<T>(1, 0.5), zero = make<T>(0.25, 0);
    Mats<T> A(n, n, batch), Bm(n, n, batch), C(n, n, batch), X(n, 1, batch, 0), Y(n, 1, batch, 0);
    auto fill = [&](Mats<T> &M) { for (auto &v : M.h) v = make<T>(rnd(), rnd()); M.up(); };
    auto run = [&](const std::string &fn, cublasStatus_t s, Mats<T> &out) {
        CUDA_OK(cudaDeviceSynchronize());
        expect_path(fn.c_str(), FORWARDED, fn);
        record_status(fn, s);
        CHECK(s == CUBLAS_STATUS_SUCCESS, "%s: status %d", fn.c_str(), int(s));
        out.down();
        record(fn + " out", values(out.h), -1);
    };
    const std::string p = std::string("cublas") + PC<T>();
    fill(A), fill(Bm), fill(C), fill(X), fill(Y);
    run(p + "gemmStridedBatched", B<T>::gemmStrided(h, CUBLAS_OP_N, CUBLAS_OP_C, n, n, n, &one, A.d.p, A.ld, A.stride, Bm.d.p, Bm.ld, Bm.stride, &zero, C.d.p, C.ld, C.stride, batch), C);
    run(p + "gemmStridedBatched_64", B<T>::gemmStrided64(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, A.d.p, A.ld, A.stride, Bm.d.p, Bm.ld, Bm.stride, &zero, C.d.p, C.ld, C.stride, batch), C);
    run(p + "gemmBatched", B<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, (const T *const *)A.arr(), A.ld, (const T *const *)Bm.arr(), Bm.ld, &zero, C.arr(), C.ld, batch), C);
    run(p + "gemmBatched_64", B<T>::gemm64(h, CUBLAS_OP_C, CUBLAS_OP_N, n, n, n, &one, (const T *const *)A.arr(), A.ld, (const T *const *)Bm.arr(), Bm.ld, &zero, C.arr(), C.ld, batch), C);
    run(p + "gemvStridedBatched", B<T>::gemvStrided(h, CUBLAS_OP_N, n, n, &one, A.d.p, A.ld, A.stride, X.d.p, 1, X.stride, &zero, Y.d.p, 1, Y.stride, batch), Y);
    run(p + "gemvStridedBatched_64", B<T>::gemvStrided64(h, CUBLAS_OP_C, n, n, &one, A.d.p, A.ld, A.stride, X.d.p, 1, X.stride, &zero, Y.d.p, 1, Y.stride, batch), Y);
    run(p + "gemvBatched", B<T>::gemv(h, CUBLAS_OP_T, n, n, &one, (const T *const *)A.arr(), A.ld, (const T *const *)X.arr(), 1, &zero, Y.arr(), 1, batch), Y);
    run(p + "gemvBatched_64", B<T>::gemv64(h, CUBLAS_OP_N, n, n, &one, (const T *const *)A.arr(), A.ld, (const T *const *)X.arr(), 1, &zero, Y.arr(), 1, batch), Y);
    for (auto &v : A.h) v = make<T>(rnd(), rnd());
    for (int s = 0; s < batch; ++s) for (int j = 0; j < n; ++j) A.at(s, j, j) = make<T>(3, 1);
    A.up();
    run(p + "trsmBatched", B<T>::trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &one, (const T *const *)A.arr(), A.ld, Bm.arr(), Bm.ld, batch), Bm);
    run(p + "trsmBatched_64", B<T>::trsm64(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, CUBLAS_DIAG_UNIT, n, n, &one, (const T *const *)A.arr(), A.ld, Bm.arr(), Bm.ld, batch), Bm);
    Dev<int> piv{size_t(n) * batch}, info{size_t(batch)};
    run(p + "getrfBatched", B<T>::getrf(h, n, A.arr(), A.ld, piv.p, info.p, batch), A);
    record_ints(p + "getrfBatched piv/info", [&] { auto a = piv.get(); auto b = info.get(); a.insert(a.end(), b.begin(), b.end()); return a; }());
    int hinfo = -99;
    run(p + "getrsBatched", B<T>::getrs(h, CUBLAS_OP_N, n, 1, (const T *const *)A.arr(), A.ld, piv.p, X.arr(), n, &hinfo, batch), X);
    record_ints(p + "getrsBatched info", {hinfo});
    run(p + "getriBatched", B<T>::getri(h, n, (const T *const *)A.arr(), A.ld, piv.p, C.arr(), C.ld, info.p, batch), C);
    fill(A);
    run(p + "matinvBatched", B<T>::matinv(h, n, (const T *const *)A.arr(), A.ld, C.arr(), C.ld, info.p, batch), C);
    record_ints(p + "matinvBatched info", info.get());
}

// ================================================================================================
// Bad arguments: the status (and getrs's host info) must be cuBLAS's; nothing is served.
template <class T> void bad_arguments(cublasHandle_t h) {
    const int n = 4, b = 3;
    Mats<T> A(n, n, b), Bm(n, n, b), C(n, n, b);
    Dev<int> piv{size_t(n) * b}, info{size_t(b)};
    const T one = T(1), zero = T(0);
    const std::string p = std::string("cublas") + P<T>();
    auto st = [&](const std::string &what, const char *fn, cublasStatus_t s) {
        CUDA_OK(cudaDeviceSynchronize());
        expect_path(fn, FORWARDED, what);
        record_status(what, s);
    };
    std::string f = p + "gemmStridedBatched";
    st(f + " m<0", f.c_str(), B<T>::gemmStrided(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, n, n, &one, A.d.p, A.ld, A.stride, Bm.d.p, Bm.ld, Bm.stride, &zero, C.d.p, C.ld, C.stride, b));
    st(f + " lda<m", f.c_str(), B<T>::gemmStrided(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.d.p, n - 1, A.stride, Bm.d.p, Bm.ld, Bm.stride, &zero, C.d.p, C.ld, C.stride, b));
    st(f + " batch<0", f.c_str(), B<T>::gemmStrided(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.d.p, A.ld, A.stride, Bm.d.p, Bm.ld, Bm.stride, &zero, C.d.p, C.ld, C.stride, -1));
    st(f + " batch=0", f.c_str(), B<T>::gemmStrided(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.d.p, A.ld, A.stride, Bm.d.p, Bm.ld, Bm.stride, &zero, C.d.p, C.ld, C.stride, 0));
    st(f + " transa=7", f.c_str(), B<T>::gemmStrided(h, cublasOperation_t(7), CUBLAS_OP_N, n, n, n, &one, A.d.p, A.ld, A.stride, Bm.d.p, Bm.ld, Bm.stride, &zero, C.d.p, C.ld, C.stride, b));
    f = p + "gemmBatched";
    st(f + " ldc<m", f.c_str(), B<T>::gemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, (const T *const *)A.arr(), A.ld, (const T *const *)Bm.arr(), Bm.ld, &zero, C.arr(), n - 2, b));
    st(f + " m=0", f.c_str(), B<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, n, n, &one, (const T *const *)A.arr(), A.ld, (const T *const *)Bm.arr(), Bm.ld, &zero, C.arr(), C.ld, b));
    f = p + "gemvStridedBatched";
    st(f + " incx=0", f.c_str(), B<T>::gemvStrided(h, CUBLAS_OP_N, n, n, &one, A.d.p, A.ld, A.stride, Bm.d.p, 0, Bm.stride, &zero, C.d.p, 1, C.stride, b));
    st(f + " n<0", f.c_str(), B<T>::gemvStrided(h, CUBLAS_OP_N, n, -2, &one, A.d.p, A.ld, A.stride, Bm.d.p, 1, Bm.stride, &zero, C.d.p, 1, C.stride, b));
    f = p + "gemvBatched";
    st(f + " lda<m", f.c_str(), B<T>::gemv(h, CUBLAS_OP_T, n, n, &one, (const T *const *)A.arr(), n - 1, (const T *const *)Bm.arr(), 1, &zero, C.arr(), 1, b));
    f = p + "trsmBatched";
    st(f + " side=5", f.c_str(), B<T>::trsm(h, cublasSideMode_t(5), CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, n, &one, (const T *const *)A.arr(), A.ld, Bm.arr(), Bm.ld, b));
    st(f + " ldb<m", f.c_str(), B<T>::trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, n, &one, (const T *const *)A.arr(), A.ld, Bm.arr(), n - 1, b));
    f = p + "getrfBatched";
    st(f + " n<0", f.c_str(), B<T>::getrf(h, -1, A.arr(), A.ld, piv.p, info.p, b));
    st(f + " lda<n", f.c_str(), B<T>::getrf(h, n, A.arr(), n - 1, piv.p, info.p, b));
    st(f + " batch<0", f.c_str(), B<T>::getrf(h, n, A.arr(), A.ld, piv.p, info.p, -1));
    st(f + " n=0", f.c_str(), B<T>::getrf(h, 0, A.arr(), A.ld, piv.p, info.p, b));
    f = p + "getrsBatched";
    for (int which = 0; which < 4; ++which) {
        int hinfo = -99;
        const int nn = which == 0 ? -1 : n, nr = which == 1 ? -1 : 1, la = which == 2 ? n - 1 : A.ld, lb = which == 3 ? n - 1 : Bm.ld;
        st(f + fmt(" bad #%d", which), f.c_str(), B<T>::getrs(h, CUBLAS_OP_N, nn, nr, (const T *const *)A.arr(), la, piv.p, Bm.arr(), lb, &hinfo, b));
        record_ints(f + fmt(" bad #%d info", which), {hinfo});
    }
    f = p + "getriBatched";
    st(f + " ldc<n", f.c_str(), B<T>::getri(h, n, (const T *const *)A.arr(), A.ld, piv.p, C.arr(), n - 1, info.p, b));
    st(f + " lda<n", f.c_str(), B<T>::getri(h, n, (const T *const *)A.arr(), n - 1, piv.p, C.arr(), C.ld, info.p, b));
    f = p + "matinvBatched";
    {
        Mats<T> A33(33, 33, 2), C33(33, 33, 2);
        st(f + " n=33", f.c_str(), B<T>::matinv(h, 33, (const T *const *)A33.arr(), A33.ld, C33.arr(), C33.ld, info.p, 2));
    }
    st(f + " lda<n", f.c_str(), B<T>::matinv(h, n, (const T *const *)A.arr(), n - 1, C.arr(), C.ld, info.p, b));
    st(f + " n<0", f.c_str(), B<T>::matinv(h, -3, (const T *const *)A.arr(), A.ld, C.arr(), C.ld, info.p, b));
}

// ================================================================================================
// The handle: alpha/beta in device memory are forwarded; a non-blocking stream set on the
// handle orders the shim's work after the work already queued on it.
__global__ void late_write(double *a, long long count, double value, long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) a[i] = value;
}

void handle_modes(cublasHandle_t h) {
    const int n = 4, batch = 64;
    Mats<double> A(n, n, batch), Bm(n, n, batch), C(n, n, batch);
    for (auto &v : A.h) v = rnd();
    for (auto &v : Bm.h) v = rnd();
    A.up(), Bm.up(), C.up();
    // pointer mode device
    Dev<double> ab(std::vector<double>{2.0, 0.0});
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    cublasStatus_t s = cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, ab.p, A.d.p, A.ld, A.stride,
                                                 Bm.d.p, Bm.ld, Bm.stride, ab.p + 1, C.d.p, C.ld, C.stride, batch);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    CUDA_OK(cudaDeviceSynchronize());
    expect_path("cublasDgemmStridedBatched", FORWARDED, "device pointer mode");
    record_status("device pointer mode", s);
    C.down();
    record("device pointer mode C", C.h, -1);
    // stream: every A becomes 1 only after a ~20 ms spin on the stream; C = A*B must see it
    cudaStream_t st;
    CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cublasSetStream(h, st);
    late_write<<<64, 128, 0, st>>>(A.d.p, (long long)A.h.size(), 1.0, 40000000LL);
    const double one = 1, zero = 0;
    s = cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.d.p, A.ld, A.stride, Bm.d.p, Bm.ld,
                                  Bm.stride, &zero, C.d.p, C.ld, C.stride, batch);
    CUDA_OK(cudaStreamSynchronize(st));
    expect_path("cublasDgemmStridedBatched", SERVED, "user stream");
    record_status("user stream", s);
    C.down();
    double worst = 0;
    for (int i = 0; i < batch; ++i)
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < n; ++r) {
                double want = 0;
                for (int k = 0; k < n; ++k) want += Bm.at(i, k, c);
                worst = std::max(worst, std::fabs(C.at(i, r, c) - want));
            }
    CHECK(worst < 1e-12, "user stream: the product did not wait for the work queued before it (error %g)", worst);
    cublasSetStream(h, nullptr);
    CUDA_OK(cudaStreamDestroy(st));
}

// ================================================================================================
int main(int argc, char **argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (argc != 3 || (std::strcmp(argv[1], "plain") != 0 && std::strcmp(argv[1], "shim") != 0)) {
        std::fprintf(stderr, "usage: %s plain|shim FILE\n", argv[0]);
        return 2;
    }
    g_shim = std::strcmp(argv[1], "shim") == 0;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        std::printf("no CUDA device: skipped\n");
        return 77;
    }
    // Where do the cuBLAS names resolve?
    Dl_info where{};
    void *sym = dlsym(RTLD_DEFAULT, "cublasDgetrfBatched");
    const char *file = sym && dladdr(sym, &where) && where.dli_fname ? where.dli_fname : "(nowhere)";
    const bool in_shim = std::strstr(file, "libkobalt-cublas") != nullptr;
    std::printf("%s mode: cublasDgetrfBatched resolves in %s\n", argv[1], file);
    if (in_shim != g_shim) {
        std::printf("FAIL: expected the cuBLAS symbols in %s\n", g_shim ? "libkobalt-cublas" : "libcublas");
        return 1;
    }
    g_rec = std::fopen(argv[2], g_shim ? "rb" : "wb");
    if (!g_rec) {
        std::printf("FAIL: cannot open %s\n", argv[2]);
        return 1;
    }
    if (g_shim) { // the shim's log goes to a file the test reads back
        char path[] = "/tmp/kobalt-cublas-log-XXXXXX";
        const int fd = mkstemp(path);
        g_log_read = open(path, O_RDONLY);
        unlink(path);
        if (fd < 0 || g_log_read < 0 || dup2(fd, 2) < 0) {
            std::printf("FAIL: cannot redirect stderr\n");
            return 1;
        }
        close(fd);
        if (!std::getenv("KOBALT_CUBLAS_VERBOSE")) std::printf("note: KOBALT_CUBLAS_VERBOSE is not set; log checks will fail\n");
    }
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        std::printf("FAIL: cublasCreate\n");
        return 1;
    }
    gemm_all<double>(h);
    gemm_all<float>(h);
    grouped_case<double, int>(h, false);
    grouped_case<float, int64_t>(h, false);
    grouped_case<double, int64_t>(h, true);
    grouped_case<float, int>(h, true);
    gemv_all<double>(h);
    gemv_all<float>(h);
    trsm_all<double>(h);
    trsm_all<float>(h);
    lapack_all<double>(h);
    lapack_all<float>(h);
    qr_ls<double>(h);
    qr_ls<float>(h);
    qr_ls<cuComplex>(h);
    qr_ls<cuDoubleComplex>(h);
    complex_all<cuComplex>(h);
    complex_all<cuDoubleComplex>(h);
    bad_arguments<double>(h);
    bad_arguments<float>(h);
    handle_modes(h);
    cublasDestroy(h);
    if (g_shim) {
        Entry e;
        CHECK(!read_entry(e), "the plain run recorded more entries than the shim run made (next: %s)", e.key.c_str());
    }
    std::fclose(g_rec);
    std::printf("%s: %ld passed, %ld failed\n", argv[1], g_pass, g_fail);
    return g_fail ? 1 : 0;
}
