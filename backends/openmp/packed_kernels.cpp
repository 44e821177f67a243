// packed_kernels.cpp -- standard-layout items through the interleaved kernels
// (packed_kernels.hpp) for one instruction set. Compiled once per ISA with KOBALT_IL_ISA
// and KOBALT_IL_BYTES set, like interleaved_kernels.cpp; everything but the entry points
// has internal linkage.
#include "packed_kernels.hpp"

#include <cstdint>
#include <type_traits>

#include "pack_ops.hpp"
#include "team.hpp"

namespace {

namespace il = kobalt_interleaved;
using il::Operand;
using il::Pivots;
using kobalt_openmp::fixed::Items;
using kobalt_openmp::fixed::dense_cols;
using kobalt_openmp::fixed::dense_rows;
using kobalt_openmp::fixed::Mat;
using kobalt_openmp::interleaved::PackPrefetch;

static_assert(il::MAX_N >= kobalt_openmp::fixed::FIXED_MAX_N, "the packed path covers 1..FIXED_MAX_N");

// Columns of B copied per block: keeps a pack's blocks within a few KiB of L1 whatever nrhs.
constexpr int B_COLUMNS = 8;

template <class T> KOBALT_IL_FN T *item(const Items<T> &it, int64_t i) {
    return it.ptrs ? it.ptrs[i] : it.base + i * it.stride;
}

// One item as a lane operand, in place (the last, partial pack).
template <class T> KOBALT_IL_FN Operand<T> in_place(T *p, Mat m) {
    return m.unit_rows ? Operand<T>{p, 1, m.ld} : Operand<T>{p, m.ld, 1};
}
// A pack's block: R rows, element (i, j) of lane l at blk[(i + j*R)*W + l].
template <class T, int W, int R> KOBALT_IL_FN Operand<T> block(T *blk) { return Operand<T>{blk, W, int64_t(R) * W}; }
inline Pivots pack_pivots(int *ipiv, int64_t first, int64_t sipiv) {
    return Pivots{ipiv ? ipiv + first * sipiv : nullptr, 1, sipiv};
}
inline Pivots item_pivots(int *ipiv, int64_t i, int64_t sipiv) {
    return Pivots{ipiv ? ipiv + i * sipiv : nullptr, 1, 0};
}

// Column-major items with ld == R (dense_cols): the R x C elements copied are one contiguous
// run of E = R*C per item, and block element e of lane l is the run's element e. So W x W
// tiles move as W vector loads (one per item), a register transpose and W vector stores; the
// E mod W elements left are one more tile overlapping the one before (the same values
// written twice), or, when E < W, element by element.
// Whether a routine's N x N items are small enough for the tiles (PACKED_TILE_MAX_BYTES,
// PACKED_FUSED_TILE_MAX_BYTES): from memory, larger ones copied element by element won.
template <class T, int N> inline bool tiles_for(int64_t tile_max) { return int64_t(N * N * sizeof(T)) <= tile_max; }
template <int W, class T> struct DenseCopy {
    using V = typename PackOps<T, W>::V;
    static KOBALT_IL_FN void gather_tile(T *__restrict__ blk, const T *const *p, int64_t e) {
        V v[W];
        KOBALT_IL_UNROLL for (int l = 0; l < W; ++l) v[l] = PackOps<T, W>::load(p[l] + e);
        transpose<W>(v);
        KOBALT_IL_UNROLL for (int k = 0; k < W; ++k) PackOps<T, W>::store(blk + (e + k) * W, v[k]);
    }
    static KOBALT_IL_FN void scatter_tile(T *const *p, const T *__restrict__ blk, int64_t e, const int *keep) {
        V v[W];
        KOBALT_IL_UNROLL for (int k = 0; k < W; ++k) v[k] = PackOps<T, W>::load(blk + (e + k) * W);
        transpose<W>(v);
        KOBALT_IL_UNROLL for (int l = 0; l < W; ++l)
            if (!keep || keep[l] == 0) PackOps<T, W>::store(p[l] + e, v[l]);
    }
    // Items' runs start at p[l] + off.
    static KOBALT_IL_FN void gather(T *__restrict__ blk, const T *const *p, int64_t off, int E) {
        const T *q[W];
        KOBALT_IL_UNROLL for (int l = 0; l < W; ++l) q[l] = p[l] + off;
        if (E < W) {
            for (int e = 0; e < E; ++e) KOBALT_IL_UNROLL for (int l = 0; l < W; ++l) blk[e * W + l] = q[l][e];
            return;
        }
        int e = 0;
        for (; e + W <= E; e += W) gather_tile(blk, q, e);
        if (e < E) gather_tile(blk, q, E - W);
    }
    static KOBALT_IL_FN void scatter(T *const *p, const T *__restrict__ blk, int64_t off, int E, const int *keep) {
        T *q[W];
        KOBALT_IL_UNROLL for (int l = 0; l < W; ++l) q[l] = p[l] + off;
        if (E < W) {
            for (int e = 0; e < E; ++e)
                KOBALT_IL_UNROLL for (int l = 0; l < W; ++l) if (!keep || keep[l] == 0) q[l][e] = blk[e * W + l];
            return;
        }
        int e = 0;
        for (; e + W <= E; e += W) scatter_tile(q, blk, e, keep);
        if (e < E) scatter_tile(q, blk, E - W, keep);
    }
};

// Rows 0..R-1, columns c0..c0+C-1 of the W items p[l] into the block (column c0 first):
// as tiles where `tiles` (the routine's item size is within its PACKED_*TILE_MAX_BYTES) and
// the items are dense columns, else element by element, the inner loop following the
// item's storage, so every item is read contiguously.
template <int W, int R, class T>
KOBALT_IL_FN void gather(bool tiles, T *__restrict__ blk, const T *const *p, Mat m, int c0, int C) {
    const int64_t ld = m.ld;
    if (tiles && dense_cols(m, R)) return DenseCopy<W, T>::gather(blk, p, int64_t(c0) * R, R * C);
    for (int l = 0; l < W; ++l) {
        const T *__restrict__ q = p[l];
        if (m.unit_rows) {
            for (int j = 0; j < C; ++j)
                KOBALT_IL_UNROLL for (int i = 0; i < R; ++i) blk[(i + j * R) * W + l] = q[i + (c0 + j) * ld];
        } else {
            KOBALT_IL_UNROLL for (int i = 0; i < R; ++i)
                for (int j = 0; j < C; ++j) blk[(i + j * R) * W + l] = q[i * ld + c0 + j];
        }
    }
}
// The reverse copy; lanes whose keep[l] != 0 (an item's info) are not written at all.
template <int W, int R, class T>
KOBALT_IL_FN void scatter(bool tiles, T *const *p, const T *__restrict__ blk, Mat m, int c0, int C,
                          const int *keep) {
    const int64_t ld = m.ld;
    if (tiles && dense_cols(m, R)) return DenseCopy<W, T>::scatter(p, blk, int64_t(c0) * R, R * C, keep);
    for (int l = 0; l < W; ++l) {
        if (keep && keep[l] != 0) continue;
        T *__restrict__ q = p[l];
        if (m.unit_rows) {
            for (int j = 0; j < C; ++j)
                KOBALT_IL_UNROLL for (int i = 0; i < R; ++i) q[i + (c0 + j) * ld] = blk[(i + j * R) * W + l];
        } else {
            KOBALT_IL_UNROLL for (int i = 0; i < R; ++i)
                for (int j = 0; j < C; ++j) q[i * ld + c0 + j] = blk[(i + j * R) * W + l];
        }
    }
}

// Whole items (all C columns; getrf's): row-major items with ld == C are one contiguous run as
// well. Copied as tiles, they land in the block in row order (element (i, j) at (i*C + j)*W),
// and the LU reads the block as such: the same operations, so the same results. Rows is a
// template parameter so that the column-major copy is compiled as before, with its block's
// strides as constants. In cache (one thread, AMD Zen 5) the element-by-element copy had made
// row-major getrf 1.2-1.9x slower than column-major at n = 2 ... 8 (docs/performance.md,
// "getrf of row-major items: tiles in row order").
inline bool row_run(bool tiles, Mat m, int C) { return tiles && dense_rows(m, C); }
template <class T, int W, int R, bool Rows> KOBALT_IL_FN Operand<T> block_in(T *blk, int C) {
    if constexpr (Rows) return Operand<T>{blk, int64_t(C) * W, W};
    else return block<T, W, R>(blk);
}
// Rows 0..R-1 and all C columns of the W items into the block, and back.
template <int W, int R, bool Rows, class T>
KOBALT_IL_FN void gather_whole(bool tiles, T *__restrict__ blk, const T *const *p, Mat m, int C) {
    if constexpr (Rows) DenseCopy<W, T>::gather(blk, p, 0, R * C);
    else gather<W, R>(tiles, blk, p, m, 0, C);
}
template <int W, int R, bool Rows, class T>
KOBALT_IL_FN void scatter_whole(bool tiles, T *const *p, const T *__restrict__ blk, Mat m, int C, const int *keep) {
    if constexpr (Rows) DenseCopy<W, T>::scatter(p, blk, 0, R * C, keep);
    else scatter<W, R>(tiles, p, blk, m, 0, C, keep);
}
// body(std::true_type) where rows, else body(std::false_type): one copy of the body each,
// inlined (KOBALT_IL_LAMBDA) as the code it replaced was.
#define KOBALT_IL_LAMBDA __attribute__((always_inline))
template <class Body> KOBALT_IL_FN void in_order(bool rows, const Body &body) {
    if (rows) body(std::true_type{});
    else body(std::false_type{});
}
// The storage prefetch_ahead sees: a row-major item with ld == C is the same run of R*C
// elements as a column-major one with ld == R.
inline Mat as_run(Mat m, int R, int C) { return dense_rows(m, C) ? Mat{R, true} : m; }

// The pack `ahead` packs past pack b, into L2, where one operand's pack of dense column-major
// items is at least `from` bytes (PACKED_PREFETCH_BYTES): the tile copies read the W items
// of a pack side by side, which the hardware prefetchers follow less well than the
// element-by-element copy's item-by-item reads. A strided batch whose items touch is one
// run of lines; otherwise the lines of each item. WRITE: the lines will be written.
template <int W, bool WRITE = false, class T>
KOBALT_IL_FN void prefetch_ahead(int64_t from, int ahead, const Items<T> &it, Mat m, int R, int C, int64_t b,
                                 int64_t batch) {
    const int bytes = int(sizeof(T)) * R * C;
    b += int64_t(ahead) * W;
    // bytes == 0: an empty operand (B with nrhs = 0), whose items may be NULL: nothing to fetch.
    if (bytes == 0 || int64_t(W) * bytes < from || b + W > batch || !dense_cols(m, R)) return;
    const auto lines = [](const T *p, int n) {
        const char *q = reinterpret_cast<const char *>(p);
        for (int o = 0; o < n; o += 64) __builtin_prefetch(q + o, WRITE, 1);
        __builtin_prefetch(q + n - 1, WRITE, 1);
    };
    if (!it.ptrs && it.stride == int64_t(R) * C) return lines(item(it, b), W * bytes);
    for (int l = 0; l < W; ++l) lines(item(it, b + l), bytes);
}
// How many packs ahead: as many as cover PACKED_PREFETCH_AHEAD_BYTES of the pack's operands
// (pack_bytes, every operand's W items together), 1 to MAX_PACKS_AHEAD. The fixed distance
// of six packs (before session 47; still the default's effect) puts up to 72 KiB in flight
// (the double fused call at n = 8), more than L1 holds; on AMD Zen 5, with tile copies,
// about 8 KiB ahead made the double fused call 1.07-1.10x faster (docs/performance.md,
// "The packed path on AMD Zen 5: tiles for the double fused call, prefetched 8 KiB ahead").
constexpr int MAX_PACKS_AHEAD = 6;
inline int packs_ahead(int64_t ahead_bytes, int64_t pack_bytes) {
    const int64_t p = pack_bytes > 0 ? (ahead_bytes + pack_bytes - 1) / pack_bytes : 1;
    return p < 1 ? 1 : p > MAX_PACKS_AHEAD ? MAX_PACKS_AHEAD : int(p);
}

// body(q) for every pack q of W items (the last one may be partial), statically split over
// the OpenMP threads; no parallel region for a single pack, or where the region would have
// one thread (team.hpp).
template <int W, class Body> void over_packs(int64_t batch, const Body &body) {
    const int64_t packs = (batch + W - 1) / W;
    kobalt_openmp::for_chunks(packs, [&body](int64_t lo, int64_t hi, int) {
        for (int64_t q = lo; q < hi; ++q) body(q * W);
    });
}

// The LU of one pack in its block (il::lu's step helpers in the same order, so the same
// results), one column in registers at a time: column j is searched, swapped and scaled in
// registers, then every other column is loaded, swapped (and, right of j, updated) and
// stored back. il::getrf copies the block into N*N column vectors and holds them all at
// once, 64 at N = 8 for 32 registers: in cache `perf` put 38% of its samples on the spills.
// getrf takes it from PACKED_LU_BLOCK_MIN (_FLOAT): on AMD Zen 5 from memory double n = 7
// 1.27x, n = 8 1.10x faster, n = 4 ... 6 level, float n = 5, 6 0.88-0.95x (docs/
// performance.md, "getrf at double n = 7, 8: the packed LU one column at a time"). The fused
// call keeps il::fused: the same LU there gained 2-4%. RowOrder: the block holds element (i, c)
// at (i*C + c)*W (getrf's row-major items copied as tiles); the same operations, so the same
// results.
template <class O, int N, int C = N, bool RowOrder = false>
KOBALT_IL_FN void lu_block(typename O::T *blk, bool pivoting, typename O::I *pv, typename O::I &info) {
    using V = typename O::V;
    constexpr int W = int(sizeof(V) / sizeof(typename O::T));
    const auto at = [blk](int i, int c) { return blk + (RowOrder ? i * C + c : i + c * N) * W; };
    info = O::isplat(0);
    KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) {
        V col[N];
        KOBALT_IL_UNROLL for (int i = j; i < N; ++i) col[i] = O::load(at(i, j));
        V pivot = col[j];
        typename O::M hit[N];
        bool swaps = false;
        if (pivoting) {
            pivot = il::find_pivot<O, N>(col, j, pv[j]);
            swaps = il::swap_masks<O, N>(pivot, pv[j], j, hit);
            if (swaps) il::swap_rows_where<O, N>(col, j, hit);
        }
        il::scale_below_pivot<O, N>(col, j, pivot, pivoting, info);
        KOBALT_IL_UNROLL for (int i = j; i < N; ++i) O::store(at(i, j), col[i]);
        KOBALT_IL_UNROLL for (int c = 0; c < C; ++c) {
            if (c == j || (c < j && !swaps)) continue;
            V x[N];
            KOBALT_IL_UNROLL for (int i = j; i < N; ++i) x[i] = O::load(at(i, c));
            if (swaps) il::swap_rows_where<O, N>(x, j, hit);
            if (c > j) {
                const V u = x[j];
                KOBALT_IL_UNROLL for (int i = j + 1; i < N; ++i) x[i] -= col[i] * u;
            }
            KOBALT_IL_UNROLL for (int i = j; i < N; ++i) O::store(at(i, c), x[i]);
        }
    }
}

