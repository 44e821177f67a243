// shim.cpp -- the machinery of shim.hpp: symbol resolution, settings read once from the
// environment, the per-call decision and its log.
#include "shim.hpp"

#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kobalt_cublas {
namespace {

#define KOBALT_CUBLAS_STR_(x) #x
#define KOBALT_CUBLAS_STR(x) KOBALT_CUBLAS_STR_(x)
// The cuBLAS this library was built against; opened only when RTLD_NEXT finds nothing.
constexpr const char kCublasSoname[] = "libcublas.so." KOBALT_CUBLAS_STR(CUBLAS_VER_MAJOR);

struct Range {
    const char *name;
    long long min, max;
};

struct Settings {
    bool verbose = false;
    bool disabled = false;
    // Defaults: where Kobalt beat cuBLAS on an H200 (docs/performance.md, "cuBLAS drop-in").
    Range ranges[FAMILY_COUNT] = {
        {"GEMM", 1, 12}, {"GEMV", 1, 10}, {"TRSM", 1, 6}, {"GETRF", 3, 4},
        {"GETRS", 1, 32}, {"GETRI", 3, 16}, {"MATINV", 1, 8},
    };
    Settings() {
        const char *v = std::getenv("KOBALT_CUBLAS_VERBOSE");
        verbose = v && *v && std::strcmp(v, "0") != 0;
        const char *d = std::getenv("KOBALT_CUBLAS_DISABLE");
        disabled = d && *d && std::strcmp(d, "0") != 0;
        for (Range &r : ranges) {
            read(r.name, "MIN", r.min);
            read(r.name, "MAX", r.max);
        }
        if (verbose) {
            std::fprintf(stderr, "kobalt-cublas: Kobalt %s;%s sizes served", kobalt_version(),
                         disabled ? " KOBALT_CUBLAS_DISABLE set, every call forwarded;" : "");
            for (const Range &r : ranges) std::fprintf(stderr, " %s %lld..%lld", r.name, r.min, r.max);
            std::fprintf(stderr, "\n");
        }
    }
    // KOBALT_CUBLAS_<family>_<bound>, a non-negative integer, overrides value.
    void read(const char *family, const char *bound, long long &value) const {
        char var[64];
        std::snprintf(var, sizeof var, "KOBALT_CUBLAS_%s_%s", family, bound);
        const char *s = std::getenv(var);
        if (!s || !*s) return;
        char *end = nullptr;
        const long long x = std::strtoll(s, &end, 10);
        if (*end == '\0' && x >= 0)
            value = x;
        else if (verbose)
            std::fprintf(stderr, "kobalt-cublas: ignoring %s=%s (not a non-negative integer)\n", var, s);
    }
};

const Settings &settings() {
    static const Settings s;
    return s;
}

// Nesting depth of Kobalt calls made by this thread through the shim. Kobalt's CUDA
// backend calls cuBLAS itself for large items; those calls reach this library first
// (it comes earlier in the lookup order) and must go straight to cuBLAS.
thread_local int kobalt_depth = 0;

void *libcublas() {
    static void *lib = [] {
        void *h = dlopen(kCublasSoname, RTLD_NOW | RTLD_NOLOAD);
        return h ? h : dlopen(kCublasSoname, RTLD_NOW | RTLD_LOCAL);
    }();
    return lib;
}

// The driver's cuPointerGetAttribute (libcuda is loaded in any process that holds a
// cuBLAS handle; nothing is linked against it).
using PointerAttribute = CUresult (*)(void *, CUpointer_attribute, CUdeviceptr);
PointerAttribute pointer_attribute() {
    static const PointerAttribute f = [] {
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        return h ? reinterpret_cast<PointerAttribute>(dlsym(h, "cuPointerGetAttribute")) : nullptr;
    }();
    return f;
}

// The cuda backend must be there: without it Kobalt would hand device pointers to a
// host backend. Checked once, on the first call the shim would serve.
const char *kobalt_unavailable() {
    static const char *why = [] () -> const char * {
        const int count = kobalt_backend_count();
        for (int i = 0; i < count; ++i)
            if (std::strcmp(kobalt_backend_name(i), "cuda") == 0) return nullptr;
        return "Kobalt's cuda backend is not loaded (KOBALT_VERBOSE=1 shows why)";
    }();
    return why;
}

} // namespace

void *resolve(const char *name) {
    void *p = dlsym(RTLD_NEXT, name);
    if (!p && libcublas()) p = dlsym(libcublas(), name);
    if (settings().verbose) {
        Dl_info info;
        if (p && dladdr(p, &info) && info.dli_fname)
            std::fprintf(stderr, "kobalt-cublas: %s resolved in %s\n", name, info.dli_fname);
        else if (!p)
            std::fprintf(stderr, "kobalt-cublas: %s: no real cuBLAS definition found\n", name);
    }
    return p;
}

cublasStatus_t missing(const char *name) {
    std::fprintf(stderr, "kobalt-cublas: %s: cannot find the real cuBLAS function (neither after "
                         "libkobalt-cublas in the lookup order nor in %s)\n", name, kCublasSoname);
    return CUBLAS_STATUS_NOT_INITIALIZED;
}

long long size_min(Family which) { return settings().ranges[which].min; }
long long size_max(Family which) { return settings().ranges[which].max; }
const char *family_name(Family which) { return settings().ranges[which].name; }

