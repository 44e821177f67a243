// kobalt-gemv-cases-bench -- Kobalt's gemv alone over the cases kobalt-bench does not
// time: both layouts x NoTrans/Trans x beta = 0 / beta != 0, unit increments, square
// items. kobalt-bench times col/row NoTrans with beta = 0 against the peers; this tool
// exists to A/B a change of the kernels (run it twice, KOBALT_PLUGIN_PATH pointing at
// the old and the new plugin, alternating) on the other cases, so that a kernel that
// wins the peer comparison is seen not to lose elsewhere.
//
//   kobalt-gemv-cases-bench [--sizes 2,4,8,...] [--mb MB] [--reps R]
// prints one CSV line per case: prec,layout,trans,beta,n,batch,median_s,min_s,max_s
#include <kobalt/kobalt.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

kobalt_status call(kobalt_layout l, kobalt_op t, int n, double alpha, const double *A,
                   const double *x, double beta, double *y, long batch) {
    return kobalt_dgemv_strided(l, t, n, n, alpha, A, n, (kobalt_int)n * n, x, 1, n, beta, y, 1,
                                n, batch);
}
kobalt_status call(kobalt_layout l, kobalt_op t, int n, float alpha, const float *A,
                   const float *x, float beta, float *y, long batch) {
    return kobalt_sgemv_strided(l, t, n, n, alpha, A, n, (kobalt_int)n * n, x, 1, n, beta, y, 1,
                                n, batch);
}

template <class T> void run(const char *prec, const std::vector<int> &sizes, double mb, int reps) {
    for (int n : sizes) {
        const long batch = std::max(1L, long(mb * 1e6 / (sizeof(T) * (double(n) * n + 2 * n))));
        std::vector<T> A(size_t(batch) * n * n), x(size_t(batch) * n), y(size_t(batch) * n);
        unsigned s = 12345;
        auto rnd = [&] { s = s * 1103515245u + 12345u; return T((s >> 8) % 2001) / T(1000) - T(1); };
        for (auto &v : A) v = rnd();
        for (auto &v : x) v = rnd();
        for (kobalt_layout l : {KOBALT_COL_MAJOR, KOBALT_ROW_MAJOR})
            for (kobalt_op t : {KOBALT_NO_TRANS, KOBALT_TRANS})
                for (T beta : {T(0), T(0.5)}) {
                    std::vector<double> ts;
                    for (int r = 0; r <= reps; ++r) { // r = 0: warm-up, not counted
                        std::fill(y.begin(), y.end(), T(1));
                        const double t0 = now();
                        if (call(l, t, n, T(1), A.data(), x.data(), beta, y.data(), batch) !=
                            KOBALT_SUCCESS) {
                            std::fprintf(stderr, "gemv failed: %s\n", kobalt_last_error());
                            std::exit(1);
                        }
                        if (r > 0) ts.push_back(now() - t0);
                    }
                    std::sort(ts.begin(), ts.end());
                    std::printf("%s,%s,%s,%g,%d,%ld,%g,%g,%g\n", prec,
                                l == KOBALT_COL_MAJOR ? "col" : "row",
                                t == KOBALT_NO_TRANS ? "N" : "T", double(beta), n, batch,
                                ts[ts.size() / 2], ts.front(), ts.back());
                    std::fflush(stdout);
                }
    }
}

} // namespace

int main(int argc, char **argv) {
    std::vector<int> sizes = {2, 3, 4, 5, 6, 8, 10, 12, 16};
    double mb = 64;
    int reps = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--sizes")) {
            sizes.clear();
            std::stringstream ss(argv[i + 1]);
            std::string t;
            while (std::getline(ss, t, ','))
                if (!t.empty()) sizes.push_back(std::atoi(t.c_str()));
        } else if (!std::strcmp(argv[i], "--mb")) {
            mb = std::atof(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--reps")) {
            reps = std::max(1, std::atoi(argv[i + 1]));
        } else {
            std::fprintf(stderr, "usage: %s [--sizes 2,4,...] [--mb MB] [--reps R]\n", argv[0]);
            return 2;
        }
    }
    std::printf("prec,layout,trans,beta,n,batch,median_s,min_s,max_s\n");
    run<double>("d", sizes, mb, reps);
    run<float>("s", sizes, mb, reps);
    return 0;
}
