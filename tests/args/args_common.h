/*
 * args_common.h -- the precision-independent machinery of the argument tests.
 *
 * Each routine's argument test is a table of single mutations applied to a valid
 * baseline call. A call's arguments live in a plain struct (one per routine family,
 * shared by the _strided and _batched forms); a mutation writes a few fields of
 * that struct (up to six), addressed by offset and size, so one table line reads like
 *
 *     BAD("lda", SET(layout, KOBALT_ROW_MAJOR), SET(lda, K - 1)),
 *
 * Every operand lives in one arena that is filled with known values before each
 * call; after a refused call the whole arena must be unchanged, byte for byte.
 */
#ifndef KOBALT_TEST_ARGS_COMMON_H
#define KOBALT_TEST_ARGS_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kobalt/kobalt.h>

/* ---- the baseline shape, shared by every routine ------------------------------------ */
enum {
    BATCH = 4, /* baseline batch; item 2 is the one nulled in _batched forms */
    M = 3,
    N = 4,
    K = 5,
    NRHS = 2,
    LD = 7,          /* baseline leading dimension: > every needed value in both layouts */
    ITEM = LD * LD,  /* baseline stride between items of one operand */
    IPIV_ITEM = 8,   /* baseline strideIpiv (> n, so the gap between items is checked) */
    ARENA_BYTES = 1 << 16
};
#define BIG_STRIDE (INT64_MAX / 2) /* (BATCH - 1) * BIG_STRIDE overflows int64 */

/* ---- mutations ----------------------------------------------------------------------- */
typedef struct {
    size_t off;   /* offset of the field in the routine's argument struct */
    size_t size;  /* 0 ends the list; 4 (enums) or 8 (kobalt_int, pointers) */
    int64_t value;
} arg_set;

typedef enum {
    EXPECT_REFUSED,   /* KOBALT_INVALID_ARGUMENT naming `arg`, arena untouched */
    EXPECT_SUCCESS,   /* KOBALT_SUCCESS */
    EXPECT_UNTOUCHED  /* KOBALT_SUCCESS and the arena untouched */
} expectation;

typedef struct {
    expectation expect;
    const char *arg;   /* argument the message must name (EXPECT_REFUSED) */
    const char *label; /* the mutation as written in the table */
    arg_set set[6];
    /* optional: edit the operands after the sets (e.g. one bad ipiv value) */
    void (*tweak)(void *args);
    /* optional: extra checks after the call, returns NULL or a description of the problem */
    const char *(*check)(const void *args);
} mutation;

/* ARGS must be #defined to the routine's argument struct before these are used. */
#define SET(field, v) {offsetof(ARGS, field), sizeof(((ARGS *)0)->field), (int64_t)(v)}
#define NUL(field) SET(field, 0)
#define NUL_ITEM(array, i) {offsetof(ARGS, array) + (size_t)(i) * sizeof(void *), sizeof(void *), 0}
#define BAD(argname, ...) {EXPECT_REFUSED, argname, #__VA_ARGS__, {__VA_ARGS__}, NULL, NULL}
#define OK(...) {EXPECT_SUCCESS, NULL, #__VA_ARGS__, {__VA_ARGS__}, NULL, NULL}
#define OK_UNTOUCHED(...) {EXPECT_UNTOUCHED, NULL, #__VA_ARGS__, {__VA_ARGS__}, NULL, NULL}
#define BAD_TWEAK(argname, fn, ...) {EXPECT_REFUSED, argname, #fn, {__VA_ARGS__}, fn, NULL}
#define OK_CHECK(checkfn, ...) {EXPECT_SUCCESS, NULL, #__VA_ARGS__ " + " #checkfn, {__VA_ARGS__}, NULL, checkfn}
#define COUNT(table) (sizeof(table) / sizeof((table)[0]))

/* ---- the arena ----------------------------------------------------------------------- */
typedef struct {
    unsigned char *base;
    size_t used;
    uint64_t rng;
} arena;

static inline void arena_reset(arena *a)
{
    /* Guard bytes everywhere; operands are carved out and filled by the take_* helpers. */
    memset(a->base, 0xEE, ARENA_BYTES);
    a->used = 0;
    a->rng = 0x9E3779B97F4A7C15ull;
}

static inline void *arena_take(arena *a, size_t bytes)
{
    size_t start = (a->used + 63) & ~(size_t)63;
    if (start + bytes + 64 > ARENA_BYTES) {
        fprintf(stderr, "args test: arena too small\n");
        abort();
    }
    a->used = start + bytes + 64; /* 64 guard bytes after each operand */
    return a->base + start;
}

