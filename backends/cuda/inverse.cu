// inverse.cu -- getri and matinv on the GPU (docs/cuda.md): C_i = A_i^{-1}, out of place,
// with the semantics of the openmp backend (backends/openmp/inverse.cpp): info[i] = the
// first j with U(j,j) exactly zero (getri: read off the factors; matinv: its LU's info,
// dgetf2 pivots), C_i untouched where info[i] > 0, ipiv == NULL = no pivoting (getri).
//
// n <= 32: group kernels (group_ops.cuh), lane r holding row r of the factors in
// registers; the inverse is solved column by column, column c from the r-th unit
// vector P^T e_c, where each lane finds its row of P^T once from the pivots. matinv
// runs getrf's register LU first, in the same kernel: the matrix is read once and the
// inverse written once. Larger n: one thread per item on global memory (correct, not
// fast; docs/cuda.md).
#include "common.cuh"
#include "group_ops.cuh"
#include "items.cuh"
#include "slots.cuh"

namespace kobalt_cuda {
namespace {

using namespace group;

// First j (1-based) with a zero diagonal element in the rows of the group, or 0.
template <int W, class T> __device__ __forceinline__ int first_zero_diagonal(const T (&a)[W], int n, int lane) {
    const bool z = lane < n && get(a, lane) == T(0);
    const unsigned bal = __ballot_sync(kFull, z);
    const unsigned g = W == 32 ? bal : (bal >> ((threadIdx.x & 31) / W * W)) & ((1u << (W & 31)) - 1);
    return g ? __ffs(int(g)) : 0;
}

// C = (P L U)^{-1} from the factors in registers (lane r: row r), mp = lane's 0-based
// pivot. Column c of the inverse solves L U x = P^T e_c; applying the interchanges to
// the index vector tells lane r which unit vector entry it holds (row == c).
template <int W, class T, class CA>
__device__ __forceinline__ void invert_rows(int n, const T (&a)[W], int mp, bool pivot, int lane, bool write,
                                            const MatDesc &dC, CA C, idx item) {
    const int row = pivot ? permute<W>(lane, mp, n, lane, true) : lane;
    Mat<T> vc{nullptr, 0, 0};
    if (write) vc = dC.global(C(item));
    for (int c = 0; c < n; ++c) {
        T b = (lane < n && row == c) ? T(1) : T(0);
        solve_rows<W>(n, a, b, lane, true, false);
        if (write && lane < n) vc(lane, c) = b;
    }
}

template <int W, class T, class AA, class CA>
__global__ void __launch_bounds__(kThreads) getri_group(int n, MatDesc dA, AA A, const int *ipiv, idx sp,
                                                        MatDesc dC, CA C, int *info, idx batch) {
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        Mat<const T> va{nullptr, 0, 0};
        if (valid) va = dA.global<const T>(A(item));
        T a[W];
#pragma unroll
        for (int c = 0; c < W; ++c) a[c] = (valid && lane < n && c < n) ? va(lane, c) : T(0);
        int mp = lane;
        if (ipiv && valid && lane < n) mp = ipiv[item * sp + lane] - 1;
        const int r = first_zero_diagonal<W>(a, n, lane);
        if (valid && lane == 0) info[item] = r;
        invert_rows<W, T>(n, a, mp, ipiv != nullptr, lane, valid && r == 0, dC, C, item);
    }
}

template <int W, class T, class AA, class CA>
__global__ void __launch_bounds__(kThreads) matinv_group(int n, MatDesc dA, AA A, MatDesc dC, CA C, int *info,
                                                         idx batch) {
    KOBALT_GROUP_LOOP(W) {
        const idx item = base + threadIdx.x / W;
        const bool valid = item < batch;
        Mat<const T> va{nullptr, 0, 0};
        if (valid) va = dA.global<const T>(A(item));
        T a[W];
#pragma unroll
        for (int c = 0; c < W; ++c) a[c] = (valid && lane < n && c < n) ? va(lane, c) : T(0);
        int mypiv;
        const int r = lu_rows<W>(n, n, a, lane, true, mypiv);
        if (valid && lane == 0) info[item] = r;
        invert_rows<W, T>(n, a, mypiv, true, lane, valid && r == 0, dC, C, item);
    }
}

template <class T, class AA, class CA>
bool group_getri(int n, MatDesc dA, AA A, const int *ipiv, idx sp, MatDesc dC, CA C, int *info, idx batch,
                 cudaStream_t st) {
    KOBALT_GROUP_SWITCH(n, (getri_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(n, dA, A, ipiv, sp, dC, C,
                                                                                        info, batch)))
}
template <class T, class AA, class CA>
bool group_matinv(int n, MatDesc dA, AA A, MatDesc dC, CA C, int *info, idx batch, cudaStream_t st) {
    KOBALT_GROUP_SWITCH(n, (matinv_group<W, T><<<grid_for<W>(batch), kThreads, 0, st>>>(n, dA, A, dC, C, info,
                                                                                         batch)))
}

// ---- one thread per item (n above the group kernels) -------------------------------------
#define KOBALT_ITEM_LOOP(i)                                                                        \
    for (idx i = idx(blockIdx.x) * blockDim.x + threadIdx.x; i < batch; i += idx(gridDim.x) * blockDim.x)

template <class T> __device__ void set_identity(const Mat<T> &c, int n) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) c(i, j) = i == j ? T(1) : T(0);
}

