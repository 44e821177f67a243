// interleaved_dispatch.cpp -- which copy of the interleaved kernels runs
// (interleaved_kernels.hpp): the widest instruction set the CPU has, decided once.
#include <cstdlib>

#include "fixed_kernels.hpp"
#include "interleaved_kernels.hpp"
#include "packed_kernels.hpp"

namespace kobalt_openmp {
namespace interleaved {

namespace {
bool env_set(const char *name) {
    const char *v = std::getenv(name);
    return v && *v && *v != '0';
}
} // namespace

Isa isa() {
    static const Isa chosen = [] {
        if (!fixed::use_avx2()) return Isa::base; // also honours KOBALT_OPENMP_NO_AVX2
        __builtin_cpu_init();
        if (KOBALT_OPENMP_HAVE_AVX512 && !env_set("KOBALT_OPENMP_NO_AVX512") && __builtin_cpu_supports("avx512f") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
            return Isa::avx512;
        return Isa::avx2;
    }();
    return chosen;
}

int lanes_for(int element_size) {
    switch (isa()) {
#if KOBALT_OPENMP_HAVE_AVX512
    case Isa::avx512: return avx512::lanes(element_size);
#endif
    case Isa::avx2: return avx2::lanes(element_size);
    default: return base::lanes(element_size);
    }
}

const char *isa_name(Isa i) {
    return i == Isa::avx512 ? "avx512" : i == Isa::avx2 ? "avx2" : "base";
}

} // namespace interleaved
} // namespace kobalt_openmp