static inline double arena_uniform(arena *a) /* in [-1, 1) */
{
    a->rng = a->rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(a->rng >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static inline int *arena_take_int(arena *a, size_t count, int value)
{
    int *p = (int *)arena_take(a, count * sizeof(int));
    for (size_t i = 0; i < count; ++i) p[i] = value;
    return p;
}

/* ---- checking the error message ------------------------------------------------------ */
static inline int is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* msg starts with "<fn>: " and names arg as a whole word, followed by ' ', '[' or the end. */
static inline int message_names(const char *msg, const char *fn, const char *arg)
{
    size_t fl = strlen(fn), al = strlen(arg);
    if (msg == NULL || strncmp(msg, fn, fl) != 0 || msg[fl] != ':' || msg[fl + 1] != ' ') return 0;
    const char *body = msg + fl + 2;
    for (const char *p = strstr(body, arg); p != NULL; p = strstr(p + 1, arg)) {
        char before = p == body ? ' ' : p[-1];
        char after = p[al];
        if (!is_ident_char(before) && (after == ' ' || after == '[' || after == '\0' ||
                                        (arg[al - 1] == ']' && !is_ident_char(after))))
            return 1;
    }
    return 0;
}

/* ---- running a table ------------------------------------------------------------------ */
typedef struct {
    const char *fn;       /* public function name, "kobalt_dgemm_strided" */
    size_t args_size;     /* sizeof the argument struct */
    void (*setup)(void *args, arena *a);   /* fill a valid baseline call */
    kobalt_status (*call)(const void *args);
} routine_under_test;

static inline void apply_sets(void *args, const arg_set *set, size_t n)
{
    for (size_t i = 0; i < n && set[i].size != 0; ++i) {
        unsigned char *p = (unsigned char *)args + set[i].off;
        if (set[i].size == 4) {
            int32_t v = (int32_t)set[i].value;
            memcpy(p, &v, 4);
        } else if (set[i].size == 8) {
            int64_t v = set[i].value;
            memcpy(p, &v, 8);
        } else {
            fprintf(stderr, "args test: unsupported field size %zu\n", set[i].size);
            abort();
        }
    }
}

/* Runs the baseline and every mutation; prints each failure, returns their number. */
static inline int run_mutations(const routine_under_test *r, const mutation *tab, size_t count)
{
    int failures = 0;
    arena a;
    a.base = (unsigned char *)malloc(ARENA_BYTES);
    unsigned char *snapshot = (unsigned char *)malloc(ARENA_BYTES);
    void *args = malloc(r->args_size);
    char why[512];

    for (size_t t = 0; t <= count; ++t) {
        const mutation *mu = t == 0 ? NULL : &tab[t - 1];
        const char *label = mu ? mu->label : "baseline";
        expectation expect = mu ? mu->expect : EXPECT_SUCCESS;

        arena_reset(&a);
        memset(args, 0, r->args_size);
        r->setup(args, &a);
        if (mu) {
            apply_sets(args, mu->set, sizeof(mu->set) / sizeof(mu->set[0]));
            if (mu->tweak) mu->tweak(args);
        }
        memcpy(snapshot, a.base, ARENA_BYTES);

        kobalt_status st = r->call(args);
        const char *msg = kobalt_last_error();
        why[0] = '\0';

        if (expect == EXPECT_REFUSED) {
            if (st != KOBALT_INVALID_ARGUMENT)
                snprintf(why, sizeof why, "expected KOBALT_INVALID_ARGUMENT naming %s, got %s",
                         mu->arg, kobalt_status_name(st));
            else if (!message_names(msg, r->fn, mu->arg))
                snprintf(why, sizeof why, "message \"%s\" does not start with \"%s: \" and name %s",
                         msg ? msg : "(null)", r->fn, mu->arg);
        } else if (st != KOBALT_SUCCESS) {
            snprintf(why, sizeof why, "expected KOBALT_SUCCESS, got %s (\"%s\")",
                     kobalt_status_name(st), msg ? msg : "(null)");
        }
        if (why[0] == '\0' && expect != EXPECT_SUCCESS && memcmp(snapshot, a.base, ARENA_BYTES) != 0) {
            size_t first = 0;
            while (snapshot[first] == a.base[first]) ++first;
            snprintf(why, sizeof why, "%s call wrote into its operands (first changed byte at arena offset %zu)",
                     expect == EXPECT_REFUSED ? "refused" : "empty", first);
        }
        if (why[0] == '\0' && mu && mu->check) {
            const char *problem = mu->check(args);
            if (problem) snprintf(why, sizeof why, "%s", problem);
        }
        if (why[0] != '\0') {
            ++failures;
            fprintf(stderr, "[  BUG?    ] %s  [%s]: %s\n", r->fn, label, why);
        }
    }
    free(args);
    free(snapshot);
    free(a.base);
    return failures;
}

/* A table of cases each run in its own process (a library that accepts them may crash). */
typedef struct {
    const routine_under_test *r;
    const mutation *tab;
    size_t count;
} isolated_table;

#endif
