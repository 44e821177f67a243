// fixed_blas2.cpp -- compile-time-n gemv and triangular solves (trsv, trsm) of
// fixed_kernels.hpp. Compiled once per ISA, as fixed_kernels.cpp (see fixed_common.hpp).
//
// The small path ran these through KokkosBatched's Serial functors on strided views:
// runtime sizes and strides for every element, 0.3-0.9x of Eigen's fixed-size maps and of
// KokkosBatched called directly at n <= 16 (docs/performance.md, issue 3). Here the
// dimension that the inner loops run along is a template parameter, so those loops are
// unrolled into straight-line code on registers, and the item loop does nothing else.
// gemv's kernels are written on 16-byte GCC vector types (register-blocked): GCC had left
// their scalar loop nests unvectorised, 0.79-0.90x of the best peer at n = 10..16.
#include "direct_vectors.hpp"
#include "fixed_common.hpp"

#include <cstdint>
#include <type_traits>

// On a lambda, after its parameter list: inlined into its caller (GCC otherwise outlines
// the larger item bodies and calls them once per item).
#define KF_INLINE_LAMBDA __attribute__((always_inline))

namespace {

// ---- gemv: y = alpha op(A) x + beta y, x and y unit stride --------------------------
// beta == 0 never reads y, alpha == 0 never reads A or x (the small path's rules).

// op(A) with unit-stride columns (element (i, j) at i + j*ld), scalar form: y
// accumulates M values in registers, one axpy per column. NC > 0: the column count is
// known too (square items), so the column loop unrolls as well; NC == 0: n columns at run
// time. Taken only where no vector fits a column (gemv_cols below); GCC does not
// vectorise this loop nest (it emitted 16 scalar FMA chains and spills at M = 16).
template <int M, int NC, class T>
void gemv_cols_scalar(int n, T alpha, Items<const T> A, int64_t ld, Items<const T> X, T beta,
                      Items<T> Y, int64_t batch) {
    loop(batch, [=](int64_t it) {
        const T *__restrict__ a = item(A, it);
        const T *__restrict__ x = item(X, it);
        T *__restrict__ y = item(Y, it);
        const int nc = NC > 0 ? NC : n;
        T acc[M];
        KF_UNROLL for (int i = 0; i < M; ++i) acc[i] = T(0);
        if (alpha != T(0)) {
            KF_UNROLL for (int j = 0; j < nc; ++j) {
                const T xj = x[j];
                KF_UNROLL for (int i = 0; i < M; ++i) acc[i] += a[i + j * ld] * xj;
            }
        }
        if (beta == T(0)) {
            KF_UNROLL for (int i = 0; i < M; ++i) y[i] = alpha * acc[i];
        } else {
            KF_UNROLL for (int i = 0; i < M; ++i) y[i] = alpha * acc[i] + beta * y[i];
        }
    });
}

// Lanes of the vectors the gemv kernels use: 16 bytes (SSE2 in the baseline copy; the
// AVX2 copy gets FMA and VEX forms of the same width), 0 when M is shorter than that.
// 32-byte vectors in the AVX2 copy were tried: 1.1-1.5x faster than these in cache, but
// from memory (kobalt-bench --mb 64) 0.70-0.89x of them at d n = 16 (s n = 16: 0.84-1.04)
// and behind Eigen there (0.87-1.11, s 0.91-1.00). Likely cause: with items on 16-byte
// boundaries (malloc), half of the 32-byte loads of a column straddle two cache lines
// (docs/performance.md, "Register-blocked gemv").
template <class T, int M> constexpr int vec_width() {
    constexpr int w = int(16 / sizeof(T));
    return M >= w ? w : 0;
}

// Register-blocked form of the same product: y's M values in NV vectors of W lanes, the
// last one starting at M - W (so it overlaps the one before when W does not divide M:
// every load and store stays inside the column, and the overlapped rows get the same
// operations in both vectors, hence the same bits); per column one broadcast of x[j] and
// NV FMAs. With only one or two vectors the columns alternate between K sets of
// accumulators, summed at the end, so that K independent FMA chains run instead of one
// (the chain, 4 cycles per column, would bound the item otherwise).
template <int M, int NC, class T>
void gemv_cols(int n, T alpha, Items<const T> A, int64_t ld, Items<const T> X, T beta,
               Items<T> Y, int64_t batch) {
    constexpr int W = vec_width<T, M>();
    if constexpr (W == 0) {
        gemv_cols_scalar<M, NC>(n, alpha, A, ld, X, beta, Y, batch);
    } else {
        using S = Vec<T, W * int(sizeof(T))>;
        using V = typename S::V;
        constexpr int NV = (M + W - 1) / W;
        constexpr int K = NV == 1 ? 4 : NV == 2 ? 2 : 1;
        const auto off = [](int v) { return v < NV - 1 ? v * W : M - W; };
        loop(batch, [=](int64_t it) KF_INLINE_LAMBDA {
            const T *__restrict__ a = item(A, it);
            const T *__restrict__ x = item(X, it);
            T *__restrict__ y = item(Y, it);
            const int nc = NC > 0 ? NC : n;
            V acc[K][NV];
            KF_UNROLL for (int k = 0; k < K; ++k)
                KF_UNROLL for (int v = 0; v < NV; ++v) acc[k][v] = V{};
            if (alpha != T(0)) {
                int j = 0;
                // K columns per step, column j + k into set k.
                KF_UNROLL for (; j + K <= nc; j += K) {
                    KF_UNROLL for (int k = 0; k < K; ++k) {
                        const T *col = a + (j + k) * ld;
                        const V xj = S::splat(x[j + k]);
                        KF_UNROLL for (int v = 0; v < NV; ++v)
                            acc[k][v] += S::load(col + off(v)) * xj;
                    }
                }
                KF_UNROLL for (; j < nc; ++j) {
                    const T *col = a + j * ld;
                    const V xj = S::splat(x[j]);
                    KF_UNROLL for (int v = 0; v < NV; ++v) acc[0][v] += S::load(col + off(v)) * xj;
                }
                KF_UNROLL for (int k = 1; k < K; ++k)
                    KF_UNROLL for (int v = 0; v < NV; ++v) acc[0][v] += acc[k][v];
            }
            V out[NV];
            if (beta == T(0)) {
                KF_UNROLL for (int v = 0; v < NV; ++v) out[v] = alpha * acc[0][v];
            } else {
                // All of y is read before any store: the last vector overlaps.
                KF_UNROLL for (int v = 0; v < NV; ++v)
                    out[v] = alpha * acc[0][v] + beta * S::load(y + off(v));
            }
            KF_UNROLL for (int v = 0; v < NV; ++v) __builtin_memcpy(y + off(v), &out[v], sizeof(V));
        });
    }
}

// y = beta*y over nr rows: the row kernels' alpha == 0 case, where A and x are not read
// (and beta == 0 writes zeros without reading y, so a NaN there does not survive).
template <class T> KF_INLINE void scale_only(int nr, T beta, T *__restrict__ y) {
    KF_UNROLL for (int i = 0; i < nr; ++i) y[i] = beta == T(0) ? T(0) : beta * y[i];
}

// op(A) with unit-stride rows (element (i, j) at i*ld + j), scalar form: x's N values
// held in registers, one dot product per row. NR as NC above, for the rows. Taken only
// where no vector fits a row (gemv_rows below).
template <int N, int NR, class T>
void gemv_rows_scalar(int m, T alpha, Items<const T> A, int64_t ld, Items<const T> X, T beta,
                      Items<T> Y, int64_t batch) {
    loop(batch, [=](int64_t it) {
        const T *__restrict__ a = item(A, it);
        const T *__restrict__ x = item(X, it);
        T *__restrict__ y = item(Y, it);
        const int nr = NR > 0 ? NR : m;
        if (alpha == T(0)) {
            scale_only(nr, beta, y);
            return;
        }
        T xv[N];
        KF_UNROLL for (int j = 0; j < N; ++j) xv[j] = x[j];
        KF_UNROLL for (int i = 0; i < nr; ++i) {
            T s = T(0);
            KF_UNROLL for (int j = 0; j < N; ++j) s += a[i * ld + j] * xv[j];
            y[i] = beta == T(0) ? alpha * s : alpha * s + beta * y[i];
        }
    });
}

// Sum of the lanes of a 16-byte vector v (vec_width), as a tree.
template <class T, int W, class V> KF_INLINE T lane_sum(V v) {
    static_assert(W * sizeof(T) == 16, "lane_sum: 16-byte vectors only");
    if constexpr (W == 4) return (v[0] + v[2]) + (v[1] + v[3]);
    else return v[0] + v[1];
}

// Register-blocked form of the row dots: x's N values in NV vectors of W lanes, the last
// one starting at N - W, with the lanes that the vector before already covers set to
// zero in both x and the row (0 * 0, so an Inf or NaN there is not counted twice); per
// row NV loads and FMAs into one vector, then a tree sum of its lanes. The rows are
// independent, so the unrolled row loop gives the core several chains at once.
template <int N, int NR, class T>
void gemv_rows(int m, T alpha, Items<const T> A, int64_t ld, Items<const T> X, T beta,
               Items<T> Y, int64_t batch) {
    constexpr int W = vec_width<T, N>();
    if constexpr (W == 0) {
        gemv_rows_scalar<N, NR>(m, alpha, A, ld, X, beta, Y, batch);
    } else {
        using S = Vec<T, W * int(sizeof(T))>;
        using V = typename S::V;
        constexpr int NV = (N + W - 1) / W;
        constexpr int SKIP = NV * W - N; // lanes of the last vector covered before
        const auto off = [](int v) { return v < NV - 1 ? v * W : N - W; };
        const typename S::VI keep = S::iota() >= typename S::I(SKIP);
        loop(batch, [=](int64_t it) KF_INLINE_LAMBDA {
            const T *__restrict__ a = item(A, it);
            const T *__restrict__ x = item(X, it);
            T *__restrict__ y = item(Y, it);
            const int nr = NR > 0 ? NR : m;
            if (alpha == T(0)) {
                scale_only(nr, beta, y);
                return;
            }
            V xv[NV];
            KF_UNROLL for (int v = 0; v < NV; ++v) xv[v] = S::load(x + off(v));
            if (SKIP > 0) xv[NV - 1] = keep != 0 ? xv[NV - 1] : V{};
            const auto dot = [&](int i) KF_INLINE_LAMBDA {
                const T *row = a + i * ld;
                V last = S::load(row + off(NV - 1));
                if (SKIP > 0) last = keep != 0 ? last : V{};
                V acc = last * xv[NV - 1];
                KF_UNROLL for (int v = 0; v < NV - 1; ++v) acc += S::load(row + off(v)) * xv[v];
                return lane_sum<T, W>(acc);
            };
            // beta tested once per item, not once per row.
            if (beta == T(0)) {
                KF_UNROLL for (int i = 0; i < nr; ++i) y[i] = alpha * dot(i);
            } else {
                KF_UNROLL for (int i = 0; i < nr; ++i) y[i] = alpha * dot(i) + beta * y[i];
            }
        });
    }
}

// ---- triangular solve: B = alpha opA^{-1} B, opA N x N -------------------------------
// B is ncols columns of N elements: element r of column c at r*brs + c*bcs (trsv: one
// column, brs = incx). The triangle is loaded once per item into a local array, the
// diagonal as reciprocals (N independent divisions, instead of one division on the
// dependency chain of every step; as KokkosBatched's trsm does). alpha == 0 zeroes B
// without reading A (the small path's rule). trsv (one column, alpha = 1) has its own
// loop: A read in place, a division per diagonal element, the lambda's state copied;
// 1.0-2.7x faster than the general loop at n = 2..8 in an A/B run (docs/performance.md).
template <int N, bool Lower, bool Unit, bool UA, class T>
void trsm_n(int ncols, T alpha, Items<const T> A, int64_t lda, Items<T> B, int64_t brs,
            int64_t bcs, int64_t batch) {
    // trsv (one column, alpha = 1): no scaling, no column loop, no alpha test per item.
    if (ncols == 1 && alpha == T(1)) {
        loop(batch, [=](int64_t it) {
            T *__restrict__ col = item(B, it);
            const T *__restrict__ pa = item(A, it);
            T b[N];
            KF_UNROLL for (int r = 0; r < N; ++r) b[r] = col[r * brs];
            if (Lower) {
                KF_UNROLL for (int j = 0; j < N; ++j) {
                    if (!Unit) b[j] /= UA ? pa[j + j * lda] : pa[j * lda + j];
                    KF_UNROLL for (int i = j + 1; i < N; ++i)
                        b[i] -= (UA ? pa[i + j * lda] : pa[i * lda + j]) * b[j];
                }
            } else {
                KF_UNROLL for (int j = N - 1; j >= 0; --j) {
                    if (!Unit) b[j] /= UA ? pa[j + j * lda] : pa[j * lda + j];
                    KF_UNROLL for (int i = 0; i < j; ++i)
                        b[i] -= (UA ? pa[i + j * lda] : pa[i * lda + j]) * b[j];
                }
            }
            KF_UNROLL for (int r = 0; r < N; ++r) col[r * brs] = b[r];
        });
        return;
    }
    loop(batch, [&](int64_t it) {
        T *__restrict__ pb = item(B, it);
        if (alpha == T(0)) {
            for (int c = 0; c < ncols; ++c)
                KF_UNROLL for (int r = 0; r < N; ++r) pb[r * brs + c * bcs] = T(0);
            return;
        }
        const T *__restrict__ pa = item(A, it);
        T a[N * N], inv[N];
        KF_UNROLL for (int j = 0; j < N; ++j) {
            KF_UNROLL for (int i = 0; i < N; ++i) {
                if (Lower ? i > j : i < j) a[i + j * N] = UA ? pa[i + j * lda] : pa[i * lda + j];
            }
            if (!Unit) inv[j] = T(1) / (UA ? pa[j + j * lda] : pa[j * lda + j]);
        }
        for (int c = 0; c < ncols; ++c) {
            T b[N];
            T *__restrict__ col = pb + c * bcs;
            KF_UNROLL for (int r = 0; r < N; ++r) b[r] = alpha * col[r * brs];
            if (Lower) {
                KF_UNROLL for (int j = 0; j < N; ++j) {
                    if (!Unit) b[j] *= inv[j];
                    KF_UNROLL for (int i = j + 1; i < N; ++i) b[i] -= a[i + j * N] * b[j];
                }
            } else {
                KF_UNROLL for (int j = N - 1; j >= 0; --j) {
                    if (!Unit) b[j] *= inv[j];
                    KF_UNROLL for (int i = 0; i < j; ++i) b[i] -= a[i + j * N] * b[j];
                }
            }
            KF_UNROLL for (int r = 0; r < N; ++r) col[r * brs] = b[r];
        }
    });
}

template <int N, class T>
void trsm_sel(bool lower, bool unit, int ncols, T alpha, Items<const T> A, Mat ma, Items<T> B,
              int64_t brs, int64_t bcs, int64_t batch) {
    with_flags(lower, unit, ma.unit_rows, [&](auto lo, auto un, auto ua) {
        trsm_n<N, decltype(lo)::value, decltype(un)::value, decltype(ua)::value>(
            ncols, alpha, A, ma.ld, B, brs, bcs, batch);
    });
}

} // namespace

