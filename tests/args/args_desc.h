/*
 * args_desc.h -- the argument tests of the descriptor routines (*_desc) and of
 * pack/unpack_interleaved, written once for a generic real type like args_routines.h and
 * included by test_arguments.c once per precision (KOBALT_T, KOBALT_P defined). No
 * include guard on purpose.
 *
 * Every operand's kobalt_matrix_desc lives in the argument struct (dA, dB, ...) and the
 * call passes a pointer to it (pA, pB, ...), so a mutation can change one descriptor
 * field (SET(dC.batch_stride, ...)) or pass no descriptor at all (NUL(pC)). Baseline:
 * column-major items, LD x ITEM as in args_routines.h.
 */

#define REAL KOBALT_T
#define PREC(x) KOBALT_PASTE3(x, _desc_, KOBALT_P)
#define TEST_FN(name) KOBALT_PASTE2(test_args_, KOBALT_NAME(name))
#define FN_NAME(name) KOBALT_STRINGIFY(KOBALT_NAME(name))

/* One routine, one table. */
#define DEFINE_DESC_TEST(name, family)                                                       \
    static const routine_under_test PREC(rut_##name) = {                                     \
        FN_NAME(name), sizeof(PREC(family##_args)), PREC(setup_##family), PREC(call_##name)}; \
    static void TEST_FN(name)(void **state)                                                  \
    {                                                                                        \
        (void)state;                                                                         \
        const routine_under_test *r = &PREC(rut_##name);                                     \
        int failures = run_mutations(r, PREC(family##_table), COUNT(PREC(family##_table)));  \
        print_message("%s: %zu argument cases\n", r->fn, 1 + COUNT(PREC(family##_table)));   \
        if (failures) fail_msg("%s: %d argument case(s) failed, see above", r->fn, failures); \
    }

static REAL *PREC(take_real)(arena *a, size_t count)
{
    REAL *p = (REAL *)arena_take(a, count * sizeof(REAL));
    for (size_t i = 0; i < count; ++i) p[i] = (REAL)arena_uniform(a);
    return p;
}

/* Column-major rows x cols items, leading dimension LD, ITEM apart. */
static kobalt_matrix_desc PREC(colmajor)(kobalt_int rows, kobalt_int cols)
{
    kobalt_matrix_desc d = {rows, cols, 1, LD, ITEM};
    return d;
}
/* A len x 1 vector (pivots too), contiguous, `apart` elements between items. */
static kobalt_matrix_desc PREC(column)(kobalt_int len, kobalt_int apart)
{
    kobalt_matrix_desc d = {len, 1, 1, 0, apart};
    return d;
}

static const char *PREC(info_zero)(const int *info, kobalt_int batch)
{
    for (kobalt_int i = 0; i < batch; ++i)
        if (info[i] != 0) return "info[i] was not set to 0 for an empty matrix";
    return NULL;
}

/* The extent of a column-major M x N item plus one short: items overlap by one element. */
#define OVERLAP_BY_ONE(rows, cols) (LD * ((cols) - 1) + (rows) - 1)

/* ======================================================================================
 * gemm_desc: op(A) m x k, op(B) k x n, C m x n (baseline M x K, K x N, M x N)
 * ====================================================================================== */
typedef struct {
    kobalt_op transa, transb;
    REAL alpha, beta;
    const REAL *A, *B;
    REAL *C;
    kobalt_matrix_desc dA, dB, dC;
    const kobalt_matrix_desc *pA, *pB, *pC;
    kobalt_int batch;
} PREC(gemm_args);

static void PREC(setup_gemm)(void *p, arena *a)
{
    PREC(gemm_args) *s = (PREC(gemm_args) *)p;
    s->transa = s->transb = KOBALT_NO_TRANS;
    s->alpha = (REAL)1.5, s->beta = (REAL)0.5;
    s->A = PREC(take_real)(a, BATCH * ITEM);
    s->B = PREC(take_real)(a, BATCH * ITEM);
    s->C = PREC(take_real)(a, BATCH * ITEM);
    s->dA = PREC(colmajor)(M, K), s->dB = PREC(colmajor)(K, N), s->dC = PREC(colmajor)(M, N);
    s->pA = &s->dA, s->pB = &s->dB, s->pC = &s->dC;
    s->batch = BATCH;
}
static kobalt_status PREC(call_gemm_desc)(const void *p)
{
    const PREC(gemm_args) *s = (const PREC(gemm_args) *)p;
    return KOBALT_NAME(gemm_desc)(s->transa, s->transb, s->alpha, s->A, s->pA, s->B, s->pB, s->beta, s->C, s->pC,
                                  s->batch);
}

#define ARGS PREC(gemm_args)
static const mutation PREC(gemm_table)[] = {
    BAD("transa", SET(transa, 0)),
    BAD("transb", SET(transb, 110)),
    BAD("batch", SET(batch, -1)),
    BAD("descA", NUL(pA)),
    BAD("descB", NUL(pB)),
    BAD("descC", NUL(pC)),
    BAD("descA", SET(dA.rows, -1)),
    BAD("descA", SET(dA.cols, -2)),
    BAD("descA", SET(dA.row_stride, -1)),
    BAD("descB", SET(dB.col_stride, -7)),
    BAD("descC", SET(dC.batch_stride, -ITEM)),
    /* sizes must agree: B's rows are op(A)'s columns, C is m x n */
    BAD("descB", SET(dB.rows, K + 1)),
    BAD("descC", SET(dC.rows, M + 1)),
    BAD("descC", SET(dC.cols, N - 1)),
    BAD("descB", SET(transa, KOBALT_TRANS)),
    OK(SET(transa, KOBALT_TRANS), SET(dA.rows, K), SET(dA.cols, M)),
    OK(SET(transb, KOBALT_CONJ_TRANS), SET(dB.rows, N), SET(dB.cols, K)),
    /* the data pointers */
    BAD("A", NUL(A)),
    BAD("C", NUL(C)),
    OK(SET(dA.cols, 0), SET(dB.rows, 0), NUL(A), NUL(B)),
    OK_UNTOUCHED(SET(dA.rows, 0), SET(dC.rows, 0), NUL(A), NUL(C)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(B), NUL(C)),
    /* C is written: its elements must provably not overlap */
    BAD("descC", SET(dC.batch_stride, OVERLAP_BY_ONE(M, N))),
    OK(SET(dC.batch_stride, OVERLAP_BY_ONE(M, N) + 1)),
    BAD("descC", SET(dC.row_stride, 0)),
    BAD("descC", SET(dC.col_stride, M - 1)),
    BAD("descC", SET(dC.batch_stride, 0)),
    OK(SET(batch, 1), SET(dC.batch_stride, 0)),
    OK(SET(dC.row_stride, LD), SET(dC.col_stride, 1)),                         /* row-major */
    OK(SET(dC.row_stride, BATCH), SET(dC.col_stride, BATCH * M), SET(dC.batch_stride, 1)), /* interleaved */
    OK(SET(dC.row_stride, 1), SET(dC.col_stride, M * BATCH), SET(dC.batch_stride, M)),    /* batch between */
    BAD("descC", SET(dC.row_stride, BATCH), SET(dC.col_stride, BATCH * M - 1), SET(dC.batch_stride, 1)),
    /* inputs may overlap or be shared */
    OK(SET(dA.col_stride, 1)),
    OK(SET(dA.row_stride, 0), SET(dB.batch_stride, 0)),
    /* the whole batch must be addressable */
    BAD("descA", SET(dA.batch_stride, BIG_STRIDE)),
    BAD("descC", SET(dC.col_stride, BIG_STRIDE)),
};
static const mutation PREC(gemm_bytes)[] = {
    BAD("descA", SET(dA.batch_stride, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("descC", SET(dC.col_stride, BYTE_OVERFLOW(REAL, N - 1))),
};
#undef ARGS
DEFINE_DESC_TEST(gemm_desc, gemm)

/* ======================================================================================
 * gemv_desc: op(A) rows x cols, x of length cols, y of length rows
 * ====================================================================================== */
typedef struct {
    kobalt_op trans;
    REAL alpha, beta;
    const REAL *A, *x;
    REAL *y;
    kobalt_matrix_desc dA, dx, dy;
    const kobalt_matrix_desc *pA, *px, *py;
    kobalt_int batch;
} PREC(gemv_args);

static void PREC(setup_gemv)(void *p, arena *a)
{
    PREC(gemv_args) *s = (PREC(gemv_args) *)p;
    s->trans = KOBALT_NO_TRANS;
    s->alpha = (REAL)1, s->beta = (REAL)2;
    s->A = PREC(take_real)(a, BATCH * ITEM);
    s->x = PREC(take_real)(a, BATCH * LD);
    s->y = PREC(take_real)(a, BATCH * LD);
    s->dA = PREC(colmajor)(M, N), s->dx = PREC(column)(N, LD), s->dy = PREC(column)(M, LD);
    s->pA = &s->dA, s->px = &s->dx, s->py = &s->dy;
    s->batch = BATCH;
}
static kobalt_status PREC(call_gemv_desc)(const void *p)
{
    const PREC(gemv_args) *s = (const PREC(gemv_args) *)p;
    return KOBALT_NAME(gemv_desc)(s->trans, s->alpha, s->A, s->pA, s->x, s->px, s->beta, s->y, s->py, s->batch);
}

#define ARGS PREC(gemv_args)
static const mutation PREC(gemv_table)[] = {
    BAD("trans", SET(trans, 5)),
    BAD("batch", SET(batch, -3)),
    BAD("descA", NUL(pA)),
    BAD("descx", NUL(px)),
    BAD("descy", NUL(py)),
    BAD("descx", SET(dx.cols, 2)),
    BAD("descy", SET(dy.cols, 0)),
    BAD("descx", SET(dx.rows, N + 1)),
    BAD("descy", SET(dy.rows, M - 1)),
    BAD("descx", SET(trans, KOBALT_TRANS)),
    OK(SET(trans, KOBALT_TRANS), SET(dx.rows, M), SET(dy.rows, N)),
    BAD("descy", SET(dy.row_stride, 0)),
    OK(SET(dx.row_stride, 0)),              /* an input: one element read len times */
    OK(SET(dy.row_stride, 2), SET(dy.batch_stride, 2 * M)),
    BAD("descy", SET(dy.row_stride, 2), SET(dy.batch_stride, 2 * M - 2)),
    OK(SET(dy.row_stride, BATCH), SET(dy.batch_stride, 1)),
    BAD("descy", SET(dy.row_stride, BATCH - 1), SET(dy.batch_stride, 1)),
    BAD("x", NUL(x)),
    BAD("y", NUL(y)),
    OK_UNTOUCHED(SET(dA.cols, 0), SET(dx.rows, 0), NUL(x), NUL(A)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(x), NUL(y)),
    BAD("descy", SET(dy.batch_stride, BIG_STRIDE)),
};
static const mutation PREC(gemv_bytes)[] = {
    BAD("descx", SET(dx.batch_stride, BYTE_OVERFLOW(REAL, BATCH - 1))),
};
#undef ARGS
DEFINE_DESC_TEST(gemv_desc, gemv)

/* ======================================================================================
 * trsv_desc: A n x n, x of length n
 * ====================================================================================== */
typedef struct {
    kobalt_uplo uplo;
    kobalt_op trans;
    kobalt_diag diag;
    const REAL *A;
    REAL *x;
    kobalt_matrix_desc dA, dx;
    const kobalt_matrix_desc *pA, *px;
    kobalt_int batch;
} PREC(trsv_args);

static void PREC(setup_trsv)(void *p, arena *a)
{
    PREC(trsv_args) *s = (PREC(trsv_args) *)p;
    s->uplo = KOBALT_LOWER, s->trans = KOBALT_NO_TRANS, s->diag = KOBALT_NON_UNIT;
    REAL *A = PREC(take_real)(a, BATCH * ITEM);
    for (int i = 0; i < BATCH; ++i)
        for (int d = 0; d < N; ++d) A[i * ITEM + d + d * LD] = (REAL)(N + 1); /* well conditioned */
    s->A = A;
    s->x = PREC(take_real)(a, BATCH * LD);
    s->dA = PREC(colmajor)(N, N), s->dx = PREC(column)(N, LD);
    s->pA = &s->dA, s->px = &s->dx;
    s->batch = BATCH;
}
static kobalt_status PREC(call_trsv_desc)(const void *p)
{
    const PREC(trsv_args) *s = (const PREC(trsv_args) *)p;
    return KOBALT_NAME(trsv_desc)(s->uplo, s->trans, s->diag, s->A, s->pA, s->x, s->px, s->batch);
}

#define ARGS PREC(trsv_args)
static const mutation PREC(trsv_table)[] = {
    BAD("uplo", SET(uplo, 0)),
    BAD("trans", SET(trans, 0)),
    BAD("diag", SET(diag, 0)),
    BAD("batch", SET(batch, -1)),
    BAD("descA", NUL(pA)),
    BAD("descA", SET(dA.cols, N - 1)),
    BAD("descx", SET(dx.rows, N + 1)),
    BAD("descx", SET(dx.cols, 4)),
    BAD("descx", NUL(px)),
    BAD("descx", SET(dx.batch_stride, N - 1)),
    OK(SET(dx.batch_stride, N)),
    OK(SET(dA.batch_stride, 0)),
    OK(SET(uplo, KOBALT_UPPER), SET(trans, KOBALT_TRANS), SET(diag, KOBALT_UNIT)),
    BAD("A", NUL(A)),
    BAD("x", NUL(x)),
    OK_UNTOUCHED(SET(dA.rows, 0), SET(dA.cols, 0), SET(dx.rows, 0), NUL(A), NUL(x)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(x)),
};
static const mutation PREC(trsv_bytes)[] = {
    BAD("descA", SET(dA.batch_stride, BYTE_OVERFLOW(REAL, BATCH - 1))),
};
#undef ARGS
DEFINE_DESC_TEST(trsv_desc, trsv)

/* ======================================================================================
 * trsm_desc: A m x m (left) or n x n (right), B m x n
 * ====================================================================================== */
typedef struct {
    kobalt_side side;
    kobalt_uplo uplo;
    kobalt_op transa;
    kobalt_diag diag;
    REAL alpha;
    const REAL *A;
    REAL *B;
    kobalt_matrix_desc dA, dB;
    const kobalt_matrix_desc *pA, *pB;
    kobalt_int batch;
} PREC(trsm_args);

static void PREC(setup_trsm)(void *p, arena *a)
{
    PREC(trsm_args) *s = (PREC(trsm_args) *)p;
    s->side = KOBALT_LEFT, s->uplo = KOBALT_UPPER, s->transa = KOBALT_NO_TRANS, s->diag = KOBALT_NON_UNIT;
    s->alpha = (REAL)1;
    REAL *A = PREC(take_real)(a, BATCH * ITEM);
    for (int i = 0; i < BATCH; ++i)
        for (int d = 0; d < LD; ++d) A[i * ITEM + d + d * LD] = (REAL)(LD + 1);
    s->A = A;
    s->B = PREC(take_real)(a, BATCH * ITEM);
    s->dA = PREC(colmajor)(M, M), s->dB = PREC(colmajor)(M, N);
    s->pA = &s->dA, s->pB = &s->dB;
    s->batch = BATCH;
}
static kobalt_status PREC(call_trsm_desc)(const void *p)
{
    const PREC(trsm_args) *s = (const PREC(trsm_args) *)p;
    return KOBALT_NAME(trsm_desc)(s->side, s->uplo, s->transa, s->diag, s->alpha, s->A, s->pA, s->B, s->pB, s->batch);
}

#define ARGS PREC(trsm_args)
static const mutation PREC(trsm_table)[] = {
    BAD("side", SET(side, 0)),
    BAD("uplo", SET(uplo, 0)),
    BAD("transa", SET(transa, 0)),
    BAD("diag", SET(diag, 0)),
    BAD("batch", SET(batch, -1)),
    BAD("descA", NUL(pA)),
    BAD("descB", NUL(pB)),
    BAD("descA", SET(dA.cols, M + 1)),
    BAD("descB", SET(dB.rows, M + 1)),
    BAD("descB", SET(side, KOBALT_RIGHT)),
    OK(SET(side, KOBALT_RIGHT), SET(dA.rows, N), SET(dA.cols, N)),
    BAD("descB", SET(dB.col_stride, M - 1)),
    OK(SET(dB.row_stride, N), SET(dB.col_stride, 1), SET(dB.batch_stride, M * N)),
    BAD("descB", SET(dB.row_stride, N), SET(dB.col_stride, 1), SET(dB.batch_stride, M * N - 1)),
    BAD("A", NUL(A)),
    BAD("B", NUL(B)),
    OK_UNTOUCHED(SET(dB.cols, 0), NUL(B)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(B)),
};
static const mutation PREC(trsm_bytes)[] = {
    BAD("descB", SET(dB.batch_stride, BYTE_OVERFLOW(REAL, BATCH - 1))),
};
#undef ARGS
DEFINE_DESC_TEST(trsm_desc, trsm)

/* ======================================================================================
 * getrf_desc: A m x n, pivots min(m, n) x 1 (NULL: no pivoting), info one per item
 * ====================================================================================== */
typedef struct {
    REAL *A;
    int *ipiv, *info;
    kobalt_matrix_desc dA, dP;
    const kobalt_matrix_desc *pA, *pP;
    kobalt_int batch;
} PREC(getrf_args);

static void PREC(setup_getrf)(void *p, arena *a)
{
    PREC(getrf_args) *s = (PREC(getrf_args) *)p;
    s->A = PREC(take_real)(a, BATCH * ITEM);
    s->ipiv = arena_take_int(a, BATCH * IPIV_ITEM, 0x5A5A5A5A);
    s->info = arena_take_int(a, BATCH, 0x5A5A5A5A);
    s->dA = PREC(colmajor)(M, N), s->dP = PREC(column)(M, IPIV_ITEM);
    s->pA = &s->dA, s->pP = &s->dP;
    s->batch = BATCH;
}
static kobalt_status PREC(call_getrf_desc)(const void *p)
{
    const PREC(getrf_args) *s = (const PREC(getrf_args) *)p;
    return KOBALT_NAME(getrf_desc)(s->A, s->pA, s->ipiv, s->pP, s->info, s->batch);
}
static const char *PREC(getrf_info_zero)(const void *p)
{
    const PREC(getrf_args) *s = (const PREC(getrf_args) *)p;
    return PREC(info_zero)(s->info, s->batch);
}

#define ARGS PREC(getrf_args)
static const mutation PREC(getrf_table)[] = {
    BAD("batch", SET(batch, -1)),
    BAD("descA", NUL(pA)),
    BAD("descA", SET(dA.rows, -1)),
    BAD("descA", SET(dA.batch_stride, OVERLAP_BY_ONE(M, N))),
    BAD("A", NUL(A)),
    BAD("descIpiv", NUL(pP)),
    OK(NUL(ipiv), NUL(pP)),
    BAD("descIpiv", SET(dP.rows, M + 1)),
    BAD("descIpiv", SET(dP.cols, 2)),
    BAD("descIpiv", SET(dP.batch_stride, M - 1)),
    BAD("descIpiv", SET(dP.row_stride, -1)),
    OK(SET(dP.row_stride, BATCH), SET(dP.batch_stride, 1)),
    OK(SET(dA.rows, 5), SET(dP.rows, N)),
    BAD("info", NUL(info)),
    OK_CHECK(PREC(getrf_info_zero), SET(dA.rows, 0), SET(dP.rows, 0), NUL(A)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(ipiv), NUL(info)),
    BAD("descA", SET(dA.col_stride, BIG_STRIDE)),
    BAD("descIpiv", SET(dP.batch_stride, BIG_STRIDE)),
};
static const mutation PREC(getrf_bytes)[] = {
    BAD("descA", SET(dA.batch_stride, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("descIpiv", SET(dP.batch_stride, BYTE_OVERFLOW(int, BATCH - 1))),
};
#undef ARGS
DEFINE_DESC_TEST(getrf_desc, getrf)

/* ======================================================================================
 * getrs_desc: A n x n factors, pivots n x 1 (within 1..n), B n x nrhs
 * ====================================================================================== */
typedef struct {
    kobalt_op trans;
    const REAL *A;
    int *ipiv;
    REAL *B;
    kobalt_matrix_desc dA, dP, dB;
    const kobalt_matrix_desc *pA, *pP, *pB;
    kobalt_int batch;
} PREC(getrs_args);

static void PREC(setup_getrs)(void *p, arena *a)
{
    PREC(getrs_args) *s = (PREC(getrs_args) *)p;
    s->trans = KOBALT_NO_TRANS;
    REAL *A = PREC(take_real)(a, BATCH * ITEM);
    for (int i = 0; i < BATCH; ++i)
        for (int d = 0; d < N; ++d) A[i * ITEM + d + d * LD] = (REAL)(N + 2);
    s->A = A;
    s->ipiv = arena_take_int(a, BATCH * IPIV_ITEM, 0x5A5A5A5A);
    for (int i = 0; i < BATCH; ++i)
        for (int j = 0; j < N; ++j) s->ipiv[i * IPIV_ITEM + j] = N - j; /* within 1..N */
    s->B = PREC(take_real)(a, BATCH * ITEM);
    s->dA = PREC(colmajor)(N, N), s->dP = PREC(column)(N, IPIV_ITEM), s->dB = PREC(colmajor)(N, NRHS);
    s->pA = &s->dA, s->pP = &s->dP, s->pB = &s->dB;
    s->batch = BATCH;
}
static kobalt_status PREC(call_getrs_desc)(const void *p)
{
    const PREC(getrs_args) *s = (const PREC(getrs_args) *)p;
    return KOBALT_NAME(getrs_desc)(s->trans, s->A, s->pA, s->ipiv, s->pP, s->B, s->pB, s->batch);
}
static void PREC(getrs_bad_pivot)(void *p)
{
    PREC(getrs_args) *s = (PREC(getrs_args) *)p;
    s->ipiv[2 * IPIV_ITEM + 1] = N + 1;
}
static void PREC(getrs_zero_pivot)(void *p)
{
    PREC(getrs_args) *s = (PREC(getrs_args) *)p;
    s->ipiv[3 * IPIV_ITEM + N - 1] = 0;
}

#define ARGS PREC(getrs_args)
static const mutation PREC(getrs_table)[] = {
    BAD("trans", SET(trans, 0)),
    BAD("batch", SET(batch, -1)),
    BAD("descA", NUL(pA)),
    BAD("descA", SET(dA.rows, N + 1)),
    BAD("descIpiv", NUL(pP)),
    BAD("descIpiv", SET(dP.rows, N - 1)),
    OK(SET(dP.batch_stride, 0)), /* an input: every item may share one pivot array */
    OK(NUL(ipiv), NUL(pP)),
    BAD_TWEAK("ipiv", PREC(getrs_bad_pivot)),
    BAD_TWEAK("ipiv", PREC(getrs_zero_pivot)),
    BAD("descB", SET(dB.rows, N - 1)),
    BAD("descB", SET(dB.batch_stride, OVERLAP_BY_ONE(N, NRHS))),
    OK(SET(dB.cols, 5)),
    BAD("B", NUL(B)),
    OK_UNTOUCHED(SET(dB.cols, 0), NUL(B)),
    OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(ipiv), NUL(B)),
};
static const mutation PREC(getrs_bytes)[] = {
    BAD("descB", SET(dB.batch_stride, BYTE_OVERFLOW(REAL, BATCH - 1))),
};
#undef ARGS
DEFINE_DESC_TEST(getrs_desc, getrs)

/* ======================================================================================
 * gemm_lu_trsv_desc: op(X) n x k, op(Y) k x n, A n x n, pivots n x 1, B n x nrhs
 * ====================================================================================== */
typedef struct {
    kobalt_op transx, transy;
    REAL alpha, beta;
    const REAL *X, *Y;
    REAL *A, *B;
    int *ipiv, *info;
    kobalt_matrix_desc dX, dY, dA, dP, dB;
    const kobalt_matrix_desc *pX, *pY, *pA, *pP, *pB;
    kobalt_int batch;
} PREC(fused_args);

static void PREC(setup_fused)(void *p, arena *a)
{
    PREC(fused_args) *s = (PREC(fused_args) *)p;
    s->transx = s->transy = KOBALT_NO_TRANS;
    s->alpha = (REAL)0.25, s->beta = (REAL)1;
    s->X = PREC(take_real)(a, BATCH * ITEM);
    s->Y = PREC(take_real)(a, BATCH * ITEM);
    REAL *A = PREC(take_real)(a, BATCH * ITEM);
    for (int i = 0; i < BATCH; ++i)
        for (int d = 0; d < N; ++d) A[i * ITEM + d + d * LD] = (REAL)(4 * K);
    s->A = A;
    s->B = PREC(take_real)(a, BATCH * ITEM);
    s->ipiv = arena_take_int(a, BATCH * IPIV_ITEM, 0x5A5A5A5A);
    s->info = arena_take_int(a, BATCH, 0x5A5A5A5A);
    s->dX = PREC(colmajor)(N, K), s->dY = PREC(colmajor)(K, N), s->dA = PREC(colmajor)(N, N);
    s->dP = PREC(column)(N, IPIV_ITEM), s->dB = PREC(colmajor)(N, NRHS);
    s->pX = &s->dX, s->pY = &s->dY, s->pA = &s->dA, s->pP = &s->dP, s->pB = &s->dB;
    s->batch = BATCH;
}
static kobalt_status PREC(call_gemm_lu_trsv_desc)(const void *p)
{
    const PREC(fused_args) *s = (const PREC(fused_args) *)p;
    return KOBALT_NAME(gemm_lu_trsv_desc)(s->transx, s->transy, s->alpha, s->X, s->pX, s->Y, s->pY, s->beta, s->A,
                                          s->pA, s->ipiv, s->pP, s->B, s->pB, s->info, s->batch);
}
static const char *PREC(fused_info_zero)(const void *p)
{
    const PREC(fused_args) *s = (const PREC(fused_args) *)p;
    return PREC(info_zero)(s->info, s->batch);
}

#define ARGS PREC(fused_args)
static const mutation PREC(fused_table)[] = {
    BAD("transx", SET(transx, 0)),
    BAD("transy", SET(transy, 0)),
    BAD("batch", SET(batch, -1)),
    BAD("descX", NUL(pX)),
    BAD("descY", SET(dY.rows, K + 1)),
    BAD("descY", SET(dY.cols, N + 1)),
    BAD("descY", SET(transx, KOBALT_TRANS)),
    OK(SET(transx, KOBALT_TRANS), SET(dX.rows, K), SET(dX.cols, N)),
    BAD("descA", SET(dA.rows, N + 1)),
    BAD("descA", SET(dA.batch_stride, OVERLAP_BY_ONE(N, N))),
    BAD("descIpiv", SET(dP.rows, N - 1)),
    BAD("descIpiv", NUL(pP)),
    OK(NUL(ipiv), NUL(pP)),
    BAD("descB", SET(dB.rows, N + 1)),
    BAD("descB", SET(dB.col_stride, N - 1)),
    BAD("info", NUL(info)),
    BAD("X", NUL(X)),
    BAD("A", NUL(A)),
    OK(SET(dX.cols, 0), SET(dY.rows, 0), NUL(X), NUL(Y)),
    OK_CHECK(PREC(fused_info_zero), SET(dX.rows, 0), SET(dY.cols, 0), SET(dA.rows, 0), SET(dA.cols, 0),
             SET(dP.rows, 0), SET(dB.rows, 0)),
    OK_UNTOUCHED(SET(batch, 0), NUL(X), NUL(Y), NUL(A), NUL(B), NUL(info)),
};
static const mutation PREC(fused_bytes)[] = {
    BAD("descX", SET(dX.batch_stride, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("descB", SET(dB.col_stride, BYTE_OVERFLOW(REAL, NRHS - 1))),
};
#undef ARGS
DEFINE_DESC_TEST(gemm_lu_trsv_desc, fused)

/* ======================================================================================
 * pack_interleaved / unpack_interleaved: rows x cols items <-> P, element planes ldp apart
 * ====================================================================================== */
typedef struct {
    kobalt_layout layout;
    kobalt_int rows, cols;
    REAL *A;
    kobalt_int lda, strideA;
    REAL *P;
    kobalt_int ldp;
    kobalt_int batch;
} PREC(pack_args);

static void PREC(setup_pack)(void *p, arena *a)
{
    PREC(pack_args) *s = (PREC(pack_args) *)p;
    s->layout = KOBALT_COL_MAJOR;
    s->rows = M, s->cols = N;
    s->A = PREC(take_real)(a, BATCH * ITEM);
    s->lda = LD, s->strideA = ITEM;
    s->P = PREC(take_real)(a, BATCH * ITEM);
    s->ldp = BATCH;
    s->batch = BATCH;
}
static kobalt_status PREC(call_pack_interleaved)(const void *p)
{
    const PREC(pack_args) *s = (const PREC(pack_args) *)p;
    return KOBALT_NAME(pack_interleaved)(s->layout, s->rows, s->cols, s->A, s->lda, s->strideA, s->P, s->ldp,
                                         s->batch);
}
static kobalt_status PREC(call_unpack_interleaved)(const void *p)
{
    const PREC(pack_args) *s = (const PREC(pack_args) *)p;
    return KOBALT_NAME(unpack_interleaved)(s->layout, s->rows, s->cols, s->P, s->ldp, s->A, s->lda, s->strideA,
                                           s->batch);
}

#define ARGS PREC(pack_args)
#define PACK_COMMON                                                                          \
    BAD("layout", SET(layout, 7)), BAD("rows", SET(rows, -1)), BAD("cols", SET(cols, -1)),      \
        BAD("batch", SET(batch, -1)), BAD("lda", SET(lda, M - 1)), OK(SET(layout, KOBALT_ROW_MAJOR), SET(lda, N)), \
        BAD("lda", SET(layout, KOBALT_ROW_MAJOR), SET(lda, N - 1)), BAD("ldp", SET(ldp, BATCH - 1)),          \
        OK(SET(ldp, BATCH + 3)), BAD("ldp", SET(ldp, BIG_STRIDE)), BAD("A", NUL(A)), BAD("P", NUL(P)),          \
        BAD("strideA", SET(strideA, -1)), OK_UNTOUCHED(SET(rows, 0), NUL(A), NUL(P)),                         \
        OK_UNTOUCHED(SET(batch, 0), NUL(A), NUL(P), SET(ldp, 1))
static const mutation PREC(pack_table)[] = {
    PACK_COMMON,
    OK(SET(strideA, 0)), /* A is read: items may be shared */
};
static const mutation PREC(unpack_table)[] = {
    PACK_COMMON,
    BAD("strideA", SET(strideA, OVERLAP_BY_ONE(M, N))), /* A is written */
    OK(SET(strideA, OVERLAP_BY_ONE(M, N) + 1)),
};
#undef PACK_COMMON
#undef ARGS
static const routine_under_test PREC(rut_pack_interleaved) = {FN_NAME(pack_interleaved), sizeof(PREC(pack_args)),
                                                              PREC(setup_pack), PREC(call_pack_interleaved)};
static const routine_under_test PREC(rut_unpack_interleaved) = {FN_NAME(unpack_interleaved), sizeof(PREC(pack_args)),
                                                                PREC(setup_pack), PREC(call_unpack_interleaved)};
static void TEST_FN(pack_interleaved)(void **state)
{
    (void)state;
    const routine_under_test *r = &PREC(rut_pack_interleaved);
    int failures = run_mutations(r, PREC(pack_table), COUNT(PREC(pack_table)));
    print_message("%s: %zu argument cases\n", r->fn, 1 + COUNT(PREC(pack_table)));
    if (failures) fail_msg("%s: %d argument case(s) failed, see above", r->fn, failures);
}
static void TEST_FN(unpack_interleaved)(void **state)
{
    (void)state;
    const routine_under_test *r = &PREC(rut_unpack_interleaved);
    int failures = run_mutations(r, PREC(unpack_table), COUNT(PREC(unpack_table)));
    print_message("%s: %zu argument cases\n", r->fn, 1 + COUNT(PREC(unpack_table)));
    if (failures) fail_msg("%s: %d argument case(s) failed, see above", r->fn, failures);
}

/* The isolated cases: run one process each by test_arguments --isolated. */
static const isolated_table PREC(isolated)[] = {
    {&PREC(rut_gemm_desc), PREC(gemm_bytes), COUNT(PREC(gemm_bytes))},
    {&PREC(rut_gemv_desc), PREC(gemv_bytes), COUNT(PREC(gemv_bytes))},
    {&PREC(rut_trsv_desc), PREC(trsv_bytes), COUNT(PREC(trsv_bytes))},
    {&PREC(rut_trsm_desc), PREC(trsm_bytes), COUNT(PREC(trsm_bytes))},
    {&PREC(rut_getrf_desc), PREC(getrf_bytes), COUNT(PREC(getrf_bytes))},
    {&PREC(rut_getrs_desc), PREC(getrs_bytes), COUNT(PREC(getrs_bytes))},
    {&PREC(rut_gemm_lu_trsv_desc), PREC(fused_bytes), COUNT(PREC(fused_bytes))},
};

#undef REAL
#undef PREC
#undef TEST_FN
#undef FN_NAME
#undef DEFINE_DESC_TEST
#undef OVERLAP_BY_ONE
