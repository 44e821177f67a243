// batch_access.hpp -- item accessors, so that the strided and the pointer-array forms
// of a routine share one kernel template: items[i] is item i's base pointer.
#ifndef KOBALT_OPENMP_BATCH_ACCESS_HPP
#define KOBALT_OPENMP_BATCH_ACCESS_HPP

#include <cstdint>

namespace kobalt_openmp {

// _strided form: item i starts at base + i*stride. 64-bit arithmetic, so batches of
// more than 2^31 elements in all work; stride 0 (inputs only) shares one item.
template <class T> struct StridedItems {
    T *base;
    int64_t stride;
    T *operator[](int64_t i) const { return base + i * stride; }
};

// _batched form: item i is ptrs[i]; a NULL array (see below) gives NULL items.
template <class T> struct PointerItems {
    T *const *ptrs;
    T *operator[](int64_t i) const { return ptrs ? ptrs[i] : nullptr; }
};

// An operand whose items are empty (a zero dimension: gemm's A and B when k == 0, the
// fused call's X and Y when k == 0 and B when nrhs == 0) may be NULL, may have a NULL
// pointer array and any stride >= 0 (docs/api.md; the core checks nothing more), while
// the kernels still form its item pointers. Its accessor must then yield NULL for every
// item, without loading ptrs[i] or computing base + i*stride (which can overflow).
template <class T> StridedItems<T> strided_items(T *base, int64_t stride, bool empty) {
    return empty ? StridedItems<T>{nullptr, 0} : StridedItems<T>{base, stride};
}
template <class T> PointerItems<T> pointer_items(T *const *ptrs, bool empty) {
    return PointerItems<T>{empty ? nullptr : ptrs};
}

// The same items as the plain {base, stride, ptrs} struct that a kernel family takes across
// its ISA boundary (fixed::Items, semiring::Items): ptrs set for the pointer-array form.
template <template <class> class Plain, class T> Plain<T> plain_items(StridedItems<T> s) {
    return {s.base, s.stride, nullptr};
}
template <template <class> class Plain, class T> Plain<T> plain_items(PointerItems<T> p) {
    return {nullptr, 0, p.ptrs};
}

} // namespace kobalt_openmp

#endif
