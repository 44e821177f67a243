// entry_points.cpp -- the exported kobalt_* routines, expanded from kobalt_routines.def.
//
// Every entry point does the same four things, in this order:
//   1. route: find the backend that owns the memory of the call's data pointers (a call
//      whose pointers lie in different memory spaces is refused);
//   2. validate every argument once (pointer arrays and pivots are inspected only when
//      that memory is readable from the host);
//   3. succeed at once on an empty batch, touching nothing;
//   4. call the backend's slot, or report that there is none.
// No C++ exception leaves an entry point (the caller may be C): running out of memory
// (while loading the backends, the only place the core allocates) is
// KOBALT_OUT_OF_MEMORY, any other exception KOBALT_BACKEND_ERROR, both with a message.
#include <exception>
#include <new>
#include <string>

#include "error.hpp"
#include "kobalt/kobalt.h"
#include "registry.hpp"
#include "validate.hpp"
#include "validate_desc.hpp"

namespace kobalt {
namespace {

kobalt_status no_backend(const char *fn) {
    set_error("%s: no backend can run this call (none loaded, or none reaches its memory); "
              "see KOBALT_BACKENDS and KOBALT_PLUGIN_PATH, and KOBALT_VERBOSE=1 for the reasons",
              fn);
    return KOBALT_NO_BACKEND;
}

// names: the route list as text ("C, A, B"); returns the name at position i.
std::string nth_name(const char *names, int i) {
    std::string all(names);
    size_t start = 0;
    for (int k = 0; k < i; ++k) start = all.find(',', start) + 1;
    size_t end = all.find(',', start);
    std::string name = all.substr(start, end == std::string::npos ? std::string::npos : end - start);
    name.erase(0, name.find_first_not_of(" ()"));
    name.erase(name.find_last_not_of(" ()") + 1);
    return name;
}

kobalt_status mixed_spaces(const char *fn, const char *names, const Route &r) {
    set_error("%s: %s and %s live in different memory spaces; all pointers of one call must be "
              "in one space (host or one device backend's)",
              fn, nth_name(names, r.first).c_str(), nth_name(names, r.second).c_str());
    return KOBALT_INVALID_ARGUMENT;
}

kobalt_status out_of_memory(const char *fn) {
    set_error("%s: out of memory while loading the backends (the next call tries again)", fn);
    return KOBALT_OUT_OF_MEMORY;
}

kobalt_status unexpected(const char *fn, const char *what) {
    set_error("%s: unexpected C++ exception: %s", fn, what);
    return KOBALT_BACKEND_ERROR;
}

kobalt_status not_provided(const char *fn, const Backend &backend) {
    set_error("%s: the '%s' backend does not provide this routine", fn, backend.table.name);
    return KOBALT_NOT_SUPPORTED;
}

}  // namespace
}  // namespace kobalt

#define KOBALT_ROUTINE(name, params, args, pointers)                                                    \
    extern "C" kobalt_status KOBALT_NAME(name) params {                                              \
        static const char fn[] = KOBALT_STRINGIFY(KOBALT_NAME(name));                                \
        try {                                                                                        \
            const kobalt::Route where = kobalt::route({KOBALT_UNPAREN pointers});                    \
            if (where.mixed()) return kobalt::mixed_spaces(fn, #pointers, where);                    \
            const kobalt::Backend *backend = where.backend;                                          \
            const kobalt::Access readable(backend && backend->table.host_accessible,                 \
                                          backend ? backend->table.pivots_out_of_range : nullptr);   \
            kobalt_status status = kobalt::validate::name<KOBALT_T>(fn, readable, KOBALT_UNPAREN args); \
            if (status != KOBALT_SUCCESS || batch == 0) return status;                               \
            if (!backend) return kobalt::no_backend(fn);                                             \
            if (!backend->table.KOBALT_SLOT(name)) return kobalt::not_provided(fn, *backend);       \
            return backend->table.KOBALT_SLOT(name) args;                                            \
        } catch (const std::bad_alloc &) {                                                           \
            return kobalt::out_of_memory(fn);                                                        \
        } catch (const std::exception &e) {                                                          \
            return kobalt::unexpected(fn, e.what());                                                 \
        }                                                                                            \
    }

#include "kobalt/kobalt_routines_all.def"
#undef KOBALT_ROUTINE
