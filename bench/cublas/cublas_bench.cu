// cublas-bench -- a plain cuBLAS program timing the batched routines the drop-in
// serves (docs/cublas.md). It knows nothing of Kobalt: run it as it is, then under
// LD_PRELOAD=libkobalt-cublas.so, and compare (bench/cublas/compare.py does both and
// prints the speedup table of docs/performance.md).
//
//   cublas-bench [--routines gemm,gemmb,gemv,trsm,getrf,getrs,getri,matinv]
//                [--prec d,s] [--sizes 2,4,8,16,32] [--mb 128] [--reps 15]
//
// Column-major items, packed (ld = n); pointer-array routines get arrays of the packed
// items. Each line: routine precision n batch and the median, min and max of --reps
// timed calls (CUDA events around the one call; inputs the call overwrites are restored
// before each repetition, outside the timing), after 3 untimed calls. The batch holds
// --mb MiB in the largest operand (n x n items; gemv's vectors are smaller).
//   gemm   cublas<t>gemmStridedBatched   C = A B            (N, N), alpha 1, beta 0
//   gemmb  cublas<t>gemmBatched          the same, pointer arrays
//   gemv   cublas<t>gemvStridedBatched   y = A x            (N)
//   trsm   cublas<t>trsmBatched          B = L^{-1} B        left, lower, N, non-unit; B n x n
//   getrf  cublas<t>getrfBatched         pivoted LU
//   getrs  cublas<t>getrsBatched         one right-hand side, N
//   getri  cublas<t>getriBatched         inverse from getrf's factors
//   matinv cublas<t>matinvBatched        inverse (n <= 32)
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#define CUDA_OK(x)                                                                                 \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

namespace {

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string t;
    while (std::getline(ss, t, ','))
        if (!t.empty()) out.push_back(t);
    return out;
}

// Deterministic values in [-1, 1), plus `diag` on the diagonal of n x n items.
template <class T> __global__ void fill(T *p, long long count, int n, double diag, unsigned seed) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x) {
        unsigned long long x = (unsigned long long)i * 0x9E3779B97F4A7C15ull + seed;
        x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 27;
        double v = double(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
        const long long e = i % ((long long)n * n);
        if (n > 0 && e % n == e / n) v += diag;
        p[i] = T(v);
    }
}
template <class T> __global__ void pointers(T **out, T *base, long long stride, long long batch) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < batch; i += (long long)gridDim.x * blockDim.x)
        out[i] = base + i * stride;
}

template <class T> struct Buf {
    T *p = nullptr;
    size_t n = 0;
    explicit Buf(size_t count) : n(count) { CUDA_OK(cudaMalloc(&p, sizeof(T) * std::max<size_t>(count, 1))); }
    ~Buf() { cudaFree(p); }
    Buf(const Buf &) = delete;
};
template <class T> void init(Buf<T> &b, int n, double diag, unsigned seed) {
    fill<T><<<1024, 256>>>(b.p, (long long)b.n, n, diag, seed);
    CUDA_OK(cudaGetLastError());
}
template <class T> T **ptrs(Buf<T *> &arr, Buf<T> &b, long long stride, long long batch) {
    pointers<T><<<1024, 256>>>(arr.p, b.p, stride, batch);
    CUDA_OK(cudaGetLastError());
    return arr.p;
}

// cuBLAS's routines of precision T. Not tests/common/kt_api.hpp's Api<T> (Kobalt's
// routines): this program must not know Kobalt (see the top of the file).
template <class T> struct Cublas;
template <> struct Cublas<double> {
    static constexpr auto gemmS = cublasDgemmStridedBatched;
    static constexpr auto gemmB = cublasDgemmBatched;
    static constexpr auto gemvS = cublasDgemvStridedBatched;
    static constexpr auto trsm = cublasDtrsmBatched;
    static constexpr auto getrf = cublasDgetrfBatched;
    static constexpr auto getrs = cublasDgetrsBatched;
    static constexpr auto getri = cublasDgetriBatched;
    static constexpr auto matinv = cublasDmatinvBatched;
};
template <> struct Cublas<float> {
    static constexpr auto gemmS = cublasSgemmStridedBatched;
    static constexpr auto gemmB = cublasSgemmBatched;
    static constexpr auto gemvS = cublasSgemvStridedBatched;
    static constexpr auto trsm = cublasStrsmBatched;
    static constexpr auto getrf = cublasSgetrfBatched;
    static constexpr auto getrs = cublasSgetrsBatched;
    static constexpr auto getri = cublasSgetriBatched;
    static constexpr auto matinv = cublasSmatinvBatched;
};

