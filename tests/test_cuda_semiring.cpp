// test_cuda_semiring.cpp -- kobalt_{s,d}gemm_semiring_{strided,batched} on device buffers
// (cudaMalloc) against a host reference loop written from docs/api.md: every semiring, s and
// d, both forms (device pointer arrays, items in reverse memory order), both layouts, every
// transpose pair over the run, ld padding and gaps between items that must stay untouched,
// plain product / accumulate / arbitrary alpha and beta, alpha or beta equal to the add
// identity with NaN-poisoned operands that must not be read, infinities, NaN and signed
// zeros in A, B, C, alpha and beta, batches of 1, 3, 3001 and 70,001, and sizes on both
// sides of every group width (4, 8, 16, 32), of the tile kernel's range (17 ... 32), of its
// 24 x 24 tile (24) and of its chunk of k (32), and beyond (the element kernel).
// tests/cuda.cmake runs it once per kernel choice (thresholds from the environment).
//
// Results other than PLUS_TIMES are compared exactly (NaN matches NaN, -0 matches +0): each
// element is the min/max selection among singly rounded terms, computed in the same
// precision and order by the reference (see tests/test_semiring.cpp). PLUS_TIMES is gemm:
// a scaled error bound. Plain C++ (the GPU machine has no cmocka); exits 77 ("no CUDA
// device: skipped") without a GPU.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/kt_semiring.hpp"
#include "kobalt/kobalt.h"

using I = long long;
static std::mt19937_64 rng(2024);
static double uni(double lo = -1, double hi = 1) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

static const kobalt_semiring RINGS[] = {KOBALT_PLUS_TIMES, KOBALT_MIN_PLUS, KOBALT_MAX_PLUS, KOBALT_MIN_TIMES,
                                        KOBALT_MAX_TIMES,  KOBALT_MIN_MAX,  KOBALT_MAX_MIN,  KOBALT_OR_AND};
static const char *rname(kobalt_semiring s) {
    static const char *n[] = {"PLUS_TIMES", "MIN_PLUS", "MAX_PLUS", "MIN_TIMES", "MAX_TIMES", "MIN_MAX", "MAX_MIN", "OR_AND"};
    return n[int(s) - 201];
}
static const kobalt_op OPS[3] = {KOBALT_NO_TRANS, KOBALT_TRANS, KOBALT_CONJ_TRANS};

// ---- the reference ----------------------------------------------------------------------
template <class T> using Ref = kt::Semiring<T>; // common/kt_semiring.hpp

template <class T> T poison() {
    return std::numeric_limits<T>::quiet_NaN();
}
template <class T> bool bits_equal(T a, T b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// One batch operand: items of rows x cols with ld padding and gaps, host and device copies,
// a device pointer array in reverse memory order. Non-logical elements hold a sentinel.
template <class T> struct Operand {
    I rows = 0, cols = 0, ld = 1, stride = 0, batch = 0;
    kobalt_layout layout = KOBALT_COL_MAJOR;
    std::vector<T> h;
    T *d = nullptr;
    T **dptr = nullptr;
    static T sentinel() { return T(-12345.5); }
    Operand(kobalt_layout l, I r, I c, I b, int pad) : rows(r), cols(c), batch(b), layout(l) {
        const I inner = l == KOBALT_COL_MAJOR ? r : c, outer = l == KOBALT_COL_MAJOR ? c : r;
        ld = std::max<I>(1, inner + pad);
        stride = ld * outer + pad * 3;
        h.assign(size_t(std::max<I>(1, stride * b)), sentinel());
        CUDA_OK(cudaMalloc(&d, sizeof(T) * h.size()));
        std::vector<T *> hp(size_t(std::max<I>(b, 1)));
        for (I i = 0; i < b; ++i) hp[size_t(i)] = d + (b - 1 - i) * stride; // reverse order
        CUDA_OK(cudaMalloc(&dptr, sizeof(T *) * hp.size()));
        CUDA_OK(cudaMemcpy(dptr, hp.data(), sizeof(T *) * hp.size(), cudaMemcpyHostToDevice));
    }
    Operand(const Operand &) = delete;
    ~Operand() {
        cudaFree(d);
        cudaFree(dptr);
    }
    // item i's element (r, c); `rev`: the pointer-array form's storage order
    size_t pos(I i, I r, I c, bool rev) const {
        const I slot = rev ? batch - 1 - i : i;
        return size_t(slot * stride + (layout == KOBALT_COL_MAJOR ? r + c * ld : r * ld + c));
    }
    void upload() { CUDA_OK(cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice)); }
    std::vector<T> download() const {
        std::vector<T> o(h.size());
        CUDA_OK(cudaMemcpy(o.data(), d, sizeof(T) * h.size(), cudaMemcpyDeviceToHost));
        return o;
    }
};

