// team.hpp -- whether the batch loops open a parallel region, or run on the calling thread.
//
// libgomp builds a team for every parallel region, even one of a single thread: on the 2-core
// AMD Zen 5 VM such a region cost about 3.5 us with OMP_NUM_THREADS=1 (two futex system calls),
// more than a batch of 16 double 4 x 4 products takes (docs/performance.md, "Batch calls with
// OMP_NUM_THREADS=1: no parallel region"). There the batch loops run on the calling thread;
// everything else about them (split, order, scratch part 0) is what the one-thread region did.
#ifndef KOBALT_OPENMP_TEAM_HPP
#define KOBALT_OPENMP_TEAM_HPP

#include <omp.h>

namespace kobalt_openmp {

// False only where the ICV allows one thread and no parallel region encloses the call
// (OMP_NUM_THREADS=1, omp_set_num_threads(1)). Inside a caller's own parallel region the
// region stays, although nested it has one thread too (5-10 us a call there): without it,
// about 1% of the getrf and gemv operations of reliability_stress_openmp differed bitwise
// from their replay outside the team (all accurate); not understood yet
// (bench/results/2026-12-07/one-thread-calls). static: every ISA's object keeps its own copy,
// so no inline code crosses the ISA boundary (fixed_kernels.hpp).
static inline bool team_of_many() {
    return omp_get_max_threads() > 1 || omp_get_level() > 0;
}

} // namespace kobalt_openmp

#endif
