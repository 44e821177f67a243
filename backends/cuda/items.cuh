// items.cuh -- the per-item kernels: one thread computes one item on views (Mat, Vec)
// that point at global memory or at the item's staged copy in shared memory.
// Semantics follow the openmp backend (LAPACK dgetf2 pivots and info, BLAS edge cases).
#ifndef KOBALT_CUDA_ITEMS_CUH
#define KOBALT_CUDA_ITEMS_CUH

#include "common.cuh"

namespace kobalt_cuda {

// C = alpha A B + beta C; A m x k, B k x n (already op-applied views). beta == 0: C not
// read; alpha == 0 (readAB false): A and B not read.
template <class T>
__device__ void gemm_item(int m, int n, int k, T alpha, Mat<const T> A, Mat<const T> B, T beta,
                          Mat<T> C, bool readAB) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            T acc = T(0);
            if (readAB)
                for (int p = 0; p < k; ++p) acc += A(i, p) * B(p, j);
            const T v = alpha * acc;
            C(i, j) = beta == T(0) ? v : v + beta * C(i, j);
        }
}

template <class T>
__device__ void gemv_item(int rows, int cols, T alpha, Mat<const T> A, Vec<const T> x, T beta,
                          Vec<T> y, bool readAx) {
    for (int i = 0; i < rows; ++i) {
        T acc = T(0);
        if (readAx)
            for (int j = 0; j < cols; ++j) acc += A(i, j) * x[j];
        const T v = alpha * acc;
        y[i] = beta == T(0) ? v : v + beta * y[i];
    }
}

// Solves M x = b in place, M n x n lower or upper triangular.
template <class T, class MT>
__device__ void tri_solve(int n, bool lower, bool unit, Mat<MT> M, Vec<T> x) {
    if (lower) {
        for (int i = 0; i < n; ++i) {
            T v = x[i];
            for (int j = 0; j < i; ++j) v -= M(i, j) * x[j];
            if (!unit) v /= M(i, i);
            x[i] = v;
        }
    } else {
        for (int i = n - 1; i >= 0; --i) {
            T v = x[i];
            for (int j = i + 1; j < n; ++j) v -= M(i, j) * x[j];
            if (!unit) v /= M(i, i);
            x[i] = v;
        }
    }
}

// B = alpha op(A)^{-1} B (left) or alpha B op(A)^{-1} (right). M = op(A) as a view, lower
// its effective triangle.
template <class T>
__device__ void trsm_item(bool left, bool lower, bool unit, int m, int n, T alpha, Mat<const T> M,
                          Mat<T> B) {
    if (alpha == T(0)) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) B(i, j) = T(0);
        return;
    }
    if (left) {
        for (int j = 0; j < n; ++j) {
            Vec<T> b{&B(0, j), B.rs};
            if (alpha != T(1))
                for (int i = 0; i < m; ++i) b[i] *= alpha;
            tri_solve(m, lower, unit, M, b);
        }
    } else { // X op(A) = alpha B  <=>  op(A)^T X^T = alpha B^T
        for (int i = 0; i < m; ++i) {
            Vec<T> b{&B(i, 0), B.cs};
            if (alpha != T(1))
                for (int j = 0; j < n; ++j) b[j] *= alpha;
            tri_solve(n, !lower, unit, M.t(), b);
        }
    }
}

// dgetf2: partial pivoting (first largest |a|), 1-based ipiv, info = first exactly-zero
// pivot, a zero pivot leaves its column unscaled and the factorisation goes on.
// ipiv == NULL: no pivoting (divides by the pivot; info = first zero U(j,j)). Pivot j is
// stored at ipiv[j * inc] (inc > 1: the general-stride descriptors of desc.cu).
template <class T> __device__ int getrf_item(int m, int n, Mat<T> A, int *ipiv, idx inc = 1) {
    const int kmin = m < n ? m : n;
    int info = 0;
    for (int j = 0; j < kmin; ++j) {
        if (ipiv) {
            int p = j;
            T amax = fabs(A(j, j));
            for (int i = j + 1; i < m; ++i) {
                const T v = fabs(A(i, j));
                if (v > amax) {
                    amax = v;
                    p = i;
                }
            }
            ipiv[j * inc] = p + 1;
            const T pivot = A(p, j);
            if (pivot != T(0)) {
                if (p != j)
                    for (int c = 0; c < n; ++c) {
                        const T t = A(j, c);
                        A(j, c) = A(p, c);
                        A(p, c) = t;
                    }
                if (fabs(pivot) >= sfmin<T>()) {
                    const T r = T(1) / pivot;
                    for (int i = j + 1; i < m; ++i) A(i, j) *= r;
                } else {
                    for (int i = j + 1; i < m; ++i) A(i, j) /= pivot;
                }
            } else if (info == 0) {
                info = j + 1;
            }
        } else {
            const T pivot = A(j, j);
            for (int i = j + 1; i < m; ++i) A(i, j) /= pivot;
        }
        for (int c = j + 1; c < n; ++c) {
            const T u = A(j, c);
            for (int i = j + 1; i < m; ++i) A(i, c) -= A(i, j) * u;
        }
    }
    if (!ipiv)
        for (int j = 0; j < kmin; ++j)
            if (A(j, j) == T(0)) return j + 1;
    return info;
}

template <class T> __device__ void swap_rows(Mat<T> B, int nrhs, int k, int p) {
    if (p == k) return;
    for (int c = 0; c < nrhs; ++c) {
        const T t = B(k, c);
        B(k, c) = B(p, c);
        B(p, c) = t;
    }
}

// B = op(A)^{-1} B from getrf's factors (ipiv NULL: no row interchanges; pivot k at
// ipiv[k * inc]).
template <class T>
__device__ void getrs_item(bool trans, int n, int nrhs, Mat<const T> A, const int *ipiv, Mat<T> B, idx inc = 1) {
    if (!trans && ipiv)
        for (int k = 0; k < n; ++k) swap_rows(B, nrhs, k, ipiv[k * inc] - 1);
    for (int c = 0; c < nrhs; ++c) {
        Vec<T> b{&B(0, c), B.rs};
        if (!trans) {
            tri_solve(n, true, true, A, b);
            tri_solve(n, false, false, A, b);
        } else {
            tri_solve(n, true, false, A.t(), b); // U^T: lower, non-unit
            tri_solve(n, false, true, A.t(), b); // L^T: upper, unit
        }
    }
    if (trans && ipiv)
        for (int k = n - 1; k >= 0; --k) swap_rows(B, nrhs, k, ipiv[k * inc] - 1);
}

} // namespace kobalt_cuda

#endif
