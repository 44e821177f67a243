# Host dependencies of the OpenMP backend, the tests and the benchmarks.
#
# Debian 12's Trilinos CMake configuration files are broken, so Kokkos and Kokkos
# Kernels are found by hand (headers in /usr/include/trilinos). OpenBLAS is looked up
# in its OpenMP flavour first: a call made inside our parallel region then stays
# single-threaded, where the pthread flavour would oversubscribe the cores.
include_guard(GLOBAL)

# With KOBALT_WITH_OPENMP=AUTO (or OFF) missing host dependencies are not fatal:
# KOBALT_HOST_DEPS_FOUND tells the includers (openmp backend, host tests) to skip.
if(NOT DEFINED KOBALT_WITH_OPENMP)
  set(KOBALT_WITH_OPENMP ON)
endif()
set(KOBALT_HOST_DEPS_FOUND FALSE CACHE INTERNAL "host deps of the openmp backend found")
if(KOBALT_WITH_OPENMP STREQUAL "OFF")
  return()
endif()
find_package(OpenMP COMPONENTS CXX)

find_path(KOKKOS_INCLUDE_DIR Kokkos_Core.hpp
  PATHS /usr/include/trilinos /usr/local/include/trilinos
  PATH_SUFFIXES trilinos)
find_path(KOKKOSKERNELS_INCLUDE_DIR KokkosBatched_Gemm_Decl.hpp
  PATHS /usr/include/trilinos /usr/local/include/trilinos
  PATH_SUFFIXES trilinos)
find_library(KOKKOS_CORE_LIBRARY NAMES trilinos_kokkoscore kokkoscore)
find_library(KOKKOS_KERNELS_LIBRARY NAMES trilinos_kokkoskernels kokkoskernels)

find_library(KOBALT_OPENBLAS_LIBRARY NAMES openblas
  HINTS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp
  NO_DEFAULT_PATH)
if(NOT KOBALT_OPENBLAS_LIBRARY)
  find_library(KOBALT_OPENBLAS_LIBRARY NAMES openblas)
endif()
find_path(KOBALT_CBLAS_INCLUDE_DIR cblas.h
  HINTS /usr/include/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp
  PATH_SUFFIXES openblas)
find_library(KOBALT_LAPACKE_LIBRARY NAMES lapacke)
find_path(KOBALT_LAPACKE_INCLUDE_DIR lapacke.h)

foreach(var OpenMP_CXX_FOUND KOKKOS_INCLUDE_DIR KOKKOSKERNELS_INCLUDE_DIR KOKKOS_CORE_LIBRARY KOKKOS_KERNELS_LIBRARY
            KOBALT_OPENBLAS_LIBRARY KOBALT_CBLAS_INCLUDE_DIR KOBALT_LAPACKE_LIBRARY KOBALT_LAPACKE_INCLUDE_DIR)
  if(NOT ${var} AND NOT KOBALT_WITH_OPENMP STREQUAL "ON")
    message(STATUS "Kobalt: ${var} not found: the OpenMP backend and host tests are skipped "
      "(KOBALT_WITH_OPENMP=AUTO)")
    return()
  elseif(NOT ${var})
    message(FATAL_ERROR "Kobalt: ${var} not found. On Debian 12 install: libtrilinos-kokkos-dev "
      "libtrilinos-kokkos-kernels-dev libopenblas-openmp-dev liblapacke-dev (see README.md)")
  endif()
endforeach()

if(NOT TARGET Kobalt::kokkos_kernels)
  add_library(Kobalt::kokkos_kernels INTERFACE IMPORTED GLOBAL)
  set_target_properties(Kobalt::kokkos_kernels PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${KOKKOS_INCLUDE_DIR};${KOKKOSKERNELS_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${KOKKOS_KERNELS_LIBRARY};${KOKKOS_CORE_LIBRARY}")
  # CBLAS and LAPACKE, the references and the large-size path. lapacke comes first so
  # that its LAPACK symbols resolve to OpenBLAS's copy.
  add_library(Kobalt::blas_lapack INTERFACE IMPORTED GLOBAL)
  set_target_properties(Kobalt::blas_lapack PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${KOBALT_CBLAS_INCLUDE_DIR};${KOBALT_LAPACKE_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${KOBALT_LAPACKE_LIBRARY};${KOBALT_OPENBLAS_LIBRARY}")
endif()
set(KOBALT_HOST_DEPS_FOUND TRUE CACHE INTERNAL "host deps of the openmp backend found")
