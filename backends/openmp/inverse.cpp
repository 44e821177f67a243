// inverse.cpp -- C_i = A_i^{-1}, out of place: getri (A_i holds getrf's factors) and
// matinv (A_i itself: pivoted LU, then the inverse; A_i is not written).
//
// info[i] is LAPACK's: the first j with U(j,j) exactly zero (getri reads it off the
// factors' diagonal, matinv takes its LU's info), 0 otherwise. An item with info > 0
// leaves C_i untouched (LAPACK's dgetri too leaves its matrix alone then). ipiv == NULL
// in getri: factors without pivoting. Row-major items are the same logical matrices.
//
// Small path: C = I, then the two triangular solves of getrs (KokkosBatched) with the
// row interchanges: inv(P L U) = getrs applied to the identity. Large path: LAPACK
// dgetri, which works in place, on C itself (column-major) or on a column-major
// scratch copy (row-major, and matinv's LU).
#include <lapacke.h>

#include <algorithm>

#include "batch_access.hpp"
#include "lu_pivoted.hpp"
#include "slots.hpp"
#include "small_kernels.hpp"
#include "thread_scratch.hpp"
#include "views.hpp"

namespace kobalt_openmp {
namespace {

inline int getri_colmajor(int n, double *A, int lda, const int *ipiv, double *work, int lwork) {
    return LAPACKE_dgetri_work(LAPACK_COL_MAJOR, n, A, lda, ipiv, work, lwork);
}
inline int getri_colmajor(int n, float *A, int lda, const int *ipiv, float *work, int lwork) {
    return LAPACKE_sgetri_work(LAPACK_COL_MAJOR, n, A, lda, ipiv, work, lwork);
}
inline int getrf_colmajor(int n, double *A, int *ipiv) { return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, A, n, ipiv); }
inline int getrf_colmajor(int n, float *A, int *ipiv) { return LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, n, n, A, n, ipiv); }

// dgetri's optimal workspace for order n (a workspace query; at least n elements).
template <class T> int getri_lwork(int n) {
    T query = T(0), dummy = T(0);
    int piv = 1;
    getri_colmajor(n, &dummy, std::max(1, n), &piv, &query, -1);
    return std::max(n, int(query));
}

// LAPACK's getri info: the first exactly zero diagonal element of U, 1-based, or 0.
template <class View> int zero_diagonal(const View &U, int n) {
    for (int j = 0; j < n; ++j)
        if (U(j, j) == 0) return j + 1;
    return 0;
}

template <class T> void set_identity(const MatrixView<T> &C, int n) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) C(i, j) = i == j ? T(1) : T(0);
}

// dst (logical n x n) = src (logical n x n); either may be a column-major scratch.
template <class T, class S, class D> void copy_logical(const S &src, const D &dst, int n) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) dst(i, j) = src(i, j);
}

// inv(P L U) from factors LU: C = I, then getrs (interchanges, L and U solves).
template <class T> void invert_small(const MatrixView<const T> &LU, const int *ipiv, const MatrixView<T> &C, int n) {
    set_identity(C, n);
    small::getrs<T>(false, LU, ipiv, C);
}

// inv(P L U) with LAPACK dgetri, which inverts in place: on C itself when it is
// column-major, else on the column-major scratch W (n*n) and copied out.
template <class T>
void invert_vendor(const MatrixView<const T> &LU, const int *ipiv, const MatrixView<T> &C, int n, bool c_colmajor,
                   int ldc, T *W, T *work, int lwork) {
    if (c_colmajor) {
        copy_logical<T>(LU, C, n);
        getri_colmajor(n, C.data(), ldc, ipiv, work, lwork);
        return;
    }
    const MatrixView<T> w = matrix_view<T>(W, n, n, Strides{1, n});
    copy_logical<T>(LU, w, n);
    getri_colmajor(n, W, n, ipiv, work, lwork);
    copy_logical<T>(w, C, n);
}

template <class T, class AItems, class CItems>
kobalt_status getri(const char *routine, kobalt_layout layout, kobalt_int n, AItems A, kobalt_int lda,
                    const int *ipiv, kobalt_int strideIpiv, CItems C, kobalt_int ldc, int *info, kobalt_int batch) {
    if (!fits_int32<T>(routine, {{"n", n}, {"lda", lda}, {"ldc", ldc}})) return KOBALT_NOT_SUPPORTED;
    if (n == 0) {
        for (kobalt_int i = 0; i < batch; ++i) info[i] = 0;
        return KOBALT_SUCCESS;
    }
    const int nn = int(n);
    const Strides sa = strides_of(layout, lda), sc = strides_of(layout, ldc);
    const Path path = choose_path(GETRI_SMALL_MAX, n, std::max(lda, ldc), batch);
    if (path == Path::small) {
        for_each_item(batch, [&](kobalt_int i) {
            const MatrixView<const T> lu = matrix_view<const T>(A[i], n, n, sa);
            info[i] = zero_diagonal(lu, nn);
            if (info[i] == 0) invert_small<T>(lu, ipiv ? ipiv + i * strideIpiv : nullptr, matrix_view<T>(C[i], n, n, sc), nn);
        });
        return KOBALT_SUCCESS;
    }
    // dgetri needs pivots: the identity interchanges stand for ipiv == NULL.
    const bool col = layout == KOBALT_COL_MAJOR;
    const int lwork = getri_lwork<T>(nn);
    ThreadScratch<T> scratch;
    ThreadScratch<int> identity;
    if (!scratch.allocate(size_t(lwork) + (col ? 0 : size_t(nn) * size_t(nn))) ||
        !identity.allocate(ipiv ? 0 : size_t(nn))) {
        report(precision_letter<T>(), routine, "cannot allocate the dgetri workspace (n = %lld per thread)",
               (long long)n);
        return KOBALT_OUT_OF_MEMORY;
    }
    for_each_item_on(batch, path, [&](kobalt_int i) {
        const MatrixView<const T> lu = matrix_view<const T>(A[i], n, n, sa);
        info[i] = zero_diagonal(lu, nn);
        if (info[i] != 0) return;
        const int *piv = ipiv ? ipiv + i * strideIpiv : identity.mine();
        if (!ipiv)
            for (int j = 0; j < nn; ++j) identity.mine()[j] = j + 1;
        T *mine = scratch.mine();
        invert_vendor<T>(lu, piv, matrix_view<T>(C[i], n, n, sc), nn, col, int(ldc), mine + lwork, mine, lwork);
    });
    return KOBALT_SUCCESS;
}

