// routines.cu -- the slots: dispatch (own kernels for small items, cuBLAS/cuSOLVER for
// large ones), the batched kernels and their launch. Every kernel is a 1-D grid-stride
// loop over the batch with 64-bit item indices; a block stages its items' operands
// through shared memory (coalesced loads/stores), then one thread computes one item.
#include <algorithm>
#include <type_traits>

#include "common.cuh"
#include "fused_full.cuh"
#include "fused_warp.cuh"
#include "getrs_pipe.cuh"
#include "getrs_rows.cuh"
#include "getrs_warp.cuh"
#include "groups.cuh"
#include "items.cuh"
#include "lu_block.cuh"
#include "lu_warp.cuh"
#include "slots.cuh"

namespace kobalt_cuda {
namespace {

// ---- staging ----------------------------------------------------------------------------
// Copies the stored inner x outer block of `count` items, starting at item `first`, into
// shared memory (P elements per item). Packed strided items make this one contiguous,
// coalesced sweep.
template <class T, class Acc>
__device__ void stage_in(T *s, int P, Acc acc, idx first, int count, int inner, int outer, idx ld) {
    const int io = inner * outer;
    const int total = count * io;
    for (int e = threadIdx.x; e < total; e += blockDim.x) {
        const int t = e / io, rem = e - t * io, c = rem / inner, r = rem - c * inner;
        s[t * P + rem] = acc(first + t)[r + idx(c) * ld];
    }
}
template <class T, class Acc>
__device__ void stage_out(const T *s, int P, Acc acc, idx first, int count, int inner, int outer,
                          idx ld, const int *skip = nullptr) {
    const int io = inner * outer;
    const int total = count * io;
    for (int e = threadIdx.x; e < total; e += blockDim.x) {
        const int t = e / io, rem = e - t * io, c = rem / inner, r = rem - c * inner;
        if (skip && skip[t]) continue;
        acc(first + t)[r + idx(c) * ld] = s[t * P + rem];
    }
}
template <class T, class Acc> __device__ void stage_in(T *s, const MatDesc &d, Acc a, idx f, int n) {
    stage_in(s, d.P, a, f, n, d.inner(), d.outer(), d.ld);
}
template <class T, class Acc> __device__ void stage_in(T *s, const VecDesc &d, Acc a, idx f, int n) {
    stage_in(s, d.P, a, f, n, 1, d.len, d.ld());
}
template <class T, class Acc>
__device__ void stage_out(const T *s, const MatDesc &d, Acc a, idx f, int n, const int *skip = nullptr) {
    stage_out(s, d.P, a, f, n, d.inner(), d.outer(), d.ld, skip);
}
template <class T, class Acc> __device__ void stage_out(const T *s, const VecDesc &d, Acc a, idx f, int n) {
    stage_out(s, d.P, a, f, n, 1, d.len, d.ld());
}

struct Launch {
    int threads = 128, blocks = 1, staged = 0;
    size_t smem = 0;
};
// bytes: shared memory one item needs when staged.
// reserve: static shared memory of the kernel, taken off the 48 KiB a block may use.
Launch plan(idx batch, size_t bytes, idx reserve = 0) {
    Launch L;
    const idx limit = std::min<idx>(threshold(STAGE_BYTES_MAX), 48 * 1024 - reserve);
    int ipb = 0;
    if (bytes > 0 && limit > 0) {
        const idx k = limit / idx(bytes);
        ipb = k >= 256 ? 256 : int(k / 32) * 32;
    }
    if (ipb >= 32) {
        L.threads = ipb;
        L.staged = 1;
        L.smem = size_t(ipb) * bytes;
    }
    const idx blocks = (batch + L.threads - 1) / L.threads;
    const idx cap = idx(multiprocessors()) * 2048 / L.threads * 4;
    L.blocks = int(std::min<idx>(blocks, std::max<idx>(cap, 1)));
    return L;
}

#define KOBALT_BATCH_LOOP                                                                      \
    extern __shared__ __align__(16) unsigned char smem_raw[];                                 \
    T *const s = reinterpret_cast<T *>(smem_raw);                                              \
    (void)s;                                                                                   \
    for (idx first = idx(blockIdx.x) * blockDim.x; first < batch;                              \
         first += idx(gridDim.x) * blockDim.x)

// ---- kernels ----------------------------------------------------------------------------
template <class T, class AA, class BA, class CA>
__global__ void gemm_kernel(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B,
                            T beta, MatDesc dC, CA C, idx batch, int staged) {
    const bool readAB = alpha != T(0) && k > 0, readC = beta != T(0);
    KOBALT_BATCH_LOOP {
        const idx i = first + threadIdx.x;
        if (staged) {
            const int count = int(std::min<idx>(blockDim.x, batch - first));
            T *sA = s, *sB = sA + blockDim.x * dA.P, *sC = sB + blockDim.x * dB.P;
            if (readAB) {
                stage_in(sA, dA, A, first, count);
                stage_in(sB, dB, B, first, count);
            }
            if (readC) stage_in(sC, dC, C, first, count);
            __syncthreads();
            if (int(threadIdx.x) < count)
                gemm_item<T>(m, n, k, alpha, dA.shared<const T>(sA + threadIdx.x * dA.P),
                             dB.shared<const T>(sB + threadIdx.x * dB.P), beta,
                             dC.shared(sC + threadIdx.x * dC.P), readAB);
            __syncthreads();
            stage_out(sC, dC, C, first, count);
            __syncthreads();
        } else if (i < batch) {
            const Mat<const T> a = readAB ? dA.global<const T>(A(i)) : Mat<const T>{nullptr, 0, 0};
            const Mat<const T> b = readAB ? dB.global<const T>(B(i)) : Mat<const T>{nullptr, 0, 0};
            gemm_item<T>(m, n, k, alpha, a, b, beta, dC.global(C(i)), readAB);
        }
    }
}

template <class T, class AA, class XA, class YA>
__global__ void gemv_kernel(int rows, int cols, T alpha, MatDesc dA, AA A, VecDesc dx, XA X,
                            T beta, VecDesc dy, YA Y, idx batch, int staged) {
    const bool readAx = alpha != T(0), readY = beta != T(0);
    KOBALT_BATCH_LOOP {
        const idx i = first + threadIdx.x;
        if (staged) {
            const int count = int(std::min<idx>(blockDim.x, batch - first));
            T *sA = s, *sx = sA + blockDim.x * dA.P, *sy = sx + blockDim.x * dx.P;
            if (readAx) {
                stage_in(sA, dA, A, first, count);
                stage_in(sx, dx, X, first, count);
            }
            if (readY) stage_in(sy, dy, Y, first, count);
            __syncthreads();
            if (int(threadIdx.x) < count)
                gemv_item<T>(rows, cols, alpha, dA.shared<const T>(sA + threadIdx.x * dA.P),
                             dx.shared<const T>(sx + threadIdx.x * dx.P), beta,
                             dy.shared(sy + threadIdx.x * dy.P), readAx);
            __syncthreads();
            stage_out(sy, dy, Y, first, count);
            __syncthreads();
        } else if (i < batch) {
            const Mat<const T> a = readAx ? dA.global<const T>(A(i)) : Mat<const T>{nullptr, 0, 0};
            const Vec<const T> x = readAx ? dx.global<const T>(X(i)) : Vec<const T>{nullptr, 0};
            gemv_item<T>(rows, cols, alpha, a, x, beta, dy.global(Y(i)), readAx);
        }
    }
}

template <class T, class AA, class XA>
__global__ void trsv_kernel(int n, bool lower, bool unit, MatDesc dA, AA A, VecDesc dx, XA X,
                            idx batch, int staged) {
    KOBALT_BATCH_LOOP {
        const idx i = first + threadIdx.x;
        if (staged) {
            const int count = int(std::min<idx>(blockDim.x, batch - first));
            T *sA = s, *sx = sA + blockDim.x * dA.P;
            stage_in(sA, dA, A, first, count);
            stage_in(sx, dx, X, first, count);
            __syncthreads();
            if (int(threadIdx.x) < count)
                tri_solve<T, const T>(n, lower, unit, dA.shared<const T>(sA + threadIdx.x * dA.P),
                                      dx.shared(sx + threadIdx.x * dx.P));
            __syncthreads();
            stage_out(sx, dx, X, first, count);
            __syncthreads();
        } else if (i < batch) {
            tri_solve<T, const T>(n, lower, unit, dA.global<const T>(A(i)), dx.global(X(i)));
        }
    }
}

template <class T, class AA, class BA>
__global__ void trsm_kernel(bool left, bool lower, bool unit, int m, int n, T alpha, MatDesc dA,
                            AA A, MatDesc dB, BA B, idx batch, int staged) {
    const bool read = alpha != T(0);
    KOBALT_BATCH_LOOP {
        const idx i = first + threadIdx.x;
        if (staged) {
            const int count = int(std::min<idx>(blockDim.x, batch - first));
            T *sA = s, *sB = sA + blockDim.x * dA.P;
            if (read) {
                stage_in(sA, dA, A, first, count);
                stage_in(sB, dB, B, first, count);
            }
            __syncthreads();
            if (int(threadIdx.x) < count)
                trsm_item<T>(left, lower, unit, m, n, alpha,
                             dA.shared<const T>(sA + threadIdx.x * dA.P),
                             dB.shared(sB + threadIdx.x * dB.P));
            __syncthreads();
            stage_out(sB, dB, B, first, count);
            __syncthreads();
        } else if (i < batch) {
            const Mat<const T> a = read ? dA.global<const T>(A(i)) : Mat<const T>{nullptr, 0, 0};
            trsm_item<T>(left, lower, unit, m, n, alpha, a, dB.global(B(i)));
        }
    }
}

template <class T, class AA>
__global__ void getrf_kernel(int m, int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info,
                             idx batch, int staged, const int *mask = nullptr) {
    KOBALT_BATCH_LOOP {
        const idx i = first + threadIdx.x;
        int *const piv = ipiv ? ipiv + i * strideIpiv : nullptr;
        if (staged) {
            const int count = int(std::min<idx>(blockDim.x, batch - first));
            stage_in(s, dA, A, first, count);
            __syncthreads();
            if (int(threadIdx.x) < count)
                info[i] = getrf_item<T>(m, n, dA.shared(s + threadIdx.x * dA.P), piv);
            __syncthreads();
            stage_out(s, dA, A, first, count);
            __syncthreads();
        } else if (i < batch && (!mask || mask[i])) {
            info[i] = getrf_item<T>(m, n, dA.global(A(i)), piv);
        }
    }
}

template <class T, class AA, class BA>
__global__ void getrs_kernel(bool trans, int n, int nrhs, MatDesc dA, AA A, const int *ipiv,
                             idx strideIpiv, MatDesc dB, BA B, idx batch, int staged) {
    KOBALT_BATCH_LOOP {
        const idx i = first + threadIdx.x;
        const int *const piv = ipiv ? ipiv + i * strideIpiv : nullptr;
        if (staged) {
            const int count = int(std::min<idx>(blockDim.x, batch - first));
            T *sA = s, *sB = sA + blockDim.x * dA.P;
            stage_in(sA, dA, A, first, count);
            stage_in(sB, dB, B, first, count);
            __syncthreads();
            if (int(threadIdx.x) < count)
                getrs_item<T>(trans, n, nrhs, dA.shared<const T>(sA + threadIdx.x * dA.P), piv,
                              dB.shared(sB + threadIdx.x * dB.P));
            __syncthreads();
            stage_out(sB, dB, B, first, count);
            __syncthreads();
        } else if (i < batch) {
            getrs_item<T>(trans, n, nrhs, dA.global<const T>(A(i)), piv, dB.global(B(i)));
        }
    }
}

// The fused call, one kernel: A = alpha op(X) op(Y) + beta A, A = P L U, B = A^{-1} B;
// B is left untouched where info > 0.
template <class T, class XA, class YA, class AA, class BA>
__global__ void fused_kernel(int n, int k, int nrhs, T alpha, MatDesc dX, XA X, MatDesc dY, YA Y,
                             T beta, MatDesc dA, AA A, int *ipiv, idx strideIpiv, MatDesc dB,
                             BA B, int *info, idx batch, int staged, const int *mask = nullptr) {
    const bool readXY = alpha != T(0) && k > 0, readA = beta != T(0);
    __shared__ int failed[256];
    KOBALT_BATCH_LOOP {
        const idx i = first + threadIdx.x;
        int *const piv = ipiv ? ipiv + i * strideIpiv : nullptr;
        if (staged) {
            const int count = int(std::min<idx>(blockDim.x, batch - first));
            T *sX = s, *sY = sX + blockDim.x * dX.P, *sA = sY + blockDim.x * dY.P,
              *sB = sA + blockDim.x * dA.P;
            if (readXY) {
                stage_in(sX, dX, X, first, count);
                stage_in(sY, dY, Y, first, count);
            }
            if (readA) stage_in(sA, dA, A, first, count);
            if (nrhs > 0) stage_in(sB, dB, B, first, count);
            __syncthreads();
            if (int(threadIdx.x) < count) {
                const Mat<T> a = dA.shared(sA + threadIdx.x * dA.P);
                gemm_item<T>(n, n, k, alpha, dX.shared<const T>(sX + threadIdx.x * dX.P),
                             dY.shared<const T>(sY + threadIdx.x * dY.P), beta, a, readXY);
                const int r = getrf_item<T>(n, n, a, piv);
                info[i] = r;
                failed[threadIdx.x] = r != 0;
                if (r == 0 && nrhs > 0)
                    getrs_item<T>(false, n, nrhs, Mat<const T>{a.p, a.rs, a.cs}, piv,
                                  dB.shared(sB + threadIdx.x * dB.P));
            }
            __syncthreads();
            stage_out(sA, dA, A, first, count);
            if (nrhs > 0) stage_out(sB, dB, B, first, count, failed);
            __syncthreads();
        } else if (i < batch && (!mask || mask[i])) {
            const Mat<const T> x = readXY ? dX.global<const T>(X(i)) : Mat<const T>{nullptr, 0, 0};
            const Mat<const T> y = readXY ? dY.global<const T>(Y(i)) : Mat<const T>{nullptr, 0, 0};
            const Mat<T> a = dA.global(A(i));
            gemm_item<T>(n, n, k, alpha, x, y, beta, a, readXY);
            const int r = getrf_item<T>(n, n, a, piv);
            info[i] = r;
            if (r == 0 && nrhs > 0)
                getrs_item<T>(false, n, nrhs, Mat<const T>{a.p, a.rs, a.cs}, piv, dB.global(B(i)));
        }
    }
}

__global__ void zero_info_kernel(int *info, idx batch) {
    for (idx i = idx(blockIdx.x) * blockDim.x + threadIdx.x; i < batch; i += idx(gridDim.x) * blockDim.x)
        info[i] = 0;
}
kobalt_status zero_info(char p, const char *routine, int *info, idx batch) {
    const int blocks = int(std::min<idx>((batch + 255) / 256, 65535));
    zero_info_kernel<<<blocks, 256, 0, stream()>>>(info, batch);
    return launch_status(p, routine);
}

// ---- checks -----------------------------------------------------------------------------
template <class T> bool fits(const char *routine, std::initializer_list<std::pair<const char *, kobalt_int>> args) {
    for (auto &a : args)
        if (a.second > INT32_MAX || a.second < -INT32_MAX) {
            report(precision_letter<T>(), routine,
                   "%s = %lld exceeds 2^31-1, not supported by the cuda backend", a.first,
                   (long long)a.second);
            return false;
        }
    return true;
}
inline kobalt_int mx(kobalt_int a, kobalt_int b) { return a > b ? a : b; }

// ---- cuBLAS / cuSOLVER by type ------------------------------------------------------------
inline cublasOperation_t cop(kobalt_op o) { return o == KOBALT_NO_TRANS ? CUBLAS_OP_N : CUBLAS_OP_T; }
inline cublasStatus_t gemm_sb(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                              const double *al, const double *A, int lda, long long sA, const double *B, int ldb,
                              long long sB, const double *be, double *C, int ldc, long long sC, int b) {
    return cublasDgemmStridedBatched(h, ta, tb, m, n, k, al, A, lda, sA, B, ldb, sB, be, C, ldc, sC, b);
}
inline cublasStatus_t gemm_sb(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                              const float *al, const float *A, int lda, long long sA, const float *B, int ldb,
                              long long sB, const float *be, float *C, int ldc, long long sC, int b) {
    return cublasSgemmStridedBatched(h, ta, tb, m, n, k, al, A, lda, sA, B, ldb, sB, be, C, ldc, sC, b);
}
inline cublasStatus_t gemm_pb(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                              const double *al, const double *const A[], int lda, const double *const B[], int ldb,
                              const double *be, double *const C[], int ldc, int b) {
    return cublasDgemmBatched(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc, b);
}
inline cublasStatus_t gemm_pb(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                              const float *al, const float *const A[], int lda, const float *const B[], int ldb,
                              const float *be, float *const C[], int ldc, int b) {
    return cublasSgemmBatched(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc, b);
}
inline cublasStatus_t gemv_sb(cublasHandle_t h, cublasOperation_t t, int m, int n, const double *al,
                              const double *A, int lda, long long sA, const double *x, int incx, long long sx,
                              const double *be, double *y, int incy, long long sy, int b) {
    return cublasDgemvStridedBatched(h, t, m, n, al, A, lda, sA, x, incx, sx, be, y, incy, sy, b);
}
inline cublasStatus_t gemv_sb(cublasHandle_t h, cublasOperation_t t, int m, int n, const float *al,
                              const float *A, int lda, long long sA, const float *x, int incx, long long sx,
                              const float *be, float *y, int incy, long long sy, int b) {
    return cublasSgemvStridedBatched(h, t, m, n, al, A, lda, sA, x, incx, sx, be, y, incy, sy, b);
}
inline cublasStatus_t gemv_pb(cublasHandle_t h, cublasOperation_t t, int m, int n, const double *al,
                              const double *const A[], int lda, const double *const x[], int incx,
                              const double *be, double *const y[], int incy, int b) {
    return cublasDgemvBatched(h, t, m, n, al, A, lda, x, incx, be, y, incy, b);
}
inline cublasStatus_t gemv_pb(cublasHandle_t h, cublasOperation_t t, int m, int n, const float *al,
                              const float *const A[], int lda, const float *const x[], int incx,
                              const float *be, float *const y[], int incy, int b) {
    return cublasSgemvBatched(h, t, m, n, al, A, lda, x, incx, be, y, incy, b);
}
inline cusolverStatus_t getrf_buf(cusolverDnHandle_t h, int m, int n, double *A, int lda, int *lw) {
    return cusolverDnDgetrf_bufferSize(h, m, n, A, lda, lw);
}
inline cusolverStatus_t getrf_buf(cusolverDnHandle_t h, int m, int n, float *A, int lda, int *lw) {
    return cusolverDnSgetrf_bufferSize(h, m, n, A, lda, lw);
}
inline cusolverStatus_t getrf_one(cusolverDnHandle_t h, int m, int n, double *A, int lda, double *w, int *p, int *info) {
    return cusolverDnDgetrf(h, m, n, A, lda, w, p, info);
}
inline cusolverStatus_t getrf_one(cusolverDnHandle_t h, int m, int n, float *A, int lda, float *w, int *p, int *info) {
    return cusolverDnSgetrf(h, m, n, A, lda, w, p, info);
}

constexpr idx kChunk = idx(1) << 30; // cuBLAS batch counts are int

inline cublasStatus_t trsm_b(cublasHandle_t h, cublasSideMode_t sd, cublasFillMode_t up, cublasOperation_t tr,
                             cublasDiagType_t dg, int m, int n, const double *al, const double *const A[], int lda,
                             double *const B[], int ldb, int b) {
    return cublasDtrsmBatched(h, sd, up, tr, dg, m, n, al, A, lda, B, ldb, b);
}
inline cublasStatus_t trsm_b(cublasHandle_t h, cublasSideMode_t sd, cublasFillMode_t up, cublasOperation_t tr,
                             cublasDiagType_t dg, int m, int n, const float *al, const float *const A[], int lda,
                             float *const B[], int ldb, int b) {
    return cublasStrsmBatched(h, sd, up, tr, dg, m, n, al, A, lda, B, ldb, b);
}
inline cublasStatus_t getrf_b(cublasHandle_t h, int n, double *const A[], int lda, int *piv, int *info, int b) {
    return cublasDgetrfBatched(h, n, A, lda, piv, info, b);
}
inline cublasStatus_t getrf_b(cublasHandle_t h, int n, float *const A[], int lda, int *piv, int *info, int b) {
    return cublasSgetrfBatched(h, n, A, lda, piv, info, b);
}
inline cublasStatus_t getrs_b(cublasHandle_t h, cublasOperation_t t, int n, int nrhs, const double *const A[],
                              int lda, const int *piv, double *const B[], int ldb, int *info, int b) {
    return cublasDgetrsBatched(h, t, n, nrhs, A, lda, piv, B, ldb, info, b);
}
inline cublasStatus_t getrs_b(cublasHandle_t h, cublasOperation_t t, int n, int nrhs, const float *const A[],
                              int lda, const int *piv, float *const B[], int ldb, int *info, int b) {
    return cublasSgetrsBatched(h, t, n, nrhs, A, lda, piv, B, ldb, info, b);
}

// ---- vendor plumbing: stream-ordered scratch, pointer arrays, layout copies ---------------
struct Scratch {
    void *p = nullptr;
    Scratch() = default;
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;
    ~Scratch() { scratch_free(p); }
    bool alloc(size_t bytes) { return scratch_alloc(&p, bytes); }
    template <class U> U *as() const { return static_cast<U *>(p); }
};
inline int grid_1d(idx work, int threads = 256) {
    const idx b = (work + threads - 1) / threads;
    return int(std::max<idx>(1, std::min<idx>(b, idx(multiprocessors()) * 32)));
}
#define KOBALT_GRID_STRIDE(i, n)                                                                  \
    for (idx i = idx(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += idx(gridDim.x) * blockDim.x)

template <class P, class Acc> __global__ void fill_ptrs_kernel(P *out, Acc a, idx batch) {
    KOBALT_GRID_STRIDE(i, batch) out[i] = a(i);
}
// The device pointer array of a batch operand: the caller's (Ptrs) or built into `s`.
template <class T> T *const *ptr_array(Ptrs<T> a, idx, Scratch &) { return a.p; }
template <class T> T *const *ptr_array(Strided<T> a, idx batch, Scratch &s) {
    if (!s.alloc(sizeof(T *) * size_t(batch))) return nullptr;
    fill_ptrs_kernel<<<grid_1d(batch), 256, 0, stream()>>>(s.as<T *>(), a, batch);
    return s.as<T *const>();
}
__global__ void copy_ipiv_kernel(int *dst, idx ds, const int *src, idx ss, int n, idx batch) {
    KOBALT_GRID_STRIDE(e, batch * n) {
        const idx t = e / n, j = e - t * n;
        dst[t * ds + j] = src[t * ss + j];
    }
}
// Item t's logical n x n matrix -> packed column-major W (pitch n*n).
template <class T, class AA> __global__ void pack_kernel(T *W, MatDesc d, AA A, int n, idx batch) {
    const idx nn = idx(n) * n;
    KOBALT_GRID_STRIDE(e, batch * nn) {
        const idx t = e / nn, rem = e - t * nn;
        const int r = d.col ? int(rem % n) : int(rem / n), c = d.col ? int(rem / n) : int(rem % n);
        W[t * nn + r + idx(c) * n] = d.global<T>(A(t))(r, c);
    }
}
// One block per item: copies W's factors, pivots back when info == 0 and (check) all
// factors are finite; else flags the item for Kobalt's kernel (bad[t] = 1).
template <class T, class AA>
__global__ void unpack_kernel(const T *W, const int *piv, MatDesc d, AA A, int n, int *ipiv, idx sp, const int *info,
                              int *bad, int check, idx batch) {
    const idx nn = idx(n) * n;
    for (idx t = blockIdx.x; t < batch; t += gridDim.x) {
        const T *w = W + t * nn;
        int nonfinite = 0;
        if (check)
            for (idx e = threadIdx.x; e < nn; e += blockDim.x) nonfinite |= !isfinite(w[e]);
        const int flag = __syncthreads_or(nonfinite) || (check && info[t] != 0);
        if (threadIdx.x == 0) bad[t] = flag;
        if (!flag) {
            const Mat<T> a = d.global<T>(A(t));
            for (idx e = threadIdx.x; e < nn; e += blockDim.x) {
                const int r = d.col ? int(e % n) : int(e / n), c = d.col ? int(e / n) : int(e % n);
                a(r, c) = w[r + idx(c) * n];
            }
            for (int j = threadIdx.x; j < n; j += blockDim.x) ipiv[t * sp + j] = piv[t * n + j];
        }
        __syncthreads();
    }
}
// B rows interchanged k <-> ipiv[k]-1, k ascending (forward) or descending.
template <class T, class BA>
__global__ void laswp_kernel(bool forward, int n, int nrhs, const int *ipiv, idx sp, MatDesc d, BA B, idx batch) {
    KOBALT_GRID_STRIDE(e, batch * nrhs) {
        const idx t = e / nrhs;
        const int c = int(e - t * nrhs);
        const Mat<T> b = d.global<T>(B(t));
        const int *pv = ipiv + t * sp;
        for (int s = 0; s < n; ++s) {
            const int k = forward ? s : n - 1 - s, p = pv[k] - 1;
            if (p != k) {
                const T x = b(k, c);
                b(k, c) = b(p, c);
                b(p, c) = x;
            }
        }
    }
}

// ---- getrf in place on cuBLAS (VENDOR_INPLACE) -------------------------------------------
// Offsets of the parts of one scratch allocation, each aligned to 16 bytes.
struct Carve {
    size_t used = 0;
    size_t take(size_t bytes) {
        const size_t at = used;
        used += (bytes + 15) & ~size_t(15);
        return at;
    }
};
template <class T> constexpr bool is_strided(Strided<T>) { return true; }
template <class T> constexpr bool is_strided(Ptrs<T>) { return false; }
template <class T> T *const *given_ptrs(Ptrs<T> a) { return a.p; }
template <class T> T *const *given_ptrs(Strided<T>) { return nullptr; }
template <class T> const void *given_base(Strided<T> a) { return a.base; }
template <class T> const void *given_base(Ptrs<T>) { return nullptr; }
template <class T> idx given_stride(Strided<T> a) { return a.stride; }
template <class T> idx given_stride(Ptrs<T>) { return -1; }

// Up to four elements (r, c) of an n x n item per thread and round, walked without
// divisions: the loads of a round are in flight together.
struct Walk {
    int r, c, dr, dc;
    __device__ Walk(int n) {
        dc = int(blockDim.x) / n;
        dr = int(blockDim.x) - dc * n;
        c = int(threadIdx.x) / n;
        r = int(threadIdx.x) - c * n;
    }
    __device__ void next(int n) {
        r += dr;
        c += dc;
        if (r >= n) {
            r -= n;
            ++c;
        }
    }
};
// Block per item: S_t = the item's logical n x n matrix (column-major, pitch n).
template <class T, class AA>
__global__ void snapshot_kernel(T *S, MatDesc d, AA A, int n, idx batch) {
    const idx nn = idx(n) * n;
    for (idx t = blockIdx.x; t < batch; t += gridDim.x) {
        const Mat<T> m = d.global<T>(A(t));
        T *const s = S + t * nn;
        Walk w(n);
        while (w.c < n) {
            int rr[4], cc[4];
            T v[4];
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                rr[u] = w.r;
                cc[u] = w.c;
                if (w.c < n) v[u] = m(w.r, w.c);
                w.next(n);
            }
#pragma unroll
            for (int u = 0; u < 4; ++u)
                if (cc[u] < n) s[rr[u] + idx(cc[u]) * n] = v[u];
        }
    }
}
template <class T, class AA> __global__ void fill_ptrs_into_kernel(T **pa, AA a, idx batch) {
    KOBALT_GRID_STRIDE(i, batch) pa[i] = a(i);
}
// Block per item after cuBLAS factored A in place: bad[t] = info != 0 or
// a non-finite factor (cuBLAS departs from dgetf2 there). Bad items get their input back
// from S (when given); good items get their pivots from `piv` when cuBLAS wrote them
// elsewhere.
template <class T, class AA>
__global__ void check_restore_kernel(const T *S, MatDesc d, AA A, int n, const int *piv, int *ipiv, idx sp,
                                     const int *info, int *bad, idx batch) {
    const idx nn = idx(n) * n;
    for (idx t = blockIdx.x; t < batch; t += gridDim.x) {
        const Mat<T> m = d.global<T>(A(t));
        int nonfinite = 0;
        Walk w(n);
        while (w.c < n) {
            T v[4];
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                v[u] = w.c < n ? m(w.r, w.c) : T(0);
                w.next(n);
            }
#pragma unroll
            for (int u = 0; u < 4; ++u) nonfinite |= !isfinite(v[u]);
        }
        const int flag = __syncthreads_or(nonfinite) || info[t] != 0;
        if (threadIdx.x == 0) bad[t] = flag;
        if (flag && S) {
            const T *const s = S + t * nn;
            for (Walk x(n); x.c < n; x.next(n)) m(x.r, x.c) = s[x.r + idx(x.c) * n];
        }
        if (!flag && piv != ipiv)
            for (int j = threadIdx.x; j < n; j += blockDim.x) ipiv[t * sp + j] = piv[t * n + j];
    }
}
// Pointer arrays for getrsBatched: A's and B's items (written where oa / ob is given);
// items with skip[i] != 0 solve into their own slot of `dummy` (per elements each), so
// their B stays untouched.
template <class PA, class AA, class PB, class BA>
__global__ void fill_solve_ptrs_kernel(PA **oa, AA a, PB **ob, BA b, const int *skip, PB *dummy, idx per,
                                       idx batch) {
    KOBALT_GRID_STRIDE(i, batch) {
        if (oa) oa[i] = a(i);
        if (ob) ob[i] = skip && skip[i] ? dummy + i * per : b(i);
    }
}

kobalt_status no_handle(char p, const char *routine) {
    report(p, routine, "could not create a cuBLAS handle");
    return KOBALT_BACKEND_ERROR;
}
kobalt_status no_memory(char p, const char *routine, const char *what) {
    report(p, routine, "could not allocate %s", what);
    return KOBALT_OUT_OF_MEMORY;
}

// op(A) X = alpha B / X op(A) = alpha B with cuBLAS trsmBatched; row-major = the
// transposed column-major problem (side and triangle flip, op stays).
template <class T, class AA, class BA>
kobalt_status vendor_trsm(const char *routine, kobalt_layout layout, kobalt_side side, kobalt_uplo uplo,
                          kobalt_op ta, kobalt_diag diag, kobalt_int m, kobalt_int n, T alpha, AA A,
                          kobalt_int lda, BA B, kobalt_int ldb, kobalt_int batch) {
    const char p = precision_letter<T>();
    cublasHandle_t h = blas_handle();
    if (!h) return no_handle(p, routine);
    Scratch sa, sb;
    const T *const *pa = ptr_array(A, batch, sa);
    T *const *pb = ptr_array(B, batch, sb);
    if (!pa || !pb) return no_memory(p, routine, "the pointer arrays");
    const bool col = layout == KOBALT_COL_MAJOR;
    const bool left = (side == KOBALT_LEFT) == col, lower = (uplo == KOBALT_LOWER) == col;
    for (kobalt_int c = 0; c < batch; c += kChunk) {
        const int nb = int(std::min<kobalt_int>(kChunk, batch - c));
        const cublasStatus_t s =
            trsm_b(h, left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT, lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                   cop(ta), diag == KOBALT_UNIT ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, int(col ? m : n),
                   int(col ? n : m), &alpha, pa + c, int(lda), pb + c, int(ldb), nb);
        const kobalt_status st = blas_status(p, routine, s, "cublas<t>trsmBatched");
        if (st != KOBALT_SUCCESS) return st;
    }
    return KOBALT_SUCCESS;
}

// gemm on cuBLAS for any batch form (strided: gemmStridedBatched, else gemmBatched); a
// row-major item is the column-major transpose, so C^T = op(B)^T op(A)^T swaps the operands.
template <class T>
cublasStatus_t gemm_chunk(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                          const T *al, Strided<const T> A, int lda, Strided<const T> B, int ldb, const T *be,
                          Strided<T> C, int ldc, idx c, int nb) {
    return gemm_sb(h, ta, tb, m, n, k, al, A(c), lda, A.stride, B(c), ldb, B.stride, be, C(c), ldc, C.stride, nb);
}
template <class T>
cublasStatus_t gemm_chunk(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                          const T *al, Ptrs<const T> A, int lda, Ptrs<const T> B, int ldb, const T *be, Ptrs<T> C,
                          int ldc, idx c, int nb) {
    return gemm_pb(h, ta, tb, m, n, k, al, A.p + c, lda, B.p + c, ldb, be, C.p + c, ldc, nb);
}
template <class T, class AA, class CA>
kobalt_status vendor_gemm(cublasHandle_t h, const char *r, kobalt_layout layout, kobalt_op ta, kobalt_op tb,
                          kobalt_int m, kobalt_int n, kobalt_int k, T alpha, AA A, kobalt_int lda, AA B,
                          kobalt_int ldb, T beta, CA C, kobalt_int ldc, kobalt_int batch) {
    if (beta == T(0)) beta = T(0); // -0 -> +0: cuBLAS reads C for beta = -0 (seen on an H200)
    const char *name = std::is_same<AA, Ptrs<const T>>::value ? "cublas<t>gemmBatched" : "cublas<t>gemmStridedBatched";
    for (kobalt_int c = 0; c < batch; c += kChunk) {
        const int nb = int(std::min<kobalt_int>(kChunk, batch - c));
        const cublasStatus_t s =
            layout == KOBALT_COL_MAJOR
                ? gemm_chunk<T>(h, cop(ta), cop(tb), int(m), int(n), int(k), &alpha, A, int(lda), B, int(ldb), &beta,
                                C, int(ldc), c, nb)
                : gemm_chunk<T>(h, cop(tb), cop(ta), int(n), int(m), int(k), &alpha, B, int(ldb), A, int(lda), &beta,
                                C, int(ldc), c, nb);
        const kobalt_status st = blas_status(precision_letter<T>(), r, s, name);
        if (st != KOBALT_SUCCESS) return st;
    }
    return KOBALT_SUCCESS;
}
// gemv on cuBLAS (strided: gemvStridedBatched, else gemvBatched). A row-major m x n item is
// the column-major n x m matrix A^T, so the transpose flag flips and m, n swap. Callers
// ensure incx, incy > 0 and alpha != 0 (BLAS leaves A and x unread then; the own kernel
// does that).
inline cublasOperation_t gemv_op(kobalt_layout layout, kobalt_op trans) {
    const bool t = (trans != KOBALT_NO_TRANS) != (layout != KOBALT_COL_MAJOR);
    return t ? CUBLAS_OP_T : CUBLAS_OP_N;
}
template <class T>
cublasStatus_t gemv_chunk(cublasHandle_t h, cublasOperation_t t, int rows, int cols, const T *al,
                          Strided<const T> A, int lda, Strided<const T> x, int incx, const T *be, Strided<T> y,
                          int incy, idx c, int nb) {
    return gemv_sb(h, t, rows, cols, al, A(c), lda, A.stride, x(c), incx, x.stride, be, y(c), incy, y.stride, nb);
}
template <class T>
cublasStatus_t gemv_chunk(cublasHandle_t h, cublasOperation_t t, int rows, int cols, const T *al,
                          Ptrs<const T> A, int lda, Ptrs<const T> x, int incx, const T *be, Ptrs<T> y, int incy,
                          idx c, int nb) {
    return gemv_pb(h, t, rows, cols, al, A.p + c, lda, x.p + c, incx, be, y.p + c, incy, nb);
}
template <class T, class AA, class XA, class YA>
kobalt_status vendor_gemv(const char *r, kobalt_layout layout, kobalt_op trans, kobalt_int m, kobalt_int n,
                          T alpha, AA A, kobalt_int lda, XA X, kobalt_int incx, T beta, YA Y, kobalt_int incy,
                          kobalt_int batch) {
    const char p = precision_letter<T>();
    cublasHandle_t h = blas_handle();
    if (!h) return no_handle(p, r);
    if (beta == T(0)) beta = T(0); // -0 -> +0, as for gemm: beta = 0 must not read y
    const bool col = layout == KOBALT_COL_MAJOR;
    const int rows = int(col ? m : n), cols = int(col ? n : m);
    for (kobalt_int c = 0; c < batch; c += kChunk) {
        const int nb = int(std::min<kobalt_int>(kChunk, batch - c));
        const cublasStatus_t s = gemv_chunk<T>(h, gemv_op(layout, trans), rows, cols, &alpha, A, int(lda), X,
                                               int(incx), &beta, Y, int(incy), c, nb);
        const kobalt_status st =
            blas_status(p, r, s, std::is_same<AA, Ptrs<const T>>::value ? "cublas<t>gemvBatched"
                                                                        : "cublas<t>gemvStridedBatched");
        if (st != KOBALT_SUCCESS) return st;
    }
    return KOBALT_SUCCESS;
}
// cuBLAS getrfBatched on column-major items in place, keeping dgetf2's semantics: with
// `restore`, A is first copied to a snapshot (one pass; cudaMemcpy2D where the items'
// columns are evenly spaced), cuBLAS factors A, and check_restore_kernel flags the items
// with info != 0 or non-finite factors and puts their input back for Kobalt's kernel (the
// caller runs it). Against the packed copy this saves a write of A and the copy back.
// (Splitting the batch into cuBLAS calls whose snapshot and check overlap on a second
// stream was measured and lost: docs/performance.md.) Without `restore` (the fused call
// with beta = 0, whose A is recomputable from X and Y) there is no snapshot and flagged
// items keep cuBLAS's output. bad = NULL (and nothing queued) when the scratch cannot be
// had.
template <class T, class AA>
kobalt_status lu_inplace(cublasHandle_t h, const char *routine, const MatDesc &dA, kobalt_int n, AA A,
                         kobalt_int lda, int *ipiv, kobalt_int strideIpiv, int *info, kobalt_int batch, bool restore,
                         Scratch &s, int *&bad) {
    const char p = precision_letter<T>();
    const idx nn = idx(n) * n;
    const bool build = is_strided(A), repack = strideIpiv != n;
    Carve cv;
    const size_t oS = cv.take(restore ? sizeof(T) * size_t(nn) * size_t(batch) : 0);
    const size_t oP = cv.take(build ? sizeof(T *) * size_t(batch) : 0);
    const size_t oV = cv.take(repack ? sizeof(int) * size_t(n) * size_t(batch) : 0);
    const size_t oB = cv.take(sizeof(int) * size_t(batch));
    bad = nullptr;
    if (!s.alloc(cv.used)) return KOBALT_SUCCESS;
    char *base = s.as<char>();
    T *S = restore ? reinterpret_cast<T *>(base + oS) : nullptr;
    T **built = build ? reinterpret_cast<T **>(base + oP) : nullptr;
    int *piv = repack ? reinterpret_cast<int *>(base + oV) : ipiv;
    bad = reinterpret_cast<int *>(base + oB);
    const cudaStream_t s0 = stream();
    if (build) fill_ptrs_into_kernel<<<grid_1d(batch), 256, 0, s0>>>(built, A, batch);
    T *const *pa = build ? built : given_ptrs(A);
    const int blocks = int(std::min<idx>(batch, idx(multiprocessors()) * 8));
    if (restore) {
        bool copied = false;
        if (build && given_stride(A) == idx(lda) * n) { // columns evenly spaced: one 2-D copy
            copied = cudaMemcpy2DAsync(S, sizeof(T) * size_t(n), given_base(A), sizeof(T) * size_t(lda),
                                       sizeof(T) * size_t(n), size_t(n) * size_t(batch), cudaMemcpyDeviceToDevice,
                                       s0) == cudaSuccess;
            if (!copied) cudaGetLastError();
        }
        if (!copied) snapshot_kernel<T><<<blocks, 256, 0, s0>>>(S, dA, A, int(n), batch);
    }
    for (idx q = 0; q < batch; q += kChunk) {
        const int nb = int(std::min<idx>(kChunk, batch - q));
        const kobalt_status st = blas_status(p, routine, getrf_b(h, int(n), pa + q, int(lda), piv + q * n, info + q, nb),
                                             "cublas<t>getrfBatched");
        if (st != KOBALT_SUCCESS) return st;
    }
    check_restore_kernel<T><<<blocks, 256, 0, s0>>>(S, dA, A, int(n), piv, ipiv, strideIpiv, info, bad, batch);
    return launch_status(p, routine);
}

// cuBLAS getrsBatched (column-major, pivoted): the pointer arrays of strided operands come
// from one kernel into one allocation (pointer-array operands are used as given); items
// with skip[i] != 0 solve into scratch, leaving their B untouched (the fused call).
template <class T, class AA, class BA>
kobalt_status vendor_getrs(cublasHandle_t h, const char *routine, bool tr, kobalt_int n, kobalt_int nrhs, AA A,
                           kobalt_int lda, const int *ipiv, kobalt_int strideIpiv, BA B, kobalt_int ldb,
                           const int *skip, kobalt_int batch) {
    const char p = precision_letter<T>();
    const bool buildA = is_strided(A), buildB = is_strided(B) || skip, repack = strideIpiv != n;
    const idx per = idx(ldb) * nrhs;
    Carve cv;
    const size_t oA = cv.take(buildA ? sizeof(T *) * size_t(batch) : 0);
    const size_t oB = cv.take(buildB ? sizeof(T *) * size_t(batch) : 0);
    const size_t oD = cv.take(skip ? sizeof(T) * size_t(per) * size_t(batch) : 0);
    const size_t oV = cv.take(repack ? sizeof(int) * size_t(n) * size_t(batch) : 0);
    Scratch s;
    if (cv.used > 0 && !s.alloc(cv.used)) return no_memory(p, routine, "the pointer arrays");
    char *base = s.as<char>();
    const T **pa = buildA ? reinterpret_cast<const T **>(base + oA) : nullptr;
    T **pb = buildB ? reinterpret_cast<T **>(base + oB) : nullptr;
    if (buildA || buildB)
        fill_solve_ptrs_kernel<<<grid_1d(batch), 256, 0, stream()>>>(pa, A, pb, B, skip,
                                                                     reinterpret_cast<T *>(base + oD), per, batch);
    const int *piv = ipiv;
    if (repack) {
        int *packed = reinterpret_cast<int *>(base + oV);
        copy_ipiv_kernel<<<grid_1d(batch * n), 256, 0, stream()>>>(packed, n, ipiv, strideIpiv, int(n), batch);
        piv = packed;
    }
    const T *const *ua = buildA ? pa : given_ptrs(A);
    T *const *ub = buildB ? pb : given_ptrs(B);
    for (kobalt_int c = 0; c < batch; c += kChunk) {
        const int nb = int(std::min<kobalt_int>(kChunk, batch - c));
        int hinfo = 0;
        const kobalt_status st = blas_status(p, routine,
                                             getrs_b(h, tr ? CUBLAS_OP_T : CUBLAS_OP_N, int(n), int(nrhs), ua + c,
                                                     int(lda), piv + c * n, ub + c, int(ldb), &hinfo, nb),
                                             "cublas<t>getrsBatched");
        if (st != KOBALT_SUCCESS) return st;
    }
    return launch_status(p, routine);
}

// Square pivoted items of this n run lu_block.cuh's block-per-item kernel (when the device
// gives its shared memory) rather than cuBLAS getrfBatched.
inline bool use_block(kobalt_int n) {
    return n > threshold(GETRF_SMALL_MAX) && n <= threshold(GETRF_BLOCK_MAX);
}

inline bool use_group(kobalt_int d) {
    return d >= threshold(GROUP_MIN) && d <= std::min<kobalt_int>(threshold(GROUP_MAX), kGroupMax);
}

// ---- the routines, generic over the batch form --------------------------------------------
template <class T, class AA, class BA, class CA, class Vendor>
kobalt_status gemm(const char *routine, kobalt_layout layout, kobalt_op ta, kobalt_op tb, kobalt_int m,
                   kobalt_int n, kobalt_int k, T alpha, AA A, kobalt_int lda, BA B, kobalt_int ldb, T beta,
                   CA C, kobalt_int ldc, kobalt_int batch, Vendor vendor) {
    const char p = precision_letter<T>();
    if (!fits<T>(routine, {{"m", m}, {"n", n}, {"k", k}, {"lda", lda}, {"ldb", ldb}, {"ldc", ldc}}))
        return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    const bool tA = ta != KOBALT_NO_TRANS, tB = tb != KOBALT_NO_TRANS;
    // the tile kernel first (gemm_tile.cu): it covers sizes on both sides of GEMM_SMALL_MAX
    const kobalt_int d3 = mx(mx(m, n), k);
    const kobalt_int tile_max = threshold(sizeof(T) == 8 ? GEMM_TILE_MAX : GEMM_TILE_MAX_FLOAT);
    if (d3 >= threshold(GEMM_TILE_MIN) && d3 <= std::min<kobalt_int>(tile_max, 32)) {
        tile_gemm<T>(int(m), int(n), int(k), alpha, mat_desc(layout, tA ? k : m, tA ? m : k, lda, tA), A,
                     mat_desc(layout, tB ? n : k, tB ? k : n, ldb, tB), B, beta, mat_desc(layout, m, n, ldc), C,
                     batch, stream());
        return launch_status(p, routine);
    }
    if (d3 > threshold(GEMM_SMALL_MAX) && alpha != T(0) && k > 0) {
        cublasHandle_t h = blas_handle();
        if (!h) {
            report(p, routine, "could not create a cuBLAS handle");
            return KOBALT_BACKEND_ERROR;
        }
        return vendor(h);
    }
    const MatDesc dA = mat_desc(layout, tA ? k : m, tA ? m : k, lda, tA);
    const MatDesc dB = mat_desc(layout, tB ? n : k, tB ? k : n, ldb, tB);
    const MatDesc dC = mat_desc(layout, m, n, ldc);
    const kobalt_int bcast_min = threshold(GEMM_BCAST_MIN);
    const bool bcast = bcast_min > 0 && mx(m, n) >= bcast_min;
    const bool narrow = mx(m, n) <= std::min<kobalt_int>(threshold(GEMM_BCAST_NARROW_MAX), 12);
    if (use_group(mx(m, n)) && group_gemm<T>(int(m), int(n), int(k), alpha, dA, A, dB, B, beta, dC, C, batch,
                                             bcast, narrow, stream()))
        return launch_status(p, routine);
    const Launch L = plan(batch, sizeof(T) * (dA.P + dB.P + dC.P));
    gemm_kernel<T><<<L.blocks, L.threads, L.smem, stream()>>>(int(m), int(n), int(k), alpha, dA, A, dB, B,
                                                              beta, dC, C, batch, L.staged);
    return launch_status(p, routine);
}

template <class T, class AA, class XA, class YA>
kobalt_status gemv(const char *routine, kobalt_layout layout, kobalt_op trans, kobalt_int m, kobalt_int n,
                   T alpha, AA A, kobalt_int lda, XA X, kobalt_int incx, T beta, YA Y, kobalt_int incy,
                   kobalt_int batch) {
    const char p = precision_letter<T>();
    if (!fits<T>(routine, {{"m", m}, {"n", n}, {"lda", lda}, {"incx", incx}, {"incy", incy}}))
        return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    if (mx(m, n) > threshold(GEMV_SMALL_MAX) && alpha != T(0) && incx > 0 && incy > 0)
        return vendor_gemv<T>(routine, layout, trans, m, n, alpha, A, lda, X, incx, beta, Y, incy, batch);
    const bool t = trans != KOBALT_NO_TRANS;
    const kobalt_int rows = t ? n : m, cols = t ? m : n;
    const MatDesc dA = mat_desc(layout, m, n, lda, t);
    const VecDesc dx = vec_desc(cols, incx), dy = vec_desc(rows, incy);
    const Launch L = plan(batch, sizeof(T) * (dA.P + dx.P + dy.P));
    gemv_kernel<T><<<L.blocks, L.threads, L.smem, stream()>>>(int(rows), int(cols), alpha, dA, A, dx, X, beta,
                                                              dy, Y, batch, L.staged);
    return launch_status(p, routine);
}

template <class T, class AA, class XA>
kobalt_status trsv(const char *routine, kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans,
                   kobalt_diag diag, kobalt_int n, AA A, kobalt_int lda, XA X, kobalt_int incx,
                   kobalt_int batch) {
    const char p = precision_letter<T>();
    if (!fits<T>(routine, {{"n", n}, {"lda", lda}, {"incx", incx}})) return KOBALT_NOT_SUPPORTED;
    if (n == 0) return KOBALT_SUCCESS;
    const bool t = trans != KOBALT_NO_TRANS;
    const bool lower = (uplo == KOBALT_LOWER) != t;
    const MatDesc dA = mat_desc(layout, n, n, lda, t);
    const VecDesc dx = vec_desc(n, incx);
    const Launch L = plan(batch, sizeof(T) * (dA.P + dx.P));
    trsv_kernel<T><<<L.blocks, L.threads, L.smem, stream()>>>(int(n), lower, diag == KOBALT_UNIT, dA, A, dx,
                                                              X, batch, L.staged);
    return launch_status(p, routine);
}

template <class T, class AA, class BA>
kobalt_status trsm(const char *routine, kobalt_layout layout, kobalt_side side, kobalt_uplo uplo,
                   kobalt_op ta, kobalt_diag diag, kobalt_int m, kobalt_int n, T alpha, AA A,
                   kobalt_int lda, BA B, kobalt_int ldb, kobalt_int batch) {
    const char p = precision_letter<T>();
    if (!fits<T>(routine, {{"m", m}, {"n", n}, {"lda", lda}, {"ldb", ldb}})) return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    if (mx(m, n) > threshold(TRSM_SMALL_MAX) && alpha != T(0))
        return vendor_trsm<T>(routine, layout, side, uplo, ta, diag, m, n, alpha, A, lda, B, ldb, batch);
    const bool t = ta != KOBALT_NO_TRANS, left = side == KOBALT_LEFT;
    const bool lower = (uplo == KOBALT_LOWER) != t;
    const kobalt_int na = left ? m : n;
    const MatDesc dA = mat_desc(layout, na, na, lda, t);
    const MatDesc dB = mat_desc(layout, m, n, ldb);
    const Launch L = plan(batch, sizeof(T) * (dA.P + dB.P));
    trsm_kernel<T><<<L.blocks, L.threads, L.smem, stream()>>>(left, lower, diag == KOBALT_UNIT, int(m),
                                                              int(n), alpha, dA, A, dB, B, batch, L.staged);
    return launch_status(p, routine);
}

template <class T, class AA>
kobalt_status getrf(const char *routine, kobalt_layout layout, kobalt_int m, kobalt_int n, AA A,
                    kobalt_int lda, int *ipiv, kobalt_int strideIpiv, int *info, kobalt_int batch,
                    T *strided_base, kobalt_int strideA) {
    const char p = precision_letter<T>();
    if (!fits<T>(routine, {{"m", m}, {"n", n}, {"lda", lda}})) return KOBALT_NOT_SUPPORTED;
    if (m == 0 || n == 0) return zero_info(p, routine, info, batch);
    // A few large column-major matrices: one cuSOLVER getrf each (LAPACK semantics).
    if (strided_base && ipiv && layout == KOBALT_COL_MAJOR && mx(m, n) > threshold(GETRF_SMALL_MAX) &&
        batch <= threshold(FEW_ITEMS_MAX)) {
        cusolverDnHandle_t h = solver_handle();
        if (!h) {
            report(p, routine, "could not create a cuSOLVER handle");
            return KOBALT_BACKEND_ERROR;
        }
        int lwork = 0;
        kobalt_status st = solver_status(p, routine, getrf_buf(h, int(m), int(n), strided_base, int(lda), &lwork),
                                         "cusolverDn<t>getrf_bufferSize");
        if (st != KOBALT_SUCCESS) return st;
        T *work = nullptr;
        if (!scratch_alloc(reinterpret_cast<void **>(&work), sizeof(T) * size_t(lwork > 0 ? lwork : 1))) {
            report(p, routine, "could not allocate the cuSOLVER workspace (%d elements)", lwork);
            return KOBALT_OUT_OF_MEMORY;
        }
        for (kobalt_int i = 0; i < batch && st == KOBALT_SUCCESS; ++i)
            st = solver_status(p, routine,
                               getrf_one(h, int(m), int(n), strided_base + i * strideA, int(lda), work,
                                         ipiv + i * strideIpiv, info + i),
                               "cusolverDn<t>getrf");
        scratch_free(work);
        return st;
    }
    const MatDesc dA = mat_desc(layout, m, n, lda);
    // one thread block per item: dgetf2's pivots and info in the kernel, either layout
    if (ipiv && m == n && use_block(n) &&
        block_getrf<T>(int(n), dA, A, ipiv, strideIpiv, info, batch, int(threshold(GETRF_BLOCK_WARPS)), stream()))
        return launch_status(p, routine);
    // cuBLAS getrfBatched: square, pivoted. Column-major in place (VENDOR_CHECK 0), else on
    // a packed column-major copy whose good items are copied back; the others (and all of
    // them if the copy cannot be allocated) run Kobalt's kernel on the untouched input.
    if (ipiv && m == n && n > threshold(GETRF_SMALL_MAX)) {
        cublasHandle_t h = blas_handle();
        if (!h) return no_handle(p, routine);
        const bool col = layout == KOBALT_COL_MAJOR, check = threshold(VENDOR_CHECK) != 0;
        if (col && !check) {
            Scratch sa, sp;
            T *const *pa = ptr_array(A, batch, sa);
            if (!pa) return no_memory(p, routine, "the pointer array");
            int *piv = ipiv;
            if (strideIpiv != n) {
                if (!sp.alloc(sizeof(int) * size_t(batch) * size_t(n))) return no_memory(p, routine, "the pivots");
                piv = sp.as<int>();
            }
            for (kobalt_int c = 0; c < batch; c += kChunk) {
                const int nb = int(std::min<kobalt_int>(kChunk, batch - c));
                const kobalt_status st = blas_status(
                    p, routine, getrf_b(h, int(n), pa + c, int(lda), piv + c * n, info + c, nb), "cublas<t>getrfBatched");
                if (st != KOBALT_SUCCESS) return st;
            }
            if (piv != ipiv) {
                copy_ipiv_kernel<<<grid_1d(batch * n), 256, 0, stream()>>>(ipiv, strideIpiv, piv, n, int(n), batch);
                return launch_status(p, routine);
            }
            return KOBALT_SUCCESS;
        }
        if (col && threshold(VENDOR_INPLACE) != 0 && n <= 46340) { // n*n fits an int (Walk)
            Scratch s;
            int *bad = nullptr;
            const kobalt_status st =
                lu_inplace<T>(h, routine, dA, n, A, lda, ipiv, strideIpiv, info, batch, true, s, bad);
            if (st != KOBALT_SUCCESS) return st;
            if (bad) { // else no scratch: Kobalt's kernels below, on the untouched input
                const Launch L = plan(batch, 0);
                getrf_kernel<T><<<L.blocks, L.threads, 0, stream()>>>(int(m), int(n), dA, A, ipiv, strideIpiv, info,
                                                                      batch, 0, bad);
                return launch_status(p, routine);
            }
        }
        Scratch sw, sp, sb, sa;
        const idx nn = idx(n) * n;
        if (sw.alloc(sizeof(T) * size_t(nn) * size_t(batch)) && sp.alloc(sizeof(int) * size_t(n) * size_t(batch)) &&
            sb.alloc(sizeof(int) * size_t(batch))) {
            T *W = sw.as<T>();
            pack_kernel<T><<<grid_1d(batch * nn), 256, 0, stream()>>>(W, dA, A, int(n), batch);
            T *const *pw = ptr_array(Strided<T>{W, nn}, batch, sa);
            if (!pw) return no_memory(p, routine, "the pointer array");
            for (kobalt_int c = 0; c < batch; c += kChunk) {
                const int nb = int(std::min<kobalt_int>(kChunk, batch - c));
                const kobalt_status st = blas_status(
                    p, routine, getrf_b(h, int(n), pw + c, int(n), sp.as<int>() + c * n, info + c, nb),
                    "cublas<t>getrfBatched");
                if (st != KOBALT_SUCCESS) return st;
            }
            const int blocks = int(std::min<idx>(batch, idx(multiprocessors()) * 16));
            unpack_kernel<T><<<blocks, 128, 0, stream()>>>(W, sp.as<int>(), dA, A, int(n), ipiv, strideIpiv, info,
                                                           sb.as<int>(), int(check), batch);
            const Launch L = plan(batch, 0);
            getrf_kernel<T><<<L.blocks, L.threads, 0, stream()>>>(int(m), int(n), dA, A, ipiv, strideIpiv, info,
                                                                  batch, 0, sb.as<int>());
            return launch_status(p, routine);
        }
    }
    // square pivoted items up to 8: one thread per item, staged a warp at a time (lu_warp.cu)
    if (ipiv && m == n && n >= threshold(GETRF_WARP_MIN) && n <= threshold(GETRF_WARP_MAX) &&
        warp_getrf<T>(int(n), dA, A, ipiv, strideIpiv, info, batch, stream()))
        return launch_status(p, routine);
    const kobalt_int bcast_min = threshold(GETRF_BCAST_MIN);
    const bool bcast = bcast_min > 0 && mx(m, n) >= bcast_min;
    const kobalt_int full_min = threshold(GETRF_FULL_MIN);
    const bool full = full_min > 0 && m == n && n >= full_min;
    const kobalt_int two_min = threshold(GETRF_TWO_ROWS_MIN_FLOAT);
    const bool two_rows = sizeof(T) == 4 && two_min > 0 && m == n && n >= two_min &&
                          n <= threshold(GETRF_TWO_ROWS_MAX_FLOAT);
    if (use_group(mx(m, n)) &&
        group_getrf<T>(int(m), int(n), dA, A, ipiv, strideIpiv, info, batch, bcast, full, two_rows, stream()))
        return launch_status(p, routine);
    const Launch L = plan(batch, sizeof(T) * dA.P);
    getrf_kernel<T><<<L.blocks, L.threads, L.smem, stream()>>>(int(m), int(n), dA, A, ipiv, strideIpiv, info,
                                                               batch, L.staged);
    return launch_status(p, routine);
}

template <class T, class AA, class BA>
kobalt_status getrs(const char *routine, kobalt_layout layout, kobalt_op trans, kobalt_int n,
                    kobalt_int nrhs, AA A, kobalt_int lda, const int *ipiv, kobalt_int strideIpiv, BA B,
                    kobalt_int ldb, kobalt_int batch) {
    const char p = precision_letter<T>();
    if (!fits<T>(routine, {{"n", n}, {"nrhs", nrhs}, {"lda", lda}, {"ldb", ldb}})) return KOBALT_NOT_SUPPORTED;
    if (n == 0 || nrhs == 0) return KOBALT_SUCCESS;
    const MatDesc dA = mat_desc(layout, n, n, lda);
    const MatDesc dB = mat_desc(layout, n, nrhs, ldb);
    const bool tr = trans != KOBALT_NO_TRANS;
    if (n > threshold(GETRS_SMALL_MAX)) {
        if (layout == KOBALT_COL_MAJOR && ipiv) { // cuBLAS getrsBatched (pivots packed n per item)
            cublasHandle_t h = blas_handle();
            if (!h) return no_handle(p, routine);
            if (threshold(VENDOR_INPLACE) != 0)
                return vendor_getrs<T>(h, routine, tr, n, nrhs, A, lda, ipiv, strideIpiv, B, ldb, nullptr, batch);
            Scratch sa, sb, sp;
            const T *const *pa = ptr_array(A, batch, sa);
            T *const *pb = ptr_array(B, batch, sb);
            if (!pa || !pb) return no_memory(p, routine, "the pointer arrays");
            const int *piv = ipiv;
            if (strideIpiv != n) {
                if (!sp.alloc(sizeof(int) * size_t(batch) * size_t(n))) return no_memory(p, routine, "the pivots");
                copy_ipiv_kernel<<<grid_1d(batch * n), 256, 0, stream()>>>(sp.as<int>(), n, ipiv, strideIpiv, int(n),
                                                                           batch);
                piv = sp.as<int>();
            }
            for (kobalt_int c = 0; c < batch; c += kChunk) {
                const int nb = int(std::min<kobalt_int>(kChunk, batch - c));
                int hinfo = 0;
                const kobalt_status st =
                    blas_status(p, routine,
                                getrs_b(h, tr ? CUBLAS_OP_T : CUBLAS_OP_N, int(n), int(nrhs), pa + c, int(lda),
                                        piv + c * n, pb + c, int(ldb), &hinfo, nb),
                                "cublas<t>getrsBatched");
                if (st != KOBALT_SUCCESS) return st;
            }
            return KOBALT_SUCCESS;
        }
        // row interchanges (own kernel) + two cuBLAS triangular solves
        if (ipiv && !tr) laswp_kernel<T><<<grid_1d(batch * nrhs), 256, 0, stream()>>>(true, int(n), int(nrhs), ipiv,
                                                                                       strideIpiv, dB, B, batch);
        kobalt_status st = vendor_trsm<T>(routine, layout, KOBALT_LEFT, tr ? KOBALT_UPPER : KOBALT_LOWER,
                                          tr ? KOBALT_TRANS : KOBALT_NO_TRANS, tr ? KOBALT_NON_UNIT : KOBALT_UNIT, n,
                                          nrhs, T(1), A, lda, B, ldb, batch);
        if (st == KOBALT_SUCCESS)
            st = vendor_trsm<T>(routine, layout, KOBALT_LEFT, tr ? KOBALT_LOWER : KOBALT_UPPER,
                                tr ? KOBALT_TRANS : KOBALT_NO_TRANS, tr ? KOBALT_UNIT : KOBALT_NON_UNIT, n, nrhs, T(1),
                                A, lda, B, ldb, batch);
        if (st != KOBALT_SUCCESS) return st;
        if (ipiv && tr) laswp_kernel<T><<<grid_1d(batch * nrhs), 256, 0, stream()>>>(false, int(n), int(nrhs), ipiv,
                                                                                      strideIpiv, dB, B, batch);
        return launch_status(p, routine);
    }
    // double, column-major, NoTrans, one right-hand side, from GETRS_PREFETCH_MIN up to n = 32:
    // W lanes per item, each group's next item prefetched (getrs_rows.cuh); below it, from
    // GETRS_PIPE_MIN up to n = 8: one thread per item with the operands piped through shared
    // memory (getrs_pipe.cuh)
    if constexpr (std::is_same_v<T, double>) {
        if (use_group(n) && !tr && nrhs == 1 && layout == KOBALT_COL_MAJOR) {
            const kobalt_int rows_min = threshold(GETRS_PREFETCH_MIN), pipe_min = threshold(GETRS_PIPE_MIN);
            if (rows_min > 0 && n >= rows_min && rows_getrs(int(n), lda, A, ipiv, strideIpiv, B, batch, stream()))
                return launch_status(p, routine);
            if (pipe_min > 0 && n >= pipe_min && n <= threshold(GETRS_PIPE_MAX) &&
                pipe_getrs(int(n), lda, A, ipiv, strideIpiv, B, batch, stream()))
                return launch_status(p, routine);
        }
    }
    // the rest with one right-hand side up to 8: one thread per item, staged a warp at a time
    // (getrs_warp.cu; after the two kernels above, which win at n = 6 and 8 in their case)
    if (n >= threshold(GETRS_WARP_MIN) && n <= threshold(GETRS_WARP_MAX) &&
        warp_getrs<T>(int(n), int(nrhs), tr, dA, A, ipiv, strideIpiv, dB, B, batch, stream()))
        return launch_status(p, routine);
    if (use_group(n) &&
        group_getrs<T>(tr, int(n), int(nrhs), dA, A, ipiv, strideIpiv, dB, B, batch, stream()))
        return launch_status(p, routine);
    const Launch L = plan(batch, sizeof(T) * (dA.P + dB.P));
    getrs_kernel<T><<<L.blocks, L.threads, L.smem, stream()>>>(trans != KOBALT_NO_TRANS, int(n), int(nrhs), dA,
                                                               A, ipiv, strideIpiv, dB, B, batch, L.staged);
    return launch_status(p, routine);
}

// Item t's rows x cols matrix S -> D (same logical matrix, each in its own layout); with
// `only_ok`, only items whose info is 0.
template <class T, class SA, class DA>
__global__ void copy_items_kernel(MatDesc ds, SA S, MatDesc dd, DA D, int rows, int cols, const int *only_ok,
                                  idx batch) {
    const idx per = idx(rows) * cols;
    KOBALT_GRID_STRIDE(e, batch * per) {
        const idx t = e / per, rem = e - t * per;
        if (only_ok && only_ok[t] != 0) continue;
        const int r = dd.col ? int(rem % rows) : int(rem / cols), c = dd.col ? int(rem / rows) : int(rem % cols);
        dd.global<T>(D(t))(r, c) = ds.global<T>(S(t))(r, c);
    }
}
template <class T> Strided<const T> as_const(Strided<T> a) { return Strided<const T>{a.base, a.stride}; }
template <class T> Ptrs<const T> as_const(Ptrs<T> a) { return Ptrs<const T>{a.p}; }
// The scratch operand W in the batch form of `like` (the kernels are instantiated for
// matching forms only); NULL pointers when the pointer array cannot be allocated.
template <class T> bool same_form(Strided<T> &out, Strided<T> w, idx, Scratch &) {
    out = w;
    return true;
}
template <class T> bool same_form(Ptrs<T> &out, Strided<T> w, idx batch, Scratch &s) {
    out = Ptrs<T>{ptr_array(w, batch, s)};
    return out.p != nullptr;
}

// The fused call above the group kernels' sizes, as cuBLAS gemm -> getrf -> getrs on the
// stream. B's solution is computed in a scratch copy and copied back only where info is 0,
// so B stays untouched on singular items as in the one-kernel path; the copy is allocated
// first, so running out of memory writes nothing.
template <class T, class XA, class YA, class AA, class BA>
kobalt_status fused_composed(const char *routine, kobalt_layout layout, kobalt_op tx, kobalt_op ty, kobalt_int n,
                             kobalt_int k, kobalt_int nrhs, T alpha, XA X, kobalt_int ldx, YA Y, kobalt_int ldy,
                             T beta, AA A, kobalt_int lda, int *ipiv, kobalt_int strideIpiv, BA B, kobalt_int ldb,
                             int *info, kobalt_int batch) {
    const char p = precision_letter<T>();
    const bool col = layout == KOBALT_COL_MAJOR;
    const kobalt_int ldw = col ? n : nrhs, per = n * nrhs;
    Scratch sw;
    if (nrhs > 0 && !sw.alloc(sizeof(T) * size_t(per) * size_t(batch)))
        return no_memory(p, routine, "the copy of the right-hand sides");
    auto vendor = [&](cublasHandle_t h) {
        return vendor_gemm<T>(h, routine, layout, tx, ty, n, n, k, alpha, X, ldx, Y, ldy, beta, A, lda, batch);
    };
    kobalt_status st = gemm<T>(routine, layout, tx, ty, n, n, k, alpha, X, ldx, Y, ldy, beta, A, lda, batch, vendor);
    if (st == KOBALT_SUCCESS)
        st = getrf<T>(routine, layout, n, n, A, lda, ipiv, strideIpiv, info, batch, (T *)nullptr, 0);
    if (st != KOBALT_SUCCESS || nrhs == 0) return st;
    const MatDesc dB = mat_desc(layout, n, nrhs, ldb), dW = mat_desc(layout, n, nrhs, ldw);
    Strided<T> W{sw.as<T>(), per};
    Scratch sp;
    BA WB = B;
    if (!same_form(WB, W, batch, sp)) return no_memory(p, routine, "the pointer array");
    copy_items_kernel<T, BA, Strided<T>><<<grid_1d(batch * per), 256, 0, stream()>>>(dB, B, dW, W, int(n), int(nrhs), nullptr, batch);
    st = getrs<T>(routine, layout, KOBALT_NO_TRANS, n, nrhs, as_const(A), lda, ipiv, strideIpiv, WB, ldw, batch);
    if (st != KOBALT_SUCCESS) return st;
    copy_items_kernel<T, Strided<T>, BA><<<grid_1d(batch * per), 256, 0, stream()>>>(dW, W, dB, B, int(n), int(nrhs), info, batch);
    return launch_status(p, routine);
}

// The fused call above the group kernels' sizes, column-major and pivoted, with getrf and
// getrs both on cuBLAS (VENDOR_INPLACE): gemm, then getrf in place; with beta = 0 without
// a snapshot (A = alpha op(X) op(Y) can be recomputed: the failed items run the one-kernel
// path, fused_kernel, which leaves B untouched where info > 0), otherwise through getrf's
// snapshot; then getrsBatched with the failed items' B pointed at scratch. No copy of B.
template <class T, class XA, class YA, class AA, class BA>
kobalt_status fused_inplace(const char *routine, kobalt_op tx, kobalt_op ty, kobalt_int n, kobalt_int k,
                            kobalt_int nrhs, T alpha, XA X, kobalt_int ldx, YA Y, kobalt_int ldy, T beta, AA A,
                            kobalt_int lda, int *ipiv, kobalt_int strideIpiv, BA B, kobalt_int ldb, int *info,
                            kobalt_int batch, const MatDesc &dX, const MatDesc &dY, const MatDesc &dA,
                            const MatDesc &dB) {
    const char p = precision_letter<T>();
    const kobalt_layout layout = KOBALT_COL_MAJOR;
    auto vendor = [&](cublasHandle_t h) {
        return vendor_gemm<T>(h, routine, layout, tx, ty, n, n, k, alpha, X, ldx, Y, ldy, beta, A, lda, batch);
    };
    kobalt_status st = gemm<T>(routine, layout, tx, ty, n, n, k, alpha, X, ldx, Y, ldy, beta, A, lda, batch, vendor);
    if (st != KOBALT_SUCCESS) return st;
    cublasHandle_t h = blas_handle();
    if (!h) return no_handle(p, routine);
    const int *skip = info; // items with info != 0 keep their B
    Scratch s;
    int *bad = nullptr;
    // (sizes of the block-per-item getrf take getrf below: its info is exact, no recompute)
    if (beta == T(0) && !use_block(n)) {
        st = lu_inplace<T>(h, routine, dA, n, A, lda, ipiv, strideIpiv, info, batch, false, s, bad);
        if (st != KOBALT_SUCCESS) return st;
    }
    if (bad) {
        const Launch L = plan(batch, 0);
        fused_kernel<T><<<L.blocks, L.threads, 0, stream()>>>(int(n), int(k), int(nrhs), alpha, dX, X, dY, Y, beta, dA,
                                                              A, ipiv, strideIpiv, dB, B, info, batch, 0, bad);
        st = launch_status(p, routine);
        skip = bad; // solved (or left alone) by fused_kernel
    } else {
        st = getrf<T>(routine, layout, n, n, A, lda, ipiv, strideIpiv, info, batch, (T *)nullptr, 0);
    }
    if (st != KOBALT_SUCCESS || nrhs == 0) return st;
    h = blas_handle();
    if (!h) return no_handle(p, routine);
    return vendor_getrs<T>(h, routine, false, n, nrhs, as_const(A), lda, ipiv, strideIpiv, B, ldb, skip, batch);
}

template <class T, class XA, class YA, class AA, class BA>
kobalt_status fused(const char *routine, kobalt_layout layout, kobalt_op tx, kobalt_op ty, kobalt_int n,
                    kobalt_int k, kobalt_int nrhs, T alpha, XA X, kobalt_int ldx, YA Y, kobalt_int ldy, T beta,
                    AA A, kobalt_int lda, int *ipiv, kobalt_int strideIpiv, BA B, kobalt_int ldb, int *info,
                    kobalt_int batch) {
    const char p = precision_letter<T>();
    if (!fits<T>(routine, {{"n", n}, {"k", k}, {"nrhs", nrhs}, {"ldx", ldx}, {"ldy", ldy}, {"lda", lda},
                           {"ldb", ldb}}))
        return KOBALT_NOT_SUPPORTED;
    if (n == 0) return zero_info(p, routine, info, batch);
    const bool tX = tx != KOBALT_NO_TRANS, tY = ty != KOBALT_NO_TRANS;
    const MatDesc dX = mat_desc(layout, tX ? k : n, tX ? n : k, ldx, tX);
    const MatDesc dY = mat_desc(layout, tY ? n : k, tY ? k : n, ldy, tY);
    const MatDesc dA = mat_desc(layout, n, n, lda);
    const MatDesc dB = mat_desc(layout, n, nrhs, ldb);
    // float above the fused threshold: the staged kernel first where it applies (it declines
    // k > W, nrhs > 1), the sequences below otherwise
    const bool staged = use_group(n) && n >= threshold(FUSED_FULL_MIN) && n <= threshold(FUSED_FULL_MAX);
    if (sizeof(T) == 4 && n > threshold(GEMM_LU_TRSV_SMALL_MAX) && n <= threshold(GEMM_LU_TRSV_FULL_MAX_FLOAT) &&
        staged &&
        full_fused<T>(int(n), int(k), int(nrhs), alpha, dX, X, dY, Y, beta, dA, A, ipiv, strideIpiv, dB, B, info,
                      batch, stream()))
        return launch_status(p, routine);
    if (n > threshold(GEMM_LU_TRSV_SMALL_MAX) && layout == KOBALT_COL_MAJOR && ipiv &&
        n > threshold(GETRF_SMALL_MAX) && n > threshold(GETRS_SMALL_MAX) && threshold(VENDOR_CHECK) != 0 &&
        threshold(VENDOR_INPLACE) != 0 && n <= 46340)
        return fused_inplace<T>(routine, tx, ty, n, k, nrhs, alpha, X, ldx, Y, ldy, beta, A, lda, ipiv, strideIpiv, B,
                                ldb, info, batch, dX, dY, dA, dB);
    if (n > threshold(GEMM_LU_TRSV_SMALL_MAX))
        return fused_composed<T>(routine, layout, tx, ty, n, k, nrhs, alpha, X, ldx, Y, ldy, beta, A, lda, ipiv,
                                 strideIpiv, B, ldb, info, batch);
    // k == n, nrhs == 1 up to 8: one thread per item, staged a warp at a time (fused_warp.cu)
    if (n >= threshold(FUSED_WARP_MIN) && n <= threshold(FUSED_WARP_MAX) &&
        warp_fused<T>(int(n), int(k), int(nrhs), alpha, dX, X, dY, Y, beta, dA, A, ipiv, strideIpiv, dB, B, info,
                      batch, stream()))
        return launch_status(p, routine);
    // n = 9 ... 32, k <= the group width, nrhs <= 1: a group per item, operands staged ahead
    // (fused_full.cu)
    if (staged &&
        full_fused<T>(int(n), int(k), int(nrhs), alpha, dX, X, dY, Y, beta, dA, A, ipiv, strideIpiv, dB, B, info,
                      batch, stream()))
        return launch_status(p, routine);
    if (use_group(n) && group_fused<T>(int(n), int(k), int(nrhs), alpha, dX, X, dY, Y, beta, dA, A, ipiv,
                                       strideIpiv, dB, B, info, batch, stream()))
        return launch_status(p, routine);
    const Launch L = plan(batch, sizeof(T) * (dX.P + dY.P + dA.P + dB.P), 256 * sizeof(int));
    fused_kernel<T><<<L.blocks, L.threads, L.smem, stream()>>>(int(n), int(k), int(nrhs), alpha, dX, X, dY, Y,
                                                               beta, dA, A, ipiv, strideIpiv, dB, B, info,
                                                               batch, L.staged);
    return launch_status(p, routine);
}

} // namespace

