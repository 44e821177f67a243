// slots.hpp -- the backend's implementation of every slot of kobalt_routines.def.
//
// Each routine is one function template over the real type, declared here from the
// .def list (so a parameter list can never drift from the ABI), defined in its family's
// .cpp (gemm.cpp, ...) and explicitly instantiated there for float and double.
// plugin.cpp puts name<double> into slot d<name> and name<float> into s<name>.
#ifndef KOBALT_OPENMP_SLOTS_HPP
#define KOBALT_OPENMP_SLOTS_HPP

#include "kobalt/kobalt_backend.h"

namespace kobalt_openmp {

#define KOBALT_ROUTINE(name, params, args, route) template <class Real> kobalt_status name params;
#define KOBALT_T Real
#include "kobalt/kobalt_routines.def"
#undef KOBALT_T
#undef KOBALT_ROUTINE

// The table's pivots_out_of_range slot (pivot_scan.cpp): the core's pivot check on this
// backend's threads.
int pivots_out_of_range(const int *ipiv, kobalt_int n, kobalt_int stride, kobalt_int batch);

// Whether getrf (getrf.cpp) would allocate a workspace for such a call: only its vendor
// path for row-major items with pivoting does, and allocation is its only failure after the
// argument checks. The fused call's chunked composition asks, to keep calls that could fail
// half-way on its one-loop path (gemm_lu_trsv.cpp, composes).
bool getrf_allocates(kobalt_layout layout, kobalt_int m, kobalt_int n, kobalt_int lda, bool pivoted);

} // namespace kobalt_openmp

// Explicit instantiation of one slot template for both precisions.
#define KOBALT_OPENMP_INSTANTIATE(fn)                                                        \
    template decltype(kobalt_openmp::fn<double>) kobalt_openmp::fn<double>;                  \
    template decltype(kobalt_openmp::fn<float>) kobalt_openmp::fn<float>;

#endif
