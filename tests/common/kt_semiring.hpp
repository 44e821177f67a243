/*
 * kt_semiring.hpp -- the scalar reference of gemm_semiring's semirings, written from
 * docs/api.md's table one operation at a time: the add identity (zero), the multiply
 * identity (one), add and mult with the documented NaN rules (fmin / fmax ignore a NaN
 * operand; or-and treats nonzero, NaN included, as true and yields exactly 0 or 1).
 * Shared by test_semiring, test_cuda_semiring and test_stress.
 */
#ifndef KT_SEMIRING_HPP
#define KT_SEMIRING_HPP

#include <cmath>
#include <limits>

#include "kobalt/kobalt.h"

namespace kt {

template <class T> struct Semiring {
    kobalt_semiring s;
    static T inf() { return std::numeric_limits<T>::infinity(); }
    bool is_min() const { return s == KOBALT_MIN_PLUS || s == KOBALT_MIN_TIMES || s == KOBALT_MIN_MAX; }
    bool is_max() const { return s == KOBALT_MAX_PLUS || s == KOBALT_MAX_TIMES || s == KOBALT_MAX_MIN; }
    T zero() const { return is_min() ? inf() : is_max() ? -inf() : T(0); } /* add identity */
    T one() const /* mult identity */
    {
        switch (s) {
        case KOBALT_MIN_PLUS: case KOBALT_MAX_PLUS: return T(0);
        case KOBALT_MIN_MAX: return -inf();
        case KOBALT_MAX_MIN: return inf();
        default: return T(1);
        }
    }
    T add(T x, T y) const
    {
        if (s == KOBALT_PLUS_TIMES) return x + y;
        if (s == KOBALT_OR_AND) return (x != T(0) || y != T(0)) ? T(1) : T(0);
        return is_min() ? std::fmin(x, y) : std::fmax(x, y);
    }
    T mult(T x, T y) const
    {
        switch (s) {
        case KOBALT_MIN_PLUS: case KOBALT_MAX_PLUS: return x + y;
        case KOBALT_MIN_MAX: return std::fmax(x, y);
        case KOBALT_MAX_MIN: return std::fmin(x, y);
        case KOBALT_OR_AND: return (x != T(0) && y != T(0)) ? T(1) : T(0);
        default: return x * y;
        }
    }
};

} // namespace kt

#endif
