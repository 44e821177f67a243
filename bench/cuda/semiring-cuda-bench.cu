// semiring-cuda-bench: gemm_semiring on the GPU against Kobalt's own plus-times gemm (the
// issue's yardstick), cuBLAS gemmStridedBatched, and a plain CUDA kernel (one thread per
// element of C, the triple loop's inner product) for min-plus. Column-major packed items,
// 256 MiB per operand by default, CUDA events, 3 warm-ups, median of 15; % of the measured
// device-to-device copy bandwidth, counting A and B read once and C written once (plain
// product: C is not read).
// Usage: semiring-cuda-bench [bytes_per_operand [n,n,... [d|s|ds]]] (default n: 4,8,16,24,32;
// precisions: both)
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kobalt/kobalt.h"

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e = (x);                                                                   \
        if (e != cudaSuccess) {                                                                \
            std::printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__);                \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

static double time_ms(const std::function<void()> &f) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int i = 0; i < 3; ++i) f();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < 15; ++i) {
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <class T> static T *rand_buf(size_t n, double lo) {
    std::vector<T> h(n);
    std::mt19937_64 r(n + size_t(lo * 10));
    std::uniform_real_distribution<double> u(lo, 1);
    for (auto &v : h) v = T(u(r));
    T *d;
    CK(cudaMalloc(&d, n * sizeof(T)));
    CK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

// The plain kernel: thread e computes element e of C, min over p of A(i,p) + B(p,j).
template <class T> __global__ void naive_min_plus(int n, const T *A, const T *B, T *C, long long items) {
    const long long nn = (long long)n * n, total = nn * items;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long it = e / nn, r = e - it * nn;
        const int i = int(r % n), j = int(r / n);
        const T *a = A + it * nn, *b = B + it * nn;
        T acc = T(INFINITY);
        for (int p = 0; p < n; ++p) acc = fmin(acc, a[i + p * n] + b[p + j * n]);
        C[it * nn + i + j * n] = acc;
    }
}

struct Ring {
    const char *name;
    kobalt_semiring s;
    double alpha, beta; // plain product
};
static const Ring RINGS[] = {{"min_plus", KOBALT_MIN_PLUS, 0, INFINITY},  {"max_plus", KOBALT_MAX_PLUS, 0, -INFINITY},
                             {"min_times", KOBALT_MIN_TIMES, 1, INFINITY}, {"max_times", KOBALT_MAX_TIMES, 1, -INFINITY},
                             {"min_max", KOBALT_MIN_MAX, -INFINITY, INFINITY}, {"max_min", KOBALT_MAX_MIN, INFINITY, -INFINITY},
                             {"or_and", KOBALT_OR_AND, 1, 0}};

static kobalt_status gemm(const double *A, const double *B, double *C, int n, long long nn, long long items) {
    return kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1.0, A, n, nn, B, n, nn,
                                0.0, C, n, nn, items);
}
static kobalt_status gemm(const float *A, const float *B, float *C, int n, long long nn, long long items) {
    return kobalt_sgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1.f, A, n, nn, B, n, nn,
                                0.f, C, n, nn, items);
}
static kobalt_status ring(const Ring &r, const double *A, const double *B, double *C, int n, long long nn,
                          long long items) {
    return kobalt_dgemm_semiring_strided(r.s, KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, r.alpha, A,
                                         n, nn, B, n, nn, r.beta, C, n, nn, items);
}
static kobalt_status ring(const Ring &r, const float *A, const float *B, float *C, int n, long long nn,
                          long long items) {
    return kobalt_sgemm_semiring_strided(r.s, KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n,
                                         float(r.alpha), A, n, nn, B, n, nn, float(r.beta), C, n, nn, items);
}
static cublasStatus_t cublas(cublasHandle_t h, const double *A, const double *B, double *C, int n, long long nn,
                             long long items) {
    const double one = 1, zero = 0;
    return cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, nn, B, n, nn, &zero, C, n, nn,
                                     int(items));
}
static cublasStatus_t cublas(cublasHandle_t h, const float *A, const float *B, float *C, int n, long long nn,
                             long long items) {
    const float one = 1, zero = 0;
    return cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, nn, B, n, nn, &zero, C, n, nn,
                                     int(items));
}