template <class T, int N>
void getrf_n(PackPrefetch prefetch, int64_t tile_max, int lu_block_min, Items<T> A, Mat a, int *ipiv, int64_t sipiv,
             int *info, int64_t batch) {
    constexpr int W = lanes_of<T>();
    const bool tiles = tiles_for<T, N>(tile_max);
    const int ahead = packs_ahead(prefetch.ahead, int64_t(W) * N * N * sizeof(T));
    over_packs<W>(batch, [&](int64_t b) {
        if (b + W > batch) {
            for (int64_t i = b; i < batch; ++i)
                il::getrf<il::ScalarOps<T>, N, N>(N, in_place(item(A, i), a), item_pivots(ipiv, i, sipiv), info + i);
            return;
        }
        T *p[W];
        for (int l = 0; l < W; ++l) p[l] = item(A, b + l);
        prefetch_ahead<W, true>(prefetch.from, ahead, A, as_run(a, N, N), N, N, b, batch);
        alignas(64) T blk[N * N * W]; // one block for both orders' copies of the body
        in_order(row_run(tiles, a, N), [&](auto rows) KOBALT_IL_LAMBDA {
            constexpr bool Rows = decltype(rows)::value;
            gather_whole<W, N, Rows>(tiles, blk, p, a, N);
            if (N >= lu_block_min) {
                using O = PackOps<T, W>;
                typename O::I pv[N], inf;
                lu_block<O, N, N, Rows>(blk, ipiv != nullptr, pv, inf);
                if (ipiv) il::store_pivots<O>(pack_pivots(ipiv, b, sipiv), N, pv);
                O::store_ints(info + b, 1, inf);
            } else {
                il::getrf<PackOps<T, W>, N, N>(N, block_in<T, W, N, Rows>(blk, N), pack_pivots(ipiv, b, sipiv),
                                               info + b);
            }
            scatter_whole<W, N, Rows>(tiles, p, blk, a, N, nullptr);
        });
    });
}

