// small_kernels.hpp -- the small path: one item, inlined, on unmanaged strided views.
//
// Every kernel here works on op(A) expressed as a view (a transpose is a stride swap,
// see views.hpp), so the KokkosBatched functors are only instantiated NoTranspose; a
// triangular op(A) changes its uplo accordingly, which the callers work out once per
// call. Nothing here allocates or validates: the core validated the call.
#ifndef KOBALT_OPENMP_SMALL_KERNELS_HPP
#define KOBALT_OPENMP_SMALL_KERNELS_HPP

#include <KokkosBatched_Gemm_Decl.hpp>
#include <KokkosBatched_Gemm_Serial_Impl.hpp>
#include <KokkosBatched_Gemv_Decl.hpp>
#include <KokkosBatched_Gemv_Serial_Impl.hpp>
#include <KokkosBatched_LU_Decl.hpp>
#include <KokkosBatched_LU_Serial_Impl.hpp>
#include <KokkosBatched_Trsm_Decl.hpp>
#include <KokkosBatched_Trsm_Serial_Impl.hpp>
#include <KokkosBatched_Trsv_Decl.hpp>
#include <KokkosBatched_Trsv_Serial_Impl.hpp>

#include "lu_pivoted.hpp"
#include "views.hpp"

namespace kobalt_openmp {
namespace small {

namespace KB = KokkosBatched;

// Blocked variants register-block by 4 on the host; for gemm they measured faster than
// Unblocked from n = 6 on (the tiny sizes use gemm_unit_rows_fixed anyway).
using GemmAlgo = KB::Algo::Gemm::Blocked;
using GemvAlgo = KB::Algo::Gemv::Blocked;
using TrsvAlgo = KB::Algo::Trsv::Blocked;
using TrsmAlgo = KB::Algo::Trsm::Blocked;

template <bool Unit> using DiagTag = std::conditional_t<Unit, KB::Diag::Unit, KB::Diag::NonUnit>;
template <bool Lower> using UploTag = std::conditional_t<Lower, KB::Uplo::Lower, KB::Uplo::Upper>;

// C = alpha A B + beta C for the case KokkosBatched handles slowly: C and A with unit
// row stride (column-major C and A, or after transposition row-major C and B). Column
// j of C is built from axpys of A's unit-stride columns, which the compiler vectorises;
// KokkosBatched's kernels index every element through runtime strides and do not.
// M > 0: m == M known at compile time, so a column of C lives in registers while the
// k axpys accumulate into it (the tiny sizes where per-element overhead dominates).
template <int M, class T>
KOKKOS_FORCEINLINE_FUNCTION void gemm_unit_rows_fixed(const int n, const int k, const T alpha,
                                                      const T *__restrict__ A, const int acs,
                                                      const T *__restrict__ B, const int brs,
                                                      const int bcs, const T beta,
                                                      T *__restrict__ C, const int ccs) {
    for (int j = 0; j < n; ++j) {
        T *__restrict__ c = C + j * ccs;
        T acc[M];
        for (int i = 0; i < M; ++i) acc[i] = T(0);
        if (alpha != T(0))
            for (int p = 0; p < k; ++p) {
                const T b = B[p * brs + j * bcs];
                const T *__restrict__ a = A + p * acs;
                for (int i = 0; i < M; ++i) acc[i] += a[i] * b;
            }
        if (beta == T(0))
            for (int i = 0; i < M; ++i) c[i] = alpha * acc[i];
        else
            for (int i = 0; i < M; ++i) c[i] = alpha * acc[i] + beta * c[i];
    }
}

template <class T>
KOKKOS_FORCEINLINE_FUNCTION void gemm_unit_rows(const int m, const int n, const int k,
                                                const T alpha, const T *__restrict__ A,
                                                const int acs, const T *__restrict__ B,
                                                const int brs, const int bcs, const T beta,
                                                T *__restrict__ C, const int ccs) {
    switch (m) {
#define KOBALT_OPENMP_FIXED_M(M)                                                              \
    case M:                                                                                   \
        return gemm_unit_rows_fixed<M>(n, k, alpha, A, acs, B, brs, bcs, beta, C, ccs);
        KOBALT_OPENMP_FIXED_M(1)
        KOBALT_OPENMP_FIXED_M(2)
        KOBALT_OPENMP_FIXED_M(3)
        KOBALT_OPENMP_FIXED_M(4)
        KOBALT_OPENMP_FIXED_M(5)
        KOBALT_OPENMP_FIXED_M(6)
        KOBALT_OPENMP_FIXED_M(7)
        KOBALT_OPENMP_FIXED_M(8)
#undef KOBALT_OPENMP_FIXED_M
    default:
        break;
    }
    for (int j = 0; j < n; ++j) {
        T *__restrict__ c = C + j * ccs;
        if (beta == T(0))
            for (int i = 0; i < m; ++i) c[i] = T(0);
        else if (beta != T(1))
            for (int i = 0; i < m; ++i) c[i] *= beta;
        if (alpha == T(0)) continue;
        for (int p = 0; p < k; ++p) {
            const T b = alpha * B[p * brs + j * bcs];
            const T *__restrict__ a = A + p * acs;
            for (int i = 0; i < m; ++i) c[i] += a[i] * b;
        }
    }
}

// C = alpha opA opB + beta C. beta == 0 sets C without reading it; alpha == 0 reads
// neither opA nor opB (gemm_unit_rows and KokkosBatched's SerialGemmInternal both).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void gemm(T alpha, const MatrixView<const T> &opA,
                                      const MatrixView<const T> &opB, T beta,
                                      const MatrixView<T> &C) {
    const int m = int(C.extent(0)), n = int(C.extent(1)), k = int(opA.extent(1));
    if (C.stride_0() == 1 && opA.stride_0() == 1)
        gemm_unit_rows(m, n, k, alpha, opA.data(), int(opA.stride_1()), opB.data(),
                       int(opB.stride_0()), int(opB.stride_1()), beta, C.data(),
                       int(C.stride_1()));
    else if (C.stride_1() == 1 && opB.stride_1() == 1) // C^T = opB^T opA^T
        gemm_unit_rows(n, m, k, alpha, opB.data(), int(opB.stride_0()), opA.data(),
                       int(opA.stride_1()), int(opA.stride_0()), beta, C.data(),
                       int(C.stride_0()));
    else
        KB::SerialGemm<KB::Trans::NoTranspose, KB::Trans::NoTranspose, GemmAlgo>::invoke(
            alpha, opA, opB, beta, C);
}

// y = alpha opA x + beta y, same beta/alpha rules as gemm.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void gemv(T alpha, const MatrixView<const T> &opA,
                                      const VectorView<const T> &x, T beta,
                                      const VectorView<T> &y) {
    KB::SerialGemv<KB::Trans::NoTranspose, GemvAlgo>::invoke(alpha, opA, x, beta, y);
}

