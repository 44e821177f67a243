// fixed_common.hpp -- helpers shared by the compile-time-n kernel files (fixed_kernels.cpp,
// fixed_blas2.cpp). Included only by those .cpp files, which are compiled once per ISA:
// everything here has internal linkage (anonymous namespace), so each ISA's object
// keeps its own copy and no inline function crosses the ISA boundary.
#ifndef KOBALT_OPENMP_FIXED_COMMON_HPP
#define KOBALT_OPENMP_FIXED_COMMON_HPP

#include <cstdint>
#include <cstring>
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

// c ? x : y without a branch. GCC compiles a plain select on a data-dependent integer
// (a pivot) into a jump, and on real pivots, which no predictor learns, the jumps
// mispredict: done on the operands' bits, the select stays a few logic instructions.
template <class T> KF_INLINE T pick(bool c, T x, T y) {
    using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
    static_assert(sizeof(T) == sizeof(U), "float or double");
    U ux, uy;
    std::memcpy(&ux, &x, sizeof x);
    std::memcpy(&uy, &y, sizeof y);
    const U r = uy ^ ((ux ^ uy) & (U(0) - U(c)));
    T out;
    std::memcpy(&out, &r, sizeof out);
    return out;
}

// Row interchange b[k] <-> b[p] of a local right-hand side, as picks over every row, so
// that b stays in registers. Used by the in-place getrs at n = 2 only; from n = 3 the
// interchanges are cheaper as a permutation of the rows' offsets (row_offsets, below).
// With a runtime index the array lives on the stack and an interchange is a store and a
// reload on the solve's critical path: in cache, one thread, dgetrs n = 3 / 5 / 6 / 8
// took 1.5 / 1.6 / 1.3 / 1.2x longer that way. Swapping in the caller's memory instead,
// as LAPACK does, was no better than the stack.
template <int N, class T> KF_INLINE void interchange(T *__restrict__ b, int k, int p) {
    T bp = b[0];
    KF_UNROLL for (int i = 1; i < N; ++i) bp = pick(i == p, b[i], bp);
    const T bk = b[k];
    KF_UNROLL for (int i = 0; i < N; ++i) b[i] = pick(i == p, bk, b[i]);
    b[k] = bp;
}

// at[i] = offset (in elements, row stride sb) of the row of b that LAPACK's forward
// interchanges (dlaswp, k = 0 .. N-1: swap rows k and piv[k] - 1) bring to row i; piv ==
// NULL: no interchange. NoTrans solves read row i of P b from b + at[i]; Trans, whose
// interchanges run backward after the solves (P^T x), writes x_i to b + at[i].
//
// The interchanges used to be selects over the rows of b held in registers, which GCC
// compiled into branches on the pivot's value; getrf's pivots are data, and with random
// row permutations the mispredictions made getrs at n = 3..8 1.3-1.9x slower from memory
// on the Intel AVX-512 VM than with the benchmark's old rotated rows, whose pivots repeat
// along the batch. The permutation is built here in one 64-bit integer (a 4-bit row index
// per row), branch-free, from ipiv alone (docs/performance.md, "getrs at n <= 8: the
// interchanges as load offsets").
template <int N> KF_INLINE void row_offsets(int64_t *at, const int *piv, int64_t sb) {
    static_assert(N <= 16, "one 4-bit row index per row in 64 bits");
    uint64_t q = 0xfedcba9876543210ull; // q's 4-bit field i: the row that lands at row i
    if (piv)
        KF_UNROLL for (int k = 0; k < N; ++k) {
            const unsigned p = 4u * unsigned(piv[k] - 1); // 0 .. N-1: the core checked it
            const uint64_t d = ((q >> (4 * k)) ^ (q >> p)) & 15u; // fields k and p, XORed
            q ^= (d << (4 * k)) | (d << p);                      // swapped (p == k: d = 0)
        }
    KF_UNROLL for (int i = 0; i < N; ++i) at[i] = int64_t((q >> (4 * i)) & 15u) * sb;
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
