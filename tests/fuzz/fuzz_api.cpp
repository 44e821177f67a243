// fuzz_api.cpp -- a libFuzzer target that drives the whole public API of libkobalt.
//
// Each input is decoded into one call: a routine of kobalt_routines.def (all 58: every
// generation, both precisions, every form), sizes, leading dimensions, increments,
// strides, descriptors, flags, a batch count, NULL operands or items, and for getrs and
// getri the pivot values. Generation 1 is decoded here; getri, matinv, gemm_semiring and
// pack/unpack in fuzz_generations.inc, the _desc routines in fuzz_desc.inc. Most
// decoded values are valid; a few per parameter are not (ld below the rows, a zero
// increment, a negative stride, an output stride below the item extent, a NULL item,
// an enum out of range, extents that overflow a 64-bit byte offset, pivots outside
// 1..n). The harness holds its own model of docs/api.md's validation rules and knows
// which answer the call owes:
//
//   - invalid arguments: KOBALT_INVALID_ARGUMENT, a message starting with the function
//     name, and every byte of every operand (and of the pointer arrays) untouched;
//   - valid arguments: KOBALT_SUCCESS (or KOBALT_NOT_SUPPORTED when a size, leading
//     dimension or increment exceeds 2^31-1, which the openmp backend refuses), and no
//     element outside the claimed output extents written: gaps between items, padding
//     rows/columns past the logical matrix, skipped vector elements, pivots past
//     min(m, n), and every input operand are compared byte for byte.
//
// Every operand is allocated EXACTLY to the extent its arguments claim (one block per
// strided operand, one block per item of a _batched operand, the pointer arrays
// included), so under AddressSanitizer any read or write past a claimed extent is
// reported. Extents that cannot be allocated (a valid call claiming gigabytes) are
// skipped; invalid calls get what could be allocated (or a 1-element stand-in), since
// the library must not touch them at all.
//
// Built by tests/reliability.cmake as
//   kobalt_fuzz         clang -fsanitize=fuzzer,address,undefined (the libFuzzer binary)
//   kobalt_fuzz_replay  any compiler: the same target behind replay_main.c, which runs
//                       files, folders (the corpus) or N pseudo-random inputs
// A violated expectation prints the decoded call and aborts (a libFuzzer crash).
#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <utility>
#include <vector>

#include "common/kt_api.hpp"
#include "kobalt/kobalt.h"

