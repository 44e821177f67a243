// blas.cpp -- the served BLAS entry points, real precisions: gemm (strided, pointer
// arrays, grouped), gemv (strided, pointer arrays), trsm (pointer arrays), each with
// its _64 twin. Every definition below redeclares a function of cublas_v2.h with C
// linkage: a parameter list that differs from the header's does not compile.
//
// Served: column-major (cuBLAS's only layout) calls whose arguments are valid by the
// BLAS rules, with host alpha/beta, device operands and sizes within the shim's limits.
// Everything else goes to cuBLAS unchanged, so its status codes stay cuBLAS's.
#include "kobalt_calls.hpp"
#include "shim.hpp"

namespace kobalt_cublas {
namespace {

// ---- gemm ----------------------------------------------------------------------------
// The rules shared by every gemm form; oa/ob receive the ops.
template <class T, class I>
void gemm_checks(Call &call, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k, const T *alpha,
                 const T *beta, I lda, I ldb, I ldc, I batch, kobalt_op &oa, kobalt_op &ob) {
    const bool ops = to_kobalt(ta, oa) && to_kobalt(tb, ob);
    call.forward_if(!ops, "transa/transb (%d/%d) not N, T or C", int(ta), int(tb))
        .forward_if(m < 0 || n < 0 || k < 0 || batch < 0, "a negative size or batch count")
        .forward_if(lda < max1(ta == CUBLAS_OP_N ? m : k) || ldb < max1(tb == CUBLAS_OP_N ? k : n) ||
                        ldc < max1(m),
                    "a leading dimension below its minimum")
        .forward_if(!alpha || !beta, "alpha or beta is NULL")
        .forward_if(m == 0 || n == 0 || batch == 0, "nothing to compute")
        .size(GEMM, std::max({ll(m), ll(n), ll(k)}), "max(m, n, k)");
}

template <class T, class I, class F>
cublasStatus_t gemm_strided(const char *fn, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n,
                            I k, const T *alpha, const T *A, I lda, long long sA, const T *B, I ldb, long long sB,
                            const T *beta, T *C, I ldc, long long sC, I batch, F forward) {
    Call call(fn);
    call.describe("m=%lld n=%lld k=%lld batch=%lld", ll(m), ll(n), ll(k), ll(batch));
    kobalt_op oa = KOBALT_NO_TRANS, ob = KOBALT_NO_TRANS;
    gemm_checks(call, ta, tb, m, n, k, alpha, beta, lda, ldb, ldc, batch, oa, ob);
    const long long extent_c = span(ldc, m, n);
    call.forward_if(sA < 0 || sB < 0 || sC < 0, "a negative stride")
        .forward_if(batch > 1 && (extent_c < 0 || sC < extent_c), "strideC (%lld) lets items of C overlap", sC)
        .handle(h, true)
        .device(C, "C");
    return call.run(
        [&] {
            return Kobalt<T>::gemm_strided(KOBALT_COL_MAJOR, oa, ob, m, n, k, *alpha, A, lda, sA, B, ldb, sB, *beta,
                                           C, ldc, sC, batch);
        },
        forward);
}

template <class T, class I, class F>
cublasStatus_t gemm_batched(const char *fn, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n,
                            I k, const T *alpha, const T *const A[], I lda, const T *const B[], I ldb, const T *beta,
                            T *const C[], I ldc, I batch, F forward) {
    Call call(fn);
    call.describe("m=%lld n=%lld k=%lld batch=%lld", ll(m), ll(n), ll(k), ll(batch));
    kobalt_op oa = KOBALT_NO_TRANS, ob = KOBALT_NO_TRANS;
    gemm_checks(call, ta, tb, m, n, k, alpha, beta, lda, ldb, ldc, batch, oa, ob);
    call.handle(h, true).device(C, "Carray");
    return call.run(
        [&] {
            return Kobalt<T>::gemm_batched(KOBALT_COL_MAJOR, oa, ob, m, n, k, *alpha, A, lda, B, ldb, *beta, C, ldc,
                                           batch);
        },
        forward);
}

// Grouped: group g is a gemmBatched of size[g] items starting at item sum(size[0..g-1])
// of the pointer arrays. Served only when every group is; a group Kobalt refuses after
// earlier groups ran sends the remaining groups (not the whole call) to cuBLAS.
template <class T, class I, class F, class Rest>
cublasStatus_t gemm_grouped(const char *fn, cublasHandle_t h, const cublasOperation_t ta[],
                            const cublasOperation_t tb[], const I m[], const I n[], const I k[], const T alpha[],
                            const T *const A[], const I lda[], const T *const B[], const I ldb[], const T beta[],
                            T *const C[], const I ldc[], I groups, const I size[], F forward, Rest forward_rest) {
    Call call(fn);
    call.describe("group_count=%lld", ll(groups));
    call.forward_if(groups <= 0, "group_count (%lld) <= 0", ll(groups))
        .forward_if(!ta || !tb || !m || !n || !k || !alpha || !lda || !ldb || !beta || !ldc || !size,
                    "a per-group array is NULL");
    long long total = 0;
    for (I g = 0; call.serving() && g < groups; ++g) {
        kobalt_op oa, ob;
        call.forward_if(size[g] < 0, "group_size[%lld] < 0", ll(g));
        // (a group with m or n = 0 forwards the whole call, as any other doubt does)
        gemm_checks(call, ta[g], tb[g], m[g], n[g], k[g], &alpha[g], &beta[g], lda[g], ldb[g], ldc[g], I(1), oa, ob);
        total += size[g];
    }
    call.forward_if(total == 0, "nothing to compute").handle(h, true).device(C, "Carray");
    if (!call.serving() || !call.ready()) {
        call.log_path(false);
        return forward();
    }
    call.enter();
    kobalt_status st = KOBALT_SUCCESS;
    I g = 0;
    long long first = 0;
    for (; g < groups; first += size[g], ++g) {
        kobalt_op oa, ob;
        to_kobalt(ta[g], oa);
        to_kobalt(tb[g], ob);
        if (size[g] == 0) continue;
        st = Kobalt<T>::gemm_batched(KOBALT_COL_MAJOR, oa, ob, m[g], n[g], k[g], alpha[g], A + first, lda[g],
                                     B + first, ldb[g], beta[g], C + first, ldc[g], size[g]);
        if (st != KOBALT_SUCCESS) break;
    }
    call.leave();
    if (g > 0 && (st == KOBALT_INVALID_ARGUMENT || st == KOBALT_NOT_SUPPORTED || st == KOBALT_NO_BACKEND)) {
        call.forward_if(true, "Kobalt refused group %lld (%s); groups %lld.. forwarded", ll(g), kobalt_last_error(),
                        ll(g));
        call.log_path(false);
        return forward_rest(g, first);
    }
    return call.finish(st, forward);
}

// ---- gemv ----------------------------------------------------------------------------
template <class T, class I>
void gemv_checks(Call &call, cublasOperation_t trans, I m, I n, const T *alpha, I lda, I incx, const T *beta,
                 I incy, I batch, kobalt_op &op) {
    call.forward_if(!to_kobalt(trans, op), "trans (%d) not N, T or C", int(trans))
        .forward_if(m < 0 || n < 0 || batch < 0, "a negative size or batch count")
        .forward_if(lda < max1(m), "lda below max(1, m)")
        .forward_if(incx == 0 || incy == 0, "a zero increment")
        .forward_if(!alpha || !beta, "alpha or beta is NULL")
        .forward_if(m == 0 || n == 0 || batch == 0, "nothing to compute")
        .size(GEMV, std::max(ll(m), ll(n)), "max(m, n)");
}

template <class T, class I, class F>
cublasStatus_t gemv_strided(const char *fn, cublasHandle_t h, cublasOperation_t trans, I m, I n, const T *alpha,
                            const T *A, I lda, long long sA, const T *x, I incx, long long sx, const T *beta, T *y,
                            I incy, long long sy, I batch, F forward) {
    Call call(fn);
    call.describe("m=%lld n=%lld incx=%lld incy=%lld batch=%lld", ll(m), ll(n), ll(incx), ll(incy), ll(batch));
    kobalt_op op = KOBALT_NO_TRANS;
    gemv_checks(call, trans, m, n, alpha, lda, incx, beta, incy, batch, op);
    const long long extent_y = vspan(incy, trans == CUBLAS_OP_N ? m : n);
    call.forward_if(sA < 0 || sx < 0 || sy < 0, "a negative stride")
        .forward_if(batch > 1 && (extent_y < 0 || sy < extent_y), "stridey (%lld) lets items of y overlap", sy)
        .handle(h, true)
        .device(y, "y");
    return call.run(
        [&] {
            return Kobalt<T>::gemv_strided(KOBALT_COL_MAJOR, op, m, n, *alpha, A, lda, sA, x, incx, sx, *beta, y,
                                           incy, sy, batch);
        },
        forward);
}

template <class T, class I, class F>
cublasStatus_t gemv_batched(const char *fn, cublasHandle_t h, cublasOperation_t trans, I m, I n, const T *alpha,
                            const T *const A[], I lda, const T *const x[], I incx, const T *beta, T *const y[],
                            I incy, I batch, F forward) {
    Call call(fn);
    call.describe("m=%lld n=%lld incx=%lld incy=%lld batch=%lld", ll(m), ll(n), ll(incx), ll(incy), ll(batch));
    kobalt_op op = KOBALT_NO_TRANS;
    gemv_checks(call, trans, m, n, alpha, lda, incx, beta, incy, batch, op);
    call.handle(h, true).device(y, "yarray");
    return call.run(
        [&] {
            return Kobalt<T>::gemv_batched(KOBALT_COL_MAJOR, op, m, n, *alpha, A, lda, x, incx, *beta, y, incy,
                                           batch);
        },
        forward);
}

// ---- trsm ----------------------------------------------------------------------------
template <class T, class I, class F>
cublasStatus_t trsm_batched(const char *fn, cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                            cublasOperation_t trans, cublasDiagType_t diag, I m, I n, const T *alpha,
                            const T *const A[], I lda, T *const B[], I ldb, I batch, F forward) {
    Call call(fn);
    call.describe("m=%lld n=%lld batch=%lld", ll(m), ll(n), ll(batch));
    kobalt_side sd = KOBALT_LEFT;
    kobalt_uplo up = KOBALT_LOWER;
    kobalt_op op = KOBALT_NO_TRANS;
    kobalt_diag dg = KOBALT_NON_UNIT;
    const bool modes = to_kobalt(side, sd) && to_kobalt(uplo, up) && to_kobalt(trans, op) && to_kobalt(diag, dg);
    call.forward_if(!modes, "side/uplo/trans/diag (%d/%d/%d/%d) not one Kobalt serves", int(side), int(uplo),
                    int(trans), int(diag))
        .forward_if(m < 0 || n < 0 || batch < 0, "a negative size or batch count")
        .forward_if(lda < max1(side == CUBLAS_SIDE_LEFT ? m : n) || ldb < max1(m),
                    "a leading dimension below its minimum")
        .forward_if(!alpha, "alpha is NULL")
        .forward_if(m == 0 || n == 0 || batch == 0, "nothing to compute")
        .size(TRSM, std::max(ll(m), ll(n)), "max(m, n)")
        .handle(h, true)
        .device(B, "B");
    return call.run(
        [&] {
            return Kobalt<T>::trsm_batched(KOBALT_COL_MAJOR, sd, up, op, dg, m, n, *alpha, A, lda, B, ldb, batch);
        },
        forward);
}

} // namespace
} // namespace kobalt_cublas