bool to_kobalt(cublasOperation_t op, kobalt_op &out) {
    switch (op) {
    case CUBLAS_OP_N: out = KOBALT_NO_TRANS; return true;
    case CUBLAS_OP_T: out = KOBALT_TRANS; return true;
    case CUBLAS_OP_C: out = KOBALT_CONJ_TRANS; return true; // = T on real data, in both libraries
    default: return false;                                  // CUBLAS_OP_CONJG and invalid values
    }
}
bool to_kobalt(cublasFillMode_t uplo, kobalt_uplo &out) {
    if (uplo == CUBLAS_FILL_MODE_LOWER) out = KOBALT_LOWER;
    else if (uplo == CUBLAS_FILL_MODE_UPPER) out = KOBALT_UPPER;
    else return false;
    return true;
}
bool to_kobalt(cublasDiagType_t diag, kobalt_diag &out) {
    if (diag == CUBLAS_DIAG_NON_UNIT) out = KOBALT_NON_UNIT;
    else if (diag == CUBLAS_DIAG_UNIT) out = KOBALT_UNIT;
    else return false;
    return true;
}
bool to_kobalt(cublasSideMode_t side, kobalt_side &out) {
    if (side == CUBLAS_SIDE_LEFT) out = KOBALT_LEFT;
    else if (side == CUBLAS_SIDE_RIGHT) out = KOBALT_RIGHT;
    else return false;
    return true;
}

Call::Call(const char *fn) : fn_(fn) {
    if (kobalt_depth > 0)
        forward_if(true, "called by Kobalt itself");
    else if (settings().disabled)
        forward_if(true, "KOBALT_CUBLAS_DISABLE is set");
}

Call &Call::describe(const char *fmt, ...) {
    if (!settings().verbose) return *this;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(args_, sizeof args_, fmt, ap);
    va_end(ap);
    return *this;
}

void Call::set_reason(const char *fmt, va_list ap) {
    std::vsnprintf(reason_, sizeof reason_, fmt, ap);
    if (!reason_[0]) std::snprintf(reason_, sizeof reason_, "forwarded");
}

Call &Call::forward_if(bool cond, const char *fmt, ...) {
    if (!cond || !serving()) return *this;
    va_list ap;
    va_start(ap, fmt);
    set_reason(fmt, ap);
    va_end(ap);
    return *this;
}

Call &Call::size(Family which, long long value, const char *what) {
    forward_if(value > size_max(which), "%s (%lld) > KOBALT_CUBLAS_%s_MAX (%lld)", what, value, family_name(which),
               size_max(which));
    return forward_if(value < size_min(which), "%s (%lld) < KOBALT_CUBLAS_%s_MIN (%lld)", what, value,
                      family_name(which), size_min(which));
}

Call &Call::handle(cublasHandle_t h, bool scalars) {
    if (!serving()) return *this;
    using GetStream = cublasStatus_t (*)(cublasHandle_t, cudaStream_t *);
    using GetMode = cublasStatus_t (*)(cublasHandle_t, cublasPointerMode_t *);
    static const GetStream get_stream = reinterpret_cast<GetStream>(resolve("cublasGetStream_v2"));
    static const GetMode get_mode = reinterpret_cast<GetMode>(resolve("cublasGetPointerMode_v2"));
    cudaStream_t s = nullptr;
    const cublasStatus_t st = get_stream ? get_stream(h, &s) : CUBLAS_STATUS_NOT_INITIALIZED;
    forward_if(st != CUBLAS_STATUS_SUCCESS, "cublasGetStream on the handle failed (%d)", int(st));
    stream_ = s;
    if (scalars && serving()) {
        cublasPointerMode_t mode = CUBLAS_POINTER_MODE_HOST;
        const cublasStatus_t sm = get_mode ? get_mode(h, &mode) : CUBLAS_STATUS_NOT_INITIALIZED;
        forward_if(sm != CUBLAS_STATUS_SUCCESS, "cublasGetPointerMode on the handle failed (%d)", int(sm));
        forward_if(mode != CUBLAS_POINTER_MODE_HOST,
                   "alpha/beta in device memory (CUBLAS_POINTER_MODE_DEVICE): Kobalt takes host scalars");
    }
    return *this;
}

Call &Call::device(const void *p, const char *what) {
    if (!serving()) return *this;
    unsigned int type = 0;
    const PointerAttribute f = pointer_attribute();
    const bool ok = p && f &&
                    f(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(p)) == CUDA_SUCCESS &&
                    (type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED);
    return forward_if(!ok, "%s is not device memory", what);
}

bool Call::ready() {
    if (!serving()) return false;
    const char *why = kobalt_unavailable();
    forward_if(why != nullptr, "%s", why ? why : "");
    return serving();
}

void Call::enter() {
    saved_stream_ = kobalt_get_cuda_stream();
    kobalt_set_cuda_stream(stream_);
    ++kobalt_depth;
}

void Call::leave() {
    --kobalt_depth;
    kobalt_set_cuda_stream(saved_stream_);
}

void Call::log_path(bool kobalt) {
    if (!settings().verbose) return;
    if (kobalt)
        std::fprintf(stderr, "kobalt-cublas: %s(%s) -> kobalt\n", fn_, args_);
    else
        std::fprintf(stderr, "kobalt-cublas: %s(%s) -> cuBLAS: %s\n", fn_, args_, reason_);
}

void Call::refused(kobalt_status st) {
    std::snprintf(reason_, sizeof reason_, "Kobalt refused the call (%s: %s)", kobalt_status_name(st),
                  kobalt_last_error());
    log_path(false);
}

cublasStatus_t Call::status_of(kobalt_status st) {
    if (settings().verbose)
        std::fprintf(stderr, "kobalt-cublas: %s: Kobalt failed: %s: %s\n", fn_, kobalt_status_name(st),
                     kobalt_last_error());
    return st == KOBALT_OUT_OF_MEMORY ? CUBLAS_STATUS_ALLOC_FAILED : CUBLAS_STATUS_EXECUTION_FAILED;
}

} // namespace kobalt_cublas