namespace {

// ---- input decoding -------------------------------------------------------------------
struct Reader {
    const uint8_t *p;
    size_t n, i = 0;
    uint8_t u8() { return i < n ? p[i++] : 0; }
    uint16_t u16() { return uint16_t(u8() | (u8() << 8)); }
};

constexpr int64_t HUGE_DIM = (int64_t(1) << 31) + 5;  // beyond the backend's 32-bit limit
constexpr int64_t CAP_ELEMENTS = int64_t(1) << 22;     // largest operand the harness allocates

// A size: mostly small (both sides of every small-path threshold up to 64), sometimes
// past FEW_ITEMS_LARGE_MIN (256), rarely beyond 2^31 (only useful when the call stays
// empty), rarely negative.
int64_t decode_size(Reader &r) {
    const uint8_t s = r.u8();
    switch (s % 32) {
    case 0 ... 19: return s % 32 % 10;
    case 20 ... 27: return 10 + r.u8() % 55;
    case 28: return 250 + r.u8() % 12;
    case 29: return 1;
    case 30: return (r.u8() & 1) ? HUGE_DIM : -1 - (r.u8() % 3);
    default: return 0;
    }
}

// A leading dimension for an operand whose layout needs at least `need` (max(1, need)).
int64_t decode_ld(Reader &r, int64_t need) {
    const int64_t floor = need > 1 ? need : 1;
    const uint8_t s = r.u8();
    switch (s % 32) {
    case 0 ... 21: return floor + s % 32 % 4;
    case 22 ... 25: return 2 * floor + 1;
    case 26: return floor - 1;                      // invalid (or 0)
    case 27: return -(int64_t)(r.u8() % 3);         // invalid
    case 28: return floor + (int64_t(1) << 31);     // 32-bit overflow: fine for one line
    case 29: return INT64_MAX / 3;                  // span overflows for >= 3 lines
    case 30: return (int64_t(1) << 62) + 1;         // byte overflow for 2 lines
    default: return floor;
    }
}

bool print_calls = false;  // KOBALT_FUZZ_PRINT=1: print each decoded call before it runs

int64_t decode_inc(Reader &r) {
    const uint8_t s = r.u8();
    switch (s % 32) {
    case 0 ... 13: return 1;
    case 14 ... 19: return 2 + s % 2;
    case 20 ... 25: return -1 - s % 3;
    case 26: return 0;  // invalid
    case 27: return (int64_t(1) << 31) + 1;
    case 28: return -((int64_t(1) << 31) + 1);
    // |INT64_MIN| does not exist: invalid for len > 1 (finding 1: the checker once
    // negated it before testing it); INT64_MIN + 1 is valid for len 1 only.
    case 29: return (s & 32) ? INT64_MIN : INT64_MIN + 1;
    case 30: return INT64_MAX / 2;
    default: return 1;
    }
}

// An item stride for an operand whose items span `extent` elements.
int64_t decode_stride(Reader &r, int64_t extent, bool output) {
    const uint8_t s = r.u8();
    switch (s % 32) {
    case 0 ... 17: return extent + s % 32 % 4;
    case 18 ... 21: return output ? extent : (extent > 0 ? r.u8() % extent : 0);  // inputs may overlap
    case 22 ... 23: return 0;  // shared input item / invalid output
    case 24: return extent > 0 ? extent - 1 : 0;  // invalid for outputs with batch > 1
    case 25: return -1 - r.u8() % 2;             // invalid
    case 26: return INT64_MAX / 2;               // overflows with batch > 2 (elements)
    case 27: return INT64_MAX / 8 + 7;           // overflows bytes with batch > 1
    case 28: return INT64_MAX;                   // batch 1: never used
    default: return extent + 2 * (s % 3);
    }
}

int64_t decode_batch(Reader &r) {
    const uint8_t s = r.u8();
    switch (s % 32) {
    case 0 ... 3: return 1;
    case 4 ... 21: return 2 + s % 32 % 5;
    case 22 ... 25: return 0;
    case 26: return -1;
    case 27: return 7 + r.u8() % 10;
    default: return 1 + s % 3;
    }
}

template <class E> E decode_enum(Reader &r, int first, int count) {
    const uint8_t s = r.u8();
    if (s % 32 == 31) return E((s & 32) ? first - 1 : first + count);  // invalid
    if (s % 32 == 30) return E(0);                                    // invalid
    return E(first + s % count);
}

// ---- operands ---------------------------------------------------------------------------
// MAT/VEC: matrix/vector of the strided and batched forms; PIV: pivots (ipiv +
// i*strideIpiv); INFO: one int per item; ILV: the interleaved operand P of pack/unpack
// (element (i, j) of item b at (i + j*rows)*ldp + b); DSC: an operand of a _desc routine,
// element (i, j) of item b at b*batch_stride + i*row_stride + j*col_stride (descIpiv's
// pivots are DSC operands of ints).
enum Kind { MAT, VEC, PIV, INFO, ILV, DSC };

struct Operand {
    Kind kind;
    const char *name;
    bool output;
    size_t elem;  // bytes of one element
    // matrix: stored shape; vector: len, inc; pivots: count per item
    int64_t rows = 0, cols = 0, ld = 1, len = 0, inc = 1, count = 0;
    int64_t stride = 0;      // strided form and pivots
    bool null = false;       // base pointer (strided) or pointer array (batched) NULL
    int64_t null_item = -1;  // batched: this item's pointer NULL
    bool shared_items = false;  // batched input: every item points at item 0
    bool batched = false;       // matrix/vector operand of a _batched call
    // derived
    bool overflow = false;  // one item's extent does not fit a byte offset
    int64_t extent = 0;     // elements of one item
    // memory
    std::vector<void *> blocks;      // allocations (1 for strided/pivots/info, batch for items)
    std::vector<int64_t> sizes;      // their sizes in elements
    std::vector<std::vector<unsigned char>> before;  // snapshots
    void **array = nullptr;          // the pointer array of a batched operand
    std::vector<void *> array_before;
    void *ptr = nullptr;             // what the call receives
    // DSC: the descriptor as decoded, and the copy the call receives (its own exact
    // allocation, NULL when desc_null); nb: the call's batch (ILV and DSC extents need it)
    kobalt_matrix_desc d{};
    bool desc_null = false;
    kobalt_matrix_desc *desc = nullptr;
    int64_t nb = 0;
    bool ints = false;                  // DSC pivots: int elements, not matrix values
    std::vector<unsigned char> mask;    // DSC output of a valid call: which elements it may write
};

constexpr int64_t PTRDIFF_LIMIT = PTRDIFF_MAX;

bool fits_bytes(__int128 elements, size_t elem) { return elements * (__int128)elem <= PTRDIFF_LIMIT; }

// Stored-shape extent with the checker's rules; overflow flagged.
void compute_extent(Operand &o, kobalt_layout layout) {
    o.overflow = false;
    o.extent = 0;
    if (o.kind == MAT) {
        if (o.rows <= 0 || o.cols <= 0 || o.ld < 1) return;  // (ld < 1 is refused anyway)
        const bool col = layout != KOBALT_ROW_MAJOR;
        const __int128 lines = col ? o.cols : o.rows, line_len = col ? o.rows : o.cols;
        const __int128 span = (__int128)o.ld * (lines - 1) + line_len;
        if (span > INT64_MAX || !fits_bytes(span, o.elem)) {
            o.overflow = true;
            return;
        }
        o.extent = (int64_t)span;
    } else if (o.kind == VEC) {
        if (o.len <= 0) return;
        if (o.inc == INT64_MIN) {
            o.overflow = true;
            return;
        }
        const __int128 step = o.inc < 0 ? -(__int128)o.inc : o.inc;
        const __int128 span = step * (o.len - 1) + 1;
        if (span > INT64_MAX || !fits_bytes(span, o.elem)) {
            o.overflow = true;
            return;
        }
        o.extent = (int64_t)span;
    } else if (o.kind == PIV) {
        o.extent = o.count > 0 ? o.count : 0;
    } else if (o.kind == ILV) {  // extent of the whole batch: planes of ldp elements
        if (o.rows <= 0 || o.cols <= 0 || o.nb <= 0 || o.ld < 1) return;
        const __int128 span = ((__int128)o.rows * o.cols - 1) * o.ld + o.nb;
        if (span > INT64_MAX || !fits_bytes(span, o.elem)) {
            o.overflow = true;
            return;
        }
        o.extent = (int64_t)span;
    } else if (o.kind == DSC) {  // extent of the whole batch: last offset + 1
        const kobalt_matrix_desc &d = o.d;
        if (d.rows <= 0 || d.cols <= 0 || o.nb <= 0 || d.row_stride < 0 || d.col_stride < 0 || d.batch_stride < 0)
            return;
        const __int128 last = (__int128)(d.rows - 1) * d.row_stride + (__int128)(d.cols - 1) * d.col_stride +
                              (__int128)(o.nb - 1) * d.batch_stride;
        if (last + 1 > INT64_MAX || !fits_bytes(last + 1, o.elem)) {
            o.overflow = true;
            return;
        }
        o.extent = (int64_t)(last + 1);
    }
}

// docs/api.md, descriptor rule 6, restated: the dimensions longer than 1 (rows, cols,
// batch), sorted by stride, each have a stride above the span of the smaller ones.
bool desc_apart(const kobalt_matrix_desc &d, int64_t batch) {
    int64_t dims[3][2] = {{d.row_stride, d.rows}, {d.col_stride, d.cols}, {d.batch_stride, batch}};
    for (int a = 0; a < 3; ++a)  // three elements: a bubble sort by stride
        for (int b = 0; b + 1 < 3 - a; ++b)
            if (dims[b][0] > dims[b + 1][0]) std::swap(dims[b], dims[b + 1]);
    __int128 span = 0;
    for (auto &dim : dims) {
        if (dim[1] <= 1) continue;
        if (dim[0] <= span) return false;
        span += (__int128)dim[0] * (dim[1] - 1);
        if (span > INT64_MAX) return false;
    }
    return true;
}

bool nonempty(const Operand &o) {
    if (o.kind == MAT || o.kind == ILV) return o.rows > 0 && o.cols > 0;
    if (o.kind == DSC) return o.d.rows > 0 && o.d.cols > 0;
    if (o.kind == VEC) return o.len > 0;
    return false;
}

// docs/api.md, "Argument validation", for one operand of a call whose sizes are valid.
bool operand_valid(const Operand &o, kobalt_layout layout, int64_t batch) {
    if (o.kind == INFO) return !(batch > 0 && o.null);
    if (o.kind == ILV) {  // pack/unpack's P: ldp >= max(1, batch), then as any operand
        if (o.ld < (batch > 1 ? batch : 1)) return false;
        if (!nonempty(o) || batch == 0) return true;
        return !o.null && !o.overflow;
    }
    if (o.kind == DSC) {  // descriptor rules 2, 4, 5, 6 (sizes, rule 3, are the routine's)
        if (o.ints && o.null) return true;  // no pivoting: descIpiv is not read
        const kobalt_matrix_desc &d = o.d;
        if (o.desc_null || d.rows < 0 || d.cols < 0 || d.row_stride < 0 || d.col_stride < 0 || d.batch_stride < 0)
            return false;
        if (!nonempty(o) || batch == 0) return true;
        if (o.null || o.overflow) return false;
        return !o.output || desc_apart(d, batch);
    }
    if (o.kind == PIV) {
        if (o.stride < 0) return false;
        if (o.null || o.count == 0 || batch <= 1) return true;
        if (o.output && o.stride < o.count) return false;
        const __int128 last = (__int128)o.stride * (batch - 1) + o.count;
        return last <= INT64_MAX && fits_bytes(last, sizeof(int));
    }
    const bool filled = nonempty(o);
    if (filled && batch > 0 && o.null) return false;
    if (o.kind == MAT) {
        const int64_t need = layout != KOBALT_ROW_MAJOR ? o.rows : o.cols;
        if (o.ld < (need > 1 ? need : 1)) return false;
    } else if (o.inc == 0) {
        return false;
    }
    if (o.overflow) return false;
    if (o.batched) return !(filled && batch > 0 && o.null_item >= 0 && o.null_item < batch);
    if (o.stride < 0) return false;
    if (o.extent == 0 || batch <= 1) return true;
    if (o.output && o.stride < o.extent) return false;
    const __int128 last = (__int128)o.stride * (batch - 1) + o.extent;
    return last <= INT64_MAX && fits_bytes(last, o.elem);
}

// Elements of the one block of a strided operand (or pivots): -1 when not allocatable.
int64_t strided_elements(const Operand &o, int64_t batch) {
    if (o.kind == INFO) return batch > 0 ? batch : 0;
    if (o.kind == ILV || o.kind == DSC) return o.extent > CAP_ELEMENTS ? -1 : o.extent;  // (0 when overflowing)
    if (o.overflow || o.stride < 0 || batch <= 0 || o.extent == 0) return 0;
    const __int128 total = (__int128)o.stride * (batch - 1) + o.extent;
    return total > CAP_ELEMENTS ? -1 : (int64_t)total;
}

uint64_t rng_state;
uint64_t rng() {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

template <class T> void fill_values(void *p, int64_t count) {
    T *v = static_cast<T *>(p);
    for (int64_t i = 0; i < count; ++i) v[i] = T(int64_t(rng() % 2001) - 1000) / T(250);
}

void *alloc_block(int64_t elements, size_t elem) {
    // Exactly the claimed bytes: malloc(0) still gives a unique pointer with no usable byte.
    void *p = std::malloc(size_t(elements) * elem);
    if (!p && elements > 0) std::abort();
    return p;
}

struct Call {
    const char *fn;
    kobalt_layout layout;
    int64_t batch;
    bool sizes_ok = true;    // every size and enum valid
    bool pivots_ok = true;   // getrs: every read pivot within 1..n
    bool big = false;        // a size, ld or |inc| beyond 2^31-1 (NOT_SUPPORTED allowed)
    std::vector<Operand> ops;
    char text[1024];
};

[[noreturn]] void fail(const Call &c, const char *what) {
    std::fprintf(stderr, "kobalt_fuzz: %s: %s\n  call: %s\n  last error: \"%s\"\n", c.fn, what, c.text,
                 kobalt_last_error());
    std::abort();
}

// Allocates every operand; returns false when a valid call claims more than the cap.
template <class T> bool allocate(Call &c, bool valid) {
    const int64_t batch = c.batch > 0 ? c.batch : 0;
    for (Operand &o : c.ops) {
        if (o.kind != INFO) compute_extent(o, c.layout);
        if (o.kind == DSC && !o.desc_null) {  // the descriptor in its own exact block
            o.desc = static_cast<kobalt_matrix_desc *>(std::malloc(sizeof(kobalt_matrix_desc)));
            *o.desc = o.d;
        }
    }
    for (Operand &o : c.ops) {
        const bool items = o.batched && (o.kind == MAT || o.kind == VEC);
        if (items) {
            const int64_t each = o.overflow ? 0 : o.extent;
            const bool too_big = (__int128)each * batch > CAP_ELEMENTS;
            if (too_big && valid) return false;
            const int64_t use = too_big ? 1 : each;
            o.array = batch > 0 ? static_cast<void **>(std::malloc(size_t(batch) * sizeof(void *))) : nullptr;
            for (int64_t i = 0; i < batch; ++i) {
                void *b;
                if (o.shared_items && !o.output && i > 0) {
                    b = o.blocks[0];
                } else {
                    b = alloc_block(use, o.elem);
                    fill_values<T>(b, use);
                    o.blocks.push_back(b);
                    o.sizes.push_back(use);
                }
                o.array[i] = (i == o.null_item) ? nullptr : b;
            }
            if (o.array) o.array_before.assign(o.array, o.array + batch);
            o.ptr = o.null ? nullptr : (o.array ? static_cast<void *>(o.array) : alloc_block(0, sizeof(void *)));
            if (!o.null && !o.array) {
                o.blocks.push_back(o.ptr);
                o.sizes.push_back(0);
            }
            continue;
        }
        int64_t total = strided_elements(o, batch);
        if (total < 0) {
            if (valid) return false;
            total = 1;
        }
        void *b = alloc_block(total, o.elem);
        if (o.kind == MAT || o.kind == VEC || o.kind == ILV || (o.kind == DSC && !o.ints)) fill_values<T>(b, total);
        else std::memset(b, 0xA5, size_t(total) * o.elem);
        o.blocks.push_back(b);
        o.sizes.push_back(total);
        o.ptr = o.null ? nullptr : b;
    }
    for (Operand &o : c.ops)
        for (size_t k = 0; k < o.blocks.size(); ++k) {
            const unsigned char *p = static_cast<const unsigned char *>(o.blocks[k]);
            o.before.emplace_back(p, p + size_t(o.sizes[k]) * o.elem);
        }
    return true;
}

void release(Call &c) {
    for (Operand &o : c.ops) {
        for (void *b : o.blocks) std::free(b);
        std::free(o.array);
        std::free(o.desc);
    }
}

// May element `e` of block `k` of output operand o have been written by a valid call?
bool writable(const Operand &o, int64_t e, const Call &c) {
    if (!o.output) return false;
    if (o.kind == INFO) return true;
    if (o.kind == DSC) return e < (int64_t)o.mask.size() && o.mask[size_t(e)];
    if (o.kind == ILV) return e / o.ld < o.rows * o.cols && e % o.ld < c.batch;
    int64_t off = e;
    if (!o.batched || o.kind == PIV) {  // one block: item i at i*stride
        if (o.extent == 0) return false;
        if (c.batch > 1) {
            off = e % o.stride;
            if (off >= o.extent) return false;  // the gap between two items
        }
    }
    if (o.kind == PIV) return off < o.count;
    if (o.kind == VEC) {
        const int64_t step = o.inc < 0 ? -o.inc : o.inc;
        return off % step == 0 && off / step < o.len;
    }
    const bool col = c.layout != KOBALT_ROW_MAJOR;
    const int64_t line = off / o.ld, pos = off % o.ld;
    return col ? (pos < o.rows && line < o.cols) : (pos < o.cols && line < o.rows);
}

void check_memory(const Call &c, bool all_untouched) {
    for (const Operand &o : c.ops) {
        if (o.desc && std::memcmp(o.desc, &o.d, sizeof o.d) != 0) fail(c, "a descriptor was written");
        if (o.array && !o.array_before.empty() && std::memcmp(o.array, o.array_before.data(), o.array_before.size() * sizeof(void *)) != 0)
            fail(c, "a pointer array was written");
        for (size_t k = 0; k < o.blocks.size(); ++k) {
            const unsigned char *now = static_cast<const unsigned char *>(o.blocks[k]);
            const std::vector<unsigned char> &was = o.before[k];
            if (was.empty() || std::memcmp(now, was.data(), was.size()) == 0) continue;
            if (all_untouched) {
                char why[160];
                std::snprintf(why, sizeof why, "%s was written although the call must not touch it", o.name);
                fail(c, why);
            }
            for (int64_t e = 0; e < o.sizes[k]; ++e)
                if (std::memcmp(now + size_t(e) * o.elem, was.data() + size_t(e) * o.elem, o.elem) != 0 &&
                    !writable(o, e, c)) {
                    char why[200];
                    std::snprintf(why, sizeof why, "%s: element %" PRId64 " of block %zu written outside the claimed extent",
                                  o.name, e, k);
                    fail(c, why);
                }
        }
    }
}

// The elements of a DSC output of an accepted call, item by item: the mask of what the
// call may write. False when two elements share an offset: the core's proof (rule 6)
// accepted an operand that overlaps itself.
bool mark_elements(const Call &c, Operand &o) {
    o.mask.assign(o.sizes.empty() ? 0 : size_t(o.sizes[0]), 0);
    const kobalt_matrix_desc &d = o.d;
    for (int64_t b = 0; b < c.batch; ++b)
        for (int64_t j = 0; j < d.cols; ++j)
            for (int64_t i = 0; i < d.rows; ++i) {
                const int64_t e = b * d.batch_stride + i * d.row_stride + j * d.col_stride;
                if (e < 0 || e >= (int64_t)o.mask.size()) fail(c, "an element lies outside the harness's block");
                if (o.mask[size_t(e)]) return false;
                o.mask[size_t(e)] = 1;
            }
    return true;
}

void judge(Call &c, kobalt_status st) {
    bool valid = c.sizes_ok && c.pivots_ok && c.batch >= 0;
    if (valid)
        for (const Operand &o : c.ops) valid = valid && operand_valid(o, c.layout, c.batch);
    if (!valid) {
        if (st != KOBALT_INVALID_ARGUMENT) fail(c, "invalid arguments not refused with KOBALT_INVALID_ARGUMENT");
        const char *msg = kobalt_last_error();
        if (std::strncmp(msg, c.fn, std::strlen(c.fn)) != 0 || msg[std::strlen(c.fn)] != ':')
            fail(c, "message does not start with the function name");
        check_memory(c, true);
        return;
    }
    if (st == KOBALT_NOT_SUPPORTED && c.big) {
        check_memory(c, true);
        return;
    }
    if (st != KOBALT_SUCCESS) fail(c, "valid call did not succeed");
    if (c.batch > 0)
        for (Operand &o : c.ops)
            if (o.kind == DSC && o.output && !o.null && !mark_elements(c, o))
                fail(c, "accepted a written operand whose elements share memory");
    check_memory(c, c.batch == 0);
}

// ---- the routines ------------------------------------------------------------------------
Operand matrix(const char *name, bool output, size_t elem, int64_t rows, int64_t cols, bool batched) {
    Operand o;
    o.kind = MAT, o.name = name, o.output = output, o.elem = elem, o.rows = rows, o.cols = cols;
    o.batched = batched;
    return o;
}
Operand vector(const char *name, bool output, size_t elem, int64_t len, bool batched) {
    Operand o;
    o.kind = VEC, o.name = name, o.output = output, o.elem = elem, o.len = len, o.batched = batched;
    return o;
}

// Stored shape of op(M) = r x c.
void op_shape(kobalt_op op, int64_t r, int64_t c, int64_t &rows, int64_t &cols) {
    if (op == KOBALT_NO_TRANS) rows = r, cols = c;
    else rows = c, cols = r;
}

bool valid_op(kobalt_op o) { return o == KOBALT_NO_TRANS || o == KOBALT_TRANS || o == KOBALT_CONJ_TRANS; }

// Decodes leading dimension / increment / stride / NULL flags of every matrix/vector
// operand and every pivot stride, after the shapes are set.
void decode_operands(Reader &r, Call &c) {
    for (Operand &o : c.ops) {
        if (o.kind == MAT) {
            const int64_t need = c.layout != KOBALT_ROW_MAJOR ? o.rows : o.cols;
            o.ld = decode_ld(r, need < 0 ? 0 : need);
            if (std::abs(o.ld) > INT32_MAX) c.big = true;
        } else if (o.kind == VEC) {
            o.inc = decode_inc(r);
            if (o.inc > INT32_MAX || o.inc < -INT32_MAX) c.big = true;
        } else if (o.kind == ILV) {
            o.ld = decode_ld(r, c.batch > 1 ? c.batch : 1);  // ldp
        }
    }
    for (Operand &o : c.ops) {
        if (o.kind == MAT || o.kind == VEC || o.kind == PIV) {
            compute_extent(o, c.layout);
            o.stride = decode_stride(r, o.extent, o.output);
        }
        const uint8_t s = r.u8();
        if (o.kind == PIV) {
            o.null = (s % 4 == 3);
        } else {
            // NULL base pointer or pointer array; valid when the items are empty (finding 2:
            // the backend once loaded A[i] from a NULL array when gemm's k was 0).
            o.null = (s % 64 == 63);
            if (o.batched && c.batch > 0) {
                if (s % 64 == 62) o.null_item = r.u8() % c.batch;
                o.shared_items = !o.output && (s % 8 == 5);
            }
        }
    }
}

// Appends the batch and every operand to the call's text (c.text holds the routine's own
// arguments) and prints it under KOBALT_FUZZ_PRINT.
void finish_text(Call &c) {
    size_t used = std::strlen(c.text);
    used += std::snprintf(c.text + used, sizeof c.text - used, " batch=%" PRId64, c.batch);
    for (const Operand &o : c.ops) {
        if (used >= sizeof c.text) break;
        if (o.kind == MAT)
            used += std::snprintf(c.text + used, sizeof c.text - used, " %s[%" PRId64 "x%" PRId64 " ld=%" PRId64
                                  " stride=%" PRId64 "%s%s]", o.name, o.rows, o.cols, o.ld, o.stride,
                                  o.null ? " NULL" : "", o.null_item >= 0 ? " null-item" : "");
        else if (o.kind == VEC)
            used += std::snprintf(c.text + used, sizeof c.text - used, " %s[len=%" PRId64 " inc=%" PRId64
                                  " stride=%" PRId64 "%s%s]", o.name, o.len, o.inc, o.stride,
                                  o.null ? " NULL" : "", o.null_item >= 0 ? " null-item" : "");
        else if (o.kind == PIV)
            used += std::snprintf(c.text + used, sizeof c.text - used, " %s[count=%" PRId64 " stride=%" PRId64 "%s]",
                                  o.name, o.count, o.stride, o.null ? " NULL" : "");
        else if (o.kind == ILV)
            used += std::snprintf(c.text + used, sizeof c.text - used, " %s[%" PRId64 "x%" PRId64 " ldp=%" PRId64 "%s]",
                                  o.name, o.rows, o.cols, o.ld, o.null ? " NULL" : "");
        else if (o.kind == DSC)
            used += std::snprintf(c.text + used, sizeof c.text - used,
                                  " %s[{%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "}%s%s]", o.name,
                                  o.d.rows, o.d.cols, o.d.row_stride, o.d.col_stride, o.d.batch_stride,
                                  o.null ? " NULL" : "", o.desc_null ? " desc=NULL" : "");
        else
            used += std::snprintf(c.text + used, sizeof c.text - used, " %s%s", o.name, o.null ? "=NULL" : "");
    }
    if (print_calls) std::fprintf(stderr, "kobalt_fuzz: %s\n", c.text);
}

