// fixed_common.hpp -- helpers shared by the compile-time-n kernel files (fixed_kernels.cpp,
// fixed_blas2.cpp). Included only by those .cpp files, which are compiled once per ISA:
// everything here has internal linkage (anonymous namespace), so each ISA's object
// keeps its own copy and no inline function crosses the ISA boundary.
#ifndef KOBALT_OPENMP_FIXED_COMMON_HPP
#define KOBALT_OPENMP_FIXED_COMMON_HPP

#include <cstdint>
#include <type_traits>

#include "fixed_kernels.hpp"
#include "team.hpp"

#ifndef KOBALT_FIXED_ISA
#error "compile with -DKOBALT_FIXED_ISA=base or avx2 (or avx512: trsm_direct.cpp and getrf_direct.cpp only)"
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

// at[i] = offset (in elements, row stride sb) of the row of b that LAPACK's forward
// interchanges (dlaswp, k = 0 .. N-1: swap rows k and piv[k] - 1) bring to row i; piv ==
// NULL: no interchange. NoTrans solves read row i of P b from b + at[i]; Trans, whose
// interchanges run backward after the solves (P^T x), writes x_i to b + at[i].
//
// The interchanges used to be selects over the rows of b held in registers, which GCC
// compiled into branches on the pivot's value; getrf's pivots are data, and with random
// row permutations the mispredictions made getrs at n = 3..8 1.3-1.9x slower from memory
// on the Intel AVX-512 VM than with the benchmark's old rotated rows, whose pivots repeat
// along the batch. Selects on the values' bits (no branch) were slower than these offsets
// at n = 3 and than the table's at n = 2; swapping in b's own memory (as LAPACK and Eigen
// do) puts a store and a reload on the chain, 1.1-1.7x slower at n = 3..8
// (docs/performance.md, "getrs at n <= 8: the interchanges as load offsets" and "getrs
// at n <= 4: the permutation from a table").
//
// Up to kPermTableMaxN rows the permutation of every pivot vector is read from a table
// built at compile time: N^N entries of N row indices (81 bytes at n = 3, 1 KiB at 4),
// indexed by the pivots alone: at n = 3, 4 1.05-1.36x faster than the bit fields below
// (one cell 0.96), at n = 2 1.1-1.5x faster than the bit selects.
// Above, a table of all N^N pivot vectors would be 15 KiB at n = 5; up to kLuPermTableMaxN
// rows the table holds only the N! vectors getrf writes, piv[k] - 1 >= k (600 bytes at
// n = 5, 4.2 KiB at 6): digit k is piv[k] - 1 - k, of radix N - k (the factorial number
// system). Any other pivot vector (getrs accepts every value in 1..N, as LAPACK's) has a
// negative digit and takes the bit fields below, as every vector does above
// kLuPermTableMaxN: the permutation built in one 64-bit integer (a 4-bit row index per
// row), branch-free, from ipiv alone. On AMD Zen 5 from memory, getrs n = 5, 6 against
// Eigen: float 0.89 -> 1.06, 1.06 -> 1.27; a table at n = 7 (35 KiB) was mixed
// (docs/performance.md, "getrs at n = 5, 6: the permutation from a table of getrf's pivots").
constexpr int kPermTableMaxN = 4;
constexpr int kLuPermTableMaxN = 6;

// The table of N rows: of every pivot vector (lu = false) or of getrf's (lu = true). Both
// number the vectors the same way: index = Horner over k = 0 ... N-1 of digit k in its radix.
template <int N, bool Lu> struct PermTable {
    static constexpr int radix(int k) { return Lu ? N - k : N; }
    static constexpr int digit(const int *piv, int k) { return piv[k] - 1 - (Lu ? k : 0); }
    static constexpr int entries() {
        int e = 1;
        for (int k = 0; k < N; ++k) e *= radix(k);
        return e;
    }
    // row[e][i]: the row that the interchanges of vector e bring to row i.
    uint8_t row[entries()][N];
    constexpr PermTable() : row{} {
        for (int e = 0; e < entries(); ++e) {
            int piv[N] = {};
            int rest = e;
            for (int k = N - 1; k >= 0; --k) { // the inverse of the index's Horner form
                piv[k] = rest % radix(k) + 1 + (Lu ? k : 0);
                rest /= radix(k);
            }
            uint8_t r[N] = {};
            for (int i = 0; i < N; ++i) r[i] = uint8_t(i);
            for (int k = 0; k < N; ++k) {
                const int p = piv[k] - 1;
                const uint8_t t = r[k];
                r[k] = r[p];
                r[p] = t;
            }
            for (int i = 0; i < N; ++i) row[e][i] = r[i];
        }
    }
};
template <int N, bool Lu> constexpr PermTable<N, Lu> kPermTable{};

template <int N> KF_INLINE void row_offsets(int64_t *at, const int *piv, int64_t sb) {
    if (!piv) {
        KF_UNROLL for (int i = 0; i < N; ++i) at[i] = i * sb;
        return;
    }
    if constexpr (N <= kLuPermTableMaxN) {
        constexpr bool lu = N > kPermTableMaxN;
        using Table = PermTable<N, lu>;
        int e = 0, below = 0;
        KF_UNROLL for (int k = 0; k < N; ++k) {
            const int d = Table::digit(piv, k);
            e = e * Table::radix(k) + d;
            below |= d; // negative where some pivot lies above its row (never without lu:
                        // the core checked 1..N)
        }
        if (!lu || __builtin_expect(below >= 0, 1)) {
            const uint8_t *r = kPermTable<N, lu>.row[e];
            KF_UNROLL for (int i = 0; i < N; ++i) at[i] = int64_t(r[i]) * sb;
            return;
        }
    }
    static_assert(N <= 16, "one 4-bit row index per row in 64 bits");
    uint64_t q = 0xfedcba9876543210ull; // q's 4-bit field i: the row that lands at row i
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

// Runs body(i) over the batch: one contiguous run of items a thread, no region for a single
// item or where the region would have one thread, one compiled copy of the loop either way
// (team.hpp; as for_each_item in common.hpp). Each thread runs a private copy of the body:
// bodies that capture by value then keep their sizes, strides and flags in that thread's
// registers instead of reloading them from the shared closure after every store to an item
// (which might alias it).
template <class Body> KF_INLINE void loop(int64_t batch, const Body &body) {
    kobalt_openmp::for_chunks(batch, [&body](int64_t lo, int64_t hi, int) {
        const Body own = body;
        for (int64_t i = lo; i < hi; ++i) own(i);
    });
}

} // namespace

#endif