// ---- the slots ----------------------------------------------------------------------------
template <class Real>
kobalt_status gemm_strided(kobalt_layout layout, kobalt_op transa, kobalt_op transb, kobalt_int m, kobalt_int n,
                           kobalt_int k, Real alpha, const Real *A, kobalt_int lda, kobalt_int strideA,
                           const Real *B, kobalt_int ldb, kobalt_int strideB, Real beta, Real *C, kobalt_int ldc,
                           kobalt_int strideC, kobalt_int batch) {
    static const char r[] = "gemm_strided";
    const Strided<const Real> a{A, strideA}, b{B, strideB};
    const Strided<Real> c{C, strideC};
    auto vendor = [&](cublasHandle_t h) {
        return vendor_gemm<Real>(h, r, layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch);
    };
    return gemm<Real>(r, layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, vendor);
}

template <class Real>
kobalt_status gemm_batched(kobalt_layout layout, kobalt_op transa, kobalt_op transb, kobalt_int m, kobalt_int n,
                           kobalt_int k, Real alpha, const Real *const A[], kobalt_int lda, const Real *const B[],
                           kobalt_int ldb, Real beta, Real *const C[], kobalt_int ldc, kobalt_int batch) {
    static const char r[] = "gemm_batched";
    const Ptrs<const Real> a{A}, b{B};
    const Ptrs<Real> c{C};
    auto vendor = [&](cublasHandle_t h) {
        return vendor_gemm<Real>(h, r, layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch);
    };
    return gemm<Real>(r, layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch, vendor);
}

