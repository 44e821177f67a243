// semiring_kernels.cpp -- the kernels of semiring_kernels.hpp. Compiled once per ISA with
// KOBALT_SEMIRING_ISA set to the namespace name (base, avx2, avx512) and the matching
// -m flags; the vector type is chosen below from what the compiler was told it may use.
//
// Semantics (docs/api.md, "gemm_semiring"), per element of C:
//   D = add(mult(alpha, P), mult(beta, C)),  P = add over p of mult(op(A)(i,p), op(B)(p,j)),
// the fold starting at the add identity 0 ("zero" below); mult(alpha, P) is zero without
// reading A or B when alpha == zero or k == 0, and mult(beta, C) is zero without reading
// C when beta == zero. min and max ignore a NaN operand (C's fmin/fmax; both NaN: NaN);
// + and * are IEEE. OR_AND: nonzero (NaN included) is true, results are exactly 0 or 1.
#include "semiring_kernels.hpp"

#include <omp.h>

#include <cstdint>
#include <limits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#ifndef KOBALT_SEMIRING_ISA
#error "compile with -DKOBALT_SEMIRING_ISA=base, avx2 or avx512"
#endif

#define KS_INLINE __attribute__((always_inline)) inline
#define KS_UNROLL _Pragma("GCC unroll 16")

