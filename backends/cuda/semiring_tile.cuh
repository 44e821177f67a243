// semiring_tile.cuh -- the tile kernel of gemm_semiring (SEMIRING_TILE_MIN, or for the float
// semirings other than OR_AND SEMIRING_TILE_MIN_FLOAT, <= max(m, n) <= 32; any k; docs/
// cuda.md), and since session 9 of gemm (the PLUS_TIMES ring of semiring_ops.cuh, GEMM_TILE_MIN
// <= max(m, n, k) <= GEMM_TILE_MAX: gemm_tile.cu). Included by semiring.cu and gemm_tile.cu only.
//
// Why: at n = 32 the W = 32 group kernel keeps a whole row of C (32 accumulators) plus a
// row of A per lane (242 registers in double, 2 blocks per SM) and reads B through one
// broadcast shared load per two terms, so it runs at half the memory bandwidth (docs/
// performance.md). Here one block of 64 threads owns an item:
//   - op(A) and op(B) are staged 32 values of k at a time into shared memory by asynchronous
//     copies (cp.async), coalesced (lanes along whichever stride of the operand is unit), A
//     as columns (p, i) and B as rows (p, j), so that the four rows / columns a thread
//     needs are contiguous;
//   - each thread keeps a 4 x 4 tile of C in registers: per p, two 4-wide shared loads feed
//     16 terms (a 4x4 outer product), so the loop is the semiring's arithmetic plus 1/4 load
//     per term; for max(m, n) <= SEMIRING_TILE_SMALL_MAX (24) a 3 x 3 tile per thread, so the
//     block covers 24 x 24 and does 56% of the 32 x 32 tile's terms at n = 24 (not OR_AND);
//   - full chunks of k (32, or 24 on the 24 x 24 tile) run a loop of known count, and the
//     staging takes its stride test once per operand (Session 7 of docs/performance.md:
//     H200, double n = 24 / 32 min-plus 0.356 -> 0.321 / 0.335 -> 0.316 ms); since Session 8
//     the loop is unrolled by 8 and in-bounds stages copy without bound tests (H200, double
//     n = 32 min-plus 0.314-0.320 -> 0.301-0.302 ms, min-max 0.419-0.439 -> 0.398-0.403 ms);
//   - C goes back through shared memory and is written (and read, when beta asks) in its
//     storage order, coalesced in both layouts; on the 32 x 32 tile each thread walks its 16
//     elements with one pointer (the leaner write-back of docs/performance.md, Session 5;
//     writing C straight from the registers, with the next stage issued first, spilled and
//     was slower: Session 7).
// The operations are semiring_ops.cuh's, NaN rules included (in double: DSETP and two
// selects per term; a test by the sign of a difference, without DSETP, and a two-buffer
// pipeline were both measured slower on an H200; on an H100, a predicated recompute instead
// of the selects, a NaN-free fast path for MIN_MAX chunks checked once per stage, and
// register caps of 80 or 128 were no faster; on an H100, CUDA's fmin/fmax in double (no
// single instruction on sm_90: DSETP + FSEL + SEL) was 30-60% slower and the largest
// shared-memory carveout, with or without a 12-block cap, slower too: docs/performance.md). OR_AND does not
// multiply at all: each chunk becomes 32-bit masks (row i of op(A): bit p = A(i,p) != 0;
// column j of op(B) likewise, one warp ballot each) and element (i, j) is
// (maskA[i] & maskB[j]) != 0.
#ifndef KOBALT_CUDA_SEMIRING_TILE_CUH
#define KOBALT_CUDA_SEMIRING_TILE_CUH

#include <algorithm>
#include <cstdint>

#include "common.cuh"
#include "semiring_ops.cuh"

