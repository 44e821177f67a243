/*
 * test_arguments.c -- argument validation of every public routine, in both precisions.
 *
 * The list of tests is expanded from kobalt_routines.def: every routine of the list
 * gets a test function test_args_kobalt_<p><name>, declared and registered here by the
 * X-macro. The definitions are in args/args_routines.h (written once for a generic real
 * type and included per precision), so adding a routine to the .def without writing its
 * argument test fails to build ("used but never defined" / undefined reference).
 *
 * Each test runs a valid baseline call, then a table of single mutations: every refused
 * call must return KOBALT_INVALID_ARGUMENT, leave every operand untouched byte for byte,
 * and leave a kobalt_last_error() that starts with "<function>: " and names the argument.
 *
 * `test_arguments --isolated` runs the cases that a library without the check would answer
 * by addressing wild memory (strides whose byte offsets overflow), one child process each,
 * so that a crash is reported as a failure of that case.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <kobalt/kobalt.h>

#include "args/args_common.h"

/* One test per routine and precision, from the list. */
#define KOBALT_ROUTINE(name, params, args, route) \
    static void KOBALT_PASTE2(test_args_, KOBALT_NAME(name))(void **state);
#include <kobalt/kobalt_routines_all.def>
#undef KOBALT_ROUTINE

/* Their definitions, once per precision. */
#define KOBALT_T double
#define KOBALT_P d
#include "args/args_routines.h"
#include "args/args_desc.h"
#include "args/args_semiring.h"
#undef KOBALT_T
#undef KOBALT_P
#define KOBALT_T float
#define KOBALT_P s
#include "args/args_routines.h"
#include "args/args_desc.h"
#include "args/args_semiring.h"
#undef KOBALT_T
#undef KOBALT_P

/* The checker itself: whole words only, after the "<fn>: " prefix. */
static void test_message_checker(void **state)
{
    (void)state;
    const char *fn = "kobalt_dgetrf_strided";
    assert_true(message_names("kobalt_dgetrf_strided: lda (2) must be >= max(1, n) (3)", fn, "lda"));
    assert_true(message_names("kobalt_dgetrf_strided: lda (2) must be >= max(1, n) (3)", fn, "n") == 0);
    assert_false(message_names("kobalt_dgetrf_strided: strideA (2) must be >= 0", fn, "A"));
    assert_true(message_names("kobalt_dgetrf_batched: A[2] is NULL", "kobalt_dgetrf_batched", "A[2]"));
    assert_true(message_names("kobalt_dgetrf_batched: A[2] is NULL", "kobalt_dgetrf_batched", "A"));
    assert_false(message_names("kobalt_dgetrf_batched: A[2] is NULL", "kobalt_dgetrf_batched", "A[1]"));
    assert_false(message_names("kobalt_dgetrf_strided lda (2)", fn, "lda"));
    assert_false(message_names("kobalt_sgetrf_strided: lda (2)", fn, "lda"));
    assert_false(message_names("kobalt_dgetrf_strided: ldab (2)", fn, "lda"));
}

static int run_isolated(const isolated_table *tables, size_t count)
{
    int failures = 0;
    for (size_t t = 0; t < count; ++t)
        for (size_t i = 0; i < tables[t].count; ++i) {
            fflush(stdout);
            fflush(stderr);
            pid_t pid = fork();
            if (pid == 0) {
                int f = run_mutations(tables[t].r, &tables[t].tab[i], 1);
                fflush(stderr);
                _exit(f ? 1 : 0);
            }
            int status = 0;
            waitpid(pid, &status, 0);
            if (WIFSIGNALED(status)) {
                fprintf(stderr, "[  BUG?    ] %s  [%s]: not refused, the call crashed (%s)\n",
                        tables[t].r->fn, tables[t].tab[i].label, strsignal(WTERMSIG(status)));
                ++failures;
            } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                ++failures;
            } else {
                printf("[       OK ] %s  [%s]\n", tables[t].r->fn, tables[t].tab[i].label);
            }
        }
    return failures;
}

/* One more expansion step, so that cmocka's #f names the expanded function. */
#define UNIT_TEST(f) cmocka_unit_test(f)

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--isolated") == 0) {
        /* No library call in this process: every case runs in a fresh child. */
        int failures = run_isolated(isolated_d, COUNT(isolated_d)) + run_isolated(isolated_s, COUNT(isolated_s)) +
                       run_isolated(isolated_desc_d, COUNT(isolated_desc_d)) +
                       run_isolated(isolated_desc_s, COUNT(isolated_desc_s)) +
                       run_isolated(isolated_semiring_d, COUNT(isolated_semiring_d)) +
                       run_isolated(isolated_semiring_s, COUNT(isolated_semiring_s));
        printf("%s: %d isolated case(s) failed\n", failures ? "FAILED" : "passed", failures);
        return failures ? 1 : 0;
    }
#define KOBALT_ROUTINE(name, params, args, route) \
    UNIT_TEST(KOBALT_PASTE2(test_args_, KOBALT_NAME(name))),
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_message_checker),
#include <kobalt/kobalt_routines_all.def>
    };
#undef KOBALT_ROUTINE
    return cmocka_run_group_tests_name("kobalt argument validation", tests, NULL, NULL);
}
