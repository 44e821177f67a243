// test_cuda_faults.cpp -- CUDA faults a host program must survive, one mode per process
// (a sticky CUDA error spoils the whole context, so each mode is its own ctest entry).
//
//   test_cuda_faults illegal-address   dgemm_batched whose device pointer array holds a
//        pointer into freed device memory (and one 1 TiB past it): the fault surfaces
//        at kobalt_synchronize() as KOBALT_BACKEND_ERROR with the CUDA message ("an
//        illegal memory access ..."), never an abort; on the spoiled context later calls
//        fail (which status is printed), kobalt_synchronize keeps answering
//        KOBALT_BACKEND_ERROR with the CUDA message, and the process exits normally.
//   test_cuda_faults out-of-memory     the device is filled (cudaMalloc until it fails),
//        then dtrsm_strided on the cuBLAS path (KOBALT_CUDA_TRSM_SMALL_MAX=0) needs two
//        device pointer arrays of 128 MiB: KOBALT_OUT_OF_MEMORY with a message, B
//        untouched, no CUDA error left behind; after the memory is given back the same
//        call succeeds with the right answer.
//   test_cuda_faults empty-operands    _batched calls whose empty operands come as NULL
//        pointer arrays (gemm and the fused call with k = 0, the fused call with
//        nrhs = 0), valid per docs/api.md: they run, no fault, right answers (the
//        openmp backend crashed on these: docs/reliability.md, finding 2).
//
// Exits 77 ("no CUDA device: skipped") without a usable GPU or without the cuda backend.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/cuda_check.hpp"
#include "kobalt/kobalt.h"

static bool has(const char *s, const char *part) { return s && part && std::strstr(s, part) != nullptr; }

template <class T> static T *upload(const std::vector<T> &h) {
    T *d = nullptr;
    CUDA_OK(cudaMalloc(&d, sizeof(T) * (h.empty() ? 1 : h.size())));
    if (!h.empty()) CUDA_OK(cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice));
    return d;
}
template <class T> static std::vector<T> download(const T *d, size_t n) {
    std::vector<T> h(n);
    CUDA_OK(cudaMemcpy(h.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
    return h;
}

// ---- illegal-address ------------------------------------------------------------------
static void illegal_address() {
    const int n = 4, batch = 64;
    std::vector<double> h(size_t(n * n * batch), 1.0);
    double *A = upload(h), *B = upload(h), *C = upload(h);
    std::vector<const double *> pa, pb;
    std::vector<double *> pc;
    for (int i = 0; i < batch; ++i) {
        pa.push_back(A + i * n * n), pb.push_back(B + i * n * n), pc.push_back(C + i * n * n);
    }
    const double **dpa = upload(pa), **dpb = upload(pb);
    double **dpc = upload(pc);
    // Item 17's A: device memory freed before the call (a use after free), allocated and
    // freed after every other allocation of this test so that nothing reuses its range.
    void *victim = nullptr;
    CUDA_OK(cudaMalloc(&victim, size_t(64) << 20));
    CUDA_OK(cudaFree(victim));
    pa[17] = static_cast<const double *>(victim) + 1024;
    // Item 41's A: 1 TiB past it, where nothing is mapped (should the freed range stay so).
    pa[41] = reinterpret_cast<const double *>(static_cast<const char *>(victim) + (size_t(1) << 40));
    CUDA_OK(cudaMemcpy(dpa, pa.data(), sizeof(double *) * pa.size(), cudaMemcpyHostToDevice));

    kobalt_status st = kobalt_dgemm_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1.0, dpa, n,
                                            dpb, n, 0.5, dpc, n, batch);
    // Queued asynchronously: the launch itself is fine, the fault comes when it runs.
    CHECK(st == KOBALT_SUCCESS || st == KOBALT_BACKEND_ERROR, "dgemm_batched: %s (%s)", kobalt_status_name(st),
          kobalt_last_error());
    st = kobalt_synchronize();
    const cudaError_t e = cudaStreamSynchronize(nullptr);  // the error the context now holds
    std::printf("kobalt_synchronize: %s: \"%s\" (CUDA: %s)\n", kobalt_status_name(st), kobalt_last_error(),
                cudaGetErrorString(e));
    CHECK(e != cudaSuccess, "the bad pointer caused no CUDA error at all");
    CHECK(st == KOBALT_BACKEND_ERROR, "kobalt_synchronize: %s", kobalt_status_name(st));
    CHECK(has(kobalt_last_error(), "kobalt_synchronize") && has(kobalt_last_error(), cudaGetErrorString(e)),
          "message \"%s\" lacks the CUDA message \"%s\"", kobalt_last_error(), cudaGetErrorString(e));

    // The context is spoiled (sticky error): the library keeps answering, never aborts.
    for (int round = 0; round < 3; ++round) {
        st = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, 1.0, A, n, n * n, B, n,
                                  n * n, 0.0, C, n, n * n, batch);
        const kobalt_status sync = kobalt_synchronize();
        std::printf("after the fault, round %d: dgemm_strided %s \"%s\", kobalt_synchronize %s\n", round,
                    kobalt_status_name(st), kobalt_last_error(), kobalt_status_name(sync));
        // The call itself may be refused before any launch: routing asks the CUDA runtime
        // who owns the pointers, and on a spoiled context it answers nobody
        // (KOBALT_NO_BACKEND). Whatever it says, kobalt_synchronize names the CUDA error.
        CHECK(st != KOBALT_INVALID_ARGUMENT, "dgemm_strided: %s", kobalt_status_name(st));
        CHECK(sync == KOBALT_BACKEND_ERROR && has(kobalt_last_error(), cudaGetErrorString(e)),
              "kobalt_synchronize on the spoiled context: %s \"%s\"", kobalt_status_name(sync), kobalt_last_error());
    }
    // Not freed: the context is gone; the process must still exit normally.
}

