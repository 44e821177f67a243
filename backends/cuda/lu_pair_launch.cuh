// lu_pair_launch.cuh -- the launcher of getrf's full-item kernel with two rows a lane
// (lu_pair.cu), for groups.cu: square items n x n padded to the group width W (4, 8, 16, 32)
// with an identity, pivoted when ipiv is not NULL.
#ifndef KOBALT_CUDA_LU_PAIR_LAUNCH_CUH
#define KOBALT_CUDA_LU_PAIR_LAUNCH_CUH

#include "common.cuh"

namespace kobalt_cuda {

template <int W, class T, class AA>
void launch_getrf_pair(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, cudaStream_t st);

} // namespace kobalt_cuda

#endif
