/*
 * kt_check.hpp -- CMocka glue and failure reporting for the correctness tests.
 *
 * A test runs many cases. kt::set_case() names the case being checked; KT_CHECK()
 * records a failure (printing the case, file, line and a message for the first few)
 * and carries on, so one run reports every failing case. kt::finish() at the end of a
 * CMocka test fails it when any check failed.
 */
#ifndef KT_CHECK_HPP
#define KT_CHECK_HPP

/* C++ headers first: cmocka.h defines a fail() macro that breaks <ios>. */
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
extern "C" { /* cmocka 1.1 has no C++ linkage guard */
#include <cmocka.h>
}

#include "kobalt/kobalt.h"

namespace kt {

struct CheckState {
    long failures = 0;
    long checks = 0;
    long cases = 0;
    std::string case_name;
    std::string last_reported_case;
    double start = -1; /* seconds, at the first case of the test */
};

inline double now_seconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

inline CheckState &state()
{
    static CheckState s;
    return s;
}

inline void set_case(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    state().case_name = buf;
    state().cases++;
    if (state().start < 0) state().start = now_seconds();
}

inline void report_failure(const char *file, int line, const char *fmt, ...)
{
    CheckState &s = state();
    s.failures++;
    if (s.failures > 40) return; /* keep logs readable */
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (s.case_name != s.last_reported_case) {
        print_error("FAILED CASE: %s\n", s.case_name.c_str());
        s.last_reported_case = s.case_name;
    }
    print_error("  %s:%d: %s\n", file, line, buf);
    if (s.failures == 40) print_error("  (further failures not printed)\n");
}

/* Fails the current CMocka test if any KT_CHECK failed since the last finish(). */
inline void finish()
{
    CheckState &s = state();
    long f = s.failures;
    print_message("  %ld cases, %ld checks, %ld failures, %.2f s\n", s.cases, s.checks, f,
                  s.start < 0 ? 0.0 : now_seconds() - s.start);
    s = CheckState();
    assert_int_equal(f, 0);
}

} // namespace kt

#define KT_CHECK(cond, ...)                                                                  \
    do {                                                                                     \
        kt::state().checks++;                                                                \
        if (!(cond)) kt::report_failure(__FILE__, __LINE__, __VA_ARGS__);                    \
    } while (0)

/* A kobalt call must return KOBALT_SUCCESS. */
#define KT_CHECK_STATUS(call)                                                                \
    do {                                                                                     \
        kobalt_status kt_st_ = (call);                                                       \
        KT_CHECK(kt_st_ == KOBALT_SUCCESS, "%s returned %s (%s)", #call,                     \
                 kobalt_status_name(kt_st_), kobalt_last_error());                           \
    } while (0)

#endif
