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

// The backend that owns the memory of the first non-NULL pointer, or NULL when none
// does (no backend loaded, or a space no loaded backend can reach).
const Backend *route(std::initializer_list<const void *> pointers);

}  // namespace kobalt
