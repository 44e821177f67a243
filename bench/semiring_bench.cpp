// kobalt-semiring-bench -- gemm_semiring on the host (the openmp backend) against Kobalt's
// own plus-times gemm and against a plain triple loop, on identical inputs.
//
// For every precision and size n, one batch of n x n items (--mb MB of A + B + C in all,
// default 4x the last-level cache) and, timed on the same batch, each in the same run:
//   gemm      kobalt_?gemm_strided, alpha = 1, beta = 0 (the goal's yardstick)
//   <ring>    kobalt_?gemm_semiring_strided for each semiring, plain product
//             (alpha = mult identity, beta = add identity: C is not read)
//   loop      per semiring, the triple loop a user would write (OpenMP over the items,
//             i-j-p order with the scalar operations inline), same result
// Each loop's result is checked against Kobalt's (exactly: min/max of singly rounded
// terms) before its time counts. Timings: median of --reps runs (contenders interleaved
// in every repeat), with the spread (min..max) printed after it.
//
//   kobalt-semiring-bench [--sizes 2,4,8,16,32] [--prec d,s] [--layout col|row]
//                         [--semirings min_plus,max_min,...] [--reps R] [--mb MB] [--no-loop]
//                         [--nonneg]
// Inputs are uniform in [-1, 1) (B shifted), or in [0, 1) with --nonneg (path weights,
// capacities: what min-max / max-min usually see, and where their kernels can use integer
// min/max, see docs/performance.md).
#include <kobalt/kobalt.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string t;
    while (std::getline(ss, t, ','))
        if (!t.empty()) out.push_back(t);
    return out;
}

size_t llc_bytes() {
    for (int idx = 3; idx >= 2; --idx) {
        std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(idx) + "/size");
        std::string s;
        if (f >> s) {
            size_t x = std::stoul(s);
            if (s.back() == 'K') x <<= 10;
            if (s.back() == 'M') x <<= 20;
            return x;
        }
    }
    return 32u << 20;
}

struct Ring {
    const char *name;
    kobalt_semiring s;
};
const Ring kRings[] = {{"min_plus", KOBALT_MIN_PLUS},   {"max_plus", KOBALT_MAX_PLUS}, {"min_times", KOBALT_MIN_TIMES},
                       {"max_times", KOBALT_MAX_TIMES}, {"min_max", KOBALT_MIN_MAX},   {"max_min", KOBALT_MAX_MIN},
                       {"or_and", KOBALT_OR_AND}};

// The plain-product alpha (mult identity) and beta (add identity) of docs/api.md.
template <class T> void plain(kobalt_semiring s, T &alpha, T &beta) {
    const T inf = std::numeric_limits<T>::infinity();
    switch (s) {
    case KOBALT_MIN_PLUS: alpha = 0; beta = inf; break;
    case KOBALT_MAX_PLUS: alpha = 0; beta = -inf; break;
    case KOBALT_MIN_TIMES: alpha = 1; beta = inf; break;
    case KOBALT_MAX_TIMES: alpha = 1; beta = -inf; break;
    case KOBALT_MIN_MAX: alpha = -inf; beta = inf; break;
    case KOBALT_MAX_MIN: alpha = inf; beta = -inf; break;
    default: alpha = 1; beta = 0; break;
    }
}

// The user's triple loop, one semiring: C = A (x) B, column-major or row-major items.
template <class T, class Add, class Mul>
void triple_loop(int n, size_t batch, bool row, const T *A, const T *B, T *C, T zero, Add add, Mul mul) {
    const size_t nn = size_t(n) * n;
#pragma omp parallel for schedule(static)
    for (size_t it = 0; it < batch; ++it) {
        const T *a = A + it * nn, *b = B + it * nn;
        T *c = C + it * nn;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                T acc = zero;
                for (int p = 0; p < n; ++p)
                    acc = row ? add(acc, mul(a[i * n + p], b[p * n + j])) : add(acc, mul(a[i + p * n], b[p + j * n]));
                (row ? c[i * n + j] : c[i + j * n]) = acc;
            }
    }
}

