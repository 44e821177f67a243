// team.hpp -- how the batch loops share a call's items among OpenMP threads: one contiguous
// run of items a thread, in a parallel region only where that region would have more than one
// thread, and always through one compiled copy of the loop.
//
// No region of one thread: libgomp builds a team for every parallel region, even one of a
// single thread. On the 2-core AMD Zen 5 VM such a region cost about 3.5 us a call with
// OMP_NUM_THREADS=1 and 5-10 us nested in a caller's own region, more than a batch of 16
// double 4 x 4 products takes (docs/performance.md, "Batch calls with OMP_NUM_THREADS=1: no
// parallel region").
//
// One compiled copy: with the loop written out twice, once in the region and once on the
// calling thread, GCC compiled the two inlined bodies differently, and with FMA contraction
// the same item came out different in its last bits: double 6 x 6 row-major getrf and float
// gemv as a batch in a two-thread region against the same call with one thread or a batch of
// one (docs/performance.md, "Results independent of the thread count"). run_chunk is that
// one copy, called from inside the region and from the calling thread alike.
//
// Everything here is static: every ISA's object keeps its own copy, so no inline code crosses
// the ISA boundary (fixed_kernels.hpp).
#ifndef KOBALT_OPENMP_TEAM_HPP
#define KOBALT_OPENMP_TEAM_HPP

#include <cstdint>

#include <omp.h>

namespace kobalt_openmp {

// Whether a parallel region opened here would have more than one thread: OpenMP allows more
// than one (OMP_NUM_THREADS, omp_set_num_threads) and the region would be active (at the top
// level, or nested where OMP_MAX_ACTIVE_LEVELS allows it). Inside a caller's own parallel
// region, with nesting off (the default), it is false: the region would have one thread.
static inline bool opens_region() {
    return omp_get_max_threads() > 1 && omp_get_active_level() < omp_get_max_active_levels();
}

// Threads that share a call's items: omp_get_max_threads() where the loops open a region, else
// the calling thread alone (sizes per-thread scratch and the fused call's chunks).
static inline int region_threads() { return opens_region() ? omp_get_max_threads() : 1; }

struct ItemRange {
    int64_t lo, hi;
};

// The calling thread's items [lo, hi) of the enclosing parallel region, split as
// `omp for schedule(static)` splits them: equal runs in thread order, the first
// count % threads threads one item more.
static inline ItemRange this_thread_chunk(int64_t count) {
    const int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();
    const int64_t q = count / nt, r = count % nt;
    const int64_t lo = t * q + (t < r ? t : r);
    return {lo, lo + q + (t < r ? 1 : 0)};
}

// The one compiled copy of a loop (see the top): never inlined, so the region and the
// calling thread run the same instructions on every item.
// noclone too: a copy specialised for the calling thread's constant lo and part would be a
// second compiled copy again.
#if defined(__clang__)
#define KOBALT_ONE_COPY __attribute__((noinline))
#else
#define KOBALT_ONE_COPY __attribute__((noinline, noclone))
#endif
template <class Chunk>
KOBALT_ONE_COPY static void run_chunk(const Chunk &chunk, int64_t lo, int64_t hi, int part) {
    chunk(lo, hi, part);
}

// chunk(lo, hi, part) for items [lo, hi) of each thread: one contiguous run a thread, in a
// parallel region where opens_region() and count > 1, else all of [0, count) on the calling
// thread. part: the thread's number in the call's own region, 0 on the calling thread (never
// the caller's own thread number: a caller inside the program's parallel region may be thread
// 7 of a team larger than omp_get_max_threads(); thread_scratch.hpp's mine() by this rule).
// A thread may get an empty run (count below the team's size).
template <class Chunk> static inline void for_chunks(int64_t count, const Chunk &chunk) {
    if (count > 1 && opens_region()) {
#pragma omp parallel
        {
            const ItemRange mine = this_thread_chunk(count);
            run_chunk(chunk, mine.lo, mine.hi, omp_get_thread_num());
        }
    } else {
        run_chunk(chunk, int64_t(0), count, 0);
    }
}

} // namespace kobalt_openmp

#endif
