// test_stress.cpp -- concurrency stress: mixed routines with random sizes from 16 threads.
//
// Each of THREADS threads runs operations until the deadline (SECONDS). An operation is
// fully determined by a 64-bit seed: routine (all eight families, both precisions, both
// batch forms), layout, transposes, sizes drawn on both sides of the backend's small-path
// thresholds (1..72, so both the KokkosBatched and the OpenBLAS paths run concurrently),
// batch 1..8 and the data. The thread records the status and a hash of every output byte.
// After the join, the main thread replays every recorded operation alone, with two OpenMP
// threads and again with one, and requires KOBALT_SUCCESS and a bitwise-identical output:
// each item is computed by one thread with the same kernel and the same compiled loop
// whatever the concurrency, the thread count and the calling context, so equality must be
// exact. (Item sizes stay
// below FEW_ITEMS_LARGE_MIN, 256: the one path on which OpenBLAS threads a single item,
// and which could legitimately round differently.)
//
// gemm_semiring (a semiring drawn from all eight) is also checked, concurrent and alone,
// against a triple-loop reference written from docs/api.md, over the whole of C's buffer
// (padding included): exactly for every semiring but PLUS_TIMES (each element is a min/max
// selection of once-rounded terms), within a scaled bound for PLUS_TIMES (gemm's rounding).
// Its kernels pack panels of op(A) into per-thread scratch: two threads sharing a part, or
// a part past the allocation, shows as a wrong element (or a crash) even where the replay
// alone would repeat the same mistake.
//
//   test_stress [SECONDS] [THREADS] [threads|openmp] [FAMILY]
//
// FAMILY (gemm, gemv, trsv, trsm, getrf, getrs, fused, semiring): every operation is of
// that family (the seeds still draw everything else).
//
// threads: the callers are std::threads (the library's own OpenMP loops start a team
// per caller). openmp: the callers are the team of the host program's own
// `#pragma omp parallel num_threads(THREADS)`, with omp_set_num_threads(2) before it, so
// that inside the region omp_get_max_threads() (2) is below the caller's thread number
// (up to THREADS-1): per-thread workspace must be indexed by the library's own team, not
// by the caller's thread number. With nesting off (the default) the library's loops open no
// region there and run on the caller's thread (backends/openmp/team.hpp).
#include <omp.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "common/kt_rng.hpp"
#include "common/kt_semiring.hpp"
#include "kobalt/kobalt.h"

namespace {

#define KOBALT_ROUTINE(name, params, args, route) \
    inline kobalt_status name params { return KOBALT_NAME(name) args; }
namespace kb {
#include "kobalt/kobalt_routines_all.def"
}
#undef KOBALT_ROUTINE

const int kFamilies = 8;
const char *const kFamilyNames[kFamilies] = {"gemm", "gemv", "trsv", "trsm", "getrf", "getrs", "fused", "semiring"};

struct Outcome {
    uint64_t seed;
    int status;
    uint64_t hash;
    int family;
    long wrong;  // gemm_semiring: elements of C's buffer off the reference
};

uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *c = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 0x100000001b3ull;
    return h;
}

template <class T> std::vector<T> values(kt::Rng &r, size_t n, T diag_boost = T(0), int64_t ld = 0, int64_t dim = 0) {
    std::vector<T> v(n);
    for (T &x : v) x = T(r.uniform());
    if (diag_boost != T(0) && ld > 0)  // well conditioned triangular / LU inputs
        for (size_t base = 0; base + size_t((dim - 1) * (ld + 1)) < n; base += size_t(ld * dim))
            for (int64_t i = 0; i < dim; ++i) v[base + size_t(i * (ld + 1))] += diag_boost;
    return v;
}

template <class T> std::vector<T *> ptrs(std::vector<T> &v, int64_t stride, int64_t batch) {
    std::vector<T *> p;
    for (int64_t i = 0; i < batch; ++i) p.push_back(v.data() + i * stride);
    return p;
}
template <class T> std::vector<const T *> cptrs(const std::vector<T> &v, int64_t stride, int64_t batch) {
    std::vector<const T *> p;
    for (int64_t i = 0; i < batch; ++i) p.push_back(v.data() + i * stride);
    return p;
}

