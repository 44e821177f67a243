// lu_block.cuh -- getrf for square pivoted items of 33 .. 64 (1 .. 64 with GETRF_SMALL_MAX = 0) on
// one thread block per item (GETRF_SMALL_MAX < n <= GETRF_BLOCK_MAX, docs/cuda.md), in place
// of cuBLAS getrfBatched with its snapshot and check (routines.cu, lu_inplace): dgetf2's
// pivots and info are built in, so singular and NaN items need no second pass.
//
// Shape: NW warps; lane l holds the physical rows l, l + 32, ... (RT of them), warp w the
// columns w, w + NW, ... (CT = 32 RT / NW), all in registers (a[RT][CT]). The item goes
// global -> shared memory (coalesced in either layout, column-major there with an odd
// leading dimension) -> registers, and back the same way.
// Interchanges are lazy as in the group kernels (lu_bcast.cuh): rows never move, each
// keeps a logical label, and the final store puts physical row r at logical row label(r).
// Step j (column j lives in warp j % NW, register column j / NW -- a compile-time index,
// since the step loop runs over register columns outside and warps inside):
//  - that warp finds the pivot with three redux.sync (two in float) on the bits of |a|
//    (first largest |a| by logical row, NaN only on the diagonal: pivot_of's key),
//    exchanges the labels, scales its column (reciprocal when |pivot| >= the smallest
//    normal, else division; no scaling on a zero pivot) and writes it to shared memory;
//  - one __syncthreads per step;
//  - every warp takes the pivot row's values of its own columns by shuffles from the lane
//    that holds it (no second barrier) and updates its rows whose label is below j.
// Shared memory is the staging copy n (n + 1) elements plus two column buffers (alternating
// by step, so one barrier per step orders writes and reads): 34 KiB at n = 64 in double,
// under the 48 KiB default (the shapes up to n = 128, 132 KiB, were removed in session 10);
// the launcher still opts in (cudaFuncSetAttribute) to the shape's largest need and falls
// back to cuBLAS when the device cannot give it.
#ifndef KOBALT_CUDA_LU_BLOCK_CUH
#define KOBALT_CUDA_LU_BLOCK_CUH

#include "common.cuh"

