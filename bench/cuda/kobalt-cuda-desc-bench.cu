// kobalt-cuda-desc-bench -- the interleaved layout on the GPU (issue 9): the _desc routines
// with every operand interleaved (batch_stride 1, one thread per item, coalesced) against
// the device-to-device copy bandwidth, and Kobalt's standard-layout _strided call on the
// same batch for comparison.
//
// Per routine (gemm NN beta 0, getrf pivoted, getrs NoTrans nrhs 1, the fused call k = n,
// nrhs 1, beta 0) and n, in double (--prec s for float): CUDA events, 3 warm-ups, median
// of --reps; inputs are regenerated on the device (untimed) before every timed call of an
// in-place routine. "% copy" is (bytes read once + bytes written once) / time over the
// bandwidth of cudaMemcpy device-to-device (read + write counted).
//
//   kobalt-cuda-desc-bench [--sizes 2,4,8] [--mib 256] [--reps 10] [--prec d|s] [--ldp-pad 0]
//                          [--ldp-align 1] [--standard 1] [--routines gemm,getrf,getrs,fused,pack]
//   --mib: MiB of one n x n operand (the batch follows from it)
//   --ldp-pad: elements between the end of one element plane's batch cells and the start of
//     the next (ldp = batch + pad); the bytes counted stay those of the elements
//   --ldp-align: round ldp up to a multiple of this many elements (32: every element plane
//     starts on a 256-byte boundary, so each warp's access is whole cache lines)
//   --standard 0: skip the standard-layout calls (their columns then read 0)
//   --routines: only these routines (comma-separated; default all), to save device time
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "common/kt_api.hpp"
#include "kobalt/kobalt.h"

