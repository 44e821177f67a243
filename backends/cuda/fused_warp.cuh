// fused_warp.cuh -- the fused call (A = alpha op(X) op(Y) + beta A, A = P L U, b = A^{-1} b)
// for square items up to 8 x 8 with k == n and one right-hand side, column- or row-major,
// one thread per item staged through shared memory a warp at a time (fused_warp.cu,
// FUSED_WARP_MAX).
#ifndef KOBALT_CUDA_FUSED_WARP_CUH
#define KOBALT_CUDA_FUSED_WARP_CUH

#include "common.cuh"

namespace kobalt_cuda {

// false (nothing launched) unless n <= 8, k == n and nrhs == 1; else launched on `st`.
// ipiv NULL: no pivoting. B is left untouched where info > 0.
template <class T, class XA, class YA, class AA, class BA>
bool warp_fused(int n, int k, int nrhs, T alpha, const MatDesc &dX, XA X, const MatDesc &dY, YA Y, T beta,
                const MatDesc &dA, AA A, int *ipiv, idx strideIpiv, const MatDesc &dB, BA B, int *info, idx batch,
                cudaStream_t st);

} // namespace kobalt_cuda

#endif
