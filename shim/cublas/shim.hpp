// shim.hpp -- what every entry point of libkobalt-cublas.so shares (docs/cublas.md):
// the real cuBLAS symbols, the per-call decision "Kobalt or cuBLAS", the handle's
// stream and pointer mode, the shim's size limits and the KOBALT_CUBLAS_VERBOSE log.
//
// An entry point builds a Call, lets it test the arguments (any doubt forwards the call:
// cuBLAS then answers with its own status codes and info values), then calls run() with
// two callables: the Kobalt call and the forward to the real cuBLAS function.
#pragma once

#include <cublas_v2.h>

#include <cstdarg>
#include <cstdint>

#include "kobalt/kobalt.h"

// What every exported definition starts with: C linkage (a redeclaration of the
// cublas_v2.h function, checked by the compiler) and default visibility; the version
// script then keeps exactly the names of exports.txt.
#define KOBALT_CUBLAS_API extern "C" __attribute__((visibility("default")))

namespace kobalt_cublas {

// Address of the real cuBLAS function `name`: the next definition after this library
// in the lookup order (dlsym(RTLD_NEXT): LD_PRELOAD, or -lkobalt-cublas ahead of
// -lcublas), else the one in libcublas.so.<major> opened by its SONAME. NULL if none.
void *resolve(const char *name);
// What an entry point returns when no real cuBLAS function can be found.
cublasStatus_t missing(const char *name);

// The real function `fn` (a cuBLAS name this library defines too), resolved once per
// call site.
#define KOBALT_CUBLAS_REAL(fn)                                                                    \
    ([]() {                                                                                       \
        static const auto real_fn = reinterpret_cast<decltype(&fn)>(::kobalt_cublas::resolve(#fn)); \
        return real_fn;                                                                           \
    }())
// A callable that forwards this call, arguments unchanged, to the real `fn`.
#define KOBALT_CUBLAS_FORWARD(fn, ...)                                                            \
    [&]() -> cublasStatus_t {                                                                     \
        const auto real_fn = KOBALT_CUBLAS_REAL(fn);                                              \
        return real_fn ? real_fn(__VA_ARGS__) : ::kobalt_cublas::missing(#fn);                    \
    }

// The range of sizes each routine family serves with Kobalt: data, overridable with
// KOBALT_CUBLAS_<FAMILY>_MIN and _MAX (docs/cublas.md gives the measurements behind the
// defaults: the sizes where Kobalt beat cuBLAS).
enum Family { GEMM, GEMV, TRSM, GETRF, GETRS, GETRI, MATINV, FAMILY_COUNT };
long long size_min(Family which);
long long size_max(Family which);
const char *family_name(Family which);

// cuBLAS enumerations as Kobalt's; false when the value is not one Kobalt serves.
bool to_kobalt(cublasOperation_t op, kobalt_op &out); // N, T, C (C is T for real data)
bool to_kobalt(cublasFillMode_t uplo, kobalt_uplo &out);
bool to_kobalt(cublasDiagType_t diag, kobalt_diag &out);
bool to_kobalt(cublasSideMode_t side, kobalt_side &out);

// One intercepted call.
class Call {
public:
    explicit Call(const char *fn);
    Call(const Call &) = delete;
    Call &operator=(const Call &) = delete;

    // The call's sizes for the log ("n=8 batch=1000"); formatted only under
    // KOBALT_CUBLAS_VERBOSE=1.
    Call &describe(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    // Forward to cuBLAS when cond holds; the first reason is the one logged.
    Call &forward_if(bool cond, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
    // Forward when value lies outside the family's range of served sizes.
    Call &size(Family which, long long value, const char *what);
    // The handle's stream, and (scalars) its pointer mode: alpha/beta in device memory
    // are forwarded, since Kobalt takes host scalars and reading them would synchronise.
    Call &handle(cublasHandle_t h, bool scalars);
    // Forward unless p lies in device (or managed) memory.
    Call &device(const void *p, const char *what);
    bool serving() const { return reason_[0] == '\0'; }

    // Runs kobalt() (returns a kobalt_status) on the handle's stream when serving, else
    // forward(). A call Kobalt refuses before writing anything (invalid argument, not
    // supported, no backend) is forwarded too.
    template <class K, class F> cublasStatus_t run(K kobalt, F forward) {
        if (serving()) ready();
        if (!serving()) {
            log_path(false);
            return forward();
        }
        enter();
        const kobalt_status st = kobalt();
        leave();
        return finish(st, forward);
    }

    // For routines that make several Kobalt calls (grouped gemm): the same steps apart.
    bool ready();        // Kobalt's cuda backend is loaded (else records why and forwards)
    void enter();        // the handle's stream becomes the thread's Kobalt stream
    void leave();        // ... and the previous one is restored
    void log_path(bool kobalt);
    cublasStatus_t status_of(kobalt_status st); // Kobalt's failure as a cuBLAS status
    template <class F> cublasStatus_t finish(kobalt_status st, F forward) {
        if (st == KOBALT_SUCCESS) {
            log_path(true);
            return CUBLAS_STATUS_SUCCESS;
        }
        if (st == KOBALT_INVALID_ARGUMENT || st == KOBALT_NOT_SUPPORTED || st == KOBALT_NO_BACKEND) {
            refused(st); // nothing was written: cuBLAS runs the whole call
            return forward();
        }
        return status_of(st); // out of memory, or a failure while running
    }

private:
    void refused(kobalt_status st);
    void set_reason(const char *fmt, va_list ap);

    const char *fn_;
    char args_[160] = "";
    char reason_[256] = "";
    void *stream_ = nullptr;
    void *saved_stream_ = nullptr;
};

// Entry points that Kobalt never serves (complex precisions, geqrf, gels): log and forward.
template <class F> cublasStatus_t forward_only(const char *fn, const char *why, F forward) {
    Call call(fn);
    call.forward_if(true, "%s", why);
    return call.run([] { return KOBALT_SUCCESS; }, forward);
}

} // namespace kobalt_cublas