// gemm_semiring's reference (docs/api.md): D = add(mult(alpha, P), mult(beta, C)), P folded
// from the add identity z over the k terms; mult(beta, C) is z when beta == z (C not read).
template <class T> using Semiring = kt::Semiring<T>; // common/kt_semiring.hpp

// The expected buffer of C (items `item` apart, leading dimension ld, padding unchanged)
// and, when `bound` is not empty (PLUS_TIMES), each element's error bound.
template <class T>
void semiring_reference(Semiring<T> sr, kobalt_layout L, kobalt_op ta, kobalt_op tb, int64_t m, int64_t n, int64_t k,
                        T alpha, const std::vector<T> &A, const std::vector<T> &B, T beta, std::vector<T> &C,
                        std::vector<T> &bound, int64_t ld, int64_t item, int64_t batch) {
    auto at = [&](const std::vector<T> &X, int64_t base, int64_t i, int64_t j) {
        return X[size_t(base + (L == KOBALT_COL_MAJOR ? i + j * ld : i * ld + j))];
    };
    const T eps = std::numeric_limits<T>::epsilon();
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                T P = sr.zero(), mag = T(0);
                for (int64_t p = 0; p < k; ++p) {
                    const T a = ta == KOBALT_NO_TRANS ? at(A, b * item, i, p) : at(A, b * item, p, i);
                    const T v = tb == KOBALT_NO_TRANS ? at(B, b * item, p, j) : at(B, b * item, j, p);
                    P = sr.add(P, sr.mult(a, v));
                    mag += std::fabs(a * v);
                }
                const size_t e = size_t(b * item + (L == KOBALT_COL_MAJOR ? i + j * ld : i * ld + j));
                const T c = beta == sr.zero() ? sr.zero() : sr.mult(beta, C[e]);
                if (!bound.empty()) bound[e] = T(2 * (k + 2)) * eps * (std::fabs(alpha) * mag + std::fabs(beta * C[e]));
                C[e] = sr.add(sr.mult(alpha, P), c);
            }
}

int64_t size_of(kt::Rng &r) {
    // both sides of 6, 8, 24, 32, 48 (the default thresholds), up to 72
    static const int64_t picks[] = {1, 2, 3, 5, 6, 7, 8, 9, 12, 20, 24, 25, 31, 32, 33, 40, 48, 49, 64, 72};
    return picks[r.below(sizeof picks / sizeof picks[0])];
}

