// fixed_kernels.cpp -- compile-time-n kernels of fixed_kernels.hpp. Compiled once per
// ISA with KOBALT_FIXED_ISA set to the namespace name (base, avx2). Everything but the
// explicitly instantiated entry points has internal linkage (see the header).
#include "fixed_common.hpp"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace {

template <class T> KF_INLINE T kabs(T x) { return x < T(0) ? -x : x; }

// Local column-major R x C copy <-> stored item. U: unit row stride (i + j*ld).
template <int R, int C, bool U, class T>
KF_INLINE void load(T *__restrict__ a, const T *__restrict__ p, int ld) {
    KF_UNROLL for (int j = 0; j < C; ++j) KF_UNROLL for (int i = 0; i < R; ++i)
        a[i + j * R] = U ? p[i + j * ld] : p[i * ld + j];
}
template <int R, int C, bool U, class T>
KF_INLINE void store(T *__restrict__ p, const T *__restrict__ a, int ld) {
    KF_UNROLL for (int j = 0; j < C; ++j) KF_UNROLL for (int i = 0; i < R; ++i)
        (U ? p[i + j * ld] : p[i * ld + j]) = a[i + j * R];
}

// c = alpha a b + beta c0 on local N x N arrays (beta == 0: c0 not read).
template <int N, class T>
KF_INLINE void mm(T alpha, const T *__restrict__ a, const T *__restrict__ b, T beta,
                  const T *__restrict__ c0, T *__restrict__ c) {
    KF_UNROLL for (int j = 0; j < N; ++j) {
        T acc[N];
        KF_UNROLL for (int i = 0; i < N; ++i) acc[i] = T(0);
        KF_UNROLL for (int p = 0; p < N; ++p) {
            const T bp = b[p + j * N];
            KF_UNROLL for (int i = 0; i < N; ++i) acc[i] += a[i + p * N] * bp;
        }
        if (beta == T(0)) {
            KF_UNROLL for (int i = 0; i < N; ++i) c[i + j * N] = alpha * acc[i];
        } else {
            KF_UNROLL for (int i = 0; i < N; ++i) c[i + j * N] = alpha * acc[i] + beta * c0[i + j * N];
        }
    }
}

// LU of the local N x N array, dgetf2 order of operations (lu_pivoted.hpp); ipiv NULL:
// no pivoting. Returns LAPACK's info.
template <int N, class T> KF_INLINE int lu(T *__restrict__ a, int *__restrict__ ipiv) {
    const T sfmin = std::numeric_limits<T>::min();
    int info = 0;
    KF_UNROLL for (int j = 0; j < N; ++j) {
        T pivot;
        if (ipiv) {
            int p = j;
            T amax = kabs(a[j + j * N]);
            KF_UNROLL for (int i = j + 1; i < N; ++i) {
                const T v = kabs(a[i + j * N]);
                if (v > amax) {
                    amax = v;
                    p = i;
                }
            }
            ipiv[j] = p + 1;
            pivot = a[p + j * N];
            if (pivot != T(0) && p != j) {
                KF_UNROLL for (int c = 0; c < N; ++c) {
                    const T t = a[j + c * N];
                    a[j + c * N] = a[p + c * N];
                    a[p + c * N] = t;
                }
            }
        } else {
            pivot = a[j + j * N];
        }
        if (pivot != T(0)) {
            if (kabs(pivot) >= sfmin) {
                const T r = T(1) / pivot;
                KF_UNROLL for (int i = j + 1; i < N; ++i) a[i + j * N] *= r;
            } else {
                KF_UNROLL for (int i = j + 1; i < N; ++i) a[i + j * N] /= pivot;
            }
        } else if (info == 0) {
            info = j + 1;
            if (!ipiv) { // as SerialLU: divide by the zero pivot (Inf/NaN, never a trap)
                KF_UNROLL for (int i = j + 1; i < N; ++i) a[i + j * N] /= pivot;
            }
        } else if (!ipiv) {
            KF_UNROLL for (int i = j + 1; i < N; ++i) a[i + j * N] /= pivot;
        }
        KF_UNROLL for (int c = j + 1; c < N; ++c) {
            const T u = a[j + c * N];
            KF_UNROLL for (int i = j + 1; i < N; ++i) a[i + c * N] -= a[i + j * N] * u;
        }
    }
    return info;
}