#define KF_SWITCH_16(v, call)                                                                   \
    switch (v) {                                                                                \
    case 1: call(1); break;                                                                     \
    case 2: call(2); break;                                                                     \
    case 3: call(3); break;                                                                     \
    case 4: call(4); break;                                                                     \
    case 5: call(5); break;                                                                     \
    case 6: call(6); break;                                                                     \
    case 7: call(7); break;                                                                     \
    case 8: call(8); break;                                                                     \
    case 9: call(9); break;                                                                     \
    case 10: call(10); break;                                                                   \
    case 11: call(11); break;                                                                   \
    case 12: call(12); break;                                                                   \
    case 13: call(13); break;                                                                   \
    case 14: call(14); break;                                                                   \
    case 15: call(15); break;                                                                   \
    case 16: call(16); break;                                                                   \
    default: break;                                                                             \
    }

namespace kobalt_openmp {
namespace fixed {
namespace KOBALT_FIXED_ISA {

// op(A) is m x n; the dimension along its unit stride is fixed (at most
// FIXED_GEMV_MAX_N), the other too when both are equal.
template <class T>
void gemv(int m, int n, T alpha, Items<const T> A, Mat a, Items<const T> x, T beta, Items<T> y,
          int64_t batch) {
    if (a.unit_rows) {
#define KF_CALL(M)                                                                              \
    (n == M ? gemv_cols<M, M>(n, alpha, A, a.ld, x, beta, y, batch)                             \
            : gemv_cols<M, 0>(n, alpha, A, a.ld, x, beta, y, batch))
        KF_SWITCH_16(m, KF_CALL)
#undef KF_CALL
    } else {
#define KF_CALL(N)                                                                              \
    (m == N ? gemv_rows<N, N>(m, alpha, A, a.ld, x, beta, y, batch)                             \
            : gemv_rows<N, 0>(m, alpha, A, a.ld, x, beta, y, batch))
        KF_SWITCH_16(n, KF_CALL)
#undef KF_CALL
    }
}

// Left-side solve with the n x n triangle opA (lower: its lower triangle) on the
// ncols columns of B; the callers reduce trsv and every trsm side/transpose to this.
template <class T>
void trsm(bool lower, bool unit, int n, int ncols, T alpha, Items<const T> A, Mat a, Items<T> B,
          int64_t brs, int64_t bcs, int64_t batch) {
#define KF_CALL(N) trsm_sel<N>(lower, unit, ncols, alpha, A, a, B, brs, bcs, batch)
    switch (n) {
    case 1: KF_CALL(1); break;
    case 2: KF_CALL(2); break;
    case 3: KF_CALL(3); break;
    case 4: KF_CALL(4); break;
    case 5: KF_CALL(5); break;
    case 6: KF_CALL(6); break;
    case 7: KF_CALL(7); break;
    case 8: KF_CALL(8); break;
    default: break;
    }
#undef KF_CALL
}

#define KF_INSTANTIATE(T)                                                                       \
    template void gemv<T>(int, int, T, Items<const T>, Mat, Items<const T>, T, Items<T>,        \
                          int64_t);                                                             \
    template void trsm<T>(bool, bool, int, int, T, Items<const T>, Mat, Items<T>, int64_t,      \
                          int64_t, int64_t);
KF_INSTANTIATE(double)
KF_INSTANTIATE(float)

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
