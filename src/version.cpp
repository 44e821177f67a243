// version.cpp -- the library's version and status names.
#include "kobalt/kobalt.h"

extern "C" const char *kobalt_version(void) { return KOBALT_VERSION_STRING; }

extern "C" const char *kobalt_status_name(kobalt_status status) {
    switch (status) {
        case KOBALT_SUCCESS: return "KOBALT_SUCCESS";
        case KOBALT_INVALID_ARGUMENT: return "KOBALT_INVALID_ARGUMENT";
        case KOBALT_NOT_SUPPORTED: return "KOBALT_NOT_SUPPORTED";
        case KOBALT_NO_BACKEND: return "KOBALT_NO_BACKEND";
        case KOBALT_OUT_OF_MEMORY: return "KOBALT_OUT_OF_MEMORY";
        case KOBALT_BACKEND_ERROR: return "KOBALT_BACKEND_ERROR";
    }
    return "unknown status";
}