template <class T> T draw(kobalt_semiring s, double special) {
    if (special > 0 && uni(0, 1) < special) {
        switch (rng() % 6) {
        case 0: return std::numeric_limits<T>::infinity();
        case 1: return -std::numeric_limits<T>::infinity();
        case 2: case 3: return std::numeric_limits<T>::quiet_NaN();
        case 4: return T(0);
        default: return -T(0);
        }
    }
    if (s == KOBALT_OR_AND) {
        const double u = uni(0, 1);
        return u < 0.82 ? T(0) : u < 0.9 ? T(1) : T(uni(-3, 3));
    }
    return T(uni());
}

struct Case {
    kobalt_semiring s;
    kobalt_layout layout;
    kobalt_op ta, tb;
    I m, n, k, batch;
    bool batched;
    int pad;
    double special;
    int ab; // which alpha/beta pair
};

template <class T> void pick_alpha_beta(const Ref<T> &R, int ab, T &alpha, T &beta) {
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    switch (ab % 10) {
    case 0: alpha = R.one(); beta = R.zero(); break; // plain product
    case 1: alpha = R.one(); beta = R.one(); break;  // accumulate into C
    case 2: alpha = T(0.75); beta = T(-0.5); break;
    case 3: alpha = R.zero(); beta = T(0.5); break; // A and B not read
    case 4: alpha = T(-1.25); beta = R.zero(); break;
    case 5: alpha = R.zero(); beta = R.zero(); break;
    case 6: alpha = nan; beta = T(0.5); break;
    case 7: alpha = T(0.5); beta = nan; break;
    case 8: alpha = -inf; beta = inf; break;
    default: alpha = T(2); beta = -T(0); break;
    }
}

