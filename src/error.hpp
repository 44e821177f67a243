// error.hpp -- this thread's last error message, and the verbose switch.
#pragma once

#include "kobalt/kobalt.h"

namespace kobalt {

// Record this thread's message for kobalt_last_error() (printf-style).
void set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// KOBALT_VERBOSE=1: the library may print its decisions to stderr; otherwise it never prints.
bool verbose();
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace kobalt
