// fused_full.cuh -- the fused call (A = alpha op(X) op(Y) + beta A, A = P L U, b = A^{-1} b)
// at n = 9 ... 32 with k no larger than the group width and at most one right-hand side, any
// layout and op: a group of 16 or 32 lanes per item, every operand staged through shared
// memory ahead of use (fused_full.cu, FUSED_FULL_MIN / FUSED_FULL_MAX, docs/cuda.md).
#ifndef KOBALT_CUDA_FUSED_FULL_CUH
#define KOBALT_CUDA_FUSED_FULL_CUH

#include "common.cuh"

namespace kobalt_cuda {

// false (nothing launched) unless 9 <= n <= 32, k <= the group width of n (16 or 32) and
// nrhs <= 1; else launched on `st`. ipiv NULL: no pivoting. B is left untouched where info > 0.
template <class T, class XA, class YA, class AA, class BA>
bool full_fused(int n, int k, int nrhs, T alpha, const MatDesc &dX, XA X, const MatDesc &dY, YA Y, T beta,
                const MatDesc &dA, AA A, int *ipiv, idx strideIpiv, const MatDesc &dB, BA B, int *info, idx batch,
                cudaStream_t st);

} // namespace kobalt_cuda

#endif