template <class T> void run(Case c) {
    // PLUS_TIMES is routed to gemm (tested with every edge case by test_cuda_routines);
    // here only the routing, on finite values.
    if (c.s == KOBALT_PLUS_TIMES) {
        c.special = 0;
        if (c.ab % 10 >= 6 && c.ab % 10 <= 8) c.ab = 2;
    }
    const Ref<T> R{c.s};
    T alpha, beta;
    pick_alpha_beta(R, c.ab, alpha, beta);
    const bool na = c.ta == KOBALT_NO_TRANS, nb = c.tb == KOBALT_NO_TRANS;
    Operand<T> A(c.layout, na ? c.m : c.k, na ? c.k : c.m, c.batch, c.pad);
    Operand<T> B(c.layout, nb ? c.k : c.n, nb ? c.n : c.k, c.batch, (c.pad + 1) % 3);
    Operand<T> C(c.layout, c.m, c.n, c.batch, c.pad == 0 ? 1 : 0);
    const bool read_ab = c.k > 0 && !(alpha == R.zero());
    const bool read_c = !(beta == R.zero());
    const bool rev = c.batched;
    for (I i = 0; i < c.batch; ++i) {
        for (I q = 0; q < A.cols; ++q)
            for (I p = 0; p < A.rows; ++p) A.h[A.pos(i, p, q, rev)] = read_ab ? draw<T>(c.s, c.special) : poison<T>();
        for (I q = 0; q < B.cols; ++q)
            for (I p = 0; p < B.rows; ++p) B.h[B.pos(i, p, q, rev)] = read_ab ? draw<T>(c.s, c.special) : poison<T>();
        for (I q = 0; q < C.cols; ++q)
            for (I p = 0; p < C.rows; ++p) {
                // a read of an unread C shows: z * -1.5 has the wrong infinity, 0 * NaN is NaN
                const T unread = (c.s == KOBALT_MIN_TIMES || c.s == KOBALT_MAX_TIMES) ? T(-1.5) : poison<T>();
                C.h[C.pos(i, p, q, rev)] = read_c ? draw<T>(c.s, c.special) : unread;
            }
    }
    A.upload();
    B.upload();
    C.upload();
    kobalt_status st;
    if (!c.batched) {
        if constexpr (sizeof(T) == 8)
            st = kobalt_dgemm_semiring_strided(c.s, c.layout, c.ta, c.tb, c.m, c.n, c.k, alpha, A.d, A.ld, A.stride,
                                               B.d, B.ld, B.stride, beta, C.d, C.ld, C.stride, c.batch);
        else
            st = kobalt_sgemm_semiring_strided(c.s, c.layout, c.ta, c.tb, c.m, c.n, c.k, alpha, A.d, A.ld, A.stride,
                                               B.d, B.ld, B.stride, beta, C.d, C.ld, C.stride, c.batch);
    } else {
        if constexpr (sizeof(T) == 8)
            st = kobalt_dgemm_semiring_batched(c.s, c.layout, c.ta, c.tb, c.m, c.n, c.k, alpha, (const T *const *)A.dptr,
                                               A.ld, (const T *const *)B.dptr, B.ld, beta, C.dptr, C.ld, c.batch);
        else
            st = kobalt_sgemm_semiring_batched(c.s, c.layout, c.ta, c.tb, c.m, c.n, c.k, alpha, (const T *const *)A.dptr,
                                               A.ld, (const T *const *)B.dptr, B.ld, beta, C.dptr, C.ld, c.batch);
    }
    char what[300];
    std::snprintf(what, sizeof what, "%s %s %s %s ta=%d tb=%d m=%lld n=%lld k=%lld batch=%lld alpha=%g beta=%g special=%g",
                  sizeof(T) == 8 ? "d" : "s", c.batched ? "batched" : "strided", rname(c.s),
                  c.layout == KOBALT_COL_MAJOR ? "col" : "row", int(c.ta), int(c.tb), c.m, c.n, c.k, c.batch,
                  double(alpha), double(beta), c.special);
    CHECK(st == KOBALT_SUCCESS, "%s: %s %s", what, kobalt_status_name(st), kobalt_last_error());
    const kobalt_status sy = kobalt_synchronize();
    CHECK(sy == KOBALT_SUCCESS, "%s: synchronize %s %s", what, kobalt_status_name(sy), kobalt_last_error());
    const std::vector<T> got = C.download();
    const std::vector<T> a_after = A.download(), b_after = B.download();
    long bad = 0, bad_pad = 0, bad_in = 0;
    for (size_t e = 0; e < a_after.size(); ++e) bad_in += !bits_equal(a_after[e], A.h[e]);
    for (size_t e = 0; e < b_after.size(); ++e) bad_in += !bits_equal(b_after[e], B.h[e]);
    std::vector<char> logical(got.size(), 0);
    double worst = 0;
    for (I i = 0; i < c.batch; ++i)
        for (I q = 0; q < c.n; ++q)
            for (I p = 0; p < c.m; ++p) {
                const size_t at = C.pos(i, p, q, rev);
                logical[at] = 1;
                auto a = [&](I r, I l) { return na ? A.h[A.pos(i, r, l, rev)] : A.h[A.pos(i, l, r, rev)]; };
                auto b = [&](I l, I col) { return nb ? B.h[B.pos(i, l, col, rev)] : B.h[B.pos(i, col, l, rev)]; };
                const T g = got[at];
                if (c.s == KOBALT_PLUS_TIMES) {
                    double want = 0, bound = 0;
                    if (read_ab)
                        for (I l = 0; l < c.k; ++l) {
                            want += double(a(p, l)) * double(b(l, q));
                            bound += std::fabs(double(a(p, l)) * double(b(l, q)));
                        }
                    want *= double(alpha);
                    bound *= std::fabs(double(alpha));
                    if (read_c) {
                        want += double(beta) * double(C.h[at]);
                        bound += std::fabs(double(beta) * double(C.h[at]));
                    }
                    const double tol = 30.0 * double(c.k + 2) * (sizeof(T) == 8 ? 2.3e-16 : 1.2e-7) * bound;
                    const bool ok = (std::isnan(want) && std::isnan(double(g))) || double(g) == want ||
                                    std::fabs(double(g) - want) <= tol;
                    if (!ok) {
                        if (!bad) worst = double(g) - want;
                        ++bad;
                    }
                    continue;
                }
                T r = R.zero();
                if (read_ab) {
                    T acc = R.zero();
                    for (I l = 0; l < c.k; ++l) acc = R.add(acc, R.mult(a(p, l), b(l, q)));
                    r = R.mult(alpha, acc);
                }
                const T s = read_c ? R.mult(beta, C.h[at]) : R.zero();
                const T want = R.add(r, s);
                bool ok = (g != g && want != want) || g == want;
                if (c.s == KOBALT_OR_AND) ok = ok && (g == T(0) || g == T(1));
                if (!ok) {
                    if (!bad) worst = double(g) - double(want);
                    ++bad;
                }
            }
    for (size_t e = 0; e < got.size(); ++e)
        if (!logical[e]) bad_pad += !bits_equal(got[e], Operand<T>::sentinel());
    CHECK(bad == 0, "%s: %ld wrong element(s) (first off by %g)", what, bad, worst);
    CHECK(bad_pad == 0, "%s: %ld padding/gap element(s) of C written", what, bad_pad);
    CHECK(bad_in == 0, "%s: %ld input element(s) changed", what, bad_in);
}