using namespace kobalt_cublas;

// ---- the exported definitions ----------------------------------------------------------
#define KOBALT_CUBLAS_GEMM_STRIDED(NAME, T, I)                                                                  \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,  \
                                   I m, I n, I k, const T *alpha, const T *A, I lda, long long int strideA,     \
                                   const T *B, I ldb, long long int strideB, const T *beta, T *C, I ldc,        \
                                   long long int strideC, I batchCount) {                                      \
        return gemm_strided<T, I>(#NAME, handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb,      \
                                  strideB, beta, C, ldc, strideC, batchCount,                                  \
                                  KOBALT_CUBLAS_FORWARD(NAME, handle, transa, transb, m, n, k, alpha, A, lda,  \
                                                        strideA, B, ldb, strideB, beta, C, ldc, strideC,       \
                                                        batchCount));                                          \
    }
KOBALT_CUBLAS_GEMM_STRIDED(cublasDgemmStridedBatched, double, int)
KOBALT_CUBLAS_GEMM_STRIDED(cublasSgemmStridedBatched, float, int)
KOBALT_CUBLAS_GEMM_STRIDED(cublasDgemmStridedBatched_64, double, int64_t)
KOBALT_CUBLAS_GEMM_STRIDED(cublasSgemmStridedBatched_64, float, int64_t)

