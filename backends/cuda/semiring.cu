// semiring.cu -- gemm_semiring on the GPU (docs/api.md for the semantics, docs/cuda.md for
// the kernels): C_i = add(mult(alpha, op(A_i) op(B_i)), mult(beta, C_i)) over a semiring.
// PLUS_TIMES is ordinary gemm and runs the gemm slot (routines.cu). The others run:
//   - the tile kernel (SEMIRING_TILE_MIN <= max(m, n) <= 32 in double and for OR_AND,
//     SEMIRING_TILE_MIN_FLOAT for the other float semirings; any k; semiring_tile.cuh): one
//     block of 64 threads per item, operands staged through shared memory, a 4 x 4 register
//     tile of C per thread (3 x 3, a 24 x 24 tile, up to SEMIRING_TILE_SMALL_MAX);
//   - the group kernel (max(m, n) <= 32 below that, any k): W = 4, 8, 16 or 32 lanes of a
//     warp per item, lane i accumulating row i of the product in registers; op(A)'s row
//     comes from global memory into registers W columns at a time, op(B)'s matching W rows
//     are staged in the group's slice of shared memory (loaded along whichever stride is
//     unit, so coalesced in both layouts) and read back as broadcast pairs: one 64/128-bit
//     shared load per two terms, no shuffles;
//   - the element kernel (larger items, or GROUP_MAX = 0): one thread per element of C.
// The semirings themselves (identities, NaN rules, epilogue) are in semiring_ops.cuh.
// Every launch is asynchronous on the calling thread's stream, as the other slots.
#include <algorithm>
#include <initializer_list>
#include <utility>

#include "common.cuh"
#include "semiring_ops.cuh"
#include "semiring_tile.cuh"
#include "slots.cuh"

