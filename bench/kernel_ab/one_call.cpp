// one_call.cpp -- kobalt-one-call: times one Kobalt call (or Kobalt's own three calls gemm,
// getrf, getrs) in a process of its own, for A/B runs of backend settings on noisy machines
// (env_ab.sh alternates the settings process by process). On the 2-core AMD Zen 5 VM,
// kobalt-bench's alternated runs swung 0.5-3.5x between rounds where this harness's stayed
// within a few percent (docs/performance.md, "The packed path on AMD Zen 5").
//
//   kobalt-one-call d|s gemm|product|getrf|getrs|three|fused N BATCH [REPS]
//
// gemm accumulates (A = X Y + A, as the fused call's first step); product is the plain
// product A = X Y (beta = 0, A not read), the form kobalt-bench and its libxsmm peer time.
// BATCH column-major N x N items (row-major where ONE_CALL_LAYOUT=row), one right-hand side;
// every input is restored by all threads before each timed call (as kobalt-bench does, so the
// first touch is on the threads that run the call); prints the median of REPS (default 7, at most 1000) in ns per item.
// getrs alone solves with random valid pivots and diagonally dominant factors.
#include <kobalt/kobalt.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct Calls {
    decltype(&kobalt_dgemm_strided) gemm;
    decltype(&kobalt_dgetrf_strided) getrf;
    decltype(&kobalt_dgetrs_strided) getrs;
    decltype(&kobalt_dgemm_lu_trsv_strided) fused;
};
struct CallsF {
    decltype(&kobalt_sgemm_strided) gemm;
    decltype(&kobalt_sgetrf_strided) getrf;
    decltype(&kobalt_sgetrs_strided) getrs;
    decltype(&kobalt_sgemm_lu_trsv_strided) fused;
};
const Calls calls_d{kobalt_dgemm_strided, kobalt_dgetrf_strided, kobalt_dgetrs_strided, kobalt_dgemm_lu_trsv_strided};
const CallsF calls_s{kobalt_sgemm_strided, kobalt_sgetrf_strided, kobalt_sgetrs_strided, kobalt_sgemm_lu_trsv_strided};

template <class T> void restore(std::vector<T> &dst, const std::vector<T> &src) {
    const long long n = static_cast<long long>(src.size());
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; ++i) dst[i] = src[i];
}

// Returns 0, or 1 where a call reported an error.
template <class T, class C>
int run(const C &k, const std::string &what, int n, long long batch, int reps, kobalt_layout lay) {
    const long long nn = 1LL * n * n * batch;
    std::vector<T> X(nn), Y(nn), A(nn), A0(nn), B(n * batch), B0(n * batch);
    std::vector<int> ipiv(n * batch), info(batch);
    std::mt19937_64 gen(1);
    std::uniform_real_distribution<T> u(T(-0.5), T(0.5));
    for (long long i = 0; i < nn; ++i) X[i] = u(gen), Y[i] = u(gen), A0[i] = u(gen);
    for (long long i = 0; i < nn; i += n + 1) A0[i] += T(n); // diagonally dominant: getrs alone
    for (long long i = 0; i < n * batch; ++i) {
        const int row = static_cast<int>(i % n);
        B0[i] = u(gen);
        ipiv[i] = row + 1 + static_cast<int>(gen() % static_cast<unsigned>(n - row));
    }
    const long long s = 1LL * n * n;
    const T gemm_beta = what == "product" ? T(0) : T(1); // product: A = X Y, A not read
    const kobalt_int ldb = lay == KOBALT_ROW_MAJOR ? 1 : n; // B_i: n x 1, n apart either way
    std::vector<double> ts;
    int bad = 0;
    for (int r = 0; r < reps; ++r) {
        restore(A, A0);
        restore(B, B0);
        const auto t0 = std::chrono::steady_clock::now();
        if (what == "gemm" || what == "product" || what == "three")
            bad |= k.gemm(lay, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, T(1), X.data(), n, s,
                          Y.data(), n, s, gemm_beta, A.data(), n, s, batch);
        if (what == "getrf" || what == "three")
            bad |= k.getrf(lay, n, n, A.data(), n, s, ipiv.data(), n, info.data(), batch);
        if (what == "getrs")
            bad |= k.getrs(lay, KOBALT_NO_TRANS, n, 1, A0.data(), n, s, ipiv.data(), n, B.data(), ldb, n,
                           batch);
        if (what == "three")
            bad |= k.getrs(lay, KOBALT_NO_TRANS, n, 1, A.data(), n, s, ipiv.data(), n, B.data(), ldb, n,
                           batch);
        if (what == "fused")
            bad |= k.fused(lay, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, T(1), X.data(), n, s, Y.data(),
                           n, s, T(1), A.data(), n, s, ipiv.data(), n, B.data(), ldb, n, info.data(), batch);
        ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    if (bad) {
        std::fprintf(stderr, "kobalt-one-call: %s\n", kobalt_last_error());
        return 1;
    }
    std::nth_element(ts.begin(), ts.begin() + reps / 2, ts.end());
    std::printf("%c %s%s n=%d batch=%lld: %.3f ns/item\n", sizeof(T) == 8 ? 'd' : 's', what.c_str(),
                lay == KOBALT_ROW_MAJOR ? " row" : "", n, batch, ts[reps / 2] * 1e9 / static_cast<double>(batch));
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    const std::string usage = "usage: kobalt-one-call d|s gemm|product|getrf|getrs|three|fused N BATCH [REPS]\n";
    if (argc < 5) {
        std::fputs(usage.c_str(), stderr);
        return 2;
    }
    const std::string prec = argv[1], what = argv[2];
    const int n = std::atoi(argv[3]);
    const long long batch = std::atoll(argv[4]);
    const int reps = std::min(1000, std::max(1, argc > 5 ? std::atoi(argv[5]) : 7));
    const bool known = what == "gemm" || what == "product" || what == "getrf" || what == "getrs" || what == "three" ||
                       what == "fused";
    if ((prec != "d" && prec != "s") || !known || n < 1 || n > 4096 || batch < 1) {
        std::fputs(usage.c_str(), stderr);
        return 2;
    }
    const char *layout = std::getenv("ONE_CALL_LAYOUT");
    const kobalt_layout lay = layout && std::string(layout) == "row" ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR;
    return prec == "d" ? run<double>(calls_d, what, n, batch, reps, lay)
                       : run<float>(calls_s, what, n, batch, reps, lay);
}
