// fused_item.hpp -- the fused call (gemm_lu_trsv, k = n) at n = FUSED_ITEM_MIN..8 one item
// at a time, the item held in SIMD registers as its columns (fused_item.cpp).
//
// The packed path (packed_kernels.hpp) copies X, Y, A and B of W items into an interleaved
// block and back; at n = 8 that copy and the 64-vector working set of its LU (twice the
// register file, so the LU runs through the stack) made the fused call slower than
// Kobalt's own gemm + getrf + getrs (docs/performance.md, "Fused call at n = 6, 8").
// Here each item's columns are 8-lane vectors (lane i = row i, lanes >= n unused): the
// product is n^2 vector multiply-adds with Y's elements broadcast from memory, the LU
// with partial pivoting finds the pivot by a reduction across the lanes of one column and
// swaps rows as one permutation of every column, and the solve applies the accumulated
// row permutation to b at once. X, Y, A and B are read and A and B written once, in place.
//
// Compiled only into the AVX-512 copy of the interleaved kernels (fused_item.cpp says why):
// item_fused_runs() says whether this CPU (and KOBALT_OPENMP_NO_AVX512 / _NO_AVX2) picks
// that copy; where it does not, callers take the packed or fixed-n path. Semantics are the
// packed path's: LAPACK dgetf2 pivots and info, reciprocal scaling above the smallest
// normal number, B_i untouched where info[i] > 0, X and Y not read when alpha == 0, A not
// read when beta == 0.
#ifndef KOBALT_OPENMP_FUSED_ITEM_HPP
#define KOBALT_OPENMP_FUSED_ITEM_HPP

#include <cstdint>

#include "fixed_kernels.hpp"
#include "interleaved_kernels.hpp"

namespace kobalt_openmp {
namespace interleaved {

namespace avx512 {
template <class T>
void item_fused(int n, T alpha, fixed::Items<const T> X, fixed::Mat x, fixed::Items<const T> Y,
                fixed::Mat y, T beta, fixed::Items<T> A, fixed::Mat a, int *ipiv, int64_t sipiv,
                int nrhs, fixed::Items<T> B, fixed::Mat b, int *info, int64_t batch);
}

// True when the AVX-512 copy runs here, so item_fused may be called.
inline bool item_fused_runs() { return isa() == Isa::avx512; }

// Largest order the kernel holds (one column per vector of 8 lanes).
constexpr int FUSED_ITEM_MAX_N = 8;

} // namespace interleaved
} // namespace kobalt_openmp

#endif