// Median, min, max of `reps` timed runs of call(); restore() before each, untimed.
template <class Call, class Restore> void time_it(const char *routine, char p, int n, long long batch, int reps,
                                                  Call call, Restore restore) {
    cudaEvent_t a, b;
    CUDA_OK(cudaEventCreate(&a));
    CUDA_OK(cudaEventCreate(&b));
    std::vector<float> ms;
    for (int r = -3; r < reps; ++r) {
        restore();
        CUDA_OK(cudaEventRecord(a));
        const cublasStatus_t s = call();
        CUDA_OK(cudaEventRecord(b));
        CUDA_OK(cudaEventSynchronize(b));
        if (s != CUBLAS_STATUS_SUCCESS) {
            std::printf("%-7s %c %4d %9lld  status %d\n", routine, p, n, batch, int(s));
            return;
        }
        float t = 0;
        CUDA_OK(cudaEventElapsedTime(&t, a, b));
        if (r >= 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-7s %c %4d %9lld %10.4f %10.4f %10.4f\n", routine, p, n, batch, ms[ms.size() / 2], ms.front(),
                ms.back());
    std::fflush(stdout);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
}

template <class T> void run(cublasHandle_t h, const std::string &routine, int n, size_t mb, int reps) {
    const char p = sizeof(T) == 8 ? 'd' : 's';
    const long long nn = (long long)n * n;
    const long long batch = std::max<long long>(1, (long long)(mb << 20) / (long long)(sizeof(T) * nn));
    const T one = T(1), zero = T(0);
    const size_t items = size_t(batch * nn);
    auto none = [] {};
    if (routine == "gemm" || routine == "gemmb") {
        Buf<T> A(items), B(items), C(items);
        init(A, n, 0, 1), init(B, n, 0, 2), init(C, n, 0, 3);
        if (routine == "gemm") {
            time_it(routine.c_str(), p, n, batch, reps, [&] {
                return Cublas<T>::gemmS(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.p, n, nn, B.p, n, nn, &zero, C.p, n, nn, int(batch));
            }, none);
        } else {
            Buf<T *> pa{size_t(batch)}, pb{size_t(batch)}, pc{size_t(batch)};
            ptrs(pa, A, nn, batch), ptrs(pb, B, nn, batch), ptrs(pc, C, nn, batch);
            time_it(routine.c_str(), p, n, batch, reps, [&] {
                return Cublas<T>::gemmB(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, (const T *const *)pa.p, n,
                                     (const T *const *)pb.p, n, &zero, pc.p, n, int(batch));
            }, none);
        }
    } else if (routine == "gemv") {
        Buf<T> A(items), x(size_t(batch) * n), y(size_t(batch) * n);
        init(A, n, 0, 1), init(x, 0, 0, 2), init(y, 0, 0, 3);
        time_it(routine.c_str(), p, n, batch, reps, [&] {
            return Cublas<T>::gemvS(h, CUBLAS_OP_N, n, n, &one, A.p, n, nn, x.p, 1, n, &zero, y.p, 1, n, int(batch));
        }, none);
    } else if (routine == "trsm") {
        Buf<T> A(items), B(items), B0(items);
        init(A, n, 2.0 * n, 1), init(B0, n, 0, 2);
        Buf<T *> pa{size_t(batch)}, pb{size_t(batch)};
        ptrs(pa, A, nn, batch), ptrs(pb, B, nn, batch);
        time_it(routine.c_str(), p, n, batch, reps, [&] {
            return Cublas<T>::trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &one,
                                (const T *const *)pa.p, n, pb.p, n, int(batch));
        }, [&] { CUDA_OK(cudaMemcpyAsync(B.p, B0.p, sizeof(T) * items, cudaMemcpyDeviceToDevice)); });
    } else if (routine == "getrf" || routine == "getrs" || routine == "getri" || routine == "matinv") {
        Buf<T> A(items), A0(items), C(items), b(size_t(batch) * n), b0(size_t(batch) * n);
        Buf<int> piv{size_t(batch) * n}, info{size_t(batch)};
        init(A0, n, 0, 1), init(b0, 0, 0, 2);
        CUDA_OK(cudaMemcpy(A.p, A0.p, sizeof(T) * items, cudaMemcpyDeviceToDevice));
        Buf<T *> pa{size_t(batch)}, pc{size_t(batch)}, pb{size_t(batch)};
        ptrs(pa, A, nn, batch), ptrs(pc, C, nn, batch), ptrs(pb, b, n, batch);
        auto restoreA = [&] { CUDA_OK(cudaMemcpyAsync(A.p, A0.p, sizeof(T) * items, cudaMemcpyDeviceToDevice)); };
        if (routine == "getrf") {
            time_it(routine.c_str(), p, n, batch, reps, [&] { return Cublas<T>::getrf(h, n, pa.p, n, piv.p, info.p, int(batch)); },
                    restoreA);
            return;
        }
        if (routine == "matinv") {
            if (n > 32) return;
            time_it(routine.c_str(), p, n, batch, reps, [&] {
                return Cublas<T>::matinv(h, n, (const T *const *)pa.p, n, pc.p, n, info.p, int(batch));
            }, none);
            return;
        }
        // factors for getrs / getri (untimed)
        if (Cublas<T>::getrf(h, n, pa.p, n, piv.p, info.p, int(batch)) != CUBLAS_STATUS_SUCCESS) {
            std::printf("%-7s %c %4d  getrf failed\n", routine.c_str(), p, n);
            return;
        }
        if (routine == "getrs") {
            int hinfo = 0;
            time_it(routine.c_str(), p, n, batch, reps, [&] {
                return Cublas<T>::getrs(h, CUBLAS_OP_N, n, 1, (const T *const *)pa.p, n, piv.p, pb.p, n, &hinfo, int(batch));
            }, [&] { CUDA_OK(cudaMemcpyAsync(b.p, b0.p, sizeof(T) * size_t(batch) * n, cudaMemcpyDeviceToDevice)); });
        } else {
            time_it(routine.c_str(), p, n, batch, reps, [&] {
                return Cublas<T>::getri(h, n, (const T *const *)pa.p, n, piv.p, pc.p, n, info.p, int(batch));
            }, none);
        }
    } else {
        std::fprintf(stderr, "unknown routine %s\n", routine.c_str());
        std::exit(2);
    }
}

} // namespace

