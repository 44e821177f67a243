// static_chunks.hpp -- one contiguous chunk of the batch per OpenMP thread, split as
// `omp for schedule(static)` splits it, for loops that walk their chunk in groups of several
// items (getrs_tiny.cpp, fused_item.cpp): an `omp for` would hand out single items, and the
// groups would straddle threads.
#ifndef KOBALT_OPENMP_STATIC_CHUNKS_HPP
#define KOBALT_OPENMP_STATIC_CHUNKS_HPP

#include <cstdint>

#include "team.hpp"

namespace kobalt_openmp {

// chunk(lo, hi) for items [lo, hi) of each thread, split by this_thread_chunk (team.hpp). A
// batch of at most one item, or one whose region would have one thread, is one chunk on the
// calling thread.
template <class Chunk> inline void for_static_chunks(int64_t batch, const Chunk &chunk) {
    for_chunks(batch, [&chunk](int64_t lo, int64_t hi, int) { chunk(lo, hi); });
}

} // namespace kobalt_openmp

#endif