// The prelude of every decoder (generation 1 below, fuzz_generations.inc, fuzz_desc.inc),
// once the operands are decoded and c.text holds the routine's arguments: finishes the
// text, zeroes the shapes of a call whose sizes or enums are invalid (tiny stand-ins: the
// call must refuse anyway; descriptors keep theirs), decides validity with the model,
// allocates. False: a valid call claims more memory than the harness allocates; skip it.
template <class T> bool prepare(Call &c) {
    finish_text(c);
    if (!c.sizes_ok)
        for (Operand &o : c.ops)
            if (o.kind != DSC) o.rows = o.cols = o.len = o.count = 0;
    bool valid = c.sizes_ok && c.batch >= 0;
    if (valid)
        for (Operand &o : c.ops) {
            compute_extent(o, c.layout);
            valid = valid && operand_valid(o, c.layout, c.batch);
        }
    return allocate<T>(c, valid);
}

template <class T> T *P(const Operand &o) { return static_cast<T *>(o.ptr); }
template <class T> T *const *PA(const Operand &o) { return static_cast<T *const *>(o.ptr); }

// Keeps the work of one input bounded: big items only in small batches.
void bound_batch(Call &c, int64_t largest) {
    if (largest > 64 && c.batch > 2) c.batch = 2;
}

