// kt_api.hpp -- Api<T>: every Kobalt routine of precision T as a static member, so that
// test and benchmark code written once over T (double or float) calls
// Api<T>::gemm_strided(...) and reaches kobalt_dgemm_strided or kobalt_sgemm_strided.
//
// Why a struct picked by T and not overloads (kt_calls.hpp's kb::): the caller names the
// precision, so arguments that do not carry T (nullptr operands, integer literals for
// alpha) still reach the right routine, and a harness can select the routine before it
// has typed pointers. Expanded from kobalt_routines.def (every generation), so a routine
// added there is here too; Api<T>::prefix is the precision letter ("d" or "s") for
// printing. One copy for the fuzz harness, the overflow test and the CUDA benchmarks:
// header-only and plain C++ (no CUDA), so host tests and .cu files include it alike.
#ifndef KOBALT_TESTS_KT_API_HPP
#define KOBALT_TESTS_KT_API_HPP

#include "kobalt/kobalt.h"

template <class T> struct Api;

#define KOBALT_ROUTINE(name, params, args, route) \
    static kobalt_status name params { return KOBALT_NAME(name) args; }
template <> struct Api<double> {
    static constexpr const char *prefix = "d";
#define KOBALT_T double
#define KOBALT_P d
#include "kobalt/kobalt_routines.def"
#undef KOBALT_T
#undef KOBALT_P
};
template <> struct Api<float> {
    static constexpr const char *prefix = "s";
#define KOBALT_T float
#define KOBALT_P s
#include "kobalt/kobalt_routines.def"
#undef KOBALT_T
#undef KOBALT_P
};
#undef KOBALT_ROUTINE

#endif
