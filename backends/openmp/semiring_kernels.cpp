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
#include "team.hpp"

#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#ifndef KOBALT_SEMIRING_ISA
#error "compile with -DKOBALT_SEMIRING_ISA=base, avx2 or avx512"
#endif

#define KS_INLINE __attribute__((always_inline)) inline
#define KS_UNROLL _Pragma("GCC unroll 16")
#define KS_INLINE_LAMBDA __attribute__((always_inline))

namespace {

using kobalt_openmp::semiring::Items;
using kobalt_openmp::semiring::kColumnsMax;
using kobalt_openmp::semiring::kPanelMax;
using kobalt_openmp::semiring::Problem;
using kobalt_openmp::semiring::View;

// ---- vectors ------------------------------------------------------------------------------
// A wrapper V: T the element, R the register type, L its lanes, REGS the vector registers
// the compiler may use for it.
// min(a, b) is a < b ? a : b and max(a, b) is a > b ? a : b: the second operand when
// either is NaN (the x86 MIN/MAX instructions do exactly this).
// fadd(a, b) = a + b computed as fma(a, 1, b) -- exactly a + b (a * 1 is exact, one
// rounding), on the multiply pipes: on AMD Zen 4 the add and min/max instructions share
// two pipes, so min-plus with vaddpd runs at half the rate of an FMA gemm; with
// fma(a, 1, b) the two halves of a term go to different pipes.
// fmadd(a, b, c) = a * b + c, one rounding where the copy has FMA (PlusTimes' term).
// band/bor: bitwise and/or, for 0.0/1.0 truth values (logic runs on every vector pipe).
// imin/imax (kInt): signed integer min/max of the bit patterns, which order non-negative
// floating-point values (and -0) as their values do, and the keys (key(), below) of any
// non-NaN values; they run on the integer vector pipes, beside the FP min/max.
// unkey (kInt): key() on every lane (its own inverse). nans (kInt): the NaN lanes' mask.
// nan_to(x, test, alt): alt where test is NaN, else x. truth(x): 1 where x != 0 (NaN too).
// loadn/storen: the first c lanes (c < L), for the last rows of a panel.
#define KS_COMMON(T_, R_, L_, REGS_, INT_)                                                       \
    using T = T_;                                                                                \
    using R = R_;                                                                                \
    static constexpr int L = L_, REGS = REGS_;                                                   \
    static constexpr bool kInt = INT_;

// KS_VL: the 128/256-bit integer min/max and shifts that AVX-512VL adds (64-bit lanes;
// the 32-bit ones exist from SSE4.1/AVX2, used here only in the AVX-512 copy likewise).
#if defined(__AVX512VL__)
#define KS_VL true
#else
#define KS_VL false
#endif

#if defined(__AVX512F__)
struct V512d {
    KS_COMMON(double, __m512d, 8, 32, true)
    static KS_INLINE R load(const T *p) { return _mm512_loadu_pd(p); }
    static KS_INLINE void store(T *p, R x) { _mm512_storeu_pd(p, x); }
    static KS_INLINE R loadn(const T *p, int c) { return _mm512_maskz_loadu_pd(__mmask8((1u << c) - 1), p); }
    static KS_INLINE void storen(T *p, R x, int c) { _mm512_mask_storeu_pd(p, __mmask8((1u << c) - 1), x); }
    static KS_INLINE R set1(T x) { return _mm512_set1_pd(x); }
    static KS_INLINE R add(R a, R b) { return _mm512_add_pd(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm512_mul_pd(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm512_min_pd(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm512_max_pd(a, b); }
    static KS_INLINE R fadd(R a, R b) { return _mm512_fmadd_pd(a, _mm512_set1_pd(1.0), b); }
    static KS_INLINE R fmadd(R a, R b, R c) { return _mm512_fmadd_pd(a, b, c); }
    static KS_INLINE R band(R a, R b) { return _mm512_castsi512_pd(_mm512_and_epi64(_mm512_castpd_si512(a), _mm512_castpd_si512(b))); }
    static KS_INLINE R bor(R a, R b) { return _mm512_castsi512_pd(_mm512_or_epi64(_mm512_castpd_si512(a), _mm512_castpd_si512(b))); }
    static KS_INLINE R imin(R a, R b) { return _mm512_castsi512_pd(_mm512_min_epi64(_mm512_castpd_si512(a), _mm512_castpd_si512(b))); }
    static KS_INLINE R imax(R a, R b) { return _mm512_castsi512_pd(_mm512_max_epi64(_mm512_castpd_si512(a), _mm512_castpd_si512(b))); }
    static KS_INLINE R unkey(R x) {
        const __m512i b = _mm512_castpd_si512(x);
        return _mm512_castsi512_pd(_mm512_xor_si512(b, _mm512_srli_epi64(_mm512_srai_epi64(b, 63), 1)));
    }
    static KS_INLINE unsigned nans(R x) { return _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q); }
    static KS_INLINE R nan_to(R x, R test, R alt) {
        return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(test, test, _CMP_UNORD_Q), x, alt);
    }
    static KS_INLINE R truth(R x) {
        return _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_NEQ_UQ), _mm512_set1_pd(1.0));
    }
};
struct V512f {
    KS_COMMON(float, __m512, 16, 32, true)
    static KS_INLINE R load(const T *p) { return _mm512_loadu_ps(p); }
    static KS_INLINE void store(T *p, R x) { _mm512_storeu_ps(p, x); }
    static KS_INLINE R loadn(const T *p, int c) { return _mm512_maskz_loadu_ps(__mmask16((1u << c) - 1), p); }
    static KS_INLINE void storen(T *p, R x, int c) { _mm512_mask_storeu_ps(p, __mmask16((1u << c) - 1), x); }
    static KS_INLINE R set1(T x) { return _mm512_set1_ps(x); }
    static KS_INLINE R add(R a, R b) { return _mm512_add_ps(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm512_mul_ps(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm512_min_ps(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm512_max_ps(a, b); }
    static KS_INLINE R fadd(R a, R b) { return _mm512_fmadd_ps(a, _mm512_set1_ps(1.0f), b); }
    static KS_INLINE R fmadd(R a, R b, R c) { return _mm512_fmadd_ps(a, b, c); }
    static KS_INLINE R band(R a, R b) { return _mm512_castsi512_ps(_mm512_and_epi32(_mm512_castps_si512(a), _mm512_castps_si512(b))); }
    static KS_INLINE R bor(R a, R b) { return _mm512_castsi512_ps(_mm512_or_epi32(_mm512_castps_si512(a), _mm512_castps_si512(b))); }
    static KS_INLINE R imin(R a, R b) { return _mm512_castsi512_ps(_mm512_min_epi32(_mm512_castps_si512(a), _mm512_castps_si512(b))); }
    static KS_INLINE R imax(R a, R b) { return _mm512_castsi512_ps(_mm512_max_epi32(_mm512_castps_si512(a), _mm512_castps_si512(b))); }
    static KS_INLINE R unkey(R x) {
        const __m512i b = _mm512_castps_si512(x);
        return _mm512_castsi512_ps(_mm512_xor_si512(b, _mm512_srli_epi32(_mm512_srai_epi32(b, 31), 1)));
    }
    static KS_INLINE unsigned nans(R x) { return _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q); }
    static KS_INLINE R nan_to(R x, R test, R alt) {
        return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(test, test, _CMP_UNORD_Q), x, alt);
    }
    static KS_INLINE R truth(R x) {
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_NEQ_UQ), _mm512_set1_ps(1.0f));
    }
};
#endif

