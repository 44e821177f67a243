/*
 * args_routines.h -- the argument test of every routine, written once for a generic real
 * type. test_arguments.c includes this file once per precision with KOBALT_T (float or
 * double) and KOBALT_P (s or d) defined, as kobalt.h includes kobalt_routines.def.
 * There is no include guard on purpose.
 *
 * Per routine family: an argument struct shared by the _strided and _batched forms, a
 * setup that fills a valid baseline call (shape M x N x K, NRHS, batch BATCH, leading
 * dimensions LD, item strides ITEM, see args_common.h), the two call adapters, and the
 * mutation tables: <family>_common (both forms), <family>_strided and <family>_batched.
 */

#define REAL KOBALT_T
#define PREC(x) KOBALT_PASTE3(x, _, KOBALT_P)
#define TEST_FN(name) KOBALT_PASTE2(test_args_, KOBALT_NAME(name))

#define ROW SET(layout, KOBALT_ROW_MAJOR)
#define FN_NAME(name) KOBALT_STRINGIFY(KOBALT_NAME(name))

/* Defines the cmocka test of one routine: the common table plus the form's own table. */
#define DEFINE_ARGS_TEST(name, family, form)                                                 \
    static const routine_under_test PREC(rut_##name) = {                                     \
        FN_NAME(name), sizeof(PREC(family##_args)), PREC(setup_##family), PREC(call_##name)}; \
    static void TEST_FN(name)(void **state)                                                  \
    {                                                                                        \
        (void)state;                                                                         \
        const routine_under_test *r = &PREC(rut_##name);                                     \
        int failures = run_mutations(r, PREC(family##_common), COUNT(PREC(family##_common))) + \
                       run_mutations(r, PREC(family##_##form), COUNT(PREC(family##_##form))); \
        print_message("%s: %zu argument cases\n", r->fn,                                    \
                      1 + COUNT(PREC(family##_common)) + COUNT(PREC(family##_##form)));       \
        if (failures) fail_msg("%s: %d argument case(s) failed, see above", r->fn, failures); \
    }

/* A stride (or leading dimension) whose element offsets fit in int64 over the batch, but
 * whose byte offsets (times sizeof(type)) do not. Used by the isolated cases only, since
 * a library that accepts it addresses wild memory. */
#define BYTE_OVERFLOW(type, steps) (INT64_MAX / (steps) / (int64_t)sizeof(type) * 2)

static REAL *PREC(take_real)(arena *a, size_t count)
{
    REAL *p = (REAL *)arena_take(a, count * sizeof(REAL));
    for (size_t i = 0; i < count; ++i) p[i] = (REAL)arena_uniform(a);
    return p;
}

/* Shared post-call check: info[0..batch) all zero (empty matrices are "factored"). */
static const char *PREC(info_all_zero)(const int *info, kobalt_int batch)
{
    for (kobalt_int i = 0; i < batch; ++i)
        if (info[i] != 0) return "info[i] was not set to 0 for an empty matrix";
    return NULL;
}

/* ======================================================================================
 * gemm: A m x k (transa N) or k x m, B k x n (transb N) or n x k, C m x n
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_op transa, transb;
    kobalt_int m, n, k;
    REAL alpha, beta;
    const REAL *A;
    kobalt_int lda, strideA;
    const REAL *B;
    kobalt_int ldb, strideB;
    REAL *C;
    kobalt_int ldc, strideC;
    kobalt_int batch;
    const REAL *Aitem[BATCH], *Bitem[BATCH];
    REAL *Citem[BATCH];
    const REAL *const *Aarr, *const *Barr;
    REAL *const *Carr;
} PREC(gemm_args);

static void PREC(setup_gemm)(void *p, arena *a)
{
    PREC(gemm_args) *s = (PREC(gemm_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->transa = s->transb = KOBALT_NO_TRANS;
    s->m = M, s->n = N, s->k = K;
    s->alpha = (REAL)0.5, s->beta = (REAL)0.25;
    REAL *A = PREC(take_real)(a, BATCH * ITEM), *B = PREC(take_real)(a, BATCH * ITEM);
    s->A = A, s->B = B, s->C = PREC(take_real)(a, BATCH * ITEM);
    s->lda = s->ldb = s->ldc = LD;
    s->strideA = s->strideB = s->strideC = ITEM;
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i)
        s->Aitem[i] = A + i * ITEM, s->Bitem[i] = B + i * ITEM, s->Citem[i] = s->C + i * ITEM;
    s->Aarr = s->Aitem, s->Barr = s->Bitem, s->Carr = s->Citem;
}

static kobalt_status PREC(call_gemm_strided)(const void *p)
{
    const PREC(gemm_args) *s = (const PREC(gemm_args) *)p;
    return KOBALT_NAME(gemm_strided)(s->layout, s->transa, s->transb, s->m, s->n, s->k, s->alpha,
                                     s->A, s->lda, s->strideA, s->B, s->ldb, s->strideB, s->beta,
                                     s->C, s->ldc, s->strideC, s->batch);
}

static kobalt_status PREC(call_gemm_batched)(const void *p)
{
    const PREC(gemm_args) *s = (const PREC(gemm_args) *)p;
    return KOBALT_NAME(gemm_batched)(s->layout, s->transa, s->transb, s->m, s->n, s->k, s->alpha,
                                     s->Aarr, s->lda, s->Barr, s->ldb, s->beta, s->Carr, s->ldc,
                                     s->batch);
}

#define ARGS PREC(gemm_args)
static const mutation PREC(gemm_common)[] = {
    BAD("layout", SET(layout, 0)),
    BAD("layout", SET(layout, 103)),
    BAD("transa", SET(transa, 110)),
    BAD("transa", SET(transa, 114)),
    BAD("transb", SET(transb, 0)),
    OK(SET(transa, KOBALT_CONJ_TRANS), SET(transb, KOBALT_TRANS)),
    BAD("m", SET(m, -1)),
    BAD("n", SET(n, -1)),
    BAD("k", SET(k, -1)),
    BAD("batch", SET(batch, -1)),
    /* lda: A is m x k (col-major needs m, row-major k), or k x m under transa */
    BAD("lda", SET(lda, M - 1)),
    OK(SET(lda, M)),
    BAD("lda", ROW, SET(lda, K - 1)),
    OK(ROW, SET(lda, K)),
    BAD("lda", SET(transa, KOBALT_TRANS), SET(lda, K - 1)),
    OK(SET(transa, KOBALT_TRANS), SET(lda, K)),
    BAD("lda", ROW, SET(transa, KOBALT_TRANS), SET(lda, M - 1)),
    OK(ROW, SET(transa, KOBALT_TRANS), SET(lda, M)),
    BAD("lda", SET(m, 0), SET(lda, 0)),
    BAD("lda", SET(lda, BIG_STRIDE)), /* one item spans more than int64 */
    /* ldb: B is k x n, or n x k under transb */
    BAD("ldb", SET(ldb, K - 1)),
    OK(SET(ldb, K)),
    BAD("ldb", ROW, SET(ldb, N - 1)),
    OK(ROW, SET(ldb, N)),
    BAD("ldb", SET(transb, KOBALT_TRANS), SET(ldb, N - 1)),
    BAD("ldb", ROW, SET(transb, KOBALT_TRANS), SET(ldb, K - 1)),
    /* ldc: C is m x n */
    BAD("ldc", SET(ldc, M - 1)),
    OK(SET(ldc, M)),
    BAD("ldc", ROW, SET(ldc, N - 1)),
    OK(ROW, SET(ldc, N)),
    /* two bad arguments: the first in parameter order is named, as by xerbla */
    BAD("layout", SET(layout, 0), SET(m, -1)),
    BAD("lda", SET(lda, M - 1), SET(ldc, M - 1)),
    /* empty problems */
    OK_UNTOUCHED(SET(m, 0)),
    OK_UNTOUCHED(SET(n, 0)),
    OK(SET(k, 0)),
    OK_UNTOUCHED(SET(batch, 0)),
};
static const mutation PREC(gemm_strided)[] = {
    BAD("strideA", SET(strideA, -1)),
    BAD("strideB", SET(strideB, -1)),
    BAD("strideC", SET(strideC, -1)),
    OK(SET(strideA, 0), SET(strideB, 0)), /* inputs may be shared by all items */
    /* C's extent: col-major ldc*(n-1)+m, row-major ldc*(m-1)+n */
    BAD("strideC", SET(strideC, LD * (N - 1) + M - 1)),
    OK(SET(strideC, LD * (N - 1) + M)),
    BAD("strideC", ROW, SET(strideC, LD * (M - 1) + N - 1)),
    OK(ROW, SET(strideC, LD * (M - 1) + N)),
    OK(SET(batch, 1), SET(strideC, 0)),
    BAD("strideA", SET(strideA, BIG_STRIDE)),
    BAD("strideB", SET(strideB, BIG_STRIDE)),
    BAD("strideC", SET(strideC, BIG_STRIDE)),
    BAD("A", NUL(A)),
    BAD("B", NUL(B)),
    BAD("C", NUL(C)),
    OK(SET(k, 0), NUL(A), NUL(B)),
    OK_UNTOUCHED(SET(m, 0), NUL(A), NUL(C)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(B), NUL(C)),
};
static const mutation PREC(gemm_batched)[] = {
    BAD("A", NUL(Aarr)),
    BAD("B", NUL(Barr)),
    BAD("C", NUL(Carr)),
    BAD("A[2]", NUL_ITEM(Aitem, 2)),
    BAD("B[2]", NUL_ITEM(Bitem, 2)),
    BAD("C[2]", NUL_ITEM(Citem, 2)),
    BAD("C[0]", NUL_ITEM(Citem, 0)),
    BAD("C[3]", NUL_ITEM(Citem, 3)),
    OK(SET(k, 0), NUL_ITEM(Aitem, 2), NUL_ITEM(Bitem, 1)),
    OK_UNTOUCHED(SET(batch, 0), NUL(Aarr), NUL(Barr), NUL(Carr)),
};
static const mutation PREC(gemm_bytes)[] = {
    BAD("strideA", SET(strideA, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideB", SET(strideB, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideC", SET(strideC, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("lda", SET(batch, 1), SET(lda, BYTE_OVERFLOW(REAL, K - 1))),
};
#undef ARGS
DEFINE_ARGS_TEST(gemm_strided, gemm, strided)
DEFINE_ARGS_TEST(gemm_batched, gemm, batched)

/* ======================================================================================
 * gemv: A m x n, x of length n (trans N) or m, y of length m (trans N) or n
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_op trans;
    kobalt_int m, n;
    REAL alpha, beta;
    const REAL *A;
    kobalt_int lda, strideA;
    const REAL *x;
    kobalt_int incx, stridex;
    REAL *y;
    kobalt_int incy, stridey;
    kobalt_int batch;
    const REAL *Aitem[BATCH], *xitem[BATCH];
    REAL *yitem[BATCH];
    const REAL *const *Aarr, *const *xarr;
    REAL *const *yarr;
} PREC(gemv_args);

static void PREC(setup_gemv)(void *p, arena *a)
{
    PREC(gemv_args) *s = (PREC(gemv_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->trans = KOBALT_NO_TRANS;
    s->m = M, s->n = N;
    s->alpha = (REAL)0.5, s->beta = (REAL)0.25;
    REAL *A = PREC(take_real)(a, BATCH * ITEM), *x = PREC(take_real)(a, BATCH * ITEM);
    s->A = A, s->x = x, s->y = PREC(take_real)(a, BATCH * ITEM);
    s->lda = LD, s->strideA = ITEM;
    s->incx = s->incy = 1;
    s->stridex = s->stridey = ITEM;
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i)
        s->Aitem[i] = A + i * ITEM, s->xitem[i] = x + i * ITEM, s->yitem[i] = s->y + i * ITEM;
    s->Aarr = s->Aitem, s->xarr = s->xitem, s->yarr = s->yitem;
}

static kobalt_status PREC(call_gemv_strided)(const void *p)
{
    const PREC(gemv_args) *s = (const PREC(gemv_args) *)p;
    return KOBALT_NAME(gemv_strided)(s->layout, s->trans, s->m, s->n, s->alpha, s->A, s->lda,
                                     s->strideA, s->x, s->incx, s->stridex, s->beta, s->y,
                                     s->incy, s->stridey, s->batch);
}

static kobalt_status PREC(call_gemv_batched)(const void *p)
{
    const PREC(gemv_args) *s = (const PREC(gemv_args) *)p;
    return KOBALT_NAME(gemv_batched)(s->layout, s->trans, s->m, s->n, s->alpha, s->Aarr, s->lda,
                                     s->xarr, s->incx, s->beta, s->yarr, s->incy, s->batch);
}

#define ARGS PREC(gemv_args)
static const mutation PREC(gemv_common)[] = {
    BAD("layout", SET(layout, 0)),
    BAD("trans", SET(trans, 0)),
    BAD("trans", SET(trans, 114)),
    OK(SET(trans, KOBALT_TRANS)),
    OK(SET(trans, KOBALT_CONJ_TRANS)),
    BAD("m", SET(m, -1)),
    BAD("n", SET(n, -1)),
    BAD("batch", SET(batch, -1)),
    BAD("lda", SET(lda, M - 1)),
    OK(SET(lda, M)),
    BAD("lda", ROW, SET(lda, N - 1)),
    OK(ROW, SET(lda, N)),
    BAD("lda", SET(m, 0), SET(lda, 0)),
    BAD("incx", SET(incx, 0)),
    BAD("incy", SET(incy, 0)),
    BAD("incx", SET(incx, INT64_MIN)),
    BAD("incy", SET(incy, BIG_STRIDE + 1)), /* (m - 1) * incy overflows */
    OK(SET(incx, -1), SET(incy, -2)),
    OK_UNTOUCHED(SET(m, 0)),
    OK_UNTOUCHED(SET(trans, KOBALT_TRANS), SET(n, 0)),
    OK(SET(n, 0)),
    OK_UNTOUCHED(SET(batch, 0)),
};
static const mutation PREC(gemv_strided)[] = {
    BAD("strideA", SET(strideA, -1)),
    BAD("stridex", SET(stridex, -1)),
    BAD("stridey", SET(stridey, -1)),
    OK(SET(strideA, 0), SET(stridex, 0)),
    /* y's extent: (len-1)*|incy|+1, len = m (trans N) or n */
    BAD("stridey", SET(stridey, M - 1)),
    OK(SET(stridey, M)),
    BAD("stridey", SET(incy, -2), SET(stridey, 2 * (M - 1))),
    OK(SET(incy, -2), SET(stridey, 2 * (M - 1) + 1)),
    BAD("stridey", SET(trans, KOBALT_TRANS), SET(stridey, N - 1)),
    OK(SET(trans, KOBALT_TRANS), SET(stridey, N)),
    OK(SET(batch, 1), SET(stridey, 0)),
    BAD("strideA", SET(strideA, BIG_STRIDE)),
    BAD("stridex", SET(stridex, BIG_STRIDE)),
    BAD("stridey", SET(stridey, BIG_STRIDE)),
    BAD("A", NUL(A)),
    BAD("x", NUL(x)),
    BAD("y", NUL(y)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(x), NUL(y)),
};
static const mutation PREC(gemv_batched)[] = {
    BAD("A", NUL(Aarr)),
    BAD("x", NUL(xarr)),
    BAD("y", NUL(yarr)),
    BAD("A[2]", NUL_ITEM(Aitem, 2)),
    BAD("x[2]", NUL_ITEM(xitem, 2)),
    BAD("y[2]", NUL_ITEM(yitem, 2)),
    BAD("y[3]", NUL_ITEM(yitem, 3)),
    OK_UNTOUCHED(SET(batch, 0), NUL(Aarr), NUL(xarr), NUL(yarr)),
};
static const mutation PREC(gemv_bytes)[] = {
    BAD("stridex", SET(stridex, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("stridey", SET(stridey, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("incx", SET(batch, 1), SET(incx, BYTE_OVERFLOW(REAL, N - 1))),
};
#undef ARGS
DEFINE_ARGS_TEST(gemv_strided, gemv, strided)
DEFINE_ARGS_TEST(gemv_batched, gemv, batched)

/* ======================================================================================
 * trsv: A n x n triangular, x of length n
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_uplo uplo;
    kobalt_op trans;
    kobalt_diag diag;
    kobalt_int n;
    const REAL *A;
    kobalt_int lda, strideA;
    REAL *x;
    kobalt_int incx, stridex;
    kobalt_int batch;
    const REAL *Aitem[BATCH];
    REAL *xitem[BATCH];
    const REAL *const *Aarr;
    REAL *const *xarr;
} PREC(trsv_args);

static void PREC(setup_trsv)(void *p, arena *a)
{
    PREC(trsv_args) *s = (PREC(trsv_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->uplo = KOBALT_UPPER;
    s->trans = KOBALT_NO_TRANS;
    s->diag = KOBALT_NON_UNIT;
    s->n = N;
    REAL *A = PREC(take_real)(a, BATCH * ITEM);
    for (int i = 0; i < BATCH; ++i)
        for (int j = 0; j < N; ++j) A[i * ITEM + j * (LD + 1)] = (REAL)(4 + j); /* a tame diagonal */
    s->A = A, s->x = PREC(take_real)(a, BATCH * ITEM);
    s->lda = LD, s->strideA = ITEM;
    s->incx = 1, s->stridex = ITEM;
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i) s->Aitem[i] = A + i * ITEM, s->xitem[i] = s->x + i * ITEM;
    s->Aarr = s->Aitem, s->xarr = s->xitem;
}

static kobalt_status PREC(call_trsv_strided)(const void *p)
{
    const PREC(trsv_args) *s = (const PREC(trsv_args) *)p;
    return KOBALT_NAME(trsv_strided)(s->layout, s->uplo, s->trans, s->diag, s->n, s->A, s->lda,
                                     s->strideA, s->x, s->incx, s->stridex, s->batch);
}

static kobalt_status PREC(call_trsv_batched)(const void *p)
{
    const PREC(trsv_args) *s = (const PREC(trsv_args) *)p;
    return KOBALT_NAME(trsv_batched)(s->layout, s->uplo, s->trans, s->diag, s->n, s->Aarr, s->lda,
                                     s->xarr, s->incx, s->batch);
}

#define ARGS PREC(trsv_args)
static const mutation PREC(trsv_common)[] = {
    BAD("layout", SET(layout, 0)),
    BAD("uplo", SET(uplo, 0)),
    BAD("uplo", SET(uplo, 123)),
    BAD("trans", SET(trans, 0)),
    BAD("diag", SET(diag, 0)),
    BAD("diag", SET(diag, 133)),
    OK(SET(uplo, KOBALT_LOWER), SET(trans, KOBALT_TRANS), SET(diag, KOBALT_UNIT)),
    OK(ROW, SET(trans, KOBALT_CONJ_TRANS)),
    BAD("n", SET(n, -1)),
    BAD("batch", SET(batch, -1)),
    BAD("lda", SET(lda, N - 1)),
    BAD("lda", ROW, SET(lda, N - 1)),
    OK(SET(lda, N)),
    BAD("lda", SET(n, 0), SET(lda, 0)),
    BAD("incx", SET(incx, 0)),
    OK(SET(incx, -3)),
    OK_UNTOUCHED(SET(n, 0)),
    OK_UNTOUCHED(SET(batch, 0)),
};
static const mutation PREC(trsv_strided)[] = {
    BAD("strideA", SET(strideA, -1)),
    BAD("stridex", SET(stridex, -1)),
    OK(SET(strideA, 0)),
    BAD("stridex", SET(stridex, N - 1)),
    OK(SET(stridex, N)),
    BAD("stridex", SET(incx, -2), SET(stridex, 2 * (N - 1))),
    OK(SET(incx, -2), SET(stridex, 2 * (N - 1) + 1)),
    OK(SET(batch, 1), SET(stridex, 0)),
    BAD("strideA", SET(strideA, BIG_STRIDE)),
    BAD("stridex", SET(stridex, BIG_STRIDE)),
    BAD("A", NUL(A)),
    BAD("x", NUL(x)),
    OK_UNTOUCHED(SET(n, 0), NUL(A), NUL(x)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(x)),
};
static const mutation PREC(trsv_batched)[] = {
    BAD("A", NUL(Aarr)),
    BAD("x", NUL(xarr)),
    BAD("A[2]", NUL_ITEM(Aitem, 2)),
    BAD("x[2]", NUL_ITEM(xitem, 2)),
    OK_UNTOUCHED(SET(batch, 0), NUL(Aarr), NUL(xarr)),
};
static const mutation PREC(trsv_bytes)[] = {
    BAD("stridex", SET(stridex, BYTE_OVERFLOW(REAL, BATCH - 1))),
};
#undef ARGS
DEFINE_ARGS_TEST(trsv_strided, trsv, strided)
DEFINE_ARGS_TEST(trsv_batched, trsv, batched)

/* ======================================================================================
 * trsm: A m x m (side LEFT) or n x n, B m x n
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_side side;
    kobalt_uplo uplo;
    kobalt_op transa;
    kobalt_diag diag;
    kobalt_int m, n;
    REAL alpha;
    const REAL *A;
    kobalt_int lda, strideA;
    REAL *B;
    kobalt_int ldb, strideB;
    kobalt_int batch;
    const REAL *Aitem[BATCH];
    REAL *Bitem[BATCH];
    const REAL *const *Aarr;
    REAL *const *Barr;
} PREC(trsm_args);

static void PREC(setup_trsm)(void *p, arena *a)
{
    PREC(trsm_args) *s = (PREC(trsm_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->side = KOBALT_LEFT;
    s->uplo = KOBALT_UPPER;
    s->transa = KOBALT_NO_TRANS;
    s->diag = KOBALT_NON_UNIT;
    s->m = M, s->n = N;
    s->alpha = (REAL)0.5;
    REAL *A = PREC(take_real)(a, BATCH * ITEM);
    for (int i = 0; i < BATCH; ++i)
        for (int j = 0; j < LD; ++j) A[i * ITEM + j * (LD + 1)] = (REAL)(4 + j);
    s->A = A, s->B = PREC(take_real)(a, BATCH * ITEM);
    s->lda = s->ldb = LD;
    s->strideA = s->strideB = ITEM;
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i) s->Aitem[i] = A + i * ITEM, s->Bitem[i] = s->B + i * ITEM;
    s->Aarr = s->Aitem, s->Barr = s->Bitem;
}

static kobalt_status PREC(call_trsm_strided)(const void *p)
{
    const PREC(trsm_args) *s = (const PREC(trsm_args) *)p;
    return KOBALT_NAME(trsm_strided)(s->layout, s->side, s->uplo, s->transa, s->diag, s->m, s->n,
                                     s->alpha, s->A, s->lda, s->strideA, s->B, s->ldb, s->strideB,
                                     s->batch);
}

static kobalt_status PREC(call_trsm_batched)(const void *p)
{
    const PREC(trsm_args) *s = (const PREC(trsm_args) *)p;
    return KOBALT_NAME(trsm_batched)(s->layout, s->side, s->uplo, s->transa, s->diag, s->m, s->n,
                                     s->alpha, s->Aarr, s->lda, s->Barr, s->ldb, s->batch);
}

#define ARGS PREC(trsm_args)
static const mutation PREC(trsm_common)[] = {
    BAD("layout", SET(layout, 0)),
    BAD("side", SET(side, 0)),
    BAD("side", SET(side, 143)),
    BAD("uplo", SET(uplo, 0)),
    BAD("transa", SET(transa, 0)),
    BAD("diag", SET(diag, 0)),
    OK(SET(side, KOBALT_RIGHT), SET(uplo, KOBALT_LOWER), SET(transa, KOBALT_TRANS),
       SET(diag, KOBALT_UNIT)),
    BAD("m", SET(m, -1)),
    BAD("n", SET(n, -1)),
    BAD("batch", SET(batch, -1)),
    /* lda: A is m x m (LEFT) or n x n (RIGHT) */
    BAD("lda", SET(lda, M - 1)),
    OK(SET(lda, M)),
    BAD("lda", SET(side, KOBALT_RIGHT), SET(lda, M)), /* M < N */
    OK(SET(side, KOBALT_RIGHT), SET(lda, N)),
    BAD("lda", ROW, SET(lda, M - 1)),
    BAD("lda", SET(m, 0), SET(lda, 0)),
    /* ldb: B is m x n */
    BAD("ldb", SET(ldb, M - 1)),
    OK(SET(ldb, M)),
    BAD("ldb", ROW, SET(ldb, N - 1)),
    OK(ROW, SET(ldb, N)),
    OK_UNTOUCHED(SET(m, 0)),
    OK_UNTOUCHED(SET(n, 0)),
    OK_UNTOUCHED(SET(batch, 0)),
};
static const mutation PREC(trsm_strided)[] = {
    BAD("strideA", SET(strideA, -1)),
    BAD("strideB", SET(strideB, -1)),
    OK(SET(strideA, 0)),
    BAD("strideB", SET(strideB, LD * (N - 1) + M - 1)),
    OK(SET(strideB, LD * (N - 1) + M)),
    BAD("strideB", ROW, SET(strideB, LD * (M - 1) + N - 1)),
    OK(ROW, SET(strideB, LD * (M - 1) + N)),
    OK(SET(batch, 1), SET(strideB, 0)),
    BAD("strideA", SET(strideA, BIG_STRIDE)),
    BAD("strideB", SET(strideB, BIG_STRIDE)),
    BAD("A", NUL(A)),
    BAD("B", NUL(B)),
    OK_UNTOUCHED(SET(m, 0), NUL(A), NUL(B)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(B)),
};
static const mutation PREC(trsm_batched)[] = {
    BAD("A", NUL(Aarr)),
    BAD("B", NUL(Barr)),
    BAD("A[2]", NUL_ITEM(Aitem, 2)),
    BAD("B[2]", NUL_ITEM(Bitem, 2)),
    OK_UNTOUCHED(SET(batch, 0), NUL(Aarr), NUL(Barr)),
};
static const mutation PREC(trsm_bytes)[] = {
    BAD("strideB", SET(strideB, BYTE_OVERFLOW(REAL, BATCH - 1))),
};
#undef ARGS
DEFINE_ARGS_TEST(trsm_strided, trsm, strided)
DEFINE_ARGS_TEST(trsm_batched, trsm, batched)

/* ======================================================================================
 * getrf: A m x n, ipiv min(m, n) per item (NULL: no pivoting), info one per item
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_int m, n;
    REAL *A;
    kobalt_int lda, strideA;
    int *ipiv;
    kobalt_int strideIpiv;
    int *info;
    kobalt_int batch;
    REAL *Aitem[BATCH];
    REAL *const *Aarr;
} PREC(getrf_args);

static void PREC(setup_getrf)(void *p, arena *a)
{
    PREC(getrf_args) *s = (PREC(getrf_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->m = M, s->n = N;
    s->A = PREC(take_real)(a, BATCH * ITEM);
    s->lda = LD, s->strideA = ITEM;
    s->ipiv = arena_take_int(a, BATCH * IPIV_ITEM, 0x5A5A5A5A);
    s->strideIpiv = IPIV_ITEM;
    s->info = arena_take_int(a, BATCH, 0x5A5A5A5A);
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i) s->Aitem[i] = s->A + i * ITEM;
    s->Aarr = s->Aitem;
}

static kobalt_status PREC(call_getrf_strided)(const void *p)
{
    const PREC(getrf_args) *s = (const PREC(getrf_args) *)p;
    return KOBALT_NAME(getrf_strided)(s->layout, s->m, s->n, s->A, s->lda, s->strideA, s->ipiv,
                                      s->strideIpiv, s->info, s->batch);
}

static kobalt_status PREC(call_getrf_batched)(const void *p)
{
    const PREC(getrf_args) *s = (const PREC(getrf_args) *)p;
    return KOBALT_NAME(getrf_batched)(s->layout, s->m, s->n, s->Aarr, s->lda, s->ipiv,
                                      s->strideIpiv, s->info, s->batch);
}

static const char *PREC(getrf_info_zero)(const void *p)
{
    const PREC(getrf_args) *s = (const PREC(getrf_args) *)p;
    return PREC(info_all_zero)(s->info, s->batch);
}

#define ARGS PREC(getrf_args)
static const mutation PREC(getrf_common)[] = {
    BAD("layout", SET(layout, 0)),
    OK(ROW),
    BAD("m", SET(m, -1)),
    BAD("n", SET(n, -1)),
    BAD("batch", SET(batch, -1)),
    BAD("lda", SET(lda, M - 1)),
    OK(SET(lda, M)),
    BAD("lda", ROW, SET(lda, N - 1)),
    OK(ROW, SET(lda, N)),
    BAD("lda", SET(m, 0), SET(lda, 0)),
    OK(NUL(ipiv)),
    BAD("info", NUL(info)),
    BAD("strideIpiv", SET(strideIpiv, -1)),
    /* ipiv holds min(m, n) entries per item */
    BAD("strideIpiv", SET(strideIpiv, M - 1)),
    OK(SET(strideIpiv, M)),
    BAD("strideIpiv", SET(m, 5), SET(strideIpiv, N - 1)),
    OK(SET(m, 5), SET(strideIpiv, N)),
    OK(SET(batch, 1), SET(strideIpiv, 0)),
    BAD("strideIpiv", SET(strideIpiv, BIG_STRIDE)),
    OK_CHECK(PREC(getrf_info_zero), SET(m, 0)),
    OK_CHECK(PREC(getrf_info_zero), SET(n, 0)),
    OK_CHECK(PREC(getrf_info_zero), ROW, SET(m, 0), NUL(ipiv)),
    OK_UNTOUCHED(SET(batch, 0)),
    OK_UNTOUCHED(SET(batch, 0), NUL(ipiv), NUL(info)),
};
static const mutation PREC(getrf_strided)[] = {
    BAD("strideA", SET(strideA, -1)),
    BAD("strideA", SET(strideA, LD * (N - 1) + M - 1)),
    OK(SET(strideA, LD * (N - 1) + M)),
    BAD("strideA", ROW, SET(strideA, LD * (M - 1) + N - 1)),
    OK(ROW, SET(strideA, LD * (M - 1) + N)),
    OK(SET(batch, 1), SET(strideA, 0)),
    BAD("strideA", SET(strideA, BIG_STRIDE)),
    BAD("A", NUL(A)),
    OK_CHECK(PREC(getrf_info_zero), SET(m, 0), NUL(A)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(ipiv), NUL(info)),
};
static const mutation PREC(getrf_batched)[] = {
    BAD("A", NUL(Aarr)),
    BAD("A[2]", NUL_ITEM(Aitem, 2)),
    BAD("A[0]", NUL_ITEM(Aitem, 0)),
    OK_UNTOUCHED(SET(batch, 0), NUL(Aarr), NUL(ipiv), NUL(info)),
};
static const mutation PREC(getrf_bytes)[] = {
    BAD("strideA", SET(strideA, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideIpiv", SET(strideIpiv, BYTE_OVERFLOW(int, BATCH - 1))),
};
#undef ARGS
DEFINE_ARGS_TEST(getrf_strided, getrf, strided)
DEFINE_ARGS_TEST(getrf_batched, getrf, batched)

/* ======================================================================================
 * getrs: A n x n (getrf's factors), ipiv n per item with values in 1..n, B n x nrhs
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_op trans;
    kobalt_int n, nrhs;
    const REAL *A;
    kobalt_int lda, strideA;
    const int *ipiv;
    kobalt_int strideIpiv;
    REAL *B;
    kobalt_int ldb, strideB;
    kobalt_int batch;
    int *ipiv_data; /* the same buffer as ipiv, writable for the tweaks */
    const REAL *Aitem[BATCH];
    REAL *Bitem[BATCH];
    const REAL *const *Aarr;
    REAL *const *Barr;
} PREC(getrs_args);

static void PREC(setup_getrs)(void *p, arena *a)
{
    PREC(getrs_args) *s = (PREC(getrs_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->trans = KOBALT_NO_TRANS;
    s->n = N, s->nrhs = NRHS;
    REAL *A = PREC(take_real)(a, BATCH * ITEM);
    for (int i = 0; i < BATCH; ++i)
        for (int j = 0; j < LD; ++j) A[i * ITEM + j * (LD + 1)] = (REAL)(4 + j);
    s->A = A;
    s->lda = LD, s->strideA = ITEM;
    /* valid pivots in 1..n; the gap after the n entries of an item holds junk that must
     * not be read as a pivot */
    s->ipiv_data = arena_take_int(a, BATCH * IPIV_ITEM, -7);
    for (int i = 0; i < BATCH; ++i)
        for (int j = 0; j < N; ++j) s->ipiv_data[i * IPIV_ITEM + j] = 1 + (j * 3 + i) % N;
    s->ipiv = s->ipiv_data;
    s->strideIpiv = IPIV_ITEM;
    s->B = PREC(take_real)(a, BATCH * ITEM);
    s->ldb = LD, s->strideB = ITEM;
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i) s->Aitem[i] = A + i * ITEM, s->Bitem[i] = s->B + i * ITEM;
    s->Aarr = s->Aitem, s->Barr = s->Bitem;
}

static kobalt_status PREC(call_getrs_strided)(const void *p)
{
    const PREC(getrs_args) *s = (const PREC(getrs_args) *)p;
    return KOBALT_NAME(getrs_strided)(s->layout, s->trans, s->n, s->nrhs, s->A, s->lda, s->strideA,
                                      s->ipiv, s->strideIpiv, s->B, s->ldb, s->strideB, s->batch);
}

static kobalt_status PREC(call_getrs_batched)(const void *p)
{
    const PREC(getrs_args) *s = (const PREC(getrs_args) *)p;
    return KOBALT_NAME(getrs_batched)(s->layout, s->trans, s->n, s->nrhs, s->Aarr, s->lda, s->ipiv,
                                      s->strideIpiv, s->Barr, s->ldb, s->batch);
}

static void PREC(getrs_pivot_zero)(void *p) { ((PREC(getrs_args) *)p)->ipiv_data[2 * IPIV_ITEM + 1] = 0; }
static void PREC(getrs_pivot_above_n)(void *p) { ((PREC(getrs_args) *)p)->ipiv_data[3 * IPIV_ITEM + N - 1] = N + 1; }
static void PREC(getrs_pivot_negative)(void *p) { ((PREC(getrs_args) *)p)->ipiv_data[0] = -1; }

#define ARGS PREC(getrs_args)
static const mutation PREC(getrs_common)[] = {
    BAD("layout", SET(layout, 0)),
    BAD("trans", SET(trans, 0)),
    OK(SET(trans, KOBALT_TRANS)),
    OK(ROW, SET(trans, KOBALT_CONJ_TRANS)),
    BAD("n", SET(n, -1)),
    BAD("nrhs", SET(nrhs, -1)),
    BAD("batch", SET(batch, -1)),
    BAD("lda", SET(lda, N - 1)),
    BAD("lda", ROW, SET(lda, N - 1)),
    OK(SET(lda, N)),
    /* ldb: B is n x nrhs */
    BAD("ldb", SET(ldb, N - 1)),
    OK(SET(ldb, N)),
    BAD("ldb", ROW, SET(ldb, NRHS - 1)),
    OK(ROW, SET(ldb, NRHS)),
    BAD("ldb", ROW, SET(nrhs, 0), SET(ldb, 0)),
    OK(NUL(ipiv)),
    BAD_TWEAK("ipiv", PREC(getrs_pivot_zero)),
    BAD_TWEAK("ipiv", PREC(getrs_pivot_above_n)),
    BAD_TWEAK("ipiv", PREC(getrs_pivot_negative)),
    BAD("strideIpiv", SET(strideIpiv, -1)),
    OK(SET(strideIpiv, 0)), /* ipiv is an input here: items may share it */
    BAD("strideIpiv", SET(strideIpiv, BIG_STRIDE)),
    OK_UNTOUCHED(SET(n, 0)),
    OK_UNTOUCHED(SET(nrhs, 0)),
    OK_UNTOUCHED(SET(batch, 0)),
};
static const mutation PREC(getrs_strided)[] = {
    BAD("strideA", SET(strideA, -1)),
    BAD("strideB", SET(strideB, -1)),
    OK(SET(strideA, 0)),
    BAD("strideB", SET(strideB, LD * (NRHS - 1) + N - 1)),
    OK(SET(strideB, LD * (NRHS - 1) + N)),
    BAD("strideB", ROW, SET(strideB, LD * (N - 1) + NRHS - 1)),
    OK(ROW, SET(strideB, LD * (N - 1) + NRHS)),
    OK(SET(batch, 1), SET(strideB, 0)),
    BAD("strideA", SET(strideA, BIG_STRIDE)),
    BAD("strideB", SET(strideB, BIG_STRIDE)),
    BAD("A", NUL(A)),
    BAD("B", NUL(B)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(ipiv), NUL(B)),
};
static const mutation PREC(getrs_batched)[] = {
    BAD("A", NUL(Aarr)),
    BAD("B", NUL(Barr)),
    BAD("A[2]", NUL_ITEM(Aitem, 2)),
    BAD("B[2]", NUL_ITEM(Bitem, 2)),
    OK_UNTOUCHED(SET(batch, 0), NUL(Aarr), NUL(ipiv), NUL(Barr)),
};
static const mutation PREC(getrs_bytes)[] = {
    BAD("strideB", SET(strideB, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideIpiv", SET(strideIpiv, BYTE_OVERFLOW(int, BATCH - 1))),
};
#undef ARGS
DEFINE_ARGS_TEST(getrs_strided, getrs, strided)
DEFINE_ARGS_TEST(getrs_batched, getrs, batched)

/* ======================================================================================
 * gemm_lu_trsv: X n x k (transx N) or k x n, Y k x n (transy N) or n x k, A n x n,
 * ipiv n per item (NULL: no pivoting), B n x nrhs, info one per item
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_op transx, transy;
    kobalt_int n, k, nrhs;
    REAL alpha, beta;
    const REAL *X;
    kobalt_int ldx, strideX;
    const REAL *Y;
    kobalt_int ldy, strideY;
    REAL *A;
    kobalt_int lda, strideA;
    int *ipiv;
    kobalt_int strideIpiv;
    REAL *B;
    kobalt_int ldb, strideB;
    int *info;
    kobalt_int batch;
    const REAL *Xitem[BATCH], *Yitem[BATCH];
    REAL *Aitem[BATCH], *Bitem[BATCH];
    const REAL *const *Xarr, *const *Yarr;
    REAL *const *Aarr, *const *Barr;
} PREC(fused_args);

static void PREC(setup_fused)(void *p, arena *a)
{
    PREC(fused_args) *s = (PREC(fused_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->transx = s->transy = KOBALT_NO_TRANS;
    s->n = N, s->k = K, s->nrhs = NRHS;
    s->alpha = (REAL)0.5, s->beta = (REAL)1;
    REAL *X = PREC(take_real)(a, BATCH * ITEM), *Y = PREC(take_real)(a, BATCH * ITEM);
    s->X = X, s->Y = Y;
    s->A = PREC(take_real)(a, BATCH * ITEM);
    for (int i = 0; i < BATCH; ++i)
        for (int j = 0; j < LD; ++j) s->A[i * ITEM + j * (LD + 1)] = (REAL)(8 + j);
    s->B = PREC(take_real)(a, BATCH * ITEM);
    s->ldx = s->ldy = s->lda = s->ldb = LD;
    s->strideX = s->strideY = s->strideA = s->strideB = ITEM;
    s->ipiv = arena_take_int(a, BATCH * IPIV_ITEM, 0x5A5A5A5A);
    s->strideIpiv = IPIV_ITEM;
    s->info = arena_take_int(a, BATCH, 0x5A5A5A5A);
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i) {
        s->Xitem[i] = X + i * ITEM, s->Yitem[i] = Y + i * ITEM;
        s->Aitem[i] = s->A + i * ITEM, s->Bitem[i] = s->B + i * ITEM;
    }
    s->Xarr = s->Xitem, s->Yarr = s->Yitem, s->Aarr = s->Aitem, s->Barr = s->Bitem;
}

static kobalt_status PREC(call_gemm_lu_trsv_strided)(const void *p)
{
    const PREC(fused_args) *s = (const PREC(fused_args) *)p;
    return KOBALT_NAME(gemm_lu_trsv_strided)(
        s->layout, s->transx, s->transy, s->n, s->k, s->nrhs, s->alpha, s->X, s->ldx, s->strideX,
        s->Y, s->ldy, s->strideY, s->beta, s->A, s->lda, s->strideA, s->ipiv, s->strideIpiv, s->B,
        s->ldb, s->strideB, s->info, s->batch);
}

static kobalt_status PREC(call_gemm_lu_trsv_batched)(const void *p)
{
    const PREC(fused_args) *s = (const PREC(fused_args) *)p;
    return KOBALT_NAME(gemm_lu_trsv_batched)(s->layout, s->transx, s->transy, s->n, s->k, s->nrhs,
                                             s->alpha, s->Xarr, s->ldx, s->Yarr, s->ldy, s->beta,
                                             s->Aarr, s->lda, s->ipiv, s->strideIpiv, s->Barr,
                                             s->ldb, s->info, s->batch);
}

static const char *PREC(fused_info_zero)(const void *p)
{
    const PREC(fused_args) *s = (const PREC(fused_args) *)p;
    return PREC(info_all_zero)(s->info, s->batch);
}

#define ARGS PREC(fused_args)
static const mutation PREC(fused_common)[] = {
    BAD("layout", SET(layout, 0)),
    BAD("transx", SET(transx, 0)),
    BAD("transy", SET(transy, 114)),
    OK(SET(transx, KOBALT_TRANS), SET(transy, KOBALT_CONJ_TRANS)),
    OK(ROW),
    BAD("n", SET(n, -1)),
    BAD("k", SET(k, -1)),
    BAD("nrhs", SET(nrhs, -1)),
    BAD("batch", SET(batch, -1)),
    /* ldx: X is n x k, or k x n under transx */
    BAD("ldx", SET(ldx, N - 1)),
    OK(SET(ldx, N)),
    BAD("ldx", ROW, SET(ldx, K - 1)),
    OK(ROW, SET(ldx, K)),
    BAD("ldx", SET(transx, KOBALT_TRANS), SET(ldx, K - 1)),
    BAD("ldx", ROW, SET(transx, KOBALT_TRANS), SET(ldx, N - 1)),
    /* ldy: Y is k x n, or n x k under transy */
    BAD("ldy", SET(ldy, K - 1)),
    OK(SET(ldy, K)),
    BAD("ldy", ROW, SET(ldy, N - 1)),
    OK(ROW, SET(ldy, N)),
    BAD("ldy", SET(transy, KOBALT_TRANS), SET(ldy, N - 1)),
    OK(SET(transy, KOBALT_TRANS), SET(ldy, N)),
    /* lda: A is n x n; ldb: B is n x nrhs */
    BAD("lda", SET(lda, N - 1)),
    BAD("lda", ROW, SET(lda, N - 1)),
    OK(SET(lda, N)),
    BAD("ldb", SET(ldb, N - 1)),
    OK(SET(ldb, N)),
    BAD("ldb", ROW, SET(ldb, NRHS - 1)),
    OK(ROW, SET(ldb, NRHS)),
    BAD("info", NUL(info)),
    OK(NUL(ipiv)),
    BAD("strideIpiv", SET(strideIpiv, -1)),
    BAD("strideIpiv", SET(strideIpiv, N - 1)),
    OK(SET(strideIpiv, N)),
    OK(SET(batch, 1), SET(strideIpiv, 0)),
    BAD("strideIpiv", SET(strideIpiv, BIG_STRIDE)),
    OK(SET(k, 0)),
    OK(SET(nrhs, 0)),
    OK_CHECK(PREC(fused_info_zero), SET(n, 0)),
    OK_UNTOUCHED(SET(batch, 0)),
};
static const mutation PREC(fused_strided)[] = {
    BAD("strideX", SET(strideX, -1)),
    BAD("strideY", SET(strideY, -1)),
    BAD("strideA", SET(strideA, -1)),
    BAD("strideB", SET(strideB, -1)),
    OK(SET(strideX, 0), SET(strideY, 0)),
    BAD("strideA", SET(strideA, LD * (N - 1) + N - 1)),
    OK(SET(strideA, LD * (N - 1) + N)),
    BAD("strideB", SET(strideB, LD * (NRHS - 1) + N - 1)),
    OK(SET(strideB, LD * (NRHS - 1) + N)),
    BAD("strideB", ROW, SET(strideB, LD * (N - 1) + NRHS - 1)),
    OK(ROW, SET(strideB, LD * (N - 1) + NRHS)),
    OK(SET(batch, 1), SET(strideA, 0), SET(strideB, 0)),
    BAD("strideX", SET(strideX, BIG_STRIDE)),
    BAD("strideY", SET(strideY, BIG_STRIDE)),
    BAD("strideA", SET(strideA, BIG_STRIDE)),
    BAD("strideB", SET(strideB, BIG_STRIDE)),
    BAD("X", NUL(X)),
    BAD("Y", NUL(Y)),
    BAD("A", NUL(A)),
    BAD("B", NUL(B)),
    OK(SET(k, 0), NUL(X), NUL(Y)),
    OK_UNTOUCHED(SET(batch, 0), NUL(X), NUL(Y), NUL(A), NUL(B)),
    OK_UNTOUCHED(SET(batch, 0), NUL(ipiv), NUL(info)),
};
static const mutation PREC(fused_batched)[] = {
    BAD("X", NUL(Xarr)),
    BAD("Y", NUL(Yarr)),
    BAD("A", NUL(Aarr)),
    BAD("B", NUL(Barr)),
    BAD("X[2]", NUL_ITEM(Xitem, 2)),
    BAD("Y[2]", NUL_ITEM(Yitem, 2)),
    BAD("A[2]", NUL_ITEM(Aitem, 2)),
    BAD("B[2]", NUL_ITEM(Bitem, 2)),
    OK(SET(k, 0), NUL_ITEM(Xitem, 2), NUL_ITEM(Yitem, 1)),
    OK_UNTOUCHED(SET(batch, 0), NUL(Xarr), NUL(Yarr), NUL(Aarr), NUL(Barr), NUL(ipiv)),
};
static const mutation PREC(fused_bytes)[] = {
    BAD("strideX", SET(strideX, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideA", SET(strideA, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideIpiv", SET(strideIpiv, BYTE_OVERFLOW(int, BATCH - 1))),
};
#undef ARGS
DEFINE_ARGS_TEST(gemm_lu_trsv_strided, fused, strided)
DEFINE_ARGS_TEST(gemm_lu_trsv_batched, fused, batched)

/* ======================================================================================
 * getri: A n x n (getrf's factors, read), ipiv n per item within 1..n (NULL: no
 * pivoting, read), C n x n (written), info one per item
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_int n;
    const REAL *A;
    kobalt_int lda, strideA;
    const int *ipiv;
    kobalt_int strideIpiv;
    REAL *C;
    kobalt_int ldc, strideC;
    int *info;
    kobalt_int batch;
    int *ipiv_data; /* the same buffer as ipiv, writable for the tweaks */
    const REAL *Aitem[BATCH];
    REAL *Citem[BATCH];
    const REAL *const *Aarr;
    REAL *const *Carr;
} PREC(getri_args);

static void PREC(setup_getri)(void *p, arena *a)
{
    PREC(getri_args) *s = (PREC(getri_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->n = N;
    REAL *A = PREC(take_real)(a, BATCH * ITEM);
    for (int i = 0; i < BATCH; ++i)
        for (int j = 0; j < LD; ++j) A[i * ITEM + j * (LD + 1)] = (REAL)(4 + j);
    s->A = A;
    s->lda = LD, s->strideA = ITEM;
    s->ipiv_data = arena_take_int(a, BATCH * IPIV_ITEM, -7);
    for (int i = 0; i < BATCH; ++i)
        for (int j = 0; j < N; ++j) s->ipiv_data[i * IPIV_ITEM + j] = 1 + (j * 3 + i) % N;
    s->ipiv = s->ipiv_data;
    s->strideIpiv = IPIV_ITEM;
    s->C = PREC(take_real)(a, BATCH * ITEM);
    s->ldc = LD, s->strideC = ITEM;
    s->info = arena_take_int(a, BATCH, 0x5A5A5A5A);
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i) s->Aitem[i] = A + i * ITEM, s->Citem[i] = s->C + i * ITEM;
    s->Aarr = s->Aitem, s->Carr = s->Citem;
}

static kobalt_status PREC(call_getri_strided)(const void *p)
{
    const PREC(getri_args) *s = (const PREC(getri_args) *)p;
    return KOBALT_NAME(getri_strided)(s->layout, s->n, s->A, s->lda, s->strideA, s->ipiv, s->strideIpiv, s->C,
                                      s->ldc, s->strideC, s->info, s->batch);
}

static kobalt_status PREC(call_getri_batched)(const void *p)
{
    const PREC(getri_args) *s = (const PREC(getri_args) *)p;
    return KOBALT_NAME(getri_batched)(s->layout, s->n, s->Aarr, s->lda, s->ipiv, s->strideIpiv, s->Carr, s->ldc,
                                      s->info, s->batch);
}

static const char *PREC(getri_info_zero)(const void *p)
{
    const PREC(getri_args) *s = (const PREC(getri_args) *)p;
    return PREC(info_all_zero)(s->info, s->batch);
}
static void PREC(getri_pivot_zero)(void *p) { ((PREC(getri_args) *)p)->ipiv_data[2 * IPIV_ITEM + 1] = 0; }
static void PREC(getri_pivot_above_n)(void *p) { ((PREC(getri_args) *)p)->ipiv_data[3 * IPIV_ITEM + N - 1] = N + 1; }

#define ARGS PREC(getri_args)
static const mutation PREC(getri_common)[] = {
    BAD("layout", SET(layout, 0)),
    OK(ROW),
    BAD("n", SET(n, -1)),
    BAD("batch", SET(batch, -1)),
    BAD("lda", SET(lda, N - 1)),
    BAD("lda", ROW, SET(lda, N - 1)),
    OK(SET(lda, N)),
    BAD("lda", SET(n, 0), SET(lda, 0)),
    BAD("ldc", SET(ldc, N - 1)),
    BAD("ldc", ROW, SET(ldc, N - 1)),
    OK(SET(ldc, N)),
    OK(NUL(ipiv)),
    BAD_TWEAK("ipiv", PREC(getri_pivot_zero)),
    BAD_TWEAK("ipiv", PREC(getri_pivot_above_n)),
    BAD("strideIpiv", SET(strideIpiv, -1)),
    OK(SET(strideIpiv, 0)), /* ipiv is an input here: items may share it */
    BAD("strideIpiv", SET(strideIpiv, BIG_STRIDE)),
    BAD("info", NUL(info)),
    OK_CHECK(PREC(getri_info_zero), SET(n, 0)),
    OK_UNTOUCHED(SET(batch, 0)),
    OK_UNTOUCHED(SET(batch, 0), NUL(ipiv), NUL(info)),
};
static const mutation PREC(getri_strided)[] = {
    BAD("strideA", SET(strideA, -1)),
    BAD("strideC", SET(strideC, -1)),
    OK(SET(strideA, 0)),
    BAD("strideC", SET(strideC, LD * (N - 1) + N - 1)),
    OK(SET(strideC, LD * (N - 1) + N)),
    OK(SET(batch, 1), SET(strideC, 0)),
    BAD("strideA", SET(strideA, BIG_STRIDE)),
    BAD("strideC", SET(strideC, BIG_STRIDE)),
    BAD("A", NUL(A)),
    BAD("C", NUL(C)),
    OK_CHECK(PREC(getri_info_zero), SET(n, 0), NUL(A), NUL(C)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(ipiv), NUL(C), NUL(info)),
};
static const mutation PREC(getri_batched)[] = {
    BAD("A", NUL(Aarr)),
    BAD("C", NUL(Carr)),
    BAD("A[2]", NUL_ITEM(Aitem, 2)),
    BAD("C[2]", NUL_ITEM(Citem, 2)),
    OK_UNTOUCHED(SET(batch, 0), NUL(Aarr), NUL(ipiv), NUL(Carr), NUL(info)),
};
static const mutation PREC(getri_bytes)[] = {
    BAD("strideC", SET(strideC, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideIpiv", SET(strideIpiv, BYTE_OVERFLOW(int, BATCH - 1))),
};
#undef ARGS
DEFINE_ARGS_TEST(getri_strided, getri, strided)
DEFINE_ARGS_TEST(getri_batched, getri, batched)

/* ======================================================================================
 * matinv: A n x n (read), C n x n (written), info one per item
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_int n;
    const REAL *A;
    kobalt_int lda, strideA;
    REAL *C;
    kobalt_int ldc, strideC;
    int *info;
    kobalt_int batch;
    const REAL *Aitem[BATCH];
    REAL *Citem[BATCH];
    const REAL *const *Aarr;
    REAL *const *Carr;
} PREC(matinv_args);

static void PREC(setup_matinv)(void *p, arena *a)
{
    PREC(matinv_args) *s = (PREC(matinv_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->n = N;
    s->A = PREC(take_real)(a, BATCH * ITEM);
    s->lda = LD, s->strideA = ITEM;
    s->C = PREC(take_real)(a, BATCH * ITEM);
    s->ldc = LD, s->strideC = ITEM;
    s->info = arena_take_int(a, BATCH, 0x5A5A5A5A);
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i) s->Aitem[i] = s->A + i * ITEM, s->Citem[i] = s->C + i * ITEM;
    s->Aarr = s->Aitem, s->Carr = s->Citem;
}

static kobalt_status PREC(call_matinv_strided)(const void *p)
{
    const PREC(matinv_args) *s = (const PREC(matinv_args) *)p;
    return KOBALT_NAME(matinv_strided)(s->layout, s->n, s->A, s->lda, s->strideA, s->C, s->ldc, s->strideC, s->info,
                                       s->batch);
}

static kobalt_status PREC(call_matinv_batched)(const void *p)
{
    const PREC(matinv_args) *s = (const PREC(matinv_args) *)p;
    return KOBALT_NAME(matinv_batched)(s->layout, s->n, s->Aarr, s->lda, s->Carr, s->ldc, s->info, s->batch);
}

static const char *PREC(matinv_info_zero)(const void *p)
{
    const PREC(matinv_args) *s = (const PREC(matinv_args) *)p;
    return PREC(info_all_zero)(s->info, s->batch);
}

#define ARGS PREC(matinv_args)
static const mutation PREC(matinv_common)[] = {
    BAD("layout", SET(layout, 0)),
    OK(ROW),
    BAD("n", SET(n, -1)),
    BAD("batch", SET(batch, -1)),
    BAD("lda", SET(lda, N - 1)),
    BAD("lda", ROW, SET(lda, N - 1)),
    OK(SET(lda, N)),
    BAD("lda", SET(n, 0), SET(lda, 0)),
    BAD("ldc", SET(ldc, N - 1)),
    OK(SET(ldc, N)),
    BAD("ldc", SET(n, 0), SET(ldc, 0)),
    BAD("info", NUL(info)),
    OK_CHECK(PREC(matinv_info_zero), SET(n, 0)),
    OK_UNTOUCHED(SET(batch, 0)),
    OK_UNTOUCHED(SET(batch, 0), NUL(info)),
};
static const mutation PREC(matinv_strided)[] = {
    BAD("strideA", SET(strideA, -1)),
    BAD("strideC", SET(strideC, -1)),
    OK(SET(strideA, 0)),
    BAD("strideC", SET(strideC, LD * (N - 1) + N - 1)),
    OK(SET(strideC, LD * (N - 1) + N)),
    BAD("strideC", ROW, SET(strideC, LD * (N - 1) + N - 1)),
    OK(SET(batch, 1), SET(strideC, 0)),
    BAD("strideA", SET(strideA, BIG_STRIDE)),
    BAD("strideC", SET(strideC, BIG_STRIDE)),
    BAD("A", NUL(A)),
    BAD("C", NUL(C)),
    OK_CHECK(PREC(matinv_info_zero), SET(n, 0), NUL(A), NUL(C)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(C), NUL(info)),
};
static const mutation PREC(matinv_batched)[] = {
    BAD("A", NUL(Aarr)),
    BAD("C", NUL(Carr)),
    BAD("A[2]", NUL_ITEM(Aitem, 2)),
    BAD("C[0]", NUL_ITEM(Citem, 0)),
    OK_UNTOUCHED(SET(batch, 0), NUL(Aarr), NUL(Carr), NUL(info)),
};
static const mutation PREC(matinv_bytes)[] = {
    BAD("strideA", SET(strideA, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideC", SET(strideC, BYTE_OVERFLOW(REAL, BATCH - 1))),
};
#undef ARGS
DEFINE_ARGS_TEST(matinv_strided, matinv, strided)
DEFINE_ARGS_TEST(matinv_batched, matinv, batched)

/* The isolated cases: run one process each by test_arguments --isolated. */
static const isolated_table PREC(isolated)[] = {
    {&PREC(rut_gemm_strided), PREC(gemm_bytes), COUNT(PREC(gemm_bytes))},
    {&PREC(rut_gemv_strided), PREC(gemv_bytes), COUNT(PREC(gemv_bytes))},
    {&PREC(rut_trsv_strided), PREC(trsv_bytes), COUNT(PREC(trsv_bytes))},
    {&PREC(rut_trsm_strided), PREC(trsm_bytes), COUNT(PREC(trsm_bytes))},
    {&PREC(rut_getrf_strided), PREC(getrf_bytes), COUNT(PREC(getrf_bytes))},
    {&PREC(rut_getrs_strided), PREC(getrs_bytes), COUNT(PREC(getrs_bytes))},
    {&PREC(rut_gemm_lu_trsv_strided), PREC(fused_bytes), COUNT(PREC(fused_bytes))},
    {&PREC(rut_getri_strided), PREC(getri_bytes), COUNT(PREC(getri_bytes))},
    {&PREC(rut_matinv_strided), PREC(matinv_bytes), COUNT(PREC(matinv_bytes))},
};

#undef REAL
#undef PREC
#undef TEST_FN
#undef ROW
#undef FN_NAME
#undef DEFINE_ARGS_TEST