namespace {

#define CUDA_OK(x)                                                                                 \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)
void must(kobalt_status s, const char *what) {
    if (s != KOBALT_SUCCESS) {
        std::fprintf(stderr, "%s: %s (%s)\n", what, kobalt_status_name(s), kobalt_last_error());
        std::exit(1);
    }
}

__device__ double hash01(long long x) {
    unsigned long long z = (unsigned long long)x * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return double((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0) - 0.5;
}

// Element (i, j) of item b, interleaved (il) or column-major: random, plus a dominant entry
// in row (j + b) % n when lu (pivoting must swap, differently per item).
template <class T>
__global__ void fill(T *p, int n, int cols, long long batch, long long ldp, bool il, bool lu, int seed) {
    const long long total = batch * n * cols;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total; t += (long long)gridDim.x * blockDim.x) {
        long long b, e;
        if (il) e = t / batch, b = t % batch;
        else b = t / (n * cols), e = t % (n * cols);
        const int i = int(e % n), j = int(e / n);
        double v = hash01(t * 7 + seed);
        if (lu && i == int((j + b) % n)) v += 2.0 * n;
        p[il ? e * ldp + b : b * n * cols + e] = T(v);
    }
}

template <class T> struct Buf {
    T *d = nullptr;
    size_t n = 0;
    explicit Buf(size_t count) : n(count) { CUDA_OK(cudaMalloc(&d, sizeof(T) * std::max<size_t>(count, 1))); }
    ~Buf() { cudaFree(d); }
};

template <class F> float time_ms(F &&call, const std::function<void()> &prepare, int reps) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> t;
    for (int r = 0; r < reps + 3; ++r) {
        prepare();
        CUDA_OK(cudaDeviceSynchronize());
        cudaEventRecord(a);
        call();
        cudaEventRecord(b);
        CUDA_OK(cudaEventSynchronize(b));
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        if (r >= 3) t.push_back(ms);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

double copy_bandwidth() {
    const size_t bytes = size_t(1) << 30;
    Buf<char> x(bytes), y(bytes);
    CUDA_OK(cudaMemset(x.d, 1, bytes));
    const float ms = time_ms([&] { CUDA_OK(cudaMemcpy(y.d, x.d, bytes, cudaMemcpyDeviceToDevice)); }, [] {}, 10);
    return 2.0 * double(bytes) / (ms * 1e-3);
}

template <class T>
void bench(int n, double mib, int reps, double bw, long long pad, long long align, bool standard,
           const std::string &only) {
    const auto want = [&](const char *r) { return only.empty() || ("," + only + ",").find(std::string(",") + r + ",") != std::string::npos; };
    const long long batch = std::max<long long>(64, (long long)(mib * 1048576.0 / (double(sizeof(T)) * n * n)));
    const long long ldp = (batch + pad + align - 1) / align * align;
    const size_t nn = size_t(ldp) * n * n, nv = size_t(ldp) * n; // interleaved footprints (>= standard)
    Buf<T> A(nn), B(nn), C(nn), X(nv);
    Buf<int> P{nv}, I{size_t(batch)};
    const auto skip = [] { return 0.0f; };
    const kobalt_matrix_desc dm = kobalt_desc_interleaved(n, n, ldp), dv = kobalt_desc_interleaved(n, 1, ldp);
    const int blocks = 132 * 16, threads = 256;
    auto fillA = [&](bool il, bool lu) { fill<T><<<blocks, threads>>>(A.d, n, n, batch, ldp, il, lu, 1); };
    auto fillB = [&](bool il) { fill<T><<<blocks, threads>>>(B.d, n, n, batch, ldp, il, false, 2); };
    auto fillC = [&](bool il, bool lu) { fill<T><<<blocks, threads>>>(C.d, n, n, batch, ldp, il, lu, 3); };
    auto fillX = [&](bool il) { fill<T><<<blocks, threads>>>(X.d, n, 1, batch, ldp, il, false, 4); };
    const double ts = double(sizeof(T)), is = double(sizeof(int));
    struct Row {
        const char *routine;
        double bytes;
        float il, std_;
    };
    std::vector<Row> rows;
    // gemm: C = A B
    if (want("gemm")) {
        fillA(true, false), fillB(true);
        const float il = time_ms([&] {
            must(Api<T>::gemm_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, T(1), A.d, &dm, B.d, &dm, T(0), C.d, &dm, batch),
                 "gemm_desc");
        }, [] {}, reps);
        fillA(false, false), fillB(false);
        const float st = !standard ? skip() : time_ms([&] {
            must(Api<T>::gemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, T(1), A.d, n, n * n,
                                      B.d, n, n * n, T(0), C.d, n, n * n, batch),
                 "gemm_strided");
        }, [] {}, reps);
        rows.push_back({"gemm", 3.0 * n * n * ts, il, st});
    }
    // getrf: A = P L U in place
    if (want("getrf")) {
        const float il = time_ms([&] {
            must(Api<T>::getrf_desc(A.d, &dm, P.d, &dv, I.d, batch), "getrf_desc");
        }, [&] { fillA(true, true); }, reps);
        const float st = !standard ? skip() : time_ms([&] {
            must(Api<T>::getrf_strided(KOBALT_COL_MAJOR, n, n, A.d, n, n * n, P.d, n, I.d, batch), "getrf_strided");
        }, [&] { fillA(false, true); }, reps);
        rows.push_back({"getrf", 2.0 * n * n * ts + (n + 1) * is, il, st});
    }
    // getrs: x = A^{-1} x from the factors
    if (want("getrs")) {
        fillA(true, true);
        must(Api<T>::getrf_desc(A.d, &dm, P.d, &dv, I.d, batch), "getrf_desc");
        const float il = time_ms([&] {
            must(Api<T>::getrs_desc(KOBALT_NO_TRANS, A.d, &dm, P.d, &dv, X.d, &dv, batch), "getrs_desc");
        }, [&] { fillX(true); }, reps);
        if (standard) fillA(false, true);
        if (standard) must(Api<T>::getrf_strided(KOBALT_COL_MAJOR, n, n, A.d, n, n * n, P.d, n, I.d, batch), "getrf_strided");
        const float st = !standard ? skip() : time_ms([&] {
            must(Api<T>::getrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, 1, A.d, n, n * n, P.d, n, X.d, n, n, batch),
                 "getrs_strided");
        }, [&] { fillX(false); }, reps);
        rows.push_back({"getrs", double(n * n + 2 * n) * ts + n * is, il, st});
    }
    // fused: C = A B (beta 0), C = P L U, x = C^{-1} x
    if (want("fused")) {
        auto prep = [&](bool il) { fillA(il, true), fillX(il); };
        const float il = time_ms([&] {
            must(Api<T>::gemm_lu_trsv_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, T(1), A.d, &dm, B.d, &dm, T(0), C.d, &dm,
                                           P.d, &dv, X.d, &dv, I.d, batch),
                 "fused_desc");
        }, [&] { prep(true); fill<T><<<blocks, threads>>>(B.d, n, n, batch, ldp, true, false, 5); }, reps);
        const float st = !standard ? skip() : time_ms([&] {
            must(Api<T>::gemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, T(1), A.d, n,
                                              n * n, B.d, n, n * n, T(0), C.d, n, n * n, P.d, n, X.d, n, n, I.d, batch),
                 "fused_strided");
        }, [&] { prep(false); }, reps);
        rows.push_back({"fused", 3.0 * n * n * ts + 2.0 * n * ts + (n + 1) * is, il, st});
    }
    // pack: standard -> interleaved (a copy: the floor is the copy itself)
    if (want("pack")) {
        fillA(false, false);
        const float il = time_ms([&] {
            must(Api<T>::pack_interleaved(KOBALT_COL_MAJOR, n, n, A.d, n, n * n, C.d, ldp, batch), "pack");
        }, [] {}, reps);
        rows.push_back({"pack", 2.0 * n * n * ts, il, 0});
    }
    for (const Row &r : rows) {
        const double gbs = r.bytes * double(batch) / (r.il * 1e-3);
        std::printf("%s%-6s n=%d batch=%-9lld interleaved %8.3f ms  %6.0f GB/s  %5.1f%% copy | standard %8.3f ms  %5.1f%% copy | "
                    "standard/interleaved %5.2fx\n",
                    Api<T>::prefix, r.routine, n, batch, r.il, gbs / 1e9, 100 * gbs / bw, r.std_,
                    r.std_ > 0 ? 100 * r.bytes * double(batch) / (r.std_ * 1e-3) / bw : 0.0, r.std_ > 0 ? r.std_ / r.il : 0.0);
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char **argv) {
    std::string sizes = "2,4,8", prec = "d", only;
    double mib = 256;
    int reps = 10;
    long long pad = 0, align = 1;
    bool standard = true;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--sizes") sizes = v;
        else if (a == "--mib") mib = std::atof(v.c_str());
        else if (a == "--reps") reps = std::atoi(v.c_str());
        else if (a == "--prec") prec = v;
        else if (a == "--ldp-pad") pad = std::atoll(v.c_str());
        else if (a == "--ldp-align") align = std::max(1LL, std::atoll(v.c_str()));
        else if (a == "--standard") standard = std::atoi(v.c_str()) != 0;
        else if (a == "--routines") only = v;
    }
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        std::printf("no CUDA device\n");
        return 77;
    }
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    const double bw = copy_bandwidth();
    std::printf("kobalt-cuda-desc-bench: %s, device-to-device copy %.0f GB/s (read + write), %.0f MiB per n x n operand, "
                "median of %d, ldp = batch + %lld rounded up to a multiple of %lld\n",
                prop.name, bw / 1e9, mib, reps, pad, align);
    std::stringstream ss(sizes);
    std::string s;
    while (std::getline(ss, s, ','))
        prec == "s" ? bench<float>(std::atoi(s.c_str()), mib, reps, bw, pad, align, standard, only)
                    : bench<double>(std::atoi(s.c_str()), mib, reps, bw, pad, align, standard, only);
    return 0;
}
