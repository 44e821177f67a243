/*
 * kobalt.h -- the public C API of libkobalt, a batched BLAS/LAPACK library.
 *
 * Every routine comes in two precisions (s: float, d: double) and three batch forms:
 *   _strided  item i of A starts at A + i*strideA
 *   _batched  item i of A is A[i] (an array of pointers)
 *   _desc     any strided layout: a kobalt_matrix_desc per operand (below)
 * The prototypes are expanded from kobalt_routines.def, which lists every routine
 * once with its parameters; docs/api.md documents each of them in prose.
 *
 * Conventions (all routines):
 *   - Layout, transpose, uplo, diag and side take the CBLAS values.
 *   - Sizes, leading dimensions, increments, strides and batch counts are 64-bit.
 *   - Arguments are validated before anything is written; on error the call returns
 *     KOBALT_INVALID_ARGUMENT and kobalt_last_error() names the function and argument.
 *   - All pointers of one call live in one memory space; the call runs on the backend
 *     that owns that space.
 */
#ifndef KOBALT_H
#define KOBALT_H

#include <stdint.h>

#include "kobalt_expand.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define KOBALT_API
#else
#define KOBALT_API __attribute__((visibility("default")))
#endif

#define KOBALT_VERSION_MAJOR 0
#define KOBALT_VERSION_MINOR 1
#define KOBALT_VERSION_PATCH 0

typedef int64_t kobalt_int; /* sizes, leading dimensions, strides, batch counts */

/* The enumerations below are int in C++ as well (a fixed underlying type), so that any int a
 * C or Fortran caller passes is a value of the type: out-of-range values reach the argument
 * checks, which reject them, instead of being undefined behaviour in the C++ code that reads
 * them. In C an enum is passed as an int either way. */
#ifdef __cplusplus
#define KOBALT_ENUM_BASE : int
#else
#define KOBALT_ENUM_BASE
#endif

typedef enum KOBALT_ENUM_BASE {
    KOBALT_SUCCESS = 0,
    KOBALT_INVALID_ARGUMENT,
    KOBALT_NOT_SUPPORTED,
    KOBALT_NO_BACKEND,
    KOBALT_OUT_OF_MEMORY,
    KOBALT_BACKEND_ERROR
} kobalt_status;

typedef enum KOBALT_ENUM_BASE { KOBALT_ROW_MAJOR = 101, KOBALT_COL_MAJOR = 102 } kobalt_layout; /* CBLAS values */
typedef enum KOBALT_ENUM_BASE { KOBALT_NO_TRANS = 111, KOBALT_TRANS = 112, KOBALT_CONJ_TRANS = 113 } kobalt_op;
typedef enum KOBALT_ENUM_BASE { KOBALT_UPPER = 121, KOBALT_LOWER = 122 } kobalt_uplo;
typedef enum KOBALT_ENUM_BASE { KOBALT_NON_UNIT = 131, KOBALT_UNIT = 132 } kobalt_diag;
typedef enum KOBALT_ENUM_BASE { KOBALT_LEFT = 141, KOBALT_RIGHT = 142 } kobalt_side;
/* The (add, multiply) pair of kobalt_?gemm_semiring_*: docs/api.md gives each one's
 * identity, annihilator, NaN rules and the alpha/beta of "plain product" and
 * "accumulate into C". OR_AND treats nonzero as true and writes exactly 0 or 1. */
typedef enum KOBALT_ENUM_BASE {
    KOBALT_PLUS_TIMES = 201, /* (+, *): ordinary gemm */
    KOBALT_MIN_PLUS = 202,   /* (min, +): shortest paths (tropical) */
    KOBALT_MAX_PLUS = 203,   /* (max, +): longest / critical paths */
    KOBALT_MIN_TIMES = 204,  /* (min, *) */
    KOBALT_MAX_TIMES = 205,  /* (max, *): most reliable paths */
    KOBALT_MIN_MAX = 206,    /* (min, max): minimax paths */
    KOBALT_MAX_MIN = 207,    /* (max, min): bottleneck (widest) paths */
    KOBALT_OR_AND = 208      /* (or, and): reachability */
} kobalt_semiring;
#undef KOBALT_ENUM_BASE