template <class Real>
kobalt_status gemv_strided(kobalt_layout layout, kobalt_op trans, kobalt_int m, kobalt_int n, Real alpha,
                           const Real *A, kobalt_int lda, kobalt_int strideA, const Real *x, kobalt_int incx,
                           kobalt_int stridex, Real beta, Real *y, kobalt_int incy, kobalt_int stridey,
                           kobalt_int batch) {
    return gemv<Real>("gemv_strided", layout, trans, m, n, alpha, Strided<const Real>{A, strideA}, lda,
                      Strided<const Real>{x, stridex}, incx, beta, Strided<Real>{y, stridey}, incy, batch);
}
template <class Real>
kobalt_status gemv_batched(kobalt_layout layout, kobalt_op trans, kobalt_int m, kobalt_int n, Real alpha,
                           const Real *const A[], kobalt_int lda, const Real *const x[], kobalt_int incx,
                           Real beta, Real *const y[], kobalt_int incy, kobalt_int batch) {
    return gemv<Real>("gemv_batched", layout, trans, m, n, alpha, Ptrs<const Real>{A}, lda, Ptrs<const Real>{x},
                      incx, beta, Ptrs<Real>{y}, incy, batch);
}

template <class Real>
kobalt_status trsv_strided(kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans, kobalt_diag diag, kobalt_int n,
                           const Real *A, kobalt_int lda, kobalt_int strideA, Real *x, kobalt_int incx,
                           kobalt_int stridex, kobalt_int batch) {
    return trsv<Real>("trsv_strided", layout, uplo, trans, diag, n, Strided<const Real>{A, strideA}, lda,
                      Strided<Real>{x, stridex}, incx, batch);
}
template <class Real>
kobalt_status trsv_batched(kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans, kobalt_diag diag, kobalt_int n,
                           const Real *const A[], kobalt_int lda, Real *const x[], kobalt_int incx,
                           kobalt_int batch) {
    return trsv<Real>("trsv_batched", layout, uplo, trans, diag, n, Ptrs<const Real>{A}, lda, Ptrs<Real>{x}, incx,
                      batch);
}

