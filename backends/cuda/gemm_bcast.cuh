// gemm_bcast.cuh -- the product op(X) op(Y) of the gemm group kernel (groups.cu) with
// op(Y) broadcast through shared memory instead of by shuffles (GEMM_BCAST_MIN,
// docs/cuda.md). Lane r of a W-lane group accumulates row r of the product, as in
// product() of groups.cu; per chunk of W rows of op(Y), lane r loads row p0 + r of op(Y)
// (coalesced for column-major) and its own W elements of op(X), all loads in flight
// together, writes its op(Y) row to the group's slice of shared memory with 16-byte
// stores, and every step pp reads row pp back with 16-byte broadcast loads: W/E loads
// (E = elements per 16 bytes) feed W multiply-adds, where the shuffle product needs one
// shuffle per multiply-add (two for a double). At W = 16 in double that is 128 shared
// loads instead of 512 shuffle instructions per warp and chunk; shuffles run at one warp
// instruction per clock per SM, which is what held the shuffle kernel at 57% of the copy
// bandwidth at n = 16 (H200, docs/performance.md).
#ifndef KOBALT_CUDA_GEMM_BCAST_CUH
#define KOBALT_CUDA_GEMM_BCAST_CUH

#include "group_ops.cuh"

namespace kobalt_cuda {
namespace group {

// The shared-memory slice of one group: W rows of op(Y) with a pitch of W + E elements
// (16-byte aligned rows; a quarter warp's 16-byte row stores land on distinct banks), and
// E more elements per slice so that the 2..8 groups of a warp, which broadcast the same
// step from their own slices, read from different banks (slice words = 4 mod 32).
template <int W, class T> struct BcastSlice {
    static constexpr int E = 16 / int(sizeof(T));
    static constexpr int pitch = W + E;
    static constexpr int size = W * pitch + E;
};

__device__ __forceinline__ void st16(double *p, const double *v) {
    *reinterpret_cast<double2 *>(p) = make_double2(v[0], v[1]);
}
__device__ __forceinline__ void st16(float *p, const float *v) {
    *reinterpret_cast<float4 *>(p) = make_float4(v[0], v[1], v[2], v[3]);
}
__device__ __forceinline__ void ld16(const double *p, double *v) {
    const double2 t = *reinterpret_cast<const double2 *>(p);
    v[0] = t.x;
    v[1] = t.y;
}
__device__ __forceinline__ void ld16(const float *p, float *v) {
    const float4 t = *reinterpret_cast<const float4 *>(p);
    v[0] = t.x;
    v[1] = t.y;
    v[2] = t.z;
    v[3] = t.w;
}

// acc = op(X) op(Y), lane r row r (m x n, inner dimension k); sy: this group's slice
// (BcastSlice<W, T>::size elements, 16-byte aligned). Every lane of the warp must call it
// with the same `read` and k (it syncs the warp); `valid` and the sizes only predicate
// memory accesses. Columns c >= n of acc (products with the zeros stored for them) are
// not meaningful and never stored by the caller; steps pp >= k - p0 are skipped, so each
// element sums the same terms in the same order as product() in groups.cu.
// NC (<= W, a multiple of E): the columns computed; the caller stores c < n <= NC only
// (NC = 12 at W = 16: 25% fewer shared loads and multiply-adds, 16 fewer registers for
// n = 9..12, GEMM_BCAST_NARROW_MAX).
template <int W, int NC, class T, class XA, class YA>
__device__ __forceinline__ void product_bcast(bool read, int m, int n, int k, const MatDesc &dX, XA X,
                                              const MatDesc &dY, YA Y, idx item, bool valid, int lane,
                                              T (&acc)[W], T *sy) {
    using S = BcastSlice<W, T>;
    constexpr int E = S::E, P = S::pitch;
    static_assert(W % E == 0 && NC % E == 0 && NC <= W, "columns must be whole vectors within the group");
#pragma unroll
    for (int c = 0; c < W; ++c) acc[c] = T(0);
    if (!read) return;
    Mat<const T> vx{nullptr, 0, 0}, vy{nullptr, 0, 0};
    if (valid) {
        vx = dX.global<const T>(X(item));
        vy = dY.global<const T>(Y(item));
    }
    for (int p0 = 0; p0 < k; p0 += W) {
        const int pr = p0 + lane, pe = min(W, k - p0);
        T yrow[NC];
#pragma unroll
        for (int c = 0; c < NC; ++c) yrow[c] = (valid && pr < k && c < n) ? vy(pr, c) : T(0);
        // op(X) in registers up to W = 16 (issued with op(Y)'s loads); at W = 32 the three
        // register rows would not fit, so each step loads its element (unrolled: ptxas may
        // hoist them)
        constexpr int XR = W <= 16 ? W : 1;
        T xrow[XR];
        if constexpr (W <= 16) {
#pragma unroll
            for (int pp = 0; pp < W; ++pp) xrow[pp] = (valid && lane < m && pp < pe) ? vx(lane, p0 + pp) : T(0);
        }
        __syncwarp(); // every lane has read the previous chunk (or item) from the slice
#pragma unroll
        for (int c = 0; c < NC; c += E) st16(sy + lane * P + c, yrow + c);
        __syncwarp();
#pragma unroll
        for (int pp = 0; pp < W; ++pp)
            if (pp < pe) {
                T x;
                if constexpr (W <= 16) x = xrow[pp];
                else x = (valid && lane < m) ? vx(lane, p0 + pp) : T(0);
#pragma unroll
                for (int c = 0; c < NC; c += E) {
                    T b[E];
                    ld16(sy + pp * P + c, b);
#pragma unroll
                    for (int e = 0; e < E; ++e) acc[c + e] += x * b[e];
                }
            }
    }
}

} // namespace group
} // namespace kobalt_cuda

#endif
