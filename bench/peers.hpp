// peers.hpp -- kobalt-bench's contenders: Kobalt's entry points by type, and the host
// alternatives (OpenBLAS/LAPACKE loop, KokkosBatched functors, libxsmm, Eigen). Each
// peer returns a closure that runs the whole batch, or an empty function when it does
// not provide the routine (or was not found at configure time).
#ifndef KOBALT_BENCH_PEERS_HPP
#define KOBALT_BENCH_PEERS_HPP

#include <kobalt/kobalt.h>
#include <omp.h>

#include <cblas.h>
#include <lapacke.h>

#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <Kokkos_Core.hpp>
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

#ifdef KOBALT_BENCH_HAVE_XSMM
#include <libxsmm.h>
#endif
#ifdef KOBALT_BENCH_HAVE_EIGEN
#include <Eigen/Dense>
#endif

// ---- Kobalt by type -----------------------------------------------------------------
namespace kb {
#define KB_PAIR(name, kname)                                                                 \
    template <class T, class... A> kobalt_status name(A &&...a) {                            \
        if constexpr (sizeof(T) == 8)                                                        \
            return kobalt_d##kname(std::forward<A>(a)...);                                   \
        else                                                                                 \
            return kobalt_s##kname(std::forward<A>(a)...);                                   \
    }
KB_PAIR(gemm_strided, gemm_strided)
KB_PAIR(gemm_batched, gemm_batched)
KB_PAIR(gemv_strided, gemv_strided)
KB_PAIR(gemv_batched, gemv_batched)
KB_PAIR(trsv_strided, trsv_strided)
KB_PAIR(trsv_batched, trsv_batched)
KB_PAIR(trsm_strided, trsm_strided)
KB_PAIR(trsm_batched, trsm_batched)
KB_PAIR(getrf_strided, getrf_strided)
KB_PAIR(getrf_batched, getrf_batched)
KB_PAIR(getrs_strided, getrs_strided)
KB_PAIR(getrs_batched, getrs_batched)
KB_PAIR(fused_strided, gemm_lu_trsv_strided)
KB_PAIR(fused_batched, gemm_lu_trsv_batched)
#undef KB_PAIR
} // namespace kb

namespace peers {

// One batch as the peers see it: item i of each operand through its pointer array.
// A: n x n (gemm A, triangular A, the LU), B: gemm B / vectors / right-hand sides,
// C: gemm C / gemv y, X and Y: the fused call's factors. ipiv/info: n and 1 per item.
template <class T> struct Ctx {
    int n, nrhs;
    bool row;
    size_t batch;
    T *const *A, *const *B, *const *C, *const *X, *const *Y;
    int *ipiv, *info;
    bool trans = false; // getrs and trsv: solve with op(A) = A^T (--trans T)
};

inline std::string available() {
    std::string s = "blas (OpenBLAS " OPENBLAS_VERSION "), kokkos (KokkosBatched Serial)";
#ifdef KOBALT_BENCH_HAVE_XSMM
    s += ", xsmm (libxsmm " LIBXSMM_VERSION ")";
#else
    s += "; skipped: xsmm (libxsmm not found at configure time)";
#endif
#ifdef KOBALT_BENCH_HAVE_EIGEN
    s += ", eigen (Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." +
         std::to_string(EIGEN_MAJOR_VERSION) + "." + std::to_string(EIGEN_MINOR_VERSION) +
         ", fixed size, n <= 16)";
#else
    s += "; skipped: eigen (Eigen 3 not found at configure time)";
#endif
    return s;
}

template <class Body> inline void par(size_t batch, Body &&body) {
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < batch; ++i) body(i);
}