template <class T> Outcome run_op(uint64_t seed, int family) {
    kt::Rng r(seed);
    const kobalt_layout L = r.below(2) ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR;
    const bool batched = r.below(2);
    const int64_t batch = 1 + r.below(8);
    const kobalt_op ops[] = {KOBALT_NO_TRANS, KOBALT_TRANS};
    kobalt_status st = KOBALT_SUCCESS;
    uint64_t h = 0xcbf29ce484222325ull;
    long wrong = 0;
    const int64_t n = size_of(r), m = size_of(r), k = size_of(r) % 40 + 1;
    const int64_t sq = n * n;
    switch (family) {
    case 0: {  // gemm: C m x n, A m x k, B k x n (square-stored with ld = max dims)
        const kobalt_op ta = ops[r.below(2)], tb = ops[r.below(2)];
        const int64_t ld = 72, item = ld * 72;
        auto A = values<T>(r, size_t(item * batch)), B = values<T>(r, size_t(item * batch)),
             C = values<T>(r, size_t(item * batch));
        if (batched) {
            auto pa = cptrs(A, item, batch), pb = cptrs(B, item, batch);
            auto pc = ptrs(C, item, batch);
            st = kb::gemm_batched(L, ta, tb, m, n, k, T(0.5), pa.data(), ld, pb.data(), ld, T(0.25), pc.data(), ld, batch);
        } else {
            st = kb::gemm_strided(L, ta, tb, m, n, k, T(0.5), A.data(), ld, item, B.data(), ld, item, T(0.25), C.data(), ld,
                                  item, batch);
        }
        h = fnv(h, C.data(), C.size() * sizeof(T));
        break;
    }
    case 1: {  // gemv
        const kobalt_op t = ops[r.below(2)];
        const int64_t inc = r.below(3) - 1 == 0 ? 1 : (r.below(2) ? 2 : -2), ld = 72, item = ld * 72, vitem = 2 * 72 + 1;
        auto A = values<T>(r, size_t(item * batch)), x = values<T>(r, size_t(vitem * batch)), y = values<T>(r, size_t(vitem * batch));
        if (batched) {
            auto pa = cptrs(A, item, batch), px = cptrs(x, vitem, batch);
            auto py = ptrs(y, vitem, batch);
            st = kb::gemv_batched(L, t, m, n, T(1.5), pa.data(), ld, px.data(), inc, T(-0.5), py.data(), inc, batch);
        } else {
            st = kb::gemv_strided(L, t, m, n, T(1.5), A.data(), ld, item, x.data(), inc, vitem, T(-0.5), y.data(), inc, vitem,
                                  batch);
        }
        h = fnv(h, y.data(), y.size() * sizeof(T));
        break;
    }
    case 2: {  // trsv
        const kobalt_uplo u = r.below(2) ? KOBALT_UPPER : KOBALT_LOWER;
        const kobalt_op t = ops[r.below(2)];
        auto A = values<T>(r, size_t(sq * batch), T(4 * n), n, n), x = values<T>(r, size_t(n * batch));
        if (batched) {
            auto pa = cptrs(A, sq, batch);
            auto px = ptrs(x, n, batch);
            st = kb::trsv_batched(L, u, t, KOBALT_NON_UNIT, n, pa.data(), n, px.data(), 1, batch);
        } else {
            st = kb::trsv_strided(L, u, t, KOBALT_NON_UNIT, n, A.data(), n, sq, x.data(), 1, n, batch);
        }
        h = fnv(h, x.data(), x.size() * sizeof(T));
        break;
    }
    case 3: {  // trsm, left: A n x n, B n x m
        const kobalt_uplo u = r.below(2) ? KOBALT_UPPER : KOBALT_LOWER;
        const kobalt_op t = ops[r.below(2)];
        const kobalt_diag d = r.below(2) ? KOBALT_UNIT : KOBALT_NON_UNIT;
        auto A = values<T>(r, size_t(sq * batch), T(4 * n), n, n), B = values<T>(r, size_t(n * m * batch));
        const int64_t ldb = L == KOBALT_COL_MAJOR ? n : m;
        if (batched) {
            auto pa = cptrs(A, sq, batch);
            auto pb = ptrs(B, n * m, batch);
            st = kb::trsm_batched(L, KOBALT_LEFT, u, t, d, n, m, T(2), pa.data(), n, pb.data(), ldb, batch);
        } else {
            st = kb::trsm_strided(L, KOBALT_LEFT, u, t, d, n, m, T(2), A.data(), n, sq, B.data(), ldb, n * m, batch);
        }
        h = fnv(h, B.data(), B.size() * sizeof(T));
        break;
    }
    case 4: {  // getrf, m x n
        const int64_t ld = L == KOBALT_COL_MAJOR ? m : n, item = m * n, mn = m < n ? m : n;
        auto A = values<T>(r, size_t(item * batch));
        std::vector<int> ipiv(size_t(mn * batch)), info((size_t)batch);
        const bool piv = r.below(4) != 0;
        if (!piv)  // no pivoting: make the items diagonally dominant
            for (int64_t i = 0; i < batch; ++i)
                for (int64_t j = 0; j < mn; ++j) A[size_t(i * item + j * (ld + 1))] += T(2 * (m > n ? m : n));
        if (batched) {
            auto pa = ptrs(A, item, batch);
            st = kb::getrf_batched(L, m, n, pa.data(), ld, piv ? ipiv.data() : nullptr, mn, info.data(), batch);
        } else {
            st = kb::getrf_strided(L, m, n, A.data(), ld, item, piv ? ipiv.data() : nullptr, mn, info.data(), batch);
        }
        h = fnv(fnv(fnv(h, A.data(), A.size() * sizeof(T)), ipiv.data(), ipiv.size() * sizeof(int)), info.data(),
                info.size() * sizeof(int));
        break;
    }
    case 5: {  // getrs from random factors (unit-ish L, dominant U) and random valid pivots
        const kobalt_op t = ops[r.below(2)];
        auto A = values<T>(r, size_t(sq * batch), T(4 * n), n, n), B = values<T>(r, size_t(n * m * batch));
        std::vector<int> ipiv(size_t(n * batch));
        for (int64_t i = 0; i < n * batch; ++i) ipiv[size_t(i)] = int(i % n + r.below(n - i % n)) + 1;
        const int64_t ldb = L == KOBALT_COL_MAJOR ? n : m;
        if (batched) {
            auto pa = cptrs(A, sq, batch);
            auto pb = ptrs(B, n * m, batch);
            st = kb::getrs_batched(L, t, n, m, pa.data(), n, ipiv.data(), n, pb.data(), ldb, batch);
        } else {
            st = kb::getrs_strided(L, t, n, m, A.data(), n, sq, ipiv.data(), n, B.data(), ldb, n * m, batch);
        }
        h = fnv(h, B.data(), B.size() * sizeof(T));
        break;
    }
    case 7: {  // gemm_semiring, shaped as gemm; alpha = 0.5, beta = 0.25 or the add identity
        static const kobalt_semiring semirings[] = {KOBALT_PLUS_TIMES, KOBALT_MIN_PLUS, KOBALT_MAX_PLUS,
                                                    KOBALT_MIN_TIMES,  KOBALT_MAX_TIMES, KOBALT_MIN_MAX,
                                                    KOBALT_MAX_MIN,    KOBALT_OR_AND};
        const Semiring<T> sr{semirings[r.below(8)]};
        const kobalt_op ta = ops[r.below(2)], tb = ops[r.below(2)];
        const int64_t ld = 72, item = ld * 72;
        const T alpha = T(0.5), beta = r.below(4) ? T(0.25) : sr.zero();
        auto A = values<T>(r, size_t(item * batch)), B = values<T>(r, size_t(item * batch)),
             C = values<T>(r, size_t(item * batch));
        if (sr.s == KOBALT_OR_AND)  // mostly false, so that the or over k terms is not always true
            for (auto *v : {&A, &B, &C})
                for (T &x : *v) x = x > T(0.6) ? x : T(0);
        std::vector<T> want(C), bound(sr.s == KOBALT_PLUS_TIMES ? C.size() : 0, T(0));
        semiring_reference(sr, L, ta, tb, m, n, k, alpha, A, B, beta, want, bound, ld, item, batch);
        if (batched) {
            auto pa = cptrs(A, item, batch), pb = cptrs(B, item, batch);
            auto pc = ptrs(C, item, batch);
            st = kb::gemm_semiring_batched(sr.s, L, ta, tb, m, n, k, alpha, pa.data(), ld, pb.data(), ld, beta,
                                           pc.data(), ld, batch);
        } else {
            st = kb::gemm_semiring_strided(sr.s, L, ta, tb, m, n, k, alpha, A.data(), ld, item, B.data(), ld, item,
                                           beta, C.data(), ld, item, batch);
        }
        for (size_t e = 0; e < C.size(); ++e)
            wrong += sr.s == KOBALT_PLUS_TIMES ? !(std::fabs(C[e] - want[e]) <= bound[e]) : !(C[e] == want[e]);
        h = fnv(h, C.data(), C.size() * sizeof(T));
        break;
    }
    default: {  // fused: X n x k, Y k x n, A n x n, B n x nrhs
        const int64_t nrhs = 1 + r.below(3), ld = 72, item = 72 * 72;
        auto X = values<T>(r, size_t(item * batch)), Y = values<T>(r, size_t(item * batch)),
             A = values<T>(r, size_t(sq * batch), T(4 * n), n, n), B = values<T>(r, size_t(n * nrhs * batch));
        std::vector<int> ipiv(size_t(n * batch)), info((size_t)batch);
        const int64_t ldb = L == KOBALT_COL_MAJOR ? n : nrhs;
        if (batched) {
            auto px = cptrs(X, item, batch), py = cptrs(Y, item, batch);
            auto pa = ptrs(A, sq, batch), pb = ptrs(B, n * nrhs, batch);
            st = kb::gemm_lu_trsv_batched(L, KOBALT_NO_TRANS, KOBALT_TRANS, n, k, nrhs, T(0.1), px.data(), ld, py.data(), ld,
                                          T(1), pa.data(), n, ipiv.data(), n, pb.data(), ldb, info.data(), batch);
        } else {
            st = kb::gemm_lu_trsv_strided(L, KOBALT_NO_TRANS, KOBALT_TRANS, n, k, nrhs, T(0.1), X.data(), ld, item, Y.data(),
                                          ld, item, T(1), A.data(), n, sq, ipiv.data(), n, B.data(), ldb, n * nrhs,
                                          info.data(), batch);
        }
        h = fnv(fnv(fnv(fnv(h, A.data(), A.size() * sizeof(T)), B.data(), B.size() * sizeof(T)), ipiv.data(),
                    ipiv.size() * sizeof(int)),
                info.data(), info.size() * sizeof(int));
        break;
    }
    }
    return Outcome{seed, int(st), h, family, wrong};
}

