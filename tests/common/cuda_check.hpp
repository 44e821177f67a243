// cuda_check.hpp -- pass/fail counting and CUDA error checks shared by the GPU tests
// (tests/test_cuda_*.cpp). CHECK counts and prints the first 40 failures, prefixed with
// the current case (g_case, set by a test that sweeps many cases); CUDA_OK ends the test
// on a CUDA runtime error, since every later check would be meaningless.
#ifndef KOBALT_TESTS_CUDA_CHECK_HPP
#define KOBALT_TESTS_CUDA_CHECK_HPP

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

inline long g_pass = 0, g_fail = 0;
inline const char *g_case = "";

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (cond) ++g_pass;                                                                    \
        else if (++g_fail < 40) {                                                              \
            std::printf("FAIL [%s] %s:%d: ", g_case, __FILE__, __LINE__);                      \
            std::printf(__VA_ARGS__);                                                          \
            std::printf("\n");                                                                 \
        }                                                                                      \
    } while (0)

#define CUDA_OK(x)                                                                             \
    do {                                                                                       \
        const cudaError_t e_ = (x);                                                            \
        if (e_ != cudaSuccess) {                                                               \
            std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

#endif
