// lapack.cpp -- the served LAPACK-like entry points, real precisions: getrf, getrs,
// getri, matinv (pointer arrays; cuBLAS has no other form of them). As in blas.cpp,
// each definition redeclares the cublas_v2.h function, so the compiler checks the
// signature.
//
// info follows cuBLAS: device arrays, one int per item, for getrf, getri and matinv
// (Kobalt writes them on the stream, like cuBLAS); a host int for getrs, which cuBLAS
// sets to 0 or -(bad argument) at call time: the shim sets 0 for a call it serves and
// leaves every call with a bad argument to cuBLAS. A NULL pivot array means no
// pivoting in both libraries.
#include "kobalt_calls.hpp"
#include "shim.hpp"

namespace kobalt_cublas {
namespace {

template <class T, class F>
cublasStatus_t getrf_batched(const char *fn, cublasHandle_t h, int n, T *const A[], int lda, int *P, int *info,
                             int batch, F forward) {
    Call call(fn);
    call.describe("n=%d lda=%d batch=%d%s", n, lda, batch, P ? "" : " no pivoting");
    call.forward_if(n < 0 || batch < 0, "a negative size or batch count")
        .forward_if(lda < max1(n), "lda below max(1, n)")
        .forward_if(!info, "info is NULL")
        .forward_if(n == 0 || batch == 0, "nothing to compute")
        .size(GETRF, n, "n")
        .handle(h, false)
        .device(A, "A");
    return call.run([&] { return Kobalt<T>::getrf_batched(KOBALT_COL_MAJOR, n, n, A, lda, P, n, info, batch); },
                    forward);
}

template <class T, class F>
cublasStatus_t getrs_batched(const char *fn, cublasHandle_t h, cublasOperation_t trans, int n, int nrhs,
                             const T *const A[], int lda, const int *P, T *const B[], int ldb, int *info, int batch,
                             F forward) {
    Call call(fn);
    call.describe("n=%d nrhs=%d batch=%d%s", n, nrhs, batch, P ? "" : " no pivoting");
    kobalt_op op = KOBALT_NO_TRANS;
    call.forward_if(!to_kobalt(trans, op), "trans (%d) not N, T or C", int(trans))
        .forward_if(n < 0 || nrhs < 0 || batch < 0, "a negative size or batch count")
        .forward_if(lda < max1(n) || ldb < max1(n), "a leading dimension below max(1, n)")
        .forward_if(!info, "info is NULL")
        .forward_if(n == 0 || nrhs == 0 || batch == 0, "nothing to compute")
        .size(GETRS, n, "n")
        .handle(h, false)
        .device(B, "Barray");
    return call.run(
        [&] {
            *info = 0; // cuBLAS's host info: the arguments are valid
            return Kobalt<T>::getrs_batched(KOBALT_COL_MAJOR, op, n, nrhs, A, lda, P, n, B, ldb, batch);
        },
        forward);
}

template <class T, class F>
cublasStatus_t getri_batched(const char *fn, cublasHandle_t h, int n, const T *const A[], int lda, const int *P,
                             T *const C[], int ldc, int *info, int batch, F forward) {
    Call call(fn);
    call.describe("n=%d batch=%d%s", n, batch, P ? "" : " no pivoting");
    call.forward_if(n < 0 || batch < 0, "a negative size or batch count")
        .forward_if(lda < max1(n) || ldc < max1(n), "a leading dimension below max(1, n)")
        .forward_if(!info, "info is NULL")
        .forward_if(n == 0 || batch == 0, "nothing to compute")
        .size(GETRI, n, "n")
        .handle(h, false)
        .device(C, "C");
    return call.run(
        [&] { return Kobalt<T>::getri_batched(KOBALT_COL_MAJOR, n, A, lda, P, n, C, ldc, info, batch); }, forward);
}

template <class T, class F>
cublasStatus_t matinv_batched(const char *fn, cublasHandle_t h, int n, const T *const A[], int lda,
                              T *const Ainv[], int lda_inv, int *info, int batch, F forward) {
    Call call(fn);
    call.describe("n=%d batch=%d", n, batch);
    call.forward_if(n < 0 || batch < 0, "a negative size or batch count")
        .forward_if(n > 32, "n (%d) > 32, which cuBLAS's matinvBatched refuses", n)
        .forward_if(lda < max1(n) || lda_inv < max1(n), "a leading dimension below max(1, n)")
        .forward_if(!info, "info is NULL")
        .forward_if(n == 0 || batch == 0, "nothing to compute")
        .size(MATINV, n, "n")
        .handle(h, false)
        .device(Ainv, "Ainv");
    return call.run(
        [&] { return Kobalt<T>::matinv_batched(KOBALT_COL_MAJOR, n, A, lda, Ainv, lda_inv, info, batch); },
        forward);
}

} // namespace
} // namespace kobalt_cublas

using namespace kobalt_cublas;

#define KOBALT_CUBLAS_GETRF(NAME, T)                                                                             \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, int n, T *const A[], int lda, int *P, int *info,     \
                                   int batchSize) {                                                             \
        return getrf_batched<T>(#NAME, handle, n, A, lda, P, info, batchSize,                                   \
                                KOBALT_CUBLAS_FORWARD(NAME, handle, n, A, lda, P, info, batchSize));            \
    }
KOBALT_CUBLAS_GETRF(cublasDgetrfBatched, double)
KOBALT_CUBLAS_GETRF(cublasSgetrfBatched, float)

#define KOBALT_CUBLAS_GETRS(NAME, T)                                                                             \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,            \
                                   const T *const Aarray[], int lda, const int *devIpiv, T *const Barray[],     \
                                   int ldb, int *info, int batchSize) {                                         \
        return getrs_batched<T>(#NAME, handle, trans, n, nrhs, Aarray, lda, devIpiv, Barray, ldb, info,         \
                                batchSize,                                                                      \
                                KOBALT_CUBLAS_FORWARD(NAME, handle, trans, n, nrhs, Aarray, lda, devIpiv,       \
                                                      Barray, ldb, info, batchSize));                           \
    }
KOBALT_CUBLAS_GETRS(cublasDgetrsBatched, double)
KOBALT_CUBLAS_GETRS(cublasSgetrsBatched, float)

#define KOBALT_CUBLAS_GETRI(NAME, T)                                                                             \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, int n, const T *const A[], int lda, const int *P,     \
                                   T *const C[], int ldc, int *info, int batchSize) {                           \
        return getri_batched<T>(#NAME, handle, n, A, lda, P, C, ldc, info, batchSize,                           \
                                KOBALT_CUBLAS_FORWARD(NAME, handle, n, A, lda, P, C, ldc, info, batchSize));    \
    }
KOBALT_CUBLAS_GETRI(cublasDgetriBatched, double)
KOBALT_CUBLAS_GETRI(cublasSgetriBatched, float)

#define KOBALT_CUBLAS_MATINV(NAME, T)                                                                            \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, int n, const T *const A[], int lda, T *const Ainv[],  \
                                   int lda_inv, int *info, int batchSize) {                                     \
        return matinv_batched<T>(#NAME, handle, n, A, lda, Ainv, lda_inv, info, batchSize,                      \
                                 KOBALT_CUBLAS_FORWARD(NAME, handle, n, A, lda, Ainv, lda_inv, info,            \
                                                       batchSize));                                             \
    }
KOBALT_CUBLAS_MATINV(cublasDmatinvBatched, double)
KOBALT_CUBLAS_MATINV(cublasSmatinvBatched, float)
