// async.cpp -- the calling thread's CUDA stream and kobalt_synchronize.
//
// The core links no CUDA library: the stream is an opaque handle kept per thread and
// handed to backends through the core services (cuda_stream); a backend that queues
// work asynchronously exports a synchronize slot.
#include <new>

#include "error.hpp"
#include "registry.hpp"

namespace kobalt {
namespace {
thread_local void *cuda_stream = nullptr;
}

void *current_cuda_stream() { return cuda_stream; }

}  // namespace kobalt

extern "C" kobalt_status kobalt_set_cuda_stream(void *stream) {
    kobalt::cuda_stream = stream;
    return KOBALT_SUCCESS;
}

extern "C" void *kobalt_get_cuda_stream(void) { return kobalt::cuda_stream; }

extern "C" kobalt_status kobalt_synchronize(void) {
    kobalt_status first_error = KOBALT_SUCCESS;
    int count = 0;
    try {
        count = kobalt::backend_count();
    } catch (const std::bad_alloc &) {  // loading ran out of memory: nothing was queued
        kobalt::set_error("kobalt_synchronize: out of memory while loading the backends");
        return KOBALT_OUT_OF_MEMORY;
    }
    for (int i = 0; i < count; ++i) {
        const kobalt::Backend *b = kobalt::backend(i);
        if (!b->table.synchronize) continue;
        kobalt_status st = b->table.synchronize();  // the backend sets the message
        if (st != KOBALT_SUCCESS && first_error == KOBALT_SUCCESS) first_error = st;
    }
    return first_error;
}