template <class T, int N>
void getrs_n(bool trans, PackPrefetch prefetch, int nrhs, Items<const T> A, Mat a, const int *ipiv_in, int64_t sipiv,
             Items<T> B, Mat bm, int64_t batch) {
    constexpr int W = lanes_of<T>();
    constexpr bool tiles = true; // every n: double n = 8, nrhs = 4, from memory 1.04x the element copies
    int *const ipiv = const_cast<int *>(ipiv_in); // Pivots is mutable; getrs only reads it
    const int b_cols = nrhs < B_COLUMNS ? nrhs : B_COLUMNS;
    const int ahead = packs_ahead(prefetch.ahead, int64_t(W) * N * (N + b_cols) * int64_t(sizeof(T)));
    over_packs<W>(batch, [&](int64_t b) {
        if (b + W > batch) {
            for (int64_t i = b; i < batch; ++i)
                il::getrs<il::ScalarOps<T>, N>(trans, nrhs, in_place(item(A, i), a), item_pivots(ipiv, i, sipiv),
                                               in_place(item(B, i), bm));
            return;
        }
        const T *pa[W];
        T *pb[W];
        for (int l = 0; l < W; ++l) {
            pa[l] = item(A, b + l);
            pb[l] = item(B, b + l);
        }
        prefetch_ahead<W>(prefetch.from, ahead, A, a, N, N, b, batch);
        prefetch_ahead<W, true>(prefetch.from, ahead, B, bm, N, b_cols, b, batch);
        alignas(64) T ablk[N * N * W];
        alignas(64) T bblk[N * B_COLUMNS * W];
        gather<W, N>(tiles, ablk, pa, a, 0, N);
        for (int c0 = 0; c0 < nrhs; c0 += B_COLUMNS) {
            const int nc = nrhs - c0 < B_COLUMNS ? nrhs - c0 : B_COLUMNS;
            gather<W, N>(tiles, bblk, pb, bm, c0, nc);
            il::getrs<PackOps<T, W>, N>(trans, nc, block<const T, W, N>(ablk), pack_pivots(ipiv, b, sipiv),
                                        block<T, W, N>(bblk));
            scatter<W, N>(tiles, pb, bblk, bm, c0, nc, nullptr);
        }
    });
}

