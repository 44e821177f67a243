// getrs_tiny.cpp -- getrs with one right-hand side at n = 1..FIXED_MAX_N (8), compiled per
// n and per ISA as fixed_kernels.cpp (see fixed_common.hpp), chosen by GETRS_TINY_MAX.
//
// At these sizes getrs reads about as many bytes as it does flops, so from memory the
// solve should run at the copy bandwidth; the fixed-n solve (fixed_kernels.cpp) and the
// packed path (packed_kernels.cpp) reached 26-75 % of it (docs/performance.md, "What this
// machine allows"). Both spend their time elsewhere: the packed path copies the factors
// into a pack and the right-hand sides back out (a second pass over the data); the
// fixed-n solve copies the factors into a local array and runs one item at a time, and an
// item is one long dependency chain (the interchanges, n divisions, the two
// substitutions), so the core waits on latency while the next item's loads sit outside
// its window.
//
// Here each item is solved on the caller's factors in place (no copy), read once, in
// order, and from n = 5 the item's chain is shortened: the diagonal of U is applied as a
// product with its reciprocal, computed off the chain (as getrs_direct.cpp does at n >= 9),
// unless an entry is below the smallest normal number (then LAPACK's divisions). Up to n = 4 (at
// most 6) two items share one unrolled body, their statements interleaved, so that two independent
// chains are in flight (GETRS_TINY_PAIR_MAX, below); the items of a thread's chunk that do not fill
// a group run one at a time. The interchanges are applied by the loads or stores of b
// (row_offsets in fixed_common.hpp), not on the solve's chain. Measured against the
// fixed-n solve, the packed path and variants: docs/performance.md, "getrs at n = 2..8:
// the in-place solve".
#include "fixed_common.hpp"
#include "static_chunks.hpp"

#include <cstdint>
#include <limits>

namespace {

// b_g = op(A_g)^{-1} b_g for the K items g of a group, A_g read in place: element (i, j)
// at a[g][i + j*ld] (U: unit row stride) or a[g][i*ld + j]. Every loop over g is
// innermost, so that the K chains interleave. ld is 64-bit: this solve runs whatever the
// small/vendor choice, so n*lda may exceed 2^31 (lda up to 2^31 - 1 is valid), and
// i + j*ld in int overflowed (a read far before the item). Rcp: the diagonal of U is applied as a
// product with its reciprocal, computed off the chain (the caller checked that every
// reciprocal is finite); otherwise as a division, as LAPACK's dtrsv does.
template <int N, int K, bool Trans, bool U, bool Rcp, class T>
KF_INLINE void solve_group(const T *const *__restrict__ a, int64_t ld, const int *const *piv,
                           T *const *__restrict__ bp, int64_t sb) {
    const auto A = [&](int g, int i, int j) -> T { return U ? a[g][i + j * ld] : a[g][i * ld + j]; };
    // x / d on the solve's chain: a division's latency (13-15 cycles) against a product's
    // (3-4); 1/d is independent of x and overlaps the rest.
    const auto div = [&](T x, int g, int j) -> T { return Rcp ? x * (T(1) / A(g, j, j)) : x / A(g, j, j); };
    // The interchanges as a permutation of the rows' offsets (row_offsets), applied by the
    // loads (NoTrans) or the stores (Trans), off the solve's chain.
    int64_t at[K][N];
    KF_UNROLL for (int g = 0; g < K; ++g) row_offsets<N>(at[g], piv[g], sb);
    T b[K][N];
    KF_UNROLL for (int i = 0; i < N; ++i) KF_UNROLL for (int g = 0; g < K; ++g)
        b[g][i] = bp[g][Trans ? i * sb : at[g][i]];
    if (!Trans) {
        KF_UNROLL for (int j = 0; j < N; ++j) // L unit lower, column oriented
            KF_UNROLL for (int i = j + 1; i < N; ++i) KF_UNROLL for (int g = 0; g < K; ++g)
                b[g][i] -= A(g, i, j) * b[g][j];
        KF_UNROLL for (int j = N - 1; j >= 0; --j) {
            KF_UNROLL for (int g = 0; g < K; ++g) b[g][j] = div(b[g][j], g, j);
            KF_UNROLL for (int i = 0; i < j; ++i) KF_UNROLL for (int g = 0; g < K; ++g)
                b[g][i] -= A(g, i, j) * b[g][j];
        }
    } else {
        KF_UNROLL for (int i = 0; i < N; ++i) { // U^T x = b: row i of U^T is column i of U
            T s[K];
            KF_UNROLL for (int g = 0; g < K; ++g) s[g] = b[g][i];
            KF_UNROLL for (int k = 0; k < i; ++k) KF_UNROLL for (int g = 0; g < K; ++g)
                s[g] -= A(g, k, i) * b[g][k];
            KF_UNROLL for (int g = 0; g < K; ++g) b[g][i] = div(s[g], g, i);
        }
        KF_UNROLL for (int i = N - 1; i >= 0; --i) { // L^T, unit upper
            T s[K];
            KF_UNROLL for (int g = 0; g < K; ++g) s[g] = b[g][i];
            KF_UNROLL for (int k = i + 1; k < N; ++k) KF_UNROLL for (int g = 0; g < K; ++g)
                s[g] -= A(g, k, i) * b[g][k];
            KF_UNROLL for (int g = 0; g < K; ++g) b[g][i] = s[g];
        }
    }
    KF_UNROLL for (int i = 0; i < N; ++i) KF_UNROLL for (int g = 0; g < K; ++g)
        bp[g][Trans ? at[g][i] : i * sb] = b[g][i];
}

// One group. From n = kRcpMinN: the reciprocal form when every |diagonal entry| is at
// least the smallest normal number (then 1/d is finite, and x * (1/d) within an ulp of
// x / d), else LAPACK's divisions (a subnormal d below 1/max would give an infinite
// reciprocal where the division stays finite; a zero d gives the same Inf/NaN either way).
// Below kRcpMinN the divisions only, unchecked: at n = 2..4 the check of the diagonal cost
// more than the shorter chain saved (in cache, one thread, d n = 2: 0.0038 us with it
// against 0.0029 without; docs/performance.md).
constexpr int kRcpMinN = 5;

template <int N, int K, bool Trans, bool U, class T>
KF_INLINE void solve(const T *const *a, int64_t ld, const int *const *piv, T *const *bp, int64_t sb) {
    if (N < kRcpMinN) {
        solve_group<N, K, Trans, U, false>(a, ld, piv, bp, sb);
        return;
    }
    bool normal = true;
    KF_UNROLL for (int g = 0; g < K; ++g) KF_UNROLL for (int j = 0; j < N; ++j) {
        const T d = U ? a[g][j + j * ld] : a[g][j * ld + j];
        normal &= (d < T(0) ? -d : d) >= std::numeric_limits<T>::min();
    }
    if (__builtin_expect(normal, 1)) solve_group<N, K, Trans, U, true>(a, ld, piv, bp, sb);
    else solve_group<N, K, Trans, U, false>(a, ld, piv, bp, sb);
}

// Items solved together: two up to n = min(6, pair_max), one above. At n = 7, 8 two (and
// four) doubled the time from memory in double at n = 8 (0.064-0.083 us against
// 0.036-0.042; in cache they were faster: docs/performance.md, "getrs at n = 2..8: the
// in-place solve"), so those sizes are compiled for one item only. pair_max is the
// threshold GETRS_TINY_PAIR_MAX(_FLOAT): where pairs stop paying depends on the core
// (docs/performance.md, "getrs at n = 5, 6: one item at a time").
constexpr int kPairMaxN = 6;

// Items i .. i + K - 1 solved together.
template <int N, int K, bool Trans, bool U, class T>
KF_INLINE void solve_items(Items<const T> A, int64_t lda, const int *ipiv, int64_t sipiv,
                           Items<T> B, int64_t sb, int64_t i) {
    const T *a[K];
    const int *p[K];
    T *b[K];
    KF_UNROLL for (int g = 0; g < K; ++g) {
        a[g] = item(A, i + g);
        p[g] = ipiv ? ipiv + (i + g) * sipiv : nullptr;
        b[g] = item(B, i + g);
    }
    solve<N, K, Trans, U>(a, lda, p, b, sb);
}

template <int N, bool Trans, bool U, class T>
void getrs_tiny_n(Items<const T> A, int64_t lda, const int *ipiv, int64_t sipiv, Items<T> B,
                  int64_t sb, int64_t batch, int pair_max) {
    // Items [lo, hi) of one thread: pairs (if chosen), then the rest one at a time.
    const auto run = [=](int64_t lo, int64_t hi) {
        int64_t i = lo;
        if constexpr (N <= kPairMaxN)
            if (N <= pair_max)
                for (; i + 2 <= hi; i += 2) solve_items<N, 2, Trans, U>(A, lda, ipiv, sipiv, B, sb, i);
        for (; i < hi; ++i) solve_items<N, 1, Trans, U>(A, lda, ipiv, sipiv, B, sb, i);
    };
    kobalt_openmp::for_static_chunks(batch, run);
}

template <int N, class T>
void getrs_tiny_sel(bool trans, Items<const T> A, Mat a, const int *ipiv, int64_t sipiv,
                    Items<T> B, int64_t sb, int64_t batch, int pair_max) {
    with_flags(trans, a.unit_rows, false, [&](auto t, auto u, auto) {
        getrs_tiny_n<N, decltype(t)::value, decltype(u)::value>(A, a.ld, ipiv, sipiv, B, sb,
                                                                batch, pair_max);
    });
}

} // namespace

