// thresholds.cpp -- default values of the size thresholds (see docs/performance.md,
// "Size thresholds of the openmp backend", for the measurements behind them).
#include "thresholds.hpp"

#include "interleaved_kernels.hpp"

#include <cpuid.h>

#include <cstdio>
#include <strings.h>

// OpenBLAS names the kernels it picked for this CPU (weak: another BLAS may lack it).
extern "C" char *openblas_get_corename(void) __attribute__((weak));

namespace kobalt_openmp {

// value = the largest size that still takes the small (inlined KokkosBatched) path;
// "size" is the largest dimension of one item (for gemm max(m, n, k), for the fused
// call max(n, k, nrhs)).
kobalt_threshold thresholds[THRESHOLD_COUNT] = {
    {"GEMM_SMALL_MAX", "gemm: largest max(m,n,k) run by the inlined small kernel", 8},
    {"GEMV_SMALL_MAX", "gemv: largest max(m,n) run by the inlined small kernel", 8},
    {"TRSV_SMALL_MAX", "trsv: largest n run by the inlined small kernel", 32},
    // trsm: double here, float in TRSM_SMALL_MAX_FLOAT at the end (the crossovers differ:
    // docs/performance.md, "Size thresholds of the openmp backend")
    {"TRSM_SMALL_MAX", "trsm, double: largest max(m,n) run by the inlined small kernel", 48},
    {"GETRF_SMALL_MAX", "getrf: largest max(m,n) run by the inlined small LU", 48},
    {"GETRS_SMALL_MAX", "getrs: largest max(n,nrhs) run by the inlined small solve", 32},
    {"GEMM_LU_TRSV_SMALL_MAX",
     "gemm_lu_trsv: largest max(n,k,nrhs) run by the inlined fused kernel", 32},
    {"FEW_ITEMS_LARGE_MIN",
     "smallest item size for which a batch with fewer items than OpenMP threads runs one "
     "item at a time through multithreaded OpenBLAS",
     256},
    {"GETRI_SMALL_MAX", "getri, matinv: largest n run by the small kernels (above: LAPACK dgetrf/dgetri)", 16},
    {"INTERLEAVED_MAX",
     "_desc calls whose operands all have batch_stride 1: largest item size run by the SIMD "
     "kernels that vectorise across the batch (at most 8; 0 disables them)",
     8},
    {"DESC_GATHER_BYTES",
     "_desc calls in a layout the standard kernels cannot take: bytes of column-major scratch "
     "the items are gathered into per round",
     4 << 20},
    {"PACKED_LU_MAX",
     "getrf (square), getrs, gemm_lu_trsv (k = n) with column- or row-major items on the small "
     "path: largest n run by the interleaved SIMD kernels on packs of W items copied through L1 "
     "(at most 8; 0 disables them: the fixed-n kernels run instead)",
     8},
    {"PACKED_GETRS_MIN",
     "getrs: smallest n that takes the packed path (below it copying the factors into the "
     "pack costs more than the fixed-n solve saves)",
     8},
    // Without pivoting the vendor path is the backend's own blocked loop on CBLAS
    // (vendor::getrf_nopivot). It was 1.2-1.6x faster than the inlined SerialLU at n = 10..48;
    // since session 7 square items on the small path take lu_nopivot_unit.hpp, faster than
    // both at n = 10..128 (at 256 column-major the blocked loop wins; docs/performance.md).
    {"GETRF_NP_SMALL_MAX",
     "getrf without pivoting (ipiv NULL): largest max(m,n) run by the small path (square: "
     "the unit-stride LU of lu_nopivot_unit.hpp)",
     128},
    // The compile-time-n kernels of fixed_blas2.cpp, checked before the *_SMALL_MAX
    // choice; above them (or for other increments) the small/vendor paths as before.
    {"GEMV_FIXED_MAX",
     "gemv with incx = incy = 1: largest max(m,n) run by the compile-time-n kernels (at most "
     "16; 0 disables them)",
     16},
    {"TRSV_FIXED_MAX",
     "trsv with incx > 0: largest n run by the compile-time-n kernels (at most 8; 0 disables "
     "them)",
     8},
    {"TRSM_FIXED_MAX",
     "trsm: largest max(m,n) run by the compile-time-n kernels (at most 8; 0 disables them)",
     8},
    // Checked before GETRS_SMALL_MAX, like the *_FIXED_MAX thresholds: at n = 9..this value a
    // call with one right-hand side runs getrs_direct.cpp whatever the small/vendor choice.
    {"GETRS_DIRECT_MAX",
     "getrs with nrhs = 1: largest n run by the direct per-item solve, from n = 9 (at most "
     "256; 0 disables it: the small or vendor path as before)",
     256},
    // The direct solve streams the factors (prefetches the next four whole columns/rows at
    // each step of the first triangular solve) from this n on: from memory it is what beats
    // OpenBLAS's trsv above 32; in L3 at n = 10..32 it costs up to 20-25 % (docs/performance.md).
    {"GETRS_STREAM_MIN",
     "getrs direct solve: smallest n whose factors are prefetched ahead during the first "
     "triangular solve (0: every n; above GETRS_DIRECT_MAX: never)",
     32},
    // Checked first for nrhs = 1 at n <= FIXED_MAX_N, like GETRS_DIRECT_MAX above it: the
    // in-place solve on the caller's factors instead of the fixed-n solve (n <= 7 before)
    // or the packed path (n = 8 before) (docs/performance.md, "getrs at n = 2..8: the
    // in-place solve").
    {"GETRS_TINY_MAX",
     "getrs with nrhs = 1: largest n run by the in-place solve of getrs_tiny.cpp "
     "(at most 8; 0 disables it: the fixed-n or packed path as before)",
     8},
    {"TRSM_SMALL_MAX_FLOAT", "trsm, float: largest max(m,n) run by the inlined small kernel", 24},
    // Checked after TRSV_FIXED_MAX and before TRSV_SMALL_MAX, like GETRS_DIRECT_MAX for getrs:
    // at n = 9..this value a call with incx > 0 runs trsv_direct.cpp whatever the
    // small/vendor choice (docs/performance.md, "trsv at n = 9..256: the direct solve").
    {"TRSV_DIRECT_MAX",
     "trsv with incx > 0: largest n run by the direct per-item solve, from n = 9 (at most "
     "256; 0 disables it: the small or vendor path as before)",
     256},
    // From memory the prefetch of each item's triangle before its solve made the backward
    // (upper) solves up to 2-3x faster at n <= 32 and lost at n = 128..256 (docs/performance.md).
    {"TRSV_PREFETCH_MAX",
     "trsv direct solve: largest n whose items have their triangle prefetched whole before "
     "the solve (0: never)",
     64},
    // Checked after TRSM_FIXED_MAX and before TRSM_SMALL_MAX(_FLOAT), like TRSV_DIRECT_MAX for
    // trsv: at max(m, n) = 9..this value every trsm call runs trsm_direct.cpp whatever the
    // small/vendor choice. From memory it beat main's paths and every peer at each measured
    // n = 10..64 in both layouts and precisions, so it runs up to the kernel's limit
    // (docs/performance.md, "trsm at n = 9..48: the direct solve").
    {"TRSM_DIRECT_MAX",
     "trsm: largest max(m,n) run by the direct per-item solve, from 9 (at most 64; 0 disables "
     "it: the small or vendor path as before)",
     64},
    // The direct trsv, branch hosttrsv (docs/performance.md, "trsv NoTrans: the sweeps, in place
    // and the next-item prefetch (branch hosttrsv, session 16)"): one thread, from memory,
    // each against the session-14 kernels at n = 10..128, d and s, both layouts.
    // Solving in x itself saves the copy in and out: 1.04-1.8x at n <= 32 in every
    // layout/transpose, 0.93-1.02 (noise) above.
    {"TRSV_INPLACE_MAX",
     "trsv direct solve with incx = 1: largest n solved in x itself instead of a local copy "
     "(0: always the copy)",
     32},
    // op(A) lower with unit-stride columns (column-major NoTrans, row-major Trans): a rank-1
    // column sweep without prefetch, in rising address order, beat the rank-4 blocks with the
    // triangle prefetch at n = 48..128 (d 48 1.24-1.47x, s 64 1.21-1.42x) and lost below
    // (0.6-0.8 at n <= 24) and at d n = 256 (0.92, against the rank-4 blocks without
    // prefetch): TRSV_COL_SWEEP_MAX below.
    {"TRSV_COL_SWEEP_MIN",
     "trsv direct solve, op(A) lower with unit-stride columns: smallest n run as a rank-1 "
     "column sweep without prefetch, up to TRSV_COL_SWEEP_MAX (0: from the smallest)",
     48},
    // op(A) lower with unit-stride rows (row-major NoTrans, column-major Trans): the column
    // sweep across the rows (strided, four columns at a time) instead of the row dot products
    // at small n: s n = 10..24 1.3-1.8x, d n = 10, 12 1.3-1.4x; 0.6-0.95 from n = 32.
    {"TRSV_ROW_SWEEP_MAX",
     "trsv direct solve, op(A) lower with unit-stride rows: largest n run as a column sweep "
     "across the rows (0: never)",
     24},
    // The same solve from n = 48 up to TRSV_PREFETCH_MAX: the next item's triangle prefetched
    // into L2 besides this item's into L1: d 48 1.28x, s 64 1.25x, d 64 1.21x; 0.81-1.05 at 32.
    {"TRSV_PREFETCH_NEXT_MIN",
     "trsv direct solve, op(A) lower with unit-stride rows, n <= TRSV_PREFETCH_MAX: smallest n "
     "that also prefetches the next item's triangle into L2 (0: every n; above "
     "TRSV_PREFETCH_MAX: never)",
     48},
    {"TRSV_COL_SWEEP_MAX",
     "trsv direct solve, op(A) lower with unit-stride columns: largest n run as the rank-1 "
     "column sweep (from TRSV_COL_SWEEP_MIN; 0: never)",
     128},
    // Checked first for the fused call with k = n on the small path, before the packed and
    // fixed-n kernels: from this n to 8 each item runs fused_item.cpp, its columns in SIMD
    // registers (AVX-512 CPUs only; elsewhere unused), instead of the packed path, whose copies and spilled LU made n = 8 slower
    // than Kobalt's own three calls. Session 17 (AVX-512, one thread, from memory, five
    // alternations; docs/performance.md, "Fused call at n = 6 ... 8 on AVX-512"): double
    // n = 8 1.54x, n = 7 1.22x faster than the packed path, n = 6 0.75x: from 7.
    // adapt_defaults_to_isa() moves both on AMD Zen 5, where the packed path won at double
    // n = 7 and float n = 8.
    {"FUSED_ITEM_MIN",
     "gemm_lu_trsv with k = n, double: smallest n run one item at a time in SIMD registers by "
     "fused_item.cpp, up to n = 8, on AVX-512 CPUs (9 or more disables it: the packed or fixed-n "
     "path as before)",
     7},
    // Float: n = 8 1.36x faster, n = 7 1.01x (a tie), n = 6 0.78x: from 8.
    {"FUSED_ITEM_MIN_FLOAT",
     "gemm_lu_trsv with k = n, float: FUSED_ITEM_MIN for float items (9 or more disables it)",
     8},
    // Checked before the packed path for square items on the small path (with or without
    // pivoting): 2 x 2 items factored in place, W at a time in registers, no copy into a
    // pack (docs/performance.md, "getrf at n = 2 in place").
    {"GETRF_TINY_MAX",
     "getrf with square items: largest n factored in place by getrf_tiny.cpp, W items at a "
     "time in SIMD registers (at most 2; 0 disables it: the packed or fixed-n path as before)",
     2},
    // The packed path copies dense column-major items as W x W tiles, reading the W items of a
    // pack side by side; from memory that order trains the hardware prefetchers less well than
    // item-by-item reads, and packs of 1.5 KiB and more lost to the element-by-element copy
    // unless the packs ahead are prefetched (below it the prefetches cost more than they save;
    // docs/performance.md, "The packed path's copies as W x W tiles").
    {"PACKED_PREFETCH_BYTES",
     "getrf/getrs/gemm_lu_trsv on the packed path with dense column-major items: smallest size "
     "in bytes of one operand's pack (W items) whose copies prefetch the packs ahead into L2 "
     "(0: always; a size above every pack, e.g. 1000000: never)",
     1536},
    // The tile copies win in cache at every n, but from memory not at every size. One
    // thread, three runs of four to six alternated rounds, ratios of medians (docs/
    // performance.md, "Tile copies only up to a size"): in every run the element copies won
    // at double getrf n = 8 (512 bytes, 1.12-1.20x) and the double fused call at n = 4 (128
    // bytes, 1.15-2.1x), and lost at float getrf n = 4 ... 8 (up to 1.8x); elsewhere the
    // winner changed between the runs (double fused n = 5, 6: elements 1.11-1.43x in two, tiles
    // 1.13x in one; float fused n = 6, 7: even, then tiles 1.14-1.47x). Why is not known (no
    // hardware counters on the machine). getrs keeps the tiles at every size (double n = 8,
    // nrhs = 4: 1.04x the element copies).
    {"PACKED_TILE_MAX_BYTES",
     "getrf and the float fused call on the packed path with dense column-major items: "
     "largest item (bytes of one n x n matrix) copied to and from the pack as W x W register "
     "tiles; larger items are copied element by element (0: never tiles)",
     448}, // 512 (every n <= 8) on AMD Zen 5: adapt_defaults_to_isa()
    // adapt_defaults_to_isa() sets 512 (every n <= 8) on AMD Zen 5.
    {"PACKED_FUSED_TILE_MAX_BYTES",
     "gemm_lu_trsv with double items on the packed path: PACKED_TILE_MAX_BYTES for it "
     "(it reads and writes three n x n operands per item)",
     100},
    // The semiring kernels' panels with a plain FMA term (semiring_kernels.cpp, PlusTimes):
    // vector widths chosen at run time (AVX-512 / AVX2), so they do not depend on which core
    // OpenBLAS picked (0.3.21 runs its Haswell kernels on AMD Zen 5). docs/performance.md,
    // "gemm above 8: the packed-panel kernel".
    {"GEMM_PANEL_MAX",
     "gemm: largest max(m,n,k) above GEMM_SMALL_MAX run by Kobalt's packed-panel kernel (AVX2 or AVX-512 CPUs, "
     "OpenMP over the batch); above it, or on other CPUs, OpenBLAS per item (0 disables)",
     256},
    {"GEMM_PANEL_MAX_FLOAT", "gemm, float: GEMM_PANEL_MAX for float items (0 disables)", 256},
    // The fused call past the one-loop kernels of n <= 8 (docs/performance.md, "The fused call
    // above 8 as chunked composition"): Kobalt's own gemm, getrf and getrs over chunks of the
    // batch that stay in the last-level cache, instead of one loop of OpenBLAS gemm and
    // generic small kernels.
    {"FUSED_COMPOSE_MIN",
     "gemm_lu_trsv: smallest n run as Kobalt's gemm, getrf and getrs over chunks of the batch "
     "that stay in cache (a value above FUSED_COMPOSE_MAX disables it)",
     9},
    // Above 64 the one loop of OpenBLAS/LAPACK calls per item won (n = 96, 128: Kobalt's own
    // three calls 0.89-0.98x of it in float, 1.02-1.25x in double, noisy).
    {"FUSED_COMPOSE_MAX", "gemm_lu_trsv: largest n run as the chunked composition", 64},
    // Chunks of 256 KiB a thread lost 12-43% to the start-up of three parallel regions per
    // chunk; 1 MiB, 4 MiB and the whole batch were even within noise on Zen 1 (the steps are
    // compute-bound there): 4 MiB keeps a chunk within a typical L3.
    {"FUSED_CHUNK_BYTES",
     "gemm_lu_trsv chunked composition: bytes of operands (X, Y, A, B) per chunk and OpenMP thread",
     4 << 20},
    // Two items' statements interleaved in one unrolled body keep two dependency chains in
    // flight (getrs_tiny.cpp). Session 8 paired them up to n = 6, chosen in cache on an
    // AVX-512 VM; on AMD Zen 1 one item at a time was 1.06-1.23x faster at n = 5, 6 in
    // cache, d and s, both layouts, and mostly faster from memory, while pairs won at
    // n = 2 ... 4 (docs/performance.md, "getrs at n = 5, 6: one item at a time"). This is
    // the default of the AVX2 and baseline copies (16 registers); adapt_defaults_to_isa()
    // raises it to 6 where the AVX-512 copy runs.
    {"GETRS_TINY_PAIR_MAX",
     "getrs in-place solve (GETRS_TINY_MAX), double: largest n whose items are solved two "
     "at a time (at most 6; 0: one at a time)",
     4},
    {"GETRS_TINY_PAIR_MAX_FLOAT", "getrs in-place solve, float: GETRS_TINY_PAIR_MAX for float items", 4},
    // Below it, one thread reads the pivots faster than a parallel region opens (docs/performance.md,
    // "An Intel AVX-512 VM": the check on the calling thread cost getrs 1.1-1.6x at n <= 8).
    {"PIVOT_SCAN_PARALLEL_MIN",
     "getrs/getri: the check that every pivot is within 1..n runs on all OpenMP threads from "
     "this many pivots (batch x n) on, below it on the calling thread",
     65536},
    // From memory the semiring kernels (gemm from n = 9 on the panels or the small square
    // kernels, every other semiring) wait on op(A) and op(B), which the hardware prefetcher
    // does not fetch far enough ahead; in cache the prefetch instructions only cost
    // (docs/performance.md, "gemm and the semirings from memory: the next item prefetched",
    // AMD Zen 5: 1.05-2.2x from memory, 0.78-0.93x in L2 at some n, mixed at 8 MiB). Items
    // are prefetched whole into L1, so only up to a size (measured up to 32 KiB: double n = 64).
    {"GEMM_PREFETCH_MIN_BYTES",
     "gemm on the semiring kernels (GEMM_PANEL_MAX) and the other semirings: each thread "
     "prefetches its next item's op(A) and op(B) (dense items only) when the call's operands "
     "(A, B and C over the batch) take at least this many bytes (0: always)",
     16 << 20},
    {"GEMM_PREFETCH_ITEM_MAX_BYTES",
     "... and op(A) and op(B) of one item take at most this many bytes each (0: never)",
     32768},
    // Checked before GETRF_SMALL_MAX (as TRSM_DIRECT_MAX for trsm): square items with
    // pivoting at n = GETRF_DIRECT_MIN ... GETRF_DIRECT_MAX run getrf_direct.cpp, the LU by
    // rows of a padded local row-major copy, vectorised along the rows, instead of
    // lu_pivoted.hpp's scalar loop (AMD Zen 5, both layouts and precisions: 1.06-1.82x at
    // n = 24 ... 48) or the vendor path at n = 56, 64 (1.86-2.78x). At n = 20 it tied (0.94-1.08
    // over runs and layouts), at 10, 12 it lost (0.77-0.90x): each step's chain of pivot
    // search, reciprocal and row update is too short there for the vectors to pay
    // (docs/performance.md, "getrf at n = 24 ... 64: the direct LU").
    {"GETRF_DIRECT_MAX",
     "getrf with pivoting and square items: largest n run by the direct per-item LU, "
     "whatever GETRF_SMALL_MAX says (at most 64; 0 disables it: the small or vendor path as before)",
     64},
    {"GETRF_DIRECT_MIN",
     "getrf with pivoting and square items: smallest n run by the direct per-item LU "
     "(at least 9: the fixed-n kernels below)",
     24},
    // getrs_tiny.cpp's scalar solve has an AVX-512VL copy (32 registers, 7,873 instructions
    // with a stack operand at n = 8 against the AVX2 copy's 10,351): from n = 5 on AMD Zen 5
    // from memory, column-major n = 8 d 1.00 -> 1.18, s 0.96 -> 1.13 of Eigen, n = 5, 6
    // level; below 5, GCC's AVX-512 code for the pairs ran 0.93-0.95x of the AVX2 copy's
    // (float n = 2, 3). adapt_defaults_to_isa() pairs items to n = 6 on the assumption that
    // n = 5, 6 run in this copy (docs/performance.md, "getrs at n <= 8: an AVX-512 copy of
    // the in-place solve"). Where the CPU or the environment rules AVX-512 out, the AVX2 or
    // baseline copy runs every n.
    {"GETRS_TINY_WIDE_MIN",
     "getrs in-place solve (GETRS_TINY_MAX): smallest n run by its AVX-512 copy, where that "
     "copy runs (larger than 8: never)",
     5},
    // Where the semiring kernels prefetch (GEMM_PREFETCH_MIN_BYTES), an item whose op(A) and
    // op(B) take fewer bytes than this is finished before the next one's lines arrive: each
    // thread prefetches ceil(this / those bytes) items ahead, 1 to 4. AMD Zen 5, kobalt-bench
    // from memory, libxsmm / Kobalt (docs/performance.md, "gemm from memory: tiny items
    // prefetched further ahead"): float n = 16 0.90-0.92 -> 1.06-1.08, double n = 10
    // 0.83-0.85 -> 0.95-0.97, n = 9 0.83-0.85 -> 0.87-0.88; in-process, 2 items ahead at
    // double n = 14, 16 (3 and 4 KiB) and float 20 ... 28 lost 0.86-0.98x.
    {"GEMM_PREFETCH_AHEAD_BYTES",
     "gemm on the semiring kernels and the other semirings, where they prefetch: each thread "
     "prefetches ceil(this / (op(A) + op(B) bytes of an item)) items ahead, 1 to 4 (0: one)",
     3072},
    // Where the packed path prefetches (PACKED_PREFETCH_BYTES), how far ahead. The default,
    // 1 MiB, keeps the fixed distance of six packs that the packed path had until session
    // 47 (up to 72 KiB of the double fused call at n = 8 in flight, more than L1 holds);
    // adapt_defaults_to_isa() sets 8 KiB on AMD Zen 5, where that won.
    {"PACKED_PREFETCH_AHEAD_BYTES",
     "getrf/getrs/gemm_lu_trsv on the packed path, where they prefetch: ceil(this / bytes of "
     "one pack's operands) packs ahead, 1 to 6 (0: one)",
     1048576},
    // The packed path's getrf holds a pack's N*N column vectors in registers (il::getrf) or
    // works on the block in L1 one column at a time (packed_kernels.cpp, lu_block). Measured
    // on AMD Zen 5 only, where adapt_defaults_to_isa() sets 7 in double (docs/performance.md,
    // "getrf at double n = 7, 8: the packed LU one column at a time"); elsewhere off.
    {"PACKED_LU_BLOCK_MIN",
     "getrf with double items on the packed path: smallest n whose packs are factored one column "
     "at a time in the block instead of all in registers (9 or more: never)",
     9},
    {"PACKED_LU_BLOCK_MIN_FLOAT", "getrf with float items on the packed path: PACKED_LU_BLOCK_MIN for them", 9},
    // The fused call's packs formed item by item (packed_kernels.cpp, fused_pack_by_item):
    // measured on AMD Zen 5 only (double n = 8), where adapt_defaults_to_isa() sets 8 MiB.
    {"PACKED_FUSED_BY_ITEM_MAX_BYTES",
     "gemm_lu_trsv where n equals the packed path's width (double n = 8 with AVX-512) and X and A "
     "are dense column-major: largest call (bytes of all items' X, Y and A) whose packs are formed "
     "item by item, each item's product in column vectors and [A | b] factored in the pack, ahead "
     "of the per-item kernel (0: never)",
     0},
    // The composition in one parallel region (session 52, AMD Zen 5): since session 51 a call
    // from inside a region opens none of its own, so each thread can run the three steps on
    // its own chunks, with no barrier between the steps and chunks small enough for L2. From
    // memory (64-250 MB calls, two threads) 1.06-1.14x faster than the three regions a chunk
    // at n = 10 ... 32, d and s; in cache (6 MB) level or slower, hence a call size from which
    // it runs. docs/performance.md, "The fused call's composition in one parallel region".
    {"FUSED_REGION_MIN_BYTES",
     "gemm_lu_trsv chunked composition: smallest call (bytes of all items' X, Y, A and B) run in one OpenMP "
     "region, each thread the three steps on its own chunks of FUSED_REGION_CHUNK_BYTES (below: one region per "
     "step and chunk of FUSED_CHUNK_BYTES a thread)",
     16 << 20},
    {"FUSED_REGION_CHUNK_BYTES",
     "gemm_lu_trsv composition in one region: bytes of operands (X, Y, A, B) per chunk (the chunks do not depend "
     "on the number of threads, so neither do the results)",
     512 << 10},
    // Below FUSED_COMPOSE_MIN the one-loop kernels win in cache; from memory on AMD Zen 5 the
    // one-region composition beat them at double n = 6 ... 8 (adapt_defaults_to_isa).
    {"FUSED_REGION_COMPOSE_MIN",
     "gemm_lu_trsv, double: smallest n below FUSED_COMPOSE_MIN composed too when the call reaches "
     "FUSED_REGION_MIN_BYTES (at FUSED_COMPOSE_MIN or above: never)",
     9},
    {"FUSED_REGION_COMPOSE_MIN_FLOAT", "gemm_lu_trsv: FUSED_REGION_COMPOSE_MIN for float items", 9},
    // One n below FUSED_REGION_COMPOSE_MIN: on AMD Zen 5 double n = 4 composed in one region won
    // from memory while n = 3 and 5 lost (adapt_defaults_to_isa), which no lower bound can say.
    {"FUSED_REGION_COMPOSE_ALSO",
     "gemm_lu_trsv, double: one n below FUSED_REGION_COMPOSE_MIN composed too when the call reaches "
     "FUSED_REGION_MIN_BYTES (0: none)",
     0},
    {"FUSED_REGION_COMPOSE_ALSO_FLOAT", "gemm_lu_trsv: FUSED_REGION_COMPOSE_ALSO for float items", 0},
};

// Where the panel kernel stops and OpenBLAS takes over depends on which of OpenBLAS's
// kernels runs, so the defaults follow the core it names (docs/performance.md, "gemm above
// 8 on AMD Zen 1: where OpenBLAS takes over"); the environment still overrides them (the
// core applies KOBALT_OPENMP_GEMM_PANEL_MAX(_FLOAT) after init). Cores not listed keep 256:
//  - AVX-512 cores beat the panels at n = 16 ... 64 (session 27, Zen 5 with
//    OPENBLAS_CORETYPE=SkylakeX: OpenBLAS 1.1-1.2x in double, 1.4-1.7x in float): off;
//  - Zen (0.3.21 names Zen 1 ... 3 so; measured on Zen 1, 128-bit FMA units, 32 KiB L1):
//    in double the panels win up to n = 80 and lose above, to 0.52x at n = 256, once an
//    item no longer fits in L1. In float it depends on OpenBLAS's state: in a process
//    whose threads have run no large dgemm, its sgemm at n = 128 ... 256 is 2-3x slower
//    than the panels; after one, 1.1-1.3x faster (reproduced outside Kobalt, cause
//    unknown). Float keeps 256: 0.76x at worst, where OpenBLAS would be 0.33x;
//  - Haswell (also what 0.3.21 runs on Zen 5, where the panels are 1.3-1.8x faster at
//    n = 256) and any other BLAS: 256.
void adapt_defaults_to_blas(int verbose) {
    struct CoreDefaults {
        const char *core;
        kobalt_int panel_max, panel_max_float;
    };
    static const CoreDefaults by_core[] = {
        {"skylakex", 0, 0}, {"cooperlake", 0, 0}, {"sapphirerapids", 0, 0}, {"zen", 80, 256}};
    const char *core = openblas_get_corename ? openblas_get_corename() : nullptr;
    for (const CoreDefaults &d : by_core) {
        if (!core || strcasecmp(core, d.core) != 0) continue;
        thresholds[GEMM_PANEL_MAX].value = d.panel_max;
        thresholds[GEMM_PANEL_MAX_FLOAT].value = d.panel_max_float;
    }
    if (verbose)
        std::fprintf(stderr,
                     "kobalt: openmp: OpenBLAS core %s: gemm's panel path by default up to n = %lld (double), "
                     "%lld (float); 0 = off\n",
                     core ? core : "(not OpenBLAS)", static_cast<long long>(thresholds[GEMM_PANEL_MAX].value),
                     static_cast<long long>(thresholds[GEMM_PANEL_MAX_FLOAT].value));
}

namespace {
// The CPU family of an AMD CPU (0x19: Zen 3 and 4, 0x1a: Zen 5), 0 on any other vendor.
unsigned amd_family() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return 0;
    const bool amd = ebx == 0x68747541u && edx == 0x69746e65u && ecx == 0x444d4163u; // "AuthenticAMD"
    if (!amd || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned base = (eax >> 8) & 0xfu;
    return base == 0xfu ? base + ((eax >> 20) & 0xffu) : base;
}
} // namespace

// Defaults that depend on which ISA copy of the kernels runs (interleaved::isa(), which
// honours KOBALT_OPENMP_NO_AVX2 / _NO_AVX512); the environment still overrides them.
//  - GETRS_TINY_PAIR_MAX(_FLOAT) = 6 on AVX-512: getrs_tiny.cpp's scalar solve has an
//    AVX-512VL copy (run from GETRS_TINY_WIDE_MIN, 5 by default) with 32 registers, and
//    two items a body at n = 5, 6 fit there. On AMD Zen 5 from memory, in that copy, pairs
//    beat single items at n = 5 (Eigen / Kobalt d 0.97 against 0.89, s 0.87 against 0.77,
//    the same rounds), where in the AVX2 copy (16 registers) single items had won (session
//    31, AMD Zen 1);
//    docs/performance.md, "getrs at n <= 8: an AVX-512 copy of the in-place solve".
//  - FUSED_ITEM_MIN = 8, FUSED_ITEM_MIN_FLOAT = 9 (off) on AMD family 1Ah (Zen 5): the
//    per-item fused kernel (fused_item.cpp) had won at double n = 7 and float n = 8 on
//    Zen 4 (session 17), but on Zen 5, whose AVX-512 units are 512 bits wide, the packed
//    path (vectorised across items) beat it there: Kobalt's own three calls / the fused
//    call from memory, column- / row-major, double n = 7 0.79 / 0.71 -> 0.96 / 1.28, float
//    n = 8 0.76 / 0.78 -> 1.02 / 1.04 (docs/performance.md, "The fused call at n <= 8 on
//    AMD Zen 5: the packed path at double n = 7 and float n = 8").
//  - PACKED_FUSED_TILE_MAX_BYTES = 512 and PACKED_PREFETCH_AHEAD_BYTES = 8 KiB on AMD family
//    1Ah: the double fused call's packs copied as tiles at every n <= 8 (on Zen 4 the
//    element copies had won at n = 4, session 20) and prefetched about 8 KiB ahead instead
//    of six packs. From memory, two threads, the fused call 1.27x faster at double n = 7,
//    1.54x at n = 6 (tiles alone: 1.15x, 1.40x); Kobalt's own three calls, float and
//    getrf / getrs level (docs/performance.md, "The packed path on AMD Zen 5: tiles for the
//    double fused call, prefetched 8 KiB ahead").
//  - PACKED_LU_BLOCK_MIN = 7 on AMD family 1Ah: getrf's packs factored one column at a time
//    in the block, from memory double n = 7 1.27x, n = 8 1.10x faster (float lost at n = 5,
//    6 and was level at 7, 8: stays off; docs/performance.md, "getrf at double n = 7, 8: the
//    packed LU one column at a time").
//  - PACKED_TILE_MAX_BYTES = 512 on AMD family 1Ah: getrf's double packs at n = 8 copied as
//    tiles too. With the column-at-a-time LU above, getrf double n = 8 ran 1.22x (from memory,
//    5 rounds), 1.24x (8 MiB) and 1.14x (1 MiB) faster; before it the tiles had lost there
//    (0.84x, session 47). The only items it moves to the tiles are double n = 8 (512 bytes);
//    docs/performance.md, "getrf at double n = 8: tiles again, over the column-at-a-time LU".
//  - PACKED_FUSED_BY_ITEM_MAX_BYTES = 8 MiB on AMD family 1Ah: the double fused call at n = 8
//    on the packed path, each pack formed item by item and [A | b] factored in it, where X, Y
//    and A take at most 8 MiB. In L2 / L3 1.05-1.55x faster than the per-item kernel over six
//    runs (1.52x in the first), Kobalt's own three calls / the fused call 1.13-1.48 there; from
//    memory 0.88-1.03 of it over four runs (medians; this VM's noise is as large), so larger
//    calls keep the per-item kernel; docs/performance.md, "The fused call at double n = 8: the
//    pack formed item by item".
//  - FUSED_REGION_COMPOSE_MIN = 6 on AMD family 1Ah: double fused calls of n = 6 ... 8 from
//    FUSED_REGION_MIN_BYTES run as Kobalt's own three steps in one region. From memory (170-
//    300 MB, two threads, 4 rounds) 1.07-1.22x faster than the packed path / per-item kernel
//    there, which had fallen below Kobalt's own three calls (0.89-0.94 of them, now 1.07-1.11);
//    float n = 6, 8 lost (0.79-0.94x); docs/performance.md, "The fused call's composition in
//    one parallel region".
//  - FUSED_REGION_COMPOSE_ALSO = 4 on AMD family 1Ah: double fused calls of n = 4 from
//    FUSED_REGION_MIN_BYTES composed in one region as well (session 53; docs/performance.md,
//    "getrf of row-major items: tiles in row order, and double fused n = 4 in one region");
//    n = 2, 3, 5 lost there (0.85-0.88x).
void adapt_defaults_to_isa(int verbose) {
    if (interleaved::isa() != interleaved::Isa::avx512) return;
    thresholds[GETRS_TINY_PAIR_MAX].value = 6;
    thresholds[GETRS_TINY_PAIR_MAX_FLOAT].value = 6;
    const bool zen5 = amd_family() >= 0x1a;
    if (zen5) {
        thresholds[FUSED_ITEM_MIN].value = 8;
        thresholds[FUSED_ITEM_MIN_FLOAT].value = 9;
        thresholds[PACKED_FUSED_TILE_MAX_BYTES].value = 512;
        thresholds[PACKED_PREFETCH_AHEAD_BYTES].value = 8192;
        thresholds[PACKED_LU_BLOCK_MIN].value = 7;
        thresholds[PACKED_TILE_MAX_BYTES].value = 512;
        thresholds[PACKED_FUSED_BY_ITEM_MAX_BYTES].value = 8 << 20;
        thresholds[FUSED_REGION_COMPOSE_MIN].value = 6;
        thresholds[FUSED_REGION_COMPOSE_ALSO].value = 4;
    }
    if (verbose)
        std::fprintf(stderr, "kobalt: openmp: AVX-512 kernels: getrs's in-place solve pairs items up to n = 6%s\n",
                     zen5 ? "; AMD family 1Ah or later: the fused call's per-item kernel from n = 8 (double), "
                            "never (float), its double packs as tiles (at n = 8 up to 8 MiB formed item by item), "
                            "the packed path prefetching 8 KiB ahead, "
                            "getrf's packs factored a column at a time from n = 7 (double) and copied as tiles "
                            "at every n, the double fused call at n = 4, 6 ... 8 composed in one region from FUSED_REGION_MIN_BYTES"
                          : "");
}

} // namespace kobalt_openmp
