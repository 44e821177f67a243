// semiring_call.hpp -- the slots' bridge to the semiring kernels (semiring_kernels.hpp):
// a call's validated arguments as a Problem, its per-thread scratch, the ISA copy. Used by
// gemm_semiring.cpp and by gemm.cpp's panel path (PLUS_TIMES); baseline ISA only, like
// fixed_path.hpp.
#ifndef KOBALT_OPENMP_SEMIRING_CALL_HPP
#define KOBALT_OPENMP_SEMIRING_CALL_HPP

#include <algorithm>

#include "batch_access.hpp"
#include "common.hpp"
#include "semiring_kernels.hpp"
#include "thread_scratch.hpp"

namespace kobalt_openmp {
namespace semiring {

template <class AnyItems> inline auto items(AnyItems i) { return plain_items<Items>(i); }

// Layout and transposes become strides; p.scratch is left for run().
template <class T, class AItems, class BItems, class CItems>
Problem<T> problem(kobalt_semiring sr, kobalt_layout layout, kobalt_op transa, kobalt_op transb, kobalt_int m,
                   kobalt_int n, kobalt_int k, T alpha, AItems A, kobalt_int lda, BItems B, kobalt_int ldb, T beta,
                   CItems C, kobalt_int ldc, kobalt_int batch) {
    const Strides sa = op_strides(layout, transa, lda), sb = op_strides(layout, transb, ldb),
                  sc = strides_of(layout, ldc);
    Problem<T> p;
    p.semiring = sr;
    p.m = int(m);
    p.n = int(n);
    p.k = int(k);
    p.alpha = alpha;
    p.beta = beta;
    p.A = items(A);
    p.a = {sa.rs, sa.cs};
    p.B = items(B);
    p.b = {sb.rs, sb.cs};
    p.C = items(C);
    p.c = {sc.rs, sc.cs};
    p.batch = batch;
    p.scratch = nullptr;
    p.per_thread = 0;
    p.prefetch = false;
    p.prefetch_items = 1;
    return p;
}

// Runs p on the widest copy isa() allows, with the packed panels' per-thread scratch
// allocated before any item is touched; false, with nothing written, when the scratch
// cannot be had (the kernels pick their part by ThreadScratch::mine()'s rule themselves
// and align it to 64 bytes inside it).
template <class T> bool run(Problem<T> p) {
    ThreadScratch<T> scratch;
    if (!scratch.allocate(scratch_per_thread(p.k))) return false;
    p.scratch = scratch.data();
    p.per_thread = scratch.per_thread();
    // From memory, items whose op(A) and op(B) each fit GEMM_PREFETCH_ITEM_MAX_BYTES: each
    // thread prefetches its next item (semiring_kernels.cpp).
    const double a_bytes = double(p.m) * p.k * sizeof(T), b_bytes = double(p.k) * p.n * sizeof(T);
    const double call_bytes = (a_bytes + b_bytes + double(p.m) * p.n * sizeof(T)) * double(p.batch);
    p.prefetch = call_bytes >= double(threshold(GEMM_PREFETCH_MIN_BYTES)) &&
                 std::max(a_bytes, b_bytes) <= double(threshold(GEMM_PREFETCH_ITEM_MAX_BYTES));
    p.prefetch_items = prefetch_items(a_bytes + b_bytes, double(threshold(GEMM_PREFETCH_AHEAD_BYTES)));
    switch (isa()) {
    case Isa::avx512: KOBALT_IF_AVX512(avx512::gemm(p);) break;
    case Isa::avx2: avx2::gemm(p); break;
    case Isa::base: base::gemm(p); break;
    }
    return true;
}

} // namespace semiring
} // namespace kobalt_openmp

#endif
