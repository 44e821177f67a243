// plugin.cu -- the CUDA backend's table (the one exported symbol), its probe, the claim
// of device memory, kobalt_synchronize, thresholds, error reporting and the handles.
#include <cstdarg>
#include <cstdio>

#include "common.cuh"
#include "slots.cuh"

namespace kobalt_cuda {

const kobalt_core_services *core = nullptr;

// value = the largest item size that still takes Kobalt's own kernels; above it cuBLAS
// or cuSOLVER runs the call where they can express it (docs/cuda.md).
kobalt_threshold thresholds[THRESHOLD_COUNT] = {
    {"GEMM_SMALL_MAX", "cuda gemm: largest max(m,n,k) run by Kobalt's own kernels", 16},
    // gemv and trsm: Kobalt's one-thread-per-item kernels lose to cuBLAS's batched calls
    // from n = 12 (gemv) and n = 7 (trsm), double and float, on an H200 (the cuBLAS drop-in
    // sweep in docs/performance.md).
    {"GEMV_SMALL_MAX",
     "cuda gemv: largest max(m,n) run by Kobalt's own kernel; above, cuBLAS gemv(Strided)Batched "
     "(positive increments, alpha != 0)",
     10},
    {"TRSV_SMALL_MAX", "cuda trsv: largest n run by Kobalt's own kernel", 1 << 30},
    {"TRSM_SMALL_MAX", "cuda trsm: largest max(m,n) run by Kobalt's own kernel; above, cuBLAS trsmBatched",
     6},
    {"GETRF_SMALL_MAX", "cuda getrf: largest max(m,n) run by Kobalt's own kernel", 32},
    {"GETRS_SMALL_MAX", "cuda getrs: largest n run by Kobalt's own kernel", 32},
    {"GEMM_LU_TRSV_SMALL_MAX",
     "cuda gemm_lu_trsv: largest n run by one fused kernel; above, gemm, getrf and getrs run in sequence "
     "(cuBLAS where their own thresholds say so). 16: on an H200 (session 26) the sequence is 1.06-1.28x faster "
     "at n = 17 ... 32 in double (not at 29); in float the fused kernel is 1.03-1.24x faster at 17 ... 29 "
     "(docs/performance.md)",
     16},
    // 0 by default: cuSOLVER's getrf differs from dgetf2 on exactly singular and NaN
    // items (seen on an H200, docs/cuda.md), so the loop is opt-in.
    {"FEW_ITEMS_MAX",
     "cuda getrf: largest batch that runs as a loop of single-matrix cuSOLVER calls "
     "(column-major, pivoted, max(m,n) > GETRF_SMALL_MAX)",
     0},
    {"STAGE_BYTES_MAX",
     "cuda: shared memory (bytes) a block may use to stage its items; 0 disables staging",
     48 * 1024},
    {"GROUP_MIN",
     "cuda: smallest max dimension run by the group kernels (W lanes per item, registers); below, one "
     "thread per item",
     1},
    {"GROUP_MAX", "cuda: largest max dimension run by the group kernels (at most 32; 0 disables them)", 32},
    {"VENDOR_CHECK",
     "cuda getrf (column-major): 1 = factor a copy with cuBLAS and redo items with info > 0 or non-finite "
     "factors with Kobalt's kernel (exact dgetf2 semantics); 0 = cuBLAS in place",
     1},
    {"INTERLEAVED_MAX",
     "cuda _desc calls whose operands all have batch_stride 1: largest item size run by the "
     "one-thread-per-item register kernels (at most 8; 0 disables them)",
     8},
    {"INTERLEAVED_GEMM_SPLIT_MIN",
     "cuda gemm_desc, interleaved operands: smallest max(m,n,k) at which an item's column pairs run on "
     "separate warps (more threads, fewer registers each) instead of one thread per item; 0 disables. "
     "6: on an H200 the split wins at n = 6..8 (up to 1.6x) and loses at n = 5 (docs/performance.md)",
     6},
    {"INTERLEAVED_FUSED_UNROLL_MAX",
     "cuda gemm_lu_trsv_desc, interleaved operands: largest n (with k == n) whose product loop is unrolled "
     "at compile time (every load issued early; more registers). 8: on an H100 n = 8 went from 53% to 85% of "
     "the copy bandwidth (docs/performance.md); 0: the runtime loop at every n",
     8},
    {"SEMIRING_GROUP_MAX",
     "cuda gemm_semiring: largest max(m,n) run by the group kernel (at most 32; also capped by GROUP_MAX); "
     "above, one thread per element",
     32},
    // 17: up to 16 the group kernel is already faster than gemm; above, the tile kernel wins
    // in double and for OR_AND, the group kernel for the other float semirings (H200,
    // docs/performance.md).
    {"SEMIRING_TILE_MIN",
     "cuda gemm_semiring: smallest max(m,n) run by the tile kernel (one block per item, 4x4 register tiles; "
     "up to 32) in double, and for OR_AND in both precisions; below, the group kernel. 33 disables it",
     17},
    // 17 since session 9: the tile kernel overtook the float group kernel (H200, s n = 24
    // min-max 0.606 -> 0.411 ms, n = 32 0.439 -> 0.361 ms).
    {"SEMIRING_TILE_MIN_FLOAT",
     "cuda gemm_semiring: SEMIRING_TILE_MIN for the float semirings other than OR_AND (33: never)", 17},
    {"SEMIRING_TILE_BUFFERS",
     "cuda gemm_semiring tile kernel: shared-memory buffers a block cycles through (2: the next item's copy "
     "overlaps the product, half the blocks per SM; 1: other blocks hide the copy; 1 measured faster on an H200)",
     1},
    {"SEMIRING_TILE_SMALL_MAX",
     "cuda gemm_semiring tile kernel: largest max(m,n) run on a 24 x 24 tile (3 x 3 elements of C per thread) "
     "instead of the 32 x 32 one (at most 24; 0: always 32 x 32; or-and always 32 x 32)",
     24},
    {"INTERLEAVED_GEMM_PRELOAD_MAX",
     "cuda gemm_desc, interleaved square items (m == n == k) run one thread per item: largest n whose "
     "kernel loads all of A and B before the first store of C (2 n^2 registers); above, or 0, the "
     "column-pair loop, whose loads wait for the previous pair's stores. On an H100 n = 3 / 5 went from 83% "
     "to 96% of the copy bandwidth (docs/performance.md)",
     8},
    {"INTERLEAVED_GEMM_SHARED_MIN",
     "cuda gemm_desc, interleaved square items split over warps (INTERLEAVED_GEMM_SPLIT_MIN): smallest n "
     "whose block stages A once in shared memory instead of every warp reading all of it; 0 disables. "
     "On an H100 n = 8 went from 80% to 95% of the copy bandwidth (docs/performance.md)",
     6},
    // getrs with the next item's loads in flight (il_prefetch.cuh): on an H200 double n = 8
    // went from 78% to 90% of the copy bandwidth; n = 3..5 and float lost (docs/performance.md).
    {"INTERLEAVED_GETRS_PREFETCH_MIN",
     "cuda getrs_desc, interleaved double items: smallest n run by the kernel that keeps the next item's factors, "
     "pivots and first column of B in flight (cp.async into shared memory) while solving the current one; 0 "
     "disables. 8: on an H200 n = 8 went from 78% to 90% of the copy bandwidth, n = 3..5 lost (docs/performance.md)",
     8},
    {"INTERLEAVED_GETRS_PREFETCH_MIN_FLOAT",
     "INTERLEAVED_GETRS_PREFETCH_MIN for float items (0: off; it lost 5-10 points at n = 5..8 on an H200)", 0},
    {"INTERLEAVED_FUSED_BOUNDED_MAX",
     "cuda gemm_lu_trsv_desc, interleaved items with k == n (unrolled product): largest n whose kernel caps its "
     "registers at 168 so that 12 warps fit on an SM (binding from n = 6 in double); 0 disables. 6: on an H200 n = 6 "
     "went from 86% to 90% of the copy bandwidth and n = 4 from 87% to 92.5%; at 7 and 8 the cap spills heavily and "
     "lost (docs/performance.md)",
     6},
    // getrf with two threads per item (il_lu_pair.cuh): on an H200 double n = 8 went from 82% to
    // 84% of the copy bandwidth; every other n, and float, lost (docs/performance.md).
    {"INTERLEAVED_GETRF_PAIR_MIN",
     "cuda getrf_desc, interleaved square double items: smallest n factored by two threads per item (alternate "
     "columns, the pivot column passed by shuffles; half the registers per thread) instead of one; 0 disables. 8: "
     "on an H200 n = 8 went from 82% to 84% of the copy bandwidth, n = 2..7 lost 4-6 points (docs/performance.md)",
     8},
    {"INTERLEAVED_GETRF_PAIR_MIN_FLOAT",
     "INTERLEAVED_GETRF_PAIR_MIN for float items (0: off; it lost 9-35 points at n = 2..8 on an H200)", 0},
    {"VENDOR_INPLACE",
     "cuda getrf and gemm_lu_trsv on cuBLAS, column-major pivoted items (VENDOR_CHECK 1): 1 = cuBLAS factors A in "
     "place after a snapshot of A (the fused call with beta = 0 takes none: failed items are recomputed from X and "
     "Y), failed items are restored and redone by Kobalt's kernel, and the fused call's solve sends their B to "
     "scratch instead of copying B; 0 = factor a packed copy and copy back (two more passes over A) and solve in a "
     "copy of B; getrs on cuBLAS builds both pointer arrays in one kernel and one allocation (1) or one each (0)",
     1},
    {"SCRATCH_KEEP_MB",
     "cuda: MiB of stream-ordered scratch (vendor paths: snapshots, pointer arrays, pivots) that Kobalt's memory pool "
     "keeps reserved between calls; CUDA's default pool gives every free byte back at the next synchronisation, so "
     "each call mapped its scratch afresh. 0 = allocate from the default pool as before",
     1024},
    // the pair kernel's row swaps without a branch and its block size: together on an H200 at
    // double n = 8 84.0% -> 85.0% of the copy bandwidth (median of 4, ahead in each of the 4
    // alternated rounds; each alone within the spread), docs/performance.md (session 7)
    {"INTERLEAVED_GETRF_PAIR_BRANCHLESS",
     "cuda getrf_desc on two threads per item (INTERLEAVED_GETRF_PAIR_MIN): 1 swaps rows by selects on every "
     "lane, 0 under a branch taken by the lanes whose pivot is off the diagonal (divergent); same results",
     1},
    {"INTERLEAVED_GETRF_PAIR_THREADS",
     "cuda getrf_desc on two threads per item: threads per block (a multiple of 32 up to 256; otherwise 128). 64: "
     "with INTERLEAVED_GETRF_PAIR_BRANCHLESS = 1, double n = 8 went from 84.0% to 85.0% of the copy bandwidth on an "
     "H200",
     64},
    // getrf's group kernel on lu_rows_bcast (lu_bcast.cuh): the pivot found by integer warp
    // reductions, the pivot row broadcast through shared memory. 9 = the 16- and 32-lane
    // groups: on an H200 n = 16 went from 0.39 to 0.36 ms and n = 32 from 0.80 to 0.41 ms
    // (docs/performance.md); the 4- and 8-lane groups were not measured.
    {"GETRF_BCAST_MIN",
     "cuda getrf group kernel: smallest max(m,n) whose pivot search runs as integer warp reductions (redux.sync) "
     "and whose pivot row is broadcast through shared memory instead of per-element shuffles (at most 32; 0 "
     "disables). 9: on an H200 n = 16 0.39 -> 0.36 ms, n = 32 0.80 -> 0.41 ms (docs/performance.md)",
     9},
    // getrf's group kernel for square items (lu_full.cuh): resident grid, next item prefetched
    // into shared memory, compile-time widths, items below the width padded with an identity.
    // A/B in docs/performance.md ("getrf at n = 16 and 32: prefetching full-item kernel",
    // "getrf and the fused call at n = 9 ... 32: identity padding").
    {"GETRF_FULL_MIN",
     "cuda getrf group kernel: smallest n whose square items run on the kernel that prefetches each warp's next "
     "item into shared memory (cp.async) on a grid of resident blocks, items below the group width (16, 32) padded "
     "with an identity (0 disables). 9: on an H200 n = 9 / 12 / 15 / 17 / 24 / 31 0.70 / 0.50 / 0.39 / 0.97 / 0.60 "
     "/ 0.43 -> 0.49 / 0.35 / 0.29 / 0.79 / 0.52 / 0.39 ms; n = 16 0.36 -> 0.27 ms, n = 32 0.41 -> 0.32-0.36 ms; n = 4 "
     "slower (0.18 -> 0.25 ms), n = 8 even (docs/performance.md)",
     9},
    // getrs on one thread per item with the operands piped through shared memory
    // (getrs_pipe.cuh) instead of the 4- / 8-lane group kernel
    {"GETRS_PIPE_MIN",
     "cuda getrs, double column-major items, NoTrans, one right-hand side, n <= 8: smallest n solved by one "
     "thread per item, the chunk's A, pivots and b copied into shared memory with cp.async while the previous "
     "chunk is solved (getrs_pipe.cuh), instead of the warp-staged (GETRS_WARP_MAX) or group kernel; 0 disables. "
     "6: on an H200 it beats the warp-staged kernel at n = 6 (84% against 75% of the copy bandwidth), which wins "
     "at n = 1, 2, 3, 5 and ties at 4 (docs/performance.md, session 12; 2 before)",
     6},
    {"GETRS_PIPE_MAX",
     "cuda getrs: the largest n of GETRS_PIPE_MIN's pipe kernel (at most 8). 6: at n = 7 the warp-staged kernel "
     "wins (session 12; 8 before)",
     6},
    // gemm's group kernel with op(B) in shared memory, read back by 16-byte broadcasts,
    // instead of one shuffle per multiply-add (gemm_bcast.cuh). 1 = every width: on an
    // H200 (double, column-major, beta = 0) n = 16 went from 0.333 to 0.192 ms (57% -> 99%
    // of the copy bandwidth), n = 8 from 0.209 to 0.190 ms, n = 4 from 0.197 to 0.194 ms.
    {"GEMM_BCAST_MIN",
     "cuda gemm group kernel: smallest max(m,n) whose op(B) rows are broadcast through shared memory instead of "
     "by per-element shuffles (at most 32; 0 disables). 1: on an H200 n = 16 0.333 -> 0.192 ms, n = 8 0.209 -> "
     "0.190 ms (docs/performance.md)",
     1},
    // n = 9..12 on the 16-lane group: 12 columns instead of 16 (n = 12 0.240 -> 0.197 ms,
    // n = 10 0.295 -> 0.234 ms, n = 9 0.341 -> 0.265 ms on an H200).
    {"GEMM_BCAST_NARROW_MAX",
     "cuda gemm broadcast kernel: largest max(m,n) whose 16-lane group computes 12 columns instead of 16 (at most "
     "12; 0 or 8 and below: never). 12: on an H200 n = 12 0.240 -> 0.197 ms (docs/performance.md)",
     12},
    // gemm between the group kernels and cuBLAS on the tile kernel of gemm_semiring with the
    // (+, *) ring (gemm_tile.cu). H200, double, 0.250 / 0.309 / 0.382 ms against cuBLAS's
    // 0.279 / 0.369 / 0.568 ms at n = 24 / 20 / 17; the 32 x 32 tile above 24 lost (0.295 ms
    // against 0.236 at n = 31), so the range ends where the 24 x 24 tile does
    // (docs/performance.md, session 9).
    {"GEMM_TILE_MIN",
     "cuda gemm: smallest max(m,n,k) run by the tile kernel (one 64-thread block per item, register tiles of C, "
     "operands staged by cp.async; gemm_tile.cu) up to GEMM_TILE_MAX",
     17},
    {"GEMM_TILE_MAX",
     "cuda gemm: largest max(m,n,k) run by the tile kernel (at most 32; 0 disables); taken before GEMM_SMALL_MAX "
     "is looked at; 24: on an H200 n = 24 0.279 -> 0.250 ms, n = 17 0.568 -> 0.382 ms (docs/performance.md)",
     24},
    {"GEMM_TILE_SMALL_MAX",
     "cuda gemm tile kernel: largest max(m,n) on the 24 x 24 tile (3 x 3 elements a thread; at most 24), above it "
     "the 32 x 32 tile",
     24},
    {"GEMM_TILE_BUFFERS",
     "cuda gemm tile kernel: shared-memory stage buffers a block (1, or 2: the next item copied while the current "
     "one is computed)",
     1},
    {"SEMIRING_TILE_BLOCKS_PER_SM",
     "cuda gemm_semiring tile kernel: blocks in the grid per SM, each walking items grid-stride (32 before "
     "session 9); 0: one block per item (H200, n = 32 double min-plus 0.302 -> 0.282 ms, docs/performance.md)",
     0},
    // getrs with lane i of a W-lane group holding row i of A in registers, each group's next
    // item (A, b, pivots) copied into shared memory by cp.async while the current one is
    // solved (getrs_rows.cuh), instead of the group kernel that loads, then solves; from
    // n = 7 it also beat the one-thread pipe kernel (branch cudagetrsmid).
    {"GETRS_PREFETCH_MIN",
     "cuda getrs, double column-major items, NoTrans, one right-hand side, n <= 32: smallest n solved by W lanes "
     "per item (row i on lane i) with each group's next item copied into shared memory by cp.async while the "
     "current one is solved (getrs_rows.cuh), ahead of the pipe kernel and the group kernel; 0 disables. 7: on an "
     "H200 n = 16 0.138 -> 0.093 ms (53% -> 80% of the copy bandwidth), n = 32 0.183 -> 0.095 ms (37% -> 72%), "
     "n = 7 0.141 -> 0.130 ms and n = 8 0.100 -> 0.098 ms against the pipe kernel; n = 5 lost to it "
     "(docs/performance.md). 8 since session 12: at n = 7 the warp-staged kernel (GETRS_WARP_MAX) is faster "
     "(0.100 against 0.127 ms)",
     8},
    // getrf above GETRF_SMALL_MAX on one thread block per item (lu_block.cuh): dgetf2's
    // pivots and info built in, no snapshot and check around cuBLAS getrfBatched. 64: on an
    // H200 (double) n = 40 / 48 / 64 2.28 / 1.98 / 1.80 -> 1.89 / 1.56 / 1.10 ms on 4 warps
    // a block; n = 96 / 128 lost (1.76 / 2.07 -> 2.50 / 2.47 ms); docs/performance.md.
    {"GETRF_BLOCK_MAX",
     "cuda getrf: largest n of square pivoted items above GETRF_SMALL_MAX run by the block-per-item kernel (item in "
     "registers and shared memory; at most 64, and what the device's shared memory allows); above, or when 0, "
     "cuBLAS getrfBatched",
     64},
    {"GETRF_BLOCK_WARPS",
     "cuda getrf block-per-item kernel: warps per block, 4 or 8", 4},
    // getrf at n <= 8 as the interleaved kernels do it, one thread per item with the item in
    // registers, after a warp has copied its 32 items into shared memory (lu_warp.cu). On an
    // H200, double column-major, % of the copy bandwidth against the group kernel: n = 2 40 ->
    // 86, n = 4 76 -> 86, n = 5 36 -> 83, n = 8 59 -> 67; float 26-54 -> 51-84; faster at every
    // n = 2..8 in both precisions (docs/performance.md, session 11)
    {"GETRF_WARP_MIN",
     "cuda getrf, square pivoted column- or row-major items: smallest n factored one thread per item, the item in "
     "registers, each warp's 32 items staged through shared memory by cp.async (lu_warp.cu), instead of the group "
     "kernel",
     1},
    {"GETRF_WARP_MAX", "cuda getrf: the largest n of GETRF_WARP_MIN's kernel (at most 8; 0 disables)", 8},
    // the fused call the same way (fused_warp.cu): product, LU and solve in one thread per item
    {"FUSED_WARP_MIN",
     "cuda fused call with k == n and nrhs == 1, column- or row-major: smallest n run one thread per item in "
     "registers, each warp's 32 items staged through shared memory (fused_warp.cu), instead of the group kernel",
     1},
    {"FUSED_WARP_MAX", "cuda fused call: the largest n of FUSED_WARP_MIN's kernel (at most 8; 0 disables)", 8},
    // getrs the same way (getrs_warp.cu): interchanges and both triangular solves in one thread
    {"GETRS_WARP_MIN",
     "cuda getrs with nrhs == 1, column- or row-major, either transpose: smallest n solved one thread per item, the "
     "factors in registers, each warp's 32 items staged through shared memory (getrs_warp.cu), ahead of the other "
     "getrs kernels",
     1},
    {"GETRS_WARP_MAX", "cuda getrs: the largest n of GETRS_WARP_MIN's kernel (at most 8; 0 disables)", 8},
    {"WARP_STAGE_BUFFERS",
     "cuda warp-staged kernels (getrf, fused call at n <= 8): shared-memory slices a warp, 1 or 2 (2: the next 32 "
     "items copied while the warp works on these)",
     1},
    {"WARP_STAGE_CONTIGUOUS",
     "cuda warp-staged kernels: 1 = where a warp's 32 items of an operand are one run of memory (strided, no gap), "
     "copy them by the short loop (the element's item and place carried by additions); 0 = the general loop "
     "(an item look-up and two divisions an element) always",
     1},
    // the fused call at n = 9 ... 32 on a group of 16 / 32 lanes per item with every operand
    // staged ahead (fused_full.cu) instead of the group kernel that reads op(X), op(Y) in the product
    {"FUSED_FULL_MIN",
     "cuda fused call with k <= the group width (16 or 32) and nrhs <= 1, any layout and op: smallest n (from 9) "
     "run by a group of lanes per item whose next item's operands are copied into shared memory (cp.async) while "
     "it factors and solves this one (fused_full.cu), instead of the group kernel. 9: on an H200 n = 9 / 12 / 16 "
     "1.39 / 1.03 / 0.80 -> 0.98 / 0.70 / 0.50 ms in double, 2.0-2.1x faster in float (docs/performance.md)",
     9},
    // above 16 only when GEMM_LU_TRSV_SMALL_MAX is raised: there the 32-lane kernel (12 warps an
    // SM) was even with the composed sequence in double (0.78-0.80 against 0.64-0.65 ms at n = 32)
    {"FUSED_FULL_MAX",
     "cuda fused call: the largest n of FUSED_FULL_MIN's kernel (at most 32; 0 disables; n > GEMM_LU_TRSV_SMALL_MAX "
     "takes the composed sequence first)",
     32},
    // getrf at n <= 8 (lu_warp.cu): the LU where the item lies in the warp's slice, a panel of
    // four columns at a time in registers. In double the item in registers holds 236-238
    // registers at n = 8 (8 warps an SM), the panel 152 (the shared memory then allows 12)
    {"GETRF_WARP_RECORD_MIN",
     "cuda warp-staged getrf in double (n <= 8): smallest n factored where the item lies in its shared-memory "
     "record (panels of four columns in registers, interchanges of the columns left of a panel as loads and "
     "stores at runtime addresses) rather than wholly in registers (interchanges as selects); 9 or more: never. "
     "5: on an H200 (session 15) n = 5 / 6 / 7 / 8 0.157 / 0.155-0.158 / 0.175 / 0.190-0.192 ms -> 0.154 / 0.152 / "
     "0.158 / 0.170-0.172 (docs/performance.md)",
     5},
    {"GETRF_WARP_RECORD_MIN_FLOAT",
     "cuda warp-staged getrf in float: the same (9: never; on an H200 the panels lost at n = 8, 0.194-0.197 against "
     "0.175-0.178 ms, and were even at n = 5 ... 7)",
     9},
    // float gemm at 25 ... 32: the 32 x 32 tile beats cuBLAS there (not in double, where
    // cuBLAS reaches 81-97% of the copy bandwidth)
    {"GEMM_TILE_MAX_FLOAT",
     "cuda gemm in float: GEMM_TILE_MAX (the tile kernel's largest max(m,n,k), at most 32; 0 disables). 32: on an "
     "H200 (session 17) n = 25 / 28 / 31 / 32 0.400-0.409 / 0.340-0.348 / 0.308-0.321 / 0.299-0.306 ms (cuBLAS) -> "
     "0.348-0.352 / 0.307-0.313 / 0.286 / 0.259-0.260 (docs/performance.md)",
     32},
    {"FUSED_WARP_AHEAD_MIN",
     "cuda fused call on FUSED_WARP_MIN's kernel with alpha != 0 and one slice a warp: smallest n (5 ... 8) whose "
     "next group's op(X) is copied into the slice once this group's products are in registers, during its LU, "
     "solve and write-back (0 disables). 5: on an H200 (session 18) double n = 5 / 6 / 7 / 8 0.250-0.254 / "
     "0.267-0.272 / 0.303-0.306 / 0.332-0.339 -> 0.241-0.245 / 0.243-0.246 / 0.285-0.289 / 0.320-0.323 ms, float "
     "even to 1.03x (docs/performance.md)",
     5},
    {"GETRS_WARP_AHEAD_MIN",
     "cuda getrs on GETRS_WARP_MIN's kernel with one slice a warp: smallest n whose next group's factors and b are "
     "copied into the slice once this group's are in registers, during its solve and write-back, x going out through "
     "n more cells a record (0 disables). 1: on an H200 (session 18) double n = 2 / 4 / 7 87 / 83 / 72% -> 94 / 94 / "
     "89% of the copy bandwidth, float n = 2 74% -> 85%, float n = 6 83% -> 80% (docs/performance.md)",
     1},
    // B's load in flight during the LU (desc.cu, il_fused with EarlyB): on an H200 double n = 7
    // went from 85.0% to 87.3% of the copy bandwidth (4 alternated rounds; n = 8 gained nothing
    // in this form), docs/performance.md, "Issue 9, the fused call at n = 8".
    {"INTERLEAVED_FUSED_EARLY_B",
     "cuda gemm_lu_trsv_desc, interleaved double items with n = k = 7 (unrolled product, above "
     "INTERLEAVED_FUSED_BOUNDED_MAX): 1 loads B's first column between the product and the LU (in flight during "
     "the LU), 0 after storing A",
     1},
    // In float the staged kernel beats the composed sequence above GEMM_LU_TRSV_SMALL_MAX (in
    // double it does not): docs/performance.md, "The fused call at n = 17 ... 32".
    {"GEMM_LU_TRSV_FULL_MAX_FLOAT",
     "cuda fused call in float with n > GEMM_LU_TRSV_SMALL_MAX: largest n run by FUSED_FULL_MIN's staged kernel "
     "(where it applies: k <= the group width, nrhs <= 1, within FUSED_FULL_MIN ... MAX) before the composed "
     "sequence; 0 disables. 29: on an H200 (session 26) float n = 17 ... 29 1.03-1.24x faster than the sequence, "
     "n = 32 slower",
     29},
    // getrf on square float items with two rows a lane (lu_two_rows.cuh): the pivot search
    // and the pivot row's loads paid once for two rows. Session 41, H200, against
    // GETRF_FULL_MIN's kernel: float n = 16 0.361 -> 0.317 ms, n = 9 0.710 -> 0.668, n = 12
    // level; in double it lost (n = 16 0.265 -> 0.317-0.338 ms), so it is built for float only.
    {"GETRF_TWO_ROWS_MIN_FLOAT",
     "cuda sgetrf, square items: smallest n factored by the kernel holding two rows a lane (8 lanes an item, "
     "padded to 16 with an identity, next item prefetched by cp.async) instead of GETRF_FULL_MIN's one row a "
     "lane; 0 disables. 9: on an H200 n = 16 0.361 -> 0.317 ms, n = 9 0.710 -> 0.668 ms, n = 12 level "
     "(docs/performance.md)",
     9},
    {"GETRF_TWO_ROWS_MAX_FLOAT", "cuda sgetrf, square items: largest n on the two-rows kernel (at most 16)", 16},
};

void report(char precision, const char *routine, const char *fmt, ...) {
    if (!core || !core->set_error) return;
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    core->set_error("kobalt_%c%s: %s", precision, routine, message);
}

kobalt_status launch_status(char p, const char *routine) {
    const cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return KOBALT_SUCCESS;
    report(p, routine, "CUDA launch failed: %s", cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? KOBALT_OUT_OF_MEMORY : KOBALT_BACKEND_ERROR;
}
kobalt_status blas_status(char p, const char *routine, cublasStatus_t s, const char *what) {
    if (s == CUBLAS_STATUS_SUCCESS) return KOBALT_SUCCESS;
    report(p, routine, "%s failed: %s", what, cublasGetStatusString(s));
    return s == CUBLAS_STATUS_ALLOC_FAILED ? KOBALT_OUT_OF_MEMORY : KOBALT_BACKEND_ERROR;
}
kobalt_status solver_status(char p, const char *routine, cusolverStatus_t s, const char *what) {
    if (s == CUSOLVER_STATUS_SUCCESS) return KOBALT_SUCCESS;
    report(p, routine, "%s failed: cusolver status %d", what, int(s));
    return s == CUSOLVER_STATUS_ALLOC_FAILED ? KOBALT_OUT_OF_MEMORY : KOBALT_BACKEND_ERROR;
}

namespace {
struct Handles {
    cublasHandle_t blas = nullptr;
    cusolverDnHandle_t solver = nullptr;
    ~Handles() {
        // Thread exit: the context may already be gone at process exit; errors ignored.
        if (blas) cublasDestroy(blas);
        if (solver) cusolverDnDestroy(solver);
    }
};
thread_local Handles handles;
int sm_count = 0;
} // namespace

cublasHandle_t blas_handle() {
    if (!handles.blas) {
        if (cublasCreate(&handles.blas) != CUBLAS_STATUS_SUCCESS) {
            handles.blas = nullptr;
            return nullptr;
        }
        cublasSetPointerMode(handles.blas, CUBLAS_POINTER_MODE_HOST);
    }
    cublasSetStream(handles.blas, stream());
    return handles.blas;
}
cusolverDnHandle_t solver_handle() {
    if (!handles.solver) {
        if (cusolverDnCreate(&handles.solver) != CUSOLVER_STATUS_SUCCESS) {
            handles.solver = nullptr;
            return nullptr;
        }
    }
    cusolverDnSetStream(handles.solver, stream());
    return handles.solver;
}
int multiprocessors() { return sm_count > 0 ? sm_count : 132; }

namespace {

int init(const kobalt_core_services *services, char *why, size_t why_size) {
    core = services;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        std::snprintf(why, why_size, "no usable CUDA driver or device (%s)", cudaGetErrorString(e));
        cudaGetLastError();
        return 1;
    }
    if (count == 0) {
        std::snprintf(why, why_size, "no CUDA device found");
        return 1;
    }
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev);
    return 0;
}

// Device and managed memory are this backend's own; host (registered or not) is not.
int claim(const void *ptr) {
    if (!ptr) return KOBALT_CLAIM_NONE;
    cudaPointerAttributes attr;
    const cudaError_t e = cudaPointerGetAttributes(&attr, ptr);
    if (e != cudaSuccess) {
        cudaGetLastError(); // clear the error so that it does not leak into a later call
        return KOBALT_CLAIM_NONE;
    }
    return attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged
               ? KOBALT_CLAIM_OWNER
               : KOBALT_CLAIM_NONE;
}

kobalt_status synchronize() {
    const cudaError_t e = cudaStreamSynchronize(stream());
    if (e == cudaSuccess) return KOBALT_SUCCESS;
    if (core && core->set_error)
        core->set_error("kobalt_synchronize: CUDA error on this thread's stream: %s",
                        cudaGetErrorString(e));
    return KOBALT_BACKEND_ERROR;
}

const kobalt_backend_table table = {
    .abi_version = KOBALT_BACKEND_ABI_VERSION,
    .struct_size = sizeof(kobalt_backend_table),
    .name = "cuda",
    .memory_space = "cuda device",
    .host_accessible = 0,
    .init = init,
    .claim = claim,
    .thresholds = thresholds,
    .threshold_count = THRESHOLD_COUNT,
    .synchronize = synchronize,
#define KOBALT_ROUTINE(name, params, args, route) .KOBALT_SLOT(name) = name<KOBALT_T>,
#include "kobalt/kobalt_routines_all.def"
#undef KOBALT_ROUTINE
};

} // namespace
} // namespace kobalt_cuda

extern "C" __attribute__((visibility("default"))) const kobalt_backend_table *
kobalt_backend_get_table(uint32_t core_abi_version) {
    (void)core_abi_version;
    return &kobalt_cuda::table;
}
