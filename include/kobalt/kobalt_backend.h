/*
 * kobalt_backend.h -- the plugin ABI between libkobalt (the core) and a backend.
 *
 * A backend is a shared object libkobalt-<name>.so that exports one C function,
 *
 *     const kobalt_backend_table *kobalt_backend_get_table(uint32_t core_abi_version);
 *
 * returning a table filled with designated initialisers. The table opens with its
 * ABI version and its size, so a core can load a plugin built against an older or
 * newer table: slots past struct_size, and NULL slots, mean "not provided" and the
 * core answers KOBALT_NOT_SUPPORTED for them.
 *
 * The core validates every argument before it calls a slot: a backend receives
 * non-negative sizes, leading dimensions that fit the layout, non-NULL data pointers
 * for every non-empty operand, output strides that keep items apart, and batch > 0.
 */
#ifndef KOBALT_BACKEND_H
#define KOBALT_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "kobalt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KOBALT_BACKEND_ABI_VERSION 1u
#define KOBALT_BACKEND_GETTER "kobalt_backend_get_table"

/* How strongly a backend claims a pointer's memory space (see claim below). */
enum {
    KOBALT_CLAIM_NONE = 0,     /* not this backend's memory */
    KOBALT_CLAIM_FALLBACK = 1, /* reachable, but another backend may own it (host memory) */
    KOBALT_CLAIM_OWNER = 2     /* this backend's own memory space (device memory) */
};

/* A size threshold, exported as data. The core overrides value from the environment
 * (KOBALT_<BACKEND>_<NAME>, then KOBALT_<NAME>) after init and before the first call. */
typedef struct kobalt_threshold {
    const char *name;        /* "GETRF_SMALL_MAX" */
    const char *description; /* one line, shown under KOBALT_VERBOSE=1 */
    kobalt_int value;
} kobalt_threshold;

/* Services the core lends a backend at init. */
typedef struct kobalt_core_services {
    uint32_t abi_version;
    uint32_t struct_size;
    /* Record this thread's error message (printf-style) for kobalt_last_error(). */
    void (*set_error)(const char *fmt, ...);
    /* Nonzero when KOBALT_VERBOSE=1. */
    int verbose;
    /* The calling thread's stream from kobalt_set_cuda_stream (NULL: default stream). */
    void *(*cuda_stream)(void);
} kobalt_core_services;

typedef struct kobalt_backend_table {
    uint32_t abi_version; /* KOBALT_BACKEND_ABI_VERSION the plugin was built for */
    uint32_t struct_size; /* sizeof(kobalt_backend_table) in the plugin's build */
    const char *name;     /* short name, matched against KOBALT_BACKENDS */
    const char *memory_space;
    int host_accessible;  /* the core may read this space's pointer arrays */

    /* Check the machine (drivers, devices) and keep the services. Return 0 when usable,
     * otherwise write a reason into why[why_size] and return nonzero. */
    int (*init)(const kobalt_core_services *core, char *why, size_t why_size);
    /* KOBALT_CLAIM_* for the memory behind ptr (ptr may be NULL). */
    int (*claim)(const void *ptr);

    kobalt_threshold *thresholds;
    size_t threshold_count;

    /* Wait for the calling thread's queued work (kobalt_synchronize); NULL when every
     * call of this backend is synchronous. */
    kobalt_status (*synchronize)(void);

    /* One slot per routine and precision, expanded from kobalt_routines.def. */
#define KOBALT_ROUTINE(name, params, args, route) kobalt_status (*KOBALT_SLOT(name)) params;
#include "kobalt_routines_all.def"
#undef KOBALT_ROUTINE

    /* ---- Appended after generation 4 (append-only, like the routine slots: a plugin
     * built before has a smaller struct_size, and the core reads the slot as NULL). A new
     * routine generation's slots go after these. ---- */

    /* Optional: nonzero when some pivot of the batch lies outside 1..n, the pivots at
     * ipiv + item*stride + j for item < batch, j < n (n >= 1, batch >= 1; the core has
     * checked every address). The core's validation calls it, for a host-accessible
     * backend only, so that a large ipiv is read on the backend's own threads; it must
     * only read. NULL: the core scans on the calling thread. */
    int (*pivots_out_of_range)(const int *ipiv, kobalt_int n, kobalt_int stride, kobalt_int batch);
} kobalt_backend_table;

typedef const kobalt_backend_table *(*kobalt_backend_getter)(uint32_t core_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* KOBALT_BACKEND_H */
