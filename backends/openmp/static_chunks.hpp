// static_chunks.hpp -- one contiguous chunk of the batch per OpenMP thread, split as
// `omp for schedule(static)` splits it, for loops that walk their chunk in groups of several
// items (getrs_tiny.cpp, fused_item.cpp): an `omp for` would hand out single items, and the
// groups would straddle threads.
#ifndef KOBALT_OPENMP_STATIC_CHUNKS_HPP
#define KOBALT_OPENMP_STATIC_CHUNKS_HPP

#include <cstdint>

#include <omp.h>

#include "team.hpp"

namespace kobalt_openmp {

struct ItemRange {
    int64_t lo, hi;
};

// The calling thread's items [lo, hi) of the enclosing parallel region: equal chunks in
// thread order, the first batch % nt threads one item more. For regions that need more
// than for_static_chunks gives (a reduction, as in pivot_scan.cpp).
inline ItemRange this_thread_chunk(int64_t batch) {
    const int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();
    const int64_t q = batch / nt, r = batch % nt;
    const int64_t lo = t * q + (t < r ? t : r);
    return {lo, lo + q + (t < r ? 1 : 0)};
}

// chunk(lo, hi) for items [lo, hi) of each thread, split by this_thread_chunk. A batch of at
// most one item, or one whose region would have one thread (team.hpp), is one chunk on the
// calling thread.
template <class Chunk> inline void for_static_chunks(int64_t batch, const Chunk &chunk) {
    if (batch <= 1 || !team_of_many()) {
        chunk(int64_t(0), batch);
        return;
    }
#pragma omp parallel
    {
        const ItemRange mine = this_thread_chunk(batch);
        chunk(mine.lo, mine.hi);
    }
}

} // namespace kobalt_openmp

#endif
