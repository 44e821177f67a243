/*
 * kt_batch.hpp -- batches of matrices, vectors and integer arrays laid out in one
 * buffer the way a test hands them to Kobalt, with poisoned padding.
 *
 * A batch owns one buffer: a few guard elements, then the items at their offsets
 * (i*stride for the strided form; reversed order for the pointer-array form so that
 * item i and the memory order differ), then a few guard elements. Every element that
 * is not a logical element of an item (guards, the rows or columns beyond ld, the
 * gap between items, the gaps between strided vector elements) holds a poison value,
 * and check_padding() verifies, bit for bit, that it is still there after a call.
 *
 * stride 0 ("shared") makes every item the same storage, as Kobalt allows for inputs.
 */
#ifndef KT_BATCH_HPP
#define KT_BATCH_HPP

#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kt_check.hpp"
#include "kt_rng.hpp"

namespace kt {

/* Poison values: quiet NaNs with a recognisable payload, and a pattern for ints. */
template <class T> inline T poison();
template <> inline double poison<double>()
{
    uint64_t b = 0x7ff80000deadbeefull;
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}
template <> inline float poison<float>()
{
    uint32_t b = 0x7fc0beefu;
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}
template <> inline int poison<int>() { return 0x5a5a5a5a; }

template <class T> inline bool same_bits(T a, T b) { return memcmp(&a, &b, sizeof a) == 0; }

template <class T> inline const char *type_name();
template <> inline const char *type_name<double>() { return "d"; }
template <> inline const char *type_name<float>() { return "s"; }

enum class Form { Strided, Batched };
inline const char *form_name(Form f) { return f == Form::Strided ? "strided" : "batched"; }
inline const char *layout_name(kobalt_layout l) { return l == KOBALT_ROW_MAJOR ? "row" : "col"; }
inline const char *op_name(kobalt_op t)
{
    return t == KOBALT_NO_TRANS ? "N" : t == KOBALT_TRANS ? "T" : "C";
}

/* Storage shared by the batch kinds: buffer, logical-element mask, item offsets. */
template <class T> struct BatchStorage {
    static constexpr size_t guard = 5;
    std::vector<T> buf;
    std::vector<unsigned char> mask; /* 1: logical element of some item */
    std::vector<int64_t> off;        /* item i starts at base() + off[i] */
    kobalt_int stride = 0;           /* what the strided form passes */
    kobalt_int batch = 0;

    void allocate(kobalt_int nbatch, kobalt_int item_span, kobalt_int item_stride, bool shared,
                  bool reversed)
    {
        batch = nbatch;
        stride = shared ? 0 : item_stride;
        kobalt_int distinct = shared ? std::min<kobalt_int>(nbatch, 1) : nbatch;
        size_t n = guard * 2 + (distinct > 0 ? (size_t)((distinct - 1) * item_stride + item_span) : 0);
        buf.assign(n, poison<T>());
        mask.assign(n, 0);
        off.resize((size_t)nbatch);
        for (kobalt_int i = 0; i < nbatch; i++) {
            kobalt_int slot = shared ? 0 : (reversed ? nbatch - 1 - i : i);
            off[(size_t)i] = slot * item_stride;
        }
    }
    T *base() { return buf.data() + guard; }
    const T *base() const { return buf.data() + guard; }
    T *item(kobalt_int i) { return base() + off[(size_t)i]; }
    const T *item(kobalt_int i) const { return base() + off[(size_t)i]; }
    std::vector<T *> ptrs()
    {
        std::vector<T *> p((size_t)batch);
        for (kobalt_int i = 0; i < batch; i++) p[(size_t)i] = item(i);
        return p;
    }
    std::vector<const T *> cptrs() const
    {
        std::vector<const T *> p((size_t)batch);
        for (kobalt_int i = 0; i < batch; i++) p[(size_t)i] = item(i);
        return p;
    }
    /* Every non-logical element still holds the poison value. */
    long check_padding(const char *what) const
    {
        long bad = 0;
        size_t first = 0;
        for (size_t p = 0; p < buf.size(); p++)
            if (!mask[p] && !same_bits(buf[p], poison<T>())) {
                if (!bad) first = p;
                bad++;
            }
        KT_CHECK(bad == 0, "%s: %ld padding element(s) overwritten (first at offset %td from the "
                 "base pointer)", what, bad, (ptrdiff_t)first - (ptrdiff_t)guard);
        return bad;
    }
    /* Bitwise equal to a snapshot (for inputs, which must not change). */
    long check_unchanged(const std::vector<T> &snapshot, const char *what) const
    {
        long bad = 0;
        for (size_t p = 0; p < buf.size(); p++)
            if (!same_bits(buf[p], snapshot[p])) bad++;
        KT_CHECK(bad == 0, "%s: %ld element(s) of an input changed", what, bad);
        return bad;
    }
};

/* A batch of rows x cols matrices with leading dimension ld in the given layout. */
template <class T> struct MatBatch : BatchStorage<T> {
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_int rows = 0, cols = 0, ld = 1;

    MatBatch() = default;
    /* ld = minimum + ld_extra; stride = ld * (outer dimension) + stride_extra. */
    MatBatch(kobalt_layout l, kobalt_int r, kobalt_int c, kobalt_int nbatch, kobalt_int ld_extra = 0,
             kobalt_int stride_extra = 0, bool shared = false, bool reversed = false)
        : layout(l), rows(r), cols(c)
    {
        kobalt_int inner = l == KOBALT_COL_MAJOR ? r : c;
        kobalt_int outer = l == KOBALT_COL_MAJOR ? c : r;
        ld = std::max<kobalt_int>(1, inner) + ld_extra;
        kobalt_int span = outer > 0 && inner > 0 ? ld * (outer - 1) + inner : 0;
        this->allocate(nbatch, span, ld * outer + stride_extra, shared, reversed);
        for (kobalt_int i = 0; i < nbatch; i++)
            for (kobalt_int cc = 0; cc < c; cc++)
                for (kobalt_int rr = 0; rr < r; rr++) this->mask[pos(i, rr, cc)] = 1;
    }
    size_t pos(kobalt_int i, kobalt_int r, kobalt_int c) const
    {
        return this->guard + (size_t)this->off[(size_t)i] +
               (size_t)(layout == KOBALT_COL_MAJOR ? r + c * ld : r * ld + c);
    }
    T &at(kobalt_int i, kobalt_int r, kobalt_int c) { return this->buf[pos(i, r, c)]; }
    T at(kobalt_int i, kobalt_int r, kobalt_int c) const { return this->buf[pos(i, r, c)]; }

    void fill_random(Rng &rng, double lo = -1.0, double hi = 1.0)
    {
        for (kobalt_int i = 0; i < this->batch; i++)
            for (kobalt_int c = 0; c < cols; c++)
                for (kobalt_int r = 0; r < rows; r++) at(i, r, c) = (T)rng.uniform(lo, hi);
    }
    void fill_value(T v)
    {
        for (kobalt_int i = 0; i < this->batch; i++)
            for (kobalt_int c = 0; c < cols; c++)
                for (kobalt_int r = 0; r < rows; r++) at(i, r, c) = v;
    }
    /* Item i as a dense column-major rows x cols matrix of doubles. */
    std::vector<double> dense(kobalt_int i) const
    {
        std::vector<double> d((size_t)(rows * cols));
        for (kobalt_int c = 0; c < cols; c++)
            for (kobalt_int r = 0; r < rows; r++) d[(size_t)(r + c * rows)] = (double)at(i, r, c);
        return d;
    }
    void set_dense(kobalt_int i, const std::vector<double> &d)
    {
        for (kobalt_int c = 0; c < cols; c++)
            for (kobalt_int r = 0; r < rows; r++) at(i, r, c) = (T)d[(size_t)(r + c * rows)];
    }
};

/* A batch of vectors of length len with increment inc (BLAS semantics: for inc < 0
 * element j lives at (len-1-j)*|inc| from the item pointer). */
template <class T> struct VecBatch : BatchStorage<T> {
    kobalt_int len = 0, inc = 1;

    VecBatch() = default;
    VecBatch(kobalt_int n, kobalt_int increment, kobalt_int nbatch, kobalt_int stride_extra = 0,
             bool shared = false, bool reversed = false)
        : len(n), inc(increment)
    {
        kobalt_int a = inc < 0 ? -inc : inc;
        kobalt_int span = n > 0 ? (n - 1) * a + 1 : 0;
        this->allocate(nbatch, span, std::max<kobalt_int>(span, 1) + stride_extra, shared, reversed);
        for (kobalt_int i = 0; i < nbatch; i++)
            for (kobalt_int j = 0; j < n; j++) this->mask[pos(i, j)] = 1;
    }
    size_t pos(kobalt_int i, kobalt_int j) const
    {
        kobalt_int o = inc > 0 ? j * inc : (len - 1 - j) * (-inc);
        return this->guard + (size_t)this->off[(size_t)i] + (size_t)o;
    }
    T &at(kobalt_int i, kobalt_int j) { return this->buf[pos(i, j)]; }
    T at(kobalt_int i, kobalt_int j) const { return this->buf[pos(i, j)]; }
    void fill_random(Rng &rng, double lo = -1.0, double hi = 1.0)
    {
        for (kobalt_int i = 0; i < this->batch; i++)
            for (kobalt_int j = 0; j < len; j++) at(i, j) = (T)rng.uniform(lo, hi);
    }
    void fill_value(T v)
    {
        for (kobalt_int i = 0; i < this->batch; i++)
            for (kobalt_int j = 0; j < len; j++) at(i, j) = v;
    }
    std::vector<double> dense(kobalt_int i) const
    {
        std::vector<double> d((size_t)len);
        for (kobalt_int j = 0; j < len; j++) d[(size_t)j] = (double)at(i, j);
        return d;
    }
};

/* A batch of int arrays (ipiv, info): item i at i*stride, contiguous, never reversed
 * (Kobalt takes ipiv and info as one array with a stride in both forms). */
struct IntBatch : BatchStorage<int> {
    kobalt_int len = 0;
    IntBatch() = default;
    IntBatch(kobalt_int n, kobalt_int nbatch, kobalt_int stride_extra = 0, bool shared = false)
        : len(n)
    {
        this->allocate(nbatch, n, n + stride_extra, shared, false);
        for (kobalt_int i = 0; i < nbatch; i++)
            for (kobalt_int j = 0; j < n; j++) this->mask[pos(i, j)] = 1;
    }
    size_t pos(kobalt_int i, kobalt_int j) const { return guard + (size_t)off[(size_t)i] + (size_t)j; }
    int &at(kobalt_int i, kobalt_int j) { return buf[pos(i, j)]; }
    int at(kobalt_int i, kobalt_int j) const { return buf[pos(i, j)]; }
    /* Strided form passes base() and stride; a NULL-able pointer for ipiv. */
};

} // namespace kt

#endif
