// fixed_common.hpp -- helpers shared by the compile-time-n kernel files (fixed_kernels.cpp,
// fixed_blas2.cpp). Included only by those .cpp files, which are compiled once per ISA:
// everything here has internal linkage (anonymous namespace), so each ISA's object
// keeps its own copy and no inline function crosses the ISA boundary.
#ifndef KOBALT_OPENMP_FIXED_COMMON_HPP
#define KOBALT_OPENMP_FIXED_COMMON_HPP

#include <cstdint>
#include <type_traits>

#include "fixed_kernels.hpp"

#ifndef KOBALT_FIXED_ISA
#error "compile with -DKOBALT_FIXED_ISA=base or avx2"
#endif

#define KF_INLINE __attribute__((always_inline)) inline
#define KF_UNROLL _Pragma("GCC unroll 64")

namespace {

using kobalt_openmp::fixed::Items;
using kobalt_openmp::fixed::Mat;

// Calls f(x, y, z) with x, y, z std::true_type or std::false_type after three runtime
// flags: the one place that turns a kernel's storage or triangle flags into template
// arguments (eight instantiations per kernel and n). f reads them as decltype(x)::value.
template <class F> KF_INLINE void with_flags(bool a, bool b, bool c, const F &f) {
    const auto third = [&](auto x, auto y) {
        if (c) f(x, y, std::true_type{});
        else f(x, y, std::false_type{});
    };
    const auto second = [&](auto x) {
        if (b) third(x, std::true_type{});
        else third(x, std::false_type{});
    };
    if (a) second(std::true_type{});
    else second(std::false_type{});
}

// Row interchange b[k] <-> b[p] of a local right-hand side (the fixed-n getrs, and the
// in-place getrs at n = 2), as selects over every row, so that b can stay in registers.
// GCC compiles these selects into branches on p: on real (unpredictable) pivots they
// mispredict, which is why the in-place getrs applies the interchanges as load/store
// offsets from n = 3 (getrs_tiny.cpp, row_offsets); the fixed-n getrs (nrhs > 1) still
// uses this. With a runtime
// index the array lives on the stack and an interchange is a store and a reload on the
// solve's critical path: in cache, one thread, dgetrs n = 3 / 5 / 6 / 8 took 1.5 / 1.6 /
// 1.3 / 1.2x longer that way. Swapping in the caller's memory instead, as LAPACK does, was
// no better than the stack.
template <int N, class T> KF_INLINE void interchange(T *__restrict__ b, int k, int p) {
    T bp = b[0];
    KF_UNROLL for (int i = 1; i < N; ++i) bp = i == p ? b[i] : bp;
    const T bk = b[k];
    KF_UNROLL for (int i = 0; i < N; ++i) b[i] = i == p ? bk : b[i];
    b[k] = bp;
}

template <class T> KF_INLINE T *item(const Items<T> &it, int64_t i) {
    return it.ptrs ? it.ptrs[i] : it.base + i * it.stride;
}

// Runs body(i) over the batch: OpenMP static schedule, none for a single item (as
// for_each_item in common.hpp). Each thread runs a private copy of the body: bodies that
// capture by value then keep their sizes, strides and flags in that thread's registers
// instead of reloading them from the shared closure after every store to an item (which
// might alias it).
template <class Body> KF_INLINE void loop(int64_t batch, const Body &body) {
    if (batch > 1) {
#pragma omp parallel
        {
            const Body own = body;
#pragma omp for schedule(static)
            for (int64_t i = 0; i < batch; ++i) own(i);
        }
    } else {
        for (int64_t i = 0; i < batch; ++i) body(i);
    }
}

} // namespace

#endif