// ---- out-of-memory --------------------------------------------------------------------
static void out_of_memory() {
    const int64_t batch = int64_t(16) << 20;  // two pointer arrays of 128 MiB on the cuBLAS path
    const double two = 2.0;
    double *A = upload(std::vector<double>{two});  // one 1x1 item shared by every item (strideA 0)
    std::vector<double> hb(static_cast<size_t>(batch));
    for (int64_t i = 0; i < batch; ++i) hb[size_t(i)] = double(i % 1000) - 500.0;
    double *B = upload(hb);
    // Warm-up on a small batch: creates the cuBLAS handle and the stream-ordered pool.
    double *W = upload(std::vector<double>(8, 4.0));
    kobalt_status st = kobalt_dtrsm_strided(KOBALT_COL_MAJOR, KOBALT_LEFT, KOBALT_UPPER, KOBALT_NO_TRANS,
                                            KOBALT_NON_UNIT, 1, 1, 1.0, A, 1, 0, W, 1, 1, 8);
    CHECK(st == KOBALT_SUCCESS && kobalt_synchronize() == KOBALT_SUCCESS, "warm-up: %s (%s)", kobalt_status_name(st),
          kobalt_last_error());
    const std::vector<double> w = download(W, 8);
    CHECK(w[0] == 2.0 && w[7] == 2.0, "warm-up result %g %g (the cuBLAS path is not taken?)", w[0], w[7]);
    // Give the pool's cached memory back, then take every byte the device will give.
    int dev = 0;
    CUDA_OK(cudaGetDevice(&dev));
    cudaMemPool_t pool;
    CUDA_OK(cudaDeviceGetDefaultMemPool(&pool, dev));
    CUDA_OK(cudaMemPoolTrimTo(pool, 0));
    std::vector<void *> hog;
    size_t taken = 0;
    for (size_t chunk = size_t(1) << 30; chunk >= (size_t(1) << 22); chunk /= 2) {
        void *p = nullptr;
        while (cudaMalloc(&p, chunk) == cudaSuccess) {
            hog.push_back(p);
            taken += chunk;
        }
        cudaGetLastError();  // cudaErrorMemoryAllocation is not sticky
    }
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    std::printf("device filled: %.1f GiB taken, %.1f MiB left of %.1f GiB\n", double(taken) / (1 << 30),
                double(free_b) / (1 << 20), double(total_b) / (1 << 30));

    st = kobalt_dtrsm_strided(KOBALT_COL_MAJOR, KOBALT_LEFT, KOBALT_UPPER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, 1, 1, 1.0,
                              A, 1, 0, B, 1, 1, batch);
    std::printf("dtrsm_strided on a full device: %s \"%s\"\n", kobalt_status_name(st), kobalt_last_error());
    CHECK(st == KOBALT_OUT_OF_MEMORY, "expected KOBALT_OUT_OF_MEMORY, got %s", kobalt_status_name(st));
    CHECK(has(kobalt_last_error(), "kobalt_dtrsm_strided"), "message: %s", kobalt_last_error());
    const kobalt_status sync = kobalt_synchronize();
    CHECK(sync == KOBALT_SUCCESS, "kobalt_synchronize after the refused call: %s (%s)", kobalt_status_name(sync),
          kobalt_last_error());
    CHECK(cudaGetLastError() == cudaSuccess, "a CUDA error was left behind");
    CHECK(download(B, size_t(batch)) == hb, "B was written by the call that ran out of memory");

    for (void *p : hog) cudaFree(p);
    st = kobalt_dtrsm_strided(KOBALT_COL_MAJOR, KOBALT_LEFT, KOBALT_UPPER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, 1, 1, 1.0,
                              A, 1, 0, B, 1, 1, batch);
    const kobalt_status sync2 = kobalt_synchronize();
    CHECK(st == KOBALT_SUCCESS && sync2 == KOBALT_SUCCESS, "the same call with memory back: %s / %s (%s)",
          kobalt_status_name(st), kobalt_status_name(sync2), kobalt_last_error());
    const std::vector<double> got = download(B, size_t(batch));
    int64_t wrong = 0;
    for (int64_t i = 0; i < batch; ++i) wrong += got[size_t(i)] != hb[size_t(i)] / 2;
    CHECK(wrong == 0, "%lld of %lld items wrong after the retry", (long long)wrong, (long long)batch);
    cudaFree(A);
    cudaFree(B);
    cudaFree(W);
}