// The fused call's right-hand sides after the LU: lanes with info > 0 keep their B, so
// they are never copied back (keep = the pack's info), and a pack with none solved is done.
template <int W> inline bool any_solved(const int *keep) {
    bool any = false;
    for (int l = 0; l < W; ++l) any |= keep[l] == 0;
    return any;
}
// Columns c_first .. nrhs-1 of the pack's B, B_COLUMNS at a time through bblk, solved with
// the factors in the block ablk.
template <class T, int W, int N>
KOBALT_IL_FN void solve_b_blocks(bool tiles, int c_first, int nrhs, const T *ablk, Pivots pv, T *const *pb, Mat bm,
                                 T *bblk, const int *keep) {
    for (int c0 = c_first; c0 < nrhs; c0 += B_COLUMNS) {
        const int nc = nrhs - c0 < B_COLUMNS ? nrhs - c0 : B_COLUMNS;
        gather<W, N>(tiles, bblk, pb, bm, c0, nc);
        il::getrs<PackOps<T, W>, N>(false, nc, block<const T, W, N>(ablk), pv, block<T, W, N>(bblk));
        scatter<W, N>(tiles, pb, bblk, bm, c0, nc, keep);
    }
}

// The fused call's pack formed item by item (PACKED_FUSED_BY_ITEM_MAX_BYTES; N == W, so that an
// item's column is one vector, and X and A are dense column-major): each item's
// alpha X Y + beta A in N column vectors straight from its storage (the fixed-n gemm's way,
// X and Y never transposed), stored item after item and transposed into the block as W x W
// tiles; then, with one right-hand side, [A | b] is factored in the block by lu_block (b
// leaves as L^-1 P b) and only the back solve remains; with more, getrs from the block.
// On AMD Zen 5 at double n = 8, in L2 / L3 1.05-1.55x faster than the per-item kernel
// (fused_item.cpp) and Kobalt's own three calls / this 1.13-1.48; from memory 0.88-1.03 of the
// per-item kernel, so PACKED_FUSED_BY_ITEM_MAX_BYTES bounds the call (docs/performance.md,
// "The fused call at double n = 8: the pack formed item by item").
template <class O, int N>
KOBALT_IL_FN void item_product(typename O::T alpha, const typename O::T *x, const typename O::T *y, Mat ym,
                               typename O::T beta, const typename O::T *a, typename O::T *out) {
    using T = typename O::T;
    using V = typename O::V;
    V acc[N];
    KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) acc[j] = O::splat(T(0));
    if (alpha != T(0)) {
        const int64_t ld = ym.ld;
        KOBALT_IL_UNROLL for (int p = 0; p < N; ++p) {
            const V xp = O::load(x + p * N);
            KOBALT_IL_UNROLL for (int j = 0; j < N; ++j)
                acc[j] += xp * O::splat(ym.unit_rows ? y[p + j * ld] : y[p * ld + j]);
        }
    }
    KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) {
        V v = acc[j] * alpha;
        if (beta != T(0)) v += O::load(a + j * N) * beta; // beta == 0: A not read
        O::store(out + j * N, v);
    }
}