#define KOBALT_CUBLAS_GEMM_BATCHED(NAME, T, I)                                                                   \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,  \
                                   I m, I n, I k, const T *alpha, const T *const Aarray[], I lda,               \
                                   const T *const Barray[], I ldb, const T *beta, T *const Carray[], I ldc,     \
                                   I batchCount) {                                                              \
        return gemm_batched<T, I>(#NAME, handle, transa, transb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, \
                                  Carray, ldc, batchCount,                                                     \
                                  KOBALT_CUBLAS_FORWARD(NAME, handle, transa, transb, m, n, k, alpha, Aarray,  \
                                                        lda, Barray, ldb, beta, Carray, ldc, batchCount));     \
    }
KOBALT_CUBLAS_GEMM_BATCHED(cublasDgemmBatched, double, int)
KOBALT_CUBLAS_GEMM_BATCHED(cublasSgemmBatched, float, int)
KOBALT_CUBLAS_GEMM_BATCHED(cublasDgemmBatched_64, double, int64_t)
KOBALT_CUBLAS_GEMM_BATCHED(cublasSgemmBatched_64, float, int64_t)

#define KOBALT_CUBLAS_GEMM_GROUPED(NAME, T, I)                                                                   \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, const cublasOperation_t transa_array[],               \
                                   const cublasOperation_t transb_array[], const I m_array[], const I n_array[], \
                                   const I k_array[], const T alpha_array[], const T *const Aarray[],           \
                                   const I lda_array[], const T *const Barray[], const I ldb_array[],           \
                                   const T beta_array[], T *const Carray[], const I ldc_array[], I group_count, \
                                   const I group_size[]) {                                                      \
        return gemm_grouped<T, I>(                                                                              \
            #NAME, handle, transa_array, transb_array, m_array, n_array, k_array, alpha_array, Aarray,          \
            lda_array, Barray, ldb_array, beta_array, Carray, ldc_array, group_count, group_size,               \
            KOBALT_CUBLAS_FORWARD(NAME, handle, transa_array, transb_array, m_array, n_array, k_array,          \
                                  alpha_array, Aarray, lda_array, Barray, ldb_array, beta_array, Carray,        \
                                  ldc_array, group_count, group_size),                                          \
            [&](I g, long long first) -> cublasStatus_t {                                                       \
                const auto real_fn = KOBALT_CUBLAS_REAL(NAME);                                                  \
                if (!real_fn) return missing(#NAME);                                                            \
                return real_fn(handle, transa_array + g, transb_array + g, m_array + g, n_array + g,            \
                               k_array + g, alpha_array + g, Aarray + first, lda_array + g, Barray + first,     \
                               ldb_array + g, beta_array + g, Carray + first, ldc_array + g, group_count - g,   \
                               group_size + g);                                                                 \
            });                                                                                                 \
    }
KOBALT_CUBLAS_GEMM_GROUPED(cublasDgemmGroupedBatched, double, int)
KOBALT_CUBLAS_GEMM_GROUPED(cublasSgemmGroupedBatched, float, int)
KOBALT_CUBLAS_GEMM_GROUPED(cublasDgemmGroupedBatched_64, double, int64_t)
KOBALT_CUBLAS_GEMM_GROUPED(cublasSgemmGroupedBatched_64, float, int64_t)

#define KOBALT_CUBLAS_GEMV_STRIDED(NAME, T, I)                                                                   \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, cublasOperation_t trans, I m, I n, const T *alpha,   \
                                   const T *A, I lda, long long int strideA, const T *x, I incx,                \
                                   long long int stridex, const T *beta, T *y, I incy, long long int stridey,   \
                                   I batchCount) {                                                              \
        return gemv_strided<T, I>(#NAME, handle, trans, m, n, alpha, A, lda, strideA, x, incx, stridex, beta, y, \
                                  incy, stridey, batchCount,                                                   \
                                  KOBALT_CUBLAS_FORWARD(NAME, handle, trans, m, n, alpha, A, lda, strideA, x,  \
                                                        incx, stridex, beta, y, incy, stridey, batchCount));   \
    }