#if defined(__AVX2__)
struct V256d {
    KS_COMMON(double, __m256d, 4, 16, KS_VL)
    static KS_INLINE __m256i lanes(int c) { return _mm256_cmpgt_epi64(_mm256_set1_epi64x(c), _mm256_setr_epi64x(0, 1, 2, 3)); }
    static KS_INLINE R load(const T *p) { return _mm256_loadu_pd(p); }
    static KS_INLINE void store(T *p, R x) { _mm256_storeu_pd(p, x); }
#if defined(__AVX512VL__) // k-masks: AVX2's vmaskmov stores are slow on AMD
    static KS_INLINE R loadn(const T *p, int c) { return _mm256_maskz_loadu_pd(__mmask8((1u << c) - 1), p); }
    static KS_INLINE void storen(T *p, R x, int c) { _mm256_mask_storeu_pd(p, __mmask8((1u << c) - 1), x); }
#else
    static KS_INLINE R loadn(const T *p, int c) { return _mm256_maskload_pd(p, lanes(c)); }
    static KS_INLINE void storen(T *p, R x, int c) { _mm256_maskstore_pd(p, lanes(c), x); }
#endif
    static KS_INLINE R set1(T x) { return _mm256_set1_pd(x); }
    static KS_INLINE R add(R a, R b) { return _mm256_add_pd(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm256_mul_pd(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm256_min_pd(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm256_max_pd(a, b); }
    static KS_INLINE R fadd(R a, R b) { return _mm256_fmadd_pd(a, _mm256_set1_pd(1.0), b); }
    static KS_INLINE R fmadd(R a, R b, R c) { return _mm256_fmadd_pd(a, b, c); }
    static KS_INLINE R band(R a, R b) { return _mm256_and_pd(a, b); }
    static KS_INLINE R bor(R a, R b) { return _mm256_or_pd(a, b); }
#if defined(__AVX512VL__) // 64-bit integer min/max and arithmetic shift: AVX-512VL, not AVX2
    static KS_INLINE R imin(R a, R b) { return _mm256_castsi256_pd(_mm256_min_epi64(_mm256_castpd_si256(a), _mm256_castpd_si256(b))); }
    static KS_INLINE R imax(R a, R b) { return _mm256_castsi256_pd(_mm256_max_epi64(_mm256_castpd_si256(a), _mm256_castpd_si256(b))); }
    static KS_INLINE R unkey(R x) {
        const __m256i b = _mm256_castpd_si256(x);
        return _mm256_castsi256_pd(_mm256_xor_si256(b, _mm256_srli_epi64(_mm256_srai_epi64(b, 63), 1)));
    }
    static KS_INLINE unsigned nans(R x) { return _mm256_cmp_pd_mask(x, x, _CMP_UNORD_Q); }
#else
    static KS_INLINE R imin(R a, R) { return a; } // kInt false: unused
    static KS_INLINE R imax(R a, R) { return a; }
    static KS_INLINE R unkey(R x) { return x; }
    static KS_INLINE unsigned nans(R) { return 0; }
#endif
    static KS_INLINE R nan_to(R x, R test, R alt) { return _mm256_blendv_pd(x, alt, _mm256_cmp_pd(test, test, _CMP_UNORD_Q)); }
    static KS_INLINE R truth(R x) { return _mm256_and_pd(_mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_NEQ_UQ), _mm256_set1_pd(1.0)); }
};
struct V256f {
    KS_COMMON(float, __m256, 8, 16, true)
    static KS_INLINE __m256i lanes(int c) { return _mm256_cmpgt_epi32(_mm256_set1_epi32(c), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
    static KS_INLINE R load(const T *p) { return _mm256_loadu_ps(p); }
    static KS_INLINE void store(T *p, R x) { _mm256_storeu_ps(p, x); }
#if defined(__AVX512VL__)
    static KS_INLINE R loadn(const T *p, int c) { return _mm256_maskz_loadu_ps(__mmask8((1u << c) - 1), p); }
    static KS_INLINE void storen(T *p, R x, int c) { _mm256_mask_storeu_ps(p, __mmask8((1u << c) - 1), x); }
#else
    static KS_INLINE R loadn(const T *p, int c) { return _mm256_maskload_ps(p, lanes(c)); }
    static KS_INLINE void storen(T *p, R x, int c) { _mm256_maskstore_ps(p, lanes(c), x); }
#endif
    static KS_INLINE R set1(T x) { return _mm256_set1_ps(x); }
    static KS_INLINE R add(R a, R b) { return _mm256_add_ps(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm256_mul_ps(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm256_min_ps(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm256_max_ps(a, b); }
    static KS_INLINE R fadd(R a, R b) { return _mm256_fmadd_ps(a, _mm256_set1_ps(1.0f), b); }
    static KS_INLINE R fmadd(R a, R b, R c) { return _mm256_fmadd_ps(a, b, c); }
    static KS_INLINE R band(R a, R b) { return _mm256_and_ps(a, b); }
    static KS_INLINE R bor(R a, R b) { return _mm256_or_ps(a, b); }
    static KS_INLINE R imin(R a, R b) { return _mm256_castsi256_ps(_mm256_min_epi32(_mm256_castps_si256(a), _mm256_castps_si256(b))); }
    static KS_INLINE R imax(R a, R b) { return _mm256_castsi256_ps(_mm256_max_epi32(_mm256_castps_si256(a), _mm256_castps_si256(b))); }
    static KS_INLINE R unkey(R x) {
        const __m256i b = _mm256_castps_si256(x);
        return _mm256_castsi256_ps(_mm256_xor_si256(b, _mm256_srli_epi32(_mm256_srai_epi32(b, 31), 1)));
    }
    static KS_INLINE unsigned nans(R x) { return unsigned(_mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q))); }
    static KS_INLINE R nan_to(R x, R test, R alt) { return _mm256_blendv_ps(x, alt, _mm256_cmp_ps(test, test, _CMP_UNORD_Q)); }
    static KS_INLINE R truth(R x) { return _mm256_and_ps(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NEQ_UQ), _mm256_set1_ps(1.0f)); }
};
#endif

#if defined(__SSE2__)
struct V128d {
    KS_COMMON(double, __m128d, 2, 16, KS_VL)
    static KS_INLINE R load(const T *p) { return _mm_loadu_pd(p); }
    static KS_INLINE void store(T *p, R x) { _mm_storeu_pd(p, x); }
    static KS_INLINE R loadn(const T *p, int) { return _mm_load_sd(p); } // c == 1
    static KS_INLINE void storen(T *p, R x, int) { _mm_store_sd(p, x); }
    static KS_INLINE R set1(T x) { return _mm_set1_pd(x); }
    static KS_INLINE R add(R a, R b) { return _mm_add_pd(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm_mul_pd(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm_min_pd(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm_max_pd(a, b); }
    static KS_INLINE R fadd(R a, R b) { return _mm_add_pd(a, b); }
#if defined(__FMA__)
    static KS_INLINE R fmadd(R a, R b, R c) { return _mm_fmadd_pd(a, b, c); }
#else
    static KS_INLINE R fmadd(R a, R b, R c) { return _mm_add_pd(_mm_mul_pd(a, b), c); }
#endif
    static KS_INLINE R band(R a, R b) { return _mm_and_pd(a, b); }
    static KS_INLINE R bor(R a, R b) { return _mm_or_pd(a, b); }
#if defined(__AVX512VL__)
    static KS_INLINE R imin(R a, R b) { return _mm_castsi128_pd(_mm_min_epi64(_mm_castpd_si128(a), _mm_castpd_si128(b))); }
    static KS_INLINE R imax(R a, R b) { return _mm_castsi128_pd(_mm_max_epi64(_mm_castpd_si128(a), _mm_castpd_si128(b))); }
    static KS_INLINE R unkey(R x) {
        const __m128i b = _mm_castpd_si128(x);
        return _mm_castsi128_pd(_mm_xor_si128(b, _mm_srli_epi64(_mm_srai_epi64(b, 63), 1)));
    }
    static KS_INLINE unsigned nans(R x) { return _mm_cmp_pd_mask(x, x, _CMP_UNORD_Q); }
#else
    static KS_INLINE R imin(R a, R) { return a; }
    static KS_INLINE R imax(R a, R) { return a; }
    static KS_INLINE R unkey(R x) { return x; }
    static KS_INLINE unsigned nans(R) { return 0; } // kInt false: unused
#endif
    static KS_INLINE R nan_to(R x, R test, R alt) {
        const R m = _mm_cmpunord_pd(test, test);
        return _mm_or_pd(_mm_and_pd(m, alt), _mm_andnot_pd(m, x));
    }
    static KS_INLINE R truth(R x) { return _mm_and_pd(_mm_cmpneq_pd(x, _mm_setzero_pd()), _mm_set1_pd(1.0)); }
};
struct V128f {
    KS_COMMON(float, __m128, 4, 16, KS_VL)
    static KS_INLINE R load(const T *p) { return _mm_loadu_ps(p); }
    static KS_INLINE void store(T *p, R x) { _mm_storeu_ps(p, x); }
    static KS_INLINE R loadn(const T *p, int c) { // c = 1 .. 3
        return _mm_setr_ps(p[0], c > 1 ? p[1] : 0.0f, c > 2 ? p[2] : 0.0f, 0.0f);
    }
    static KS_INLINE void storen(T *p, R x, int c) {
        alignas(16) T t[4];
        _mm_store_ps(t, x);
        p[0] = t[0];
        if (c > 1) p[1] = t[1];
        if (c > 2) p[2] = t[2];
    }
    static KS_INLINE R set1(T x) { return _mm_set1_ps(x); }
    static KS_INLINE R add(R a, R b) { return _mm_add_ps(a, b); }
    static KS_INLINE R mul(R a, R b) { return _mm_mul_ps(a, b); }
    static KS_INLINE R min(R a, R b) { return _mm_min_ps(a, b); }
    static KS_INLINE R max(R a, R b) { return _mm_max_ps(a, b); }
    static KS_INLINE R fadd(R a, R b) { return _mm_add_ps(a, b); }
#if defined(__FMA__)
    static KS_INLINE R fmadd(R a, R b, R c) { return _mm_fmadd_ps(a, b, c); }
#else
    static KS_INLINE R fmadd(R a, R b, R c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
#endif
    static KS_INLINE R band(R a, R b) { return _mm_and_ps(a, b); }
    static KS_INLINE R bor(R a, R b) { return _mm_or_ps(a, b); }
#if defined(__AVX512VL__)
    static KS_INLINE R imin(R a, R b) { return _mm_castsi128_ps(_mm_min_epi32(_mm_castps_si128(a), _mm_castps_si128(b))); }
    static KS_INLINE R imax(R a, R b) { return _mm_castsi128_ps(_mm_max_epi32(_mm_castps_si128(a), _mm_castps_si128(b))); }
    static KS_INLINE R unkey(R x) {
        const __m128i b = _mm_castps_si128(x);
        return _mm_castsi128_ps(_mm_xor_si128(b, _mm_srli_epi32(_mm_srai_epi32(b, 31), 1)));
    }
    static KS_INLINE unsigned nans(R x) { return _mm_cmp_ps_mask(x, x, _CMP_UNORD_Q); }
#else
    static KS_INLINE R imin(R a, R) { return a; }
    static KS_INLINE R imax(R a, R) { return a; }
    static KS_INLINE R unkey(R x) { return x; }
    static KS_INLINE unsigned nans(R) { return 0; } // kInt false: unused
#endif
    static KS_INLINE R nan_to(R x, R test, R alt) {
        const R m = _mm_cmpunord_ps(test, test);
        return _mm_or_ps(_mm_and_ps(m, alt), _mm_andnot_ps(m, x));
    }
    static KS_INLINE R truth(R x) { return _mm_and_ps(_mm_cmpneq_ps(x, _mm_setzero_ps()), _mm_set1_ps(1.0f)); }
};
#endif

// No x86 vectors: one lane, the same semantics written out.
template <class T_> struct V1 {
    KS_COMMON(T_, T_, 1, 16, false)
    static KS_INLINE R load(const T *p) { return *p; }
    static KS_INLINE void store(T *p, R x) { *p = x; }
    static KS_INLINE R loadn(const T *p, int) { return *p; }
    static KS_INLINE void storen(T *p, R x, int) { *p = x; }
    static KS_INLINE R set1(T x) { return x; }
    static KS_INLINE R add(R a, R b) { return a + b; }
    static KS_INLINE R mul(R a, R b) { return a * b; }
    static KS_INLINE R min(R a, R b) { return a < b ? a : b; }
    static KS_INLINE R max(R a, R b) { return a > b ? a : b; }
    static KS_INLINE R fadd(R a, R b) { return a + b; }
    static KS_INLINE R fmadd(R a, R b, R c) { return a * b + c; }
    static KS_INLINE R band(R a, R b) { return a < b ? a : b; } // on 0/1 values
    static KS_INLINE R bor(R a, R b) { return a > b ? a : b; }
    static KS_INLINE R imin(R a, R) { return a; }
    static KS_INLINE R imax(R a, R) { return a; }
    static KS_INLINE R unkey(R x) { return x; }
    static KS_INLINE unsigned nans(R) { return 0; } // kInt false: unused
    static KS_INLINE R nan_to(R x, R test, R alt) { return test != test ? alt : x; }
    static KS_INLINE R truth(R x) { return x != T(0) ? T(1) : T(0); }
};

// Wide<T>: the widest vector of this copy; Narrow<T>: the next narrower one, for panels
// of at most Narrow::L rows (tiny items would leave most lanes of a wide vector idle).
template <class T, class D, class F> using Pick = std::conditional_t<sizeof(T) == 8, D, F>;
#if defined(__AVX512F__)
template <class T> using Wide = Pick<T, V512d, V512f>;
template <class T> using Narrow = Pick<T, V256d, V256f>;
#elif defined(__AVX2__)
template <class T> using Wide = Pick<T, V256d, V256f>;
template <class T> using Narrow = Pick<T, V128d, V128f>;
#elif defined(__SSE2__)
template <class T> using Wide = Pick<T, V128d, V128f>;
template <class T> using Narrow = Wide<T>;
#else
template <class T> using Wide = V1<T>;
template <class T> using Narrow = V1<T>;
#endif
// The 128-bit vector (tiny items: 2 doubles or 4 floats fill it without a mask).
#if defined(__SSE2__)
template <class T> using Narrowest = Pick<T, V128d, V128f>;
#else
template <class T> using Narrowest = V1<T>;
#endif

// ---- the semirings ------------------------------------------------------------------------
template <class T> KS_INLINE T fmin_e(T x, T y) { return x != x ? y : y != y ? x : (y < x ? y : x); }
template <class T> KS_INLINE T fmax_e(T x, T y) { return x != x ? y : y != y ? x : (y > x ? y : x); }
template <class T> KS_INLINE T truth(T x) { return x != T(0) ? T(1) : T(0); }

// The order-preserving integer key of a floating-point value: its bit pattern with every
// bit but the sign flipped when the sign is set. As signed integers the keys of all
// non-NaN values (infinities, denormals, -0 < +0) are ordered as the values are, so the
// integer min/max of two keys is the key of the min/max -- on the integer vector pipes,
// beside (not on) the two floating-point min/max pipes. The map is its own inverse.
// Stored in a T so that the packed panels keep their type.
template <class T> KS_INLINE T key(T x) {
    using I = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;
    using U = std::make_unsigned_t<I>;
    I b;
    __builtin_memcpy(&b, &x, sizeof b);
    b ^= I(U(b >> (8 * sizeof(T) - 1)) >> 1);
    T r;
    __builtin_memcpy(&r, &b, sizeof r);
    return r;
}

// How a panel's terms are computed (item() picks one per item):
//   fp:     floating-point min/max for the multiply and the reduction;
//   intred: FP multiply, integer min/max of the bit patterns for the reduction (every
//           term >= -0, where bit patterns order as values do);
//   keys:   op(A) and op(B) mapped to key() while packing, integer min/max for both the
//           multiply and the reduction, the accumulators mapped back in the epilogue.
enum class Mode { fp, intred, keys };

enum class Mul { plus, times, max, min, and_ };

// Min: the add is min (else max); M: the multiply. OR_AND is (max, min) on truth values.
template <bool Min, Mul M> struct Ops {
    static constexpr bool kMin = Min;
    static constexpr bool kTruth = M == Mul::and_;
    // mult with max/min: vmul(a, b) is exact only when b is not NaN (see item()).
    static constexpr bool kScanB = M == Mul::max || M == Mul::min;
    static constexpr bool kFmaTerm = false; // a term is two instructions (panel())

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
    // The multiply's identity (max/min only): where a NaN of op(A) is ignored, its key
    // stands in for the NaN (fmax(NaN, b) = b = max(-inf, b)).
    template <class T> static KS_INLINE T one() {
        return M == Mul::max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    }
    // One term, a from the packed op(A) (any value), b from op(B) (not NaN for max/min);
    // Keys: both are keys (never of a NaN) and so is the term.
    template <class V, bool Keys = false> static KS_INLINE typename V::R vmul(typename V::R a, typename V::R b) {
        if (Keys) return M == Mul::max ? V::imax(a, b) : V::imin(a, b);
        switch (M) {
        case Mul::plus: return V::fadd(a, b);
        case Mul::times: return V::mul(a, b);
        case Mul::max: return V::max(a, b);
        case Mul::min: return V::min(a, b);
        case Mul::and_: return V::band(a, b);
        }
        return a;
    }
    // acc = add(acc, t): a NaN term leaves acc as it was (acc itself is never NaN).
    // IntRed: every term is >= 0 or -0 and not NaN (item() checked), so the integer
    // min/max of the bit patterns selects the same value.
    template <class V, bool IntRed> static KS_INLINE typename V::R vred(typename V::R acc, typename V::R t) {
        if (kTruth) return V::bor(acc, t);
        if (IntRed) return Min ? V::imin(t, acc) : V::imax(t, acc);
        return Min ? V::min(t, acc) : V::max(t, acc);
    }
    // acc = add(acc, mult(a, b)): the kernels' one term.
    template <class V, bool IntRed, bool Keys = false>
    static KS_INLINE typename V::R vterm(typename V::R acc, typename V::R a, typename V::R b) {
        return vred<V, IntRed>(acc, vmul<V, Keys>(a, b));
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

// Ordinary gemm in the same kernels (gemm.cpp's panel path, GEMM_PANEL_MAX): zero is 0,
// a term is one FMA, D = alpha P + beta C with IEEE arithmetic throughout (a NaN or an
// infinity propagates as in BLAS); beta == 0 does not read C and alpha == 0 does not read
// A or B (item()), as BLAS.
struct PlusTimes {
    static constexpr bool kMin = false, kTruth = false, kScanB = false;
    static constexpr bool kFmaTerm = true; // panel(): more accumulators, see there
    template <class T> static KS_INLINE T zero() { return T(0); }
    template <class T> static KS_INLINE T in(T x) { return x; }
    template <class T> static KS_INLINE T sadd(T x, T y) { return x + y; }
    template <class T> static KS_INLINE T smul(T x, T y) { return x * y; }
    // The kernels' one term (no vmul / vred: the term is one FMA; no keys, kScanB is false).
    template <class V, bool IntRed, bool Keys = false>
    static KS_INLINE typename V::R vterm(typename V::R acc, typename V::R a, typename V::R b) {
        return V::fmadd(a, b, acc);
    }
    template <class V, class T> static KS_INLINE typename V::R valpha(T alpha, typename V::R acc) {
        return alpha == T(1) ? acc : V::mul(V::set1(alpha), acc);
    }
    template <class V, class T> static KS_INLINE typename V::R vbeta(T beta, typename V::R c) {
        return beta == T(1) ? c : V::mul(V::set1(beta), c);
    }
    template <class V> static KS_INLINE typename V::R vadd(typename V::R r, typename V::R s) { return V::add(r, s); }
};

// What every item of a call shares.
template <class T> struct Call {
    int m, n, k;
    T alpha, beta;
    bool prod;  // alpha != zero and k > 0: A and B are read
    bool readc; // beta != zero: C is read
    // A plain product: PlusTimes with alpha = 1 and C not read, so C = acc + 0 (store_plain).
    // Decided once in run(): the kernels' epilogues test it instead of alpha and beta.
    bool plain;
    bool prefetch; // Problem::prefetch
    int64_t ahead; // Problem::prefetch_items
    int panel;  // rows of op(A) per panel (panel_rows(): fixed by m and k, so once per call)
    View a, b;  // op(A), op(B); C has unit row stride, columns ldc apart
    int64_t ldc;
};

template <class S, class T> KS_INLINE T epilogue(const Call<T> &x, T acc, const T *c) {
    const T z = S::template zero<T>();
    const T r = x.prod ? S::smul(x.alpha, acc) : z;
    const T s = x.readc ? S::smul(x.beta, *c) : z;
    return S::sadd(r, s);
}

// The rows of a column of C (all L of the vector, or the first rows) from its accumulator,
// for a plain product: acc + 0 is the value the general epilogue gives there (alpha = 1,
// beta = 0: +0 turns a -0 sum into +0 as alpha * acc + 0 would), without its tests.
template <class V> KS_INLINE void store_plain(typename V::R acc, typename V::T *c, int rows) {
    const typename V::R sum = V::add(acc, V::set1(typename V::T(0)));
    if (rows >= V::L) V::store(c, sum);
    else V::storen(c, sum, rows);
}

// Columns j0 .. j0+JB-1 of one panel: rows [0, mb) of C at c, the panel of op(A) at ap
// with its columns as apart (packed: MP = NV*L; or the item itself), op(B) at b. Mode: see Mode; with keys,
// the JB columns of op(B) are first mapped into bk (column jb at bk + jb*k: a loop the
// compiler vectorises when op(B)'s columns have unit stride).
// Tail: the panel is the item itself and its last vector is partial: only its first lastn
// rows are read (a masked load: no row past the panel). A separate copy, not a test in the
// loop or a masked load of every last vector: on AMD Zen 5 both cost (float n = 32 ... 128
// from memory 0.77-0.85x with the masked load always).
template <class S, class V, int NV, int JB, Mode M, bool Tail>
KS_INLINE void columns(const Call<typename V::T> &x, const typename V::T *__restrict__ ap, int64_t as, int mb,
                       int lastn, const typename V::T *b, int j0, typename V::T *c, typename V::T *__restrict__ bk) {
    using T = typename V::T;
    using R = typename V::R;
    constexpr int L = V::L;
    constexpr bool IntRed = M != Mode::fp, Keys = M == Mode::keys;
    const R z = V::set1(S::template zero<T>());
    // intred: the integer max over terms >= -0 starts below all of them: the bits of -0
    // are the most negative integer (an accumulator always takes k >= 1 terms).
    // keys: the key of the add identity.
    const R init = Keys ? V::set1(key(S::template zero<T>())) : IntRed && !S::kMin ? V::set1(-T(0)) : z;
    R acc[JB][NV];
    KS_UNROLL for (int jb = 0; jb < JB; ++jb) KS_UNROLL for (int v = 0; v < NV; ++v) acc[jb][v] = init;
    const T *bp[JB];
    int64_t brs = x.b.rs;
    if (Keys) { // op(B) holds no NaN (item())
        KS_UNROLL for (int jb = 0; jb < JB; ++jb) {
            const T *src = b + int64_t(j0 + jb) * x.b.cs;
            T *__restrict__ dst = bk + int64_t(jb) * x.k;
            if (brs == 1)
                for (int p = 0; p < x.k; ++p) dst[p] = key(src[p]);
            else
                for (int p = 0; p < x.k; ++p) dst[p] = key(src[p * brs]);
            bp[jb] = dst;
        }
        brs = 1;
    } else {
        KS_UNROLL for (int jb = 0; jb < JB; ++jb) bp[jb] = b + int64_t(j0 + jb) * x.b.cs;
    }
    // Where JB broadcasts, the accumulators and a vector of op(A) fit in the registers, the
    // broadcasts come first and each vector of op(A) is loaded once for all of them; else
    // (PlusTimes' 24 accumulators) op(A)'s NV vectors come first and one broadcast at a time
    // (all broadcasts first spilled an accumulator to the stack: a store-to-load chain every
    // iteration).
    constexpr bool kBroadcastsFirst = JB * NV + JB + 2 <= V::REGS;
    for (int p = 0; p < x.k; ++p) {
        const T *__restrict__ a = ap + int64_t(p) * as;
        if constexpr (kBroadcastsFirst) {
            R bb[JB];
            KS_UNROLL for (int jb = 0; jb < JB; ++jb) bb[jb] = V::set1(S::in(bp[jb][p * brs]));
            KS_UNROLL for (int v = 0; v < NV; ++v) {
                const R av = Tail && v == NV - 1 ? V::loadn(a + v * L, lastn) : V::load(a + v * L);
                KS_UNROLL for (int jb = 0; jb < JB; ++jb)
                    acc[jb][v] = S::template vterm<V, IntRed, Keys>(acc[jb][v], av, bb[jb]);
            }
        } else {
            R av[NV];
            KS_UNROLL for (int v = 0; v < NV; ++v)
                av[v] = Tail && v == NV - 1 ? V::loadn(a + v * L, lastn) : V::load(a + v * L);
            KS_UNROLL for (int jb = 0; jb < JB; ++jb) {
                const R bb = V::set1(S::in(bp[jb][p * brs]));
                KS_UNROLL for (int v = 0; v < NV; ++v)
                    acc[jb][v] = S::template vterm<V, IntRed, Keys>(acc[jb][v], av[v], bb);
            }
        }
    }
    // A plain product: without the tests of alpha and beta for every column below, decided
    // once a pass (on AMD Zen 5, in L1, 1.07-1.18x at double n = 13 ... 32 and float n =
    // 17 ... 32).
    if constexpr (S::kFmaTerm) {
        if (x.plain) {
            KS_UNROLL for (int jb = 0; jb < JB; ++jb) {
                T *__restrict__ cj = c + int64_t(j0 + jb) * x.ldc;
                KS_UNROLL for (int v = 0; v < NV; ++v) {
                    if (mb - v * L <= 0) break;
                    store_plain<V>(acc[jb][v], cj + v * L, mb - v * L);
                }
            }
            return;
        }
    }
    KS_UNROLL for (int jb = 0; jb < JB; ++jb) {
        T *__restrict__ cj = c + int64_t(j0 + jb) * x.ldc;
        KS_UNROLL for (int v = 0; v < NV; ++v) {
            const int rows = mb - v * L; // this vector's rows of C: all L, or the last few
            if (rows <= 0) break;
            const R r = S::template valpha<V>(x.alpha, Keys ? V::unkey(acc[jb][v]) : acc[jb][v]);
            if (rows >= L) {
                const R s = x.readc ? S::template vbeta<V>(x.beta, V::load(cj + v * L)) : z;
                V::store(cj + v * L, S::template vadd<V>(r, s));
            } else {
                const R s = x.readc ? S::template vbeta<V>(x.beta, V::loadn(cj + v * L, rows)) : z;
                V::storen(cj + v * L, S::template vadd<V>(r, s), rows);
            }
        }
    }
}

// Columns j0 .. j0+w-1 (1 <= w <= JB) as one columns<> pass.
template <class S, class V, int NV, int JB, Mode M, bool Tail>
KS_INLINE void column_group(int w, const Call<typename V::T> &x, const typename V::T *ap, int64_t as, int mb,
                            int lastn, const typename V::T *b, int j0, typename V::T *c, typename V::T *bk) {
    static_assert(JB <= 8, "one case per width");
    switch (w) {
#define KS_W(W)                                                                                    \
    case W:                                                                                        \
        if constexpr (W <= JB) columns<S, V, NV, W, M, Tail>(x, ap, as, mb, lastn, b, j0, c, bk);  \
        break;
        KS_W(1)
        KS_W(2)
        KS_W(3)
        KS_W(4)
        KS_W(5)
        KS_W(6)
        KS_W(7)
        KS_W(8)
#undef KS_W
    default: break;
    }
}

// Rows [i0, i0+mb) of one item with NV vectors of V per column: pack the panel of op(A)
// (or read it in place, below), then every column of C, JB at a time. With keys, op(A) is
// packed as keys, a NaN as the key of the multiply's identity (both ignore it against a b
// that is not NaN).
// Accumulators: a semiring term is two instructions with a temporary, so half the
// registers hold accumulators, JB columns of them, the last few columns one at a time.
// PlusTimes' term is one FMA: up to 3/4 of the registers (24 of AVX-512's 32, the blocking
// libxsmm's kernels use), leaving op(A)'s NV vectors and a broadcast, and the columns in
// groups of at most JB (n = 20, JB = 8: 8 + 6 + 6, not 8 + 8 + four single columns, each a
// chain of k dependent FMAs) -- on AMD Zen 5, in cache, double n = 20 with 15 accumulators
// and 4 single columns ran at half of libxsmm's speed. JB stays at most kColumnsMax (8):
// with 12 the column pointers spilled (float n = 32 ... 64 slower).
template <class S, class V, int NV, Mode M>
void panel(const Call<typename V::T> &x, const typename V::T *A, const typename V::T *B, typename V::T *C,
           int i0, int mb, typename V::T *__restrict__ pack) {
    using T = typename V::T;
    constexpr int L = V::L, MP = NV * L;
    constexpr int kFmaAcc = 3 * V::REGS / 4 < V::REGS - 2 - NV ? 3 * V::REGS / 4 : V::REGS - 2 - NV;
    constexpr int ACC = S::kFmaTerm ? kFmaAcc : V::REGS / 2; // accumulator registers
    constexpr int JB = ACC / NV >= kColumnsMax ? kColumnsMax : ACC / NV >= 1 ? ACC / NV : 1;
    const int64_t ars = x.a.rs, acs = x.a.cs;
    const T *a0 = A + int64_t(i0) * ars;
    auto in = [](T v) {
        if constexpr (M == Mode::keys) return v != v ? key(S::template one<T>()) : key(v);
        else return S::in(v);
    };
    // Columns of op(A) with unit row stride need no copy where in() leaves values as they
    // are (not or-and's truth values, not keys): the panel is read in place, a partial last
    // vector by a masked load.
    constexpr bool kInPlaceOk = !S::kTruth && M != Mode::keys;
    const bool in_place = kInPlaceOk && ars == 1;
    if (!in_place) {
        if (ars == 1) {
            for (int p = 0; p < x.k; ++p) {
                const T *src = a0 + int64_t(p) * acs;
                T *dst = pack + int64_t(p) * MP;
                for (int i = 0; i < mb; ++i) dst[i] = in(src[i]);
                for (int i = mb; i < MP; ++i) dst[i] = T(0);
            }
        } else {
            for (int i = 0; i < mb; ++i) {
                const T *src = a0 + int64_t(i) * ars;
                for (int p = 0; p < x.k; ++p) pack[int64_t(p) * MP + i] = in(src[int64_t(p) * acs]);
            }
            for (int p = 0; p < x.k; ++p)
                for (int i = mb; i < MP; ++i) pack[int64_t(p) * MP + i] = T(0);
        }
    }
    const T *const ap = in_place ? a0 : pack;
    const int64_t as = in_place ? acs : MP;
    const int lastn = in_place ? mb - (NV - 1) * L : L;
    T *c = C + i0;
    T *const bk = pack + int64_t(x.k) * kPanelMax; // the keys of op(B)'s columns
    auto all_columns = [&](auto tail) KS_INLINE_LAMBDA {
        constexpr bool Tail = decltype(tail)::value;
        if constexpr (S::kFmaTerm) {
            // Groups of JB while 2 JB columns or more are left, then the rest in one or two
            // near-halves (no division: it showed at n = 16 as a few percent).
            for (int j = 0; j < x.n;) {
                const int rest = x.n - j, w = rest >= 2 * JB ? JB : rest > JB ? (rest + 1) / 2 : rest;
                column_group<S, V, NV, JB, M, Tail>(w, x, ap, as, mb, lastn, B, j, c, bk);
                j += w;
            }
        } else {
            int j = 0;
            for (; j + JB <= x.n; j += JB) columns<S, V, NV, JB, M, Tail>(x, ap, as, mb, lastn, B, j, c, bk);
            for (; j < x.n; ++j) columns<S, V, NV, 1, M, Tail>(x, ap, as, mb, lastn, B, j, c, bk);
        }
    };
    if (lastn < L) all_columns(std::true_type{});
    else all_columns(std::false_type{});
}

// Vectors per column of the tallest panel item() cuts op(A) into: 32 rows (at most 8
// vectors), or for plus-times with 32 vector registers (AVX-512) up to 64 rows and 6
// vectors, the rows then split evenly over the fewest panels (tall_panels). With panels of
// 32 rows, float n = 48 on AVX-512 ran as a 32-row panel and a 16-row one, whose 8
// broadcasts a step fed only 8 FMAs: on AMD Zen 5, in L2, 0.80x of libxsmm, and the 16-row
// panel took 0.79x the time of the 32-row one for half its FMAs; as one panel of 3 vectors
// (24 accumulators, 3 loads and 8 broadcasts a step: libxsmm's blocking) 1.13x faster.
// Double panels of 7 or 8 vectors (2 or 3 columns at a time) ran 2.3-2.9x slower than two
// of 4, hence 6 (docs/performance.md, "gemm at n = 33 ... 128: taller panels"). The
// semirings (two instructions a term, half the registers for accumulators) keep 32 rows.
constexpr int kPanelRows = 32; // the panel height of the semirings, and of plus-times elsewhere
template <class S, class V> constexpr bool tall_panels() { return S::kFmaTerm && V::REGS >= 32; }
template <class S, class V> constexpr int panel_vectors() {
    constexpr int most = tall_panels<S, V>() ? 6 : 8;
    constexpr int rows = tall_panels<S, V>() ? kPanelMax : kPanelRows;
    return rows / V::L < most ? rows / V::L : most;
}

// Rows per panel for op(A) of m rows and k columns, the whole rule in one place. Tall
// panels only where panels of kPanelRows would end in a shorter one (float n = 48 on
// AVX-512: 32 + 16 rows): then the fewest panels of at most panel_vectors() vectors, as
// even as whole vectors allow (double n = 56: 32 + 24 rows, not 48 + 8, whose one-vector
// panel is broadcast-bound), and only while such a panel of op(A) stays within 32 KiB, so
// that every column group reads it from L1 (double n = 128 in panels of 48 and 40 rows:
// 0.88x). Where panels of kPanelRows divide the rows evenly (float n = 64, double n = 64,
// 128) they stay: float n = 64 as one 64-row panel was 1.03x in L2 but 0.88-0.90x from memory.
template <class S, class V> int panel_rows(int m, int k) {
    constexpr int most = panel_vectors<S, V>();
    if constexpr (!tall_panels<S, V>()) {
        return most * V::L;
    } else {
        constexpr int short_vectors = kPanelRows / V::L;
        const int vectors = (m + V::L - 1) / V::L;
        const int panels = (vectors + most - 1) / most;
        const int rows = (vectors + panels - 1) / panels * V::L;
        const bool fits_l1 = int64_t(rows) * k * int64_t(sizeof(typename V::T)) <= 32768;
        return vectors % short_vectors == 0 || !fits_l1 ? kPanelRows : rows;
    }
}

// One panel of a wide-vector copy: nv vectors per column (1 .. NVMAX).
template <class S, class V, Mode M>
void panel_nv(int nv, const Call<typename V::T> &x, const typename V::T *A, const typename V::T *B,
              typename V::T *C, int i0, int mb, typename V::T *pack) {
    constexpr int NVMAX = panel_vectors<S, V>();
#define KS_CASE(NV)                                                                                \
    case NV:                                                                                       \
        if constexpr (NV <= NVMAX) panel<S, V, NV, M>(x, A, B, C, i0, mb, pack);                   \
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

// Whether a rows x cols operand holds a NaN, a value < 0 (branch-free loops along the
// unit stride, which the compiler vectorises).
struct Flags {
    bool nan, negative;
};
template <class T> Flags scan(const T *M, int rows, int cols, View v) {
    const bool by_col = v.rs == 1;
    const int outer = by_col ? cols : rows, inner = by_col ? rows : cols;
    const int64_t so = by_col ? v.cs : v.rs, si = by_col ? v.rs : v.cs;
    unsigned nan = 0, neg = 0;
    for (int o = 0; o < outer; ++o) {
        const T *line = M + o * so;
        if (si == 1) {
            for (int i = 0; i < inner; ++i) {
                nan |= line[i] != line[i];
                neg |= line[i] < T(0);
            }
        } else {
            for (int i = 0; i < inner; ++i) {
                nan |= line[i * si] != line[i * si];
                neg |= line[i * si] < T(0);
            }
        }
    }
    return {nan != 0, neg != 0};
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

// Keys in the one-vector kernel from this order on (measured in cache, docs/performance.md):
// below it mapping op(B) costs more than the integer pipes gain (128-bit vectors and
// 256-bit double: d n = 2 1.77x -> 2.61x, s n = 2 1.87x -> 2.62x gemm; 512-bit double at
// n = 5: 1.36x -> 1.78x), from it on they win (d n = 8 1.9x -> 1.7x, s n = 8 2.3x -> 1.3x).
template <class T> constexpr int kKeysSmallMin = sizeof(T) == 8 ? 8 : 5;

// Rows R0 ... R0 + Cnt - 1 of op(A)'s N columns, one V vector a column (lanes past Cnt are
// never stored), read straight from the item when its rows have unit stride, else through a
// transposing copy; or-and's truth values taken here. The small kernels' op(A) in registers.
template <class S, class V, int N, int R0, int Cnt>
KS_INLINE void load_a_rows(const Call<typename V::T> &x, const typename V::T *A, typename V::R (&a)[N]) {
    using T = typename V::T;
    static_assert(Cnt > 0 && Cnt <= V::L, "one vector holds the rows");
    if (x.a.rs == 1) {
        KS_UNROLL for (int p = 0; p < N; ++p) {
            const T *col = A + R0 + p * x.a.cs;
            a[p] = Cnt == V::L ? V::load(col) : V::loadn(col, Cnt);
        }
    } else {
        alignas(64) T t[N * V::L];
        KS_UNROLL for (int p = 0; p < N; ++p) KS_UNROLL for (int i = 0; i < Cnt; ++i)
            t[p * V::L + i] = A[(R0 + i) * x.a.rs + p * x.a.cs];
        KS_UNROLL for (int p = 0; p < N; ++p) a[p] = V::load(t + p * V::L);
    }
    if (S::kTruth) KS_UNROLL for (int p = 0; p < N; ++p) a[p] = V::truth(a[p]);
}

// Cnt rows of a column of C at c from its accumulator: alpha, then beta times the old C
// where it is read (the epilogue of the small kernels, on vectors). Plain: the call's alpha
// is 1 and C is not read (PlusTimes only, see batch_small), so the column is acc + 0, the
// value the general epilogue gives, without its tests of alpha and beta. A compile-time
// choice here, not a test: x is read through a reference that C's stores may alias, so the
// general epilogue reloads alpha and beta and tests them again for every column (Zen 5, in
// L1: float n = 9 ... 12 1.09-1.13x, double n = 9 ... 12 1.08-1.15x from Plain alone).
template <class S, class V, int Cnt, bool Plain>
KS_INLINE void store_c_rows(const Call<typename V::T> &x, typename V::R acc, typename V::T *c) {
    using R = typename V::R;
    if constexpr (Plain) {
        static_assert(S::kFmaTerm, "alpha = 1 leaves acc as it is only for PlusTimes' valpha");
        return store_plain<V>(acc, c, Cnt);
    }
    const R z = V::set1(S::template zero<typename V::T>());
    const R r = S::template valpha<V>(x.alpha, acc);
    if (Cnt == V::L) {
        const R s = x.readc ? S::template vbeta<V>(x.beta, V::load(c)) : z;
        V::store(c, S::template vadd<V>(r, s));
    } else {
        const R s = x.readc ? S::template vbeta<V>(x.beta, V::loadn(c, Cnt)) : z;
        V::storen(c, S::template vadd<V>(r, s), Cnt);
    }
}

// The columns of C of a square item of order N: op(A)'s columns in a, op(B)(p, j) at
// b[p * bp + j * bj]. Keys: a and b hold keys (b never of a NaN), see Mode.
// PlusTimes, where N accumulators and op(A)'s N columns fit in the registers, takes the
// terms in libxsmm's order: for each p, one term into every column's accumulator (N
// independent chains), the stores after the last term. Each column still sums its terms in
// the order p = 0 ... N-1, so the results are those of the column-at-a-time loop below. On
// AMD Zen 5 (session 37, in L1, one thread) it is 1.06-1.3x faster at float n = 14 ... 16
// and level at 9 ... 13; without the Plain epilogue it was 0.84-0.93x (the column-at-a-time
// loop overlaps each column's epilogue with the next column's terms).
template <class S, class V, int N, bool Keys, bool Plain>
KS_INLINE void small_columns(const Call<typename V::T> &x, const typename V::R *a, const typename V::T *b,
                             int64_t bp, int64_t bj, typename V::T *C) {
    using T = typename V::T;
    using R = typename V::R;
    const R z = V::set1(S::template zero<T>());
    const R init = Keys ? V::set1(key(S::template zero<T>())) : z;
    if constexpr (S::kFmaTerm && !Keys && 2 * N <= V::REGS) {
        R acc[N];
        KS_UNROLL for (int j = 0; j < N; ++j) acc[j] = init;
        KS_UNROLL for (int p = 0; p < N; ++p) KS_UNROLL for (int j = 0; j < N; ++j)
            acc[j] = S::template vterm<V, false, false>(acc[j], a[p], V::set1(S::in(b[p * bp + j * bj])));
        KS_UNROLL for (int j = 0; j < N; ++j) store_c_rows<S, V, N, Plain>(x, acc[j], C + int64_t(j) * x.ldc);
        return;
    }
    KS_UNROLL for (int j = 0; j < N; ++j) {
        R acc = init;
        KS_UNROLL for (int p = 0; p < N; ++p)
            acc = S::template vterm<V, Keys, Keys>(acc, a[p], V::set1(S::in(b[p * bp + j * bj])));
        store_c_rows<S, V, N, Plain>(x, Keys ? V::unkey(acc) : acc, C + int64_t(j) * x.ldc);
    }
}

// Square items of order N <= L (one vector holds a column): op(A)'s columns stay in
// registers, read straight from the item when its rows have unit stride, every loop
// unrolled at compile time (the fixed-n gemm kernels do the same for plus-times).
// Min-max / max-min on vectors with integer min/max run on keys (Mode::keys) when op(B)
// has a unit stride: its lines along that stride are loaded as vectors, checked for NaN
// and mapped to keys in a few vector instructions (N per item, against N * N terms).
template <class S, class V, int N, bool Plain>
KS_INLINE void item_small(const Call<typename V::T> &x, const typename V::T *A, const typename V::T *B,
                          typename V::T *C) {
    using T = typename V::T;
    using R = typename V::R;
    static_assert(N <= V::L, "one vector per column");
    constexpr bool kKeys = S::kScanB && V::kInt && N >= kKeysSmallMin<T>;
    alignas(64) T bk[kKeys ? N * V::L : 1]; // the keys of op(B), line after line
    bool keys = false;
    int64_t bp = 0, bj = 0;
    if constexpr (kKeys) {
        if (x.b.rs == 1 || x.b.cs == 1) {
            const bool by_col = x.b.rs == 1;
            const int64_t ls = by_col ? x.b.cs : x.b.rs;
            unsigned nan = 0;
            KS_UNROLL for (int l = 0; l < N; ++l) {
                const R v = N == V::L ? V::load(B + l * ls) : V::loadn(B + l * ls, N);
                nan |= V::nans(v);
                V::store(bk + l * V::L, V::unkey(v));
            }
            if (nan) return item_exact<S>(x, A, B, C); // vmul needs b not NaN
            keys = true;
            bp = by_col ? 1 : V::L;
            bj = by_col ? V::L : 1;
        }
    }
    if (S::kScanB && !keys) { // vmul needs b not NaN
        bool nan = false;
        KS_UNROLL for (int j = 0; j < N; ++j) KS_UNROLL for (int p = 0; p < N; ++p) {
            const T v = B[p * x.b.rs + j * x.b.cs];
            nan |= v != v;
        }
        if (nan) return item_exact<S>(x, A, B, C);
    }
    R a[N];
    load_a_rows<S, V, N, 0, N>(x, A, a);
    if constexpr (kKeys) {
        if (keys) { // a NaN of op(A) becomes the key of the multiply's identity (see panel())
            const R one = V::set1(key(S::template one<T>()));
            KS_UNROLL for (int p = 0; p < N; ++p) a[p] = V::nan_to(V::unkey(a[p]), a[p], one);
            return small_columns<S, V, N, true, Plain>(x, a, bk, bp, bj, C);
        }
    }
    small_columns<S, V, N, false, Plain>(x, a, B, x.b.rs, x.b.cs, C);
}

// The lower half of a vector (free: the same register) -- item_small_split's narrow broadcast
// (each copy uses the pair of its two widest vectors only).
#if defined(__AVX512F__)
[[maybe_unused]] KS_INLINE __m256d low_part(__m512d x) { return _mm512_castpd512_pd256(x); }
[[maybe_unused]] KS_INLINE __m256 low_part(__m512 x) { return _mm512_castps512_ps256(x); }
#endif
#if defined(__AVX__)
[[maybe_unused]] KS_INLINE __m128d low_part(__m256d x) { return _mm256_castpd256_pd128(x); }
[[maybe_unused]] KS_INLINE __m128 low_part(__m256 x) { return _mm256_castps256_ps128(x); }
#endif

// Square items of order N = VA::L + r, 0 < r <= VB::L, for the semirings that need no scan
// of op(B) (the +/x ones and or-and): a column is one VA vector and one narrower VB vector
// (double n = 9 ... 12 with AVX-512: 8 + 4 lanes; with AVX2 n = 5, 6 and float n = 9 ... 12),
// op(A)'s columns in registers, every loop unrolled, nothing packed. The panel path these
// items took before covers a column with two VA vectors: on Zen 4, where a 512-bit operation
// takes two 256-bit pipe slots, 4 slots a term instead of 3 at n = 12, plus the packing of
// op(A) per item (docs/performance.md, issue 8, session 24).
template <class S, class VA, class VB, int N, bool Plain>
KS_INLINE void item_small_split(const Call<typename VA::T> &x, const typename VA::T *A, const typename VA::T *B,
                                typename VA::T *C) {
    using T = typename VA::T;
    using RA = typename VA::R;
    using RB = typename VB::R;
    constexpr int L = VA::L, NB = N - L;
    static_assert(!S::kScanB && NB > 0 && NB <= VB::L, "one VA and one VB vector per column");
    RA a0[N];
    RB a1[N];
    load_a_rows<S, VA, N, 0, L>(x, A, a0);
    load_a_rows<S, VB, N, L, NB>(x, A, a1);
    const RA z0 = VA::set1(S::template zero<T>());
    const RB z1 = VB::set1(S::template zero<T>());
    KS_UNROLL for (int j = 0; j < N; ++j) {
        RA acc0 = z0;
        RB acc1 = z1;
        KS_UNROLL for (int p = 0; p < N; ++p) {
            // One broadcast for both vectors, its lower part the narrow one: left to itself
            // GCC folds a broadcast load into each of the two terms' instructions, and the
            // second load cost 10-15% (double n = 9 ... 12 on AMD Zen 5, in cache).
            RA b0 = VA::set1(S::in(B[p * x.b.rs + j * x.b.cs]));
            asm("" : "+v"(b0));
            acc0 = S::template vterm<VA, false>(acc0, a0[p], b0);
            acc1 = S::template vterm<VB, false>(acc1, a1[p], low_part(b0));
        }
        T *cj = C + int64_t(j) * x.ldc;
        store_c_rows<S, VA, L, Plain>(x, acc0, cj);
        store_c_rows<S, VB, NB, Plain>(x, acc1, cj + L);
    }
}

// Columns J0 ... J0 + W - 1 of a square item of order N, L < N <= 2L, PlusTimes (an FMA a
// term): a column of C is two vectors of V (the second partial where N < 2L), every column
// of the group has its two accumulators in registers, op(A)'s column p is loaded once for
// all of them (two loads, the second masked) and op(B)(p, j) broadcast: libxsmm's order, and
// like libxsmm every offset a constant where the item is packed (Packed: lda = ldb = ldc = N,
// op(A) and op(B) with unit row stride), else op(B) at runtime strides. op(A) is read in
// place (unit row stride); nothing is packed or copied.
template <class S, class V, int N, bool Packed, bool Plain, int J0, int W>
KS_INLINE void two_vector_columns(const Call<typename V::T> &x, const typename V::T *A, const typename V::T *B,
                                  typename V::T *C) {
    using T = typename V::T;
    using R = typename V::R;
    constexpr int L = V::L, NB = N - L;
    static_assert(S::kFmaTerm && NB > 0 && NB <= L, "PlusTimes, two vectors a column");
    const int64_t acs = Packed ? N : x.a.cs, brs = Packed ? 1 : x.b.rs, bcs = Packed ? N : x.b.cs;
    const int64_t ldc = Packed ? N : x.ldc;
    const R z = V::set1(T(0));
    R acc0[W], acc1[W];
    KS_UNROLL for (int j = 0; j < W; ++j) acc0[j] = acc1[j] = z;
    KS_UNROLL for (int p = 0; p < N; ++p) {
        const T *a = A + p * acs;
        const R a0 = V::load(a);
        const R a1 = NB == L ? V::load(a + L) : V::loadn(a + L, NB);
        KS_UNROLL for (int j = 0; j < W; ++j) {
            const R b = V::set1(B[p * brs + (J0 + j) * bcs]);
            acc0[j] = V::fmadd(a0, b, acc0[j]);
            acc1[j] = V::fmadd(a1, b, acc1[j]);
        }
    }
    KS_UNROLL for (int j = 0; j < W; ++j) {
        T *cj = C + (J0 + j) * ldc;
        store_c_rows<S, V, L, Plain>(x, acc0[j], cj);
        store_c_rows<S, V, NB, Plain>(x, acc1[j], cj + L);
    }
}

// The item kernel of order N, L < N <= 2L, for PlusTimes: its columns in groups of at most
// (REGS - 3) / 2 (two accumulators a column, op(A)'s two vectors and a broadcast in the
// registers: 14 with AVX-512, so double n = 9 ... 14 and float 17 ... 28 in one pass), the
// groups of near-equal width. Against the split kernel (double n = 9 ... 12 on AVX-512) and
// the panels (double 13 ... 16, float 17 ... 32), which take one column at a time or at most
// 8 with k a loop, on AMD Zen 5 in L2 (session 38): 1.08-1.31x packed, 1.02-1.35x at run-time
// strides, level with libxsmm packed; the AVX2 copy 1.0-1.6x (double n = 7, 8 1.5-1.6x). From
// memory on two threads float n = 24, 28 ran 0.82-0.99x of the panels (docs/performance.md).
template <class S, class V, int N, bool Packed> struct TwoVectorItem {
    using T = typename V::T;
    using Semiring = S;
    static constexpr int kN = N;
    static constexpr int kWidthMax = (V::REGS - 3) / 2;
    static constexpr int kGroups = (N + kWidthMax - 1) / kWidthMax;
    static constexpr int kWidth = (N + kGroups - 1) / kGroups;
    template <bool Plain, int J0 = 0> static KS_INLINE void run(const Call<T> &x, const T *A, const T *B, T *C) {
        constexpr int W = N - J0 < kWidth ? N - J0 : kWidth;
        two_vector_columns<S, V, N, Packed, Plain, J0, W>(x, A, B, C);
        if constexpr (J0 + W < N) run<Plain, J0 + W>(x, A, B, C);
    }
};

template <class T> KS_INLINE T *item_ptr(const Items<T> &it, int64_t i) {
    return it.ptrs ? it.ptrs[i] : it.base + i * it.stride;
}

// The two item kernels of small() as types, so that one item loop (batch_small) serves both.
template <class S, class V, int N> struct SmallItem {
    using T = typename V::T;
    using Semiring = S;
    static constexpr int kN = N;
    template <bool Plain> static KS_INLINE void run(const Call<T> &x, const T *A, const T *B, T *C) {
        item_small<S, V, N, Plain>(x, A, B, C);
    }
};
template <class S, class VA, class VB, int N> struct SplitItem {
    using T = typename VA::T;
    using Semiring = S;
    static constexpr int kN = N;
    template <bool Plain> static KS_INLINE void run(const Call<T> &x, const T *A, const T *B, T *C) {
        item_small_split<S, VA, VB, N, Plain>(x, A, B, C);
    }
};

// Whether an operand of rows x cols is one dense block (either layout).
KS_INLINE bool dense_block(const View &v, int rows, int cols) {
    return (v.rs == 1 && v.cs == rows) || (v.cs == 1 && v.rs == cols);
}
// The bytes [p, p + bytes) towards L1. A loop, not unrolled: unrolled (GCC unroll 16) the
// prefetches gained nothing at float n = 24 and lost 0.8x at 28, 32 (AMD Zen 5, session 39).
KS_INLINE void prefetch_bytes(const void *p, int64_t bytes) {
    const char *c = static_cast<const char *>(p);
    for (int64_t o = 0; o < bytes; o += 64) __builtin_prefetch(c + o, 0, 3);
    __builtin_prefetch(c + bytes - 1, 0, 3); // a block not aligned to a line ends in one more
}

// A whole batch of square items: the item loop around the inlined kernel K (the sizes are
// the call's, so the choice is made once, not per item), and for PlusTimes with alpha = 1 and
// C not read (a plain product) the epilogue without tests (store_c_rows).
//
// From memory (x.prefetch: the call's operands take GEMM_PREFETCH_MIN_BYTES or more, an
// item's operands at most GEMM_PREFETCH_ITEM_MAX_BYTES each) each thread prefetches its next
// item's op(A) and op(B) when they are dense N x N blocks (either layout): the kernels read
// op(B) a row at a time across its columns and op(A) a column per term, and the hardware
// prefetcher does not run far enough ahead of that. On AMD Zen 5 from memory (session 39,
// docs/performance.md): float n = 5 ... 16 1.4-2.2x (8 level), 24 ... 32 1.2-1.7x, double
// n = 3, 5 ... 7 1.5-1.7x, 16 1.3x; in L2 the prefetches only cost (0.78-0.9x at several n),
// hence the threshold. C is not prefetched for writing: that cost 0.84-0.91x.
// Items of op(A) and op(B) below GEMM_PREFETCH_AHEAD_BYTES (3 KiB) are prefetched more than
// one ahead (x.ahead, up to 4): their kernels end before one item's lines arrive. AMD Zen 5,
// kobalt-bench from memory (session 46), libxsmm / Kobalt: float n = 16 0.90-0.92 -> 1.06-1.08,
// double n = 10 0.83-0.85 -> 0.95-0.97; two ahead at double n = 14, 16 and float 20 ... 28
// lost in-process (0.86-0.98x), hence the bound.
template <class K, bool Plain, class T = typename K::T>
void item_loop(const Call<T> &x, Items<const T> A, Items<const T> B, Items<T> C, int64_t batch) {
    constexpr int kBytes = K::kN * K::kN * int(sizeof(T));
    // Items of one line or less (float n <= 4, double 2) stream well without: there the
    // prefetches cost 0.58-0.89x.
    const bool pf = x.prefetch && kBytes > 64;
    const bool pfa = pf && dense_block(x.a, K::kN, K::kN), pfb = pf && dense_block(x.b, K::kN, K::kN);
    auto one = [&](int64_t i) KS_INLINE_LAMBDA {
        if (i + x.ahead < batch) {
            if (pfa) prefetch_bytes(item_ptr(A, i + x.ahead), kBytes);
            if (pfb) prefetch_bytes(item_ptr(B, i + x.ahead), kBytes);
        }
        K::template run<Plain>(x, item_ptr(A, i), item_ptr(B, i), item_ptr(C, i));
    };
    kobalt_openmp::for_chunks(batch, [&one](int64_t lo, int64_t hi, int) {
        for (int64_t i = lo; i < hi; ++i) one(i);
    });
}
template <class K, class T = typename K::T>
void batch_small(const Call<T> &x, Items<const T> A, Items<const T> B, Items<T> C, int64_t batch) {
    if constexpr (K::Semiring::kFmaTerm) {
        if (x.plain) return item_loop<K, true>(x, A, B, C, batch);
    }
    item_loop<K, false>(x, A, B, C, batch);
}

// TwoVectorItem in the AVX2 and AVX-512 copies only (masked loads and stores of the partial
// vector). In the SSE2 copy (AMD Zen 5, session 38) float n = 6 ... 8 ran 0.48-0.92x with
// its element-wise partial vectors, and double n = 4 was faster at the minimum (2x) but
// slower at the median (0.54x, bimodal, not understood), so that copy keeps its kernels.
#if defined(__AVX2__)
constexpr bool kTwoVectorOk = true;
#else
constexpr bool kTwoVectorOk = false;
#endif

// The kernel for square items of order N as batch_small, or false where none is (panels):
// up to the widest vector's lanes the narrowest vector that holds a column (SmallItem); up
// to twice that, for PlusTimes with op(A) of unit row stride (op(B) any), two vectors a
// column (TwoVectorItem, offsets constant for packed items); else, up to 16, one wide and one
// narrow vector (SplitItem) for the semirings that need no scan of op(B).
template <class S, class T, int N>
bool small_order(const Call<T> &x, Items<const T> A, Items<const T> B, Items<T> C, int64_t batch) {
    using VW = Wide<T>;
    using VN = Narrow<T>;
    using V0 = Narrowest<T>;
    if constexpr (N <= V0::L) return batch_small<SmallItem<S, V0, N>>(x, A, B, C, batch), true;
    else if constexpr (N <= VN::L) return batch_small<SmallItem<S, VN, N>>(x, A, B, C, batch), true;
    else if constexpr (N <= VW::L) return batch_small<SmallItem<S, VW, N>>(x, A, B, C, batch), true;
    else {
        if constexpr (S::kFmaTerm && N <= 2 * VW::L && kTwoVectorOk) {
            if (x.a.rs == 1 && x.b.rs == 1 && x.a.cs == N && x.b.cs == N && x.ldc == N)
                return batch_small<TwoVectorItem<S, VW, N, true>>(x, A, B, C, batch), true;
            if (x.a.rs == 1) return batch_small<TwoVectorItem<S, VW, N, false>>(x, A, B, C, batch), true;
        }
        if constexpr (!S::kScanB && VN::L < VW::L && N <= VW::L + VN::L && N <= 16)
            return batch_small<SplitItem<S, VW, VN, N>>(x, A, B, C, batch), true;
        return false;
    }
}

// small_order for order n (at most 32: float with AVX-512), false when n has no kernel.
template <class S, class T>
bool small(int n, const Call<T> &x, Items<const T> A, Items<const T> B, Items<T> C, int64_t batch) {
    switch (n) {
#define KS_SMALL(N)                                                                                \
    case N: return small_order<S, T, N>(x, A, B, C, batch);
        KS_SMALL(1) KS_SMALL(2) KS_SMALL(3) KS_SMALL(4) KS_SMALL(5) KS_SMALL(6) KS_SMALL(7) KS_SMALL(8)
        KS_SMALL(9) KS_SMALL(10) KS_SMALL(11) KS_SMALL(12) KS_SMALL(13) KS_SMALL(14) KS_SMALL(15) KS_SMALL(16)
        KS_SMALL(17) KS_SMALL(18) KS_SMALL(19) KS_SMALL(20) KS_SMALL(21) KS_SMALL(22) KS_SMALL(23) KS_SMALL(24)
        KS_SMALL(25) KS_SMALL(26) KS_SMALL(27) KS_SMALL(28) KS_SMALL(29) KS_SMALL(30) KS_SMALL(31) KS_SMALL(32)
#undef KS_SMALL
    default: return false;
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
    // max/min multiplies: a NaN in op(B) takes the exact loops (vmul needs b not NaN).
    // Otherwise, as measured in cache on Zen 4 (docs/performance.md, "Host kernels"):
    // - float: the keys (any sign, NaN in op(A) included), except min-max with op(B) >= -0,
    //   where the integer reduction beside the FP multiply is faster still;
    // - double: the integer reduction where the terms are >= -0 (MIN_MAX: max(a, b) >= b,
    //   so op(B) >= -0 suffices; MAX_MIN: min(a, b) needs both), else floating point: the
    //   64-bit keys in panels were slower than both (d n = 32: 2.38x gemm against 2.25x).
    using VW = Wide<T>;
    using VN = Narrow<T>;
    bool int_red = false, keys = false;
    if (S::kScanB) {
        const Flags fb = scan(B, x.k, x.n, x.b);
        if (fb.nan) return item_exact<S>(x, A, B, C);
        if (sizeof(T) == 4 && !(S::kMin && !fb.negative)) keys = true;
        else int_red = !fb.negative && (S::kMin || !scan(A, x.m, x.k, x.a).negative);
    }
    static_assert(panel_vectors<S, VW>() * VW::L <= kPanelMax, "panel larger than the scratch");
    if (VN::L < VW::L && x.m <= VN::L) { // one narrow vector holds every row
        if constexpr (S::kScanB && VN::kInt) {
            if (keys) return panel<S, VN, 1, Mode::keys>(x, A, B, C, 0, x.m, pack);
            if (int_red) return panel<S, VN, 1, Mode::intred>(x, A, B, C, 0, x.m, pack);
        }
        return panel<S, VN, 1, Mode::fp>(x, A, B, C, 0, x.m, pack);
    }
    const int ph = x.panel;
    for (int i0 = 0; i0 < x.m; i0 += ph) {
        const int mb = x.m - i0 < ph ? x.m - i0 : ph;
        const int nv = (mb + VW::L - 1) / VW::L;
        if constexpr (S::kScanB && VW::kInt) {
            if (keys) {
                panel_nv<S, VW, Mode::keys>(nv, x, A, B, C, i0, mb, pack);
                continue;
            }
            if (int_red) {
                panel_nv<S, VW, Mode::intred>(nv, x, A, B, C, i0, mb, pack);
                continue;
            }
        }
        panel_nv<S, VW, Mode::fp>(nv, x, A, B, C, i0, mb, pack);
    }
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
    x.plain = S::kFmaTerm && p.alpha == T(1) && !x.readc;
    x.prefetch = p.prefetch;
    x.ahead = p.prefetch_items;
    x.panel = panel_rows<S, Wide<T>>(x.m, x.k);
    const Items<T> C = p.C;
    const int64_t batch = p.batch;
    // Square items of order <= twice the widest vector's lanes: one kernel for the batch
    // where small() has one.
    if (x.prod && x.m == x.n && x.n == x.k && small<S>(x.n, x, A, B, C, batch)) return;
    // Part t of the ThreadScratch that gemm_semiring.cpp allocated, its start rounded up to
    // 64 bytes (the 64 elements of slack in scratch_per_thread). t follows
    // ThreadScratch::mine()'s rule (thread_scratch.hpp), written out here because this
    // file must not call inline code shared with other ISAs (semiring_kernels.hpp): this
    // loop's thread number, or 0 on the calling thread (batch 1 once used the caller's
    // number: heap buffer overflow, docs/reliability.md finding 11).
    auto mine = [&](int t) {
        const uintptr_t addr = reinterpret_cast<uintptr_t>(p.scratch + p.per_thread * size_t(t));
        return reinterpret_cast<T *>((addr + 63) & ~uintptr_t(63));
    };
    auto body = [&](int64_t i, T *pack) {
        item<S>(x, x.prod ? item_ptr(A, i) : nullptr, x.prod ? item_ptr(B, i) : nullptr, item_ptr(C, i), pack);
    };
    const int64_t abytes = int64_t(sizeof(T)) * x.m * x.k, bbytes = int64_t(sizeof(T)) * x.k * x.n;
    // Each thread prefetches its next item's op(A) and op(B) where they are dense (x.prefetch:
    // from memory, as item_loop): AMD Zen 5 (session 39) double n = 17 ... 64 1.05-1.5x, float
    // 40 ... 64 1.05-1.3x from memory; 0.89-0.93x in L2.
    // This is item_loop's rule written a second time, knowingly: with one shared helper object
    // for both loops (session 40) double n = 64 ran 0.90-0.97x from memory in the in-process
    // A/B (an A/A build 0.99-1.04x), and 0.93-0.97x with the helper in item_loop only, so the
    // cause may be code layout rather than the helper; not found, and not worth a slowdown.
    const bool pfa = x.prefetch && x.prod && dense_block(x.a, x.m, x.k);
    const bool pfb = x.prefetch && x.prod && dense_block(x.b, x.k, x.n);
    auto one = [&](int64_t i, T *pack) KS_INLINE_LAMBDA {
        if (pfa && i + x.ahead < batch) prefetch_bytes(item_ptr(A, i + x.ahead), abytes);
        if (pfb && i + x.ahead < batch) prefetch_bytes(item_ptr(B, i + x.ahead), bbytes);
        body(i, pack);
    };
    kobalt_openmp::for_chunks(batch, [&](int64_t lo, int64_t hi, int part) {
        T *const pack = mine(part);
        for (int64_t i = lo; i < hi; ++i) one(i, pack);
    });
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
    case KOBALT_PLUS_TIMES: return run<PlusTimes>(p); // gemm's panel path (gemm.cpp)
    }
}

template void gemm<double>(const Problem<double> &);
template void gemm<float>(const Problem<float> &);

} // namespace KOBALT_SEMIRING_ISA
} // namespace semiring
} // namespace kobalt_openmp