template <class T, class AA, class CA>
__global__ void getri_kernel(int n, MatDesc dA, AA A, const int *ipiv, idx sp, MatDesc dC, CA C, int *info,
                             idx batch) {
    KOBALT_ITEM_LOOP(i) {
        const Mat<const T> a = dA.global<const T>(A(i));
        int r = 0;
        for (int j = 0; j < n && r == 0; ++j)
            if (a(j, j) == T(0)) r = j + 1;
        info[i] = r;
        if (r != 0) continue;
        const Mat<T> c = dC.global(C(i));
        set_identity(c, n);
        getrs_item<T>(false, n, n, a, ipiv ? ipiv + i * sp : nullptr, c);
    }
}

// W, P: per-item scratch (n*n column-major factors, n pivots): A_i is an input and C_i
// must stay untouched when A_i is singular, so neither can hold the factors.
template <class T, class AA, class CA>
__global__ void matinv_kernel(int n, MatDesc dA, AA A, MatDesc dC, CA C, int *info, T *W, int *P, idx batch) {
    const idx nn = idx(n) * n;
    KOBALT_ITEM_LOOP(i) {
        const Mat<const T> a = dA.global<const T>(A(i));
        const Mat<T> w{W + i * nn, 1, n};
        for (int j = 0; j < n; ++j)
            for (int r = 0; r < n; ++r) w(r, j) = a(r, j);
        int *const piv = P + i * n;
        const int r = getrf_item<T>(n, n, w, piv);
        info[i] = r;
        if (r != 0) continue;
        const Mat<T> c = dC.global(C(i));
        set_identity(c, n);
        getrs_item<T>(false, n, n, Mat<const T>{w.p, w.rs, w.cs}, piv, c);
    }
}

__global__ void zero_info_kernel(int *info, idx batch) {
    KOBALT_ITEM_LOOP(i) info[i] = 0;
}

int item_blocks(idx batch) {
    const idx blocks = (batch + 127) / 128;
    return int(std::max<idx>(1, std::min<idx>(blocks, idx(multiprocessors()) * 16)));
}

inline bool use_group(kobalt_int n) {
    return n >= threshold(GROUP_MIN) && n <= std::min<kobalt_int>(threshold(GROUP_MAX), kGroupMax);
}

// The kernels index items' elements with int: sizes and leading dimensions must fit.
template <class T> bool fits_int(const char *routine, kobalt_int n, kobalt_int lda, kobalt_int ldc) {
    if (n <= INT32_MAX && lda <= INT32_MAX && ldc <= INT32_MAX) return true;
    report(precision_letter<T>(), routine, "n, lda or ldc exceeds 2^31-1, not supported by the cuda backend");
    return false;
}

template <class T, class AA, class CA>
kobalt_status getri(const char *routine, kobalt_layout layout, kobalt_int n, AA A, kobalt_int lda, const int *ipiv,
                    kobalt_int sp, CA C, kobalt_int ldc, int *info, kobalt_int batch) {
    const char p = precision_letter<T>();
    if (!fits_int<T>(routine, n, lda, ldc)) return KOBALT_NOT_SUPPORTED;
    if (n == 0) {
        zero_info_kernel<<<item_blocks(batch), 128, 0, stream()>>>(info, batch);
        return launch_status(p, routine);
    }
    const MatDesc dA = mat_desc(layout, n, n, lda), dC = mat_desc(layout, n, n, ldc);
    if (use_group(n) && group_getri<T>(int(n), dA, A, ipiv, sp, dC, C, info, batch, stream()))
        return launch_status(p, routine);
    getri_kernel<T><<<item_blocks(batch), 128, 0, stream()>>>(int(n), dA, A, ipiv, sp, dC, C, info, batch);
    return launch_status(p, routine);
}

