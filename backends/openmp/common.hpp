// common.hpp -- what every routine family of the openmp backend shares: the core's
// services, error messages, the one-per-call 32-bit checks and the dispatch decision.
#ifndef KOBALT_OPENMP_COMMON_HPP
#define KOBALT_OPENMP_COMMON_HPP

#include <omp.h>

#include <cstdint>
#include <initializer_list>

#include "kobalt/kobalt_backend.h"
#include "team.hpp"
#include "thresholds.hpp"

namespace kobalt_openmp {

// Services lent by the core at init() (NULL before; messages are then dropped).
extern const kobalt_core_services *core;

// Records "kobalt_<p><routine>: <message>" for kobalt_last_error(). The slot does not
// know its public name, so it is rebuilt from the precision letter and routine name.
void report(char precision, const char *routine, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

template <class T> constexpr char precision_letter() { return sizeof(T) == 8 ? 'd' : 's'; }

// One integer argument of a call, by name, for the 32-bit check.
struct NamedInt {
    const char *name;
    kobalt_int value;
};

// Kokkos kernels take int strides and OpenBLAS/LAPACKE take 32-bit ints: sizes, leading
// dimensions and |increments| beyond INT32_MAX cannot go through either. Checked once
// per call; on failure the call returns KOBALT_NOT_SUPPORTED with a message.
template <class T>
bool fits_int32(const char *routine, std::initializer_list<NamedInt> args) {
    for (const NamedInt &a : args) {
        if (a.value > INT32_MAX || a.value < -INT32_MAX) {
            report(precision_letter<T>(), routine,
                   "%s = %lld exceeds 2^31-1, not supported by the openmp backend", a.name,
                   (long long)a.value);
            return false;
        }
    }
    return true;
}

// Which path one call takes; decided once per call from the item size.
enum class Path {
    small,          // inlined KokkosBatched kernels, OpenMP loop over the batch
    vendor,         // single-threaded OpenBLAS/LAPACKE per item, OpenMP loop over the batch
    vendor_threaded // few large items: one item at a time, OpenBLAS itself threaded
};

// size: the item's largest dimension; max_ld: its largest leading dimension (or |inc|).
// The small kernels index with int, so they also need every in-item offset (at most
// size * max_ld) to fit an int.
inline Path choose_path(ThresholdId small_max, kobalt_int size, kobalt_int max_ld,
                        kobalt_int batch, bool small_ok = true) {
    if (small_ok && size <= threshold(small_max) && size * max_ld <= INT32_MAX)
        return Path::small;
    if (batch < omp_get_max_threads() && size >= threshold(FEW_ITEMS_LARGE_MIN))
        return Path::vendor_threaded;
    return Path::vendor;
}

// Strides of a stored matrix: element (i, j) lies at i*rs + j*cs.
struct Strides {
    kobalt_int rs, cs;
};
inline Strides strides_of(kobalt_layout layout, kobalt_int ld) {
    return layout == KOBALT_COL_MAJOR ? Strides{1, ld} : Strides{ld, 1};
}
// Strides of op(M) for a stored M: a transpose is a swap of the strides.
inline Strides op_strides(kobalt_layout layout, kobalt_op op, kobalt_int ld) {
    const Strides s = strides_of(layout, ld);
    return op == KOBALT_NO_TRANS ? s : Strides{s.cs, s.rs};
}
inline Strides transposed(Strides s) { return Strides{s.cs, s.rs}; }

inline kobalt_int max3(kobalt_int a, kobalt_int b, kobalt_int c) {
    const kobalt_int ab = a > b ? a : b;
    return ab > c ? ab : c;
}


// Runs body(i) for every item i of the batch, statically split over the OpenMP threads
// (each thread one contiguous run of items); a single item, or a batch where the region
// would have one thread, runs on the calling thread, through the same compiled loop
// (team.hpp).
template <class Body> inline void for_each_item(kobalt_int batch, Body &&body) {
    for_chunks(batch, [&body](int64_t lo, int64_t hi, int) {
        for (int64_t i = lo; i < hi; ++i) body(kobalt_int(i));
    });
}

// for_each_item for a body that runs the given path on every item: Path::small as
// for_each_item; Path::vendor (OpenBLAS/LAPACKE per item, which must run single-threaded
// whatever the caller's context) inside a parallel region even when there is only one
// item, since OpenBLAS's OpenMP build threads a call made outside one (as many threads as
// omp_get_max_threads()). A threaded call may round differently (AVX2 kernels:
// reliability_stress_openmp's one-item trsm and getrs differed bitwise between a call
// inside the caller's OpenMP team and its replay outside it). Path::vendor_threaded: one
// item after another on the calling thread, OpenBLAS threaded.
template <class Body> inline void for_each_item_on(kobalt_int batch, Path path, Body &&body) {
    if (path == Path::small) {
        for_each_item(batch, body);
    } else if (path == Path::vendor) {
#pragma omp parallel for schedule(static)
        for (kobalt_int i = 0; i < batch; ++i) body(i);
    } else {
        for (kobalt_int i = 0; i < batch; ++i) body(i);
    }
}

} // namespace kobalt_openmp

#endif