namespace kobalt_openmp {
namespace fixed {
namespace KOBALT_FIXED_ISA {

template <class T>
void getrs_tiny(bool trans, int n, Items<const T> A, Mat a, const int *ipiv, int64_t sipiv,
                Items<T> B, int64_t sb, int64_t batch, int pair_max) {
    switch (n) {
    case 1: getrs_tiny_sel<1>(trans, A, a, ipiv, sipiv, B, sb, batch, pair_max); break;
    case 2: getrs_tiny_sel<2>(trans, A, a, ipiv, sipiv, B, sb, batch, pair_max); break;
    case 3: getrs_tiny_sel<3>(trans, A, a, ipiv, sipiv, B, sb, batch, pair_max); break;
    case 4: getrs_tiny_sel<4>(trans, A, a, ipiv, sipiv, B, sb, batch, pair_max); break;
    case 5: getrs_tiny_sel<5>(trans, A, a, ipiv, sipiv, B, sb, batch, pair_max); break;
    case 6: getrs_tiny_sel<6>(trans, A, a, ipiv, sipiv, B, sb, batch, pair_max); break;
    case 7: getrs_tiny_sel<7>(trans, A, a, ipiv, sipiv, B, sb, batch, pair_max); break;
    case 8: getrs_tiny_sel<8>(trans, A, a, ipiv, sipiv, B, sb, batch, pair_max); break;
    default: break;
    }
}

template void getrs_tiny<double>(bool, int, Items<const double>, Mat, const int *, int64_t,
                                 Items<double>, int64_t, int64_t, int);
template void getrs_tiny<float>(bool, int, Items<const float>, Mat, const int *, int64_t,
                                Items<float>, int64_t, int64_t, int);

} // namespace KOBALT_FIXED_ISA
} // namespace fixed
} // namespace kobalt_openmp
