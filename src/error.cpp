// error.cpp -- per-thread error messages (kobalt_last_error) and verbose output.
#include "error.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kobalt {
namespace {
// A fixed buffer: recording an error must not allocate (it reports out-of-memory too).
thread_local char last_error[512] = "";
}  // namespace

void set_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    if (verbose()) std::fprintf(stderr, "kobalt: %s\n", last_error);
}

bool verbose() {
    static const bool on = [] {
        const char *v = std::getenv("KOBALT_VERBOSE");
        return v && *v && std::strcmp(v, "0") != 0;
    }();
    return on;
}

void say(const char *fmt, ...) {
    if (!verbose()) return;
    va_list ap;
    va_start(ap, fmt);
    std::fputs("kobalt: ", stderr);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
}

}  // namespace kobalt

extern "C" const char *kobalt_last_error(void) { return kobalt::last_error; }
