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
#include "static_chunks.hpp"
#include "thresholds.hpp"
#include "../common/pivot_scan.hpp"

#include <cstdint>

namespace kobalt_openmp {

namespace {

// Whether a pivot of items [lo, hi) is outside 1..n, by the core's branch-free check: one
// run when the items are contiguous, one run per item otherwise.
bool chunk_out_of_range(const int *ipiv, kobalt_int n, kobalt_int stride, int64_t lo, int64_t hi) {
    if (stride == n) return kobalt::pivots_out_of_range(ipiv + lo * n, (hi - lo) * n, 1, n);
    bool bad = false;
    for (int64_t item = lo; item < hi; ++item) bad |= kobalt::pivots_out_of_range(ipiv + item * stride, n, 1, n);
    return bad;
}

} // namespace

int pivots_out_of_range(const int *ipiv, kobalt_int n, kobalt_int stride, kobalt_int batch) {
    if (n <= 0 || batch <= 0) return 0;
    if (stride == 0) batch = 1; // one pivot vector shared by all items: read it once
    // Input pivots may overlap (stride < n), so batch * n may exceed 2^63.
    const bool few = batch <= INT64_MAX / n && batch * n < threshold(PIVOT_SCAN_PARALLEL_MIN);
    if (few || batch == 1 || !kobalt_openmp::opens_region()) return chunk_out_of_range(ipiv, n, stride, 0, batch);
    bool bad = false;
#pragma omp parallel reduction(|| : bad)
    {
        const ItemRange mine = this_thread_chunk(batch);
        bad = chunk_out_of_range(ipiv, n, stride, mine.lo, mine.hi);
    }
    return bad;
}

} // namespace kobalt_openmp
