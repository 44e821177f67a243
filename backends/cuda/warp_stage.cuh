// warp_stage.cuh -- one thread per item in the standard layouts: each warp copies its 32
// items into its own slice of shared memory with cp.async, each lane then works on its item
// from the slice (in registers), and the warp writes the slice back the way it read it
// (lu_warp.cu: getrf; fused_warp.cu: the fused call; docs/cuda.md "Warp-staged kernels").
//
// Why: one thread per item with the item in registers is how the interleaved layout's
// kernels reach 75-86% of the copy bandwidth at n <= 8, but items stored one after the other
// cannot be read one per thread without wasting most of each memory transaction. Copied a
// warp at a time (consecutive lanes, consecutive addresses: whole lines for packed items)
// they can. No block barrier: a warp touches only its own slices, so the warps of an SM
// overlap their copies with each other's arithmetic.
//
// The slice of a group of 32 items holds `pitch` elements per item (an odd number, so that
// the 32 lanes' items start on different banks when each lane reads its own item); where a
// kernel takes WARP_STAGE_BUFFERS = 2, each warp has two slices and copies its next group
// into one while it works on the other.
#ifndef KOBALT_CUDA_WARP_STAGE_CUH
#define KOBALT_CUDA_WARP_STAGE_CUH

#include <cuda_pipeline.h>

#include <algorithm>

#include "common.cuh"

