// test_cuda_stress.cpp -- concurrency stress of the CUDA backend: mixed routines with
// random sizes from several host threads, each on its own CUDA stream.
//
// Each of THREADS threads creates a non-blocking stream, makes it its Kobalt stream
// (kobalt_set_cuda_stream) and runs operations until the deadline (or MAX_OPS per
// thread). An operation is fully determined by a 64-bit seed: routine (all seven
// families, both precisions, both batch forms: device pointer arrays for _batched),
// layout, transposes, sizes on both sides of the CUDA backend's thresholds (1..72: group
// kernels up to 32, one-thread kernels and cuBLAS above), batch 1..16 and the data. Its
// operands are uploaded, the routine called and the outputs downloaded on the thread's
// stream only, with no device-wide synchronisation in between: if Kobalt queued its work
// anywhere else than the thread's stream, the download would race with it. Then
// kobalt_synchronize() must return KOBALT_SUCCESS.
//
// After the join, the main thread replays every operation alone (on a stream of its own)
// and compares: statuses, pivots and info exactly; floating outputs within 256 eps of
// the output's largest magnitude (cuBLAS documents bitwise reproducibility only while a
// single stream is active: with several it may pick other kernels). How many outputs were
// bitwise identical is printed.
//
//   test_cuda_stress [SECONDS] [THREADS] [MAX_OPS]      (defaults 20, 8, 4000)
//
// Exits 77 ("no CUDA device: skipped") without a usable GPU or without the cuda backend.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "common/kt_rng.hpp"
#include "kobalt/kobalt.h"

