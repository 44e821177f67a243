/*
 * failing_malloc.c -- an LD_PRELOAD allocator shim that makes allocations fail on demand.
 *
 * Loaded with LD_PRELOAD=libkobalt_failing_malloc.so, it forwards malloc, calloc, realloc,
 * posix_memalign, aligned_alloc and memalign to glibc (__libc_*), except while armed:
 *
 *   void failing_malloc_arm(long skip, long count);
 *       let the next `skip` allocations through, then fail the following `count`
 *       (count < 0: every one) by returning NULL (posix_memalign: ENOMEM);
 *   void failing_malloc_disarm(void);
 *   long failing_malloc_failures(void);   allocations failed since the last arm
 *
 * A test finds these with dlsym(RTLD_DEFAULT, ...); without the shim they are absent and
 * the test skips. KOBALT_FAIL_MALLOC="skip,count" in the environment arms it at load.
 * Counters are atomic: the library's OpenMP threads allocate too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_int armed;
static atomic_long skip_left, fail_left, failures;

__attribute__((visibility("default"))) void failing_malloc_arm(long skip, long count)
{
    atomic_store(&skip_left, skip);
    atomic_store(&fail_left, count < 0 ? -1 : count);
    atomic_store(&failures, 0);
    atomic_store(&armed, 1);
}

__attribute__((visibility("default"))) void failing_malloc_disarm(void) { atomic_store(&armed, 0); }

__attribute__((visibility("default"))) long failing_malloc_failures(void) { return atomic_load(&failures); }

/* Nonzero when this allocation must fail; sets errno to ENOMEM then, as glibc does. */
static int should_fail(void)
{
    if (!atomic_load_explicit(&armed, memory_order_relaxed)) return 0;
    if (atomic_fetch_sub(&skip_left, 1) > 0) return 0;
    long left = atomic_load(&fail_left);
    if (left == 0) return 0;
    if (left > 0 && atomic_fetch_sub(&fail_left, 1) <= 0) return 0;
    atomic_fetch_add(&failures, 1);
    errno = ENOMEM;
    return 1;
}

__attribute__((constructor)) static void arm_from_env(void)
{
    const char *spec = getenv("KOBALT_FAIL_MALLOC");
    if (!spec || !*spec) return;
    char *end;
    long skip = strtol(spec, &end, 10);
    long count = *end == ',' ? strtol(end + 1, NULL, 10) : -1;
    failing_malloc_arm(skip, count);
}

__attribute__((visibility("default"))) void *malloc(size_t n)
{
    return should_fail() ? NULL : __libc_malloc(n);
}
__attribute__((visibility("default"))) void *calloc(size_t a, size_t b)
{
    return should_fail() ? NULL : __libc_calloc(a, b);
}
__attribute__((visibility("default"))) void *realloc(void *p, size_t n)
{
    return should_fail() ? NULL : __libc_realloc(p, n);
}
__attribute__((visibility("default"))) void *memalign(size_t align, size_t n)
{
    return should_fail() ? NULL : __libc_memalign(align, n);
}
__attribute__((visibility("default"))) void *aligned_alloc(size_t align, size_t n)
{
    return should_fail() ? NULL : __libc_memalign(align, n);
}
__attribute__((visibility("default"))) int posix_memalign(void **out, size_t align, size_t n)
{
    if (should_fail()) return ENOMEM;
    void *p = __libc_memalign(align, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
