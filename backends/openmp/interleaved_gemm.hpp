// interleaved_gemm.hpp -- the host's register-blocked gemm on SIMD packs of W items (the
// interleaved layout, issue 9), for interleaved_kernels.cpp.
//
// interleaved_algo.hpp's gemm (shared with the CUDA backend, where a lane is one scalar
// per thread) takes two columns of C per pass: each loaded vector of A feeds two FMAs, so
// at n = 8 a pack issues 10 loads per 16 FMAs and rereads A four times. Here C is tiled
// into RB x CB register blocks chosen at compile time from the ISA's vector register
// count (16 below AVX-512, 32 with it), so that the RB*CB accumulators, the CB vectors of
// B and one vector of A fit, and the loads per FMA over the whole item are fewest.
// Each C(i, j) is computed by the same operations in the same order as in il::gemm (the
// multiply-adds over p, then * alpha, then + beta C); only the order across elements
// changes.
//
// Internal linkage only (unnamed namespace), like interleaved_algo.hpp.
#ifndef KOBALT_OPENMP_INTERLEAVED_GEMM_HPP
#define KOBALT_OPENMP_INTERLEAVED_GEMM_HPP

#include "../common/interleaved_algo.hpp"

namespace {
namespace ilg {

using kobalt_interleaved::Operand;
using kobalt_interleaved::at;

// Vector registers of the ISA this translation unit is compiled for.
constexpr int registers() {
#if defined(__AVX512F__)
    return 32;
#else
    return 16;
#endif
}

// A register tile: RB rows x CB columns of C.
struct Tile {
    int rb, cb;
};

// The tile with the fewest vector loads for an MM x N item (N: the n it is tuned for),
// among those whose registers fit: rb*cb accumulators + cb vectors of B + one of A. Loads
// per p: for each column block, each row block loads its rb of A and the block's cb of B.
constexpr Tile best_tile(int mm, int n, int regs) {
    Tile best{1, 1};
    long best_loads = -1;
    for (int cb = 1; cb <= n; ++cb)
        for (int rb = 1; rb <= mm; ++rb) {
            if (rb * cb + cb + 1 > regs) continue;
            long loads = 0;
            for (int j = 0; j < n; j += cb) {
                const int c = n - j < cb ? n - j : cb;
                for (int i = 0; i < mm; i += rb) loads += (mm - i < rb ? mm - i : rb) + c;
            }
            if (best_loads < 0 || loads < best_loads) best = Tile{rb, cb}, best_loads = loads;
        }
    return best;
}

// C(i0 : i0+RB, j0 : j0+CB) = alpha A(i0 : i0+RB, :) B(:, j0 : j0+CB) + beta C(...); inner
// size k (KK: at compile time, 0 = runtime). alpha == 0: A and B not read; beta == 0: C
// not read.
template <class O, int RB, int CB, int KK>
KOBALT_IL_FN void block(int i0, int j0, int k_rt, typename O::T alpha, const Operand<const typename O::T> &A,
                        const Operand<const typename O::T> &B, typename O::T beta, const Operand<typename O::T> &C) {
    using T = typename O::T;
    using V = typename O::V;
    const int k = KK ? KK : k_rt;
    V acc[CB][RB];
    KOBALT_IL_UNROLL for (int c = 0; c < CB; ++c) KOBALT_IL_UNROLL for (int i = 0; i < RB; ++i) acc[c][i] = O::splat(T(0));
    if (alpha != T(0))
        KOBALT_IL_UNROLL for (int p = 0; p < k; ++p) {
            V b[CB];
            KOBALT_IL_UNROLL for (int c = 0; c < CB; ++c) b[c] = O::load(at(B, p, j0 + c));
            KOBALT_IL_UNROLL for (int i = 0; i < RB; ++i) {
                const V a = O::load(at(A, i0 + i, p));
                KOBALT_IL_UNROLL for (int c = 0; c < CB; ++c) acc[c][i] += a * b[c];
            }
        }
    KOBALT_IL_UNROLL for (int c = 0; c < CB; ++c) KOBALT_IL_UNROLL for (int i = 0; i < RB; ++i) {
        V v = acc[c][i] * alpha;
        if (beta != T(0)) v += O::load(at(C, i0 + i, j0 + c)) * beta;
        O::store(at(C, i0 + i, j0 + c), v);
    }
}

// Columns j0 .. j0+CB-1 of C, all MM rows: row blocks of RB, then the MM % RB left.
template <class O, int MM, int RB, int CB, int KK>
KOBALT_IL_FN void columns(int j0, int k, typename O::T alpha, const Operand<const typename O::T> &A,
                          const Operand<const typename O::T> &B, typename O::T beta, const Operand<typename O::T> &C) {
    KOBALT_IL_UNROLL for (int i0 = 0; i0 + RB <= MM; i0 += RB) block<O, RB, CB, KK>(i0, j0, k, alpha, A, B, beta, C);
    if constexpr (MM % RB != 0) block<O, MM % RB, CB, KK>(MM - MM % RB, j0, k, alpha, A, B, beta, C);
}

// Columns j0 .. j0+NR-1 of C (NR at compile time): blocks of the best tile for MM x NR,
// then the NR % CB columns left, tiled for themselves.
template <class O, int MM, int NR, int KK>
KOBALT_IL_FN void column_range(int j0, int k, typename O::T alpha, const Operand<const typename O::T> &A,
                               const Operand<const typename O::T> &B, typename O::T beta,
                               const Operand<typename O::T> &C) {
    constexpr Tile t = best_tile(MM, NR, registers());
    KOBALT_IL_UNROLL for (int j = 0; j + t.cb <= NR; j += t.cb)
        columns<O, MM, t.rb, t.cb, KK>(j0 + j, k, alpha, A, B, beta, C);
    if constexpr (NR % t.cb != 0)
        column_range<O, MM, NR % t.cb, KK>(j0 + NR - NR % t.cb, k, alpha, A, B, beta, C);
}

// C = alpha A B + beta C for MM x n items, inner size k (A, B op-applied through their
// strides). NN, KK: n and k at compile time (the square case), 0 = runtime; a runtime n
// runs in tiles tuned for n = MM, its last columns one at a time.
template <class O, int MM, int NN = 0, int KK = 0>
KOBALT_IL_FN void gemm(int n_rt, int k_rt, typename O::T alpha, Operand<const typename O::T> A,
                       Operand<const typename O::T> B, typename O::T beta, Operand<typename O::T> C) {
    if constexpr (NN != 0) {
        column_range<O, MM, NN, KK>(0, k_rt, alpha, A, B, beta, C);
    } else {
        constexpr Tile t = best_tile(MM, MM, registers()), e = best_tile(MM, 1, registers());
        int j = 0;
        for (; j + t.cb <= n_rt; j += t.cb) columns<O, MM, t.rb, t.cb, KK>(j, k_rt, alpha, A, B, beta, C);
        for (; j < n_rt; ++j) columns<O, MM, e.rb, 1, KK>(j, k_rt, alpha, A, B, beta, C);
    }
}

} // namespace ilg
} // namespace

#endif
