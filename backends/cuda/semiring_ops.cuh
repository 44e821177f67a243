// semiring_ops.cuh -- the semirings of gemm_semiring on the GPU (docs/api.md for the
// semantics): identities, the product's operations and the epilogue, shared by the group,
// tile and element kernels (semiring.cu, semiring_tile.cuh), and PLUS_TIMES for gemm's tile
// kernel (gemm_tile.cu). Included by semiring.cu and gemm_tile.cu only.
#ifndef KOBALT_CUDA_SEMIRING_OPS_CUH
#define KOBALT_CUDA_SEMIRING_OPS_CUH

#include "common.cuh"

namespace kobalt_cuda {
namespace {

// ---- the semirings ------------------------------------------------------------------------
// zero: the add identity. in: an operand as the product sees it (truth value for OR_AND).
// hmul/hadd: the product's operations on in() values; mul/add: exact on any values (the
// epilogue's).
template <int S> struct Ring;

template <class T> __device__ __forceinline__ T dinf() { return T(INFINITY); }
template <class T> __device__ __forceinline__ T truth(T x) { return x != T(0) ? T(1) : T(0); }

// The product's min/max in double: the accumulator never holds a NaN (it starts at the
// add identity and only takes values of non-NaN terms), so one compare and a select give
// fmin/fmax exactly; CUDA's fmin(double) also tests both operands for NaN. Single
// precision has a one-instruction min/max (FMNMX) that already ignores NaN.
template <bool Min, class T> __device__ __forceinline__ T fold(T acc, T t) {
    if constexpr (sizeof(T) == 8) return Min ? (t < acc ? t : acc) : (t > acc ? t : acc);
    else return Min ? fmin(acc, t) : fmax(acc, t);
}
// fmax/fmin exactly (a NaN operand ignored, both NaN give NaN), for the multiply of
// MIN_MAX / MAX_MIN, whose operands may both be NaN.
template <bool Max, class T> __device__ __forceinline__ T pick(T a, T b) {
    if constexpr (sizeof(T) == 8) return (Max ? a > b : a < b) || b != b ? a : b;
    else return Max ? fmax(a, b) : fmin(a, b);
}

#define KOBALT_RING(S_, ZERO, MUL)                                                               \
    template <> struct Ring<S_> {                                                                \
        template <class T> static __device__ __forceinline__ T zero() { return ZERO; }           \
        template <class T> static __device__ __forceinline__ T in(T x) { return x; }             \
        template <class T> static __device__ __forceinline__ T mul(T a, T b) { return MUL; }     \
        template <class T> static __device__ __forceinline__ T hmul(T a, T b) { return MUL; }    \
    };
// The add: min or max, from the name.
template <int S> struct IsMin {
    static constexpr bool value = S == KOBALT_MIN_PLUS || S == KOBALT_MIN_TIMES || S == KOBALT_MIN_MAX;
};
KOBALT_RING(KOBALT_MIN_PLUS, dinf<T>(), a + b)
KOBALT_RING(KOBALT_MAX_PLUS, -dinf<T>(), a + b)
KOBALT_RING(KOBALT_MIN_TIMES, dinf<T>(), a * b)
KOBALT_RING(KOBALT_MAX_TIMES, -dinf<T>(), a * b)
KOBALT_RING(KOBALT_MIN_MAX, dinf<T>(), (pick<true>(a, b)))
KOBALT_RING(KOBALT_MAX_MIN, -dinf<T>(), (pick<false>(a, b)))
#undef KOBALT_RING
// (+, *): ordinary gemm on the tile kernel (gemm_tile.cu); a term is one fused multiply-add
template <> struct Ring<KOBALT_PLUS_TIMES> {
    template <class T> static __device__ __forceinline__ T zero() { return T(0); }
    template <class T> static __device__ __forceinline__ T in(T x) { return x; }
    template <class T> static __device__ __forceinline__ T mul(T a, T b) { return a * b; }
    template <class T> static __device__ __forceinline__ T hmul(T a, T b) { return a * b; }
};
template <> struct Ring<KOBALT_OR_AND> {
    template <class T> static __device__ __forceinline__ T zero() { return T(0); }
    template <class T> static __device__ __forceinline__ T in(T x) { return truth(x); }
    template <class T> static __device__ __forceinline__ T mul(T a, T b) {
        return (a != T(0) && b != T(0)) ? T(1) : T(0);
    }
    template <class T> static __device__ __forceinline__ T hmul(T a, T b) { return a * b; } // 0/1
};

template <int S, class T> __device__ __forceinline__ T add(T x, T y) {
    if (S == KOBALT_OR_AND) return (x != T(0) || y != T(0)) ? T(1) : T(0);
    return IsMin<S>::value ? fmin(x, y) : fmax(x, y);
}
// The product's add on in() values (OR_AND: 0/1, where max is or).
template <int S, class T> __device__ __forceinline__ T hadd(T acc, T t) {
    if constexpr (S == KOBALT_PLUS_TIMES) return acc + t; // contracted with hmul's product: an FMA
    if (S == KOBALT_OR_AND) return fmax(acc, t);
    return fold<IsMin<S>::value>(acc, t);
}

// D = add(mult(alpha, P), mult(beta, C)), the skipped halves being zero. PLUS_TIMES: as the
// other gemm kernels (items.cuh, groups.cu), alpha * acc (acc = 0 without a product), plus
// beta * C only when C is read, so the signs of zeros and NaN/Inf propagation match them.
template <int S, class T>
__device__ __forceinline__ T epilogue(bool prod, T alpha, T acc, bool readc, T beta, T c) {
    if constexpr (S == KOBALT_PLUS_TIMES) {
        const T v = alpha * acc;
        return readc ? v + beta * c : v;
    }
    const T z = Ring<S>::template zero<T>();
    const T r = prod ? Ring<S>::mul(alpha, acc) : z;
    const T s = readc ? Ring<S>::mul(beta, c) : z;
    return add<S>(r, s);
}

template <class T> struct Pair;
template <> struct alignas(16) Pair<double> {
    double x, y;
};
template <> struct alignas(8) Pair<float> {
    float x, y;
};

} // namespace
} // namespace kobalt_cuda

#endif