// U x = y in place for the lanes' upper triangles in the block's first N columns, y the
// block's column N (il::solve's back substitution, read from the block).
template <class O, int N> KOBALT_IL_FN void back_solve_block(typename O::T *blk) {
    using V = typename O::V;
    constexpr int W = int(sizeof(V) / sizeof(typename O::T));
    const auto at = [blk](int i, int c) { return blk + (i + c * N) * W; };
    V x[N];
    KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) x[i] = O::load(at(i, N));
    il::back_substitute<O, N>([&at](int i, int j) { return O::load(at(i, j)); }, x);
    KOBALT_IL_UNROLL for (int i = 0; i < N; ++i) O::store(at(i, N), x[i]);
}

// One full pack of the fused call formed item by item (above); px, py, pa, pb: the W items.
template <class T, int N>
KOBALT_IL_FN void fused_pack_by_item(T alpha, const T *const *px, const T *const *py, Mat y, T beta, T *const *pa,
                                     Mat a, int *ipiv, int64_t sipiv, int nrhs, T *const *pb, Mat bm, int *info,
                                     int64_t b) {
    constexpr int W = lanes_of<T>();
    static_assert(N == W, "an item's column is one vector");
    using O = PackOps<T, W>;
    constexpr int B_IN_LU = 1; // columns of B factored with A (nrhs == 1)
    alignas(64) T prod[W * N * N];
    alignas(64) T blk[N * (N + B_COLUMNS) * W]; // A's N columns, then a block of B's
    const T *pp[W];
    KOBALT_IL_UNROLL for (int l = 0; l < W; ++l) {
        item_product<O, N>(alpha, px[l], py[l], y, beta, pa[l], prod + l * N * N);
        pp[l] = prod + l * N * N;
    }
    gather<W, N>(true, blk, pp, Mat{N, true}, 0, N);
    T *const bblk = blk + N * N * W;
    const bool augmented = nrhs == B_IN_LU;
    if (augmented) gather<W, N>(true, bblk, pb, bm, 0, B_IN_LU);
    typename O::I pvs[N], inf;
    if (augmented)
        lu_block<O, N, N + B_IN_LU>(blk, ipiv != nullptr, pvs, inf);
    else
        lu_block<O, N>(blk, ipiv != nullptr, pvs, inf);
    const Pivots pv = pack_pivots(ipiv, b, sipiv);
    if (ipiv) il::store_pivots<O>(pv, N, pvs);
    O::store_ints(info + b, 1, inf);
    scatter<W, N>(true, pa, blk, a, 0, N, nullptr);
    const int *const keep = info + b;
    if (!any_solved<W>(keep)) return;
    if (augmented) {
        back_solve_block<O, N>(blk);
        scatter<W, N>(true, pb, bblk, bm, 0, B_IN_LU, keep);
        return;
    }
    solve_b_blocks<T, W, N>(true, 0, nrhs, blk, pv, pb, bm, bblk, keep);
}

