// pivot_scan.hpp -- the range check of getrs/getri pivots (1..n), branch-free.
// The check reads every pivot of the batch before the backend runs (an invalid call must
// write nothing), so it is a pass over memory of its own. With a branch per entry it ran
// at a few cycles per pivot on one thread: at n = 2 it cost as much as the solves
// themselves. Folded into an OR of comparisons the compiler vectorises it, and the error
// path re-scans with branches only once something is known to be out of range.
// Shared by the core's checkers (src/checker.cpp, src/desc_checker.cpp) and the openmp
// backend's pivots_out_of_range slot, which runs it on each thread's chunk of the batch.
#ifndef KOBALT_PIVOT_SCAN_HPP
#define KOBALT_PIVOT_SCAN_HPP

#include <climits>

#include "kobalt/kobalt.h"

namespace kobalt {

// Whether any of p[0], p[step], ..., p[(count-1)*step] lies outside 1..n (n >= 1).
// unsigned(p) - 1 maps 1..INT_MAX onto 0..INT_MAX-1 and 0 and every negative value onto
// INT_MAX and above, so one unsigned comparison against min(n, INT_MAX) checks both ends
// without signed overflow.
inline bool pivots_out_of_range(const int *p, kobalt_int count, kobalt_int step, kobalt_int n) {
    const unsigned limit = n < INT_MAX ? static_cast<unsigned>(n) : static_cast<unsigned>(INT_MAX);
    unsigned bad = 0;
    if (step == 1) {
        for (kobalt_int j = 0; j < count; ++j) bad |= static_cast<unsigned>(static_cast<unsigned>(p[j]) - 1u >= limit);
    } else {
        for (kobalt_int j = 0; j < count; ++j)
            bad |= static_cast<unsigned>(static_cast<unsigned>(p[j * step]) - 1u >= limit);
    }
    return bad != 0;
}

}  // namespace kobalt

#endif
