// lu_block.cu -- the launcher of lu_block.cuh's block-per-item getrf: picks the register
// shape for n (RT = ceil(n / 32) rows per lane, n <= 64; 4 or 8 warps), opts in to the
// shared memory it needs, and sizes the grid to the resident blocks (each walks items
// grid-stride).
#include <algorithm>

#include "lu_block.cuh"

namespace kobalt_cuda {

namespace {

template <class T, int RT, int NW, class AA>
bool launch(int n, MatDesc dA, AA A, int *ipiv, idx sp, int *info, idx batch, cudaStream_t st) {
    const auto kernel = lublock::getrf_block<T, RT, NW, AA>;
    const size_t bytes = lublock::smem_bytes<T>(n, RT);
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
        bytes > size_t(optin)) {
        cudaGetLastError();
        return false;
    }
    // The attribute belongs to the kernel, shared by every host thread and stream: ask for
    // the most this instantiation can need (n = 32 RT, within the opt-in limit), the same
    // value on every call, so that a concurrent call with a smaller n never lowers it
    // under this call's launch. (Setting each call's own size raced: in test_cuda_stress,
    // 8 threads on 8 streams, a fused call at n = 33..64 failed its launch after another
    // thread had set a smaller size, KOBALT_BACKEND_ERROR.)
    const size_t most = std::min(lublock::smem_bytes<T>(32 * RT, RT), size_t(optin));
    int per_sm = 0;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(most)) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, NW * 32, bytes) != cudaSuccess || per_sm < 1) {
        cudaGetLastError();
        return false;
    }
    const idx blocks = std::min<idx>(batch, idx(multiprocessors()) * per_sm);
    kernel<<<int(std::max<idx>(blocks, 1)), NW * 32, bytes, st>>>(n, dA, A, ipiv, sp, info, batch);
    return true;
}

// Two register shapes only, RT = 1 (n <= 32) and RT = 2 (n <= 64): the block kernel lost to
// cuBLAS getrfBatched above 64 (H200 double n = 96 / 128: 0.60x / 0.74x), and the larger
// shapes (RT up to 6, 16 warps) took most of this file's 15-minute compile on the 2-core CI
// machine. Larger n return false: the caller runs cuBLAS.
template <class T, int NW, class AA>
bool by_rows(int n, MatDesc dA, AA A, int *ipiv, idx sp, int *info, idx batch, cudaStream_t st) {
    switch ((n + 31) / 32) {
    case 1: return launch<T, 1, NW>(n, dA, A, ipiv, sp, info, batch, st);
    case 2: return launch<T, 2, NW>(n, dA, A, ipiv, sp, info, batch, st);
    }
    return false;
}

} // namespace

template <class T, class AA>
bool block_getrf(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, int warps,
                 cudaStream_t st) {
    if (n < 1 || batch < 1) return false;
    if (warps == 8) return by_rows<T, 8>(n, dA, A, ipiv, strideIpiv, info, batch, st);
    return by_rows<T, 4>(n, dA, A, ipiv, strideIpiv, info, batch, st);
}

#define KOBALT_BLOCK_INSTANTIATE(T)                                                                             \
    template bool block_getrf<T>(int, MatDesc, Strided<T>, int *, idx, int *, idx, int, cudaStream_t);         \
    template bool block_getrf<T>(int, MatDesc, Ptrs<T>, int *, idx, int *, idx, int, cudaStream_t);
KOBALT_BLOCK_INSTANTIATE(double)
KOBALT_BLOCK_INSTANTIATE(float)

} // namespace kobalt_cuda