template <class T, int N>
void fused_n(PackPrefetch prefetch, int64_t tile_max, bool by_item, T alpha, Items<const T> X, Mat x, Items<const T> Y,
             Mat y, T beta, Items<T> A, Mat a, int *ipiv, int64_t sipiv, int nrhs, Items<T> B, Mat bm, int *info,
             int64_t batch) {
    constexpr int W = lanes_of<T>();
    using O = PackOps<T, W>;
    const bool tiles = tiles_for<T, N>(tile_max);
    const int b_cols = nrhs < B_COLUMNS ? nrhs : B_COLUMNS; // of the pack's first block of B
    const int x_y = alpha != T(0) ? 2 * N : 0;                // X and Y, read only when alpha != 0
    const int ahead = packs_ahead(prefetch.ahead, int64_t(W) * N * (x_y + N + b_cols) * int64_t(sizeof(T)));
    over_packs<W>(batch, [&](int64_t b) {
        if (b + W > batch) {
            for (int64_t i = b; i < batch; ++i)
                il::fused<il::ScalarOps<T>, N>(N, nrhs, alpha, in_place(item(X, i), x), in_place(item(Y, i), y), beta,
                                               in_place(item(A, i), a), item_pivots(ipiv, i, sipiv),
                                               in_place(item(B, i), bm), info + i);
            return;
        }
        const T *px[W], *py[W];
        T *pa[W], *pb[W];
        for (int l = 0; l < W; ++l) {
            px[l] = item(X, b + l);
            py[l] = item(Y, b + l);
            pa[l] = item(A, b + l);
            pb[l] = item(B, b + l);
        }
        // b_cols computed again: with the outer value captured GCC 12 -O3 warns, falsely,
        // that the B block's accesses below are out of bounds (-Warray-bounds).
        const int nc0 = nrhs < B_COLUMNS ? nrhs : B_COLUMNS;
        if (alpha != T(0)) {
            prefetch_ahead<W>(prefetch.from, ahead, X, x, N, N, b, batch);
            prefetch_ahead<W>(prefetch.from, ahead, Y, y, N, N, b, batch);
        }
        prefetch_ahead<W, true>(prefetch.from, ahead, A, a, N, N, b, batch);
        prefetch_ahead<W, true>(prefetch.from, ahead, B, bm, N, nc0, b, batch);
        if constexpr (N == W) {
            if (by_item) { // X and A dense columns: packed::fused_by_item checked
                fused_pack_by_item<T, N>(alpha, px, py, y, beta, pa, a, ipiv, sipiv, nrhs, pb, bm, info, b);
                return;
            }
        }
        alignas(64) T xblk[N * N * W], yblk[N * N * W], ablk[N * N * W];
        alignas(64) T bblk[N * B_COLUMNS * W];
        // The kernel reads X and Y only when alpha != 0, A only when beta != 0.
        if (alpha != T(0)) {
            gather<W, N>(tiles, xblk, px, x, 0, N);
            gather<W, N>(tiles, yblk, py, y, 0, N);
        }
        if (beta != T(0)) gather<W, N>(tiles, ablk, pa, a, 0, N);
        if (nc0 > 0) gather<W, N>(tiles, bblk, pb, bm, 0, nc0);
        const Pivots pv = pack_pivots(ipiv, b, sipiv);
        il::fused<O, N>(N, nc0, alpha, block<const T, W, N>(xblk), block<const T, W, N>(yblk), beta,
                        block<T, W, N>(ablk), pv, block<T, W, N>(bblk), info + b);
        scatter<W, N>(tiles, pa, ablk, a, 0, N, nullptr);
        const int *const keep = info + b;
        if (nc0 > 0) scatter<W, N>(tiles, pb, bblk, bm, 0, nc0, keep);
        if (nrhs > B_COLUMNS && any_solved<W>(keep))
            solve_b_blocks<T, W, N>(tiles, B_COLUMNS, nrhs, ablk, pv, pb, bm, bblk, keep);
    });
}