namespace {

#define KOBALT_ROUTINE(name, params, args, route) \
    inline kobalt_status name params { return KOBALT_NAME(name) args; }
namespace kb {
#include "kobalt/kobalt_routines_all.def"
}
#undef KOBALT_ROUTINE

// What one operation left behind: its status, the first CUDA error met around it, and
// its downloaded outputs (floating values as double, integers apart).
struct Result {
    int status = 0;
    int sync_status = 0;
    std::string cuda_error;
    std::vector<double> values;
    std::vector<int> ints;
    int family = 0;
};

// A device copy of a host vector, on one stream.
template <class T> struct Dev {
    T *d = nullptr;
    size_t n = 0;
    cudaStream_t s;
    std::string *err;
    Dev(const std::vector<T> &h, cudaStream_t stream, std::string *e) : n(h.size()), s(stream), err(e) {
        check(cudaMallocAsync(&d, sizeof(T) * (n ? n : 1), s), "cudaMallocAsync");
        if (d && n) check(cudaMemcpyAsync(d, h.data(), sizeof(T) * n, cudaMemcpyHostToDevice, s), "upload");
    }
    Dev(const Dev &) = delete;
    ~Dev() {
        if (d) cudaFreeAsync(d, s);
    }
    void check(cudaError_t e, const char *what) {
        if (e != cudaSuccess && err->empty()) *err = std::string(what) + ": " + cudaGetErrorString(e);
        if (e != cudaSuccess) cudaGetLastError();
    }
    // Appends the device contents to out (the caller synchronises the stream later).
    void get(std::vector<T> &out) {
        out.resize(n);
        if (d && n) check(cudaMemcpyAsync(out.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost, s), "download");
    }
};

// Device pointer array of `batch` items at base + i*stride (base: a device buffer).
template <class T> std::vector<T *> item_ptrs(T *base, int64_t stride, int64_t batch) {
    std::vector<T *> p;
    for (int64_t i = 0; i < batch; ++i) p.push_back(base + i * stride);
    return p;
}

template <class T> std::vector<T> values(kt::Rng &r, size_t n) {
    std::vector<T> v(n);
    for (T &x : v) x = T(r.uniform());
    return v;
}
// Adds `boost` to the diagonal of every n x n item (ld n, items `n*n` apart): well
// conditioned triangular and LU inputs.
template <class T> void boost_diagonal(std::vector<T> &v, int64_t n, int64_t batch, T boost) {
    for (int64_t i = 0; i < batch; ++i)
        for (int64_t j = 0; j < n; ++j) v[size_t(i * n * n + j * (n + 1))] += boost;
}

int64_t size_of(kt::Rng &r) {
    // both sides of 16 (gemm cuBLAS) and 32 (group kernels; trsm/getrf/getrs cuBLAS), up to 72
    static const int64_t picks[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40, 48, 64, 72};
    return picks[r.below(sizeof picks / sizeof picks[0])];
}

template <class T> void collect(Result &res, const std::vector<T> &v) {
    res.values.insert(res.values.end(), v.begin(), v.end());
}

template <class T> Result run_op(uint64_t seed, int family, cudaStream_t s) {
    Result res;
    res.family = family;
    std::string &err = res.cuda_error;
    kt::Rng r(seed);
    const kobalt_layout L = r.below(2) ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR;
    const bool batched = r.below(2);
    const int64_t batch = 1 + r.below(16);
    const kobalt_op ops[] = {KOBALT_NO_TRANS, KOBALT_TRANS};
    const int64_t n = size_of(r), m = size_of(r), k = size_of(r);
    const int64_t sq = n * n;
    kobalt_status st = KOBALT_SUCCESS;
    std::vector<T> out;
    std::vector<int> iout;
    switch (family) {
    case 0: {  // gemm: A m x k, B k x n, C m x n, packed items
        const kobalt_op ta = ops[r.below(2)], tb = ops[r.below(2)];
        const int64_t ar = ta == KOBALT_NO_TRANS ? m : k, ac = ta == KOBALT_NO_TRANS ? k : m;
        const int64_t br = tb == KOBALT_NO_TRANS ? k : n, bc = tb == KOBALT_NO_TRANS ? n : k;
        const int64_t lda = L == KOBALT_COL_MAJOR ? ar : ac, ldb = L == KOBALT_COL_MAJOR ? br : bc,
                      ldc = L == KOBALT_COL_MAJOR ? m : n;
        Dev<T> A(values<T>(r, size_t(m * k * batch)), s, &err), B(values<T>(r, size_t(k * n * batch)), s, &err),
            C(values<T>(r, size_t(m * n * batch)), s, &err);
        if (batched) {
            Dev<const T *> pa(item_ptrs<const T>(A.d, m * k, batch), s, &err), pb(item_ptrs<const T>(B.d, k * n, batch), s, &err);
            Dev<T *> pc(item_ptrs<T>(C.d, m * n, batch), s, &err);
            st = kb::gemm_batched(L, ta, tb, m, n, k, T(0.5), pa.d, lda, pb.d, ldb, T(0.25), pc.d, ldc, batch);
            C.get(out);
        } else {
            st = kb::gemm_strided(L, ta, tb, m, n, k, T(0.5), A.d, lda, m * k, B.d, ldb, k * n, T(0.25), C.d, ldc,
                                  m * n, batch);
            C.get(out);
        }
        break;
    }
    case 1: {  // gemv on A m x n, increments 1 or 2
        const kobalt_op t = ops[r.below(2)];
        const int64_t inc = 1 + r.below(2), lda = L == KOBALT_COL_MAJOR ? m : n;
        const int64_t xl = t == KOBALT_NO_TRANS ? n : m, yl = t == KOBALT_NO_TRANS ? m : n;
        const int64_t xs = inc * (xl - 1) + 1, ys = inc * (yl - 1) + 1;
        Dev<T> A(values<T>(r, size_t(m * n * batch)), s, &err), x(values<T>(r, size_t(xs * batch)), s, &err),
            y(values<T>(r, size_t(ys * batch)), s, &err);
        if (batched) {
            Dev<const T *> pa(item_ptrs<const T>(A.d, m * n, batch), s, &err), px(item_ptrs<const T>(x.d, xs, batch), s, &err);
            Dev<T *> py(item_ptrs<T>(y.d, ys, batch), s, &err);
            st = kb::gemv_batched(L, t, m, n, T(1.5), pa.d, lda, px.d, inc, T(-0.5), py.d, inc, batch);
            y.get(out);
        } else {
            st = kb::gemv_strided(L, t, m, n, T(1.5), A.d, lda, m * n, x.d, inc, xs, T(-0.5), y.d, inc, ys, batch);
            y.get(out);
        }
        break;
    }
    case 2: {  // trsv
        const kobalt_uplo u = r.below(2) ? KOBALT_UPPER : KOBALT_LOWER;
        const kobalt_op t = ops[r.below(2)];
        std::vector<T> a = values<T>(r, size_t(sq * batch));
        boost_diagonal<T>(a, n, batch, T(2 * n));
        Dev<T> A(a, s, &err), x(values<T>(r, size_t(n * batch)), s, &err);
        if (batched) {
            Dev<const T *> pa(item_ptrs<const T>(A.d, sq, batch), s, &err);
            Dev<T *> px(item_ptrs<T>(x.d, n, batch), s, &err);
            st = kb::trsv_batched(L, u, t, KOBALT_NON_UNIT, n, pa.d, n, px.d, 1, batch);
            x.get(out);
        } else {
            st = kb::trsv_strided(L, u, t, KOBALT_NON_UNIT, n, A.d, n, sq, x.d, 1, n, batch);
            x.get(out);
        }
        break;
    }
    case 3: {  // trsm, left: A n x n, B n x m
        const kobalt_uplo u = r.below(2) ? KOBALT_UPPER : KOBALT_LOWER;
        const kobalt_op t = ops[r.below(2)];
        const kobalt_diag d = r.below(2) ? KOBALT_UNIT : KOBALT_NON_UNIT;
        std::vector<T> a = values<T>(r, size_t(sq * batch));
        boost_diagonal<T>(a, n, batch, T(2 * n));
        Dev<T> A(a, s, &err), B(values<T>(r, size_t(n * m * batch)), s, &err);
        const int64_t ldb = L == KOBALT_COL_MAJOR ? n : m;
        if (batched) {
            Dev<const T *> pa(item_ptrs<const T>(A.d, sq, batch), s, &err);
            Dev<T *> pb(item_ptrs<T>(B.d, n * m, batch), s, &err);
            st = kb::trsm_batched(L, KOBALT_LEFT, u, t, d, n, m, T(2), pa.d, n, pb.d, ldb, batch);
            B.get(out);
        } else {
            st = kb::trsm_strided(L, KOBALT_LEFT, u, t, d, n, m, T(2), A.d, n, sq, B.d, ldb, n * m, batch);
            B.get(out);
        }
        break;
    }
    case 4: {  // getrf, square n x n (cuBLAS above 32), pivoted or (1 in 4) not
        const bool piv = r.below(4) != 0;
        std::vector<T> a = values<T>(r, size_t(sq * batch));
        if (!piv) boost_diagonal<T>(a, n, batch, T(2 * n));
        Dev<T> A(a, s, &err);
        Dev<int> ipiv(std::vector<int>(size_t(n * batch), -7), s, &err), info(std::vector<int>(size_t(batch), -7), s, &err);
        if (batched) {
            Dev<T *> pa(item_ptrs<T>(A.d, sq, batch), s, &err);
            st = kb::getrf_batched(L, n, n, pa.d, n, piv ? ipiv.d : nullptr, n, info.d, batch);
        } else {
            st = kb::getrf_strided(L, n, n, A.d, n, sq, piv ? ipiv.d : nullptr, n, info.d, batch);
        }
        A.get(out);
        std::vector<int> p, f;
        ipiv.get(p);
        info.get(f);
        cudaStreamSynchronize(s);
        iout.insert(iout.end(), p.begin(), p.end());
        iout.insert(iout.end(), f.begin(), f.end());
        break;
    }
    case 5: {  // getrs from dominant factors and random valid pivots, nrhs = m
        const kobalt_op t = ops[r.below(2)];
        std::vector<T> a = values<T>(r, size_t(sq * batch));
        boost_diagonal<T>(a, n, batch, T(2 * n));
        std::vector<int> pv(size_t(n * batch));
        for (int64_t i = 0; i < n * batch; ++i) pv[size_t(i)] = int(i % n + r.below(n - i % n)) + 1;
        Dev<T> A(a, s, &err), B(values<T>(r, size_t(n * m * batch)), s, &err);
        Dev<int> ipiv(pv, s, &err);
        const int64_t ldb = L == KOBALT_COL_MAJOR ? n : m;
        if (batched) {
            Dev<const T *> pa(item_ptrs<const T>(A.d, sq, batch), s, &err);
            Dev<T *> pb(item_ptrs<T>(B.d, n * m, batch), s, &err);
            st = kb::getrs_batched(L, t, n, m, pa.d, n, ipiv.d, n, pb.d, ldb, batch);
        } else {
            st = kb::getrs_strided(L, t, n, m, A.d, n, sq, ipiv.d, n, B.d, ldb, n * m, batch);
        }
        B.get(out);
        break;
    }
    default: {  // fused: X n x k, Y^T (stored k x n... op TRANS of an n x k), A n x n, B n x nrhs
        const int64_t nrhs = 1 + r.below(3), kk = k % 40 + 1;
        std::vector<T> a = values<T>(r, size_t(sq * batch));
        boost_diagonal<T>(a, n, batch, T(4 * n));
        Dev<T> X(values<T>(r, size_t(n * kk * batch)), s, &err), Y(values<T>(r, size_t(n * kk * batch)), s, &err),
            A(a, s, &err), B(values<T>(r, size_t(n * nrhs * batch)), s, &err);
        Dev<int> ipiv(std::vector<int>(size_t(n * batch), -7), s, &err), info(std::vector<int>(size_t(batch), -7), s, &err);
        const int64_t ldx = L == KOBALT_COL_MAJOR ? n : kk, ldy = ldx, ldb = L == KOBALT_COL_MAJOR ? n : nrhs;
        if (batched) {
            Dev<const T *> px(item_ptrs<const T>(X.d, n * kk, batch), s, &err), py(item_ptrs<const T>(Y.d, n * kk, batch), s, &err);
            Dev<T *> pa(item_ptrs<T>(A.d, sq, batch), s, &err), pb(item_ptrs<T>(B.d, n * nrhs, batch), s, &err);
            st = kb::gemm_lu_trsv_batched(L, KOBALT_NO_TRANS, KOBALT_TRANS, n, kk, nrhs, T(0.1), px.d, ldx, py.d, ldy,
                                          T(1), pa.d, n, ipiv.d, n, pb.d, ldb, info.d, batch);
        } else {
            st = kb::gemm_lu_trsv_strided(L, KOBALT_NO_TRANS, KOBALT_TRANS, n, kk, nrhs, T(0.1), X.d, ldx, n * kk, Y.d,
                                          ldy, n * kk, T(1), A.d, n, sq, ipiv.d, n, B.d, ldb, n * nrhs, info.d, batch);
        }
        std::vector<T> bo;
        A.get(out);
        B.get(bo);
        std::vector<int> p, f;
        ipiv.get(p);
        info.get(f);
        cudaStreamSynchronize(s);
        out.insert(out.end(), bo.begin(), bo.end());
        iout.insert(iout.end(), p.begin(), p.end());
        iout.insert(iout.end(), f.begin(), f.end());
        break;
    }
    }
    // Every buffer above was freed (cudaFreeAsync) on s; wait for the stream, then ask Kobalt.
    const cudaError_t e = cudaStreamSynchronize(s);
    if (e != cudaSuccess && err.empty()) err = std::string("cudaStreamSynchronize: ") + cudaGetErrorString(e);
    res.status = int(st);
    res.sync_status = int(kobalt_synchronize());
    collect(res, out);
    res.ints = iout;
    return res;
}

Result run_seed(uint64_t seed, cudaStream_t s) {
    kt::Rng r(seed ^ 0x5a5a5a5a5a5a5a5aull);
    const int family = int(r.below(7));
    return r.below(2) ? run_op<float>(seed, family, s) : run_op<double>(seed, family, s);
}

bool single_precision(uint64_t seed) {
    kt::Rng r(seed ^ 0x5a5a5a5a5a5a5a5aull);
    r.below(7);
    return r.below(2) != 0;
}

struct Done {
    uint64_t seed;
    Result result;
};

}  // namespace

