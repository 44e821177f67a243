/*
 * args_semiring.h -- the argument tests of gemm_semiring_{strided,batched}, written once
 * for a generic real type like args_routines.h (included after it, once per precision,
 * by test_arguments.c; no include guard on purpose). The routine takes a semiring and
 * then exactly gemm's parameters: its tables are the semiring's own cases plus gemm's
 * cases replayed on the semiring's argument struct.
 */

#define REAL KOBALT_T
#define PREC(x) KOBALT_PASTE3(x, _, KOBALT_P)
#define TEST_FN(name) KOBALT_PASTE2(test_args_, KOBALT_NAME(name))
#define ROW SET(layout, KOBALT_ROW_MAJOR)
#define FN_NAME(name) KOBALT_STRINGIFY(KOBALT_NAME(name))

/* gemm's argument struct with the semiring in front. */
typedef struct {
    kobalt_semiring semiring;
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
} PREC(semiring_args);

static void PREC(setup_semiring)(void *p, arena *a)
{
    PREC(semiring_args) *s = (PREC(semiring_args) *)p;
    s->semiring = KOBALT_MIN_PLUS;
    s->layout = KOBALT_COL_MAJOR;
    s->transa = s->transb = KOBALT_NO_TRANS;
    s->m = M, s->n = N, s->k = K;
    s->alpha = (REAL)0, s->beta = (REAL)0; /* min-plus: plain product accumulated into C */
    REAL *A = PREC(take_real)(a, BATCH * ITEM), *B = PREC(take_real)(a, BATCH * ITEM);
    s->A = A, s->B = B, s->C = PREC(take_real)(a, BATCH * ITEM);
    s->lda = s->ldb = s->ldc = LD;
    s->strideA = s->strideB = s->strideC = ITEM;
    s->batch = BATCH;
    for (int i = 0; i < BATCH; ++i)
        s->Aitem[i] = A + i * ITEM, s->Bitem[i] = B + i * ITEM, s->Citem[i] = s->C + i * ITEM;
    s->Aarr = s->Aitem, s->Barr = s->Bitem, s->Carr = s->Citem;
}

static kobalt_status PREC(call_gemm_semiring_strided)(const void *p)
{
    const PREC(semiring_args) *s = (const PREC(semiring_args) *)p;
    return KOBALT_NAME(gemm_semiring_strided)(s->semiring, s->layout, s->transa, s->transb, s->m, s->n, s->k,
                                              s->alpha, s->A, s->lda, s->strideA, s->B, s->ldb, s->strideB,
                                              s->beta, s->C, s->ldc, s->strideC, s->batch);
}

static kobalt_status PREC(call_gemm_semiring_batched)(const void *p)
{
    const PREC(semiring_args) *s = (const PREC(semiring_args) *)p;
    return KOBALT_NAME(gemm_semiring_batched)(s->semiring, s->layout, s->transa, s->transb, s->m, s->n, s->k,
                                              s->alpha, s->Aarr, s->lda, s->Barr, s->ldb, s->beta, s->Carr,
                                              s->ldc, s->batch);
}

