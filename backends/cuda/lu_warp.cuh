// lu_warp.cuh -- getrf of square pivoted items up to 8 x 8, column- or row-major, one thread
// per item staged through shared memory a warp at a time (lu_warp.cu, GETRF_WARP_MAX).
#ifndef KOBALT_CUDA_LU_WARP_CUH
#define KOBALT_CUDA_LU_WARP_CUH

#include "common.cuh"

namespace kobalt_cuda {

// false (nothing launched) unless the items are square n x n, n <= 8, pivoted and not
// transposed; else launched on `st`.
template <class T, class AA>
bool warp_getrf(int n, const MatDesc &dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, cudaStream_t st);

} // namespace kobalt_cuda

#endif
