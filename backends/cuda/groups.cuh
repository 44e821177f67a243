// groups.cuh -- the "group" kernels for items up to 32 x 32 (docs/cuda.md): a group of
// W = 4, 8, 16 or 32 lanes of one warp works on one item, lane i holding row i of the
// matrix in registers; pivot search is a shuffle reduction, row swaps and broadcasts are
// shuffles. One code path per routine, templated on the group width; runtime sizes up to
// W. Each launcher returns false when the sizes do not fit (the caller then runs the
// one-thread-per-item kernel), else launches on `st`.
#ifndef KOBALT_CUDA_GROUPS_CUH
#define KOBALT_CUDA_GROUPS_CUH

#include "common.cuh"

namespace kobalt_cuda {

constexpr int kGroupMax = 32;

// bcast: op(B) broadcast through shared memory (gemm_bcast.cuh) instead of by shuffles;
// narrow (only when max(m, n) <= 12): the 16-lane group computes 12 columns, not 16
template <class T, class AA, class BA, class CA>
bool group_gemm(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta, MatDesc dC, CA C,
                idx batch, bool bcast, bool narrow, cudaStream_t st);
// gemm on the tile kernel with the PLUS_TIMES ring (gemm_tile.cu): any m, n <= 32, any k
template <class T, class AA, class BA, class CA>
void tile_gemm(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta, MatDesc dC, CA C,
               idx batch, cudaStream_t st);
// bcast: the kernel on lu_rows_bcast (lu_bcast.cuh) instead of lu_rows; full: square items
// (m == n, padded to the group width 4, 8, 16 or 32) on lu_full.cuh's prefetching kernel;
// two_rows: square float items up to 16 on lu_two_rows.cuh's kernel (two rows a lane, padded
// to 16; ignored in double)
template <class T, class AA>
bool group_getrf(int m, int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, bool bcast,
                 bool full, bool two_rows, cudaStream_t st);
template <class T, class AA, class BA>
bool group_getrs(bool trans, int n, int nrhs, MatDesc dA, AA A, const int *ipiv, idx strideIpiv, MatDesc dB,
                 BA B, idx batch, cudaStream_t st);
template <class T, class XA, class YA, class AA, class BA>
bool group_fused(int n, int k, int nrhs, T alpha, MatDesc dX, XA X, MatDesc dY, YA Y, T beta, MatDesc dA, AA A,
                 int *ipiv, idx strideIpiv, MatDesc dB, BA B, int *info, idx batch, cudaStream_t st);

} // namespace kobalt_cuda

#endif
