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

// _batched form: item i is ptrs[i].
template <class T> struct PointerItems {
    T *const *ptrs;
    T *operator[](int64_t i) const { return ptrs[i]; }
};

} // namespace kobalt_openmp

#endif
