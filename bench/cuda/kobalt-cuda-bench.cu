// kobalt-cuda-bench: Kobalt's CUDA backend against cuBLAS on identical device data
// (double; sgetrf in float), CUDA events, 3 warm-ups, median of 15. Prints % of the device-to-device copy
// bandwidth, counting each input read once and each output written once.
// Usage: kobalt-cuda-bench [bytes_per_operand (default 256 MiB)] [sizes, e.g. 4,8,16,32]
//        [routines, e.g. getrf,getrs (default gemm,getrf,getrs,fused; sgetrf, sgetrs, sfused: getrf, getrs, fused in float;
//         getrfnp: getrf without pivoting in both libraries, a diagnostic: items refactored in place as getrf's are)]
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kobalt/kobalt.h"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); std::exit(1); } } while (0)

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

static double *rand_buf(size_t n) {
    std::vector<double> h(n);
    std::mt19937_64 r(n);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto &v : h) v = u(r);
    double *d;
    CK(cudaMalloc(&d, n * 8));
    CK(cudaMemcpy(d, h.data(), n * 8, cudaMemcpyHostToDevice));
    return d;
}
__global__ void make_ptrs(double **p, double *base, long long stride, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        p[i] = base + i * stride;
}
// float items for sgetrf: random values in [-1, 1) by a hash of the index
__global__ void fill_float(float *p, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        unsigned long long z = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
        p[i] = float((z >> 40) * (1.0 / (1ull << 24))) * 2.f - 1.f;
    }
}
__global__ void make_fptrs(float **p, float *base, long long stride, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        p[i] = base + i * stride;
}
static double **ptrs(double *base, long long stride, long long n) {
    double **p;
    CK(cudaMalloc(&p, n * sizeof(double *)));
    make_ptrs<<<1024, 256>>>(p, base, stride, n);
    CK(cudaDeviceSynchronize());
    return p;
}