// matinv: the logical A_i is copied into a column-major scratch W (A_i is an input),
// factored there with partial pivoting (dgetf2's pivots on the small path, LAPACK
// dgetrf on the large one), and inverted into C_i.
template <class T, class AItems, class CItems>
kobalt_status matinv(const char *routine, kobalt_layout layout, kobalt_int n, AItems A, kobalt_int lda, CItems C,
                     kobalt_int ldc, int *info, kobalt_int batch) {
    if (!fits_int32<T>(routine, {{"n", n}, {"lda", lda}, {"ldc", ldc}})) return KOBALT_NOT_SUPPORTED;
    if (n == 0) {
        for (kobalt_int i = 0; i < batch; ++i) info[i] = 0;
        return KOBALT_SUCCESS;
    }
    const int nn = int(n);
    const Strides sa = strides_of(layout, lda), sc = strides_of(layout, ldc);
    const Path path = choose_path(GETRI_SMALL_MAX, n, std::max({lda, ldc, n}), batch);
    const int lwork = path == Path::small ? 0 : getri_lwork<T>(nn);
    ThreadScratch<T> scratch;
    ThreadScratch<int> pivots;
    if (!scratch.allocate(size_t(nn) * size_t(nn) + size_t(lwork)) || !pivots.allocate(size_t(nn))) {
        report(precision_letter<T>(), routine, "cannot allocate the LU workspace (n = %lld per thread)", (long long)n);
        return KOBALT_OUT_OF_MEMORY;
    }
    for_each_item_on(batch, path, [&](kobalt_int i) {
        T *W = scratch.mine();
        int *piv = pivots.mine();
        const MatrixView<T> w = matrix_view<T>(W, n, n, Strides{1, n});
        copy_logical<T>(matrix_view<const T>(A[i], n, n, sa), w, nn);
        const int r = path == Path::small ? lu_pivoted_strided<T, 1, 0>(nn, nn, W, 1, nn, piv)
                                          : getrf_colmajor(nn, W, piv);
        info[i] = r;
        if (r != 0) return;
        const MatrixView<const T> lu = matrix_view<const T>(W, n, n, Strides{1, n});
        const MatrixView<T> c = matrix_view<T>(C[i], n, n, sc);
        if (path == Path::small) {
            invert_small<T>(lu, piv, c, nn);
        } else {
            getri_colmajor(nn, W, nn, piv, W + size_t(nn) * size_t(nn), lwork);
            copy_logical<T>(w, c, nn);
        }
    });
    return KOBALT_SUCCESS;
}

} // namespace

template <class Real>
kobalt_status getri_strided(kobalt_layout layout, kobalt_int n, const Real *A, kobalt_int lda, kobalt_int strideA,
                            const int *ipiv, kobalt_int strideIpiv, Real *C, kobalt_int ldc, kobalt_int strideC,
                            int *info, kobalt_int batch) {
    return getri<Real>("getri_strided", layout, n, StridedItems<const Real>{A, strideA}, lda, ipiv, strideIpiv,
                       StridedItems<Real>{C, strideC}, ldc, info, batch);
}

template <class Real>
kobalt_status getri_batched(kobalt_layout layout, kobalt_int n, const Real *const A[], kobalt_int lda,
                            const int *ipiv, kobalt_int strideIpiv, Real *const C[], kobalt_int ldc, int *info,
                            kobalt_int batch) {
    return getri<Real>("getri_batched", layout, n, PointerItems<const Real>{A}, lda, ipiv, strideIpiv,
                       PointerItems<Real>{C}, ldc, info, batch);
}

template <class Real>
kobalt_status matinv_strided(kobalt_layout layout, kobalt_int n, const Real *A, kobalt_int lda, kobalt_int strideA,
                             Real *C, kobalt_int ldc, kobalt_int strideC, int *info, kobalt_int batch) {
    return matinv<Real>("matinv_strided", layout, n, StridedItems<const Real>{A, strideA}, lda,
                        StridedItems<Real>{C, strideC}, ldc, info, batch);
}

template <class Real>
kobalt_status matinv_batched(kobalt_layout layout, kobalt_int n, const Real *const A[], kobalt_int lda,
                             Real *const C[], kobalt_int ldc, int *info, kobalt_int batch) {
    return matinv<Real>("matinv_batched", layout, n, PointerItems<const Real>{A}, lda, PointerItems<Real>{C}, ldc,
                        info, batch);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(getri_strided)
KOBALT_OPENMP_INSTANTIATE(getri_batched)
KOBALT_OPENMP_INSTANTIATE(matinv_strided)
KOBALT_OPENMP_INSTANTIATE(matinv_batched)
