// checker.cpp -- the argument rules of docs/api.md, one function per kind of argument.
#include "checker.hpp"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>

#include "error.hpp"
#include "../backends/common/pivot_scan.hpp"

namespace kobalt {

#define KI "%" PRId64  // kobalt_int in messages

Checker::Checker(const char *fn, Access access, kobalt_int batch, size_t element_size)
    : fn_(fn), items_readable_(access.readable), pivot_scan_(access.scan), batch_(batch),
      element_size_(element_size) {
    if (batch < 0) fail("batch (" KI ") must be >= 0", batch);
}

// An offset of `elements` elements is formed by pointer arithmetic: its byte count must
// fit ptrdiff_t, or the pointer wraps before any memory is touched.
bool Checker::addressable(kobalt_int elements, size_t element_size) const {
    return elements <= static_cast<kobalt_int>(PTRDIFF_MAX / static_cast<ptrdiff_t>(element_size));
}

bool Checker::fail(const char *fmt, ...) {
    char detail[400];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    set_error("%s: %s", fn_, detail);
    failed_ = true;
    return false;
}

Checker &Checker::layout(kobalt_layout layout) {
    if (failed_) return *this;
    if (layout != KOBALT_ROW_MAJOR && layout != KOBALT_COL_MAJOR)
        fail("layout (%d) must be KOBALT_ROW_MAJOR (101) or KOBALT_COL_MAJOR (102)", static_cast<int>(layout));
    else
        layout_ = layout;
    return *this;
}

Checker &Checker::op(const char *name, kobalt_op op) {
    if (!failed_ && op != KOBALT_NO_TRANS && op != KOBALT_TRANS && op != KOBALT_CONJ_TRANS)
        fail("%s (%d) must be KOBALT_NO_TRANS (111), KOBALT_TRANS (112) or KOBALT_CONJ_TRANS (113)", name,
             static_cast<int>(op));
    return *this;
}

Checker &Checker::uplo(kobalt_uplo uplo) {
    if (!failed_ && uplo != KOBALT_UPPER && uplo != KOBALT_LOWER)
        fail("uplo (%d) must be KOBALT_UPPER (121) or KOBALT_LOWER (122)", static_cast<int>(uplo));
    return *this;
}

Checker &Checker::diag(kobalt_diag diag) {
    if (!failed_ && diag != KOBALT_NON_UNIT && diag != KOBALT_UNIT)
        fail("diag (%d) must be KOBALT_NON_UNIT (131) or KOBALT_UNIT (132)", static_cast<int>(diag));
    return *this;
}

Checker &Checker::side(kobalt_side side) {
    if (!failed_ && side != KOBALT_LEFT && side != KOBALT_RIGHT)
        fail("side (%d) must be KOBALT_LEFT (141) or KOBALT_RIGHT (142)", static_cast<int>(side));
    return *this;
}

Checker &Checker::semiring(kobalt_semiring semiring) {
    if (!failed_ && (semiring < KOBALT_PLUS_TIMES || semiring > KOBALT_OR_AND))
        fail("semiring (%d) must be one of KOBALT_PLUS_TIMES (201) .. KOBALT_OR_AND (208)",
             static_cast<int>(semiring));
    return *this;
}

Checker &Checker::size(const char *name, kobalt_int value) {
    if (!failed_ && value < 0) fail("%s (" KI ") must be >= 0", name, value);
    return *this;
}

bool Checker::leading_dimension(const MatrixShape &s) {
    const bool col = layout_ == KOBALT_COL_MAJOR;
    const kobalt_int need = col ? s.rows : s.cols;
    const kobalt_int floor = need > 1 ? need : 1;
    if (s.ld < floor)
        return fail("%s (" KI ") must be >= max(1, %s) (" KI ")", s.ld_name, s.ld, col ? s.rows_name : s.cols_name,
                    floor);
    return true;
}

// Elements one item spans, from its first element to its last; 0 for an empty item.
kobalt_int Checker::matrix_extent(const MatrixShape &s) {
    if (s.rows == 0 || s.cols == 0) return 0;
    const bool col = layout_ == KOBALT_COL_MAJOR;
    const kobalt_int lines = col ? s.cols : s.rows, line_len = col ? s.rows : s.cols;
    kobalt_int span;
    if (__builtin_mul_overflow(s.ld, lines - 1, &span) || __builtin_add_overflow(span, line_len, &span) ||
        !addressable(span, element_size_)) {
        fail("%s (" KI ") makes one item of %s span more than a 64-bit byte offset", s.ld_name, s.ld, s.name);
        return -1;
    }
    return span;
}

kobalt_int Checker::vector_extent(const VectorShape &s) {
    if (s.len == 0) return 0;
    // |INT64_MIN| does not exist: test for it before negating.
    const kobalt_int step = s.inc == INT64_MIN ? INT64_MAX : (s.inc < 0 ? -s.inc : s.inc);
    kobalt_int span;
    if (s.inc == INT64_MIN || __builtin_mul_overflow(step, s.len - 1, &span) || __builtin_add_overflow(span, 1, &span) ||
        !addressable(span, element_size_)) {
        fail("%s (" KI ") makes one item of %s span more than a 64-bit byte offset", s.inc_name, s.inc, s.name);
        return -1;
    }
    return span;
}

// Rules on one strided operand: non-NULL when not empty, stride >= 0, output items apart,
// and the whole batch addressable with 64-bit indices.
bool Checker::batch_extent(const char *what, kobalt_int extent, const void *ptr, kobalt_int stride,
                           const char *stride_name, bool output) {
    if (extent > 0 && batch_ > 0 && !ptr) return fail("%s is NULL but its items are not empty", what);
    if (stride < 0) return fail("%s (" KI ") must be >= 0", stride_name, stride);
    if (extent == 0 || batch_ <= 1) return true;
    if (output && stride < extent)
        return fail("%s (" KI ") must be >= " KI ", the extent of one item of %s, so that output items do not overlap",
                    stride_name, stride, extent, what);
    kobalt_int last;
    if (__builtin_mul_overflow(stride, batch_ - 1, &last) || __builtin_add_overflow(last, extent, &last) ||
        !addressable(last, element_size_))
        return fail("%s (" KI ") * (batch - 1) + " KI " overflows a 64-bit byte offset", stride_name, stride, extent);
    return true;
}

bool Checker::items(const char *name, const void *const *items, kobalt_int extent) {
    if (extent == 0 || batch_ == 0) return true;
    if (!items) return fail("%s is NULL but its items are not empty", name);
    if (!items_readable_) return true;  // device memory: the backend owns the item checks
    for (kobalt_int i = 0; i < batch_; ++i)
        if (!items[i]) return fail("%s[" KI "] is NULL", name, i);
    return true;
}

Checker &Checker::matrix(const MatrixShape &s, const void *ptr, kobalt_int stride, const char *stride_name) {
    if (failed_) return *this;
    const kobalt_int extent = (s.rows == 0 || s.cols == 0) ? 0 : 1;  // emptiness before ld is known valid
    if (extent > 0 && batch_ > 0 && !ptr) {
        fail("%s is NULL but its items are not empty", s.name);
        return *this;
    }
    if (!leading_dimension(s)) return *this;
    const kobalt_int span = matrix_extent(s);
    if (span >= 0) batch_extent(s.name, span, ptr, stride, stride_name, s.output);
    return *this;
}

Checker &Checker::matrix(const MatrixShape &s, const void *const *array) {
    if (failed_) return *this;
    const kobalt_int extent = (s.rows == 0 || s.cols == 0) ? 0 : 1;
    if (extent > 0 && batch_ > 0 && !array) {
        fail("%s is NULL but its items are not empty", s.name);
        return *this;
    }
    if (leading_dimension(s) && matrix_extent(s) >= 0) items(s.name, array, extent);
    return *this;
}

Checker &Checker::vector(const VectorShape &s, const void *ptr, kobalt_int stride, const char *stride_name) {
    if (failed_) return *this;
    if (s.len > 0 && batch_ > 0 && !ptr) {
        fail("%s is NULL but its items are not empty", s.name);
        return *this;
    }
    if (s.inc == 0) {
        fail("%s must not be 0", s.inc_name);
        return *this;
    }
    const kobalt_int span = vector_extent(s);
    if (span >= 0) batch_extent(s.name, span, ptr, stride, stride_name, s.output);
    return *this;
}

Checker &Checker::vector(const VectorShape &s, const void *const *array) {
    if (failed_) return *this;
    if (s.len > 0 && batch_ > 0 && !array) {
        fail("%s is NULL but its items are not empty", s.name);
        return *this;
    }
    if (s.inc == 0) {
        fail("%s must not be 0", s.inc_name);
        return *this;
    }
    if (vector_extent(s) >= 0) items(s.name, array, s.len);
    return *this;
}

Checker &Checker::pivots(const int *ipiv, kobalt_int count, const char *count_text, kobalt_int stride, bool output) {
    if (failed_) return *this;
    if (stride < 0) {
        fail("strideIpiv (" KI ") must be >= 0", stride);
        return *this;
    }
    if (!ipiv || count == 0 || batch_ <= 1) return *this;
    if (output && stride < count) {
        fail("strideIpiv (" KI ") must be >= %s (" KI ") so that the pivots of items do not overlap", stride,
             count_text, count);
        return *this;
    }
    kobalt_int last;
    if (__builtin_mul_overflow(stride, batch_ - 1, &last) || __builtin_add_overflow(last, count, &last) ||
        !addressable(last, sizeof(int)))
        fail("strideIpiv (" KI ") * (batch - 1) + " KI " overflows a 64-bit byte offset", stride, count);
    return *this;
}

Checker &Checker::pivot_values(const int *ipiv, kobalt_int n, kobalt_int stride) {
    // n == 0: no pivot to read, and pivots() checked no stride (any value >= 0 is valid
    // then), so ipiv + item*stride must not even be formed.
    if (failed_ || !ipiv || !items_readable_ || n == 0 || batch_ <= 0) return *this;
    // Fast pass first: the backend's scan on its threads when it has one (a large batch's
    // pivots read on one thread cost getrs 1.1-1.6x at n <= 8: docs/performance.md, "An
    // Intel AVX-512 VM"), else one sweep when the items' pivots are contiguous. The loop
    // below only runs to name the first bad entry.
    if (pivot_scan_ ? !pivot_scan_(ipiv, n, stride, batch_)
        : stride == n ? !pivots_out_of_range(ipiv, batch_ * n, 1, n) : [&] {
            for (kobalt_int item = 0; item < batch_; ++item)
                if (pivots_out_of_range(ipiv + item * stride, n, 1, n)) return false;
            return true;
        }())
        return *this;
    for (kobalt_int item = 0; item < batch_; ++item) {
        const int *p = ipiv + item * stride;
        for (kobalt_int j = 0; j < n; ++j)
            if (p[j] < 1 || p[j] > n) {
                fail("ipiv (item " KI ", entry " KI ": %d) must be within 1..n (" KI ")", item, j + 1, p[j], n);
                return *this;
            }
    }
    return *this;
}

Checker &Checker::info(const int *info) {
    if (!failed_ && batch_ > 0 && !info) fail("info is NULL");
    return *this;
}

}  // namespace kobalt