// x = opA^{-1} x, opA triangular (Lower: lower triangle used).
template <bool Lower, bool Unit, class T>
KOKKOS_FORCEINLINE_FUNCTION void trsv(const MatrixView<const T> &opA, const VectorView<T> &x) {
    KB::SerialTrsv<UploTag<Lower>, KB::Trans::NoTranspose, DiagTag<Unit>, TrsvAlgo>::invoke(
        T(1), opA, x);
}

// B = alpha opA^{-1} B (left side; the right side is the transposed problem).
template <bool Lower, bool Unit, class T>
KOKKOS_FORCEINLINE_FUNCTION void trsm(T alpha, const MatrixView<const T> &opA,
                                      const MatrixView<T> &B) {
    // KokkosBatched 3.4's Blocked left-upper trsm returns without solving when B has
    // more than 64*64 elements (its large-size branch is commented out); Unblocked has
    // no such limit, so large upper solves take it.
    if (!Lower && B.extent(0) * B.extent(1) > 64 * 64)
        KB::SerialTrsm<KB::Side::Left, UploTag<Lower>, KB::Trans::NoTranspose, DiagTag<Unit>,
                       KB::Algo::Trsm::Unblocked>::invoke(alpha, opA, B);
    else
        KB::SerialTrsm<KB::Side::Left, UploTag<Lower>, KB::Trans::NoTranspose, DiagTag<Unit>,
                       TrsmAlgo>::invoke(alpha, opA, B);
}

// LU without pivoting (KokkosBatched SerialLU). SerialLU divides by a zero pivot
// (Inf/NaN follow, never a trap) and returns 0; LAPACK's info, the first exactly zero
// U(j,j), is read off the diagonal afterwards: U(j,j) is final once step j is done.
template <class T> KOKKOS_FORCEINLINE_FUNCTION int lu_nopivot(const MatrixView<T> &A) {
    KB::SerialLU<KB::Algo::LU::Unblocked>::invoke(A);
    const int kmin = int(A.extent(0) < A.extent(1) ? A.extent(0) : A.extent(1));
    for (int j = 0; j < kmin; ++j)
        if (A(j, j) == T(0)) return j + 1;
    return 0;
}

// LU of one item: pivoted (lu_pivoted.hpp) unless ipiv is NULL.
template <class T> KOKKOS_FORCEINLINE_FUNCTION int getrf(const MatrixView<T> &A, int *ipiv) {
    return ipiv ? lu_pivoted(A, ipiv) : lu_nopivot(A);
}

// Row interchanges of dlaswp on the n x nrhs B: forward (k = 0..n-1) or backward.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void laswp(const MatrixView<T> &B, const int *ipiv, bool forward) {
    const int n = int(B.extent(0)), nrhs = int(B.extent(1));
    for (int s = 0; s < n; ++s) {
        const int k = forward ? s : n - 1 - s;
        const int p = ipiv[k] - 1;
        if (p != k)
            for (int c = 0; c < nrhs; ++c) {
                const T t = B(k, c);
                B(k, c) = B(p, c);
                B(p, c) = t;
            }
    }
}

// B = op(A)^{-1} B from getrf's factors A = P L U (LAPACK dgetrs): for NoTrans
// swap, L (unit lower) solve, U solve; for Trans U^T solve, L^T solve, swap back.
// A is the stored n x n factor (not op(A)); ipiv NULL: no interchanges.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void getrs(bool trans, const MatrixView<const T> &A,
                                       const int *ipiv, const MatrixView<T> &B) {
    if (!trans) {
        if (ipiv) laswp(B, ipiv, true);
        trsm<true, true>(T(1), A, B);
        trsm<false, false>(T(1), A, B);
    } else {
        // The transpose of A as a view: swap extents and strides.
        const MatrixView<const T> AT(
            A.data(), Kokkos::LayoutStride(A.extent(1), A.stride_1(), A.extent(0), A.stride_0()));
        trsm<true, false>(T(1), AT, B);  // U^T is lower, non-unit
        trsm<false, true>(T(1), AT, B);  // L^T is upper, unit
        if (ipiv) laswp(B, ipiv, false);
    }
}

} // namespace small
} // namespace kobalt_openmp

#endif