namespace kobalt_cuda {

// Launches the kernel when n fits its shapes (n <= 64: RT = 1 or 2 rows a lane) and the
// device gives the shared memory; false otherwise (nothing queued). warps: 8, else 4.
template <class T, class AA>
bool block_getrf(int n, MatDesc dA, AA A, int *ipiv, idx strideIpiv, int *info, idx batch, int warps,
                 cudaStream_t st);

namespace lublock {

constexpr unsigned kFull = 0xffffffffu;

// Shared memory of one block: staging n (n + 1), two column buffers of 32 RT, two pivots;
// then the ints: two (label, physical row) pairs and the pivots of the item.
template <class T> size_t smem_bytes(int n, int RT) {
    return sizeof(T) * (size_t(n) * (n + 1) + 2 * 32 * size_t(RT) + 2) + sizeof(int) * (4 + 32 * size_t(RT));
}

// The pivot's tag (label << 8 | physical row) among this warp's candidates: largest key,
// then smallest label. key: 0 for rows already factored and NaNs off the diagonal, |a|'s
// bits + 1 otherwise, all ones for a NaN on the diagonal (lu_bcast.cuh, pivot_of).
__device__ __forceinline__ unsigned warp_pivot(unsigned long long key, unsigned tag) {
    const unsigned hi = unsigned(key >> 32), lo = unsigned(key);
    const unsigned mhi = __reduce_max_sync(kFull, hi);
    const unsigned mlo = __reduce_max_sync(kFull, hi == mhi ? lo : 0u);
    return __reduce_min_sync(kFull, hi == mhi && lo == mlo ? tag : ~0u);
}
__device__ __forceinline__ unsigned warp_pivot(unsigned key, unsigned tag) {
    const unsigned mk = __reduce_max_sync(kFull, key);
    return __reduce_min_sync(kFull, key == mk ? tag : ~0u);
}
__device__ __forceinline__ unsigned long long pivot_key(double v, bool diag) {
    return isnan(v) ? (diag ? ~0ull : 0ull) : (unsigned long long)__double_as_longlong(fabs(v)) + 1;
}
__device__ __forceinline__ unsigned pivot_key(float v, bool diag) {
    return isnan(v) ? (diag ? ~0u : 0u) : __float_as_uint(fabsf(v)) + 1;
}

template <class T, int RT, int NW, class AA>
__global__ void __launch_bounds__(NW * 32, NW == 4 ? 4 : 1)
    getrf_block(int n, MatDesc dA, AA A, int *ipiv, idx sp, int *info, idx batch) {
    constexpr int CT = 32 * RT / NW; // register columns per thread
    constexpr int NR = 32 * RT;      // rows (and columns) the shape covers
    using Key = decltype(pivot_key(T(0), false));
    extern __shared__ __align__(16) unsigned char lu_block_smem[];
    const int ld1 = n + 1; // odd: a warp's row-major writes spread over the banks
    T *const S = reinterpret_cast<T *>(lu_block_smem);
    T *const colb = S + idx(n) * ld1; // [2][NR]
    T *const pvs = colb + 2 * NR;     // [2]
    int *const ctl = reinterpret_cast<int *>(pvs + 2); // label [2], physical row [2]
    int *const piv = ctl + 4;                          // [NR]
    const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5;

    for (idx item = blockIdx.x; item < batch; item += gridDim.x) {
        const Mat<T> g = dA.global<T>(A(item));
        // global -> shared: lanes along the item's contiguous dimension
        if (dA.col) {
            for (int c = warp; c < n; c += NW)
#pragma unroll 4
                for (int r = lane; r < n; r += 32) S[c * ld1 + r] = g(r, c);
        } else {
            for (int r = warp; r < n; r += NW)
#pragma unroll 4
                for (int c = lane; c < n; c += 32) S[c * ld1 + r] = g(r, c);
        }
        __syncthreads();
        T a[RT][CT];
        int lab[RT]; // logical row of physical row lane + 32 i (-1: beyond n)
#pragma unroll
        for (int i = 0; i < RT; ++i) {
            const int r = lane + 32 * i;
            lab[i] = r < n ? r : -1;
#pragma unroll
            for (int k = 0; k < CT; ++k) {
                const int c = warp + NW * k;
                a[i][k] = r < n && c < n ? S[c * ld1 + r] : T(0);
            }
        }
        int inf = 0;
#pragma unroll
        for (int kb = 0; kb < CT; ++kb) {
            // (no `break` out of this loop: it must unroll, so that kb indexes registers)
#pragma unroll 1
            for (int w = 0; w < NW && kb * NW + w < n; ++w) {
                const int j = kb * NW + w;
                const int buf = j & 1;
                if (warp == w) { // the warp holding column j: pivot, labels, scaled column
                    // this lane's best candidate, its value and reciprocal (every candidate's
                    // reciprocal is computed, off the pivot search's path). No selection of
                    // a register row by a computed index: nvcc turns such selects into an
                    // indexed load and moves the item to local memory.
                    Key best = 0;
                    unsigned btag = ~0u;
                    T bv = T(0), brc = T(0);
#pragma unroll
                    for (int i = 0; i < RT; ++i) {
                        const T v = a[i][kb];
                        const T rc = T(1) / v;
                        const Key key = lab[i] >= j ? pivot_key(v, lab[i] == j) : Key(0);
                        const unsigned tag = (unsigned(lab[i]) << 8) | unsigned(lane + 32 * i);
                        if (key > best || (key == best && tag < btag)) {
                            best = key;
                            btag = tag;
                            bv = v;
                            brc = rc;
                        }
                    }
                    const unsigned t = warp_pivot(best, btag);
                    const int pl = int(t >> 8), pr = int(t & 255u);
                    const T pv = __shfl_sync(kFull, bv, pr & 31);
                    const T rp = __shfl_sync(kFull, brc, pr & 31);
                    const bool swap = pv != T(0) && pl != j;
#pragma unroll
                    for (int i = 0; i < RT; ++i) {
                        if (swap) {
                            if (lab[i] == j) lab[i] = pl;
                            else if (lane + 32 * i == pr) lab[i] = j;
                        }
                        if (lab[i] > j) {
                            T v = a[i][kb];
                            if (pv != T(0)) v = dgetf2_scale(v, pv, rp); // rp == 1 / pv
                            a[i][kb] = v;
                            colb[buf * NR + lane + 32 * i] = v;
                        }
                    }
                    if (lane == 0) {
                        pvs[buf] = pv;
                        ctl[buf] = pl;
                        ctl[2 + buf] = pr;
                        piv[j] = pl;
                    }
                }
                __syncthreads();
                const T pv = pvs[buf];
                const int pl = ctl[buf], pr = ctl[2 + buf];
                if (pv == T(0) && inf == 0) inf = j + 1;
                if (warp != w && pv != T(0) && pl != j) {
#pragma unroll
                    for (int i = 0; i < RT; ++i) {
                        if (lab[i] == j) lab[i] = pl;
                        else if (lane + 32 * i == pr) lab[i] = j;
                    }
                }
                // the pivot row's values of this warp's columns from the lane holding it: the
                // row now labelled j (also on a zero pivot, which is then row j itself)
                T u[CT];
#pragma unroll
                for (int k = kb; k < CT; ++k) {
                    T s = T(0);
#pragma unroll
                    for (int i = 0; i < RT; ++i)
                        if (lab[i] == j) s = a[i][k];
                    u[k] = __shfl_sync(kFull, s, pr & 31);
                }
#pragma unroll
                for (int i = 0; i < RT; ++i)
                    if (lab[i] > j) {
                        const T l = colb[buf * NR + lane + 32 * i];
#pragma unroll
                        for (int k = kb; k < CT; ++k)
                            if (k > kb || warp > w) a[i][k] -= l * u[k];
                    }
            }
        }
        // registers -> shared at the logical rows (the last step's barrier ordered every
        // read of the staging copy before these writes) -> global
#pragma unroll
        for (int i = 0; i < RT; ++i)
#pragma unroll
            for (int k = 0; k < CT; ++k) {
                const int c = warp + NW * k;
                if (lab[i] >= 0 && c < n) S[c * ld1 + lab[i]] = a[i][k];
            }
        __syncthreads();
        if (dA.col) {
            for (int c = warp; c < n; c += NW)
#pragma unroll 4
                for (int r = lane; r < n; r += 32) g(r, c) = S[c * ld1 + r];
        } else {
            for (int r = warp; r < n; r += NW)
#pragma unroll 4
                for (int c = lane; c < n; c += 32) g(r, c) = S[c * ld1 + r];
        }
        for (int j = int(threadIdx.x); j < n; j += NW * 32) ipiv[item * sp + j] = piv[j] + 1;
        if (threadIdx.x == 0) info[item] = inf;
        __syncthreads(); // the next item's load reuses S and piv
    }
}

} // namespace lublock
} // namespace kobalt_cuda

#endif