// ---- empty-operands -------------------------------------------------------------------
static void empty_operands() {
    for (int n : {4, 40}) {  // group kernels / one-thread kernels
        const int batch = 5, nn = n * n;
        std::vector<double> hc(size_t(nn * batch));
        for (size_t i = 0; i < hc.size(); ++i) hc[i] = double(i % 7) + 1.0;
        double *C = upload(hc);
        std::vector<double *> pc;
        for (int i = 0; i < batch; ++i) pc.push_back(C + i * nn);
        double **dpc = upload(pc);
        // gemm, k = 0: C = beta C; A and B come as NULL pointer arrays.
        kobalt_status st = kobalt_dgemm_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 0, 1.0,
                                                nullptr, n, nullptr, 1, 0.5, dpc, n, batch);
        kobalt_status sync = kobalt_synchronize();
        CHECK(st == KOBALT_SUCCESS && sync == KOBALT_SUCCESS, "n=%d dgemm_batched k=0, NULL A/B: %s / %s (%s)", n,
              kobalt_status_name(st), kobalt_status_name(sync), kobalt_last_error());
        std::vector<double> got = download(C, hc.size());
        bool ok = true;
        for (size_t i = 0; i < hc.size(); ++i) ok &= got[i] == 0.5 * hc[i];
        CHECK(ok, "n=%d dgemm_batched k=0: C != beta C", n);

        // Fused, k = 0 (A = beta A) and nrhs = 0: X, Y and B come as NULL pointer arrays.
        std::vector<double> ha(size_t(nn * batch), 0.0);
        for (int i = 0; i < batch; ++i)
            for (int j = 0; j < n; ++j) ha[size_t(i * nn + j * (n + 1))] = 2.0 + j;  // diagonal: no pivoting needed
        double *A = upload(ha);
        std::vector<double *> pa;
        for (int i = 0; i < batch; ++i) pa.push_back(A + i * nn);
        double **dpa = upload(pa);
        int *ipiv = upload(std::vector<int>(size_t(n * batch), -7)), *info = upload(std::vector<int>(size_t(batch), -7));
        st = kobalt_dgemm_lu_trsv_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, 0, 0, 1.0, nullptr, n,
                                          nullptr, 1, 1.0, dpa, n, ipiv, n, nullptr, n, info, batch);
        sync = kobalt_synchronize();
        CHECK(st == KOBALT_SUCCESS && sync == KOBALT_SUCCESS, "n=%d dgemm_lu_trsv_batched k=0 nrhs=0, NULL X/Y/B: %s / %s (%s)",
              n, kobalt_status_name(st), kobalt_status_name(sync), kobalt_last_error());
        const std::vector<int> gi = download(info, size_t(batch)), gp = download(ipiv, size_t(n * batch));
        ok = true;
        for (int i = 0; i < batch; ++i) ok &= gi[size_t(i)] == 0;
        for (int e = 0; e < n * batch; ++e) ok &= gp[size_t(e)] == e % n + 1;
        CHECK(ok, "n=%d fused k=0 nrhs=0: info or pivots wrong (a diagonal item needs no interchange)", n);
        got = download(A, ha.size());
        CHECK(got == ha, "n=%d fused k=0: the diagonal items' factors differ from the items", n);
        cudaFree(C), cudaFree(dpc), cudaFree(A), cudaFree(dpa), cudaFree(ipiv), cudaFree(info);
    }
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (std::strcmp(mode, "out-of-memory") == 0) setenv("KOBALT_CUDA_TRSM_SMALL_MAX", "0", 1);  // before loading
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
    if (std::strcmp(mode, "illegal-address") == 0) illegal_address();
    else if (std::strcmp(mode, "out-of-memory") == 0) out_of_memory();
    else if (std::strcmp(mode, "empty-operands") == 0) empty_operands();
    else {
        std::fprintf(stderr, "usage: test_cuda_faults illegal-address|out-of-memory|empty-operands\n");
        return 2;
    }
    std::printf("%s: %s (%ld failure(s))\n", mode, g_fail ? "FAILED" : "passed", g_fail);
    return g_fail ? 1 : 0;
}