int main(int argc, char **argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const double bytes_op = argc > 1 ? std::atof(argv[1]) : 256.0 * (1 << 20);
    cublasHandle_t h;
    cublasCreate(&h);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    // copy floor
    const size_t cn = size_t(bytes_op / 8) * 4;
    double *c1 = rand_buf(cn), *c2 = rand_buf(cn);
    const double copy_ms = time_ms([&] { cudaMemcpyAsync(c2, c1, cn * 8, cudaMemcpyDeviceToDevice); });
    const double bw = 2.0 * cn * 8 / (copy_ms * 1e-3);
    cudaFree(c1);
    cudaFree(c2);
    std::printf("device: %s; device-to-device copy: %.2f TB/s (read+write)\n", prop.name, bw / 1e12);
    std::printf("%-8s %4s %9s | %10s %6s | %10s %6s | %7s\n", "routine", "n", "items", "kobalt ms", "%bw", "cublas ms", "%bw",
                "speedup");
    auto row = [&](const char *name, int n, long long items, double bytes, double km, double cm) {
        std::printf("%-8s %4d %9lld | %10.3f %5.0f%% | %10.3f %5.0f%% | %6.1fx\n", name, n, items, km,
                    100 * bytes / (km * 1e-3) / bw, cm, 100 * bytes / (cm * 1e-3) / bw, cm / km);
    };
    // argv[2]: comma-separated sizes (default 4,8,16,32,128,256)
    std::vector<int> sizes = {4, 8, 16, 32, 128, 256};
    if (argc > 2) {
        sizes.clear();
        for (const char *s = argv[2]; *s;) {
            char *end;
            const long v = std::strtol(s, &end, 10);
            if (end == s || v <= 0) {
                std::fprintf(stderr, "kobalt-cuda-bench: bad size list '%s'\n", argv[2]);
                return 2;
            }
            sizes.push_back(int(v));
            s = *end == ',' ? end + 1 : end;
        }
    }
    // argv[3]: the routines to time (a getrf A/B need not wait for the others)
    const std::string wanted = argc > 3 ? std::string(",") + argv[3] + "," : ",gemm,getrf,getrs,fused,";
    auto want = [&](const char *r) { return wanted.find(std::string(",") + r + ",") != std::string::npos; };
    for (int n : sizes) {
        const long long nn = (long long)n * n;
        const long long items = std::max<long long>(1, (long long)(bytes_op / 8 / nn));
        double *A = rand_buf(items * nn), *B = rand_buf(items * nn), *C = rand_buf(items * nn);
        double *x = rand_buf(items * n);
        int *ipiv, *info;
        CK(cudaMalloc(&ipiv, items * n * 4));
        CK(cudaMalloc(&info, items * 4));
        double **pA = ptrs(A, nn, items), **pB = ptrs(B, nn, items), **pC = ptrs(C, nn, items), **px = ptrs(x, n, items);
        const double one = 1, zero = 0;
        int hinfo;
        // gemm: C = A B
        double gb = 3.0 * nn * 8 * items, km = 0, cm = 0;
        if (want("gemm")) {
        km = time_ms([&] {
            kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1.0, A, n, nn, B, n, nn, 0.0,
                                 C, n, nn, items);
        });
        cm = time_ms([&] {
            cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, nn, B, n, nn, &zero, C, n, nn,
                                      int(items));
        });
        row("gemm", n, items, gb, km, cm);
        }
        // getrf (pivoted): refresh A from B each time is not timed; factor C in place
        CK(cudaMemcpy(C, A, items * nn * 8, cudaMemcpyDeviceToDevice));
        if (want("getrf")) {
        gb = 2.0 * nn * 8 * items + items * (n + 1) * 4.0;
        km = time_ms([&] { kobalt_dgetrf_strided(KOBALT_COL_MAJOR, n, n, C, n, nn, ipiv, n, info, items); });
        CK(cudaMemcpy(C, A, items * nn * 8, cudaMemcpyDeviceToDevice));
        cm = time_ms([&] { cublasDgetrfBatched(h, n, pC, n, ipiv, info, int(items)); });
        row("getrf", n, items, gb, km, cm);
        }
        if (want("getrfnp")) { // diagnostic: getrf without pivoting (ipiv null) in both libraries
        CK(cudaMemcpy(C, A, items * nn * 8, cudaMemcpyDeviceToDevice));
        gb = 2.0 * nn * 8 * items + items * 4.0;
        km = time_ms([&] { kobalt_dgetrf_strided(KOBALT_COL_MAJOR, n, n, C, n, nn, nullptr, n, info, items); });
        CK(cudaMemcpy(C, A, items * nn * 8, cudaMemcpyDeviceToDevice));
        cm = time_ms([&] { cublasDgetrfBatched(h, n, pC, n, nullptr, info, int(items)); });
        row("getrfnp", n, items, gb, km, cm);
        CK(cudaMemcpy(C, A, items * nn * 8, cudaMemcpyDeviceToDevice)); // C factored with pivots again, for getrs
        if (want("getrf")) kobalt_dgetrf_strided(KOBALT_COL_MAJOR, n, n, C, n, nn, ipiv, n, info, items);
        }
        if (want("getrs")) {
        // getrs nrhs = 1 on C's factors (factored here when getrf was not timed)
        if (!want("getrf")) kobalt_dgetrf_strided(KOBALT_COL_MAJOR, n, n, C, n, nn, ipiv, n, info, items);
        gb = nn * 8.0 * items + items * n * 4.0 + 2.0 * items * n * 8;
        km = time_ms([&] { kobalt_dgetrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, 1, C, n, nn, ipiv, n, x, n, n, items); });
        cm = time_ms([&] {
            cublasDgetrsBatched(h, CUBLAS_OP_N, n, 1, (const double *const *)pC, n, ipiv, px, n, &hinfo, int(items));
        });
        row("getrs", n, items, gb, km, cm);
        }
        if (want("fused")) {
        // fused, nrhs = 1, beta = 0: X = A, Y = B, into C, solve x
        gb = 3.0 * nn * 8 * items + 2.0 * n * 8 * items + (n + 1) * 4.0 * items;
        km = time_ms([&] {
            kobalt_dgemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, 1.0, A, n, nn, B, n,
                                         nn, 0.0, C, n, nn, ipiv, n, x, n, n, info, items);
        });
        cm = time_ms([&] {
            cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, nn, B, n, nn, &zero, C, n, nn,
                                      int(items));
            cublasDgetrfBatched(h, n, pC, n, ipiv, info, int(items));
            cublasDgetrsBatched(h, CUBLAS_OP_N, n, 1, (const double *const *)pC, n, ipiv, px, n, &hinfo, int(items));
        });
        row("fused", n, items, gb, km, cm);
        }
        if (want("sgetrf")) {
        // float getrf (pivoted), column-major, as many items as fit bytes_per_operand in float
        const long long fi = std::max<long long>(1, (long long)(bytes_op / 4 / nn));
        float *F, *G, **pG;
        int *fpiv, *finfo;
        CK(cudaMalloc(&F, fi * nn * 4));
        CK(cudaMalloc(&G, fi * nn * 4));
        CK(cudaMalloc(&pG, fi * sizeof(float *)));
        CK(cudaMalloc(&fpiv, fi * n * 4));
        CK(cudaMalloc(&finfo, fi * 4));
        fill_float<<<1024, 256>>>(F, fi * nn);
        make_fptrs<<<1024, 256>>>(pG, G, nn, fi);
        CK(cudaMemcpy(G, F, fi * nn * 4, cudaMemcpyDeviceToDevice));
        const double fb = 2.0 * nn * 4 * fi + fi * (n + 1) * 4.0;
        const double fk = time_ms([&] { kobalt_sgetrf_strided(KOBALT_COL_MAJOR, n, n, G, n, nn, fpiv, n, finfo, fi); });
        CK(cudaMemcpy(G, F, fi * nn * 4, cudaMemcpyDeviceToDevice));
        const double fc = time_ms([&] { cublasSgetrfBatched(h, n, pG, n, fpiv, finfo, int(fi)); });
        row("sgetrf", n, fi, fb, fk, fc);
        cudaFree(F); cudaFree(G); cudaFree(pG); cudaFree(fpiv); cudaFree(finfo);
        }
        if (want("sgetrs")) {
        // float getrs nrhs = 1, column-major, NoTrans, on factors of as many items as fit
        // bytes_per_operand in float (factored by Kobalt's sgetrf, untimed)
        const long long fi = std::max<long long>(1, (long long)(bytes_op / 4 / nn));
        float *F, *fx, **pF, **pfx;
        int *fpiv, *finfo;
        CK(cudaMalloc(&F, fi * nn * 4));
        CK(cudaMalloc(&fx, fi * n * 4));
        CK(cudaMalloc(&pF, fi * sizeof(float *)));
        CK(cudaMalloc(&pfx, fi * sizeof(float *)));
        CK(cudaMalloc(&fpiv, fi * n * 4));
        CK(cudaMalloc(&finfo, fi * 4));
        fill_float<<<1024, 256>>>(F, fi * nn);
        fill_float<<<1024, 256>>>(fx, fi * n);
        make_fptrs<<<1024, 256>>>(pF, F, nn, fi);
        make_fptrs<<<1024, 256>>>(pfx, fx, n, fi);
        kobalt_sgetrf_strided(KOBALT_COL_MAJOR, n, n, F, n, nn, fpiv, n, finfo, fi);
        const double fb = nn * 4.0 * fi + fi * n * 4.0 + 2.0 * fi * n * 4;
        const double fk = time_ms([&] { kobalt_sgetrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, 1, F, n, nn, fpiv, n, fx, n, n, fi); });
        const double fc = time_ms([&] {
            cublasSgetrsBatched(h, CUBLAS_OP_N, n, 1, (const float *const *)pF, n, fpiv, pfx, n, &hinfo, int(fi));
        });
        row("sgetrs", n, fi, fb, fk, fc);
        cudaFree(F); cudaFree(fx); cudaFree(pF); cudaFree(pfx); cudaFree(fpiv); cudaFree(finfo);
        }
        if (want("sfused")) {
        // float fused call, nrhs = 1, beta = 0, column-major, as many items as fit bytes_per_operand
        // in float, against cublasSgemmStridedBatched -> cublasSgetrfBatched -> cublasSgetrsBatched
        const long long fi = std::max<long long>(1, (long long)(bytes_op / 4 / nn));
        float *FX, *FY, *FA, *fx, **pFA, **pfx;
        int *fpiv, *finfo;
        CK(cudaMalloc(&FX, fi * nn * 4));
        CK(cudaMalloc(&FY, fi * nn * 4));
        CK(cudaMalloc(&FA, fi * nn * 4));
        CK(cudaMalloc(&fx, fi * n * 4));
        CK(cudaMalloc(&pFA, fi * sizeof(float *)));
        CK(cudaMalloc(&pfx, fi * sizeof(float *)));
        CK(cudaMalloc(&fpiv, fi * n * 4));
        CK(cudaMalloc(&finfo, fi * 4));
        fill_float<<<1024, 256>>>(FX, fi * nn);
        fill_float<<<1024, 256>>>(FY, fi * nn);
        fill_float<<<1024, 256>>>(fx, fi * n);
        make_fptrs<<<1024, 256>>>(pFA, FA, nn, fi);
        make_fptrs<<<1024, 256>>>(pfx, fx, n, fi);
        const float fone = 1, fzero = 0;
        const double fb = 3.0 * nn * 4 * fi + 2.0 * n * 4 * fi + (n + 1) * 4.0 * fi;
        const double fk = time_ms([&] {
            kobalt_sgemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, 1.f, FX, n, nn, FY,
                                         n, nn, 0.f, FA, n, nn, fpiv, n, fx, n, n, finfo, fi);
        });
        const double fc = time_ms([&] {
            cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &fone, FX, n, nn, FY, n, nn, &fzero, FA, n,
                                      nn, int(fi));
            cublasSgetrfBatched(h, n, pFA, n, fpiv, finfo, int(fi));
            cublasSgetrsBatched(h, CUBLAS_OP_N, n, 1, (const float *const *)pFA, n, fpiv, pfx, n, &hinfo, int(fi));
        });
        row("sfused", n, fi, fb, fk, fc);
        cudaFree(FX); cudaFree(FY); cudaFree(FA); cudaFree(fx); cudaFree(pFA); cudaFree(pfx); cudaFree(fpiv);
        cudaFree(finfo);
        }
        cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(x); cudaFree(ipiv); cudaFree(info);
        cudaFree(pA); cudaFree(pB); cudaFree(pC); cudaFree(px);
    }
    return 0;
}