namespace {

using kobalt_openmp::semiring::Items;
using kobalt_openmp::semiring::kPanelMax;
using kobalt_openmp::semiring::Problem;
using kobalt_openmp::semiring::View;

// ---- vectors ------------------------------------------------------------------------------
// W<T>: R the register type, L its lanes, REGS the architectural vector registers.
// min(a, b) is a < b ? a : b and max(a, b) is a > b ? a : b: the second operand when
// either is NaN (the x86 MIN/MAX instructions do exactly this).
// nan_to(x, test, alt): alt where test is NaN, else x. truth(x): 1 where x != 0 (NaN too).
template <class T> struct W;

#if defined(__AVX512F__)
template <> struct W<double> {
    using R = __m512d;
    static constexpr int L = 8, REGS = 32;
    static KS_INLINE R load(const double *p) { return _mm512_loadu_pd(p); }
    static KS_INLINE void store(double *p, R x) { _mm512_storeu_pd(p, x); }
    static KS_INLINE R set1(double x) { return _mm512_set1_pd(x); }
    static KS_INLINE R add(R a, R b) { return _mm512_add_pd(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm512_mul_pd(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm512_min_pd(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm512_max_pd(a, b); }
    static KS_INLINE R nan_to(R x, R test, R alt) {
        return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(test, test, _CMP_UNORD_Q), x, alt);
    }
    static KS_INLINE R truth(R x) {
        return _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_NEQ_UQ),
                                   _mm512_set1_pd(1.0));
    }
};
template <> struct W<float> {
    using R = __m512;
    static constexpr int L = 16, REGS = 32;
    static KS_INLINE R load(const float *p) { return _mm512_loadu_ps(p); }
    static KS_INLINE void store(float *p, R x) { _mm512_storeu_ps(p, x); }
    static KS_INLINE R set1(float x) { return _mm512_set1_ps(x); }
    static KS_INLINE R add(R a, R b) { return _mm512_add_ps(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm512_mul_ps(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm512_min_ps(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm512_max_ps(a, b); }
    static KS_INLINE R nan_to(R x, R test, R alt) {
        return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(test, test, _CMP_UNORD_Q), x, alt);
    }
    static KS_INLINE R truth(R x) {
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_NEQ_UQ),
                                   _mm512_set1_ps(1.0f));
    }
};
#elif defined(__AVX2__)
template <> struct W<double> {
    using R = __m256d;
    static constexpr int L = 4, REGS = 16;
    static KS_INLINE R load(const double *p) { return _mm256_loadu_pd(p); }
    static KS_INLINE void store(double *p, R x) { _mm256_storeu_pd(p, x); }
    static KS_INLINE R set1(double x) { return _mm256_set1_pd(x); }
    static KS_INLINE R add(R a, R b) { return _mm256_add_pd(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm256_mul_pd(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm256_min_pd(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm256_max_pd(a, b); }
    static KS_INLINE R nan_to(R x, R test, R alt) {
        return _mm256_blendv_pd(x, alt, _mm256_cmp_pd(test, test, _CMP_UNORD_Q));
    }
    static KS_INLINE R truth(R x) {
        return _mm256_and_pd(_mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_NEQ_UQ), _mm256_set1_pd(1.0));
    }
};
template <> struct W<float> {
    using R = __m256;
    static constexpr int L = 8, REGS = 16;
    static KS_INLINE R load(const float *p) { return _mm256_loadu_ps(p); }
    static KS_INLINE void store(float *p, R x) { _mm256_storeu_ps(p, x); }
    static KS_INLINE R set1(float x) { return _mm256_set1_ps(x); }
    static KS_INLINE R add(R a, R b) { return _mm256_add_ps(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm256_mul_ps(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm256_min_ps(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm256_max_ps(a, b); }
    static KS_INLINE R nan_to(R x, R test, R alt) {
        return _mm256_blendv_ps(x, alt, _mm256_cmp_ps(test, test, _CMP_UNORD_Q));
    }
    static KS_INLINE R truth(R x) {
        return _mm256_and_ps(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NEQ_UQ), _mm256_set1_ps(1.0f));
    }
};
#elif defined(__SSE2__)
template <> struct W<double> {
    using R = __m128d;
    static constexpr int L = 2, REGS = 16;
    static KS_INLINE R load(const double *p) { return _mm_loadu_pd(p); }
    static KS_INLINE void store(double *p, R x) { _mm_storeu_pd(p, x); }
    static KS_INLINE R set1(double x) { return _mm_set1_pd(x); }
    static KS_INLINE R add(R a, R b) { return _mm_add_pd(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm_mul_pd(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm_min_pd(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm_max_pd(a, b); }
    static KS_INLINE R nan_to(R x, R test, R alt) {
        const R m = _mm_cmpunord_pd(test, test);
        return _mm_or_pd(_mm_and_pd(m, alt), _mm_andnot_pd(m, x));
    }
    static KS_INLINE R truth(R x) { return _mm_and_pd(_mm_cmpneq_pd(x, _mm_setzero_pd()), _mm_set1_pd(1.0)); }
};
template <> struct W<float> {
    using R = __m128;
    static constexpr int L = 4, REGS = 16;
    static KS_INLINE R load(const float *p) { return _mm_loadu_ps(p); }
    static KS_INLINE void store(float *p, R x) { _mm_storeu_ps(p, x); }
    static KS_INLINE R set1(float x) { return _mm_set1_ps(x); }
    static KS_INLINE R add(R a, R b) { return _mm_add_ps(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm_mul_ps(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm_min_ps(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm_max_ps(a, b); }
    static KS_INLINE R nan_to(R x, R test, R alt) {
        const R m = _mm_cmpunord_ps(test, test);
        return _mm_or_ps(_mm_and_ps(m, alt), _mm_andnot_ps(m, x));
    }
    static KS_INLINE R truth(R x) { return _mm_and_ps(_mm_cmpneq_ps(x, _mm_setzero_ps()), _mm_set1_ps(1.0f)); }
};
#else
// No x86 vectors: one lane, the same semantics written out.
template <class T> struct W {
    using R = T;
    static constexpr int L = 1, REGS = 16;
    static KS_INLINE R load(const T *p) { return *p; }
    static KS_INLINE void store(T *p, R x) { *p = x; }
    static KS_INLINE R set1(T x) { return x; }
    static KS_INLINE R add(R a, R b) { return a + b; }
    static KS_INLINE R mul(R a, R b) { return a * b; }
    static KS_INLINE R min(R a, R b) { return a < b ? a : b; }
    static KS_INLINE R max(R a, R b) { return a > b ? a : b; }
    static KS_INLINE R nan_to(R x, R test, R alt) { return test != test ? alt : x; }
    static KS_INLINE R truth(R x) { return x != T(0) ? T(1) : T(0); }
};
#endif

// ---- the semirings ------------------------------------------------------------------------
template <class T> KS_INLINE T fmin_e(T x, T y) { return x != x ? y : y != y ? x : (y < x ? y : x); }
template <class T> KS_INLINE T fmax_e(T x, T y) { return x != x ? y : y != y ? x : (y > x ? y : x); }
template <class T> KS_INLINE T truth(T x) { return x != T(0) ? T(1) : T(0); }

enum class Mul { plus, times, max, min, and_ };

// Min: the add is min (else max); M: the multiply. OR_AND is (max, min) on truth values.
template <bool Min, Mul M> struct Ops {
    static constexpr bool kTruth = M == Mul::and_;
    // mult with max/min: vmul(a, b) is exact only when b is not NaN (see item()).
    static constexpr bool kScanB = M == Mul::max || M == Mul::min;

    template <class T> static KS_INLINE T zero() {
        return kTruth ? T(0) : Min ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    }
    template <class T> static KS_INLINE T in(T x) { return kTruth ? truth(x) : x; }
    // Exact scalar add and mult.
    template <class T> static KS_INLINE T sadd(T x, T y) {
        if (kTruth) return (x != T(0) || y != T(0)) ? T(1) : T(0);
        return Min ? fmin_e(x, y) : fmax_e(x, y);
    }
    template <class T> static KS_INLINE T smul(T x, T y) {
        switch (M) {
        case Mul::plus: return x + y;
        case Mul::times: return x * y;
        case Mul::max: return fmax_e(x, y);
        case Mul::min: return fmin_e(x, y);
        case Mul::and_: return (x != T(0) && y != T(0)) ? T(1) : T(0);
        }
        return x;
    }
    // One term, a from the packed op(A) (any value), b from op(B) (not NaN for max/min).
    template <class V> static KS_INLINE typename V::R vmul(typename V::R a, typename V::R b) {
        switch (M) {
        case Mul::plus: return V::add(a, b);
        case Mul::times: return V::mul(a, b);
        case Mul::max: return V::max(a, b);
        case Mul::min:
        case Mul::and_: return V::min(a, b);
        }
        return a;
    }
    // acc = add(acc, t): a NaN term leaves acc as it was (acc itself is never NaN).
    template <class V> static KS_INLINE typename V::R vred(typename V::R acc, typename V::R t) {
        return Min ? V::min(t, acc) : V::max(t, acc);
    }
    // mult(alpha, acc) with acc never NaN, alpha != zero.
    template <class V, class T> static KS_INLINE typename V::R valpha(T alpha, typename V::R acc) {
        switch (M) {
        case Mul::plus: return V::add(V::set1(alpha), acc);
        case Mul::times: return V::mul(V::set1(alpha), acc);
        case Mul::max: return alpha != alpha ? acc : V::max(acc, V::set1(alpha));
        case Mul::min: return alpha != alpha ? acc : V::min(acc, V::set1(alpha));
        case Mul::and_: return acc;
        }
        return acc;
    }
    // mult(beta, c) with beta != zero, c anything.
    template <class V, class T> static KS_INLINE typename V::R vbeta(T beta, typename V::R c) {
        switch (M) {
        case Mul::plus: return V::add(V::set1(beta), c);
        case Mul::times: return V::mul(V::set1(beta), c);
        case Mul::max: return beta != beta ? c : V::max(c, V::set1(beta)); // c NaN: beta
        case Mul::min: return beta != beta ? c : V::min(c, V::set1(beta));
        case Mul::and_: return V::truth(c);
        }
        return c;
    }
    // Exact add(r, s), either may be NaN.
    template <class V> static KS_INLINE typename V::R vadd(typename V::R r, typename V::R s) {
        return V::nan_to(Min ? V::min(r, s) : V::max(r, s), s, r);
    }
};

// What every item of a call shares.
template <class T> struct Call {
    int m, n, k;
    T alpha, beta;
    bool prod;  // alpha != zero and k > 0: A and B are read
    bool readc; // beta != zero: C is read
    View a, b;  // op(A), op(B); C has unit row stride, columns ldc apart
    int64_t ldc;
};

template <class S, class T> KS_INLINE T epilogue(const Call<T> &x, T acc, const T *c) {
    const T z = S::template zero<T>();
    const T r = x.prod ? S::smul(x.alpha, acc) : z;
    const T s = x.readc ? S::smul(x.beta, *c) : z;
    return S::sadd(r, s);
}

// Columns j0 .. j0+JB-1 of one panel: rows [0, mb) of C at c, the panel of op(A) packed
// at ap (MP = NV*L rows per column of the pack), op(B) at b.
template <class S, class T, int NV, int JB>
KS_INLINE void columns(const Call<T> &x, const T *__restrict__ ap, int mb, const T *b, int j0, T *c) {
    using V = W<T>;
    using R = typename V::R;
    constexpr int L = V::L, MP = NV * L;
    const R z = V::set1(S::template zero<T>());
    R acc[JB][NV];
    KS_UNROLL for (int jb = 0; jb < JB; ++jb) KS_UNROLL for (int v = 0; v < NV; ++v) acc[jb][v] = z;
    const T *bp[JB];
    KS_UNROLL for (int jb = 0; jb < JB; ++jb) bp[jb] = b + int64_t(j0 + jb) * x.b.cs;
    const int64_t brs = x.b.rs;
    for (int p = 0; p < x.k; ++p) {
        R bb[JB];
        KS_UNROLL for (int jb = 0; jb < JB; ++jb) bb[jb] = V::set1(S::in(bp[jb][p * brs]));
        const T *__restrict__ a = ap + int64_t(p) * MP;
        KS_UNROLL for (int v = 0; v < NV; ++v) {
            const R av = V::load(a + v * L);
            KS_UNROLL for (int jb = 0; jb < JB; ++jb)
                acc[jb][v] = S::template vred<V>(acc[jb][v], S::template vmul<V>(av, bb[jb]));
        }
    }
    const int full = mb / L;
    KS_UNROLL for (int jb = 0; jb < JB; ++jb) {
        T *__restrict__ cj = c + int64_t(j0 + jb) * x.ldc;
        KS_UNROLL for (int v = 0; v < NV; ++v) {
            if (v < full) {
                const R r = S::template valpha<V>(x.alpha, acc[jb][v]);
                const R s = x.readc ? S::template vbeta<V>(x.beta, V::load(cj + v * L)) : z;
                V::store(cj + v * L, S::template vadd<V>(r, s));
            } else if (v == full && v * L < mb) {
                alignas(64) T t[L];
                V::store(t, acc[jb][v]);
                for (int i = v * L; i < mb; ++i) cj[i] = epilogue<S>(x, t[i - v * L], cj + i);
            }
        }
    }
}

// Rows [i0, i0+mb) of one item: pack the panel of op(A), then every column of C.
template <class S, class T, int NV>
void panel(const Call<T> &x, const T *A, const T *B, T *C, int i0, int mb, T *__restrict__ pack) {
    constexpr int L = W<T>::L, MP = NV * L;
    constexpr int ACC = W<T>::REGS / 2; // accumulator registers, leaving room for a, b
    constexpr int JB = ACC / NV >= 8 ? 8 : ACC / NV >= 1 ? ACC / NV : 1;
    const int64_t ars = x.a.rs, acs = x.a.cs;
    const T *a0 = A + int64_t(i0) * ars;
    if (ars == 1) {
        for (int p = 0; p < x.k; ++p) {
            const T *src = a0 + int64_t(p) * acs;
            T *dst = pack + int64_t(p) * MP;
            for (int i = 0; i < mb; ++i) dst[i] = S::in(src[i]);
            for (int i = mb; i < MP; ++i) dst[i] = T(0);
        }
    } else {
        for (int i = 0; i < mb; ++i) {
            const T *src = a0 + int64_t(i) * ars;
            for (int p = 0; p < x.k; ++p) pack[int64_t(p) * MP + i] = S::in(src[int64_t(p) * acs]);
        }
        for (int p = 0; p < x.k; ++p)
            for (int i = mb; i < MP; ++i) pack[int64_t(p) * MP + i] = T(0);
    }
    T *c = C + i0;
    int j = 0;
    for (; j + JB <= x.n; j += JB) columns<S, T, NV, JB>(x, pack, mb, B, j, c);
    for (; j < x.n; ++j) columns<S, T, NV, 1>(x, pack, mb, B, j, c);
}

// The exact, plain loops: items whose op(B) holds a NaN under a max/min multiply.
template <class S, class T> void item_exact(const Call<T> &x, const T *A, const T *B, T *C) {
    const T z = S::template zero<T>();
    for (int j = 0; j < x.n; ++j)
        for (int i = 0; i < x.m; ++i) {
            T acc = z;
            for (int p = 0; p < x.k; ++p)
                acc = S::sadd(acc, S::smul(S::in(A[i * x.a.rs + p * x.a.cs]), S::in(B[p * x.b.rs + j * x.b.cs])));
            T *c = C + i + int64_t(j) * x.ldc;
            *c = epilogue<S>(x, acc, c);
        }
}

template <class S, class T> void item(const Call<T> &x, const T *A, const T *B, T *C, T *pack) {
    if (!x.prod) { // D = add(zero, mult(beta, C)): A and B not read
        for (int j = 0; j < x.n; ++j)
            for (int i = 0; i < x.m; ++i) {
                T *c = C + i + int64_t(j) * x.ldc;
                *c = epilogue<S>(x, S::template zero<T>(), c);
            }
        return;
    }
    if (S::kScanB) {
        for (int j = 0; j < x.n; ++j)
            for (int p = 0; p < x.k; ++p) {
                const T v = B[p * x.b.rs + j * x.b.cs];
                if (v != v) return item_exact<S>(x, A, B, C);
            }
    }
    constexpr int L = W<T>::L;
    constexpr int NVMAX = 32 / L < 8 ? 32 / L : 8;
    constexpr int PH = NVMAX * L;
    static_assert(PH <= kPanelMax, "panel larger than the scratch");
    for (int i0 = 0; i0 < x.m; i0 += PH) {
        const int mb = x.m - i0 < PH ? x.m - i0 : PH;
        const int nv = (mb + L - 1) / L;
#define KS_CASE(NV)                                                                                \
    case NV:                                                                                       \
        if constexpr (NV <= NVMAX) panel<S, T, NV>(x, A, B, C, i0, mb, pack);                      \
        break;
        switch (nv) {
            KS_CASE(1)
            KS_CASE(2)
            KS_CASE(3)
            KS_CASE(4)
            KS_CASE(5)
            KS_CASE(6)
            KS_CASE(7)
            KS_CASE(8)
        default: break;
        }
#undef KS_CASE
    }
}

template <class T> KS_INLINE T *item_ptr(const Items<T> &it, int64_t i) {
    return it.ptrs ? it.ptrs[i] : it.base + i * it.stride;
}

template <class S, class T> void run(const Problem<T> &p) {
    Call<T> x;
    // A row-major C is computed as C^T = op(B)^T op(A)^T (every multiply here commutes),
    // so that C always has unit row stride.
    const bool swap = p.c.rs != 1;
    x.m = swap ? p.n : p.m;
    x.n = swap ? p.m : p.n;
    x.k = p.k;
    x.a = swap ? View{p.b.cs, p.b.rs} : p.a;
    x.b = swap ? View{p.a.cs, p.a.rs} : p.b;
    x.ldc = swap ? p.c.rs : p.c.cs;
    const Items<const T> A = swap ? p.B : p.A, B = swap ? p.A : p.B;
    x.alpha = p.alpha;
    x.beta = p.beta;
    const T z = S::template zero<T>();
    x.prod = p.k > 0 && !(p.alpha == z);
    x.readc = !(p.beta == z);
    const Items<T> C = p.C;
    const int64_t batch = p.batch;
    auto body = [&](int64_t i) {
        T *pack = nullptr;
        if (x.prod) {
            T *mine = p.scratch + p.per_thread * size_t(omp_get_thread_num());
            const uintptr_t addr = reinterpret_cast<uintptr_t>(mine);
            pack = reinterpret_cast<T *>((addr + 63) & ~uintptr_t(63));
        }
        item<S>(x, x.prod ? item_ptr(A, i) : nullptr, x.prod ? item_ptr(B, i) : nullptr, item_ptr(C, i), pack);
    };
    if (batch > 1) {
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < batch; ++i) body(i);
    } else {
        for (int64_t i = 0; i < batch; ++i) body(i);
    }
}

} // namespace

namespace kobalt_openmp {
namespace semiring {
namespace KOBALT_SEMIRING_ISA {

template <class T> void gemm(const Problem<T> &p) {
    switch (p.semiring) {
    case KOBALT_MIN_PLUS: return run<Ops<true, Mul::plus>>(p);
    case KOBALT_MAX_PLUS: return run<Ops<false, Mul::plus>>(p);
    case KOBALT_MIN_TIMES: return run<Ops<true, Mul::times>>(p);
    case KOBALT_MAX_TIMES: return run<Ops<false, Mul::times>>(p);
    case KOBALT_MIN_MAX: return run<Ops<true, Mul::max>>(p);
    case KOBALT_MAX_MIN: return run<Ops<false, Mul::min>>(p);
    case KOBALT_OR_AND: return run<Ops<false, Mul::and_>>(p);
    case KOBALT_PLUS_TIMES: break; // the slot runs gemm
    }
}

template void gemm<double>(const Problem<double> &);
template void gemm<float>(const Problem<float> &);

} // namespace KOBALT_SEMIRING_ISA
} // namespace semiring
} // namespace kobalt_openmp