template <class T> void sweep(const std::vector<I> &sizes, I batch, double special, int &idx) {
    for (kobalt_semiring s : RINGS)
        for (I sz : sizes)
            for (kobalt_layout l : {KOBALT_COL_MAJOR, KOBALT_ROW_MAJOR})
                for (bool batched : {false, true}) {
                    Case c;
                    c.s = s;
                    c.layout = l;
                    c.batched = batched;
                    c.ta = OPS[idx % 3];
                    c.tb = OPS[(idx / 3) % 3];
                    c.m = sz;
                    c.n = sz + (idx % 3 == 1 ? 1 : 0);
                    c.k = sz + (idx % 4 == 2 ? 3 : 0);
                    c.batch = batch;
                    c.pad = idx % 3;
                    c.special = special;
                    c.ab = idx;
                    run<T>(c);
                    ++idx;
                }
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
    int idx = 0;
    const std::vector<I> sizes = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 20, 23, 24, 25, 31, 32, 33, 47};
    sweep<double>(sizes, 3, 0.0, idx);
    sweep<float>(sizes, 3, 0.0, idx);
    sweep<double>({1, 3, 4, 8, 13, 16, 32, 40}, 4, 0.3, idx);
    sweep<float>({1, 3, 4, 8, 13, 16, 32, 40}, 4, 0.3, idx);
    if (mode == "full") {
        sweep<double>({2, 4, 8, 16}, 3001, 0.0, idx);
        sweep<double>({32}, 257, 0.0, idx);
        sweep<float>({3, 17}, 3001, 0.05, idx);
        // every transpose pair, a few sizes
        for (kobalt_semiring s : RINGS)
            for (int ta = 0; ta < 3; ++ta)
                for (int tb = 0; tb < 3; ++tb) {
                    Case c{s, tb % 2 ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR, OPS[ta], OPS[tb], 6, 11, 20, 2,
                           bool(ta % 2), 1, 0.0, idx++};
                    run<double>(c);
                    c.m = 24;
                    c.n = 5;
                    c.k = 70;
                    run<float>(c);
                    run<double>(c); // the 24 x 24 tile (forced) over two full chunks of k and a partial one
                }
        // batch > 65,535
        run<double>(Case{KOBALT_MIN_PLUS, KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 4, 4, 4, 70001, false, 0,
                         0.0, 1});
        run<float>(Case{KOBALT_MAX_MIN, KOBALT_ROW_MAJOR, KOBALT_TRANS, KOBALT_NO_TRANS, 3, 3, 3, 70001, true, 1, 0.0, 0});
    }
    std::printf("%s: %ld passed, %ld failed\n", mode.c_str(), g_pass, g_fail);
    return g_fail ? 1 : 0;
}
