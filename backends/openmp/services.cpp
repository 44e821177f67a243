// services.cpp -- the core's services as the kernels see them, and error reporting.
#include <cstdarg>
#include <cstdio>

#include "common.hpp"

namespace kobalt_openmp {

const kobalt_core_services *core = nullptr;

void report(char precision, const char *routine, const char *fmt, ...) {
    if (!core || !core->set_error) return;
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    core->set_error("kobalt_%c%s: %s", precision, routine, message);
}

} // namespace kobalt_openmp