namespace kobalt_cuda {
namespace {

constexpr int kThreads = 128;

// ---- the group kernel -------------------------------------------------------------------
// Group g of W lanes owns item base + g and the slice smem[g*R, (g+1)*R): W rows of op(B),
// pitch P = W + 2 (pairs stay aligned; slices of neighbouring groups fall on different
// banks). Every lane of a block runs the same iterations, so __syncwarp() is safe.
template <int S, int W, class T, class AA, class BA, class CA>
__global__ void __launch_bounds__(kThreads)
    semiring_group(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta, MatDesc dC, CA C,
                   idx batch, bool prod, bool readc) {
    constexpr int P = W + 2, R = W * P;
    __shared__ __align__(16) T smem[(kThreads / W) * R];
    const int lane = int(threadIdx.x) % W, g = int(threadIdx.x) / W;
    T *const sB = smem + g * R;
    const idx per_block = blockDim.x / W;
    for (idx base = idx(blockIdx.x) * per_block; base < batch; base += idx(gridDim.x) * per_block) {
        const idx item = base + g;
        const bool valid = item < batch;
        T acc[W];
#pragma unroll
        for (int c = 0; c < W; ++c) acc[c] = Ring<S>::template zero<T>();
        if (prod) {
            Mat<const T> va{nullptr, 0, 0}, vb{nullptr, 0, 0};
            if (valid) {
                va = dA.global<const T>(A(item));
                vb = dB.global<const T>(B(item));
            }
            for (int p0 = 0; p0 < k; p0 += W) {
                const int pe = min(W, k - p0);
                // Rows p0 .. p0+pe-1 of op(B) into the slice: all loads issued first (into
                // registers), then the stores, so that the loads overlap.
                T r[W];
                __syncwarp(); // the previous chunk's reads of the slice are done
                if (vb.rs == 1) { // unit stride along p: lane <-> p
                    const bool mine = valid && lane < pe;
#pragma unroll
                    for (int c = 0; c < W; ++c) r[c] = (mine && c < n) ? Ring<S>::in(vb(p0 + lane, c)) : T(0);
                    if (mine)
#pragma unroll
                        for (int c = 0; c < W; ++c)
                            if (c < n) sB[lane * P + c] = r[c];
                } else { // lane <-> c
                    const bool mine = valid && lane < n;
#pragma unroll
                    for (int p = 0; p < W; ++p) r[p] = (mine && p < pe) ? Ring<S>::in(vb(p0 + p, lane)) : T(0);
                    if (mine)
#pragma unroll
                        for (int p = 0; p < W; ++p)
                            if (p < pe) sB[p * P + lane] = r[p];
                }
                // This lane's row of op(A), columns p0 .. p0+pe-1, into registers.
                T a[W];
#pragma unroll
                for (int p = 0; p < W; ++p)
                    a[p] = (valid && lane < m && p < pe) ? Ring<S>::in(va(lane, p0 + p)) : T(0);
                __syncwarp();
#pragma unroll
                for (int p = 0; p < W; ++p) {
                    if (p < pe) {
                        const T ap = a[p];
                        const Pair<T> *row = reinterpret_cast<const Pair<T> *>(sB + p * P);
#pragma unroll
                        for (int c = 0; c < W; c += 2) { // columns >= n: junk, never stored
                            const Pair<T> b = row[c / 2];
                            acc[c] = hadd<S>(acc[c], Ring<S>::hmul(ap, b.x));
                            acc[c + 1] = hadd<S>(acc[c + 1], Ring<S>::hmul(ap, b.y));
                        }
                    }
                }
            }
        }
        if (valid && lane < m) {
            const Mat<T> vc = dC.global(C(item));
#pragma unroll
            for (int c = 0; c < W; ++c)
                if (c < n) {
                    const T cv = readc ? vc(lane, c) : T(0);
                    vc(lane, c) = epilogue<S>(prod, alpha, acc[c], readc, beta, cv);
                }
        }
    }
}

// ---- the element kernel -----------------------------------------------------------------
// One thread per element of C, consecutive threads on consecutive addresses of C.
template <int S, class T, class AA, class BA, class CA>
__global__ void semiring_element(int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B, T beta,
                                 MatDesc dC, CA C, idx batch, bool prod, bool readc) {
    const idx per_item = idx(m) * n, total = per_item * batch;
    for (idx e = idx(blockIdx.x) * blockDim.x + threadIdx.x; e < total; e += idx(gridDim.x) * blockDim.x) {
        const idx item = e / per_item, r = e - item * per_item;
        const int i = dC.col ? int(r % m) : int(r / n), j = dC.col ? int(r / m) : int(r % n);
        T acc = Ring<S>::template zero<T>();
        if (prod) {
            const Mat<const T> va = dA.global<const T>(A(item)), vb = dB.global<const T>(B(item));
            for (int p = 0; p < k; ++p) acc = hadd<S>(acc, Ring<S>::hmul(Ring<S>::in(va(i, p)), Ring<S>::in(vb(p, j))));
        }
        const Mat<T> vc = dC.global(C(item));
        const T cv = readc ? vc(i, j) : T(0);
        vc(i, j) = epilogue<S>(prod, alpha, acc, readc, beta, cv);
    }
}

// ---- launch -----------------------------------------------------------------------------
inline int group_width(int d) { return d <= 4 ? 4 : d <= 8 ? 8 : d <= 16 ? 16 : d <= 32 ? 32 : 0; }

template <int W> int group_grid(idx batch) {
    const idx per_block = kThreads / W;
    const idx blocks = (batch + per_block - 1) / per_block;
    const idx cap = idx(multiprocessors()) * (2048 / kThreads) * 8;
    return int(std::max<idx>(1, std::min(blocks, cap)));
}

template <class T> T host_zero(kobalt_semiring s) {
    switch (s) {
    case KOBALT_MIN_PLUS: case KOBALT_MIN_TIMES: case KOBALT_MIN_MAX: return T(INFINITY);
    case KOBALT_MAX_PLUS: case KOBALT_MAX_TIMES: case KOBALT_MAX_MIN: return -T(INFINITY);
    default: return T(0);
    }
}

template <int S, class T, class AA, class BA, class CA>
kobalt_status launch(const char *routine, int m, int n, int k, T alpha, MatDesc dA, AA A, MatDesc dB, BA B,
                     T beta, MatDesc dC, CA C, idx batch, bool prod, bool readc) {
    const int d = std::max(m, n);
    cudaStream_t st = stream();
    // The float semirings other than OR_AND have their own threshold: with FMNMX their group
    // kernel held out longer (it was faster than the tile kernel up to session 8; since the
    // tile kernel's leaner staging, unroll 8 and one block per item it is not: H200, s n = 24
    // min-max 0.606 -> 0.411 ms, n = 32 0.439 -> 0.361 ms, docs/performance.md session 9).
    const kobalt_int tile_min = sizeof(T) == 4 && S != KOBALT_OR_AND ? threshold(SEMIRING_TILE_MIN_FLOAT)
                                                                     : threshold(SEMIRING_TILE_MIN);
    if (d >= tile_min && d <= kTileDim) {
        launch_tile<S, T>(st, m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch, prod, readc);
        return launch_status(precision_letter<T>(), routine);
    }
    const bool group = d >= threshold(GROUP_MIN) &&
                       d <= std::min<kobalt_int>(std::min(threshold(GROUP_MAX), threshold(SEMIRING_GROUP_MAX)), 32);
    switch (group ? group_width(d) : 0) {
#define KOBALT_GROUP_CASE(W_)                                                                     \
    case W_:                                                                                      \
        semiring_group<S, W_, T><<<group_grid<W_>(batch), kThreads, 0, st>>>(                     \
            m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch, prod, readc);                       \
        break;
        KOBALT_GROUP_CASE(4)
        KOBALT_GROUP_CASE(8)
        KOBALT_GROUP_CASE(16)
        KOBALT_GROUP_CASE(32)
#undef KOBALT_GROUP_CASE
    default: {
        const idx total = idx(m) * n * batch;
        const idx blocks = std::max<idx>(1, std::min<idx>((total + 255) / 256, idx(multiprocessors()) * 32));
        semiring_element<S, T><<<int(blocks), 256, 0, st>>>(m, n, k, alpha, dA, A, dB, B, beta, dC, C, batch, prod,
                                                             readc);
    }
    }
    return launch_status(precision_letter<T>(), routine);
}

template <class T, class AA, class BA, class CA>
kobalt_status semiring(const char *routine, kobalt_semiring s, kobalt_layout layout, kobalt_op ta, kobalt_op tb,
                       kobalt_int m, kobalt_int n, kobalt_int k, T alpha, AA A, kobalt_int lda, BA B, kobalt_int ldb,
                       T beta, CA C, kobalt_int ldc, kobalt_int batch) {
    const char p = precision_letter<T>();
    for (auto a : {std::make_pair("m", m), std::make_pair("n", n), std::make_pair("k", k), std::make_pair("lda", lda),
                   std::make_pair("ldb", ldb), std::make_pair("ldc", ldc)})
        if (a.second > INT32_MAX) {
            report(p, routine, "%s = %lld exceeds 2^31-1, not supported by the cuda backend", a.first,
                   (long long)a.second);
            return KOBALT_NOT_SUPPORTED;
        }
    if (m == 0 || n == 0) return KOBALT_SUCCESS;
    if (m * n > INT64_MAX / batch) { // the element kernel's index space (pointer-array batches)
        report(p, routine, "m * n * batch exceeds 2^63-1, not supported by the cuda backend");
        return KOBALT_NOT_SUPPORTED;
    }
    const bool tA = ta != KOBALT_NO_TRANS, tB = tb != KOBALT_NO_TRANS;
    const MatDesc dA = mat_desc(layout, tA ? k : m, tA ? m : k, lda, tA);
    const MatDesc dB = mat_desc(layout, tB ? n : k, tB ? k : n, ldb, tB);
    const MatDesc dC = mat_desc(layout, m, n, ldc);
    const T z = host_zero<T>(s);
    const bool prod = k > 0 && !(alpha == z), readc = !(beta == z);
    const int M = int(m), N = int(n), K = int(k);
    switch (s) {
#define KOBALT_RING_CASE(S_)                                                                      \
    case S_: return launch<S_, T>(routine, M, N, K, alpha, dA, A, dB, B, beta, dC, C, batch, prod, readc);
        KOBALT_RING_CASE(KOBALT_MIN_PLUS)
        KOBALT_RING_CASE(KOBALT_MAX_PLUS)
        KOBALT_RING_CASE(KOBALT_MIN_TIMES)
        KOBALT_RING_CASE(KOBALT_MAX_TIMES)
        KOBALT_RING_CASE(KOBALT_MIN_MAX)
        KOBALT_RING_CASE(KOBALT_MAX_MIN)
        KOBALT_RING_CASE(KOBALT_OR_AND)
#undef KOBALT_RING_CASE
    default: break; // PLUS_TIMES: the caller runs gemm
    }
    return KOBALT_SUCCESS;
}

// The gemm slot reports with its own name: the 32-bit limits are checked here first.
template <class T> bool fits_for_gemm(const char *routine, std::initializer_list<kobalt_int> v) {
    for (kobalt_int x : v)
        if (x > INT32_MAX) {
            report(precision_letter<T>(), routine, "a size or leading dimension exceeds 2^31-1, not supported by the "
                                                   "cuda backend");
            return false;
        }
    return true;
}

} // namespace

template <class Real>
kobalt_status gemm_semiring_strided(kobalt_semiring semiring_, kobalt_layout layout, kobalt_op transa,
                                    kobalt_op transb, kobalt_int m, kobalt_int n, kobalt_int k, Real alpha,
                                    const Real *A, kobalt_int lda, kobalt_int strideA, const Real *B, kobalt_int ldb,
                                    kobalt_int strideB, Real beta, Real *C, kobalt_int ldc, kobalt_int strideC,
                                    kobalt_int batch) {
    if (semiring_ == KOBALT_PLUS_TIMES) {
        if (!fits_for_gemm<Real>("gemm_semiring_strided", {m, n, k, lda, ldb, ldc})) return KOBALT_NOT_SUPPORTED;
        if (beta == Real(0)) beta = Real(0); // -0 -> +0: cuBLAS reads C when beta is -0 (H200, CUDA 13)
        return gemm_strided<Real>(layout, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C,
                                  ldc, strideC, batch);
    }
    return semiring<Real>("gemm_semiring_strided", semiring_, layout, transa, transb, m, n, k, alpha,
                          Strided<const Real>{A, strideA}, lda, Strided<const Real>{B, strideB}, ldb, beta,
                          Strided<Real>{C, strideC}, ldc, batch);
}

template <class Real>
kobalt_status gemm_semiring_batched(kobalt_semiring semiring_, kobalt_layout layout, kobalt_op transa,
                                    kobalt_op transb, kobalt_int m, kobalt_int n, kobalt_int k, Real alpha,
                                    const Real *const A[], kobalt_int lda, const Real *const B[], kobalt_int ldb,
                                    Real beta, Real *const C[], kobalt_int ldc, kobalt_int batch) {
    if (semiring_ == KOBALT_PLUS_TIMES) {
        if (!fits_for_gemm<Real>("gemm_semiring_batched", {m, n, k, lda, ldb, ldc})) return KOBALT_NOT_SUPPORTED;
        if (beta == Real(0)) beta = Real(0); // -0 -> +0: cuBLAS reads C when beta is -0 (H200, CUDA 13)
        return gemm_batched<Real>(layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch);
    }
    return semiring<Real>("gemm_semiring_batched", semiring_, layout, transa, transb, m, n, k, alpha,
                          Ptrs<const Real>{A}, lda, Ptrs<const Real>{B}, ldb, beta, Ptrs<Real>{C}, ldc, batch);
}

template decltype(gemm_semiring_strided<double>) gemm_semiring_strided<double>;
template decltype(gemm_semiring_strided<float>) gemm_semiring_strided<float>;
template decltype(gemm_semiring_batched<double>) gemm_semiring_batched<double>;
template decltype(gemm_semiring_batched<float>) gemm_semiring_batched<float>;

} // namespace kobalt_cuda
