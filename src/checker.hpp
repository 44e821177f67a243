// checker.hpp -- argument checks shared by every routine's validator.
//
// A Checker walks a call's arguments in parameter order; the first invalid one
// records a message naming the function and the argument, and every later check is
// skipped, so the message names the first bad argument as LAPACK's xerbla does.
#pragma once

#include <cstddef>

#include "kobalt/kobalt.h"

namespace kobalt {

// Stored shape of one matrix operand, with the names used in messages.
struct MatrixShape {
    const char *name;  // "A"
    kobalt_int rows, cols;
    const char *rows_name, *cols_name;  // "m", "k": what the leading dimension must cover
    kobalt_int ld;
    const char *ld_name;  // "lda"
    bool output;          // written by the call: items must not overlap
};

struct VectorShape {
    const char *name;  // "x"
    kobalt_int len;
    kobalt_int inc;
    const char *inc_name;  // "incx"
    bool output;
};

// What validation may read of the call's memory. readable: the memory is host-accessible,
// so pointer arrays and pivot values are inspected. scan: the owning backend's
// pivots_out_of_range slot (kobalt_backend.h), which reads a large ipiv on the backend's
// threads, or NULL (the calling thread scans). Converts from and to bool for the checks
// that need only readable.
using PivotScan = int (*)(const int *ipiv, kobalt_int n, kobalt_int stride, kobalt_int batch);
struct Access {
    bool readable;
    PivotScan scan;
    Access(bool readable_, PivotScan scan_ = nullptr) : readable(readable_), scan(scan_) {}
    operator bool() const { return readable; }
};

class Checker {
public:
    // Checks batch first: every extent rule below depends on it.
    // element_size: bytes of one matrix or vector element; every offset the call can
    // form must fit a pointer difference in bytes, not only in elements.
    Checker(const char *fn, Access access, kobalt_int batch, size_t element_size);

    Checker &layout(kobalt_layout layout);
    Checker &op(const char *name, kobalt_op op);
    Checker &uplo(kobalt_uplo uplo);
    Checker &diag(kobalt_diag diag);
    Checker &side(kobalt_side side);
    Checker &semiring(kobalt_semiring semiring);
    Checker &size(const char *name, kobalt_int value);

    // Strided form: item i at ptr + i*stride.
    Checker &matrix(const MatrixShape &shape, const void *ptr, kobalt_int stride, const char *stride_name);
    Checker &vector(const VectorShape &shape, const void *ptr, kobalt_int stride, const char *stride_name);
    // Pointer-array form: item i at items[i].
    Checker &matrix(const MatrixShape &shape, const void *const *items);
    Checker &vector(const VectorShape &shape, const void *const *items);

    // ipiv == NULL is valid (no pivoting). count pivots per item, count_text for messages.
    Checker &pivots(const int *ipiv, kobalt_int count, const char *count_text, kobalt_int stride,
                    bool output);
    // Every pivot of every item within 1..n (read only when the memory is host-readable).
    Checker &pivot_values(const int *ipiv, kobalt_int n, kobalt_int stride);
    Checker &info(const int *info);

    kobalt_status status() const { return failed_ ? KOBALT_INVALID_ARGUMENT : KOBALT_SUCCESS; }
    kobalt_layout current_layout() const { return layout_; }

private:
    bool fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    bool leading_dimension(const MatrixShape &shape);
    bool batch_extent(const char *what, kobalt_int extent, const void *ptr, kobalt_int stride,
                      const char *stride_name, bool output);
    bool addressable(kobalt_int elements, size_t element_size) const;
    bool items(const char *name, const void *const *items, kobalt_int extent);
    kobalt_int matrix_extent(const MatrixShape &shape);
    kobalt_int vector_extent(const VectorShape &shape);

    const char *fn_;
    bool items_readable_;
    PivotScan pivot_scan_;
    kobalt_int batch_;
    size_t element_size_;
    kobalt_layout layout_ = KOBALT_COL_MAJOR;
    bool failed_ = false;
};

}  // namespace kobalt
