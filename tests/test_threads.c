/*
 * test_threads.c -- libkobalt under concurrent callers.
 *
 *   1. Eight threads make their first library call at the same moment (a barrier), so
 *      plugin discovery and loading run concurrently. Nothing in main() touches the
 *      library before.
 *   2. Each thread then repeats gemm, getrf, getrs, the fused routine and a float
 *      batched gemm on its own data; every round must reproduce round 0 bit for bit.
 *   3. Each thread provokes its own invalid-argument error (a different function and
 *      argument per thread), waits until all threads have failed, and checks that
 *      kobalt_last_error() still holds its own message; successful calls afterwards do
 *      not clear it.
 *   4. After the join, the main thread recomputes every thread's work alone: the
 *      results must equal the concurrent ones bit for bit (each item is computed by one
 *      kernel whatever the threading).
 *   5. A fresh thread sees "" although the main thread has failed before.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kobalt/kobalt.h>

enum { THREADS = 8, ROUNDS = 12, NB = 8, NK = 6, NRHS = 3, BATCH = 16 };
enum { SQ = NB * NB, XS = NB * NK, RS = NB * NRHS };

typedef struct {
    double C[BATCH * SQ];             /* dgemm */
    double LU[BATCH * SQ];            /* dgetrf */
    int ipiv[BATCH * NB], info[BATCH];
    double X[BATCH * RS];             /* dgetrs */
    double F[BATCH * SQ];             /* fused: A */
    double FB[BATCH * RS];            /* fused: B */
    int fpiv[BATCH * NB], finfo[BATCH];
    float S[BATCH * SQ];              /* sgemm_batched */
    kobalt_status status[5];
} results;

typedef struct {
    int id;
    double A[BATCH * SQ], B[BATCH * SQ], C0[BATCH * SQ], M[BATCH * SQ], R[BATCH * RS];
    double FX[BATCH * XS], FY[BATCH * XS];
    float SA[BATCH * SQ], SB[BATCH * SQ];
    results first, again, alone;
    int failures;
} thread_ctx;

static pthread_barrier_t start_line, all_failed;
static thread_ctx *ctx_of[THREADS];

#define CHECK(t, cond, ...)                                               \
    do {                                                                  \
        if (!(cond)) {                                                    \
            ++(t)->failures;                                              \
            char line_[512];                                              \
            snprintf(line_, sizeof line_, __VA_ARGS__);                   \
            printf("FAIL thread %d, %s:%d: %s: %s\n", (t)->id, __FILE__, __LINE__, #cond, line_); \
        }                                                                 \
    } while (0)

static void fill(thread_ctx *t)
{
    unsigned long long s = 0x1234567ull + 7919ull * (unsigned long long)t->id;
#define NEXT() (s = s * 6364136223846793005ull + 1442695040888963407ull, (double)(s >> 11) / 9007199254740992.0 - 0.5)
    for (int i = 0; i < BATCH * SQ; ++i) {
        t->A[i] = NEXT(), t->B[i] = NEXT(), t->C0[i] = NEXT(), t->M[i] = NEXT();
        t->SA[i] = (float)NEXT(), t->SB[i] = (float)NEXT();
    }
    for (int i = 0; i < BATCH * RS; ++i) t->R[i] = NEXT();
    for (int i = 0; i < BATCH * XS; ++i) t->FX[i] = NEXT(), t->FY[i] = NEXT();
    for (int b = 0; b < BATCH; ++b)
        for (int j = 0; j < NB; ++j) t->M[b * SQ + j * NB + j] += (j % 3 == 1) ? 0.1 : 2.0;
#undef NEXT
}

/* The work of one round; status[] records the five calls. */
static void compute(const thread_ctx *t, results *r)
{
    memcpy(r->C, t->C0, sizeof r->C);
    r->status[0] = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_TRANS, NB, NB, NB, 1.5,
                                        t->A, NB, SQ, t->B, NB, SQ, 0.5, r->C, NB, SQ, BATCH);

    memcpy(r->LU, t->M, sizeof r->LU);
    r->status[1] = kobalt_dgetrf_strided(KOBALT_ROW_MAJOR, NB, NB, r->LU, NB, SQ, r->ipiv, NB, r->info, BATCH);

    memcpy(r->X, t->R, sizeof r->X);
    r->status[2] = kobalt_dgetrs_strided(KOBALT_ROW_MAJOR, KOBALT_NO_TRANS, NB, NRHS, r->LU, NB, SQ, r->ipiv,
                                         NB, r->X, NRHS, RS, BATCH);

    memcpy(r->F, t->M, sizeof r->F);
    memcpy(r->FB, t->R, sizeof r->FB);
    r->status[3] = kobalt_dgemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, NB, NK,
                                                NRHS, 0.25, t->FX, NB, XS, t->FY, NK, XS, 1.0, r->F, NB, SQ,
                                                r->fpiv, NB, r->FB, NB, RS, r->finfo, BATCH);

    const float *ap[BATCH], *bp[BATCH];
    float *cp[BATCH];
    for (int b = 0; b < BATCH; ++b) {
        ap[b] = t->SA + b * SQ, bp[b] = t->SB + b * SQ, cp[b] = r->S + b * SQ;
        for (int i = 0; i < SQ; ++i) r->S[b * SQ + i] = 1.0f;
    }
    r->status[4] = kobalt_sgemm_batched(KOBALT_ROW_MAJOR, KOBALT_TRANS, KOBALT_NO_TRANS, NB, NB, NB, 1.0f, ap,
                                        NB, bp, NB, -1.0f, cp, NB, BATCH);
}

