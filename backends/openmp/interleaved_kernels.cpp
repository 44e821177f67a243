// interleaved_kernels.cpp -- the interleaved fast path of interleaved_kernels.hpp for one
// instruction set. Compiled once per ISA with KOBALT_IL_ISA set to the namespace (base,
// avx2, avx512) and KOBALT_IL_BYTES to its vector width in bytes (16, 32, 64). The lanes
// are GCC vector extensions of that width; everything but the entry points has internal
// linkage (see interleaved_algo.hpp).
#include "interleaved_kernels.hpp"

#include <cstdint>

#include "interleaved_gemm.hpp"
#include "pack_ops.hpp"
#include "team.hpp"

namespace {

namespace il = kobalt_interleaved;
using il::Operand;
using il::Pivots;

// An operand with no elements (the fused call's X and Y for k = 0, B for nrhs = 0; gemm's
// A and B for k = 0) may be NULL (docs/api.md): it stays NULL, since NULL + b is
// undefined behaviour even when nothing is read (finding 7).
template <class T> Operand<T> shift(Operand<T> o, int64_t b) { return {o.p ? o.p + b : o.p, o.rs, o.cs}; }
inline Pivots shift(Pivots p, int64_t b) { return {p.p ? p.p + b * p.lane : nullptr, p.inc, p.lane}; }

// body(b) for the first item b of every full pack, statically split over the OpenMP
// threads (each thread one contiguous run of packs, so each element plane is read
// sequentially; on the calling thread where the region would have one thread, team.hpp);
// tail(b) for the items after the last full pack, one at a time.
template <int W, class Body, class Tail>
void packs(int64_t batch, const Body &body, const Tail &tail) {
    const int64_t full = batch / W;
    kobalt_openmp::for_chunks(full, [&body](int64_t lo, int64_t hi, int) {
        for (int64_t q = lo; q < hi; ++q) body(q * W);
    });
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
            ilg::gemm<PackOps<T, W>, MM, NK, NK>(n, k, alpha, shift(A, b), shift(B, b), beta, shift(C, b));
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