#define ARGS PREC(semiring_args)
/* The semiring's own cases: refused values, every valid value, its place in the order. */
static const mutation PREC(semiring_own)[] = {
    BAD("semiring", SET(semiring, 0)),
    BAD("semiring", SET(semiring, 200)),
    BAD("semiring", SET(semiring, 209)),
    BAD("semiring", SET(semiring, KOBALT_ROW_MAJOR)),
    BAD("semiring", SET(semiring, -1)),
    OK(SET(semiring, KOBALT_PLUS_TIMES)),
    OK(SET(semiring, KOBALT_MAX_PLUS)),
    OK(SET(semiring, KOBALT_MIN_TIMES)),
    OK(SET(semiring, KOBALT_MAX_TIMES)),
    OK(SET(semiring, KOBALT_MIN_MAX)),
    OK(SET(semiring, KOBALT_MAX_MIN)),
    OK(SET(semiring, KOBALT_OR_AND)),
    /* batch first, then the semiring before every other argument */
    BAD("batch", SET(semiring, 0), SET(batch, -1)),
    BAD("semiring", SET(semiring, 0), SET(layout, 0)),
    BAD("semiring", SET(semiring, 7), SET(m, -1), SET(lda, 0)),
    /* an invalid semiring is refused even when nothing would be computed */
    BAD("semiring", SET(semiring, 0), SET(batch, 0)),
    BAD("semiring", SET(semiring, 0), SET(m, 0)),
    OK_UNTOUCHED(SET(semiring, KOBALT_OR_AND), SET(m, 0)),
    OK_UNTOUCHED(SET(semiring, KOBALT_MAX_MIN), SET(batch, 0)),
};
/* gemm's rules, unchanged (args_routines.h, gemm_common). */
static const mutation PREC(semiring_common)[] = {
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
    BAD("lda", SET(lda, M - 1)),
    OK(SET(lda, M)),
    BAD("lda", ROW, SET(lda, K - 1)),
    OK(ROW, SET(lda, K)),
    BAD("lda", SET(transa, KOBALT_TRANS), SET(lda, K - 1)),
    OK(SET(transa, KOBALT_TRANS), SET(lda, K)),
    BAD("lda", ROW, SET(transa, KOBALT_TRANS), SET(lda, M - 1)),
    OK(ROW, SET(transa, KOBALT_TRANS), SET(lda, M)),
    BAD("lda", SET(m, 0), SET(lda, 0)),
    BAD("lda", SET(lda, BIG_STRIDE)),
    BAD("ldb", SET(ldb, K - 1)),
    OK(SET(ldb, K)),
    BAD("ldb", ROW, SET(ldb, N - 1)),
    OK(ROW, SET(ldb, N)),
    BAD("ldb", SET(transb, KOBALT_TRANS), SET(ldb, N - 1)),
    BAD("ldb", ROW, SET(transb, KOBALT_TRANS), SET(ldb, K - 1)),
    BAD("ldc", SET(ldc, M - 1)),
    OK(SET(ldc, M)),
    BAD("ldc", ROW, SET(ldc, N - 1)),
    OK(ROW, SET(ldc, N)),
    BAD("layout", SET(layout, 0), SET(m, -1)),
    BAD("lda", SET(lda, M - 1), SET(ldc, M - 1)),
    OK_UNTOUCHED(SET(m, 0)),
    OK_UNTOUCHED(SET(n, 0)),
    OK(SET(k, 0)),
    OK_UNTOUCHED(SET(batch, 0)),
};
static const mutation PREC(semiring_strided)[] = {
    BAD("strideA", SET(strideA, -1)),
    BAD("strideB", SET(strideB, -1)),
    BAD("strideC", SET(strideC, -1)),
    OK(SET(strideA, 0), SET(strideB, 0)),
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
static const mutation PREC(semiring_batched)[] = {
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
static const mutation PREC(semiring_bytes)[] = {
    BAD("strideA", SET(strideA, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideB", SET(strideB, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("strideC", SET(strideC, BYTE_OVERFLOW(REAL, BATCH - 1))),
    BAD("lda", SET(batch, 1), SET(lda, BYTE_OVERFLOW(REAL, K - 1))),
};
#undef ARGS

/* Three tables per form: the semiring's own, gemm's common rules and the form's rules. */
#define DEFINE_SEMIRING_ARGS_TEST(name, form)                                                \
    static const routine_under_test PREC(rut_##name) = {                                     \
        FN_NAME(name), sizeof(PREC(semiring_args)), PREC(setup_semiring), PREC(call_##name)}; \
    static void TEST_FN(name)(void **state)                                                  \
    {                                                                                        \
        (void)state;                                                                         \
        const routine_under_test *r = &PREC(rut_##name);                                     \
        int failures = run_mutations(r, PREC(semiring_own), COUNT(PREC(semiring_own))) +     \
                       run_mutations(r, PREC(semiring_common), COUNT(PREC(semiring_common))) + \
                       run_mutations(r, PREC(semiring_##form), COUNT(PREC(semiring_##form))); \
        print_message("%s: %zu argument cases\n", r->fn,                                    \
                      1 + COUNT(PREC(semiring_own)) + COUNT(PREC(semiring_common)) +         \
                          COUNT(PREC(semiring_##form)));                                     \
        if (failures) fail_msg("%s: %d argument case(s) failed, see above", r->fn, failures); \
    }
DEFINE_SEMIRING_ARGS_TEST(gemm_semiring_strided, strided)
DEFINE_SEMIRING_ARGS_TEST(gemm_semiring_batched, batched)
#undef DEFINE_SEMIRING_ARGS_TEST

/* Run one process each by test_arguments --isolated. */
static const isolated_table PREC(isolated_semiring)[] = {
    {&PREC(rut_gemm_semiring_strided), PREC(semiring_bytes), COUNT(PREC(semiring_bytes))},
};

#undef REAL
#undef PREC
#undef TEST_FN
#undef ROW
#undef FN_NAME