static void check_statuses(thread_ctx *t, const results *r, const char *when)
{
    static const char *names[5] = {"dgemm_strided", "dgetrf_strided", "dgetrs_strided",
                                   "dgemm_lu_trsv_strided", "sgemm_batched"};
    for (int i = 0; i < 5; ++i)
        CHECK(t, r->status[i] == KOBALT_SUCCESS, "%s: %s returned %s (%s)", when, names[i],
              kobalt_status_name(r->status[i]), kobalt_last_error());
}

/* Which result differs, or NULL. */
static const char *differs(const results *a, const results *b)
{
#define CMP(field) if (memcmp(a->field, b->field, sizeof a->field) != 0) return #field
    CMP(C); CMP(LU); CMP(ipiv); CMP(info); CMP(X); CMP(F); CMP(FB); CMP(fpiv); CMP(finfo); CMP(S);
#undef CMP
    return NULL;
}

/* Thread t's own invalid call: a different function or argument per thread. */
typedef struct { const char *fn, *arg; } own_error;
static const own_error errors[THREADS] = {
    {"kobalt_dgemm_strided", "lda"},   {"kobalt_sgemm_batched", "ldc"},
    {"kobalt_dgetrf_strided", "m"},    {"kobalt_dgetrs_strided", "nrhs"},
    {"kobalt_dgemm_lu_trsv_strided", "ldx"}, {"kobalt_dgemm_strided", "transb"},
    {"kobalt_dgetrf_strided", "info"}, {"kobalt_dgetrs_strided", "ldb"},
};

static kobalt_status provoke(thread_ctx *t, results *r)
{
    const float *ap[BATCH], *bp[BATCH];
    float *cp[BATCH];
    for (int b = 0; b < BATCH; ++b) ap[b] = t->SA, bp[b] = t->SB, cp[b] = r->S;
    switch (t->id) {
    case 0: return kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, NB, NB, NB, 1.0, t->A,
                                        NB - 1, SQ, t->B, NB, SQ, 0.0, r->C, NB, SQ, BATCH);
    case 1: return kobalt_sgemm_batched(KOBALT_ROW_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, NB, NB, NB, 1.0f, ap,
                                        NB, bp, NB, 0.0f, cp, NB - 2, BATCH);
    case 2: return kobalt_dgetrf_strided(KOBALT_COL_MAJOR, -3, NB, r->LU, NB, SQ, r->ipiv, NB, r->info, BATCH);
    case 3: return kobalt_dgetrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, NB, -1, r->LU, NB, SQ, r->ipiv, NB,
                                         r->X, NB, RS, BATCH);
    case 4: return kobalt_dgemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, NB, NK, NRHS,
                                                1.0, t->FX, NB - 1, XS, t->FY, NK, XS, 1.0, r->F, NB, SQ, r->fpiv,
                                                NB, r->FB, NB, RS, r->finfo, BATCH);
    case 5: return kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, (kobalt_op)0, NB, NB, NB, 1.0, t->A,
                                        NB, SQ, t->B, NB, SQ, 0.0, r->C, NB, SQ, BATCH);
    case 6: return kobalt_dgetrf_strided(KOBALT_COL_MAJOR, NB, NB, r->LU, NB, SQ, r->ipiv, NB, NULL, BATCH);
    default: return kobalt_dgetrs_strided(KOBALT_ROW_MAJOR, KOBALT_NO_TRANS, NB, NRHS, r->LU, NB, SQ, r->ipiv,
                                          NB, r->X, NRHS - 1, RS, BATCH);
    }
}

