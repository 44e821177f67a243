/*
 * kt_test.hpp -- everything a correctness test includes: checks, random numbers,
 * poisoned batches, dense helpers, Kobalt/reference wrappers, the size list and a
 * sparse huge mapping for the 64-bit offset tests.
 */
#ifndef KT_TEST_HPP
#define KT_TEST_HPP

#include <sys/mman.h>

#include <cstdlib>

#include <vector>

#include "kt_batch.hpp"
#include "kt_calls.hpp"
#include "kt_check.hpp"
#include "kt_dense.hpp"
#include "kt_rng.hpp"

namespace kt {

/* The sizes every routine is swept over (from the issue): both sides of any size
 * threshold the backend may pick between ~8 and ~64. */
static const kobalt_int kSizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100, 200};

/* kSizes up to KOBALT_TEST_MAX_N when that is set (the sanitized CI step sets 100: above
 * it the same code runs at a cost that grows as n^3, 3.5x slower again under ASan), else
 * all of them. */
inline std::vector<kobalt_int> sizes()
{
    const char *env = getenv("KOBALT_TEST_MAX_N");
    const long most = env && *env ? strtol(env, nullptr, 10) : -1;
    std::vector<kobalt_int> v;
    for (kobalt_int s : kSizes)
        if (most < 0 || s <= most) v.push_back(s);
    return v;
}

static const kobalt_layout kLayouts[] = {KOBALT_COL_MAJOR, KOBALT_ROW_MAJOR};
static const kobalt_op kOps[] = {KOBALT_NO_TRANS, KOBALT_TRANS, KOBALT_CONJ_TRANS};
static const Form kForms[] = {Form::Strided, Form::Batched};

/* The batch-count sweep every routine's test runs: small sizes (the fixed-n kernels) times
 * batches of 1, 3 and a few thousand (a partial last pack or chunk, and more items than one
 * parallel round) times both layouts and both forms. fn(size, batch, layout, form, idx) is
 * called once per combination; idx counts the calls, for the caller to vary the other
 * arguments from. */
template <class F> void for_each_batch_case(F fn)
{
    static const kobalt_int sizes[] = {1, 2, 3, 4, 5, 8};
    static const kobalt_int batches[] = {1, 3, 4099};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_int nb : batches)
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) fn(s, nb, l, f, idx++);
}

template <class T> inline Dense to_dense(const MatBatch<T> &M, kobalt_int i)
{
    return Dense(M.rows, M.cols, M.dense(i));
}
template <class T> inline Dense to_dense(const VecBatch<T> &V, kobalt_int i)
{
    return Dense(V.len, 1, V.dense(i));
}

/* A sparse anonymous mapping of `count` elements (MAP_NORESERVE: only touched pages
 * cost memory), for strides whose offsets exceed 2^31 elements. ok() is false when
 * the system refuses the mapping; the test then skips. */
template <class T> struct SparseMap {
    T *p = nullptr;
    size_t bytes = 0;
    explicit SparseMap(size_t count)
    {
        bytes = count * sizeof(T);
        void *m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (m != MAP_FAILED) p = (T *)m;
    }
    ~SparseMap()
    {
        if (p) munmap(p, bytes);
    }
    SparseMap(const SparseMap &) = delete;
    SparseMap &operator=(const SparseMap &) = delete;
    bool ok() const { return p != nullptr; }
};

/* A stride above 2^31 elements: i*stride overflows 32-bit indices for i >= 1. */
constexpr kobalt_int kHugeStride = ((kobalt_int)1 << 31) + 7;

} // namespace kt

#endif
