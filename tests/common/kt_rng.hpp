/*
 * kt_rng.hpp -- a small deterministic random generator (splitmix64), so every run
 * of the suite sees the same matrices and a failure reproduces.
 */
#ifndef KT_RNG_HPP
#define KT_RNG_HPP

#include <stdint.h>

namespace kt {

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed = 0x6b6f62616c74ull) : s(seed) {}
    uint64_t next()
    {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /* uniform in [lo, hi) */
    double uniform(double lo = -1.0, double hi = 1.0)
    {
        return lo + (hi - lo) * (double)(next() >> 11) * (1.0 / 9007199254740992.0);
    }
    int64_t below(int64_t n) { return (int64_t)(next() % (uint64_t)n); }
};

} // namespace kt

#endif
