// desc_common.hpp -- what the _desc slots of the openmp backend share (desc_blas.cpp,
// desc_lapack.cpp). Each slot tries three paths, in this order:
//   1. interleaved: every operand with elements has batch_stride 1 and the items are at
//      most INTERLEAVED_MAX (<= 8): the SIMD kernels of interleaved_kernels.hpp, which
//      vectorise across the batch and read the caller's memory in place;
//   2. standard: the operands are column-/row-major items (backends/common/
//      desc_standard.hpp): the _strided slot, unchanged;
//   3. general: any other strides. Rounds of items are gathered into column-major
//      scratch (DESC_GATHER_BYTES per round), run through the _strided slot and the
//      written operands scattered back. Correct for every layout the core accepts; the
//      copies cost about one extra pass over the data.
#ifndef KOBALT_OPENMP_DESC_COMMON_HPP
#define KOBALT_OPENMP_DESC_COMMON_HPP

#include <new>
#include <vector>

#include "../common/desc_standard.hpp"
#include "../common/interleaved_algo.hpp"
#include "common.hpp"
#include "interleaved_kernels.hpp"

namespace kobalt_openmp {
namespace desc {

using kobalt_interleaved::Operand;
using kobalt_interleaved::Pivots;

// The interleaved kernels take items up to this size (0: never).
inline kobalt_int interleaved_max() {
    const kobalt_int t = threshold(INTERLEAVED_MAX);
    return t < kobalt_interleaved::MAX_N ? t : kobalt_interleaved::MAX_N;
}

// op(X) as an interleaved operand: a transpose swaps the strides.
template <class T> Operand<T> operand(T *p, const kobalt_matrix_desc *d, kobalt_op op = KOBALT_NO_TRANS) {
    return op == KOBALT_NO_TRANS ? Operand<T>{p, d->row_stride, d->col_stride}
                                 : Operand<T>{p, d->col_stride, d->row_stride};
}
template <class T> Operand<T> transpose(Operand<T> o) { return {o.p, o.cs, o.rs}; }
inline Pivots pivots(int *ipiv, const kobalt_matrix_desc *d) {
    if (!ipiv) return {nullptr, 0, 0};
    return {ipiv, d->rows > 1 ? d->row_stride : 0, d->batch_stride};
}

// ---- the general path ---------------------------------------------------------------
// One operand's items of a round in column-major scratch: ld = max(1, rows), items
// packed one after the other.
struct Tight {
    kobalt_int rows, cols, ld, item;
    explicit Tight(const kobalt_matrix_desc *d, bool present = true)
        : rows(present ? d->rows : 0), cols(present ? d->cols : 0), ld(rows > 1 ? rows : 1),
          item(rows * cols) {}
};

// Copies items first .. first+count-1 of the described operand into scratch (gather) or
// back (scatter); one OpenMP loop over the items.
template <class E>
void gather(const E *src, const kobalt_matrix_desc *d, kobalt_int first, kobalt_int count, E *dst,
            const Tight &t) {
    if (t.item == 0) return;
    for_each_item(count, [&](kobalt_int b) {
        const E *s = src + (first + b) * d->batch_stride;
        E *o = dst + b * t.item;
        for (kobalt_int j = 0; j < t.cols; ++j)
            for (kobalt_int i = 0; i < t.rows; ++i) o[i + j * t.ld] = s[i * d->row_stride + j * d->col_stride];
    });
}
template <class E>
void scatter(const E *src, const Tight &t, kobalt_int first, kobalt_int count, E *dst,
             const kobalt_matrix_desc *d) {
    if (t.item == 0) return;
    for_each_item(count, [&](kobalt_int b) {
        const E *s = src + b * t.item;
        E *o = dst + (first + b) * d->batch_stride;
        for (kobalt_int j = 0; j < t.cols; ++j)
            for (kobalt_int i = 0; i < t.rows; ++i) o[i * d->row_stride + j * d->col_stride] = s[i + j * t.ld];
    });
}

// Scratch for one round of `per_item` elements per item: round() items at a time, at
// most DESC_GATHER_BYTES (at least one item). allocate() reports failure as
// KOBALT_OUT_OF_MEMORY before anything is written. An input described with zero strides
// may claim rows*cols up to about 2^62 elements in a valid call; its bytes per item are
// summed with overflow checks (they once overflowed int64, and the vector's length_error
// escaped as KOBALT_BACKEND_ERROR "unexpected C++ exception").
template <class T> struct Rounds {
    kobalt_int per_item_bytes = 0, items = 1;
    bool allocate(char precision, const char *routine, kobalt_int batch, std::initializer_list<kobalt_int> reals,
                  std::initializer_list<kobalt_int> ints) {
        kobalt_int bytes = 0;
        bool overflow = false;
        const auto add = [&](kobalt_int count, kobalt_int size) {
            kobalt_int b = 0;
            overflow = overflow || __builtin_mul_overflow(count, size, &b) || __builtin_add_overflow(bytes, b, &bytes);
        };
        for (kobalt_int r : reals) add(r, kobalt_int(sizeof(T)));
        for (kobalt_int i : ints) add(i, kobalt_int(sizeof(int)));
        if (overflow) {
            report(precision, routine, "cannot allocate scratch to gather the items into: one item's operands "
                                       "exceed 2^63 bytes");
            return false;
        }
        per_item_bytes = bytes > 0 ? bytes : 1;
        const kobalt_int budget = threshold(DESC_GATHER_BYTES);
        items = budget / per_item_bytes;
        if (items < 1) items = 1;
        if (items > batch) items = batch;
        try {
            for (kobalt_int r : reals) real.emplace_back(size_t(r * items));
            for (kobalt_int i : ints) integer.emplace_back(size_t(i * items));
        } catch (const std::exception &) { // bad_alloc (length_error cannot occur once bytes fit)
            report(precision, routine, "cannot allocate %lld bytes of scratch to gather the items into",
                   (long long)(per_item_bytes * items));
            return false;
        }
        return true;
    }
    std::vector<std::vector<T>> real;
    std::vector<std::vector<int>> integer;
};

// Sizes the standard kernels take as int (they are checked once, like fits_int32).
template <class T> bool sizes_fit(const char *routine, std::initializer_list<NamedInt> sizes) {
    return fits_int32<T>(routine, sizes);
}

} // namespace desc
} // namespace kobalt_openmp

#endif
