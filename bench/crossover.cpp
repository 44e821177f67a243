// kobalt-crossover -- measures where the openmp backend's small path (inlined
// KokkosBatched kernels) stops beating its vendor path (OpenBLAS/LAPACKE per item).
//
// For every routine, precision and size n it runs the full slot (dispatch included)
// twice on the same batch, once with the routine's *_SMALL_MAX threshold forced above n
// and once forced below, and prints the median time per item over several repeats.
// The batch holds a few MB of the main operand, so that it does not fit the caches.
// Inputs are restored from a pristine copy before every repeat (outside the timing).
//
//   kobalt-crossover [--mb MB] [--reps R] [--routines gemm,getrf,getri,matinv,...] [--few]
//                    [--fused]
//
// --few   times a batch smaller than the thread count with and without threaded
//         OpenBLAS (FEW_ITEMS_LARGE_MIN); --fused times gemm_lu_trsv against
//         gemm + getrf + getrs at small n.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "slots.hpp"
#include "thresholds.hpp"

using namespace kobalt_openmp;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct Options {
    double mb = 4;
    int reps = 9;
    std::string routines = "gemm,gemv,trsv,trsm,getrf,getrs,gemm_lu_trsv,getri,matinv";
    bool few = false, fused = false;
};

// Median seconds of body() over reps runs, reset() before each (untimed).
double median_time(int reps, const std::function<void()> &reset,
                   const std::function<void()> &body) {
    std::vector<double> t;
    reset();
    body(); // warm-up: page faults, OpenMP thread start
    for (int r = 0; r < reps; ++r) {
        reset();
        const double t0 = now();
        body();
        t.push_back(now() - t0);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <class T> void random_fill(std::vector<T> &v, unsigned seed, T diag_boost, long n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(-1, 1);
    for (auto &x : v) x = T(d(rng));
    if (diag_boost != T(0)) // well-conditioned square items of size n x n, ld n
        for (size_t base = 0; base + size_t(n) * n <= v.size(); base += size_t(n) * n)
            for (long i = 0; i < n; ++i) v[base + i + i * n] += diag_boost;
}

// One routine at one size: a closure that runs the slot on the whole batch.
template <class T> struct Case {
    std::vector<T> a0, b0, c0, a, b, c;
    std::vector<int> ipiv, info;
    std::function<void()> run;
    void reset() {
        std::copy(a0.begin(), a0.end(), a.begin());
        std::copy(b0.begin(), b0.end(), b.begin());
        std::copy(c0.begin(), c0.end(), c.begin());
    }
};

template <class T>
void make_case(Case<T> &cs, const std::string &routine, long n, long batch) {
    const long nn = n * n;
    const auto L = KOBALT_COL_MAJOR;
    const auto N = KOBALT_NO_TRANS;
    cs.ipiv.assign(size_t(n) * batch, 1);
    cs.info.assign(batch, 0);
    auto alloc = [&](long sa, long sb, long sc) {
        cs.a0.resize(sa * batch);
        cs.b0.resize(sb * batch);
        cs.c0.resize(sc * batch);
        random_fill(cs.a0, 1, T(routine == "gemm" || routine == "gemv" ? 0 : n), n);
        random_fill(cs.b0, 2, T(0), n);
        random_fill(cs.c0, 3, T(0), n);
        cs.a = cs.a0;
        cs.b = cs.b0;
        cs.c = cs.c0;
    };
    if (routine == "gemm") {
        alloc(nn, nn, nn);
        cs.run = [&cs, n, batch, nn, L, N] {
            gemm_strided<T>(L, N, N, n, n, n, T(1), cs.a.data(), n, nn, cs.b.data(), n, nn, T(1),
                            cs.c.data(), n, nn, batch);
        };
    } else if (routine == "gemv") {
        alloc(nn, n, n);
        cs.run = [&cs, n, batch, nn, L, N] {
            gemv_strided<T>(L, N, n, n, T(1), cs.a.data(), n, nn, cs.b.data(), 1, n, T(1),
                            cs.c.data(), 1, n, batch);
        };
    } else if (routine == "trsv") {
        alloc(nn, n, 1);
        cs.run = [&cs, n, batch, nn, L, N] {
            trsv_strided<T>(L, KOBALT_LOWER, N, KOBALT_NON_UNIT, n, cs.a.data(), n, nn,
                            cs.b.data(), 1, n, batch);
        };
    } else if (routine == "trsm") {
        alloc(nn, nn, 1);
        cs.run = [&cs, n, batch, nn, L, N] {
            trsm_strided<T>(L, KOBALT_LEFT, KOBALT_LOWER, N, KOBALT_NON_UNIT, n, n, T(1),
                            cs.a.data(), n, nn, cs.b.data(), n, nn, batch);
        };
    } else if (routine == "getrf") {
        alloc(nn, 1, 1);
        cs.run = [&cs, n, batch, nn, L] {
            getrf_strided<T>(L, n, n, cs.a.data(), n, nn, cs.ipiv.data(), n, cs.info.data(),
                             batch);
        };
    } else if (routine == "getrs") {
        alloc(nn, n, 1); // A: a well-conditioned "factor"; identity pivots
        for (long i = 0; i < n * batch; ++i) cs.ipiv[i] = int(i % n) + 1;
        cs.run = [&cs, n, batch, nn, L, N] {
            getrs_strided<T>(L, N, n, 1, cs.a.data(), n, nn, cs.ipiv.data(), n, cs.b.data(), n,
                             n, batch);
        };
    } else if (routine == "getri") {
        alloc(nn, nn, 1); // A: a well-conditioned "factor", identity pivots; C in b
        for (long i = 0; i < n * batch; ++i) cs.ipiv[i] = int(i % n) + 1;
        cs.run = [&cs, n, batch, nn, L] {
            getri_strided<T>(L, n, cs.a.data(), n, nn, cs.ipiv.data(), n, cs.b.data(), n, nn,
                             cs.info.data(), batch);
        };
    } else if (routine == "matinv") {
        alloc(nn, nn, 1); // A well-conditioned; C in b
        cs.run = [&cs, n, batch, nn, L] {
            matinv_strided<T>(L, n, cs.a.data(), n, nn, cs.b.data(), n, nn, cs.info.data(), batch);
        };
    } else if (routine == "gemm_lu_trsv") {
        alloc(nn, nn, nn + n); // A (diag-dominant), X, Y and B packed in c
        cs.run = [&cs, n, batch, nn, L, N] {
            gemm_lu_trsv_strided<T>(L, N, N, n, n, 1, T(0.01), cs.b.data(), n, nn, cs.c.data(),
                                    n, nn + n, T(1), cs.a.data(), n, nn, cs.ipiv.data(), n,
                                    cs.c.data() + nn, n, nn + n, cs.info.data(), batch);
        };
    }
}

template <class T> ThresholdId threshold_of(const std::string &routine) {
    if (routine == "gemm") return GEMM_SMALL_MAX;
    if (routine == "gemv") return GEMV_SMALL_MAX;
    if (routine == "trsv") return TRSV_SMALL_MAX;
    if (routine == "trsm") return for_precision<T>(TRSM_SMALL_MAX, TRSM_SMALL_MAX_FLOAT);
    if (routine == "getrf") return GETRF_SMALL_MAX;
    if (routine == "getrs") return GETRS_SMALL_MAX;
    if (routine == "getri" || routine == "matinv") return GETRI_SMALL_MAX;
    return GEMM_LU_TRSV_SMALL_MAX;
}

template <class T> void crossover(const Options &o, const std::string &routine) {
    const long sizes[] = {2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64, 96, 128};
    const char p = sizeof(T) == 8 ? 'd' : 's';
    const ThresholdId id = threshold_of<T>(routine);
    const kobalt_int saved = thresholds[id].value;
    const kobalt_int saved_few = thresholds[FEW_ITEMS_LARGE_MIN].value;
    thresholds[FEW_ITEMS_LARGE_MIN].value = INT32_MAX; // compare the two batch loops only
    // trsv's direct solve (TRSV_DIRECT_MAX) is checked before TRSV_SMALL_MAX: off here, so
    // that the two arms run the small and the vendor path.
    const kobalt_int saved_direct = thresholds[TRSV_DIRECT_MAX].value;
    if (routine == "trsv") thresholds[TRSV_DIRECT_MAX].value = 0;
    std::printf("\n%c%s  (us per item, median of %d)\n  %5s %8s %11s %11s %7s\n", p,
                routine.c_str(), o.reps, "n", "batch", "small", "vendor", "v/s");
    long last_small_win = 0;
    for (long n : sizes) {
        const long batch = std::max(1L, long(o.mb * 1e6 / (double(n) * n * sizeof(T))));
        Case<T> cs;
        make_case(cs, routine, n, batch);
        thresholds[id].value = INT32_MAX;
        const double ts = median_time(o.reps, [&] { cs.reset(); }, cs.run);
        thresholds[id].value = 0;
        const double tv = median_time(o.reps, [&] { cs.reset(); }, cs.run);
        if (ts <= tv) last_small_win = n;
        std::printf("  %5ld %8ld %11.4f %11.4f %7.2f\n", n, batch, ts / batch * 1e6,
                    tv / batch * 1e6, tv / ts);
        std::fflush(stdout);
    }
    std::printf("  -> %c%s: largest n where the small path wins: %ld\n", p, routine.c_str(),
                last_small_win);
    thresholds[id].value = saved;
    thresholds[FEW_ITEMS_LARGE_MIN].value = saved_few;
    thresholds[TRSV_DIRECT_MAX].value = saved_direct;
}

// Few large items: threaded OpenBLAS one item at a time vs the OpenMP batch loop.
template <class T> void few_items(const Options &o) {
    const char p = sizeof(T) == 8 ? 'd' : 's';
    const long batch = std::max(1, omp_get_max_threads() - 1);
    const kobalt_int saved = thresholds[FEW_ITEMS_LARGE_MIN].value;
    for (const char *routine : {"gemm", "getrf"}) {
        const ThresholdId id = threshold_of<T>(routine);
        const kobalt_int saved_small = thresholds[id].value;
        thresholds[id].value = 0;
        std::printf("\n%c%s, batch %ld < %d threads  (ms per call, median of %d)\n"
                    "  %5s %11s %11s %7s\n",
                    p, routine, batch, omp_get_max_threads(), o.reps, "n", "batch-loop",
                    "threaded", "b/t");
        for (long n : {32L, 64L, 96L, 128L, 192L, 256L, 384L, 512L, 768L, 1024L}) {
            Case<T> cs;
            make_case(cs, routine, n, batch);
            thresholds[FEW_ITEMS_LARGE_MIN].value = INT32_MAX;
            const double tl = median_time(o.reps, [&] { cs.reset(); }, cs.run);
            thresholds[FEW_ITEMS_LARGE_MIN].value = 0;
            const double tt = median_time(o.reps, [&] { cs.reset(); }, cs.run);
            std::printf("  %5ld %11.4f %11.4f %7.2f\n", n, tl * 1e3, tt * 1e3, tl / tt);
            std::fflush(stdout);
        }
        thresholds[id].value = saved_small;
    }
    thresholds[FEW_ITEMS_LARGE_MIN].value = saved;
}

// The fused call against gemm + getrf + getrs on the same data (default thresholds).
template <class T> void fused_vs_separate(const Options &o) {
    const char p = sizeof(T) == 8 ? 'd' : 's';
    std::printf("\n%cgemm_lu_trsv vs %cgemm + %cgetrf + %cgetrs  (us per item, median of %d)\n"
                "  %5s %8s %11s %11s %7s\n",
                p, p, p, p, o.reps, "n", "batch", "fused", "separate", "sep/fus");
    for (long n : {4L, 8L, 16L, 32L}) {
        const long nn = n * n;
        const long batch = std::max(1L, long(o.mb * 1e6 / (double(nn) * sizeof(T))));
        Case<T> cs;
        make_case(cs, "gemm_lu_trsv", n, batch);
        const auto L = KOBALT_COL_MAJOR;
        const auto N = KOBALT_NO_TRANS;
        auto separate = [&cs, n, nn, batch, L, N] {
            gemm_strided<T>(L, N, N, n, n, n, T(0.01), cs.b.data(), n, nn, cs.c.data(), n,
                            nn + n, T(1), cs.a.data(), n, nn, batch);
            getrf_strided<T>(L, n, n, cs.a.data(), n, nn, cs.ipiv.data(), n, cs.info.data(),
                             batch);
            getrs_strided<T>(L, N, n, 1, cs.a.data(), n, nn, cs.ipiv.data(), n,
                             cs.c.data() + nn, n, nn + n, batch);
        };
        const double tf = median_time(o.reps, [&] { cs.reset(); }, cs.run);
        const double ts = median_time(o.reps, [&] { cs.reset(); }, separate);
        std::printf("  %5ld %8ld %11.4f %11.4f %7.2f\n", n, batch, tf / batch * 1e6,
                    ts / batch * 1e6, ts / tf);
    }
}

} // namespace

int main(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--mb" && i + 1 < argc) o.mb = std::atof(argv[++i]);
        else if (a == "--reps" && i + 1 < argc) o.reps = std::atoi(argv[++i]);
        else if (a == "--routines" && i + 1 < argc) o.routines = argv[++i];
        else if (a == "--few") o.few = true;
        else if (a == "--fused") o.fused = true;
        else {
            std::fprintf(stderr,
                         "usage: %s [--mb MB] [--reps R] [--routines gemm,...] [--few] "
                         "[--fused]\n",
                         argv[0]);
            return 2;
        }
    }
    std::printf("kobalt-crossover: %d OpenMP threads, batch of %.1f MB per call\n",
                omp_get_max_threads(), o.mb);
    if (o.few) {
        few_items<double>(o);
        few_items<float>(o);
    }
    if (o.fused) {
        fused_vs_separate<double>(o);
        fused_vs_separate<float>(o);
    }
    if (o.few || o.fused) return 0;
    size_t start = 0;
    while (start <= o.routines.size()) {
        size_t end = o.routines.find(',', start);
        if (end == std::string::npos) end = o.routines.size();
        const std::string r = o.routines.substr(start, end - start);
        if (!r.empty()) {
            crossover<double>(o, r);
            crossover<float>(o, r);
        }
        start = end + 1;
    }
    return 0;
}