template <class Real>
kobalt_status trsm_strided(kobalt_layout layout, kobalt_side side, kobalt_uplo uplo, kobalt_op transa,
                           kobalt_diag diag, kobalt_int m, kobalt_int n, Real alpha, const Real *A, kobalt_int lda,
                           kobalt_int strideA, Real *B, kobalt_int ldb, kobalt_int strideB, kobalt_int batch) {
    return trsm<Real>("trsm_strided", layout, side, uplo, transa, diag, m, n, alpha, Strided<const Real>{A, strideA},
                      lda, Strided<Real>{B, strideB}, ldb, batch);
}
template <class Real>
kobalt_status trsm_batched(kobalt_layout layout, kobalt_side side, kobalt_uplo uplo, kobalt_op transa,
                           kobalt_diag diag, kobalt_int m, kobalt_int n, Real alpha, const Real *const A[],
                           kobalt_int lda, Real *const B[], kobalt_int ldb, kobalt_int batch) {
    return trsm<Real>("trsm_batched", layout, side, uplo, transa, diag, m, n, alpha, Ptrs<const Real>{A}, lda,
                      Ptrs<Real>{B}, ldb, batch);
}

template <class Real>
kobalt_status getrf_strided(kobalt_layout layout, kobalt_int m, kobalt_int n, Real *A, kobalt_int lda,
                            kobalt_int strideA, int *ipiv, kobalt_int strideIpiv, int *info, kobalt_int batch) {
    return getrf<Real>("getrf_strided", layout, m, n, Strided<Real>{A, strideA}, lda, ipiv, strideIpiv, info, batch,
                       A, strideA);
}
template <class Real>
kobalt_status getrf_batched(kobalt_layout layout, kobalt_int m, kobalt_int n, Real *const A[], kobalt_int lda,
                            int *ipiv, kobalt_int strideIpiv, int *info, kobalt_int batch) {
    return getrf<Real>("getrf_batched", layout, m, n, Ptrs<Real>{A}, lda, ipiv, strideIpiv, info, batch,
                       (Real *)nullptr, 0);
}

