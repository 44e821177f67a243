// thread_scratch.hpp -- per-thread scratch memory, allocated once per call.
//
// Workspace is allocated before the first item is touched: when it cannot be had the
// call returns KOBALT_OUT_OF_MEMORY with every output untouched, instead of failing
// half-way through the batch (as allocating per item inside the loop would).
#ifndef KOBALT_OPENMP_THREAD_SCRATCH_HPP
#define KOBALT_OPENMP_THREAD_SCRATCH_HPP

#include <omp.h>

#include "team.hpp"

#include <cstddef>
#include <cstdlib>

namespace kobalt_openmp {

template <class T> class ThreadScratch {
public:
    ThreadScratch() = default;
    ThreadScratch(const ThreadScratch &) = delete;
    ThreadScratch &operator=(const ThreadScratch &) = delete;
    ~ThreadScratch() { std::free(data_); }

    // Room for `per_thread` elements for each thread a parallel loop may use (one part where
    // the loops open no region: any region opened there has one thread, team.hpp); false
    // when the memory cannot be allocated (or the size overflows).
    bool allocate(size_t per_thread) {
        per_thread_ = per_thread;
        level_ = omp_get_level();
        const size_t threads = static_cast<size_t>(region_threads());
        if (per_thread == 0) return true;
        if (per_thread > SIZE_MAX / sizeof(T) / threads) return false;
        data_ = static_cast<T *>(std::malloc(per_thread * threads * sizeof(T)));
        return data_ != nullptr;
    }

    // This thread's part: by its number in the call's own parallel loop (whose team has
    // at most omp_get_max_threads() threads), or part 0 when the call runs its items on
    // the calling thread. Never by the caller's own thread number: a caller inside the
    // host program's parallel region may be thread 7 of a team larger than
    // omp_get_max_threads() (num_threads clause, OMP_NUM_THREADS=8,1, ...).
    T *mine() const {
        const int t = omp_get_level() > level_ ? omp_get_thread_num() : 0;
        return data_ + per_thread_ * static_cast<size_t>(t);
    }

    // The allocation (nullptr when per_thread is 0) and the elements of one part, for a
    // caller that must pick its part itself by mine()'s rule: gemm_semiring's kernels
    // (semiring_kernels.cpp), compiled once per ISA, which must not call this header's
    // inline functions (the linker could keep an AVX-512 copy for every caller) and
    // which align their part to 64 bytes inside it.
    T *data() const { return data_; }
    size_t per_thread() const { return per_thread_; }

private:
    T *data_ = nullptr;
    size_t per_thread_ = 0;
    int level_ = 0;  // omp_get_level() of the calling thread, outside the call's loop
};

} // namespace kobalt_openmp

#endif
