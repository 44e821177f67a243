// fixed_dispatch.cpp -- which copy of the fixed-n kernels runs (fixed_kernels.hpp).
#include <cstdlib>

#include "fixed_kernels.hpp"

namespace kobalt_openmp {
namespace fixed {

bool use_avx2() {
    static const bool yes = [] {
        const char *off = std::getenv("KOBALT_OPENMP_NO_AVX2");
        if (off && *off && *off != '0') return false;
        __builtin_cpu_init();
        // The avx2 copy is compiled with -mavx2 -mfma -mbmi2 (backends/openmp/CMakeLists.txt):
        // every AVX2 CPU so far has BMI2 as well, but the check costs nothing.
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
               __builtin_cpu_supports("bmi2");
    }();
    return yes;
}

} // namespace fixed
} // namespace kobalt_openmp