int main(int argc, char **argv) {
    std::vector<std::string> routines = {"gemm", "gemmb", "gemv", "trsm", "getrf", "getrs", "getri", "matinv"};
    std::vector<std::string> precs = {"d", "s"};
    std::vector<int> sizes = {2, 4, 8, 16, 32};
    size_t mb = 128;
    int reps = 15;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--routines") routines = split(v);
        else if (k == "--prec") precs = split(v);
        else if (k == "--sizes") {
            sizes.clear();
            for (auto &s : split(v)) sizes.push_back(std::atoi(s.c_str()));
        } else if (k == "--mb") mb = size_t(std::atol(v.c_str()));
        else if (k == "--reps") reps = std::atoi(v.c_str());
        else {
            std::fprintf(stderr, "usage: %s [--routines list] [--prec d,s] [--sizes list] [--mb MiB] [--reps R]\n", argv[0]);
            return 2;
        }
    }
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "cublasCreate failed\n");
        return 1;
    }
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    std::printf("# %s, %zu MiB per operand, median/min/max of %d (ms)\n", prop.name, mb, reps);
    std::printf("# routine p    n     batch     median        min        max\n");
    for (const auto &r : routines)
        for (const auto &p : precs)
            for (int n : sizes) {
                if (p == "d") run<double>(h, r, n, mb, reps);
                else run<float>(h, r, n, mb, reps);
            }
    cublasDestroy(h);
    return 0;
}
