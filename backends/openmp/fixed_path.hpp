// fixed_path.hpp -- the slots' bridge to the compile-time-n kernels (fixed_kernels.hpp):
// item accessors and strides converted to the kernels' plain structs, and the ISA copy
// chosen once per call. Included by the routine .cpp files only (baseline ISA).
#ifndef KOBALT_OPENMP_FIXED_PATH_HPP
#define KOBALT_OPENMP_FIXED_PATH_HPP

#include "batch_access.hpp"
#include "common.hpp"
#include "fixed_kernels.hpp"

namespace kobalt_openmp {
namespace fixed {

template <class AnyItems> inline auto items(AnyItems i) { return plain_items<Items>(i); }

// A matrix with one unit stride (every layout/transpose the slots build has one).
inline bool has_unit_stride(Strides s) { return s.rs == 1 || s.cs == 1; }
inline Mat mat(Strides s) { return s.rs == 1 ? Mat{int(s.cs), true} : Mat{int(s.rs), false}; }

inline bool fits(kobalt_int n) { return n >= 1 && n <= FIXED_MAX_N; }

#define KOBALT_FIXED_CALL(fn, ...)                                                            \
    (::kobalt_openmp::fixed::use_avx2() ? ::kobalt_openmp::fixed::avx2::fn(__VA_ARGS__)        \
                                        : ::kobalt_openmp::fixed::base::fn(__VA_ARGS__))

} // namespace fixed
} // namespace kobalt_openmp

#endif