int main(int argc, char **argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 20.0;
    const int threads = argc > 2 ? std::atoi(argv[2]) : 8;
    const long max_ops = argc > 3 ? std::atol(argv[3]) : 4000;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("no CUDA device: skipped\n");
        return 77;
    }
    bool have_cuda = false;
    for (int i = 0; i < kobalt_backend_count(); ++i) have_cuda |= std::strcmp(kobalt_backend_name(i), "cuda") == 0;
    if (!have_cuda) {
        std::printf("the cuda backend did not load (KOBALT_VERBOSE=1 says why): skipped\n");
        return 77;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::vector<std::vector<Done>> done((size_t)threads);
    std::atomic<int> ready{0};
    std::vector<std::thread> pool;
    const auto t0 = std::chrono::steady_clock::now();
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            cudaStream_t s = nullptr;
            cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
            kobalt_set_cuda_stream(s);
            ready.fetch_add(1);
            while (ready.load() < threads) std::this_thread::yield();
            kt::Rng seeds(0xc0dau + uint64_t(t) * 7919u);
            do {
                const uint64_t seed = seeds.next();
                done[size_t(t)].push_back(Done{seed, run_seed(seed, s)});
            } while (std::chrono::steady_clock::now() < deadline && long(done[size_t(t)].size()) < max_ops);
            kobalt_set_cuda_stream(nullptr);
            cudaStreamDestroy(s);
        });
    for (std::thread &th : pool) th.join();
    const double concurrent_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    cudaStream_t alone = nullptr;
    cudaStreamCreateWithFlags(&alone, cudaStreamNonBlocking);
    kobalt_set_cuda_stream(alone);
    long total = 0, failures = 0, bitwise = 0, per_family[7] = {0};
    double worst = 0;
    for (const auto &list : done)
        for (const Done &d : list) {
            ++total;
            const Result &c = d.result;
            ++per_family[c.family];
            const Result a = run_seed(d.seed, alone);
            const double eps = single_precision(d.seed) ? 1.1920929e-7 : 2.220446049250313e-16;
            double scale = 0, diff = 0;
            bool same_nan = c.values.size() == a.values.size();
            for (size_t i = 0; same_nan && i < a.values.size(); ++i) {
                if (std::isnan(a.values[i]) || std::isnan(c.values[i])) {
                    same_nan = std::isnan(a.values[i]) && std::isnan(c.values[i]);
                    continue;
                }
                scale = std::max(scale, std::fabs(a.values[i]));
                diff = std::max(diff, std::fabs(a.values[i] - c.values[i]));
            }
            const double rel = diff / std::max(scale, 1e-300);
            const bool ok = c.cuda_error.empty() && a.cuda_error.empty() && c.status == KOBALT_SUCCESS &&
                            a.status == KOBALT_SUCCESS && c.sync_status == KOBALT_SUCCESS &&
                            a.sync_status == KOBALT_SUCCESS && same_nan && c.ints == a.ints && rel <= 256 * eps;
            if (ok) {
                worst = std::max(worst, rel / eps);
                bitwise += c.values == a.values;
            } else if (++failures <= 20) {
                std::printf("FAIL seed %#llx family %d: concurrent status %d/%d %s, alone status %d/%d %s; ints %s; "
                            "max difference %.3g eps of the largest |value|\n",
                            (unsigned long long)d.seed, c.family, c.status, c.sync_status, c.cuda_error.c_str(),
                            a.status, a.sync_status, a.cuda_error.c_str(), c.ints == a.ints ? "equal" : "DIFFER",
                            rel / eps);
            }
        }
    kobalt_set_cuda_stream(nullptr);
    cudaStreamDestroy(alone);
    std::printf("%d threads on %d streams, %.1f s concurrent: %ld operations (gemm %ld, gemv %ld, trsv %ld, trsm %ld, "
                "getrf %ld, getrs %ld, fused %ld), each replayed alone: %ld mismatch(es); %ld bitwise identical, "
                "largest difference %.1f eps\n",
                threads, threads, concurrent_s, total, per_family[0], per_family[1], per_family[2], per_family[3],
                per_family[4], per_family[5], per_family[6], failures, bitwise, worst);
    return failures || total == 0 ? 1 : 0;
}