namespace kobalt_cuda {
namespace warp_stage {

constexpr int kWarpsPerBlock = 2;
constexpr unsigned kAll = 0xffffffffu;

// Elements per item in a slice: at least `cells`, odd.
__host__ __device__ constexpr int pitch(int cells) { return cells | 1; }

// Item `it` of the group starting at `first`: the strided form computes it; the pointer-array
// form reads the array once per lane (`mine`, lane it's item) and passes it by shuffle to the
// lanes copying that item's elements.
template <class T> __device__ __forceinline__ T *item_ptr(Strided<T> A, idx first, T *, int it) {
    return A(first + it);
}
template <class T> __device__ __forceinline__ T *item_ptr(Ptrs<T>, idx, T *mine, int it) {
    return reinterpret_cast<T *>(__shfl_sync(kAll, reinterpret_cast<unsigned long long>(mine), it));
}
template <class T> __device__ __forceinline__ T *own_ptr(Strided<T>, idx, int) { return nullptr; }
template <class T> __device__ __forceinline__ T *own_ptr(Ptrs<T> A, idx first, int lane) { return A(first + lane); }

// Whether the group's items of this operand lie one after the other with no gap (the strided
// form with stride E and, where an item has several columns (rows), ld == INNER): the group
// is then one run of 32 E elements. Never for pointer arrays.
template <int INNER, int OUTER, class T> __device__ __forceinline__ bool contiguous(Strided<T> A, idx ld) {
    return A.stride == INNER * OUTER && (OUTER == 1 || ld == INNER);
}
template <int INNER, int OUTER, class T> __device__ __forceinline__ bool contiguous(Ptrs<T>, idx) { return false; }

// The warp's copies of one operand of its `count` items: element (u, v) of an item stored
// INNER x OUTER (u the fast index: u + v * ld in memory) at cell off + u + v * INNER of the
// item's record in the slice. `in`: global -> slice by cp.async (the caller commits);
// otherwise slice -> global, only for the items whose bit is set in `which`. All 32 lanes
// call it (the pointer-array form shuffles). `flat` (WARP_STAGE_CONTIGUOUS) lets a contiguous
// group take the short loop: lane l copies elements l, l + 32, ... of the run, its item and
// the element's place in it carried from one to the next by additions (about a third of the
// general loop's instructions, which divides, multiplies and looks the item up for each).
template <int INNER, int OUTER, bool in, class T, class AA>
__device__ __forceinline__ void copy(bool flat, T *s, int P, int off, AA A, idx ld, idx first, int count,
                                     unsigned which = kAll) {
    constexpr int E = INNER * OUTER;
    const int lane = int(threadIdx.x % 32);
    if (flat && contiguous<INNER, OUTER>(A, ld)) {
        constexpr int q = 32 / E, rem = 32 % E;
        auto *p = A(first) + lane;
        int it = lane / E, r = lane % E;
#pragma unroll 4
        for (int t = 0; t < E; ++t) { // element lane + 32 t of the run = element r of item it
            if (it < count && (which >> it & 1u)) {
                T *const c = s + it * P + off + r;
                if constexpr (in)
                    __pipeline_memcpy_async(c, p, sizeof(T));
                else
                    *p = *c;
            }
            p += 32;
            it += q;
            r += rem;
            if (r >= E) {
                r -= E;
                ++it;
            }
        }
        return;
    }
    auto *const mine = lane < count ? own_ptr(A, first, lane) : nullptr;
#pragma unroll 8
    for (int e = lane; e < 32 * E; e += 32) {
        const int it = e / E, r = e % E;
        auto *const p = item_ptr(A, first, mine, it) + idx(r / INNER) * ld + r % INNER;
        T *const c = s + it * P + off + r;
        if (it < count && (which >> it & 1u)) {
            if constexpr (in)
                __pipeline_memcpy_async(c, p, sizeof(T));
            else
                *p = *c;
        }
    }
}

// The same for an N x N operand (INNER = OUTER = N whatever the layout) and for an N-vector
// stored as an N x 1 matrix (column-major: N x 1; row-major: 1 element a row, rows ld apart).
template <int N, bool in, class T, class AA>
__device__ __forceinline__ void copy_square(bool flat, T *s, int P, int off, AA A, idx ld, idx first, int count,
                                            unsigned which = kAll) {
    copy<N, N, in>(flat, s, P, off, A, ld, first, count, which);
}
template <int N, bool in, class T, class AA>
__device__ __forceinline__ void copy_vector(bool flat, bool col, T *s, int P, int off, AA B, idx ld, idx first,
                                            int count, unsigned which = kAll) {
    if (col)
        copy<N, 1, in>(flat, s, P, off, B, ld, first, count, which);
    else
        copy<1, N, in>(flat, s, P, off, B, ld, first, count, which);
}

// Cell of element (i, j) of an N x N record: U = the matrix's rows run along the stored fast
// index (column-major not transposed, or row-major transposed).
template <int N, bool U> __device__ __forceinline__ constexpr int cell(int i, int j) {
    return U ? i + j * N : j + i * N;
}

// An item's N x N record <-> registers a[i + j * N]: the record holds element (i, j) at
// cell<N, true>(i, j) where `u` (the stored fast index runs along the rows), otherwise at
// cell<N, false>(i, j). to_regs takes a longer a too, filling its first N * N elements
// (getrs_warp.cu keeps b after the factors).
template <int N, class T, int M> __device__ __forceinline__ void to_regs(bool u, const T *rec, T (&a)[M]) {
    static_assert(M >= N * N, "room for the N x N record");
#pragma unroll
    for (int j = 0; j < N; ++j)
#pragma unroll
        for (int i = 0; i < N; ++i) a[i + j * N] = rec[u ? cell<N, true>(i, j) : cell<N, false>(i, j)];
}
template <int N, class T> __device__ __forceinline__ void from_regs(bool u, const T (&a)[N * N], T *rec) {
#pragma unroll
    for (int j = 0; j < N; ++j)
#pragma unroll
        for (int i = 0; i < N; ++i) rec[u ? cell<N, true>(i, j) : cell<N, false>(i, j)] = a[i + j * N];
}

// This warp's BUF slices of 32 * P elements in the block's dynamic shared memory.
template <class T, int BUF> __device__ __forceinline__ T *warp_slices(int P) {
    extern __shared__ __align__(16) unsigned char warp_stage_smem[];
    return reinterpret_cast<T *>(warp_stage_smem) + (threadIdx.x / 32) * BUF * 32 * P;
}

// The warp's groups of 32 items (a grid-stride loop over groups), the setup shared by
// for_each_group and for_each_group_x_ahead: `lane`, the thread's lane; `step`, from one of
// the warp's groups to its next; `first`, the first item of its first group; count(f), the
// items of the group from item f (32 but at the end of the batch). Initialised in place, in
// the order of the locals it replaced, the kernels' code is unchanged (the same members
// returned as an aggregate by a helper function changed some getrs_warp kernels).
struct GroupWalk {
    const int lane = int(threadIdx.x % 32);
    const idx step = idx(gridDim.x) * (blockDim.x / 32) * 32;
    const idx first = (idx(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32) * 32;
    const idx batch;
    __device__ __forceinline__ explicit GroupWalk(idx b) : batch(b) {}
    __device__ __forceinline__ int count(idx f) const { return batch - f < 32 ? int(batch - f) : 32; }
};

// The warp's loop over its groups of 32 items (a grid-stride loop over groups): stage_in(slice,
// first, count) issues the copies of a group, work(record, lane_has_item, first) runs on each
// lane's record (after the copies landed; lanes past the batch work on stale cells and must
// not store), stage_out(slice, first, count) writes the group back. BUF = 2: the next group's
// copies are issued before work on this one starts. `s` is this warp's BUF slices of 32 * P
// elements each.
template <int BUF, class T, class In, class Work, class Out>
__device__ __forceinline__ void for_each_group(T *s, int P, idx batch, In stage_in, Work work, Out stage_out) {
    static_assert(BUF == 1 || BUF == 2, "one or two slices a warp");
    const GroupWalk w(batch);
    idx first = w.first;
    if (BUF == 2 && first < batch) stage_in(s, first, w.count(first));
    __pipeline_commit();
    for (int g = 0; first < batch; first += w.step, ++g) {
        T *const cur = s + (BUF == 2 ? (g & 1) * 32 * P : 0);
        const int count = w.count(first);
        if (BUF == 1) {
            stage_in(cur, first, count);
            __pipeline_commit();
            __pipeline_wait_prior(0);
        } else {
            // the other slice was written back at the end of the previous group
            const idx next = first + w.step;
            if (next < batch) stage_in(s + ((g + 1) & 1) * 32 * P, next, w.count(next));
            __pipeline_commit();
            __pipeline_wait_prior(1);
        }
        __syncwarp();
        work(cur + w.lane * P, w.lane < count, first);
        __syncwarp();
        stage_out(cur, first, count);
        __syncwarp(); // the slice is read before copies land in it again
    }
}

// for_each_group with one slice whose first part is copied a group ahead: stage_first(slice,
// first, count) issues the copies of the cells the kernel is done with once build(record, a)
// has read them into registers a (fused_warp.cu: op(X); getrs_warp.cu: the whole record but
// x's cells, its stage_rest empty); stage_rest the others. Per group:
// wait for both, build, issue the next group's stage_first, finish(record, a, lane_has_item,
// first), write back, issue the next group's stage_rest. stage_out must not read the cells
// stage_first writes. a holds E elements a lane.
template <int E, class T, class First, class Rest, class Build, class Finish, class Out>
__device__ __forceinline__ void for_each_group_x_ahead(T *s, int P, idx batch, First stage_first, Rest stage_rest,
                                                       Build build, Finish finish, Out stage_out) {
    const GroupWalk w(batch);
    idx first = w.first;
    if (first < batch) {
        stage_first(s, first, w.count(first));
        stage_rest(s, first, w.count(first));
    }
    __pipeline_commit();
    for (; first < batch; first += w.step) {
        const int count = w.count(first);
        const idx next = first + w.step;
        __pipeline_wait_prior(0);
        __syncwarp();
        T *const rec = s + w.lane * P;
        T a[E];
        build(rec, a);
        __syncwarp(); // every lane has read the cells stage_first overwrites
        if (next < batch) stage_first(s, next, w.count(next));
        __pipeline_commit();
        finish(rec, a, w.lane < count, first);
        __syncwarp();
        stage_out(s, first, count);
        __syncwarp(); // the slice is read before copies land in it again
        if (next < batch) stage_rest(s, next, w.count(next));
        __pipeline_commit();
    }
}

// Launches kernel<<<grid, `warps` warps a block>>> with `bytes_per_warp` of dynamic shared
// memory a warp, the grid the resident blocks (each warp walks several groups of
// `items_per_warp` items), at most one warp per group. false when the device cannot hold one
// block (nothing launched). Also used by fused_full.cu (a group of W lanes per item).
template <class Kernel, class... Args>
bool launch_resident(Kernel kernel, int warps, size_t bytes_per_warp, int items_per_warp, idx batch,
                     cudaStream_t st, Args... args) {
    const size_t smem = bytes_per_warp * warps;
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
        smem > size_t(optin)) {
        cudaGetLastError();
        return false;
    }
    // the device's largest opt-in size rather than this call's: a kernel serves calls of
    // several sizes (beta != 0 adds A to a record or slot), and setting each call's own size
    // races, a concurrent call lowering it under another's launch (lu_block.cu had that bug)
    if (smem > 48 * 1024 &&
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, warps * 32, smem) != cudaSuccess ||
        per_sm < 1) {
        cudaGetLastError();
        per_sm = 1;
    }
    const idx groups = (batch + items_per_warp - 1) / items_per_warp;
    const idx blocks = std::min<idx>((groups + warps - 1) / warps, idx(multiprocessors()) * per_sm);
    kernel<<<int(std::max<idx>(blocks, 1)), warps * 32, smem, st>>>(args...);
    return true;
}
// One thread per item: 32 items a warp (at most kWarpsPerBlock warps a block).
template <class Kernel, class... Args>
bool launch(Kernel kernel, int warps, size_t bytes_per_warp, idx batch, cudaStream_t st, Args... args) {
    return launch_resident(kernel, warps, bytes_per_warp, 32, batch, st, args...);
}

// Launches a warp-staged kernel with one slice of `bytes_per_slice` a warp (`one`, its
// BUF = 1 instantiation) or two (`two`) as WARP_STAGE_BUFFERS says; the kernel's first
// argument is WARP_STAGE_CONTIGUOUS (the `flat` of copy()). These two settings are read here only.
template <class One, class Two, class... Args>
bool launch_staged(One one, Two two, int warps, size_t bytes_per_slice, idx batch, cudaStream_t st,
                   Args... args) {
    const bool flat = threshold(WARP_STAGE_CONTIGUOUS) != 0;
    if (threshold(WARP_STAGE_BUFFERS) == 2) return launch(two, warps, 2 * bytes_per_slice, batch, st, flat, args...);
    return launch(one, warps, bytes_per_slice, batch, st, flat, args...);
}

} // namespace warp_stage
} // namespace kobalt_cuda

#endif
