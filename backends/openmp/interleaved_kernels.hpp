// interleaved_kernels.hpp -- the host's interleaved fast path: batches whose operands all
// have batch_stride 1 (kobalt_matrix_desc), items up to kobalt_interleaved::MAX_N,
// vectorised ACROSS the batch: one SIMD register holds the same element of W consecutive
// items (W = 2, 4 or 8 doubles, twice as many floats), so an 8 x 8 LU of W items runs as
// one instruction stream with per-lane pivoting. The algorithms are
// backends/common/interleaved_algo.hpp; interleaved_kernels.cpp wraps them in an OpenMP
// loop over packs of W items (the last batch % W items run one at a time).
//
// interleaved_kernels.cpp is compiled once per instruction set, like fixed_kernels.cpp:
// namespaces base (SSE2, the x86-64 baseline), avx2 (AVX2 + FMA) and avx512 (AVX-512
// F/DQ/VL); use() picks the widest one the CPU has, once. KokkosBatched's SIMD vector
// types were not used for this: they choose their intrinsics from the build's -m flags,
// which a portable build does not set, and compiling Kokkos headers with wider flags in
// one translation unit would risk linking AVX-512 inline code into baseline callers.
//
// Operands are plain data (Operand, Pivots in interleaved_algo.hpp) with p pointing at
// item 0; strides already express layout and transposition.
#ifndef KOBALT_OPENMP_INTERLEAVED_KERNELS_HPP
#define KOBALT_OPENMP_INTERLEAVED_KERNELS_HPP

#include <cstdint>

#include "isa_copies.hpp"

namespace kobalt_interleaved {
template <class T> struct Operand;
struct Pivots;
} // namespace kobalt_interleaved

namespace kobalt_openmp {
namespace interleaved {

using kobalt_interleaved::Operand;
using kobalt_interleaved::Pivots;

#define KOBALT_INTERLEAVED_DECLARE(ns)                                                        \
    namespace ns {                                                                            \
    /* C = alpha op(A) op(B) + beta C, C m x n (m <= MAX_N), inner size k */                  \
    template <class T>                                                                        \
    void gemm(int m, int n, int k, T alpha, Operand<const T> A, Operand<const T> B, T beta,   \
              Operand<T> C, int64_t batch);                                                   \
    /* B = alpha A^{-1} B, A m x m triangular (m <= MAX_N), B m x n */                         \
    template <class T>                                                                        \
    void trsm(bool lower, bool unit, int m, int n, T alpha, Operand<const T> A, Operand<T> B, \
              int64_t batch);                                                                 \
    /* A = P L U, A m x n (both <= MAX_N) */                                                   \
    template <class T> void getrf(int m, int n, Operand<T> A, Pivots ipiv, int *info, int64_t batch); \
    /* B = op(A)^{-1} B, A n x n factors (n <= MAX_N), B n x nrhs */                           \
    template <class T>                                                                        \
    void getrs(bool trans, int n, int nrhs, Operand<const T> A, Pivots ipiv, Operand<T> B,    \
               int64_t batch);                                                                \
    /* the fused call, A n x n (n <= MAX_N), inner size k, B n x nrhs */                       \
    template <class T>                                                                        \
    void fused(int n, int k, int nrhs, T alpha, Operand<const T> X, Operand<const T> Y, T beta, \
               Operand<T> A, Pivots ipiv, Operand<T> B, int *info, int64_t batch);            \
    /* items per SIMD pack for T */                                                           \
    int lanes(int element_size);                                                              \
    }
KOBALT_INTERLEAVED_DECLARE(base)
KOBALT_INTERLEAVED_DECLARE(avx2)
KOBALT_INTERLEAVED_DECLARE(avx512)
#undef KOBALT_INTERLEAVED_DECLARE

// Which copy runs: the widest the CPU supports, unless KOBALT_OPENMP_NO_AVX512=1 (then at
// most AVX2) or KOBALT_OPENMP_NO_AVX2=1 (then the baseline) is set. Decided once.
enum class Isa { base, avx2, avx512 };
Isa isa();
const char *isa_name(Isa isa);

} // namespace interleaved
} // namespace kobalt_openmp

#define KOBALT_INTERLEAVED_CALL(fn, ...)                                                      \
    do {                                                                                      \
        switch (::kobalt_openmp::interleaved::isa()) {                                        \
        case ::kobalt_openmp::interleaved::Isa::avx512:                                       \
            KOBALT_IF_AVX512(::kobalt_openmp::interleaved::avx512::fn(__VA_ARGS__);)          \
            break;                                                                            \
        case ::kobalt_openmp::interleaved::Isa::avx2:                                         \
            ::kobalt_openmp::interleaved::avx2::fn(__VA_ARGS__);                              \
            break;                                                                            \
        default:                                                                              \
            ::kobalt_openmp::interleaved::base::fn(__VA_ARGS__);                              \
            break;                                                                            \
        }                                                                                     \
    } while (0)

#endif