template <class T, class AA, class CA>
kobalt_status matinv(const char *routine, kobalt_layout layout, kobalt_int n, AA A, kobalt_int lda, CA C,
                     kobalt_int ldc, int *info, kobalt_int batch) {
    const char p = precision_letter<T>();
    if (!fits_int<T>(routine, n, lda, ldc)) return KOBALT_NOT_SUPPORTED;
    if (n == 0) {
        zero_info_kernel<<<item_blocks(batch), 128, 0, stream()>>>(info, batch);
        return launch_status(p, routine);
    }
    const MatDesc dA = mat_desc(layout, n, n, lda), dC = mat_desc(layout, n, n, ldc);
    if (use_group(n) && group_matinv<T>(int(n), dA, A, dC, C, info, batch, stream()))
        return launch_status(p, routine);
    // Stream-ordered scratch for the factors and pivots, freed behind the kernel.
    const size_t nn = size_t(n) * size_t(n);
    void *scratch = nullptr;
    if (!scratch_alloc(&scratch, (sizeof(T) * nn + sizeof(int) * size_t(n)) * size_t(batch))) {
        report(p, routine, "could not allocate the LU workspace (%lld items of order %lld)", (long long)batch,
               (long long)n);
        return KOBALT_OUT_OF_MEMORY;
    }
    T *W = static_cast<T *>(scratch);
    int *P = reinterpret_cast<int *>(W + nn * size_t(batch));
    matinv_kernel<T><<<item_blocks(batch), 128, 0, stream()>>>(int(n), dA, A, dC, C, info, W, P, batch);
    const kobalt_status st = launch_status(p, routine);
    scratch_free(scratch);
    return st;
}

} // namespace

// ---- the slots ----------------------------------------------------------------------------
template <class Real>
kobalt_status getri_strided(kobalt_layout layout, kobalt_int n, const Real *A, kobalt_int lda, kobalt_int strideA,
                            const int *ipiv, kobalt_int strideIpiv, Real *C, kobalt_int ldc, kobalt_int strideC,
                            int *info, kobalt_int batch) {
    return getri<Real>("getri_strided", layout, n, Strided<const Real>{A, strideA}, lda, ipiv, strideIpiv,
                       Strided<Real>{C, strideC}, ldc, info, batch);
}
template <class Real>
kobalt_status getri_batched(kobalt_layout layout, kobalt_int n, const Real *const A[], kobalt_int lda,
                            const int *ipiv, kobalt_int strideIpiv, Real *const C[], kobalt_int ldc, int *info,
                            kobalt_int batch) {
    return getri<Real>("getri_batched", layout, n, Ptrs<const Real>{A}, lda, ipiv, strideIpiv, Ptrs<Real>{C}, ldc,
                       info, batch);
}
template <class Real>
kobalt_status matinv_strided(kobalt_layout layout, kobalt_int n, const Real *A, kobalt_int lda, kobalt_int strideA,
                             Real *C, kobalt_int ldc, kobalt_int strideC, int *info, kobalt_int batch) {
    return matinv<Real>("matinv_strided", layout, n, Strided<const Real>{A, strideA}, lda, Strided<Real>{C, strideC},
                        ldc, info, batch);
}
template <class Real>
kobalt_status matinv_batched(kobalt_layout layout, kobalt_int n, const Real *const A[], kobalt_int lda,
                             Real *const C[], kobalt_int ldc, int *info, kobalt_int batch) {
    return matinv<Real>("matinv_batched", layout, n, Ptrs<const Real>{A}, lda, Ptrs<Real>{C}, ldc, info, batch);
}

template decltype(getri_strided<double>) getri_strided<double>;
template decltype(getri_strided<float>) getri_strided<float>;
template decltype(getri_batched<double>) getri_batched<double>;
template decltype(getri_batched<float>) getri_batched<float>;
template decltype(matinv_strided<double>) matinv_strided<double>;
template decltype(matinv_strided<float>) matinv_strided<float>;
template decltype(matinv_batched<double>) matinv_batched<double>;
template decltype(matinv_batched<float>) matinv_batched<float>;

} // namespace kobalt_cuda