template <class T>
void loop_for(kobalt_semiring s, int n, size_t batch, bool row, const T *A, const T *B, T *C) {
    const T inf = std::numeric_limits<T>::infinity();
    auto fmn = [](T x, T y) { return std::fmin(x, y); };
    auto fmx = [](T x, T y) { return std::fmax(x, y); };
    auto plus = [](T x, T y) { return x + y; };
    auto times = [](T x, T y) { return x * y; };
    switch (s) {
    case KOBALT_MIN_PLUS: return triple_loop(n, batch, row, A, B, C, inf, fmn, plus);
    case KOBALT_MAX_PLUS: return triple_loop(n, batch, row, A, B, C, -inf, fmx, plus);
    case KOBALT_MIN_TIMES: return triple_loop(n, batch, row, A, B, C, inf, fmn, times);
    case KOBALT_MAX_TIMES: return triple_loop(n, batch, row, A, B, C, -inf, fmx, times);
    case KOBALT_MIN_MAX: return triple_loop(n, batch, row, A, B, C, inf, fmn, fmx);
    case KOBALT_MAX_MIN: return triple_loop(n, batch, row, A, B, C, -inf, fmx, fmn);
    default:
        return triple_loop(n, batch, row, A, B, C, T(0), [](T x, T y) { return (x != 0 || y != 0) ? T(1) : T(0); },
                           [](T x, T y) { return (x != 0 && y != 0) ? T(1) : T(0); });
    }
}

