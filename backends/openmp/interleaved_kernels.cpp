// interleaved_kernels.cpp -- the interleaved fast path of interleaved_kernels.hpp for one
// instruction set. Compiled once per ISA with KOBALT_IL_ISA set to the namespace (base,
// avx2, avx512) and KOBALT_IL_BYTES to its vector width in bytes (16, 32, 64). The lanes
// are GCC vector extensions of that width; everything but the entry points has internal
// linkage (see interleaved_algo.hpp).
#include "interleaved_kernels.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../common/interleaved_algo.hpp"

#if !defined(KOBALT_IL_ISA) || !defined(KOBALT_IL_BYTES)
#error "compile with -DKOBALT_IL_ISA=base|avx2|avx512 -DKOBALT_IL_BYTES=16|32|64"
#endif

namespace {

namespace il = kobalt_interleaved;
using il::Operand;
using il::Pivots;

// W items of T per pack: the Ops of interleaved_algo.hpp on GCC vectors.
template <class Real, int W> struct PackOps {
    using T = Real;
    using Int = std::conditional_t<sizeof(Real) == 8, int64_t, int32_t>;
    typedef Real V __attribute__((vector_size(W * sizeof(Real))));
    typedef Int I __attribute__((vector_size(W * sizeof(Real))));
    typedef int32_t I32 __attribute__((vector_size(W * sizeof(int32_t))));
    using M = I; // comparisons give all-ones / zero lanes

    static KOBALT_IL_FN V load(const T *p) {
        V v;
        std::memcpy(&v, p, sizeof v); // unaligned: items need not start on a vector boundary
        return v;
    }
    static KOBALT_IL_FN void store(T *p, V v) { std::memcpy(p, &v, sizeof v); }
    static KOBALT_IL_FN V splat(T x) { return V{} + x; }
    static KOBALT_IL_FN V abs(V v) { return v < T(0) ? -v : v; }
    static KOBALT_IL_FN M gt(V a, V b) { return a > b; }
    static KOBALT_IL_FN M ge(V a, V b) { return a >= b; }
    static KOBALT_IL_FN M ne(V a, V b) { return a != b; }
    static KOBALT_IL_FN V sel(M m, V a, V b) { return m ? a : b; }
    static KOBALT_IL_FN I isplat(int x) { return I{} + Int(x); }
    static KOBALT_IL_FN M ieq(I a, I b) { return a == b; }
    static KOBALT_IL_FN I isel(M m, I a, I b) { return m ? a : b; }
    static KOBALT_IL_FN M mand(M a, M b) { return a & b; }
    static KOBALT_IL_FN M mnot(M a) { return ~a; }
    static KOBALT_IL_FN bool any(M m) {
        Int r = 0;
        for (int l = 0; l < W; ++l) r |= m[l];
        return r != 0;
    }
    static KOBALT_IL_FN bool all(M m) {
        Int r = -1;
        for (int l = 0; l < W; ++l) r &= m[l];
        return r != 0;
    }
    static KOBALT_IL_FN I load_ints(const int *p, int64_t lane) {
        if (lane == 1) {
            I32 v;
            std::memcpy(&v, p, sizeof v);
            return __builtin_convertvector(v, I);
        }
        I r;
        for (int l = 0; l < W; ++l) r[l] = p[l * lane];
        return r;
    }
    static KOBALT_IL_FN void store_ints(int *p, int64_t lane, I v) {
        if (lane == 1) {
            const I32 w = __builtin_convertvector(v, I32);
            std::memcpy(p, &w, sizeof w);
            return;
        }
        for (int l = 0; l < W; ++l) p[l * lane] = int(v[l]);
    }
};

template <class T> constexpr int lanes_of() { return KOBALT_IL_BYTES / int(sizeof(T)); }

// An operand with no elements (the fused call's X and Y for k = 0, B for nrhs = 0; gemm's
// A and B for k = 0) may be NULL (docs/api.md): it stays NULL, since NULL + b is
// undefined behaviour even when nothing is read (finding 7).
template <class T> Operand<T> shift(Operand<T> o, int64_t b) { return {o.p ? o.p + b : o.p, o.rs, o.cs}; }
inline Pivots shift(Pivots p, int64_t b) { return {p.p ? p.p + b * p.lane : nullptr, p.inc, p.lane}; }

// body(b) for the first item b of every full pack, statically split over the OpenMP
// threads (each thread one contiguous run of packs, so each element plane is read
// sequentially); tail(b) for the items after the last full pack, one at a time.
template <int W, class Body, class Tail>
void packs(int64_t batch, const Body &body, const Tail &tail) {
    const int64_t full = batch / W;
    if (full > 1) {
#pragma omp parallel for schedule(static)
        for (int64_t q = 0; q < full; ++q) body(q * W);
    } else if (full == 1) {
        body(0);
    }
    for (int64_t b = full * W; b < batch; ++b) tail(b);
}

#define KIL_SWITCH(n, CALL)                                                                   \
    switch (n) {                                                                              \
    case 1: CALL(1); break;                                                                   \
    case 2: CALL(2); break;                                                                   \
    case 3: CALL(3); break;                                                                   \
    case 4: CALL(4); break;                                                                   \
    case 5: CALL(5); break;                                                                   \
    case 6: CALL(6); break;                                                                   \
    case 7: CALL(7); break;                                                                   \
    case 8: CALL(8); break;                                                                   \
    default: break;                                                                           \
    }
static_assert(il::MAX_N == 8, "KIL_SWITCH covers 1..MAX_N");

// NK: n == k == MM known at compile time (the square case), else both at run time.
template <class T, int MM, int NK>
void gemm_m(int n, int k, T alpha, Operand<const T> A, Operand<const T> B, T beta, Operand<T> C, int64_t batch) {
    constexpr int W = lanes_of<T>();
    packs<W>(
        batch,
        [&](int64_t b) {
            il::gemm<PackOps<T, W>, MM, NK, NK>(n, k, alpha, shift(A, b), shift(B, b), beta, shift(C, b));
        },
        [&](int64_t b) {
            il::gemm<il::ScalarOps<T>, MM, NK, NK>(n, k, alpha, shift(A, b), shift(B, b), beta, shift(C, b));
        });
}

template <class T, int MM>
void trsm_m(bool lower, bool unit, int n, T alpha, Operand<const T> A, Operand<T> B, int64_t batch) {
    constexpr int W = lanes_of<T>();
    packs<W>(
        batch, [&](int64_t b) { il::trsm<PackOps<T, W>, MM>(lower, unit, n, alpha, shift(A, b), shift(B, b)); },
        [&](int64_t b) { il::trsm<il::ScalarOps<T>, MM>(lower, unit, n, alpha, shift(A, b), shift(B, b)); });
}

template <class T, int MM, int NN>
void getrf_mn(int n, Operand<T> A, Pivots ipiv, int *info, int64_t batch) {
    constexpr int W = lanes_of<T>();
    packs<W>(
        batch, [&](int64_t b) { il::getrf<PackOps<T, W>, MM, NN>(n, shift(A, b), shift(ipiv, b), info + b); },
        [&](int64_t b) { il::getrf<il::ScalarOps<T>, MM, NN>(n, shift(A, b), shift(ipiv, b), info + b); });
}

template <class T, int N>
void getrs_n(bool trans, int nrhs, Operand<const T> A, Pivots ipiv, Operand<T> B, int64_t batch) {
    constexpr int W = lanes_of<T>();
    packs<W>(
        batch, [&](int64_t b) { il::getrs<PackOps<T, W>, N>(trans, nrhs, shift(A, b), shift(ipiv, b), shift(B, b)); },
        [&](int64_t b) { il::getrs<il::ScalarOps<T>, N>(trans, nrhs, shift(A, b), shift(ipiv, b), shift(B, b)); });
}

template <class T, int N>
void fused_n(int k, int nrhs, T alpha, Operand<const T> X, Operand<const T> Y, T beta, Operand<T> A, Pivots ipiv,
             Operand<T> B, int *info, int64_t batch) {
    constexpr int W = lanes_of<T>();
    packs<W>(
        batch,
        [&](int64_t b) {
            il::fused<PackOps<T, W>, N>(k, nrhs, alpha, shift(X, b), shift(Y, b), beta, shift(A, b), shift(ipiv, b),
                                        shift(B, b), info + b);
        },
        [&](int64_t b) {
            il::fused<il::ScalarOps<T>, N>(k, nrhs, alpha, shift(X, b), shift(Y, b), beta, shift(A, b),
                                           shift(ipiv, b), shift(B, b), info + b);
        });
}

} // namespace

