// semiring_kernels.hpp -- the host kernels of gemm_semiring (every semiring but
// PLUS_TIMES, which the slot hands to gemm): C = add(mult(alpha, op(A) op(B)), mult(beta, C))
// over (min|max, +|*|max|min) and (or, and), with the semantics of docs/api.md.
//
// semiring_kernels.cpp is compiled three times -- baseline x86-64 (SSE2), AVX2+FMA and
// AVX-512F+VL -- into the namespaces base, avx2 and avx512; isa() picks one copy per call.
// As with fixed_kernels.hpp, the copies share no inline code (everything in the .cpp has
// internal linkage) and only plain data crosses the boundary.
//
// How one item is computed (docs/performance.md, "Semiring gemm"): C is made to have
// unit row stride (a row-major C is the transposed problem, the multiplies being
// commutative). Square items of order <= one vector's lanes run one fully unrolled kernel
// for the whole batch, op(A)'s columns in registers. Otherwise rows are taken in panels of
// at most kPanelMax; a panel of op(A) is packed
// column by column into per-thread scratch, and each column of C is accumulated in
// registers (a compile-time number of vectors per panel, several columns at once) with
// one add and one min/max per vector of terms -- the vector min/max instructions return
// their second operand when either is NaN, which is exactly "a NaN term is ignored" for
// an accumulator that starts at the add identity and never becomes NaN. Min-max and
// max-min may instead run on order-preserving integer keys of the values (integer
// min/max for both operations, where measured faster: semiring_kernels.cpp, item()).
#ifndef KOBALT_OPENMP_SEMIRING_KERNELS_HPP
#define KOBALT_OPENMP_SEMIRING_KERNELS_HPP

#include <cstddef>
#include <cstdint>

#include "isa_copies.hpp"

#include <cmath>

#include "kobalt/kobalt.h"

namespace kobalt_openmp {
namespace semiring {

// Items of one operand: ptrs[i] when ptrs is set (pointer-array form), else base + i*stride.
template <class T> struct Items {
    T *base;
    int64_t stride;
    T *const *ptrs;
};
// Element (i, j) of an operand (op already applied) at i*rs + j*cs.
struct View {
    int64_t rs, cs;
};

template <class T> struct Problem {
    kobalt_semiring semiring; // KOBALT_PLUS_TIMES only from gemm.cpp's panel path (an FMA term)
    int m, n, k;
    T alpha, beta;
    Items<const T> A; // op(A): m x k
    View a;
    Items<const T> B; // op(B): k x n
    View b;
    Items<T> C; // m x n
    View c;
    int64_t batch;
    T *scratch;        // ThreadScratch::data(): per_thread elements for each OpenMP thread of the call
    size_t per_thread; // >= scratch_per_thread(k)
    // Prefetch each thread's next item (set by run() in semiring_call.hpp from
    // GEMM_PREFETCH_MIN_BYTES and GEMM_PREFETCH_ITEM_MAX_BYTES; the last members, so that
    // bench/kernel_ab can time a copy built before them) ...
    bool prefetch;
    // ... this many items ahead, at least 1 (from GEMM_PREFETCH_AHEAD_BYTES).
    int prefetch_items;
};

// Problem::prefetch_items: how many items ahead a thread prefetches, enough that op(A) and
// op(B) of the items between cover ahead_bytes, from 1 to 4 (kernels of tiny items finish
// before one item's lines arrive).
inline int prefetch_items(double item_bytes, double ahead_bytes) {
    const double items = item_bytes > 0 ? std::ceil(ahead_bytes / item_bytes) : 1;
    return items < 1 ? 1 : items > 4 ? 4 : int(items);
}

// Rows of one packed panel, at most (it depends on the vector width and the semiring:
// 64 for plus-times with 32 vector registers, 32 otherwise; semiring_kernels.cpp,
// panel_vectors).
constexpr int kPanelMax = 64;
// Columns of C accumulated at once, at most.
constexpr int kColumnsMax = 8;
// Scratch elements one thread needs for an inner dimension k (the packed panel, the keys
// of kColumnsMax columns of op(B), plus room to align the panel to 64 bytes).
inline size_t scratch_per_thread(int k) { return size_t(k) * (kPanelMax + kColumnsMax) + 64; }

#define KOBALT_SEMIRING_DECLARE(ns)                                                           \
    namespace ns {                                                                            \
    template <class T> void gemm(const Problem<T> &p);                                        \
    }
KOBALT_SEMIRING_DECLARE(base)
KOBALT_SEMIRING_DECLARE(avx2)
KOBALT_SEMIRING_DECLARE(avx512)
#undef KOBALT_SEMIRING_DECLARE

enum class Isa { base, avx2, avx512 };
// The widest copy the CPU runs, checked once. KOBALT_OPENMP_NO_AVX2=1 forces the
// baseline copy (as for the fixed-n kernels), KOBALT_OPENMP_NO_AVX512=1 stops at AVX2:
// for comparison and so that the tests can run every copy.
Isa isa();

} // namespace semiring
} // namespace kobalt_openmp

#endif