// b = op(A)^{-1} b for one right-hand side column (stride sb), A's factors local; at:
// the interchanges as row offsets (row_offsets in fixed_common.hpp), built once per item
// for all its columns and applied by the loads (NoTrans) or the stores (Trans).
template <int N, class T>
KF_INLINE void solve(bool trans, const T *__restrict__ a, const int64_t *__restrict__ at,
                     T *__restrict__ bp, int64_t sb) {
    T b[N];
    if (!trans) {
        KF_UNROLL for (int i = 0; i < N; ++i) b[i] = bp[at[i]];
        KF_UNROLL for (int j = 0; j < N; ++j) // L unit lower, column oriented
            KF_UNROLL for (int i = j + 1; i < N; ++i) b[i] -= a[i + j * N] * b[j];
        KF_UNROLL for (int j = N - 1; j >= 0; --j) {
            b[j] /= a[j + j * N];
            KF_UNROLL for (int i = 0; i < j; ++i) b[i] -= a[i + j * N] * b[j];
        }
        KF_UNROLL for (int i = 0; i < N; ++i) bp[i * sb] = b[i];
    } else {
        KF_UNROLL for (int i = 0; i < N; ++i) b[i] = bp[i * sb];
        KF_UNROLL for (int i = 0; i < N; ++i) { // U^T x = b: row i of U^T is column i of U
            T s = b[i];
            KF_UNROLL for (int k = 0; k < i; ++k) s -= a[k + i * N] * b[k];
            b[i] = s / a[i + i * N];
        }
        KF_UNROLL for (int i = N - 1; i >= 0; --i) { // L^T, unit upper
            T s = b[i];
            KF_UNROLL for (int k = i + 1; k < N; ++k) s -= a[k + i * N] * b[k];
            b[i] = s;
        }
        KF_UNROLL for (int i = 0; i < N; ++i) bp[at[i]] = b[i];
    }
}

// ---- batch loops per N and storage -------------------------------------------------

template <int N, bool UA, bool UB, bool UC, class T>
void gemm_n(T alpha, Items<const T> A, int lda, Items<const T> B, int ldb, T beta, Items<T> C,
            int ldc, int64_t batch) {
    loop(batch, [=](int64_t i) {
        T a[N * N], b[N * N], c0[N * N], c[N * N];
        T *const pc = item(C, i);
        if (alpha != T(0)) {
            load<N, N, UA>(a, item(A, i), lda);
            load<N, N, UB>(b, item(B, i), ldb);
        } else {
            KF_UNROLL for (int e = 0; e < N * N; ++e) a[e] = b[e] = T(0);
        }
        if (beta != T(0)) load<N, N, UC>(c0, pc, ldc);
        mm<N>(alpha, a, b, beta, c0, c);
        store<N, N, UC>(pc, c, ldc);
    });
}

template <int N, class T>
void gemm_sel(T alpha, Items<const T> A, Mat ma, Items<const T> B, Mat mb, T beta, Items<T> C,
              Mat mc, int64_t batch) {
    // A C stored by rows is computed as C^T = op(B)^T op(A)^T, so that every load and
    // store runs along the unit stride (op(B)^T has unit rows where op(B) has unit
    // columns).
    if (!mc.unit_rows) {
        const Items<const T> A2 = B, B2 = A;
        const Mat ma2{mb.ld, !mb.unit_rows}, mb2{ma.ld, !ma.unit_rows};
        A = A2;
        B = B2;
        ma = ma2;
        mb = mb2;
        mc.unit_rows = true;
    }
    with_flags(ma.unit_rows, mb.unit_rows, mc.unit_rows, [&](auto ua, auto ub, auto uc) {
        gemm_n<N, decltype(ua)::value, decltype(ub)::value, decltype(uc)::value>(
            alpha, A, ma.ld, B, mb.ld, beta, C, mc.ld, batch);
    });
}