namespace kobalt_openmp {
namespace interleaved {
namespace KOBALT_IL_ISA {

template <class T>
void gemm(int m, int n, int k, T alpha, Operand<const T> A, Operand<const T> B, T beta, Operand<T> C,
          int64_t batch) {
#define KIL_CALL(M)                                                                           \
    (n == M && k == M ? gemm_m<T, M, M>(n, k, alpha, A, B, beta, C, batch)                    \
                      : gemm_m<T, M, 0>(n, k, alpha, A, B, beta, C, batch))
    KIL_SWITCH(m, KIL_CALL)
#undef KIL_CALL
}

template <class T>
void trsm(bool lower, bool unit, int m, int n, T alpha, Operand<const T> A, Operand<T> B, int64_t batch) {
#define KIL_CALL(M) trsm_m<T, M>(lower, unit, n, alpha, A, B, batch)
    KIL_SWITCH(m, KIL_CALL)
#undef KIL_CALL
}

template <class T> void getrf(int m, int n, Operand<T> A, Pivots ipiv, int *info, int64_t batch) {
#define KIL_CALL(M) (m == n ? getrf_mn<T, M, M>(n, A, ipiv, info, batch) : getrf_mn<T, M, 0>(n, A, ipiv, info, batch))
    KIL_SWITCH(m, KIL_CALL)
#undef KIL_CALL
}

template <class T>
void getrs(bool trans, int n, int nrhs, Operand<const T> A, Pivots ipiv, Operand<T> B, int64_t batch) {
#define KIL_CALL(N) getrs_n<T, N>(trans, nrhs, A, ipiv, B, batch)
    KIL_SWITCH(n, KIL_CALL)
#undef KIL_CALL
}

template <class T>
void fused(int n, int k, int nrhs, T alpha, Operand<const T> X, Operand<const T> Y, T beta, Operand<T> A,
           Pivots ipiv, Operand<T> B, int *info, int64_t batch) {
#define KIL_CALL(N) fused_n<T, N>(k, nrhs, alpha, X, Y, beta, A, ipiv, B, info, batch)
    KIL_SWITCH(n, KIL_CALL)
#undef KIL_CALL
}

int lanes(int element_size) { return KOBALT_IL_BYTES / element_size; }

#define KIL_INSTANTIATE(T)                                                                    \
    template void gemm<T>(int, int, int, T, Operand<const T>, Operand<const T>, T, Operand<T>, int64_t); \
    template void trsm<T>(bool, bool, int, int, T, Operand<const T>, Operand<T>, int64_t);     \
    template void getrf<T>(int, int, Operand<T>, Pivots, int *, int64_t);                      \
    template void getrs<T>(bool, int, int, Operand<const T>, Pivots, Operand<T>, int64_t);     \
    template void fused<T>(int, int, int, T, Operand<const T>, Operand<const T>, T, Operand<T>, Pivots, \
                           Operand<T>, int *, int64_t);
KIL_INSTANTIATE(double)
KIL_INSTANTIATE(float)

} // namespace KOBALT_IL_ISA
} // namespace interleaved
} // namespace kobalt_openmp