// ---- OpenBLAS / LAPACKE per item ----------------------------------------------------
inline void xgemm(CBLAS_ORDER o, int n, const double *a, const double *b, double *c) {
    cblas_dgemm(o, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
}
inline void xgemm(CBLAS_ORDER o, int n, const float *a, const float *b, float *c) {
    cblas_sgemm(o, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
}
inline int xgetrf(int l, int n, double *a, int *p) { return LAPACKE_dgetrf_work(l, n, n, a, n, p); }
inline int xgetrf(int l, int n, float *a, int *p) { return LAPACKE_sgetrf_work(l, n, n, a, n, p); }
inline int xgetrs(int l, int n, int k, const double *a, const int *p, double *b, int ldb, char t = 'N') {
    return LAPACKE_dgetrs_work(l, t, n, k, a, n, p, b, ldb);
}
inline int xgetrs(int l, int n, int k, const float *a, const int *p, float *b, int ldb, char t = 'N') {
    return LAPACKE_sgetrs_work(l, t, n, k, a, n, p, b, ldb);
}

template <class T> std::function<void()> blas(const std::string &r, Ctx<T> c) {
    const CBLAS_ORDER o = c.row ? CblasRowMajor : CblasColMajor;
    const int L = c.row ? LAPACK_ROW_MAJOR : LAPACK_COL_MAJOR;
    const int n = c.n, k = c.nrhs, ldb = c.row ? c.nrhs : c.n;
    constexpr bool D = sizeof(T) == 8;
    if (r == "gemm")
        return [=] { par(c.batch, [&](size_t i) { xgemm(o, n, c.A[i], c.B[i], c.C[i]); }); };
    if (r == "gemv")
        return [=] {
            par(c.batch, [&](size_t i) {
                if constexpr (D) cblas_dgemv(o, CblasNoTrans, n, n, 1.0, c.A[i], n, c.B[i], 1, 0.0, c.C[i], 1);
                else cblas_sgemv(o, CblasNoTrans, n, n, 1.0f, c.A[i], n, c.B[i], 1, 0.0f, c.C[i], 1);
            });
        };
    if (r == "trsv")
        return [=] {
            const CBLAS_TRANSPOSE t = c.trans ? CblasTrans : CblasNoTrans;
            par(c.batch, [&](size_t i) {
                if constexpr (D) cblas_dtrsv(o, CblasLower, t, CblasNonUnit, n, c.A[i], n, c.B[i], 1);
                else cblas_strsv(o, CblasLower, t, CblasNonUnit, n, c.A[i], n, c.B[i], 1);
            });
        };
    if (r == "trsm")
        return [=] {
            par(c.batch, [&](size_t i) {
                if constexpr (D) cblas_dtrsm(o, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, n, 1.0, c.A[i], n, c.B[i], n);
                else cblas_strsm(o, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, n, 1.0f, c.A[i], n, c.B[i], n);
            });
        };
    if (r == "getrf")
        return [=] {
            par(c.batch, [&](size_t i) { c.info[i] = xgetrf(L, n, c.A[i], c.ipiv + i * n); });
        };
    if (r == "getrs")
        return [=] {
            const char t = c.trans ? 'T' : 'N';
            par(c.batch, [&](size_t i) { xgetrs(L, n, k, c.A[i], c.ipiv + i * n, c.B[i], ldb, t); });
        };
    if (r == "fused") // three sweeps, as a user would chain the three library calls
        return [=] {
            par(c.batch, [&](size_t i) { xgemm(o, n, c.X[i], c.Y[i], c.A[i]); });
            par(c.batch, [&](size_t i) { c.info[i] = xgetrf(L, n, c.A[i], c.ipiv + i * n); });
            par(c.batch, [&](size_t i) { xgetrs(L, n, k, c.A[i], c.ipiv + i * n, c.B[i], ldb); });
        };
    return {}; // getrf_np, fused_np: LAPACK has no LU without pivoting
}

// ---- KokkosBatched Serial functors ---------------------------------------------------
namespace KB = KokkosBatched;
template <class T> using SV = Kokkos::View<T **, Kokkos::LayoutStride, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class T> using VV = Kokkos::View<T *, Kokkos::LayoutStride, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class T> inline SV<T> mview(T *p, int r, int cols, bool row) {
    return row ? SV<T>(p, Kokkos::LayoutStride(r, cols, cols, 1)) : SV<T>(p, Kokkos::LayoutStride(r, 1, cols, r));
}
template <class T> inline VV<T> vview(T *p, int n) { return VV<T>(p, Kokkos::LayoutStride(n, 1)); }

template <class T, class GA, class VA, class SA, class LA, class MA>
std::function<void()> kokkos_algo(const std::string &r, Ctx<T> c) {
    using NT = KB::Trans::NoTranspose;
    const int n = c.n, k = c.nrhs;
    const bool row = c.row;
    if (r == "gemm")
        return [=] {
            par(c.batch, [&](size_t i) {
                KB::SerialGemm<NT, NT, GA>::invoke(T(1), mview<T>(c.A[i], n, n, row), mview<T>(c.B[i], n, n, row), T(0), mview<T>(c.C[i], n, n, row));
            });
        };
    if (r == "gemv")
        return [=] {
            par(c.batch, [&](size_t i) {
                KB::SerialGemv<NT, VA>::invoke(T(1), mview<T>(c.A[i], n, n, row), vview<T>(c.B[i], n), T(0), vview<T>(c.C[i], n));
            });
        };
    if (r == "trsv" && c.trans) // L^T: the functor's Transpose variant
        return [=] {
            par(c.batch, [&](size_t i) {
                KB::SerialTrsv<KB::Uplo::Lower, KB::Trans::Transpose, KB::Diag::NonUnit, SA>::invoke(T(1), mview<T>(c.A[i], n, n, row), vview<T>(c.B[i], n));
            });
        };
    if (r == "trsv")
        return [=] {
            par(c.batch, [&](size_t i) {
                KB::SerialTrsv<KB::Uplo::Lower, NT, KB::Diag::NonUnit, SA>::invoke(T(1), mview<T>(c.A[i], n, n, row), vview<T>(c.B[i], n));
            });
        };
    if (r == "trsm")
        return [=] {
            par(c.batch, [&](size_t i) {
                KB::SerialTrsm<KB::Side::Left, KB::Uplo::Lower, NT, KB::Diag::NonUnit, MA>::invoke(T(1), mview<T>(c.A[i], n, n, row), mview<T>(c.B[i], n, n, row));
            });
        };
    if (r == "getrf_np")
        return [=] {
            par(c.batch, [&](size_t i) {
                KB::SerialLU<LA>::invoke(mview<T>(c.A[i], n, n, row));
                c.info[i] = 0;
            });
        };
    if (r == "getrs" && k == 1 && c.trans) // A^T as a view (strides swapped): U^T, L^T, swaps back
        return [=] {
            par(c.batch, [&](size_t i) {
                T *b = c.B[i];
                const int *p = c.ipiv + i * n;
                auto at = mview<T>(c.A[i], n, n, !row);
                KB::SerialTrsv<KB::Uplo::Lower, NT, KB::Diag::NonUnit, SA>::invoke(T(1), at, vview<T>(b, n));
                KB::SerialTrsv<KB::Uplo::Upper, NT, KB::Diag::Unit, SA>::invoke(T(1), at, vview<T>(b, n));
                for (int j = n - 1; j >= 0; --j) std::swap(b[j], b[p[j] - 1]);
            });
        };
    if (r == "getrs" && k == 1) // row interchanges by hand, then the two functor solves
        return [=] {
            par(c.batch, [&](size_t i) {
                T *b = c.B[i];
                const int *p = c.ipiv + i * n;
                for (int j = 0; j < n; ++j) std::swap(b[j], b[p[j] - 1]);
                auto a = mview<T>(c.A[i], n, n, row);
                KB::SerialTrsv<KB::Uplo::Lower, NT, KB::Diag::Unit, SA>::invoke(T(1), a, vview<T>(b, n));
                KB::SerialTrsv<KB::Uplo::Upper, NT, KB::Diag::NonUnit, SA>::invoke(T(1), a, vview<T>(b, n));
            });
        };
    if (r == "fused_np" && k == 1) // all three in one loop
        return [=] {
            par(c.batch, [&](size_t i) {
                auto a = mview<T>(c.A[i], n, n, row);
                KB::SerialGemm<NT, NT, GA>::invoke(T(1), mview<T>(c.X[i], n, n, row), mview<T>(c.Y[i], n, n, row), T(0), a);
                KB::SerialLU<LA>::invoke(a);
                c.info[i] = 0;
                KB::SerialTrsv<KB::Uplo::Lower, NT, KB::Diag::Unit, SA>::invoke(T(1), a, vview<T>(c.B[i], n));
                KB::SerialTrsv<KB::Uplo::Upper, NT, KB::Diag::NonUnit, SA>::invoke(T(1), a, vview<T>(c.B[i], n));
            });
        };
    return {}; // getrf / fused with partial pivoting: no pivoted LU functor in KokkosBatched 3.4
}

template <class T> std::function<void()> kokkos(const std::string &r, Ctx<T> c, bool blocked) {
    if (blocked)
        return kokkos_algo<T, KB::Algo::Gemm::Blocked, KB::Algo::Gemv::Blocked, KB::Algo::Trsv::Blocked, KB::Algo::LU::Blocked, KB::Algo::Trsm::Blocked>(r, c);
    return kokkos_algo<T, KB::Algo::Gemm::Unblocked, KB::Algo::Gemv::Unblocked, KB::Algo::Trsv::Unblocked, KB::Algo::LU::Unblocked, KB::Algo::Trsm::Unblocked>(r, c);
}

// ---- libxsmm (gemm) --------------------------------------------------------------------
template <class T> std::function<void()> xsmm(const std::string &r, Ctx<T> c) {
#ifdef KOBALT_BENCH_HAVE_XSMM
    if (r != "gemm") return {};
    const libxsmm_blasint n = c.n;
    const T alpha = 1, beta = 0;
    const int flags = LIBXSMM_GEMM_FLAG_NONE;
    using Fn = void (*)(const T *, const T *, T *, ...);
    Fn f;
    if constexpr (sizeof(T) == 8) f = (Fn)libxsmm_dmmdispatch(n, n, n, &n, &n, &n, &alpha, &beta, &flags, nullptr);
    else f = (Fn)libxsmm_smmdispatch(n, n, n, &n, &n, &n, &alpha, &beta, &flags, nullptr);
    if (!f) return {};
    // Row-major C = A B is column-major C^T = B^T A^T.
    if (c.row) return [=] { par(c.batch, [&](size_t i) { f(c.B[i], c.A[i], c.C[i]); }); };
    return [=] { par(c.batch, [&](size_t i) { f(c.A[i], c.B[i], c.C[i]); }); };
#else
    (void)r; (void)c;
    return {};
#endif
}

// ---- Eigen fixed-size --------------------------------------------------------------------
#ifdef KOBALT_BENCH_HAVE_EIGEN
template <class T, int N, int Opt> std::function<void()> eigen_n(const std::string &r, Ctx<T> c) {
    using M = Eigen::Matrix<T, N, N, Opt>;
    using V = Eigen::Matrix<T, N, 1>;
    using MM = Eigen::Map<M>;
    using CM = Eigen::Map<const M>;
    using VM = Eigen::Map<V>;
    if (r == "gemm")
        return [=] { par(c.batch, [&](size_t i) { MM(c.C[i]).noalias() = CM(c.A[i]) * CM(c.B[i]); }); };
    if (r == "gemv")
        return [=] { par(c.batch, [&](size_t i) { VM(c.C[i]).noalias() = CM(c.A[i]) * Eigen::Map<const V>(c.B[i]); }); };
    if (r == "trsv" && !c.trans)
        return [=] { par(c.batch, [&](size_t i) { CM(c.A[i]).template triangularView<Eigen::Lower>().solveInPlace(VM(c.B[i])); }); };
    if (r == "trsm")
        return [=] { par(c.batch, [&](size_t i) { CM(c.A[i]).template triangularView<Eigen::Lower>().solveInPlace(MM(c.B[i])); }); };
    // PartialPivLU's own in-place factorisation (what PartialPivLU::compute runs after
    // copying the matrix in), on the item itself; its transpositions are LAPACK's ipiv - 1.
    auto lu = [](MM a, int *ipiv) {
        Eigen::Transpositions<N, N, int> tr;
        int nt;
        Eigen::internal::partial_lu_inplace(a, tr, nt);
        for (int j = 0; j < N; ++j) ipiv[j] = tr.indices()(j) + 1;
        int info = 0;
        for (int j = 0; j < N; ++j)
            if (a(j, j) == T(0)) { info = j + 1; break; }
        return info;
    };
    auto solve = [](CM a, const int *ipiv, VM b) {
        for (int j = 0; j < N; ++j) std::swap(b(j), b(ipiv[j] - 1));
        a.template triangularView<Eigen::UnitLower>().solveInPlace(b);
        a.template triangularView<Eigen::Upper>().solveInPlace(b);
    };
    if (r == "getrf")
        return [=] { par(c.batch, [&](size_t i) { c.info[i] = lu(MM(c.A[i]), c.ipiv + i * N); }); };
    if (r == "getrs" && c.nrhs == 1 && !c.trans)
        return [=] { par(c.batch, [&](size_t i) { solve(CM(c.A[i]), c.ipiv + i * N, VM(c.B[i])); }); };
    if (r == "fused" && c.nrhs == 1)
        return [=] {
            par(c.batch, [&](size_t i) {
                MM a(c.A[i]);
                a.noalias() = CM(c.X[i]) * CM(c.Y[i]);
                const int info = lu(a, c.ipiv + i * N);
                c.info[i] = info;
                if (info == 0) solve(CM(c.A[i]), c.ipiv + i * N, VM(c.B[i]));
            });
        };
    return {};
}
template <class T, int N> std::function<void()> eigen_fixed(const std::string &r, Ctx<T> c) {
    if (c.row) return eigen_n<T, N, (N == 1 ? Eigen::ColMajor : Eigen::RowMajor)>(r, c);
    return eigen_n<T, N, Eigen::ColMajor>(r, c);
}
#endif

template <class T> std::function<void()> eigen(const std::string &r, Ctx<T> c) {
#ifdef KOBALT_BENCH_HAVE_EIGEN
    switch (c.n) {
    case 2: return eigen_fixed<T, 2>(r, c);
    case 3: return eigen_fixed<T, 3>(r, c);
    case 4: return eigen_fixed<T, 4>(r, c);
    case 5: return eigen_fixed<T, 5>(r, c);
    case 6: return eigen_fixed<T, 6>(r, c);
    case 8: return eigen_fixed<T, 8>(r, c);
    case 10: return eigen_fixed<T, 10>(r, c);
    case 12: return eigen_fixed<T, 12>(r, c);
    case 16: return eigen_fixed<T, 16>(r, c);
    default: return {};
    }
#else
    (void)r; (void)c;
    return {};
#endif
}

} // namespace peers

#endif