#define KPK_SWITCH(n, CALL)                                                                   \
    switch (n) {                                                                              \
    case 1: CALL(1); break;                                                                   \
    case 2: CALL(2); break;                                                                   \
    case 3: CALL(3); break;                                                                   \
    case 4: CALL(4); break;                                                                   \
    case 5: CALL(5); break;                                                                   \
    case 6: CALL(6); break;                                                                   \
    case 7: CALL(7); break;                                                                   \
    case 8: CALL(8); break;                                                                   \
    default: break;                                                                           \
    }
static_assert(kobalt_openmp::fixed::FIXED_MAX_N == 8, "KPK_SWITCH covers 1..FIXED_MAX_N");

} // namespace

namespace kobalt_openmp {
namespace interleaved {
namespace KOBALT_IL_ISA {

template <class T>
void packed_getrf(int n, PackPrefetch prefetch, int64_t tile_max, int lu_block_min, Items<T> A, Mat a, int *ipiv,
                  int64_t sipiv, int *info, int64_t batch) {
#define KPK_CALL(N) getrf_n<T, N>(prefetch, tile_max, lu_block_min, A, a, ipiv, sipiv, info, batch)
    KPK_SWITCH(n, KPK_CALL)
#undef KPK_CALL
}

template <class T>
void packed_getrs(bool trans, int n, PackPrefetch prefetch, int nrhs, Items<const T> A, Mat a, const int *ipiv,
                  int64_t sipiv, Items<T> B, Mat b, int64_t batch) {
#define KPK_CALL(N) getrs_n<T, N>(trans, prefetch, nrhs, A, a, ipiv, sipiv, B, b, batch)
    KPK_SWITCH(n, KPK_CALL)
#undef KPK_CALL
}

template <class T>
void packed_fused(int n, PackPrefetch prefetch, int64_t tile_max, bool by_item, T alpha, Items<const T> X, Mat x,
                  Items<const T> Y, Mat y, T beta, Items<T> A, Mat a, int *ipiv, int64_t sipiv, int nrhs, Items<T> B,
                  Mat b, int *info, int64_t batch) {
#define KPK_CALL(N) \
    fused_n<T, N>(prefetch, tile_max, by_item, alpha, X, x, Y, y, beta, A, a, ipiv, sipiv, nrhs, B, b, info, batch)
    KPK_SWITCH(n, KPK_CALL)
#undef KPK_CALL
}

#define KPK_INSTANTIATE(T)                                                                                       \
    template void packed_getrf<T>(int, PackPrefetch, int64_t, int, Items<T>, Mat, int *, int64_t, int *,         \
                                  int64_t);                                                                      \
    template void packed_getrs<T>(bool, int, PackPrefetch, int, Items<const T>, Mat, const int *, int64_t,       \
                                  Items<T>, Mat, int64_t);                                                       \
    template void packed_fused<T>(int, PackPrefetch, int64_t, bool, T, Items<const T>, Mat, Items<const T>, Mat, \
                                  T, Items<T>, Mat, int *, int64_t, int, Items<T>, Mat, int *, int64_t);
KPK_INSTANTIATE(double)
KPK_INSTANTIATE(float)

} // namespace KOBALT_IL_ISA
} // namespace interleaved
} // namespace kobalt_openmp
