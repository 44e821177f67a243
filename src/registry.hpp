// registry.hpp -- the loaded backend plugins, and which one runs a call.
#pragma once

#include <initializer_list>

#include "kobalt/kobalt_backend.h"

namespace kobalt {

struct Backend {
    kobalt_backend_table table;  // the plugin's table; slots it did not provide are NULL
};

// The backends that loaded and probed successfully, in priority order. Loads them on
// the first call (thread-safe); never unloads them.
int backend_count();
const Backend *backend(int i);

// Where a call runs: the backend that claims the memory of its non-NULL pointers most
// strongly (NULL when none can reach it). When two pointers are claimed by different
// backends, the call mixes memory spaces: first and second are their positions in the
// list and backend is NULL.
struct Route {
    const Backend *backend = nullptr;
    int first = -1, second = -1;
    bool mixed() const { return second >= 0; }
};
Route route(std::initializer_list<const void *> pointers);

// This thread's stream for asynchronous backends (kobalt_set_cuda_stream).
void *current_cuda_stream();

}  // namespace kobalt
