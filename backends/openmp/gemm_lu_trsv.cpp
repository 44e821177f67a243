// gemm_lu_trsv.cpp -- the fused call, per item:
//   A_i = alpha op(X_i) op(Y_i) + beta A_i     (A n x n, op(X) n x k, op(Y) k x n)
//   A_i = P_i L_i U_i                           (no pivoting when ipiv == NULL)
//   B_i = A_i^{-1} B_i                          (n x nrhs; nrhs == 1 is the trsv case)
#include "batch_access.hpp"
#include "fixed_path.hpp"
#include "fused_item.hpp"
#include "packed_path.hpp"
#include "slots.hpp"
#include "small_kernels.hpp"
#include "thread_scratch.hpp"
#include "vendor_kernels.hpp"

#include <atomic>

namespace kobalt_openmp {
namespace {

// ---- Above the one-loop kernels: the three routines over chunks that stay in cache ------
// Past n = 8 the one-loop path below runs each item's gemm through OpenBLAS and its LU and
// solve through the generic small kernels, while gemm, getrf and getrs each have faster
// kernels of their own (the panels, the direct solves). Measured on AMD Zen 1 (docs/
// performance.md, "The fused call above 8 as chunked composition"), Kobalt's own three calls
// beat that loop at n = 10 ... 64 by up to 2.7x. So there the fused call runs those three
// routines over chunks of the batch, so that each chunk's A is formed, factored and solved
// while it is still in cache:
//  - calls from FUSED_REGION_MIN_BYTES: one parallel region, each thread the three steps on its
//    own chunks of FUSED_REGION_CHUNK_BYTES (the steps, called from inside the region, open
//    none of their own: team.hpp), with no barrier between the steps;
//  - smaller calls: chunk after chunk, FUSED_CHUNK_BYTES a thread, each step a parallel call
//    (in cache the region's whole chunks balanced worse).
// On AMD Zen 5 calls from FUSED_REGION_MIN_BYTES compose from FUSED_REGION_COMPOSE_MIN (double
// n = 6) and at FUSED_REGION_COMPOSE_ALSO (double n = 4) too, where from memory the one-loop
// kernels had become slower than the three routines (at n = 2, 3, 5 they are not: hence one
// more n rather than a lower bound).
// The order n decides (not max(n, k, nrhs)): small n with a long k or many right-hand sides
// keeps the one-loop kernels of n <= 8 (except the n = 4, 6 ... 8 calls composed above, whatever
// their k and nrhs; measured with k = n and one right-hand side), and each routine picks its
// own kernel for k and nrhs.
template <class T> size_t fused_item_bytes(kobalt_int n, kobalt_int k, kobalt_int nrhs) {
    return sizeof(T) * static_cast<size_t>(2 * n * k + n * n + n * nrhs);
}
template <class T> bool in_one_region(kobalt_int n, kobalt_int k, kobalt_int nrhs, kobalt_int batch) {
    return double(fused_item_bytes<T>(n, k, nrhs)) * double(batch) >= double(threshold(FUSED_REGION_MIN_BYTES));
}
template <class T>
bool composes(kobalt_layout layout, kobalt_int n, kobalt_int k, kobalt_int nrhs, kobalt_int lda, const int *ipiv,
              kobalt_int batch) {
    if (n == 0 || k == 0 || n > threshold(FUSED_COMPOSE_MAX)) return false;
    if (n < threshold(FUSED_COMPOSE_MIN)) {
        const kobalt_int from = threshold(for_precision<T>(FUSED_REGION_COMPOSE_MIN, FUSED_REGION_COMPOSE_MIN_FLOAT));
        const kobalt_int also = threshold(for_precision<T>(FUSED_REGION_COMPOSE_ALSO, FUSED_REGION_COMPOSE_ALSO_FLOAT));
        const bool region_n = n >= from || n == also;
        if (!region_n || !in_one_region<T>(n, k, nrhs, batch)) return false;
    }
    // getrf's only failure after its argument checks (which the fused call has already made)
    // is the row-major LU workspace of its vendor path: such calls keep the one-loop path,
    // which allocates before writing anything, so that a failed call writes nothing.
    return !getrf_allocates(layout, n, n, lda, ipiv != nullptr);
}

// gemm(c, len), getrf(c, len), getrs(c, len) on items c ... c + len - 1, each the backend's
// own routine (built by the two public forms below). The three callables are held by value
// with their own lambda types, not in std::function: their captures exceed std::function's
// inline buffer, and every fused call builds them, the n <= 8 hot path included, so
// std::function would cost three heap allocations a call.
template <class Gemm, class Getrf, class Getrs>
struct Steps {
    Gemm gemm;
    Getrf getrf;
    Getrs getrs;
};
template <class Gemm, class Getrf, class Getrs>
Steps<Gemm, Getrf, Getrs> make_steps(Gemm gemm, Getrf getrf, Getrs getrs) {
    return {gemm, getrf, getrs};
}
// Items per chunk of `bytes` (at least one).
inline kobalt_int items_per_chunk(size_t bytes, size_t item_bytes) {
    return bytes / item_bytes > 0 ? kobalt_int(bytes / item_bytes) : 1;
}
// The three steps on the chunk of `chunk` items from item c (fewer at the batch's end). Items
// with info > 0 keep B untouched, as in the one-loop path: the solve runs over each run of
// consecutive good items.
template <class StepsT>
kobalt_status chunk_steps(const StepsT &steps, kobalt_int c, kobalt_int chunk, kobalt_int batch, kobalt_int nrhs,
                          const int *info) {
    const kobalt_int len = batch - c < chunk ? batch - c : chunk;
    kobalt_status status = steps.gemm(c, len);
    if (status == KOBALT_SUCCESS) status = steps.getrf(c, len);
    for (kobalt_int i = c; status == KOBALT_SUCCESS && nrhs > 0 && i < c + len;) {
        kobalt_int j = i;
        while (j < c + len && info[j] == 0) ++j;
        if (j > i) status = steps.getrs(i, j - i);
        i = j + 1; // past the run and the failed item that ended it
    }
    return status;
}
template <class T, class StepsT>
kobalt_status composed(kobalt_int n, kobalt_int k, kobalt_int nrhs, const StepsT &steps, const int *info,
                       kobalt_int batch) {
    const size_t item_bytes = fused_item_bytes<T>(n, k, nrhs);
    if (in_one_region<T>(n, k, nrhs, batch)) {
        // Chunks of a size that does not depend on the thread count: each item is run by the
        // same calls, so with the same kernels, whatever the number of threads.
        const kobalt_int chunk =
            items_per_chunk(static_cast<size_t>(threshold(FUSED_REGION_CHUNK_BYTES)), item_bytes);
        const int64_t chunks = (batch + chunk - 1) / chunk;
        std::atomic<int> failed{KOBALT_SUCCESS}; // the first failure; the other threads stop
        for_chunks(chunks, [&](int64_t lo, int64_t hi, int) {
            for (int64_t q = lo; q < hi && failed.load(std::memory_order_relaxed) == KOBALT_SUCCESS; ++q) {
                const kobalt_status status = chunk_steps(steps, q * chunk, chunk, batch, nrhs, info);
                int none = KOBALT_SUCCESS;
                if (status != KOBALT_SUCCESS) failed.compare_exchange_strong(none, int(status));
            }
        });
        return kobalt_status(failed.load());
    }
    // FUSED_CHUNK_BYTES for each thread that shares the steps' items (one inside a caller's
    // own parallel region: team.hpp)
    const kobalt_int chunk =
        items_per_chunk(static_cast<size_t>(threshold(FUSED_CHUNK_BYTES)) * region_threads(), item_bytes);
    for (kobalt_int c = 0; c < batch; c += chunk) {
        const kobalt_status status = chunk_steps(steps, c, chunk, batch, nrhs, info);
        if (status != KOBALT_SUCCESS) return status;
    }
    return KOBALT_SUCCESS;
}

// One parallel loop whose iteration does all three steps of one item while that item
// is in cache: never three sweeps over the batch (that is what makes the fused call
// faster than gemm + getrf + getrs on the same data).
//
// Singular items: when info[i] > 0 (an exactly zero U(j,j)), B_i is left untouched
// instead of being divided by zero as LAPACK's getrs would; A_i and ipiv_i still hold
// the completed factorisation, as getrf leaves them. Documented in docs/api.md.
template <class T, class XItems, class YItems, class AItems, class BItems, class StepsT>
kobalt_status gemm_lu_trsv(const char *routine, kobalt_layout layout, kobalt_op transx,
                           kobalt_op transy, kobalt_int n, kobalt_int k, kobalt_int nrhs,
                           T alpha, XItems X, kobalt_int ldx, YItems Y, kobalt_int ldy, T beta,
                           AItems A, kobalt_int lda, int *ipiv, kobalt_int strideIpiv, BItems B,
                           kobalt_int ldb, int *info, kobalt_int batch, const StepsT &steps) {
    if (!fits_int32<T>(routine, {{"n", n}, {"k", k}, {"nrhs", nrhs}, {"ldx", ldx}, {"ldy", ldy},
                                 {"lda", lda}, {"ldb", ldb}}))
        return KOBALT_NOT_SUPPORTED;
    if (n == 0) {
        for (kobalt_int i = 0; i < batch; ++i) info[i] = 0;
        return KOBALT_SUCCESS;
    }
    if (composes<T>(layout, n, k, nrhs, lda, ipiv, batch)) return composed<T>(n, k, nrhs, steps, info, batch);
    const kobalt_int max_ld = max3(ldx, ldy, lda > ldb ? lda : ldb);
    const Path path = choose_path(GEMM_LU_TRSV_SMALL_MAX, max3(n, k, nrhs), max_ld, batch);
    if (path == Path::small) {
        const Strides sx = op_strides(layout, transx, ldx), sy = op_strides(layout, transy, ldy),
                      sa = strides_of(layout, lda), sb = strides_of(layout, ldb);
        // Packs formed item by item (PACKED_FUSED_BY_ITEM_MAX_BYTES) come first; then, from
        // FUSED_ITEM_MIN (FUSED_ITEM_MIN_FLOAT for float items) to 8, on AVX-512 CPUs: one item
        // at a time in SIMD registers (fused_item.cpp), for any batch size.
        const bool by_item = n == k && packed::fused_by_item<T>(n, batch, fixed::mat(sx), fixed::mat(sa));
#if KOBALT_OPENMP_HAVE_AVX512
        if (!by_item && n == k && n >= threshold(for_precision<T>(FUSED_ITEM_MIN, FUSED_ITEM_MIN_FLOAT)) &&
            n <= interleaved::FUSED_ITEM_MAX_N && interleaved::item_fused_runs()) {
            interleaved::avx512::item_fused<T>(int(n), alpha, fixed::items(X), fixed::mat(sx),
                                               fixed::items(Y), fixed::mat(sy), beta,
                                               fixed::items(A), fixed::mat(sa), ipiv, strideIpiv,
                                               int(nrhs), fixed::items(B), fixed::mat(sb), info,
                                               batch);
            return KOBALT_SUCCESS;
        }
#endif
        if (n == k && packed::use<T>(n, batch)) {
            KOBALT_INTERLEAVED_CALL(packed_fused<T>, int(n), packed::prefetch(),
                                    packed::tile_max_bytes<T>(true), by_item, alpha,
                                    fixed::items(X), fixed::mat(sx), fixed::items(Y),
                                    fixed::mat(sy), beta, fixed::items(A),
                                    fixed::mat(sa), ipiv, strideIpiv, int(nrhs), fixed::items(B),
                                    fixed::mat(sb), info, batch);
            return KOBALT_SUCCESS;
        }
        if (n == k && fixed::fits(n)) {
            KOBALT_FIXED_CALL(fused<T>, int(n), alpha, fixed::items(X), fixed::mat(sx),
                              fixed::items(Y), fixed::mat(sy), beta, fixed::items(A),
                              fixed::mat(sa), ipiv, strideIpiv, int(nrhs), fixed::items(B),
                              fixed::mat(sb), info, batch);
            return KOBALT_SUCCESS;
        }
        // The gemm step follows gemm's own threshold: past it, OpenBLAS's single-threaded
        // small-matrix gemm beats the inlined kernel, and the item is still in cache for
        // the LU and the solves that follow.
        const bool small_gemm = (n > k ? n : k) <= threshold(GEMM_SMALL_MAX);
        for_each_item(batch, [&](kobalt_int i) {
            const MatrixView<T> Ai = matrix_view<T>(A[i], n, n, sa);
            if (small_gemm)
                small::gemm<T>(alpha, matrix_view<const T>(X[i], n, k, sx),
                               matrix_view<const T>(Y[i], k, n, sy), beta, Ai);
            else
                vendor::gemm(layout, transx, transy, int(n), int(n), int(k), alpha, X[i],
                             int(ldx), Y[i], int(ldy), beta, A[i], int(lda));
            int *const piv = ipiv ? ipiv + i * strideIpiv : nullptr;
            const int r = small::getrf<T>(Ai, piv);
            info[i] = r;
            if (r == 0 && nrhs > 0)
                small::getrs<T>(false, Ai, piv, matrix_view<T>(B[i], n, nrhs, sb));
        });
        return KOBALT_SUCCESS;
    }
    ThreadScratch<T> scratch;
    if (!scratch.allocate(vendor::getrf_scratch_size(layout, n, n, ipiv != nullptr))) {
        report(precision_letter<T>(), routine,
               "cannot allocate the row-major LU workspace (%lld x %lld per thread)", (long long)n,
               (long long)n);
        return KOBALT_OUT_OF_MEMORY;
    }
    for_each_item_on(batch, path, [&](kobalt_int i) {
        T *const Ai = A[i];
        vendor::gemm(layout, transx, transy, int(n), int(n), int(k), alpha, X[i], int(ldx), Y[i],
                     int(ldy), beta, Ai, int(lda));
        int *const piv = ipiv ? ipiv + i * strideIpiv : nullptr;
        const int r = piv ? vendor::getrf(layout, int(n), int(n), Ai, int(lda), piv, scratch.mine())
                          : vendor::getrf_nopivot(layout, int(n), int(n), Ai, int(lda));
        info[i] = r;
        if (r == 0 && nrhs > 0)
            vendor::getrs<T>(layout, KOBALT_NO_TRANS, int(n), int(nrhs), Ai, int(lda), piv, B[i],
                             int(ldb));
    });
    return KOBALT_SUCCESS;
}

} // namespace

template <class Real>
kobalt_status gemm_lu_trsv_strided(kobalt_layout layout, kobalt_op transx, kobalt_op transy,
                                   kobalt_int n, kobalt_int k, kobalt_int nrhs, Real alpha,
                                   const Real *X, kobalt_int ldx, kobalt_int strideX,
                                   const Real *Y, kobalt_int ldy, kobalt_int strideY, Real beta,
                                   Real *A, kobalt_int lda, kobalt_int strideA, int *ipiv,
                                   kobalt_int strideIpiv, Real *B, kobalt_int ldb,
                                   kobalt_int strideB, int *info, kobalt_int batch) {
    const kobalt_int sp = ipiv ? strideIpiv : 0;
    const auto steps = make_steps([&](kobalt_int c, kobalt_int len) {
                    return gemm_strided<Real>(layout, transx, transy, n, n, k, alpha, X + c * strideX, ldx, strideX,
                                              Y + c * strideY, ldy, strideY, beta, A + c * strideA, lda, strideA, len);
                },
                [&](kobalt_int c, kobalt_int len) {
                    return getrf_strided<Real>(layout, n, n, A + c * strideA, lda, strideA, ipiv ? ipiv + c * sp : nullptr,
                                               strideIpiv, info + c, len);
                },
                [&](kobalt_int c, kobalt_int len) {
                    return getrs_strided<Real>(layout, KOBALT_NO_TRANS, n, nrhs, A + c * strideA, lda, strideA,
                                               ipiv ? ipiv + c * sp : nullptr, strideIpiv, B + c * strideB, ldb, strideB,
                                               len);
                });
    return gemm_lu_trsv<Real>("gemm_lu_trsv_strided", layout, transx, transy, n, k, nrhs, alpha,
                              strided_items<const Real>(X, strideX, n == 0 || k == 0), ldx,
                              strided_items<const Real>(Y, strideY, n == 0 || k == 0), ldy, beta,
                              StridedItems<Real>{A, strideA}, lda, ipiv, strideIpiv,
                              strided_items<Real>(B, strideB, n == 0 || nrhs == 0), ldb, info,
                              batch, steps);
}

template <class Real>
kobalt_status gemm_lu_trsv_batched(kobalt_layout layout, kobalt_op transx, kobalt_op transy,
                                   kobalt_int n, kobalt_int k, kobalt_int nrhs, Real alpha,
                                   const Real *const X[], kobalt_int ldx, const Real *const Y[],
                                   kobalt_int ldy, Real beta, Real *const A[], kobalt_int lda,
                                   int *ipiv, kobalt_int strideIpiv, Real *const B[],
                                   kobalt_int ldb, int *info, kobalt_int batch) {
    const kobalt_int sp = ipiv ? strideIpiv : 0;
    const auto steps = make_steps([&](kobalt_int c, kobalt_int len) {
                    return gemm_batched<Real>(layout, transx, transy, n, n, k, alpha, X + c, ldx, Y + c, ldy, beta,
                                              A + c, lda, len);
                },
                [&](kobalt_int c, kobalt_int len) {
                    return getrf_batched<Real>(layout, n, n, A + c, lda, ipiv ? ipiv + c * sp : nullptr, strideIpiv,
                                               info + c, len);
                },
                [&](kobalt_int c, kobalt_int len) {
                    return getrs_batched<Real>(layout, KOBALT_NO_TRANS, n, nrhs, A + c, lda,
                                               ipiv ? ipiv + c * sp : nullptr, strideIpiv, B + c, ldb, len);
                });
    return gemm_lu_trsv<Real>("gemm_lu_trsv_batched", layout, transx, transy, n, k, nrhs, alpha,
                              pointer_items<const Real>(X, n == 0 || k == 0), ldx,
                              pointer_items<const Real>(Y, n == 0 || k == 0), ldy, beta,
                              PointerItems<Real>{A}, lda, ipiv, strideIpiv,
                              pointer_items<Real>(B, n == 0 || nrhs == 0), ldb, info, batch, steps);
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(gemm_lu_trsv_strided)
KOBALT_OPENMP_INSTANTIATE(gemm_lu_trsv_batched)