template <int N, bool U, class T>
void getrf_n(Items<T> A, int lda, int *ipiv, int64_t sipiv, int *info, int64_t batch) {
    loop(batch, [=](int64_t i) {
        T a[N * N];
        T *const p = item(A, i);
        load<N, N, U>(a, p, lda);
        info[i] = lu<N>(a, ipiv ? ipiv + i * sipiv : nullptr);
        store<N, N, U>(p, a, lda);
    });
}

template <int N, bool U, class T>
void getrs_n(bool trans, int nrhs, Items<const T> A, int lda, const int *ipiv, int64_t sipiv,
             Items<T> B, Mat mb, int64_t batch) {
    const int64_t sb = mb.unit_rows ? 1 : mb.ld, sc = mb.unit_rows ? mb.ld : 1;
    // One right-hand side, the common call: the transpose flag fixed at compile time and no
    // loop over columns, so that nothing but the solve is left in the item loop (in cache,
    // n = 2..3: 1.5-1.8x faster than the general loop below, which tests both per item).
    if (nrhs == 1) {
        const auto one = [=](auto transposed) {
            loop(batch, [=](int64_t i) {
                T a[N * N];
                int64_t at[N];
                load<N, N, U>(a, item(A, i), lda);
                row_offsets<N>(at, ipiv ? ipiv + i * sipiv : nullptr, sb);
                solve<N>(decltype(transposed)::value, a, at, item(B, i), sb);
            });
        };
        if (trans) one(std::true_type{});
        else one(std::false_type{});
        return;
    }
    loop(batch, [=](int64_t i) {
        T a[N * N];
        int64_t at[N];
        load<N, N, U>(a, item(A, i), lda);
        row_offsets<N>(at, ipiv ? ipiv + i * sipiv : nullptr, sb);
        T *const pb = item(B, i);
        for (int r = 0; r < nrhs; ++r) solve<N>(trans, a, at, pb + r * sc, sb);
    });
}

// a0 is read only where beta != 0, after being loaded under the same test. Since the loop
// became one out-of-line copy (team.hpp, run_chunk) GCC 12 no longer ties the two tests
// together and reports a0 as used uninitialized, once per element and instance; the
// warning is false, so it is silenced for this kernel alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
template <int N, bool UX, bool UY, bool UA, class T>
void fused_n(T alpha, Items<const T> X, int ldx, Items<const T> Y, int ldy, T beta, Items<T> A,
             int lda, int *ipiv, int64_t sipiv, int nrhs, Items<T> B, Mat mb, int *info,
             int64_t batch) {
    const int64_t sb = mb.unit_rows ? 1 : mb.ld, sc = mb.unit_rows ? mb.ld : 1;
    loop(batch, [=](int64_t i) {
        T x[N * N], y[N * N], a0[N * N], a[N * N];
        T *const pa = item(A, i);
        if (alpha != T(0)) {
            load<N, N, UX>(x, item(X, i), ldx);
            load<N, N, UY>(y, item(Y, i), ldy);
        } else {
            KF_UNROLL for (int e = 0; e < N * N; ++e) x[e] = y[e] = T(0);
        }
        if (beta != T(0)) load<N, N, UA>(a0, pa, lda);
        mm<N>(alpha, x, y, beta, a0, a);
        int *const piv = ipiv ? ipiv + i * sipiv : nullptr;
        const int r = lu<N>(a, piv);
        store<N, N, UA>(pa, a, lda);
        info[i] = r;
        if (r == 0) {
            T *const pb = item(B, i);
            int64_t at[N];
            row_offsets<N>(at, piv, sb);
            for (int c = 0; c < nrhs; ++c) solve<N>(false, a, at, pb + c * sc, sb);
        }
    });
}
#pragma GCC diagnostic pop

