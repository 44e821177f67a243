// test_overflow.cpp -- integer safety: every argument combination whose extent overflows
// a 64-bit element index or a 64-bit byte offset is refused with KOBALT_INVALID_ARGUMENT
// and nothing is written.
//
// For every routine of kobalt_routines.def (both precisions, both forms, both layouts)
// and every leading dimension, increment, item stride and strideIpiv of it, the valid
// baseline call (all sizes 3, batch 3) is mutated into, in turn:
//   elements      ld*(lines-1), |inc|*(len-1) or stride*(batch-1) beyond INT64_MAX
//   bytes         the same fits int64 in elements, but not in bytes (times sizeof)
//   ..., batch 2  stride INT64_MAX (elements) or PTRDIFF_MAX/sizeof (bytes) with batch 2
//   negative      increments of both kinds below zero, INT64_MIN and INT64_MIN + 1
// and each must be refused with KOBALT_INVALID_ARGUMENT, nothing written. A stride of
// INT64_MAX with batch 1 (never used) is valid and must not be refused.
// Each case runs in a child process, so a library that accepts one and addresses wild
// memory fails that case instead of the whole test.
#include <sys/wait.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/kt_api.hpp"
#include "kobalt/kobalt.h"

namespace {

using Params = std::map<std::string, int64_t>;
constexpr int64_t N3 = 3, ITEM = 9, BATCH = 3;

template <class T> struct Buffers {
    std::vector<T> A, B, C, X, Y;
    std::vector<int> ipiv, info;
    std::vector<const T *> pa, pb, px, py;
    std::vector<T *> pB, pC, pA;
    Buffers() : A(ITEM * BATCH, T(1)), B(ITEM * BATCH, T(2)), C(ITEM * BATCH, T(3)), X(ITEM * BATCH, T(0.5)),
                Y(ITEM * BATCH, T(0.25)), ipiv(N3 * BATCH, 1), info(BATCH, -5) {
        for (int i = 0; i < BATCH; ++i) {
            A[i * ITEM] = A[i * ITEM + 4] = A[i * ITEM + 8] = T(4);
            pa.push_back(A.data() + i * ITEM), pb.push_back(B.data() + i * ITEM);
            px.push_back(X.data() + i * ITEM), py.push_back(Y.data() + i * ITEM);
            pA.push_back(A.data() + i * ITEM), pB.push_back(B.data() + i * ITEM), pC.push_back(C.data() + i * ITEM);
        }
    }
    std::vector<unsigned char> bytes() const {
        std::vector<unsigned char> all;
        auto add = [&](const void *p, size_t n) {
            const unsigned char *c = static_cast<const unsigned char *>(p);
            all.insert(all.end(), c, c + n);
        };
        for (const std::vector<T> *v : {&A, &B, &C, &X, &Y}) add(v->data(), v->size() * sizeof(T));
        add(ipiv.data(), ipiv.size() * sizeof(int));
        add(info.data(), info.size() * sizeof(int));
        return all;
    }
};

struct Routine {
    std::string name;
    std::vector<std::string> lds, incs, strides;  // names of the integer arguments to mutate
    bool has_ipiv_stride;
    // Calls the routine with the baseline overridden by p; T picked by the caller.
    std::function<kobalt_status(const Params &, bool single)> call;
};

int64_t get(const Params &p, const char *k, int64_t dflt) {
    auto it = p.find(k);
    return it == p.end() ? dflt : it->second;
}

// Runs call<T> on fresh buffers; returns "" when refused and untouched, else the problem.
template <class T> std::string refused(const Params &p, const std::string &fn) {
    Buffers<T> b;
    const std::vector<unsigned char> before = b.bytes();
    const auto L = kobalt_layout(get(p, "layout", KOBALT_COL_MAJOR));
    const auto N = KOBALT_NO_TRANS;
    const int64_t bt = get(p, "batch", BATCH);
#define I(k, d) get(p, k, d)
    kobalt_status st = KOBALT_SUCCESS;
    if (fn == "gemm_strided")
        st = Api<T>::gemm_strided(L, N, N, 3, 3, 3, T(1), b.A.data(), I("lda", 3), I("strideA", ITEM), b.B.data(), I("ldb", 3),
                                  I("strideB", ITEM), T(0), b.C.data(), I("ldc", 3), I("strideC", ITEM), bt);
    else if (fn == "gemm_batched")
        st = Api<T>::gemm_batched(L, N, N, 3, 3, 3, T(1), b.pa.data(), I("lda", 3), b.pb.data(), I("ldb", 3), T(0),
                                  b.pC.data(), I("ldc", 3), bt);
    else if (fn == "gemv_strided")
        st = Api<T>::gemv_strided(L, N, 3, 3, T(1), b.A.data(), I("lda", 3), I("strideA", ITEM), b.X.data(), I("incx", 1),
                                  I("stridex", ITEM), T(0), b.C.data(), I("incy", 1), I("stridey", ITEM), bt);
    else if (fn == "gemv_batched")
        st = Api<T>::gemv_batched(L, N, 3, 3, T(1), b.pa.data(), I("lda", 3), b.px.data(), I("incx", 1), T(0),
                                  b.pC.data(), I("incy", 1), bt);
    else if (fn == "trsv_strided")
        st = Api<T>::trsv_strided(L, KOBALT_UPPER, N, KOBALT_NON_UNIT, 3, b.A.data(), I("lda", 3), I("strideA", ITEM),
                                  b.B.data(), I("incx", 1), I("stridex", ITEM), bt);
    else if (fn == "trsv_batched")
        st = Api<T>::trsv_batched(L, KOBALT_UPPER, N, KOBALT_NON_UNIT, 3, b.pa.data(), I("lda", 3), b.pB.data(),
                                  I("incx", 1), bt);
    else if (fn == "trsm_strided")
        st = Api<T>::trsm_strided(L, KOBALT_LEFT, KOBALT_UPPER, N, KOBALT_NON_UNIT, 3, 3, T(1), b.A.data(), I("lda", 3),
                                  I("strideA", ITEM), b.B.data(), I("ldb", 3), I("strideB", ITEM), bt);
    else if (fn == "trsm_batched")
        st = Api<T>::trsm_batched(L, KOBALT_LEFT, KOBALT_UPPER, N, KOBALT_NON_UNIT, 3, 3, T(1), b.pa.data(), I("lda", 3),
                                  b.pB.data(), I("ldb", 3), bt);
    else if (fn == "getrf_strided")
        st = Api<T>::getrf_strided(L, 3, 3, b.A.data(), I("lda", 3), I("strideA", ITEM), b.ipiv.data(),
                                   I("strideIpiv", 3), b.info.data(), bt);
    else if (fn == "getrf_batched")
        st = Api<T>::getrf_batched(L, 3, 3, b.pA.data(), I("lda", 3), b.ipiv.data(), I("strideIpiv", 3), b.info.data(), bt);
    else if (fn == "getrs_strided")
        st = Api<T>::getrs_strided(L, N, 3, 3, b.A.data(), I("lda", 3), I("strideA", ITEM), b.ipiv.data(),
                                   I("strideIpiv", 3), b.B.data(), I("ldb", 3), I("strideB", ITEM), bt);
    else if (fn == "getrs_batched")
        st = Api<T>::getrs_batched(L, N, 3, 3, b.pa.data(), I("lda", 3), b.ipiv.data(), I("strideIpiv", 3), b.pB.data(),
                                   I("ldb", 3), bt);
    else if (fn == "gemm_lu_trsv_strided")
        st = Api<T>::gemm_lu_trsv_strided(L, N, N, 3, 3, 3, T(1), b.X.data(), I("ldx", 3), I("strideX", ITEM), b.Y.data(),
                                          I("ldy", 3), I("strideY", ITEM), T(1), b.A.data(), I("lda", 3),
                                          I("strideA", ITEM), b.ipiv.data(), I("strideIpiv", 3), b.B.data(), I("ldb", 3),
                                          I("strideB", ITEM), b.info.data(), bt);
    else if (fn == "gemm_lu_trsv_batched")
        st = Api<T>::gemm_lu_trsv_batched(L, N, N, 3, 3, 3, T(1), b.px.data(), I("ldx", 3), b.py.data(), I("ldy", 3), T(1),
                                          b.pA.data(), I("lda", 3), b.ipiv.data(), I("strideIpiv", 3), b.pB.data(),
                                          I("ldb", 3), b.info.data(), bt);
    else
        return "unknown routine " + fn;
#undef I
    if (p.count("expect_valid")) return st == KOBALT_SUCCESS || st == KOBALT_NOT_SUPPORTED
                                           ? "" : std::string("expected success, got ") + kobalt_status_name(st) +
                                                      " (" + kobalt_last_error() + ")";
    if (st != KOBALT_INVALID_ARGUMENT) return std::string("not refused: ") + kobalt_status_name(st);
    if (b.bytes() != before) return "refused, but operands were written";
    return "";
}

struct Family {
    const char *name;
    std::vector<std::string> lds, incs, strides;
    bool ipiv;
};

}  // namespace

