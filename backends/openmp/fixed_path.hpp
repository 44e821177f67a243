// fixed_path.hpp -- the slots' bridge to the compile-time-n kernels (fixed_kernels.hpp):
// item accessors and strides converted to the kernels' plain structs, and the ISA copy
// chosen once per call. Included by the routine .cpp files only (baseline ISA).
#ifndef KOBALT_OPENMP_FIXED_PATH_HPP
#define KOBALT_OPENMP_FIXED_PATH_HPP

#include "batch_access.hpp"
#include "common.hpp"
#include "fixed_kernels.hpp"
#include "interleaved_kernels.hpp"
#include "isa_copies.hpp"

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

// The kernels that also have an AVX-512 copy (trsm_direct, getrf_direct, getrs_tiny): that copy
// where the interleaved kernels' choice is AVX-512 (the same CPU checks and environment
// variables), else the copy KOBALT_FIXED_CALL picks.
#if KOBALT_OPENMP_HAVE_AVX512
#define KOBALT_DIRECT_CALL(fn, ...)                                                           \
    (::kobalt_openmp::interleaved::isa() == ::kobalt_openmp::interleaved::Isa::avx512          \
         ? ::kobalt_openmp::fixed::avx512::fn(__VA_ARGS__)                                     \
         : KOBALT_FIXED_CALL(fn, __VA_ARGS__))
#else
#define KOBALT_DIRECT_CALL(fn, ...) KOBALT_FIXED_CALL(fn, __VA_ARGS__)
#endif

} // namespace fixed
} // namespace kobalt_openmp

#endif
