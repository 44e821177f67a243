// forwarded.cpp -- the exported entry points Kobalt does not serve: every complex
// precision (c, z) of the served routines and their _64 twins, and geqrf and gels in
// every precision. Each one logs its path (KOBALT_CUBLAS_VERBOSE=1) and calls the real
// cuBLAS function with its arguments unchanged. The parameter lists are those of
// cublas_api.h (written out from it); a definition that differed from the header's
// declaration would not compile.
#include "shim.hpp"

using namespace kobalt_cublas;

KOBALT_CUBLAS_API cublasStatus_t cublasSgeqrfBatched(cublasHandle_t handle, int m, int n, float* const Aarray[], int lda, float* const TauArray[], int* info, int batchSize) {
    return forward_only("cublasSgeqrfBatched", "Kobalt has no geqrf",
                        KOBALT_CUBLAS_FORWARD(cublasSgeqrfBatched, handle, m, n, Aarray, lda, TauArray, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasSgelsBatched(cublasHandle_t handle, cublasOperation_t trans, int m, int n, int nrhs, float* const Aarray[], int lda, float* const Carray[], int ldc, int* info, int* devInfoArray, int batchSize) {
    return forward_only("cublasSgelsBatched", "Kobalt has no gels",
                        KOBALT_CUBLAS_FORWARD(cublasSgelsBatched, handle, trans, m, n, nrhs, Aarray, lda, Carray, ldc, info, devInfoArray, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasDgeqrfBatched(cublasHandle_t handle, int m, int n, double* const Aarray[], int lda, double* const TauArray[], int* info, int batchSize) {
    return forward_only("cublasDgeqrfBatched", "Kobalt has no geqrf",
                        KOBALT_CUBLAS_FORWARD(cublasDgeqrfBatched, handle, m, n, Aarray, lda, TauArray, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasDgelsBatched(cublasHandle_t handle, cublasOperation_t trans, int m, int n, int nrhs, double* const Aarray[], int lda, double* const Carray[], int ldc, int* info, int* devInfoArray, int batchSize) {
    return forward_only("cublasDgelsBatched", "Kobalt has no gels",
                        KOBALT_CUBLAS_FORWARD(cublasDgelsBatched, handle, trans, m, n, nrhs, Aarray, lda, Carray, ldc, info, devInfoArray, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuComplex* alpha, const cuComplex* const Aarray[], int lda, const cuComplex* const Barray[], int ldb, const cuComplex* beta, cuComplex* const Carray[], int ldc, int batchCount) {
    return forward_only("cublasCgemmBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgemmBatched, handle, transa, transb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgemmBatched_64(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n, int64_t k, const cuComplex* alpha, const cuComplex* const Aarray[], int64_t lda, const cuComplex* const Barray[], int64_t ldb, const cuComplex* beta, cuComplex* const Carray[], int64_t ldc, int64_t batchCount) {
    return forward_only("cublasCgemmBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgemmBatched_64, handle, transa, transb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuComplex* alpha, const cuComplex* A, int lda, long long int strideA, const cuComplex* B, int ldb, long long int strideB, const cuComplex* beta, cuComplex* C, int ldc, long long int strideC, int batchCount) {
    return forward_only("cublasCgemmStridedBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgemmStridedBatched, handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgemmStridedBatched_64(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n, int64_t k, const cuComplex* alpha, const cuComplex* A, int64_t lda, long long int strideA, const cuComplex* B, int64_t ldb, long long int strideB, const cuComplex* beta, cuComplex* C, int64_t ldc, long long int strideC, int64_t batchCount) {
    return forward_only("cublasCgemmStridedBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgemmStridedBatched_64, handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgemvBatched(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const cuComplex* alpha, const cuComplex* const Aarray[], int lda, const cuComplex* const xarray[], int incx, const cuComplex* beta, cuComplex* const yarray[], int incy, int batchCount) {
    return forward_only("cublasCgemvBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgemvBatched, handle, trans, m, n, alpha, Aarray, lda, xarray, incx, beta, yarray, incy, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgemvBatched_64(cublasHandle_t handle, cublasOperation_t trans, int64_t m, int64_t n, const cuComplex* alpha, const cuComplex* const Aarray[], int64_t lda, const cuComplex* const xarray[], int64_t incx, const cuComplex* beta, cuComplex* const yarray[], int64_t incy, int64_t batchCount) {
    return forward_only("cublasCgemvBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgemvBatched_64, handle, trans, m, n, alpha, Aarray, lda, xarray, incx, beta, yarray, incy, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgemvStridedBatched(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const cuComplex* alpha, const cuComplex* A, int lda, long long int strideA, const cuComplex* x, int incx, long long int stridex, const cuComplex* beta, cuComplex* y, int incy, long long int stridey, int batchCount) {
    return forward_only("cublasCgemvStridedBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgemvStridedBatched, handle, trans, m, n, alpha, A, lda, strideA, x, incx, stridex, beta, y, incy, stridey, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgemvStridedBatched_64(cublasHandle_t handle, cublasOperation_t trans, int64_t m, int64_t n, const cuComplex* alpha, const cuComplex* A, int64_t lda, long long int strideA, const cuComplex* x, int64_t incx, long long int stridex, const cuComplex* beta, cuComplex* y, int64_t incy, long long int stridey, int64_t batchCount) {
    return forward_only("cublasCgemvStridedBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgemvStridedBatched_64, handle, trans, m, n, alpha, A, lda, strideA, x, incx, stridex, beta, y, incy, stridey, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCtrsmBatched(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuComplex* alpha, const cuComplex* const A[], int lda, cuComplex* const B[], int ldb, int batchCount) {
    return forward_only("cublasCtrsmBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCtrsmBatched, handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCtrsmBatched_64(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int64_t m, int64_t n, const cuComplex* alpha, const cuComplex* const A[], int64_t lda, cuComplex* const B[], int64_t ldb, int64_t batchCount) {
    return forward_only("cublasCtrsmBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCtrsmBatched_64, handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgetrfBatched(cublasHandle_t handle, int n, cuComplex* const A[], int lda, int* P, int* info, int batchSize) {
    return forward_only("cublasCgetrfBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgetrfBatched, handle, n, A, lda, P, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgetrsBatched(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs, const cuComplex* const Aarray[], int lda, const int* devIpiv, cuComplex* const Barray[], int ldb, int* info, int batchSize) {
    return forward_only("cublasCgetrsBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgetrsBatched, handle, trans, n, nrhs, Aarray, lda, devIpiv, Barray, ldb, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgetriBatched(cublasHandle_t handle, int n, const cuComplex* const A[], int lda, const int* P, cuComplex* const C[], int ldc, int* info, int batchSize) {
    return forward_only("cublasCgetriBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgetriBatched, handle, n, A, lda, P, C, ldc, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCmatinvBatched(cublasHandle_t handle, int n, const cuComplex* const A[], int lda, cuComplex* const Ainv[], int lda_inv, int* info, int batchSize) {
    return forward_only("cublasCmatinvBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCmatinvBatched, handle, n, A, lda, Ainv, lda_inv, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgeqrfBatched(cublasHandle_t handle, int m, int n, cuComplex* const Aarray[], int lda, cuComplex* const TauArray[], int* info, int batchSize) {
    return forward_only("cublasCgeqrfBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgeqrfBatched, handle, m, n, Aarray, lda, TauArray, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasCgelsBatched(cublasHandle_t handle, cublasOperation_t trans, int m, int n, int nrhs, cuComplex* const Aarray[], int lda, cuComplex* const Carray[], int ldc, int* info, int* devInfoArray, int batchSize) {
    return forward_only("cublasCgelsBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasCgelsBatched, handle, trans, m, n, nrhs, Aarray, lda, Carray, ldc, info, devInfoArray, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* const Aarray[], int lda, const cuDoubleComplex* const Barray[], int ldb, const cuDoubleComplex* beta, cuDoubleComplex* const Carray[], int ldc, int batchCount) {
    return forward_only("cublasZgemmBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgemmBatched, handle, transa, transb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgemmBatched_64(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n, int64_t k, const cuDoubleComplex* alpha, const cuDoubleComplex* const Aarray[], int64_t lda, const cuDoubleComplex* const Barray[], int64_t ldb, const cuDoubleComplex* beta, cuDoubleComplex* const Carray[], int64_t ldc, int64_t batchCount) {
    return forward_only("cublasZgemmBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgemmBatched_64, handle, transa, transb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* A, int lda, long long int strideA, const cuDoubleComplex* B, int ldb, long long int strideB, const cuDoubleComplex* beta, cuDoubleComplex* C, int ldc, long long int strideC, int batchCount) {
    return forward_only("cublasZgemmStridedBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgemmStridedBatched, handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgemmStridedBatched_64(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n, int64_t k, const cuDoubleComplex* alpha, const cuDoubleComplex* A, int64_t lda, long long int strideA, const cuDoubleComplex* B, int64_t ldb, long long int strideB, const cuDoubleComplex* beta, cuDoubleComplex* C, int64_t ldc, long long int strideC, int64_t batchCount) {
    return forward_only("cublasZgemmStridedBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgemmStridedBatched_64, handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgemvBatched(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* const Aarray[], int lda, const cuDoubleComplex* const xarray[], int incx, const cuDoubleComplex* beta, cuDoubleComplex* const yarray[], int incy, int batchCount) {
    return forward_only("cublasZgemvBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgemvBatched, handle, trans, m, n, alpha, Aarray, lda, xarray, incx, beta, yarray, incy, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgemvBatched_64(cublasHandle_t handle, cublasOperation_t trans, int64_t m, int64_t n, const cuDoubleComplex* alpha, const cuDoubleComplex* const Aarray[], int64_t lda, const cuDoubleComplex* const xarray[], int64_t incx, const cuDoubleComplex* beta, cuDoubleComplex* const yarray[], int64_t incy, int64_t batchCount) {
    return forward_only("cublasZgemvBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgemvBatched_64, handle, trans, m, n, alpha, Aarray, lda, xarray, incx, beta, yarray, incy, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgemvStridedBatched(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* A, int lda, long long int strideA, const cuDoubleComplex* x, int incx, long long int stridex, const cuDoubleComplex* beta, cuDoubleComplex* y, int incy, long long int stridey, int batchCount) {
    return forward_only("cublasZgemvStridedBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgemvStridedBatched, handle, trans, m, n, alpha, A, lda, strideA, x, incx, stridex, beta, y, incy, stridey, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgemvStridedBatched_64(cublasHandle_t handle, cublasOperation_t trans, int64_t m, int64_t n, const cuDoubleComplex* alpha, const cuDoubleComplex* A, int64_t lda, long long int strideA, const cuDoubleComplex* x, int64_t incx, long long int stridex, const cuDoubleComplex* beta, cuDoubleComplex* y, int64_t incy, long long int stridey, int64_t batchCount) {
    return forward_only("cublasZgemvStridedBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgemvStridedBatched_64, handle, trans, m, n, alpha, A, lda, strideA, x, incx, stridex, beta, y, incy, stridey, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZtrsmBatched(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* const A[], int lda, cuDoubleComplex* const B[], int ldb, int batchCount) {
    return forward_only("cublasZtrsmBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZtrsmBatched, handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZtrsmBatched_64(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int64_t m, int64_t n, const cuDoubleComplex* alpha, const cuDoubleComplex* const A[], int64_t lda, cuDoubleComplex* const B[], int64_t ldb, int64_t batchCount) {
    return forward_only("cublasZtrsmBatched_64", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZtrsmBatched_64, handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, batchCount));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgetrfBatched(cublasHandle_t handle, int n, cuDoubleComplex* const A[], int lda, int* P, int* info, int batchSize) {
    return forward_only("cublasZgetrfBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgetrfBatched, handle, n, A, lda, P, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgetrsBatched(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs, const cuDoubleComplex* const Aarray[], int lda, const int* devIpiv, cuDoubleComplex* const Barray[], int ldb, int* info, int batchSize) {
    return forward_only("cublasZgetrsBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgetrsBatched, handle, trans, n, nrhs, Aarray, lda, devIpiv, Barray, ldb, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgetriBatched(cublasHandle_t handle, int n, const cuDoubleComplex* const A[], int lda, const int* P, cuDoubleComplex* const C[], int ldc, int* info, int batchSize) {
    return forward_only("cublasZgetriBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgetriBatched, handle, n, A, lda, P, C, ldc, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZmatinvBatched(cublasHandle_t handle, int n, const cuDoubleComplex* const A[], int lda, cuDoubleComplex* const Ainv[], int lda_inv, int* info, int batchSize) {
    return forward_only("cublasZmatinvBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZmatinvBatched, handle, n, A, lda, Ainv, lda_inv, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgeqrfBatched(cublasHandle_t handle, int m, int n, cuDoubleComplex* const Aarray[], int lda, cuDoubleComplex* const TauArray[], int* info, int batchSize) {
    return forward_only("cublasZgeqrfBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgeqrfBatched, handle, m, n, Aarray, lda, TauArray, info, batchSize));
}

KOBALT_CUBLAS_API cublasStatus_t cublasZgelsBatched(cublasHandle_t handle, cublasOperation_t trans, int m, int n, int nrhs, cuDoubleComplex* const Aarray[], int lda, cuDoubleComplex* const Carray[], int ldc, int* info, int* devInfoArray, int batchSize) {
    return forward_only("cublasZgelsBatched", "complex precision (Kobalt has real routines only)",
                        KOBALT_CUBLAS_FORWARD(cublasZgelsBatched, handle, trans, m, n, nrhs, Aarray, lda, Carray, ldc, info, devInfoArray, batchSize));
}
