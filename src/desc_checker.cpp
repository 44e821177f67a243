// desc_checker.cpp -- the descriptor rules of docs/api.md ("Matrix descriptors").
#include "desc_checker.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>

#include "error.hpp"
#include "../backends/common/pivot_scan.hpp"

namespace kobalt {

#define KI "%" PRId64  // kobalt_int in messages

namespace {

// Offset of the last element of the batch, or -1 when it does not fit in 64 bits.
kobalt_int last_offset(const kobalt_matrix_desc &d, kobalt_int batch) {
    kobalt_int a, b, c, s;
    if (__builtin_mul_overflow(d.rows - 1, d.row_stride, &a) || __builtin_mul_overflow(d.cols - 1, d.col_stride, &b) ||
        __builtin_mul_overflow(batch - 1, d.batch_stride, &c) || __builtin_add_overflow(a, b, &s) ||
        __builtin_add_overflow(s, c, &s))
        return -1;
    return s;
}

}  // namespace

bool desc_elements_apart(const kobalt_matrix_desc &d, kobalt_int batch) {
    struct Dim {
        kobalt_int stride, count;
    } dims[3] = {{d.row_stride, d.rows}, {d.col_stride, d.cols}, {d.batch_stride, batch}};
    std::sort(dims, dims + 3, [](const Dim &x, const Dim &y) { return x.stride < y.stride; });
    kobalt_int span = 0;  // the largest offset the smaller dimensions reach
    for (const Dim &dim : dims) {
        if (dim.count <= 1) continue;  // a dimension of one element adds no offset
        if (dim.stride <= span) return false;
        kobalt_int add;
        if (__builtin_mul_overflow(dim.stride, dim.count - 1, &add) || __builtin_add_overflow(span, add, &span))
            return false;
    }
    return true;
}

DescChecker::DescChecker(const char *fn, bool items_readable, kobalt_int batch, size_t element_size)
    : base_(fn, items_readable, batch, element_size), fn_(fn), items_readable_(items_readable), batch_(batch) {}

bool DescChecker::fail(const char *fmt, ...) {
    char detail[480];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    set_error("%s: %s", fn_, detail);
    failed_ = true;
    return false;
}

DescChecker &DescChecker::op(const char *name, kobalt_op op) {
    base_.op(name, op);
    return *this;
}
DescChecker &DescChecker::uplo(kobalt_uplo uplo) {
    base_.uplo(uplo);
    return *this;
}
DescChecker &DescChecker::diag(kobalt_diag diag) {
    base_.diag(diag);
    return *this;
}
DescChecker &DescChecker::side(kobalt_side side) {
    base_.side(side);
    return *this;
}

// The descriptor itself: present, sizes and strides non-negative.
bool DescChecker::read(const char *desc_name, const kobalt_matrix_desc *d) {
    if (!d) return fail("%s is NULL", desc_name);
    if (d->rows < 0) return fail("%s has rows = " KI "; sizes must be >= 0", desc_name, d->rows);
    if (d->cols < 0) return fail("%s has cols = " KI "; sizes must be >= 0", desc_name, d->cols);
    const struct {
        const char *name;
        kobalt_int value;
    } strides[3] = {{"row_stride", d->row_stride}, {"col_stride", d->col_stride}, {"batch_stride", d->batch_stride}};
    for (const auto &s : strides)
        if (s.value < 0)
            return fail("%s has %s = " KI "; strides must be >= 0 (negative strides are not supported)", desc_name,
                        s.name, s.value);
    return true;
}

// Every element of the batch is addressable: its offset in bytes fits a pointer difference.
bool DescChecker::extent(const char *name, const char *desc_name, const kobalt_matrix_desc &d, size_t element_size) {
    const kobalt_int last = last_offset(d, batch_);
    if (last < 0 || last > static_cast<kobalt_int>(PTRDIFF_MAX / static_cast<ptrdiff_t>(element_size)) - 1)
        return fail("%s makes the elements of %s span more than a 64-bit byte offset", desc_name, name);
    return true;
}

bool DescChecker::apart(const char *name, const char *desc_name, const kobalt_matrix_desc &d) {
    if (desc_elements_apart(d, batch_)) return true;
    return fail("%s lets elements of %s share memory, which a written operand must not: rows " KI
                " (row_stride " KI "), cols " KI " (col_stride " KI "), batch " KI " (batch_stride " KI
                "); with the strides of the dimensions longer than 1 sorted, each must be at least the extent "
                "spanned by the smaller ones",
                desc_name, name, d.rows, d.row_stride, d.cols, d.col_stride, batch_, d.batch_stride);
}

DescDims DescChecker::matrix(const char *name, const void *ptr, const char *desc_name, const kobalt_matrix_desc *desc,
                             size_t element_size, bool output, bool transposed, Want rows, Want cols) {
    if (failed() || !read(desc_name, desc)) return {};
    const kobalt_matrix_desc &d = *desc;
    const DescDims dims = transposed ? DescDims{d.cols, d.rows} : DescDims{d.rows, d.cols};
    const Want wants[2] = {rows, cols};
    const kobalt_int got[2] = {dims.rows, dims.cols};
    for (int w = 0; w < 2; ++w) {
        if (wants[w].value < 0 || got[w] == wants[w].value) continue;
        const bool stored_rows = (w == 0) != transposed;
        fail("%s has %s = " KI " (the %s of %s%s%s), but it must equal %s = " KI, desc_name,
             stored_rows ? "rows" : "cols", got[w], w == 0 ? "rows" : "columns", transposed ? "op(" : "", name,
             transposed ? ") = its transpose" : "", wants[w].what, wants[w].value);
        return {};
    }
    if (d.rows == 0 || d.cols == 0 || batch_ == 0) return dims;
    if (!ptr) {
        fail("%s is NULL but its items are not empty", name);
        return {};
    }
    if (!extent(name, desc_name, d, element_size)) return {};
    if (output && !apart(name, desc_name, d)) return {};
    return dims;
}

kobalt_int DescChecker::vector(const char *name, const void *ptr, const char *desc_name, const kobalt_matrix_desc *desc,
                               size_t element_size, bool output, Want len) {
    if (failed() || !read(desc_name, desc)) return -1;
    if (desc->cols != 1) {
        fail("%s has cols = " KI "; a vector is a len x 1 descriptor (cols = 1, row_stride = its increment)",
             desc_name, desc->cols);
        return -1;
    }
    return matrix(name, ptr, desc_name, desc, element_size, output, false, len).rows;
}

DescChecker &DescChecker::pivots(const int *ipiv, const kobalt_matrix_desc *desc, Want count, bool output) {
    if (failed() || !ipiv) return *this;
    if (!desc) {
        fail("descIpiv is NULL but ipiv is not");
        return *this;
    }
    vector("ipiv", ipiv, "descIpiv", desc, sizeof(int), output, count);
    return *this;
}

DescChecker &DescChecker::pivot_values(const int *ipiv, const kobalt_matrix_desc *desc, kobalt_int n) {
    // n == 0: no pivot to read, and vector() checked no stride (a descriptor of zero
    // rows may carry any batch_stride), so ipiv + item*batch_stride must not even be formed.
    if (failed() || !ipiv || !items_readable_ || n == 0) return *this;
    // Fast pass (pivot_scan.hpp), its inner loop along the smaller stride (the items for
    // interleaved pivots); the loop below only runs to name the first bad entry.
    const kobalt_int rs = desc->row_stride, bs = desc->batch_stride;
    const bool items_inner = (bs < 0 ? -bs : bs) < (rs < 0 ? -rs : rs);
    bool all_in_range = true;
    if (items_inner)
        for (kobalt_int j = 0; j < n && all_in_range; ++j)
            all_in_range = !pivots_out_of_range(ipiv + j * rs, batch_, bs, n);
    else
        for (kobalt_int item = 0; item < batch_ && all_in_range; ++item)
            all_in_range = !pivots_out_of_range(ipiv + item * bs, n, rs, n);
    if (all_in_range) return *this;
    for (kobalt_int item = 0; item < batch_; ++item)
        for (kobalt_int j = 0; j < n; ++j) {
            const int p = ipiv[item * desc->batch_stride + j * desc->row_stride];
            if (p < 1 || p > n) {
                fail("ipiv (item " KI ", entry " KI ": %d) must be within 1..n (" KI ")", item, j + 1, p, n);
                return *this;
            }
        }
    return *this;
}

DescChecker &DescChecker::info(const int *info) {
    if (!failed() && batch_ > 0 && !info) fail("info is NULL");
    return *this;
}

DescChecker &DescChecker::interleaved(const char *name, const void *ptr, kobalt_int rows, kobalt_int cols,
                                      kobalt_int ldp, size_t element_size) {
    if (failed()) return *this;
    const kobalt_int need = batch_ > 1 ? batch_ : 1;
    if (ldp < need) {
        fail("ldp (" KI ") must be >= max(1, batch) (" KI ")", ldp, need);
        return *this;
    }
    if (rows == 0 || cols == 0 || batch_ == 0) return *this;
    if (!ptr) {
        fail("%s is NULL but its items are not empty", name);
        return *this;
    }
    kobalt_int planes, span;
    if (__builtin_mul_overflow(rows, cols, &planes) || __builtin_mul_overflow(planes - 1, ldp, &span) ||
        __builtin_add_overflow(span, batch_, &span) ||
        span > static_cast<kobalt_int>(PTRDIFF_MAX / static_cast<ptrdiff_t>(element_size)))
        fail("ldp (" KI ") makes %s span more than a 64-bit byte offset", ldp, name);
    return *this;
}

}  // namespace kobalt