// The sizes of a standard-form call: a negative one makes the call invalid, one beyond
// 2^31-1 allows KOBALT_NOT_SUPPORTED; the largest in range bounds the batch.
void size_check(Call &c, std::initializer_list<int64_t> sizes) {
    int64_t largest = 0;
    for (int64_t s : sizes) {
        if (s < 0) c.sizes_ok = false;
        if (s > INT32_MAX) c.big = true;
        if (s > largest && s <= INT32_MAX) largest = s;
    }
    bound_batch(c, largest);
}

template <class T>
void run_generation2_4(Reader &r, Call &c, int family, bool batched, T alpha, T beta, char *fnbuf, size_t fnsize);

template <class T> void run(Reader &r, int family, bool batched) {
    Call c;
    const char p = sizeof(T) == 8 ? 'd' : 's';
    const size_t E = sizeof(T);
    static char fnbuf[64];
    c.fn = fnbuf;
    c.layout = decode_enum<kobalt_layout>(r, KOBALT_ROW_MAJOR, 2);
    c.batch = decode_batch(r);
    if (c.layout != KOBALT_ROW_MAJOR && c.layout != KOBALT_COL_MAJOR) c.sizes_ok = false;
    const T alpha = T(int(r.u8() % 5) - 2) / T(2), beta = T(int(r.u8() % 5) - 2) / T(2);
    kobalt_status st = KOBALT_SUCCESS;
    const char *form = batched ? "batched" : "strided";
    switch (family) {
    case 0: {  // gemm
        std::snprintf(fnbuf, sizeof fnbuf, "kobalt_%cgemm_%s", p, form);
        const auto ta = decode_enum<kobalt_op>(r, KOBALT_NO_TRANS, 3), tb = decode_enum<kobalt_op>(r, KOBALT_NO_TRANS, 3);
        const int64_t m = decode_size(r), n = decode_size(r), k = decode_size(r);
        if (!valid_op(ta) || !valid_op(tb)) c.sizes_ok = false;
        size_check(c, {m, n, k});
        int64_t ar, ac, br, bc;
        op_shape(ta, m, k, ar, ac);
        op_shape(tb, k, n, br, bc);
        c.ops = {matrix("A", false, E, ar, ac, batched), matrix("B", false, E, br, bc, batched),
                 matrix("C", true, E, m, n, batched)};
        decode_operands(r, c);
        std::snprintf(c.text, sizeof c.text, "%s layout=%d transa=%d transb=%d m=%" PRId64 " n=%" PRId64 " k=%" PRId64,
                      fnbuf, c.layout, ta, tb, m, n, k);
        if (!prepare<T>(c)) break;
        const Operand &A = c.ops[0], &B = c.ops[1], &C = c.ops[2];
        if (batched)
            st = Api<T>::gemm_batched(c.layout, ta, tb, m, n, k, alpha, PA<const T>(A), A.ld, PA<const T>(B), B.ld, beta,
                                      PA<T>(C), C.ld, c.batch);
        else
            st = Api<T>::gemm_strided(c.layout, ta, tb, m, n, k, alpha, P<const T>(A), A.ld, A.stride, P<const T>(B),
                                      B.ld, B.stride, beta, P<T>(C), C.ld, C.stride, c.batch);
        judge(c, st);
        break;
    }
    case 1: {  // gemv
        std::snprintf(fnbuf, sizeof fnbuf, "kobalt_%cgemv_%s", p, form);
        const auto t = decode_enum<kobalt_op>(r, KOBALT_NO_TRANS, 3);
        const int64_t m = decode_size(r), n = decode_size(r);
        if (!valid_op(t)) c.sizes_ok = false;
        size_check(c, {m, n});
        const bool nt = t == KOBALT_NO_TRANS;
        c.ops = {matrix("A", false, E, m, n, batched), vector("x", false, E, nt ? n : m, batched),
                 vector("y", true, E, nt ? m : n, batched)};
        decode_operands(r, c);
        std::snprintf(c.text, sizeof c.text, "%s layout=%d trans=%d m=%" PRId64 " n=%" PRId64, fnbuf, c.layout, t, m, n);
        if (!prepare<T>(c)) break;
        const Operand &A = c.ops[0], &x = c.ops[1], &y = c.ops[2];
        if (batched)
            st = Api<T>::gemv_batched(c.layout, t, m, n, alpha, PA<const T>(A), A.ld, PA<const T>(x), x.inc, beta,
                                      PA<T>(y), y.inc, c.batch);
        else
            st = Api<T>::gemv_strided(c.layout, t, m, n, alpha, P<const T>(A), A.ld, A.stride, P<const T>(x), x.inc,
                                      x.stride, beta, P<T>(y), y.inc, y.stride, c.batch);
        judge(c, st);
        break;
    }
    case 2: {  // trsv
        std::snprintf(fnbuf, sizeof fnbuf, "kobalt_%ctrsv_%s", p, form);
        const auto u = decode_enum<kobalt_uplo>(r, KOBALT_UPPER, 2);
        const auto t = decode_enum<kobalt_op>(r, KOBALT_NO_TRANS, 3);
        const auto d = decode_enum<kobalt_diag>(r, KOBALT_NON_UNIT, 2);
        const int64_t n = decode_size(r);
        if (!valid_op(t) || (u != KOBALT_UPPER && u != KOBALT_LOWER) || (d != KOBALT_UNIT && d != KOBALT_NON_UNIT))
            c.sizes_ok = false;
        size_check(c, {n});
        c.ops = {matrix("A", false, E, n, n, batched), vector("x", true, E, n, batched)};
        decode_operands(r, c);
        std::snprintf(c.text, sizeof c.text, "%s layout=%d uplo=%d trans=%d diag=%d n=%" PRId64, fnbuf, c.layout, u, t, d, n);
        if (!prepare<T>(c)) break;
        const Operand &A = c.ops[0], &x = c.ops[1];
        if (batched)
            st = Api<T>::trsv_batched(c.layout, u, t, d, n, PA<const T>(A), A.ld, PA<T>(x), x.inc, c.batch);
        else
            st = Api<T>::trsv_strided(c.layout, u, t, d, n, P<const T>(A), A.ld, A.stride, P<T>(x), x.inc, x.stride,
                                      c.batch);
        judge(c, st);
        break;
    }
    case 3: {  // trsm
        std::snprintf(fnbuf, sizeof fnbuf, "kobalt_%ctrsm_%s", p, form);
        const auto s = decode_enum<kobalt_side>(r, KOBALT_LEFT, 2);
        const auto u = decode_enum<kobalt_uplo>(r, KOBALT_UPPER, 2);
        const auto t = decode_enum<kobalt_op>(r, KOBALT_NO_TRANS, 3);
        const auto d = decode_enum<kobalt_diag>(r, KOBALT_NON_UNIT, 2);
        const int64_t m = decode_size(r), n = decode_size(r);
        if (!valid_op(t) || (u != KOBALT_UPPER && u != KOBALT_LOWER) || (d != KOBALT_UNIT && d != KOBALT_NON_UNIT) ||
            (s != KOBALT_LEFT && s != KOBALT_RIGHT))
            c.sizes_ok = false;
        size_check(c, {m, n});
        const int64_t na = s == KOBALT_LEFT ? m : n;
        c.ops = {matrix("A", false, E, na, na, batched), matrix("B", true, E, m, n, batched)};
        decode_operands(r, c);
        std::snprintf(c.text, sizeof c.text, "%s layout=%d side=%d uplo=%d trans=%d diag=%d m=%" PRId64 " n=%" PRId64,
                      fnbuf, c.layout, s, u, t, d, m, n);
        if (!prepare<T>(c)) break;
        const Operand &A = c.ops[0], &B = c.ops[1];
        if (batched)
            st = Api<T>::trsm_batched(c.layout, s, u, t, d, m, n, alpha, PA<const T>(A), A.ld, PA<T>(B), B.ld, c.batch);
        else
            st = Api<T>::trsm_strided(c.layout, s, u, t, d, m, n, alpha, P<const T>(A), A.ld, A.stride, P<T>(B), B.ld,
                                      B.stride, c.batch);
        judge(c, st);
        break;
    }
    case 4: {  // getrf
        std::snprintf(fnbuf, sizeof fnbuf, "kobalt_%cgetrf_%s", p, form);
        const int64_t m = decode_size(r), n = decode_size(r);
        size_check(c, {m, n});
        Operand piv;
        piv.kind = PIV, piv.name = "ipiv", piv.output = true, piv.elem = sizeof(int);
        piv.count = m < n ? m : n;
        Operand info;
        info.kind = INFO, info.name = "info", info.output = true, info.elem = sizeof(int);
        c.ops = {matrix("A", true, E, m, n, batched), piv, info};
        decode_operands(r, c);
        std::snprintf(c.text, sizeof c.text, "%s layout=%d m=%" PRId64 " n=%" PRId64, fnbuf, c.layout, m, n);
        if (!prepare<T>(c)) break;
        const Operand &A = c.ops[0], &I = c.ops[1], &F = c.ops[2];
        if (batched)
            st = Api<T>::getrf_batched(c.layout, m, n, PA<T>(A), A.ld, P<int>(I), I.stride, P<int>(F), c.batch);
        else
            st = Api<T>::getrf_strided(c.layout, m, n, P<T>(A), A.ld, A.stride, P<int>(I), I.stride, P<int>(F), c.batch);
        judge(c, st);
        break;
    }
    case 5: {  // getrs
        std::snprintf(fnbuf, sizeof fnbuf, "kobalt_%cgetrs_%s", p, form);
        const auto t = decode_enum<kobalt_op>(r, KOBALT_NO_TRANS, 3);
        const int64_t n = decode_size(r), nrhs = decode_size(r);
        if (!valid_op(t)) c.sizes_ok = false;
        size_check(c, {n, nrhs});
        Operand piv;
        piv.kind = PIV, piv.name = "ipiv", piv.output = false, piv.elem = sizeof(int);
        piv.count = n;
        c.ops = {matrix("A", false, E, n, n, batched), piv, matrix("B", true, E, n, nrhs, batched)};
        decode_operands(r, c);
        const uint8_t bad = r.u8();
        std::snprintf(c.text, sizeof c.text, "%s layout=%d trans=%d n=%" PRId64 " nrhs=%" PRId64 " badpiv=%d", fnbuf,
                      c.layout, t, n, nrhs, bad % 16 == 15);
        if (!prepare<T>(c)) break;
        Operand &I = c.ops[1];
        // Pivot values: valid (1..n) everywhere, or one bad value in a read position.
        if (I.ptr && I.sizes[0] > 0 && n > 0 && n <= INT32_MAX) {
            int *v = static_cast<int *>(I.ptr);
            for (int64_t e = 0; e < I.sizes[0]; ++e) v[e] = 1 + int(rng() % uint64_t(n));
            if (bad % 16 == 15 && c.batch > 0) {
                const int64_t item = int64_t(rng() % uint64_t(c.batch)), j = int64_t(rng() % uint64_t(n));
                const __int128 at = (__int128)item * I.stride + j;
                if (at >= 0 && at < I.sizes[0]) {
                    v[at] = (bad & 16) ? 0 : ((bad & 32) ? int(n) + 1 : -7);
                    c.pivots_ok = false;
                }
            }
            I.before[0].assign(reinterpret_cast<unsigned char *>(v),
                               reinterpret_cast<unsigned char *>(v) + size_t(I.sizes[0]) * sizeof(int));
        }
        const Operand &A = c.ops[0], &B = c.ops[2];
        if (batched)
            st = Api<T>::getrs_batched(c.layout, t, n, nrhs, PA<const T>(A), A.ld, P<const int>(I), I.stride, PA<T>(B),
                                       B.ld, c.batch);
        else
            st = Api<T>::getrs_strided(c.layout, t, n, nrhs, P<const T>(A), A.ld, A.stride, P<const int>(I), I.stride,
                                       P<T>(B), B.ld, B.stride, c.batch);
        judge(c, st);
        break;
    }
    case 6: {  // gemm_lu_trsv
        std::snprintf(fnbuf, sizeof fnbuf, "kobalt_%cgemm_lu_trsv_%s", p, form);
        const auto tx = decode_enum<kobalt_op>(r, KOBALT_NO_TRANS, 3), ty = decode_enum<kobalt_op>(r, KOBALT_NO_TRANS, 3);
        const int64_t n = decode_size(r), k = decode_size(r), nrhs = decode_size(r);
        if (!valid_op(tx) || !valid_op(ty)) c.sizes_ok = false;
        size_check(c, {n, k, nrhs});
        int64_t xr, xc, yr, yc;
        op_shape(tx, n, k, xr, xc);
        op_shape(ty, k, n, yr, yc);
        Operand piv;
        piv.kind = PIV, piv.name = "ipiv", piv.output = true, piv.elem = sizeof(int);
        piv.count = n;
        Operand info;
        info.kind = INFO, info.name = "info", info.output = true, info.elem = sizeof(int);
        c.ops = {matrix("X", false, E, xr, xc, batched), matrix("Y", false, E, yr, yc, batched),
                 matrix("A", true, E, n, n, batched), piv, matrix("B", true, E, n, nrhs, batched), info};
        decode_operands(r, c);
        std::snprintf(c.text, sizeof c.text, "%s layout=%d transx=%d transy=%d n=%" PRId64 " k=%" PRId64
                      " nrhs=%" PRId64, fnbuf, c.layout, tx, ty, n, k, nrhs);
        if (!prepare<T>(c)) break;
        const Operand &X = c.ops[0], &Y = c.ops[1], &A = c.ops[2], &I = c.ops[3], &B = c.ops[4], &F = c.ops[5];
        if (batched)
            st = Api<T>::gemm_lu_trsv_batched(c.layout, tx, ty, n, k, nrhs, alpha, PA<const T>(X), X.ld, PA<const T>(Y),
                                              Y.ld, beta, PA<T>(A), A.ld, P<int>(I), I.stride, PA<T>(B), B.ld,
                                              P<int>(F), c.batch);
        else
            st = Api<T>::gemm_lu_trsv_strided(c.layout, tx, ty, n, k, nrhs, alpha, P<const T>(X), X.ld, X.stride,
                                              P<const T>(Y), Y.ld, Y.stride, beta, P<T>(A), A.ld, A.stride, P<int>(I),
                                              I.stride, P<T>(B), B.ld, B.stride, P<int>(F), c.batch);
        judge(c, st);
        break;
    }
    default:
        run_generation2_4<T>(r, c, family, batched, alpha, beta, fnbuf, sizeof fnbuf);
        return;  // it releases c
    }
    release(c);
}

}  // namespace