// only: a family index, or -1 for any.
Outcome run_seed(uint64_t seed, int only) {
    kt::Rng r(seed ^ 0x5a5a5a5a5a5a5a5aull);
    const int drawn = int(r.below(kFamilies)), family = only >= 0 ? only : drawn;
    return r.below(2) ? run_op<float>(seed, family) : run_op<double>(seed, family);
}

}  // namespace

int main(int argc, char **argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 10.0;
    const int threads = argc > 2 ? std::atoi(argv[2]) : 16;
    const bool openmp = argc > 3 && std::strcmp(argv[3], "openmp") == 0;
    int only = -1;
    for (int f = 0; argc > 4 && f < kFamilies; ++f)
        if (std::strcmp(argv[4], kFamilyNames[f]) == 0) only = f;
    if (seconds <= 0 || threads < 1 || (argc > 3 && !openmp && std::strcmp(argv[3], "threads") != 0) ||
        (argc > 4 && only < 0) || argc > 5) {
        std::fprintf(stderr, "usage: test_stress [SECONDS] [THREADS] [threads|openmp] "
                             "[gemm|gemv|trsv|trsm|getrf|getrs|fused|semiring]\n");
        return 2;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::vector<std::vector<Outcome>> done((size_t)threads);
    std::atomic<int> ready{0};
    auto worker = [&](int t) {
        ready.fetch_add(1);
        while (ready.load() < threads) std::this_thread::yield();  // first calls together
        kt::Rng seeds(0x57a55ull + uint64_t(t) * 7919u);
        do done[size_t(t)].push_back(run_seed(seeds.next(), only));
        while (std::chrono::steady_clock::now() < deadline);
    };
    const auto t0 = std::chrono::steady_clock::now();
    if (openmp) {
        omp_set_num_threads(2);
#pragma omp parallel num_threads(threads)
        {
            if (omp_get_num_threads() == threads) worker(omp_get_thread_num());
        }
    } else {
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) pool.emplace_back(worker, t);
        for (std::thread &th : pool) th.join();
    }
    const double concurrent_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    long total = 0, failures = 0, per_family[kFamilies] = {0};
    // Replayed twice: alone with two threads (the library's loops in a parallel region of
    // two), then alone with one (no region: the batch on the calling thread). An item's
    // bits may depend on neither the thread count nor the calling context.
    for (const int replay_threads : {2, 1}) {
        omp_set_num_threads(replay_threads);
        for (const auto &list : done)
            for (const Outcome &o : list) {
                if (replay_threads == 2) {
                    ++total;
                    ++per_family[o.family];
                }
                const Outcome again = run_seed(o.seed, only);
                if (o.status != KOBALT_SUCCESS || again.status != o.status || again.hash != o.hash || o.wrong ||
                    again.wrong) {
                    if (++failures <= 20)
                        std::printf("FAIL seed %#llx family %s: concurrent status %d hash %016llx wrong %ld, alone "
                                    "(%d thread%s) status %d hash %016llx wrong %ld\n",
                                    (unsigned long long)o.seed, kFamilyNames[o.family], o.status,
                                    (unsigned long long)o.hash, o.wrong, replay_threads,
                                    replay_threads > 1 ? "s" : "", again.status, (unsigned long long)again.hash,
                                    again.wrong);
                }
            }
    }
    std::printf("%d %s, %.1f s concurrent: %ld operations (", threads,
                openmp ? "threads of an OpenMP team" : "std::threads", concurrent_s, total);
    for (int f = 0; f < kFamilies; ++f) std::printf("%s%s %ld", f ? ", " : "", kFamilyNames[f], per_family[f]);
    std::printf("), each replayed alone with 2 and with 1 thread: %ld mismatch(es)\n", failures);
    if (total == 0) std::printf("FAIL: no operation ran (the OpenMP team had fewer than %d threads?)\n", threads);
    return failures || total == 0 ? 1 : 0;
}