template <class T> static void bench(const char *prec, double bytes_op, double bw, cublasHandle_t h, bool nonneg,
                                     const std::vector<int> &sizes) {
    for (int n : sizes) {
        const long long nn = (long long)n * n;
        const long long items = std::max<long long>(1, (long long)(bytes_op / sizeof(T) / nn));
        T *A = rand_buf<T>(items * nn, nonneg ? 0.0 : -1.0), *B = rand_buf<T>(items * nn, nonneg ? 0.0 : -1.0), *C;
        CK(cudaMalloc(&C, items * nn * sizeof(T)));
        const double bytes = 3.0 * nn * sizeof(T) * items;
        auto pct = [&](double ms) { return 100 * bytes / (ms * 1e-3) / bw; };
        const double g = time_ms([&] { gemm(A, B, C, n, nn, items); });
        const double c = time_ms([&] { cublas(h, A, B, C, n, nn, items); });
        std::printf("%s n=%-3d items=%-9lld inputs %s | kobalt gemm %8.3f ms %4.0f%% | cublas gemm %8.3f ms %4.0f%%\n",
                    prec, n, items, nonneg ? "[0,1) " : "[-1,1)", g, pct(g), c, pct(c));
        for (const Ring &r : RINGS) {
            if (sizeof(T) == 4 && r.s != KOBALT_MIN_PLUS && r.s != KOBALT_MIN_MAX && r.s != KOBALT_OR_AND) continue;
            const kobalt_status st = ring(r, A, B, C, n, nn, items);
            if (st != KOBALT_SUCCESS) {
                std::printf("  %s failed: %s\n", r.name, kobalt_last_error());
                continue;
            }
            const double k = time_ms([&] { ring(r, A, B, C, n, nn, items); });
            std::printf("    %-9s %8.3f ms %4.0f%%  %5.2fx kobalt gemm  %5.2fx cublas", r.name, k, pct(k), k / g, k / c);
            if (r.s == KOBALT_MIN_PLUS) {
                const long long total = nn * items;
                const int blocks = int(std::min<long long>((total + 255) / 256, 132LL * 64));
                const double p = time_ms([&] { naive_min_plus<T><<<blocks, 256>>>(n, A, B, C, items); });
                std::printf(" | plain kernel %8.3f ms (kobalt %5.1fx faster)", p, p / k);
            }
            std::printf("\n");
        }
        CK(cudaGetLastError());
        cudaFree(A);
        cudaFree(B);
        cudaFree(C);
    }
}

int main(int argc, char **argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const double bytes_op = argc > 1 ? std::atof(argv[1]) : 256.0 * (1 << 20);
    cublasHandle_t h;
    cublasCreate(&h);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    const size_t cn = size_t(bytes_op / 8) * 4;
    double *c1, *c2;
    CK(cudaMalloc(&c1, cn * 8));
    CK(cudaMalloc(&c2, cn * 8));
    const double copy_ms = time_ms([&] { cudaMemcpyAsync(c2, c1, cn * 8, cudaMemcpyDeviceToDevice); });
    const double bw = 2.0 * cn * 8 / (copy_ms * 1e-3);
    cudaFree(c1);
    cudaFree(c2);
    std::printf("device: %s; device-to-device copy: %.2f TB/s (read+write)\n", prop.name, bw / 1e12);
    std::vector<int> sizes = {4, 8, 16, 24, 32}, nonneg;
    if (argc > 2) {
        sizes.clear();
        for (const char *p = argv[2]; *p;) {
            char *end;
            sizes.push_back(int(std::strtol(p, &end, 10)));
            p = *end ? end + 1 : end;
        }
    }
    for (int n : sizes)
        if (n == 8 || n == 32) nonneg.push_back(n);
    const std::string prec = argc > 3 ? argv[3] : "ds";
    if (prec.find('d') != std::string::npos) {
        bench<double>("d", bytes_op, bw, h, false, sizes);
        bench<double>("d", bytes_op, bw, h, true, nonneg);
    }
    if (prec.find('s') != std::string::npos) bench<float>("s", bytes_op, bw, h, false, sizes);
    return 0;
}
