// getrs_warp.cuh -- getrs with one right-hand side for items up to 8 x 8, column- or
// row-major, either transpose, one thread per item staged through shared memory a warp at a
// time (getrs_warp.cu, GETRS_WARP_MAX).
#ifndef KOBALT_CUDA_GETRS_WARP_CUH
#define KOBALT_CUDA_GETRS_WARP_CUH

#include "common.cuh"

namespace kobalt_cuda {

// false (nothing launched) unless n <= 8 and nrhs == 1; else launched on `st`. ipiv NULL:
// the factors of an unpivoted LU.
template <class T, class AA, class BA>
bool warp_getrs(int n, int nrhs, bool trans, const MatDesc &dA, AA A, const int *ipiv, idx strideIpiv,
                const MatDesc &dB, BA B, idx batch, cudaStream_t st);

} // namespace kobalt_cuda

#endif
