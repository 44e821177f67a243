// thread_scratch.hpp -- per-thread scratch memory, allocated once per call.
//
// Workspace is allocated before the first item is touched: when it cannot be had the
// call returns KOBALT_OUT_OF_MEMORY with every output untouched, instead of failing
// half-way through the batch (as allocating per item inside the loop would).
#ifndef KOBALT_OPENMP_THREAD_SCRATCH_HPP
#define KOBALT_OPENMP_THREAD_SCRATCH_HPP

#include <omp.h>

#include <cstddef>
#include <cstdlib>

namespace kobalt_openmp {

template <class T> class ThreadScratch {
public:
    ThreadScratch() = default;
    ThreadScratch(const ThreadScratch &) = delete;
    ThreadScratch &operator=(const ThreadScratch &) = delete;
    ~ThreadScratch() { std::free(data_); }

    // Room for `per_thread` elements for each thread a parallel loop may use; false when
    // the memory cannot be allocated (or the size overflows).
    bool allocate(size_t per_thread) {
        per_thread_ = per_thread;
        const size_t threads = static_cast<size_t>(omp_get_max_threads());
        if (per_thread == 0) return true;
        if (per_thread > SIZE_MAX / sizeof(T) / threads) return false;
        data_ = static_cast<T *>(std::malloc(per_thread * threads * sizeof(T)));
        return data_ != nullptr;
    }

    // This thread's part (inside or outside the call's parallel loop).
    T *mine() const { return data_ + per_thread_ * static_cast<size_t>(omp_get_thread_num()); }

private:
    T *data_ = nullptr;
    size_t per_thread_ = 0;
};

} // namespace kobalt_openmp

#endif