namespace kobalt_cuda {
namespace {

constexpr int kTileThreads = 64; // 8 x 8 threads, a 4 x 4 register tile of C each
constexpr int kTileDim = 32;     // the largest max(m, n), and the chunk of k staged at once
// Blocks per SM the registers must allow (<= 96 registers a thread): shared memory allows
// 12 (one buffer, 17.4 KB a block in double) or 6 (two) at the largest carveout, and 10 at
// the 200.7 KB the driver chose on an H100 (ncu), which is why a cap of 80 registers (12
// blocks) gained nothing; left to itself ptxas took 166 registers in double.
constexpr int kTileBlocksPerSM = 10;
// Shared pitch (elements) of the staged columns: a multiple of 16 bytes, so that the 4-wide
// loads stay aligned, and not of 128 bytes, so that the transposing stores of the staging
// spread over the banks.
template <class T> constexpr int tile_pitch() { return sizeof(T) == 8 ? 34 : 36; }

template <class T> struct alignas(16) Quad {
    T v[4];
};

// Shared-window address of p (32 bits).
template <class T> __device__ __forceinline__ unsigned shared_address(T *p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
// Asynchronous copy of one element, global to shared address d (cp.async, sm_80+): no
// register holds the value, so a thread keeps all of its loads in flight at no register
// cost. (Staging through registers instead took the kernel to 234-250 registers, 4 blocks
// per SM.) d is computed once per stage: d + a constant folds into the instruction's
// immediate offset.
template <class T> __device__ __forceinline__ void copy_async(unsigned d, const T *src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"(int(sizeof(T))) : "memory");
}
__device__ __forceinline__ void copy_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void copy_async_wait_all() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }
// All but the most recently committed group have landed.
__device__ __forceinline__ void copy_async_wait_previous() { asm volatile("cp.async.wait_group 1;\n" ::: "memory"); }

// NQ copies, q = 0 .. NQ-1, to d + q * DSTEP bytes from src + q * step, no bound tests.
template <int NQ, unsigned DSTEP, class T>
__device__ __forceinline__ void copy_async_run(unsigned d, const T *src, idx step) {
#pragma unroll
    for (int q = 0; q < NQ; ++q) {
        copy_async(d + q * DSTEP, src);
        src += step;
    }
}
// Thread t's share of the chunk w(r, p0 + p), r < rows <= D, p < pe <= KC, staged at
// s[p * pitch + r]: up to KC / 2 or D / 2 elements (the loops over partial chunks and rows
// are bounded by the tile, not by 32: 16 bound-tested copies a thread on the 24 x 24 tile
// where 12 can be in bounds, until session 24), lanes along whichever index of w has unit
// stride (coalesced), the other index hi + 2q. The stride test is taken once, the shared address converted once and the global
// pointer stepped; where every copy is in bounds (the 32 x 32 tile's full chunks, the 24 x 24
// tile at k = 24) a run of fixed count without bound tests: about 3.4 SASS instructions a copy
// (the pointer step, the cp.async, a move), where the per-copy bound test and address
// conversion took about 10 (double, sm_90; H200, min-max n = 24: 0.408-0.412 -> 0.384-0.386
// ms, n = 32: 0.419-0.439 -> 0.409-0.412 ms: docs/performance.md, Session 8). (A version that mapped (r, p) per copy from
// runtime strides, with 64-bit index arithmetic per copy, made the kernel 3-7% slower on an
// H200: Session 7; one code path for both strides, selecting by the unit stride, spilled.)
template <int KC, int D, class T>
__device__ __forceinline__ void tile_stage(const Mat<const T> &w, int rows, int p0, int pe, T *s) {
    constexpr int P = tile_pitch<T>();
    constexpr unsigned E = sizeof(T);
    const int lo = int(threadIdx.x) & 31, hi = int(threadIdx.x) >> 5;
    if (w.rs == 1) { // lanes along r, q along p = hi + 2q
        if (lo >= rows) return;
        const T *src = &w(lo, p0 + hi);
        const idx step = 2 * w.cs;
        const unsigned d = shared_address(s + hi * P + lo);
        // a full chunk (and k = 24 on the 24 x 24 tile): a fixed count, no bound tests
        if (pe == kTileDim) return copy_async_run<16, 2 * P * E>(d, src, step);
        if (pe == 24) return copy_async_run<12, 2 * P * E>(d, src, step);
#pragma unroll
        for (int q = 0; q < KC / 2; ++q) {
            if (hi + 2 * q < pe) copy_async(d + 2 * q * P * E, src);
            src += step;
        }
    } else { // lanes along p, q along r = hi + 2q
        if (lo >= pe) return;
        const T *src = &w(hi, p0 + lo);
        const idx step = 2 * w.rs;
        const unsigned d = shared_address(s + lo * P + hi);
        if (rows == kTileDim) return copy_async_run<16, 2 * E>(d, src, step);
        if (rows == 24) return copy_async_run<12, 2 * E>(d, src, step);
#pragma unroll
        for (int q = 0; q < D / 2; ++q) {
            if (hi + 2 * q < rows) copy_async(d + 2 * q * E, src);
            src += step;
        }
    }
}

// Micro-tiles: TM x TM elements of C per thread, 8 x 8 threads, so a tile of 8 TM x 8 TM (TM =
// 4: 32 x 32; TM = 3: 24 x 24, for max(m, n) <= SEMIRING_TILE_SMALL_MAX, where the 32 x 32 tile
// would waste up to 44-72% of its terms). Thread (g, h) owns rows TM g .. TM g + TM - 1 and
// columns TM h ...; with TM = 4 its values are one aligned 4-wide shared load away, with TM = 3
// three scalar loads (a position map that aligned them, rows 2g, 2g + 1, 16 + g as one pair
// and one scalar load, was no faster on an H200: docs/performance.md, Session 7).
//
// acc[r][c] (+)= op(A)(i0 + r, p) (x) op(B)(p, j0 + c) over the staged p < pe. Rows and
// columns beyond m, n compute junk from unstaged shared memory; they are never stored.
template <int TM, class T>
__device__ __forceinline__ void tile_load(const T *sA, const T *sB, int p, int i0, int j0, Quad<T> &a, Quad<T> &b) {
    constexpr int P = tile_pitch<T>();
    if constexpr (TM == 4) {
        a = *reinterpret_cast<const Quad<T> *>(sA + p * P + i0);
        b = *reinterpret_cast<const Quad<T> *>(sB + p * P + j0);
    } else {
#pragma unroll
        for (int r = 0; r < TM; ++r) {
            a.v[r] = sA[p * P + i0 + r];
            b.v[r] = sB[p * P + j0 + r];
        }
    }
}
template <int S, int TM, class T>
__device__ __forceinline__ void tile_terms(const Quad<T> &a, const Quad<T> &b, T (&acc)[TM][TM]) {
#pragma unroll
    for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TM; ++c) acc[r][c] = hadd<S>(acc[r][c], Ring<S>::hmul(a.v[r], b.v[c]));
}
// A whole chunk of NP values of k (known at compile time), unrolled by kTileUnroll.
// Unroll 8: ptxas rotates the accumulators through fresh registers and moves them back once
// per unrolled iteration (32 moves per iteration, sm_90), so 8 p per iteration (128 terms)
// halve the moves of 4: double min-plus 5.0 -> 4.55 SASS instructions a term, min-max 7.2 ->
// 6.9. 16 (4.4 a term) and a complete unroll were slower (presumably the instruction cache):
// docs/performance.md, Sessions 7 and 8.
constexpr int kTileUnroll = 8;
template <int S, int TM, int NP, class T>
__device__ __forceinline__ void tile_product_fixed(const T *sA, const T *sB, int i0, int j0, T (&acc)[TM][TM]) {
#pragma unroll kTileUnroll
    for (int p = 0; p < NP; ++p) {
        Quad<T> a, b;
        tile_load<TM>(sA, sB, p, i0, j0, a, b);
        tile_terms<S, TM>(a, b, acc);
    }
}
// Full chunks (pe = 32, and pe = 24 on the 24 x 24 tile) take a loop of known count (shared
// loads at immediate offsets, no remainder tests; H200, double min-plus n = 24: 0.357 -> 0.346
// ms, n = 32: 0.337 -> 0.333 ms); partial chunks keep the runtime loop.
template <int S, int TM, class T>
__device__ __forceinline__ void tile_product(const T *sA, const T *sB, int pe, int i0, int j0, T (&acc)[TM][TM]) {
    if (pe == kTileDim) return tile_product_fixed<S, TM, kTileDim>(sA, sB, i0, j0, acc);
    if (TM == 3 && pe == 24) return tile_product_fixed<S, TM, 24>(sA, sB, i0, j0, acc);
#pragma unroll 2
    for (int p = 0; p < pe; ++p) {
        Quad<T> a, b;
        tile_load<TM>(sA, sB, p, i0, j0, a, b);
        tile_terms<S, TM>(a, b, acc);
    }
}

// OR_AND: the chunk's masks (warp w builds rows / columns 16w .. 16w+15 by ballots over p),
// then acc[r][c] = acc or (maskA[i0 + r] & maskB[j0 + c]) != 0.
template <class T>
__device__ __forceinline__ void tile_or_and(const T *sA, const T *sB, unsigned *mA, unsigned *mB, int pe, int i0,
                                            int j0, T (&acc)[4][4]) {
    constexpr int P = tile_pitch<T>();
    const int lane = int(threadIdx.x) & 31, w = int(threadIdx.x) >> 5;
    for (int q = 16 * w; q < 16 * w + 16; ++q) {
        const unsigned a = __ballot_sync(0xffffffffu, lane < pe && sA[lane * P + q] != T(0));
        const unsigned b = __ballot_sync(0xffffffffu, lane < pe && sB[lane * P + q] != T(0));
        if (lane == 0) {
            mA[q] = a;
            mB[q] = b;
        }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c)
            if (mA[i0 + r] & mB[j0 + c]) acc[r][c] = T(1);
}

// The block walks a sequence of stages (item, chunk of k): items blockIdx.x, + gridDim.x, ...,
// chunks p0 = 0, 32, ... < k. With two buffers (dynamic shared memory: buffers * 2 * 32 *
// pitch elements), stage s + 1 is copied into one while stage s is computed from the other,
// at the price of half the blocks per SM; with one, the copy of stage s + 1 starts after
// stage s and other blocks fill the wait (faster on an H200: docs/performance.md).
// KC: the chunk of k staged at once (and the rows of C a buffer holds on the way out: KC >=
// 8 TM); MINB: blocks per SM the registers must allow. gemm's 24 x 24 tile takes KC = 24,
// MINB = 16 (13.1 KB a block in double) and its 32 x 32 tile MINB = 12 (gemm_tile.cu).
template <int S, int TM, class T, int KC, int MINB, class AA, class BA, class CA>
__global__ void __launch_bounds__(kTileThreads, MINB)
    semiring_tile(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta, MatDesc dC, CA C,
                  idx batch, bool prod, bool readc, bool two) {
    static_assert(KC >= 8 * TM && KC <= kTileDim, "a buffer holds the tile's C");
    constexpr int P = tile_pitch<T>(), E = KC * P;
    // buffer b: [op(A) columns | op(B) rows] at smem + 2E b; after an item's last chunk its
    // buffer's op(A) part holds C (column j at j * P) on the way out.
    extern __shared__ __align__(16) unsigned char tile_smem[];
    T *const smem = reinterpret_cast<T *>(tile_smem);
    __shared__ unsigned mA[kTileDim], mB[kTileDim];
    static_assert(S != KOBALT_OR_AND || TM == 4, "OR_AND's masks assume the 32 x 32 tile");
    constexpr int D = 8 * TM; // the tile's rows and columns
    // i0, j0: this thread's first row of op(A) and column of op(B)
    const int t = int(threadIdx.x), i0 = TM * (t & 7), j0 = TM * (t >> 3);
    auto stage = [&](idx item, int p0, T *buf) {
        const int pe = min(KC, k - p0);
        tile_stage<KC, 8 * TM>(dA.global<const T>(A(item)), m, p0, pe, buf);
        tile_stage<KC, 8 * TM>(dB.global<const T>(B(item)).t(), n, p0, pe, buf + E);
        copy_async_commit();
    };
    T acc[TM][TM];
#pragma unroll
    for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TM; ++c) acc[r][c] = Ring<S>::template zero<T>();
    idx item = blockIdx.x;
    int p0 = 0, b = 0;
    if (prod && item < batch) stage(item, 0, smem);
    while (item < batch) {
        idx next_item = item;
        int next_p0 = p0 + KC;
        if (!prod || next_p0 >= k) {
            next_item = item + gridDim.x;
            next_p0 = 0;
        }
        T *const sA = smem + 2 * E * b, *const sB = sA + E;
        if (prod) {
            if (two) {
                __syncthreads(); // the other buffer's last reader (product or C) is done
                if (next_item < batch) {
                    stage(next_item, next_p0, smem + 2 * E * (b ^ 1));
                    copy_async_wait_previous();
                } else {
                    copy_async_wait_all();
                }
            } else {
                copy_async_wait_all();
            }
            __syncthreads();
            const int pe = min(KC, k - p0);
            if constexpr (S == KOBALT_OR_AND) tile_or_and(sA, sB, mA, mB, pe, i0, j0, acc);
            else tile_product<S, TM>(sA, sB, pe, i0, j0, acc);
        }
        if (next_p0 == 0) { // the item's last chunk: C out through sA
            __syncthreads(); // every thread is done reading sA
#pragma unroll
            for (int c = 0; c < TM; ++c) {
                if constexpr (TM == 4) {
                    Quad<T> q;
#pragma unroll
                    for (int r = 0; r < 4; ++r) q.v[r] = acc[r][c];
                    *reinterpret_cast<Quad<T> *>(sA + (j0 + c) * P + i0) = q;
                } else {
#pragma unroll
                    for (int r = 0; r < TM; ++r) sA[(j0 + c) * P + i0 + r] = acc[r][c];
                }
#pragma unroll
                for (int r = 0; r < TM; ++r) acc[r][c] = Ring<S>::template zero<T>();
            }
            __syncthreads();
            // C's D x D block in its storage order, lanes along the unit stride: thread t's
            // elements share one index along it (t & 31; lanes at or beyond D idle on the
            // 24 x 24 tile) and step by 2 along the other (D / 2 of them), so one pointer and
            // one increment instead of 64-bit index arithmetic per element (n = 32, H100:
            // min-plus 0.384 -> 0.347 ms, min-max 0.488 -> 0.443 ms; it also removed
            // min-max's register spills). The 24 x 24 tile walked its 576 positions e = t, t +
            // 64, ... with e % 24, e / 24 and two bound tests per element until session 24
            // (with the staging loops bounded by the chunk, H200 gemm n = 17 / 20 / 24: 0.349
            // / 0.283 / 0.244 -> 0.303 / 0.251 / 0.237 ms: docs/performance.md).
            const Mat<T> vc = dC.global(C(item));
            const bool unit_i = vc.rs == 1;
            const int u = t & 31, w0 = t >> 5;
            const int i = unit_i ? u : w0, j = unit_i ? w0 : u;
            T *pc = &vc(i, j); // not dereferenced unless (i, j) is inside C
            const idx step = 2 * (unit_i ? vc.cs : vc.rs);
            const int lim = unit_i ? n : m;
            if (unit_i ? i < m : j < n) {
#pragma unroll 4
                for (int q = 0; q < D / 2; ++q) {
                    const int w = w0 + 2 * q; // the index along the other stride
                    if (w < lim) {
                        const T cv = readc ? *pc : T(0);
                        const T pv = unit_i ? sA[w * P + i] : sA[j * P + w];
                        *pc = epilogue<S>(prod, alpha, pv, readc, beta, cv);
                    }
                    pc += step;
                }
            }
        }
        if (!two && prod && next_item < batch) {
            __syncthreads(); // the buffer's readers are done
            stage(next_item, next_p0, smem);
        }
        item = next_item;
        p0 = next_p0;
        b = two ? b ^ 1 : 0;
    }
    copy_async_wait_all();
}

