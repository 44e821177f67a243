// semiring_ab.cpp -- two copies of backends/openmp/semiring_kernels.cpp (namespaces va and vb:
// a base revision and the working tree; semiring_ab.sh builds them) timed in one process on
// the same items, in cache, one thread, interleaved repetition by repetition, beside libxsmm
// for PLUS_TIMES (SR=<kobalt_semiring value> picks another semiring; TRB=1 transposes B).
// On a noisy shared VM the ratio of two variants measured this way moves by a few percent,
// where separate kobalt-bench runs of two plugin builds moved by 30%.
#include "semiring_kernels.hpp"

#include <libxsmm.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace kobalt_openmp {
namespace semiring {
namespace va {
template <class T> void gemm(const Problem<T> &p);
}
namespace vb {
template <class T> void gemm(const Problem<T> &p);
}
} // namespace semiring
} // namespace kobalt_openmp

namespace {
using namespace kobalt_openmp::semiring;

double seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class T> void one(int n, int reps, bool trans_b, kobalt_semiring sr, double kb) {
    const size_t e = size_t(n) * n;
    const int batch = std::max<int>(4, int((kb * 1024) / (3 * e * sizeof(T)))); // about kb KB
    std::vector<T> A(e * batch), B(e * batch), C(e * batch), scratch(2 * scratch_per_thread(n) + 256);
    for (auto &v : A) v = T(rand() % 100) / 50 - 1;
    for (auto &v : B) v = T(rand() % 100) / 50 - 1;
    Problem<T> p{};
    p.semiring = sr;
    p.m = p.n = p.k = n;
    p.alpha = 1;
    p.beta = 0;
    p.A = {A.data(), int64_t(e), nullptr};
    p.a = {1, n};
    p.B = {B.data(), int64_t(e), nullptr};
    p.b = trans_b ? View{n, 1} : View{1, n};
    p.C = {C.data(), int64_t(e), nullptr};
    p.c = {1, n};
    p.batch = batch;
    p.scratch = scratch.data();
    p.per_thread = scratch_per_thread(n) + 64;
    // The openmp backend's rule (semiring_call.hpp) at its defaults GEMM_PREFETCH_MIN_BYTES
    // (16 MiB) and GEMM_PREFETCH_ITEM_MAX_BYTES (32 KiB) unless PREFETCH=0/1 says otherwise;
    // a copy built before session 39 ignores it.
    const char *pf = std::getenv("PREFETCH");
    p.prefetch = pf ? std::atoi(pf) != 0
                    : 3.0 * double(e) * sizeof(T) * batch >= double(16 << 20) && e * sizeof(T) <= 32768;
    // ... AHEAD items ahead (default: the backend's rule at GEMM_PREFETCH_AHEAD_BYTES = 3 KiB).
    const char *ahead = std::getenv("AHEAD");
    p.prefetch_items = ahead ? std::atoi(ahead) : prefetch_items(2.0 * double(e) * sizeof(T), 3072.0);

    const libxsmm_blasint ln = n;
    const T one = 1, zero = 0;
    const int flags = trans_b ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
    using Fn = void (*)(const T *, const T *, T *, ...);
    Fn f;
    if constexpr (sizeof(T) == 8) f = (Fn)libxsmm_dmmdispatch(ln, ln, ln, &ln, &ln, &ln, &one, &zero, &flags, nullptr);
    else f = (Fn)libxsmm_smmdispatch(ln, ln, ln, &ln, &ln, &ln, &one, &zero, &flags, nullptr);
    if (sr != KOBALT_PLUS_TIMES) f = nullptr; // libxsmm has no other semiring

    std::vector<double> t[3];
    for (int r = 0; r < reps; ++r)
        for (int v = 0; v < 3; ++v) {
            const double t0 = seconds();
            if (v == 0) va::gemm(p);
            else if (v == 1) vb::gemm(p);
            else if (f) {
                // In an OpenMP loop as kobalt-bench's peers run and as the kernels above do:
                // each call then pays for one parallel region (1.2 us on one thread of an AMD
                // Zen 5 VM measured alone, 2-3 us a call as this harness saw it), which at a
                // 256 KB batch of double n = 16 was 40% of Kobalt's time (session 37).
#pragma omp parallel for schedule(static)
                for (int i = 0; i < batch; ++i) f(A.data() + i * e, B.data() + i * e, C.data() + i * e);
            }
            t[v].push_back((seconds() - t0) / batch * 1e6);
        }
    auto q = [&](int v, double frac) {
        std::vector<double> x = t[v];
        std::sort(x.begin(), x.end());
        return x[size_t(frac * double(x.size() - 1))];
    };
    std::printf("%s n=%3d%s  main %.4f/%.4f  new %.4f/%.4f  xsmm %.4f/%.4f  new/main(min) %.2fx  xsmm/new(min) %.2f"
                "  xsmm/main(min) %.2f\n",
                sizeof(T) == 8 ? "d" : "s", n, trans_b ? " tB" : "   ", q(0, 0), q(0, .5), q(1, 0), q(1, .5), q(2, 0),
                q(2, .5), q(0, 0) / q(1, 0), q(2, 0) / q(1, 0), q(2, 0) / q(0, 0));
}
} // namespace

int main(int argc, char **argv) {
    libxsmm_init();
    const char *prec = std::getenv("PREC");
    const char *sr = std::getenv("SR");
    const std::string precs = prec ? prec : "ds";
    const bool trans_b = std::getenv("TRB") != nullptr;
    const char *kb_env = std::getenv("KB"); // working set of A, B and C together
    const double kb = kb_env ? std::atof(kb_env) : 256;
    const kobalt_semiring s = sr ? kobalt_semiring(std::atoi(sr)) : KOBALT_PLUS_TIMES;
    for (char c : precs)
        for (int i = 1; i < argc; ++i) {
            if (c == 'd') one<double>(std::atoi(argv[i]), 400, trans_b, s, kb);
            else one<float>(std::atoi(argv[i]), 400, trans_b, s, kb);
        }
}