#include "fuzz_generations.inc"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    // Only the host backend, whatever else the plugin folder holds.
    setenv("KOBALT_BACKENDS", "openmp", 0);
    const char *pc = getenv("KOBALT_FUZZ_PRINT");
    print_calls = pc && *pc && std::strcmp(pc, "0") != 0;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Reader r{data, size};
    const uint8_t which = r.u8();
    rng_state = 0x6b6f62616c74ull ^ (uint64_t(size) << 32);
    for (size_t i = 0; i < size; ++i) rng_state = rng_state * 31 + data[i];
    // Routine ids 0..27 are generation 1 (family = id % 7, batched = id / 7 % 2, float =
    // id / 14 % 2), the meaning every byte had before generations 2-4 were added: a first
    // byte of 0..27 still decodes as it always did. 28..57 are generations 2-4 (ROUTINES).
    // A first byte of 28..255 picks id (byte - 28) % 58, so every routine is reachable.
    const int id = which < 28 ? which : (which - 28) % 58;
    if (id < 28) {
        const int family = id % 7;
        const bool batched = (id / 7) % 2, single = (id / 14) % 2;
        if (single) run<float>(r, family, batched);
        else run<double>(r, family, batched);
        return 0;
    }
    const int g = id - 28;
    if (g < 12) {  // getri, matinv, gemm_semiring: families 7..9, both forms
        const int family = 7 + g % 3;
        const bool batched = (g / 3) % 2, single = g / 6;
        if (single) run<float>(r, family, batched);
        else run<double>(r, family, batched);
    } else if (g < 26) {  // the seven _desc routines
        const int family = (g - 12) % 7;
        if ((g - 12) / 7) run_desc<float>(r, family);
        else run_desc<double>(r, family);
    } else {  // pack_interleaved, unpack_interleaved: families 10, 11
        const int family = 10 + (g - 26) % 2;
        if ((g - 26) / 2) run<float>(r, family, false);
        else run<double>(r, family, false);
    }
    return 0;
}
