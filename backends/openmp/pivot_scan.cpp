// pivot_scan.cpp -- the table's pivots_out_of_range slot: the core's validation asks the
// owning backend whether any pivot of a getrs/getri call lies outside 1..n, so that a
// large batch's ipiv is read by all of this backend's threads, not by the calling thread
// alone. Before the call's work starts, and it only reads: an invalid pivot still means
// that the call writes nothing.
//
// Read on one thread, the pivots of a batch of tiny items were a separate pass at one
// core's bandwidth: getrs at n <= 8 took 1.1-1.6x its time without the check on an Intel
// AVX-512 VM (docs/performance.md, "An Intel AVX-512 VM").
#include "slots.hpp"
#include "thresholds.hpp"

#include <climits>
#include <cstdint>
#include <omp.h>

namespace kobalt_openmp {

namespace {

// Nonzero when a pivot of items [lo, hi) is outside 1..n: one unsigned compare per pivot
// (p - 1 >= n also catches p <= 0), ORed, so that the loop vectorises without an early exit.
unsigned scan_items(const int *ipiv, kobalt_int n, kobalt_int stride, int64_t lo, int64_t hi) {
    const unsigned limit = n < INT_MAX ? static_cast<unsigned>(n) : static_cast<unsigned>(INT_MAX);
    unsigned bad = 0;
    if (stride == n) { // contiguous: one run
        const int *p = ipiv + lo * n;
        for (int64_t j = 0, count = (hi - lo) * n; j < count; ++j)
            bad |= static_cast<unsigned>(p[j]) - 1u >= limit;
    } else
        for (int64_t item = lo; item < hi; ++item) {
            const int *p = ipiv + item * stride;
            for (kobalt_int j = 0; j < n; ++j) bad |= static_cast<unsigned>(p[j]) - 1u >= limit;
        }
    return bad;
}

} // namespace

int pivots_out_of_range(const int *ipiv, kobalt_int n, kobalt_int stride, kobalt_int batch) {
    if (n <= 0 || batch <= 0) return 0;
    // batch * n may exceed 2^63 only with strideIpiv = 0 (one pivot vector for all items).
    const bool few = batch <= INT64_MAX / n && batch * n < threshold(PIVOT_SCAN_PARALLEL_MIN);
    if (few || batch == 1)
        return scan_items(ipiv, n, stride, 0, batch) != 0;
    unsigned bad = 0;
#pragma omp parallel reduction(| : bad)
    {
        const int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();
        const int64_t q = batch / nt, r = batch % nt;
        const int64_t lo = t * q + (t < r ? t : r);
        bad |= scan_items(ipiv, n, stride, lo, lo + q + (t < r ? 1 : 0));
    }
    return bad != 0;
}

} // namespace kobalt_openmp
