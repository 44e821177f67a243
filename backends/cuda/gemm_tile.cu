// gemm_tile.cu -- gemm for GEMM_TILE_MIN <= max(m, n, k) <= GEMM_TILE_MAX (17..24 by default;
// GEMM_TILE_MAX_FLOAT for float items, 17..32)
// on gemm_semiring's tile kernel (semiring_tile.cuh) with the PLUS_TIMES ring: one 64-thread
// block per item, op(A) and op(B) staged into shared memory by coalesced cp.async copies,
// a 3 x 3 (max(m, n) <= GEMM_TILE_SMALL_MAX) or 4 x 4 register tile of C per thread, C
// written back through shared memory in its storage order.
//
// Why: between the 16-lane group kernel (gemm_bcast.cuh, n <= 16) and cuBLAS (97% of the
// copy bandwidth at n = 32) neither reached 80%: cuBLAS's batched gemm ran at 51% at n = 20
// and 68% at n = 24, and the 32-lane group kernel at 26-44% (164-207 registers, op(A)
// loaded inside the step loop). The tile kernel keeps at most 64 (24 x 24 tile) or 80
// registers a thread and all of an item's loads in flight without registers. H200, double:
// 63% / 76% / 81% of the copy bandwidth at n = 17 / 20 / 24 since session 24 (50% / 61% / 76%
// in session 9; cuBLAS 33% / 52% / 68%); the
// 32 x 32 tile reaches only 60-67% at n = 28..32 (cuBLAS 81-97%), hence GEMM_TILE_MAX = 24
// (docs/performance.md, session 9). In float it beats cuBLAS at 25..32 too (session 17: 1.12-1.16x
// faster than the cuBLAS path it replaced there), hence GEMM_TILE_MAX_FLOAT = 32.
#include <algorithm>

#include "common.cuh"
#include "groups.cuh"
#include "semiring_ops.cuh"
#include "semiring_tile.cuh"

namespace kobalt_cuda {

template <class T, class AA, class BA, class CA>
void tile_gemm(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta, MatDesc dC, CA C,
               idx batch, cudaStream_t st) {
    if (batch <= 0) return; // (no empty grid)
    const bool prod = alpha != T(0) && k > 0, readc = beta != T(0);
    const bool two = threshold(GEMM_TILE_BUFFERS) >= 2;
    // the 24 x 24 tile (3 x 3 a thread) does 56% of the 32 x 32 tile's terms at n = 24
    if (std::max(m, n) <= std::min<kobalt_int>(threshold(GEMM_TILE_SMALL_MAX), 24))
        return launch_tile_as<KOBALT_PLUS_TIMES, 3, T, 24, 16>(st, m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch,
                                                               prod, readc, two);
    launch_tile_as<KOBALT_PLUS_TIMES, 4, T, 32, 12>(st, m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch, prod, readc,
                                                    two);
}

#define KOBALT_TILE_GEMM_INSTANTIATE(T)                                                                          \
    template void tile_gemm<T>(int, int, int, T, MatDesc, Strided<const T>, MatDesc, Strided<const T>, T,      \
                               MatDesc, Strided<T>, idx, cudaStream_t);                                        \
    template void tile_gemm<T>(int, int, int, T, MatDesc, Ptrs<const T>, MatDesc, Ptrs<const T>, T, MatDesc,   \
                               Ptrs<T>, idx, cudaStream_t);
KOBALT_TILE_GEMM_INSTANTIATE(double)
KOBALT_TILE_GEMM_INSTANTIATE(float)

} // namespace kobalt_cuda
