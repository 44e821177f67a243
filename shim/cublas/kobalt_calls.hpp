// kobalt_calls.hpp -- Kobalt's entry points by real type, and the small argument
// helpers the shim's served routines share.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kobalt/kobalt.h"

namespace kobalt_cublas {

template <class T> struct Kobalt;
template <> struct Kobalt<double> {
    static constexpr auto gemm_strided = kobalt_dgemm_strided;
    static constexpr auto gemm_batched = kobalt_dgemm_batched;
    static constexpr auto gemv_strided = kobalt_dgemv_strided;
    static constexpr auto gemv_batched = kobalt_dgemv_batched;
    static constexpr auto trsm_batched = kobalt_dtrsm_batched;
    static constexpr auto getrf_batched = kobalt_dgetrf_batched;
    static constexpr auto getrs_batched = kobalt_dgetrs_batched;
    static constexpr auto getri_batched = kobalt_dgetri_batched;
    static constexpr auto matinv_batched = kobalt_dmatinv_batched;
};
template <> struct Kobalt<float> {
    static constexpr auto gemm_strided = kobalt_sgemm_strided;
    static constexpr auto gemm_batched = kobalt_sgemm_batched;
    static constexpr auto gemv_strided = kobalt_sgemv_strided;
    static constexpr auto gemv_batched = kobalt_sgemv_batched;
    static constexpr auto trsm_batched = kobalt_strsm_batched;
    static constexpr auto getrf_batched = kobalt_sgetrf_batched;
    static constexpr auto getrs_batched = kobalt_sgetrs_batched;
    static constexpr auto getri_batched = kobalt_sgetri_batched;
    static constexpr auto matinv_batched = kobalt_smatinv_batched;
};

inline long long ll(long long v) { return v; }
inline long long max1(long long v) { return v > 1 ? v : 1; }

// Elements from the first to the last element of a column-major rows x cols item with
// leading dimension ld (0 when empty); -1 when that does not fit 64 bits.
inline long long span(long long ld, long long rows, long long cols) {
    if (rows <= 0 || cols <= 0) return 0;
    long long s;
    if (__builtin_mul_overflow(ld, cols - 1, &s) || __builtin_add_overflow(s, rows, &s)) return -1;
    return s;
}
// The same for a vector of len elements with increment inc.
inline long long vspan(long long inc, long long len) {
    if (len <= 0) return 0;
    if (inc == INT64_MIN) return -1;
    return span(inc < 0 ? -inc : inc, 1, len);
}

} // namespace kobalt_cublas
