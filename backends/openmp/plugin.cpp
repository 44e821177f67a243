// plugin.cpp -- the openmp backend's function table, the one exported symbol.
//
// Compiled as C++20: the table is written with designated initialisers, members in
// declaration order; the routine slots are expanded from kobalt_routines.def in the
// same order as kobalt_backend.h expands them (double first, then float).
#include "common.hpp"
#include "slots.hpp"
#include "thresholds.hpp"

namespace kobalt_openmp {
namespace {

int init(const kobalt_core_services *services, char *why, size_t why_size) {
    (void)why;
    (void)why_size;
    // Host memory and OpenBLAS need no probing. Kokkos is deliberately NOT initialised:
    // the kernels use unmanaged views only, and the host program may own Kokkos.
    core = services;
    adapt_defaults_to_blas(services ? services->verbose : 0);
    adapt_defaults_to_isa(services ? services->verbose : 0);
    return 0;
}

// Host memory is reachable from here, but it is only the fallback: a device backend
// (CUDA) claims its own pointers as OWNER and wins them.
int claim(const void *ptr) {
    (void)ptr;
    return KOBALT_CLAIM_FALLBACK;
}

const kobalt_backend_table table = {
    .abi_version = KOBALT_BACKEND_ABI_VERSION,
    .struct_size = sizeof(kobalt_backend_table),
    .name = "openmp",
    .memory_space = "host",
    .host_accessible = 1,
    .init = init,
    .claim = claim,
    .thresholds = thresholds,
    .threshold_count = THRESHOLD_COUNT,
#define KOBALT_ROUTINE(name, params, args, route) .KOBALT_SLOT(name) = name<KOBALT_T>,
#include "kobalt/kobalt_routines_all.def"
#undef KOBALT_ROUTINE
    .pivots_out_of_range = pivots_out_of_range,
};

} // namespace
} // namespace kobalt_openmp

// The same table is returned to any core: the table carries its own ABI version and
// size, and the core decides what it can use.
extern "C" __attribute__((visibility("default"))) const kobalt_backend_table *
kobalt_backend_get_table(uint32_t core_abi_version) {
    (void)core_abi_version;
    return &kobalt_openmp::table;
}
