// desc_checker.hpp -- argument checks of the _desc routines (operands described by a
// kobalt_matrix_desc each, kobalt.h).
//
// Like Checker (whose enumeration and batch checks it reuses), a DescChecker walks the
// arguments in parameter order and records only the first failure, with a message that
// names the function and the argument. It reads the descriptors -- host structs -- but
// never the data, except getrs's pivots when the memory is host-readable.
//
// The operation sizes are taken from the descriptors: the first operand that carries a
// size defines it, and later operands must agree (gemm: op(A) defines m and k, op(B)
// defines n; B's rows must equal k, C must be m x n).
#pragma once

#include <cstddef>

#include "checker.hpp"
#include "kobalt/kobalt.h"

namespace kobalt {

// The shape of an operand as the routine uses it (op applied), or unknown after a failure.
struct DescDims {
    kobalt_int rows = -1, cols = -1;
};

// A size an operand must have, and how a message names it ("k, the columns of op(A)").
struct Want {
    kobalt_int value = -1;  // -1: any
    const char *what = nullptr;
};

class DescChecker {
public:
    // element_size: for the standard-layout checks of base() (pack/unpack's A).
    DescChecker(const char *fn, bool items_readable, kobalt_int batch, size_t element_size = 1);

    // The standard checks (layout, sizes, leading dimensions), in the same order of failure.
    Checker &base() { return base_; }

    DescChecker &op(const char *name, kobalt_op op);
    DescChecker &uplo(kobalt_uplo uplo);
    DescChecker &diag(kobalt_diag diag);
    DescChecker &side(kobalt_side side);

    // A matrix operand: data pointer `name`, descriptor `desc_name`. transposed: the
    // routine uses op(X) = X^T, so rows/cols of the result are the stored cols/rows.
    // Checks the descriptor, the wanted sizes (of op(X)), the pointer, the 64-bit byte
    // extent of the whole batch and, for a written operand, that no two of its elements
    // (over all items) share memory. Returns op(X)'s shape.
    DescDims matrix(const char *name, const void *ptr, const char *desc_name, const kobalt_matrix_desc *desc,
                    size_t element_size, bool output, bool transposed = false, Want rows = {}, Want cols = {});
    // A vector operand: a len x 1 descriptor. Returns its length (-1 after a failure).
    kobalt_int vector(const char *name, const void *ptr, const char *desc_name, const kobalt_matrix_desc *desc,
                      size_t element_size, bool output, Want len = {});
    // Pivots: ipiv == NULL is valid (no pivoting; descIpiv is then not read). Otherwise a
    // count x 1 descriptor of ints.
    DescChecker &pivots(const int *ipiv, const kobalt_matrix_desc *desc, Want count, bool output);
    // Every pivot within 1..n (read only when the memory is host-readable).
    DescChecker &pivot_values(const int *ipiv, const kobalt_matrix_desc *desc, kobalt_int n);
    DescChecker &info(const int *info);

    // The interleaved operand of pack/unpack: rows x cols items, element plane stride ldp.
    DescChecker &interleaved(const char *name, const void *ptr, kobalt_int rows, kobalt_int cols, kobalt_int ldp,
                             size_t element_size);

    bool failed() const { return failed_ || base_.status() != KOBALT_SUCCESS; }
    kobalt_status status() const { return failed() ? KOBALT_INVALID_ARGUMENT : KOBALT_SUCCESS; }

private:
    bool fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    bool read(const char *desc_name, const kobalt_matrix_desc *desc);
    bool extent(const char *name, const char *desc_name, const kobalt_matrix_desc &d, size_t element_size);
    bool apart(const char *name, const char *desc_name, const kobalt_matrix_desc &d);

    Checker base_;
    const char *fn_;
    bool items_readable_;
    kobalt_int batch_;
    bool failed_ = false;
};

// True when the elements (b, i, j) -> b*bs + i*rs + j*cs of a batch of rows x cols items
// provably never share an offset: the dimensions longer than 1, sorted by stride, each
// have a stride of at least the extent spanned by the smaller ones. Exposed for tests of
// the proof itself.
bool desc_elements_apart(const kobalt_matrix_desc &d, kobalt_int batch);

}  // namespace kobalt