int main() {
    const std::vector<Family> families = {
        {"gemm", {"lda", "ldb", "ldc"}, {}, {"strideA", "strideB", "strideC"}, false},
        {"gemv", {"lda"}, {"incx", "incy"}, {"strideA", "stridex", "stridey"}, false},
        {"trsv", {"lda"}, {"incx"}, {"strideA", "stridex"}, false},
        {"trsm", {"lda", "ldb"}, {}, {"strideA", "strideB"}, false},
        {"getrf", {"lda"}, {}, {"strideA"}, true},
        {"getrs", {"lda", "ldb"}, {}, {"strideA", "strideB"}, true},
        {"gemm_lu_trsv", {"ldx", "ldy", "lda", "ldb"}, {}, {"strideX", "strideY", "strideA", "strideB"}, true},
    };
    // Load the backends once, before the children fork (loading starts no thread): each
    // child inherits them instead of loading them again (a second per case under ASan).
    std::printf("%d backend(s) loaded\n", kobalt_backend_count());
    int cases = 0, failed = 0;
    for (int single = 0; single <= 1; ++single) {
        const int64_t elem = single ? sizeof(float) : sizeof(double);
        for (const Family &f : families)
            for (const char *form : {"strided", "batched"})
                for (int layout : {KOBALT_COL_MAJOR, KOBALT_ROW_MAJOR}) {
                    const std::string fn = std::string(f.name) + "_" + form;
                    std::vector<std::pair<std::string, Params>> todo;
                    // lines - 1 = 2 (every operand is 3 x 3, every vector has 3 elements)
                    const int64_t elements = INT64_MAX / 2 + 1, bytes = PTRDIFF_MAX / elem / 2 + 1;
                    auto add = [&](const std::string &what, Params p) {
                        p["layout"] = layout;
                        todo.emplace_back(what, p);
                    };
                    for (const std::string &ld : f.lds) {
                        add(ld + " elements", {{ld, elements}});
                        add(ld + " bytes", {{ld, bytes}});
                    }
                    for (const std::string &inc : f.incs) {
                        add(inc + " elements", {{inc, elements}});
                        add(inc + " bytes", {{inc, bytes}});
                        add(inc + " negative elements", {{inc, -elements}});
                        add(inc + " negative bytes", {{inc, -bytes}});
                        add(inc + " INT64_MIN", {{inc, INT64_MIN}});  // |INT64_MIN| does not exist
                        add(inc + " INT64_MIN + 1", {{inc, INT64_MIN + 1}});
                    }
                    std::vector<std::string> strides = std::string(form) == "strided" ? f.strides
                                                                                       : std::vector<std::string>{};
                    if (f.ipiv) strides.push_back("strideIpiv");
                    for (const std::string &s : strides) {
                        const int64_t e = s == "strideIpiv" ? int64_t(sizeof(int)) : elem;
                        add(s + " elements", {{s, elements}});
                        add(s + " bytes", {{s, PTRDIFF_MAX / e / 2 + 1}});
                        add(s + " elements, batch 2", {{s, INT64_MAX}, {"batch", 2}});
                        add(s + " bytes, batch 2", {{s, PTRDIFF_MAX / e}, {"batch", 2}});
                        // batch 1: the stride is never used, any value >= 0 is valid
                        add(s + " INT64_MAX with batch 1 (valid)", {{s, INT64_MAX}, {"batch", 1}, {"expect_valid", 1}});
                    }
                    for (const auto &[what, p] : todo) {
                        ++cases;
                        std::fflush(stdout);
                        const pid_t pid = fork();
                        if (pid == 0) {
                            const std::string problem = single ? refused<float>(p, fn) : refused<double>(p, fn);
                            if (!problem.empty())
                                std::printf("FAIL kobalt_%c%s %s [%s]: %s\n", single ? 's' : 'd', fn.c_str(),
                                            layout == KOBALT_ROW_MAJOR ? "row-major" : "col-major", what.c_str(),
                                            problem.c_str());
                            std::fflush(stdout);
                            _exit(problem.empty() ? 0 : 1);
                        }
                        int status = 0;
                        waitpid(pid, &status, 0);
                        if (WIFSIGNALED(status))
                            std::printf("FAIL kobalt_%c%s %s [%s]: crashed (signal %d)\n", single ? 's' : 'd',
                                        fn.c_str(), layout == KOBALT_ROW_MAJOR ? "row-major" : "col-major", what.c_str(),
                                        WTERMSIG(status));
                        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
                    }
                }
    }
    std::printf("%d overflow cases, %d failed\n", cases, failed);
    return failed ? 1 : 0;
}