static int names_own_error(const char *msg, const own_error *e)
{
    size_t fl = strlen(e->fn), al = strlen(e->arg);
    if (strncmp(msg, e->fn, fl) != 0 || strncmp(msg + fl, ": ", 2) != 0) return 0;
    for (const char *p = strstr(msg + fl + 2, e->arg); p; p = strstr(p + 1, e->arg)) {
        char before = p[-1], after = p[al];
        int word_start = !(before == '_' || (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') ||
                           (before >= '0' && before <= '9'));
        if (word_start && (after == ' ' || after == '[' || after == '\0')) return 1;
    }
    return 0;
}

static void *worker(void *arg)
{
    thread_ctx *t = (thread_ctx *)arg;
    pthread_barrier_wait(&start_line);

    /* 1: the first call of the process, from eight threads at once */
    if (t->id == THREADS - 1)
        CHECK(t, kobalt_backend_count() >= 1, "backend_count %d", kobalt_backend_count());
    compute(t, &t->first);
    check_statuses(t, &t->first, "round 0");
    CHECK(t, kobalt_last_error()[0] == '\0', "fresh thread after successes: \"%s\"", kobalt_last_error());

    /* 2: repeat, bitwise */
    for (int round = 1; round < ROUNDS; ++round) {
        compute(t, &t->again);
        check_statuses(t, &t->again, "repeat");
        const char *field = differs(&t->first, &t->again);
        CHECK(t, field == NULL, "round %d: %s differs from round 0", round, field);

        /* 3: half way, every thread fails on its own terms */
        if (round == ROUNDS / 2) {
            kobalt_status st = provoke(t, &t->again);
            CHECK(t, st == KOBALT_INVALID_ARGUMENT, "own invalid call returned %s", kobalt_status_name(st));
            pthread_barrier_wait(&all_failed);
            const char *msg = kobalt_last_error();
            CHECK(t, names_own_error(msg, &errors[t->id]), "expected own error %s/%s, got \"%s\"", errors[t->id].fn,
                  errors[t->id].arg, msg);
        }
    }
    CHECK(t, names_own_error(kobalt_last_error(), &errors[t->id]),
          "own error lost after successful calls: \"%s\"", kobalt_last_error());
    return NULL;
}

static void *fresh_thread(void *arg)
{
    const char **out = (const char **)arg;
    *out = strdup(kobalt_last_error());
    return NULL;
}

int main(void)
{
    pthread_t tid[THREADS];
    pthread_barrier_init(&start_line, NULL, THREADS);
    pthread_barrier_init(&all_failed, NULL, THREADS);
    for (int i = 0; i < THREADS; ++i) {
        ctx_of[i] = (thread_ctx *)calloc(1, sizeof(thread_ctx));
        ctx_of[i]->id = i;
        fill(ctx_of[i]);
    }
    for (int i = 0; i < THREADS; ++i) pthread_create(&tid[i], NULL, worker, ctx_of[i]);
    for (int i = 0; i < THREADS; ++i) pthread_join(tid[i], NULL);

    /* 4: alone, in the main thread */
    int failures = 0;
    for (int i = 0; i < THREADS; ++i) {
        thread_ctx *t = ctx_of[i];
        compute(t, &t->alone);
        check_statuses(t, &t->alone, "single-threaded");
        const char *field = differs(&t->first, &t->alone);
        CHECK(t, field == NULL, "%s computed concurrently differs from the single-threaded run", field);
        for (int b = 0; b < BATCH; ++b)
            CHECK(t, t->first.info[b] == 0 && t->first.finfo[b] == 0, "item %d: info %d, fused info %d", b,
                  t->first.info[b], t->first.finfo[b]);
        failures += t->failures;
    }

    /* 5: thread-local means a fresh thread does not see the main thread's failure */
    thread_ctx main_ctx = {.id = -1};
    CHECK(&main_ctx, kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, -1, 1, 1, 1.0, NULL,
                                          1, 1, NULL, 1, 1, 0.0, NULL, 1, 1, 1) == KOBALT_INVALID_ARGUMENT,
          "m = -1 accepted");
    char *seen = NULL;
    pthread_t fresh;
    pthread_create(&fresh, NULL, fresh_thread, &seen);
    pthread_join(fresh, NULL);
    CHECK(&main_ctx, seen && seen[0] == '\0', "fresh thread sees \"%s\"", seen ? seen : "(null)");
    CHECK(&main_ctx, strncmp(kobalt_last_error(), "kobalt_dgemm_strided: ", 22) == 0, "main thread's message \"%s\"",
          kobalt_last_error());
    free(seen);
    failures += main_ctx.failures;

    for (int i = 0; i < THREADS; ++i) free(ctx_of[i]);
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