// Launch: one block per item by default (SEMIRING_TILE_BLOCKS_PER_SM = 0), so the hardware's
// block scheduler hands out items one at a time to whichever SM has room; N > 0: min(batch,
// N blocks per SM), each walking items grid-stride (32 was the grid before session 9). On an
// H200 one block per item took double n = 32 min-plus from 0.302 to 0.282 ms and min-max from
// 0.397 to 0.386 ms; one resident wave (the occupancy query's count per SM) was slower than
// either (0.307-0.309 / 0.426-0.427 ms): docs/performance.md, session 9. The same grid serves
// gemm's tile (gemm_tile.cu). The 24 x 24 tile up to SEMIRING_TILE_SMALL_MAX (not for OR_AND,
// whose masks are 32 bits wide). two: two stage buffers (SEMIRING_TILE_BUFFERS,
// GEMM_TILE_BUFFERS).
template <int S, int TM, class T, int KC = kTileDim, int MINB = kTileBlocksPerSM, class AA, class BA, class CA>
void launch_tile_as(cudaStream_t st, int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta,
                    MatDesc dC, CA C, idx batch, bool prod, bool readc, bool two) {
    const size_t bytes = size_t(two ? 2 : 1) * 2 * KC * tile_pitch<T>() * sizeof(T);
    const idx per_sm = threshold(SEMIRING_TILE_BLOCKS_PER_SM);
    const idx cap = per_sm > 0 ? idx(multiprocessors()) * std::min<idx>(per_sm, INT32_MAX) : batch;
    const idx blocks = std::min<idx>({batch, cap, INT32_MAX}); // beyond 2^31 - 1 items: grid-stride
    const auto kernel = semiring_tile<S, TM, T, KC, MINB, AA, BA, CA>;
    if constexpr (S == KOBALT_PLUS_TIMES) {
        // gemm: the largest carveout, so that shared memory is not what limits the blocks per SM
        // below MINB (the semirings keep the driver's choice: docs/performance.md, Session 8)
        static const bool carved = [&] {
            cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                 int(cudaSharedmemCarveoutMaxShared));
            cudaGetLastError();
            return true;
        }();
        (void)carved;
    }
    kernel<<<int(blocks), kTileThreads, bytes, st>>>(m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch, prod, readc,
                                                     two);
}
template <int S, class T, class AA, class BA, class CA>
void launch_tile(cudaStream_t st, int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta,
                 MatDesc dC, CA C, idx batch, bool prod, bool readc) {
    const bool two = threshold(SEMIRING_TILE_BUFFERS) >= 2;
    if constexpr (S != KOBALT_OR_AND) {
        if (std::max(m, n) <= std::min<kobalt_int>(threshold(SEMIRING_TILE_SMALL_MAX), 24))
            return launch_tile_as<S, 3, T>(st, m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch, prod, readc, two);
    }
    launch_tile_as<S, 4, T>(st, m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch, prod, readc, two);
}

} // namespace
} // namespace kobalt_cuda

#endif
