// views.hpp -- unmanaged, strided Kokkos views over one item of a batch.
//
// The KokkosBatched Serial functors take views. LayoutStride views over caller memory
// express both layouts and every transpose as a choice of strides, so each functor is
// only instantiated for NoTranspose. Unmanaged views need no Kokkos::initialize(): the
// plugin never initialises or finalises Kokkos (the host program may use Kokkos itself).
#ifndef KOBALT_OPENMP_VIEWS_HPP
#define KOBALT_OPENMP_VIEWS_HPP

#include <Kokkos_Core.hpp>

#include "common.hpp"

namespace kobalt_openmp {

template <class T>
using MatrixView = Kokkos::View<T **, Kokkos::LayoutStride, Kokkos::HostSpace,
                                Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class T>
using VectorView = Kokkos::View<T *, Kokkos::LayoutStride, Kokkos::HostSpace,
                                Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// rows x cols matrix at p, element (i, j) at p[i*s.rs + j*s.cs]. The caller has checked
// (choose_path) that every offset fits an int.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION MatrixView<T> matrix_view(T *p, kobalt_int rows, kobalt_int cols,
                                                      Strides s) {
    return MatrixView<T>(p, Kokkos::LayoutStride(size_t(rows), size_t(s.rs), size_t(cols),
                                                 size_t(s.cs)));
}

// Vector of len elements at p with a positive increment (negative increments go to
// the vendor path, which has BLAS semantics for them).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION VectorView<T> vector_view(T *p, kobalt_int len, kobalt_int inc) {
    return VectorView<T>(p, Kokkos::LayoutStride(size_t(len), size_t(inc)));
}

} // namespace kobalt_openmp

#endif