template <int N, class T>
void fused_sel(T alpha, Items<const T> X, Mat mx, Items<const T> Y, Mat my, T beta, Items<T> A,
               Mat ma, int *ipiv, int64_t sipiv, int nrhs, Items<T> B, Mat mb, int *info,
               int64_t batch) {
    with_flags(mx.unit_rows, my.unit_rows, ma.unit_rows, [&](auto ux, auto uy, auto ua) {
        fused_n<N, decltype(ux)::value, decltype(uy)::value, decltype(ua)::value>(
            alpha, X, mx.ld, Y, my.ld, beta, A, ma.ld, ipiv, sipiv, nrhs, B, mb, info, batch);
    });
}

} // namespace

#define KF_SWITCH_N(call)                                                                       \
    switch (n) {                                                                                \
    case 1: call(1); break;                                                                     \
    case 2: call(2); break;                                                                     \
    case 3: call(3); break;                                                                     \
    case 4: call(4); break;                                                                     \
    case 5: call(5); break;                                                                     \
    case 6: call(6); break;                                                                     \
    case 7: call(7); break;                                                                     \
    case 8: call(8); break;                                                                     \
    default: break;                                                                             \
    }

namespace kobalt_openmp {
namespace fixed {
namespace KOBALT_FIXED_ISA {

template <class T>
void gemm(int n, T alpha, Items<const T> A, Mat a, Items<const T> B, Mat b, T beta, Items<T> C,
          Mat c, int64_t batch) {
#define KF_CALL(N) gemm_sel<N>(alpha, A, a, B, b, beta, C, c, batch)
    KF_SWITCH_N(KF_CALL)
#undef KF_CALL
}

template <class T>
void getrf(int n, Items<T> A, Mat a, int *ipiv, int64_t sipiv, int *info, int64_t batch) {
#define KF_CALL(N)                                                                              \
    (a.unit_rows ? getrf_n<N, true>(A, a.ld, ipiv, sipiv, info, batch)                          \
                 : getrf_n<N, false>(A, a.ld, ipiv, sipiv, info, batch))
    KF_SWITCH_N(KF_CALL)
#undef KF_CALL
}

template <class T>
void getrs(bool trans, int n, int nrhs, Items<const T> A, Mat a, const int *ipiv, int64_t sipiv,
           Items<T> B, Mat b, int64_t batch) {
#define KF_CALL(N)                                                                              \
    (a.unit_rows ? getrs_n<N, true>(trans, nrhs, A, a.ld, ipiv, sipiv, B, b, batch)             \
                 : getrs_n<N, false>(trans, nrhs, A, a.ld, ipiv, sipiv, B, b, batch))
    KF_SWITCH_N(KF_CALL)
#undef KF_CALL
}

template <class T>
void fused(int n, T alpha, Items<const T> X, Mat x, Items<const T> Y, Mat y, T beta, Items<T> A,
           Mat a, int *ipiv, int64_t sipiv, int nrhs, Items<T> B, Mat b, int *info,
           int64_t batch) {
#define KF_CALL(N) fused_sel<N>(alpha, X, x, Y, y, beta, A, a, ipiv, sipiv, nrhs, B, b, info, batch)
    KF_SWITCH_N(KF_CALL)
#undef KF_CALL
}

#define KF_INSTANTIATE(T)                                                                       \
    template void gemm<T>(int, T, Items<const T>, Mat, Items<const T>, Mat, T, Items<T>, Mat,  \
                          int64_t);                                                             \
    template void getrf<T>(int, Items<T>, Mat, int *, int64_t, int *, int64_t);                 \
    template void getrs<T>(bool, int, int, Items<const T>, Mat, const int *, int64_t, Items<T>, \
                           Mat, int64_t);                                                       \
    template void fused<T>(int, T, Items<const T>, Mat, Items<const T>, Mat, T, Items<T>, Mat,  \
                           int *, int64_t, int, Items<T>, Mat, int *, int64_t);
KF_INSTANTIATE(double)
KF_INSTANTIATE(float)

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
