// desc_standard.hpp -- when a _desc call is really a standard one: every matrix operand
// column-major or row-major with a leading dimension the _strided routines accept, every
// vector with a positive increment, pivots contiguous per item. Such calls go to the
// backend's _strided slot unchanged (same kernels, thresholds and vendor paths); the
// others take the backend's interleaved or general-stride path.
//
// A stored matrix in the other layout than the call's is its transpose in the call's
// layout with the same leading dimension, so operands used through op() (gemm's A and B,
// the fused call's X and Y, trsm's triangle) may mix layouts: their op flips (and trsm's
// uplo with it). Host code only; shared by the backends, no state.
#ifndef KOBALT_DESC_STANDARD_HPP
#define KOBALT_DESC_STANDARD_HPP

#include <cstdint>
#include <initializer_list>

#include "kobalt/kobalt.h"

namespace kobalt_desc {

// A stored operand as the _strided routines take it in `layout`.
struct Standard {
    bool ok = false;
    kobalt_int ld = 0, stride = 0;
};

inline Standard as_standard(const kobalt_matrix_desc &d, kobalt_layout layout) {
    const bool col = layout == KOBALT_COL_MAJOR;
    const kobalt_int unit = col ? d.row_stride : d.col_stride, unit_len = col ? d.rows : d.cols;
    const kobalt_int lead = col ? d.col_stride : d.row_stride, lead_len = col ? d.cols : d.rows;
    const kobalt_int need = unit_len > 1 ? unit_len : 1;
    if (unit != 1 && unit_len > 1) return {};
    const kobalt_int ld = lead_len > 1 ? lead : need; // one line: any ld will do
    if (ld < need || ld > INT32_MAX) return {};
    return {true, ld, d.batch_stride};
}

inline kobalt_layout other(kobalt_layout l) { return l == KOBALT_COL_MAJOR ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR; }
inline kobalt_op flip(kobalt_op op) { return op == KOBALT_NO_TRANS ? KOBALT_TRANS : KOBALT_NO_TRANS; }
inline kobalt_uplo flip(kobalt_uplo u) { return u == KOBALT_UPPER ? KOBALT_LOWER : KOBALT_UPPER; }

// An operand used through op(): in `layout` as it is, or stored in the other layout and
// passed as its transpose.
struct OpStandard {
    bool ok = false;
    bool flipped = false;
    kobalt_op op = KOBALT_NO_TRANS;
    kobalt_int ld = 0, stride = 0;
};
inline OpStandard op_standard(const kobalt_matrix_desc &d, kobalt_op op, kobalt_layout layout) {
    const Standard s = as_standard(d, layout);
    if (s.ok) return {true, false, op, s.ld, s.stride};
    const Standard t = as_standard(d, other(layout));
    if (t.ok) return {true, true, flip(op), t.ld, t.stride};
    return {};
}

// A vector: len x 1 with a positive increment.
struct StdVector {
    bool ok = false;
    kobalt_int inc = 1, stride = 0;
};
inline StdVector as_vector(const kobalt_matrix_desc &d) {
    const kobalt_int inc = d.rows > 1 ? d.row_stride : 1;
    if (inc < 1 || inc > INT32_MAX) return {};
    return {true, inc, d.batch_stride};
}

// Pivots: contiguous within an item (NULL pivots always are).
struct StdPivots {
    bool ok = false;
    kobalt_int stride = 0;
};
inline StdPivots as_pivots(const int *ipiv, const kobalt_matrix_desc *d) {
    if (!ipiv) return {true, 0};
    if (d->rows > 1 && d->row_stride != 1) return {};
    return {true, d->batch_stride};
}

// The layouts a call may take, column-major first.
constexpr kobalt_layout kLayouts[2] = {KOBALT_COL_MAJOR, KOBALT_ROW_MAJOR};

// True when every operand with elements has batch_stride 1 (the interleaved layout).
inline bool all_interleaved(std::initializer_list<const kobalt_matrix_desc *> ds, kobalt_int batch) {
    if (batch < 1) return false;
    for (const kobalt_matrix_desc *d : ds)
        if (d && d->rows > 0 && d->cols > 0 && d->batch_stride != 1 && batch > 1) return false;
    return true;
}

} // namespace kobalt_desc

#endif