KOBALT_CUBLAS_GEMV_STRIDED(cublasDgemvStridedBatched, double, int)
KOBALT_CUBLAS_GEMV_STRIDED(cublasSgemvStridedBatched, float, int)
KOBALT_CUBLAS_GEMV_STRIDED(cublasDgemvStridedBatched_64, double, int64_t)
KOBALT_CUBLAS_GEMV_STRIDED(cublasSgemvStridedBatched_64, float, int64_t)

#define KOBALT_CUBLAS_GEMV_BATCHED(NAME, T, I)                                                                   \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, cublasOperation_t trans, I m, I n, const T *alpha,   \
                                   const T *const Aarray[], I lda, const T *const xarray[], I incx,             \
                                   const T *beta, T *const yarray[], I incy, I batchCount) {                    \
        return gemv_batched<T, I>(#NAME, handle, trans, m, n, alpha, Aarray, lda, xarray, incx, beta, yarray,   \
                                  incy, batchCount,                                                            \
                                  KOBALT_CUBLAS_FORWARD(NAME, handle, trans, m, n, alpha, Aarray, lda, xarray, \
                                                        incx, beta, yarray, incy, batchCount));                \
    }
KOBALT_CUBLAS_GEMV_BATCHED(cublasDgemvBatched, double, int)
KOBALT_CUBLAS_GEMV_BATCHED(cublasSgemvBatched, float, int)
KOBALT_CUBLAS_GEMV_BATCHED(cublasDgemvBatched_64, double, int64_t)
KOBALT_CUBLAS_GEMV_BATCHED(cublasSgemvBatched_64, float, int64_t)

#define KOBALT_CUBLAS_TRSM_BATCHED(NAME, T, I)                                                                   \
    KOBALT_CUBLAS_API cublasStatus_t NAME(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,        \
                                   cublasOperation_t trans, cublasDiagType_t diag, I m, I n, const T *alpha,    \
                                   const T *const A[], I lda, T *const B[], I ldb, I batchCount) {              \
        return trsm_batched<T, I>(#NAME, handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb,          \
                                  batchCount,                                                                  \
                                  KOBALT_CUBLAS_FORWARD(NAME, handle, side, uplo, trans, diag, m, n, alpha, A, \
                                                        lda, B, ldb, batchCount));                             \
    }
KOBALT_CUBLAS_TRSM_BATCHED(cublasDtrsmBatched, double, int)
KOBALT_CUBLAS_TRSM_BATCHED(cublasStrsmBatched, float, int)
KOBALT_CUBLAS_TRSM_BATCHED(cublasDtrsmBatched_64, double, int64_t)
KOBALT_CUBLAS_TRSM_BATCHED(cublasStrsmBatched_64, float, int64_t)