/* A batch of matrices in any strided layout: one descriptor per operand of the _desc
 * routines (docs/api.md, "Matrix descriptors"). Element (i, j) of item b lies at
 *
 *     X[b*batch_stride + i*row_stride + j*col_stride]     (in elements, 0-based)
 *
 * for 0 <= i < rows, 0 <= j < cols, 0 <= b < batch, every stride >= 0. Column-major items
 * with leading dimension ld are {rows, cols, 1, ld, stride}, row-major ones
 * {rows, cols, ld, 1, stride}; the interleaved layout (batch index fastest, the tiny-
 * matrix fast path) has batch_stride 1; a vector is a len x 1 descriptor whose
 * row_stride is its increment. A transpose or a slice of a larger tensor is only a
 * change of the numbers. */
typedef struct kobalt_matrix_desc {
    kobalt_int rows, cols;
    kobalt_int row_stride, col_stride, batch_stride;
} kobalt_matrix_desc;

/* Descriptors of the common layouts (C and C++ callers; Fortran and Python fill the
 * five fields themselves). ld: leading dimension, stride: elements between items,
 * ldp: elements between two element planes of the interleaved layout (>= batch). */
static inline kobalt_matrix_desc kobalt_desc_col_major(kobalt_int rows, kobalt_int cols, kobalt_int ld,
                                                       kobalt_int stride)
{
    kobalt_matrix_desc d = {rows, cols, 1, ld, stride};
    return d;
}
static inline kobalt_matrix_desc kobalt_desc_row_major(kobalt_int rows, kobalt_int cols, kobalt_int ld,
                                                       kobalt_int stride)
{
    kobalt_matrix_desc d = {rows, cols, ld, 1, stride};
    return d;
}
/* Interleaved: element (i, j) of item b at X[(i + j*rows)*ldp + b], the layout that
 * kobalt_?pack_interleaved writes. */
static inline kobalt_matrix_desc kobalt_desc_interleaved(kobalt_int rows, kobalt_int cols, kobalt_int ldp)
{
    kobalt_matrix_desc d = {rows, cols, ldp, rows * ldp, 1};
    return d;
}

/* "MAJOR.MINOR.PATCH" */
KOBALT_API const char *kobalt_version(void);
/* This thread's message for its last failed call, "" if no call has failed on this thread. */
KOBALT_API const char *kobalt_last_error(void);
/* The short name of a status ("KOBALT_INVALID_ARGUMENT"), or "unknown status". */
KOBALT_API const char *kobalt_status_name(kobalt_status status);
/* Number of backends that loaded and probed successfully (loads them on first use). */
KOBALT_API int kobalt_backend_count(void);
/* Name of backend i ("openmp", ...), or NULL when i is out of range. */
KOBALT_API const char *kobalt_backend_name(int i);

/* Asynchronous backends (CUDA). Calls on device memory are queued on the calling
 * thread's stream and return without waiting, as in cuBLAS. The stream is a
 * cudaStream_t passed as void* so that this header needs no CUDA header; NULL (the
 * default) is the legacy default stream. Per thread; never fails. */
KOBALT_API kobalt_status kobalt_set_cuda_stream(void *stream);
KOBALT_API void *kobalt_get_cuda_stream(void);
/* Wait until every call this thread queued on any backend has finished. A backend
 * error raised while the work ran (a CUDA fault) is returned here. */
KOBALT_API kobalt_status kobalt_synchronize(void);

#define KOBALT_ROUTINE(name, params, args, route) KOBALT_API kobalt_status KOBALT_NAME(name) params;
#include "kobalt_routines_all.def"
#undef KOBALT_ROUTINE

#ifdef __cplusplus
}
#endif

#endif /* KOBALT_H */