struct Stat {
    double med = 0, lo = 0, hi = 0;
};
Stat stat(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

kobalt_status gemm_call(const double *A, const double *B, double *C, int n, size_t batch, bool row) {
    const kobalt_int nn = kobalt_int(n) * n;
    return kobalt_dgemm_strided(row ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n,
                                1.0, A, n, nn, B, n, nn, 0.0, C, n, nn, kobalt_int(batch));
}
kobalt_status gemm_call(const float *A, const float *B, float *C, int n, size_t batch, bool row) {
    const kobalt_int nn = kobalt_int(n) * n;
    return kobalt_sgemm_strided(row ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n,
                                1.0f, A, n, nn, B, n, nn, 0.0f, C, n, nn, kobalt_int(batch));
}
kobalt_status ring_call(kobalt_semiring s, const double *A, const double *B, double *C, int n, size_t batch,
                        bool row) {
    double alpha, beta;
    plain(s, alpha, beta);
    const kobalt_int nn = kobalt_int(n) * n;
    return kobalt_dgemm_semiring_strided(s, row ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR, KOBALT_NO_TRANS,
                                         KOBALT_NO_TRANS, n, n, n, alpha, A, n, nn, B, n, nn, beta, C, n, nn,
                                         kobalt_int(batch));
}
kobalt_status ring_call(kobalt_semiring s, const float *A, const float *B, float *C, int n, size_t batch, bool row) {
    float alpha, beta;
    plain(s, alpha, beta);
    const kobalt_int nn = kobalt_int(n) * n;
    return kobalt_sgemm_semiring_strided(s, row ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR, KOBALT_NO_TRANS,
                                         KOBALT_NO_TRANS, n, n, n, alpha, A, n, nn, B, n, nn, beta, C, n, nn,
                                         kobalt_int(batch));
}

void must(kobalt_status st, const char *what) {
    if (st != KOBALT_SUCCESS) {
        std::fprintf(stderr, "%s failed: %s\n", what, kobalt_last_error());
        std::exit(1);
    }
}

template <class T>
void bench(const char *prec, int n, double total_bytes, const std::vector<Ring> &rings, int reps, bool row,
           bool with_loop, bool nonneg) {
    const size_t nn = size_t(n) * n;
    const size_t batch = std::max<size_t>(8, size_t(std::ceil(total_bytes / (3.0 * nn * sizeof(T)))));
    std::vector<T> A(nn * batch), B(nn * batch), C(nn * batch), L(nn * batch);
#pragma omp parallel for schedule(static)
    for (size_t e = 0; e < nn * batch; ++e) {
        uint64_t x = e * 0x9e3779b97f4a7c15ull + 12345;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        const double u = double((x ^ (x >> 31)) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
        A[e] = T(nonneg ? 0.5 * (u + 1.0) : u);
        B[e] = T(nonneg ? 0.375 * (u + 1.0) + 0.125 : u * 0.75 + 0.125);
    }
    // contenders: gemm, then per ring: kobalt, loop
    std::vector<std::function<void()>> run;
    std::vector<std::string> names;
    run.push_back([&] { must(gemm_call(A.data(), B.data(), C.data(), n, batch, row), "gemm"); });
    names.push_back("gemm");
    for (const Ring &r : rings) {
        run.push_back([&, r] { must(ring_call(r.s, A.data(), B.data(), C.data(), n, batch, row), r.name); });
        names.push_back(r.name);
        if (with_loop) {
            run.push_back([&, r] { loop_for(r.s, n, batch, row, A.data(), B.data(), L.data()); });
            names.push_back(std::string("loop_") + r.name);
        }
    }
    // the loops must agree with Kobalt (checked once, untimed)
    std::vector<bool> ok(run.size(), true);
    if (with_loop)
        for (size_t r = 0; r < rings.size(); ++r) {
            must(ring_call(rings[r].s, A.data(), B.data(), C.data(), n, batch, row), rings[r].name);
            loop_for(rings[r].s, n, batch, row, A.data(), B.data(), L.data());
            size_t bad = 0;
            for (size_t e = 0; e < nn * batch; ++e)
                if (!(C[e] == L[e] || (C[e] != C[e] && L[e] != L[e]))) ++bad;
            ok[2 + 2 * r] = bad == 0;
        }
    std::vector<std::vector<double>> t(run.size());
    for (int rep = 0; rep < reps + 1; ++rep)
        for (size_t c = 0; c < run.size(); ++c) {
            const double t0 = now();
            run[c]();
            const double dt = now() - t0;
            if (rep > 0) t[c].push_back(dt); // the first repeat warms up
        }
    const Stat g = stat(t[0]);
    std::printf("%s n=%-3d batch=%-8zu gemm %9.3f ms (%.3f..%.3f)\n", prec, n, batch, g.med * 1e3, g.lo * 1e3,
                g.hi * 1e3);
    for (size_t r = 0; r < rings.size(); ++r) {
        const size_t c = with_loop ? 1 + 2 * r : 1 + r;
        const Stat k = stat(t[c]);
        std::printf("    %-9s %9.3f ms (%.3f..%.3f)  %5.2fx gemm", rings[r].name, k.med * 1e3, k.lo * 1e3,
                    k.hi * 1e3, k.med / g.med);
        if (with_loop) {
            const Stat l = stat(t[c + 1]);
            std::printf(" | loop %9.3f ms (%.3f..%.3f)  kobalt %5.1fx faster%s", l.med * 1e3, l.lo * 1e3,
                        l.hi * 1e3, l.med / k.med, ok[c + 1] ? "" : "  LOOP DISAGREES");
        }
        std::printf("\n");
    }
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
    std::vector<int> sizes = {2, 3, 4, 5, 8, 12, 16, 20, 24, 32};
    std::vector<std::string> precs = {"d", "s"};
    std::vector<Ring> rings(std::begin(kRings), std::end(kRings));
    int reps = 7;
    double mb = 0;
    bool row = false, with_loop = true, nonneg = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--sizes") {
            sizes.clear();
            for (auto &s : split(next())) sizes.push_back(std::stoi(s));
        } else if (a == "--prec") {
            precs = split(next());
        } else if (a == "--layout") {
            row = next() == "row";
        } else if (a == "--semirings") {
            rings.clear();
            for (auto &s : split(next()))
                for (const Ring &r : kRings)
                    if (s == r.name) rings.push_back(r);
        } else if (a == "--reps") {
            reps = std::max(1, std::stoi(next()));
        } else if (a == "--mb") {
            mb = std::stod(next());
        } else if (a == "--no-loop") {
            with_loop = false;
        } else if (a == "--nonneg") {
            nonneg = true;
        } else {
            std::fprintf(stderr,
                         "usage: %s [--sizes 2,4,8] [--prec d,s] [--layout col|row] [--semirings min_plus,...] "
                         "[--reps R] [--mb MB] [--no-loop] [--nonneg]\n",
                         argv[0]);
            return 2;
        }
    }
    const double total = mb > 0 ? mb * 1048576.0 : 4.0 * double(llc_bytes());
    std::printf("kobalt-semiring-bench: %d OpenMP threads, %.0f MB per batch (A+B+C), %s, inputs in %s, median "
                "of %d (min..max)\n",
                omp_get_max_threads(), total / 1048576.0, row ? "row-major" : "column-major",
                nonneg ? "[0, 1)" : "[-1, 1)", reps);
    for (const std::string &p : precs)
        for (int n : sizes) {
            if (p == "d") bench<double>("d", n, total, rings, reps, row, with_loop, nonneg);
            else bench<float>("s", n, total, rings, reps, row, with_loop, nonneg);
        }
    return 0;
}