template <class Real>
kobalt_status getrs_strided(kobalt_layout layout, kobalt_op trans, kobalt_int n, kobalt_int nrhs, const Real *A,
                            kobalt_int lda, kobalt_int strideA, const int *ipiv, kobalt_int strideIpiv, Real *B,
                            kobalt_int ldb, kobalt_int strideB, kobalt_int batch) {
    return getrs<Real>("getrs_strided", layout, trans, n, nrhs, Strided<const Real>{A, strideA}, lda, ipiv,
                       strideIpiv, Strided<Real>{B, strideB}, ldb, batch);
}
template <class Real>
kobalt_status getrs_batched(kobalt_layout layout, kobalt_op trans, kobalt_int n, kobalt_int nrhs,
                            const Real *const A[], kobalt_int lda, const int *ipiv, kobalt_int strideIpiv,
                            Real *const B[], kobalt_int ldb, kobalt_int batch) {
    return getrs<Real>("getrs_batched", layout, trans, n, nrhs, Ptrs<const Real>{A}, lda, ipiv, strideIpiv,
                       Ptrs<Real>{B}, ldb, batch);
}

template <class Real>
kobalt_status gemm_lu_trsv_strided(kobalt_layout layout, kobalt_op transx, kobalt_op transy, kobalt_int n,
                                   kobalt_int k, kobalt_int nrhs, Real alpha, const Real *X, kobalt_int ldx,
                                   kobalt_int strideX, const Real *Y, kobalt_int ldy, kobalt_int strideY, Real beta,
                                   Real *A, kobalt_int lda, kobalt_int strideA, int *ipiv, kobalt_int strideIpiv,
                                   Real *B, kobalt_int ldb, kobalt_int strideB, int *info, kobalt_int batch) {
    return fused<Real>("gemm_lu_trsv_strided", layout, transx, transy, n, k, nrhs, alpha,
                       Strided<const Real>{X, strideX}, ldx, Strided<const Real>{Y, strideY}, ldy, beta,
                       Strided<Real>{A, strideA}, lda, ipiv, strideIpiv, Strided<Real>{B, strideB}, ldb, info, batch);
}
template <class Real>
kobalt_status gemm_lu_trsv_batched(kobalt_layout layout, kobalt_op transx, kobalt_op transy, kobalt_int n,
                                   kobalt_int k, kobalt_int nrhs, Real alpha, const Real *const X[], kobalt_int ldx,
                                   const Real *const Y[], kobalt_int ldy, Real beta, Real *const A[], kobalt_int lda,
                                   int *ipiv, kobalt_int strideIpiv, Real *const B[], kobalt_int ldb, int *info,
                                   kobalt_int batch) {
    return fused<Real>("gemm_lu_trsv_batched", layout, transx, transy, n, k, nrhs, alpha, Ptrs<const Real>{X}, ldx,
                       Ptrs<const Real>{Y}, ldy, beta, Ptrs<Real>{A}, lda, ipiv, strideIpiv, Ptrs<Real>{B}, ldb,
                       info, batch);
}

#define KOBALT_CUDA_INSTANTIATE(fn)                                                                \
    template decltype(fn<double>) fn<double>;                                                      \
    template decltype(fn<float>) fn<float>;
KOBALT_CUDA_INSTANTIATE(gemm_strided)
KOBALT_CUDA_INSTANTIATE(gemm_batched)
KOBALT_CUDA_INSTANTIATE(gemv_strided)
KOBALT_CUDA_INSTANTIATE(gemv_batched)
KOBALT_CUDA_INSTANTIATE(trsv_strided)
KOBALT_CUDA_INSTANTIATE(trsv_batched)
KOBALT_CUDA_INSTANTIATE(trsm_strided)
KOBALT_CUDA_INSTANTIATE(trsm_batched)
KOBALT_CUDA_INSTANTIATE(getrf_strided)
KOBALT_CUDA_INSTANTIATE(getrf_batched)
KOBALT_CUDA_INSTANTIATE(getrs_strided)
KOBALT_CUDA_INSTANTIATE(getrs_batched)
KOBALT_CUDA_INSTANTIATE(gemm_lu_trsv_strided)
KOBALT_CUDA_INSTANTIATE(gemm_lu_trsv_batched)

} // namespace kobalt_cuda
