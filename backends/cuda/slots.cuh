// slots.cuh -- every slot of kobalt_routines.def as a function template over the real
// type, declared from the .def list; defined and instantiated in routines.cu.
#ifndef KOBALT_CUDA_SLOTS_CUH
#define KOBALT_CUDA_SLOTS_CUH

#include "kobalt/kobalt_backend.h"

namespace kobalt_cuda {
#define KOBALT_ROUTINE(name, params, args, route) template <class Real> kobalt_status name params;
#define KOBALT_T Real
#include "kobalt/kobalt_routines.def"
#undef KOBALT_T
#undef KOBALT_ROUTINE
} // namespace kobalt_cuda

#endif
