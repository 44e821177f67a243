/*
 * test_semiring.cpp -- correctness of kobalt_{s,d}gemm_semiring_{strided,batched} against a
 * straightforward reference loop written from docs/api.md, for every semiring:
 *
 *   D(i,j) = add(mult(alpha, P(i,j)), mult(beta, C(i,j))),
 *   P(i,j) = add over p of mult(op(A)(i,p), op(B)(p,j)), folded from the add identity z,
 *   mult(alpha, P) = z without reading A, B when alpha == z or k == 0,
 *   mult(beta, C)  = z without reading C when beta == z,
 *   min/max = C's fmin/fmax (a NaN operand is ignored), + and * IEEE,
 *   or/and on truth values (nonzero, NaN included, is true), results exactly 0 or 1.
 *
 * Check: for every semiring but PLUS_TIMES the result is compared EXACTLY (NaN matching
 * NaN, -0 matching +0): every element is the selection by min/max of terms that each took
 * one rounding (a + b or a * b, then alpha's mult), computed in the same precision in the
 * same order by the reference, so there is no accumulated rounding that a tolerance
 * would have to absorb -- and a tolerance would hide a wrongly selected term.
 * PLUS_TIMES is gemm: scaled residual against cblas_?gemm as in test_gemm.cpp.
 * Also: inputs unchanged, padding of C untouched, A and B in inaccessible memory when
 * they must not be read, C poisoned where a read of it would show.
 */
#include <sys/mman.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/kt_semiring.hpp"
#include "common/kt_test.hpp"

using namespace kt;

namespace {

const kobalt_semiring kSemirings[] = {KOBALT_PLUS_TIMES, KOBALT_MIN_PLUS, KOBALT_MAX_PLUS, KOBALT_MIN_TIMES,
                                      KOBALT_MAX_TIMES,  KOBALT_MIN_MAX,  KOBALT_MAX_MIN,  KOBALT_OR_AND};

const char *semiring_name(kobalt_semiring s)
{
    switch (s) {
    case KOBALT_PLUS_TIMES: return "PLUS_TIMES";
    case KOBALT_MIN_PLUS: return "MIN_PLUS";
    case KOBALT_MAX_PLUS: return "MAX_PLUS";
    case KOBALT_MIN_TIMES: return "MIN_TIMES";
    case KOBALT_MAX_TIMES: return "MAX_TIMES";
    case KOBALT_MIN_MAX: return "MIN_MAX";
    case KOBALT_MAX_MIN: return "MAX_MIN";
    case KOBALT_OR_AND: return "OR_AND";
    }
    return "?";
}

/* The reference: kt::Semiring (common/kt_semiring.hpp), docs/api.md's table one scalar
 * operation at a time. */

template <class T> bool same(T got, T want) { return (got != got && want != want) || got == want; }

template <class T> struct Case {
    kobalt_semiring s = KOBALT_MIN_PLUS;
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_op ta = KOBALT_NO_TRANS, tb = KOBALT_NO_TRANS;
    kobalt_int m = 1, n = 1, k = 1;
    T alpha = 0, beta = 0;
    kobalt_int batch = 1;
    Form form = Form::Strided;
    kobalt_int lda_x = 0, ldb_x = 0, ldc_x = 0, sa_x = 0, sb_x = 0, sc_x = 0;
    bool shared_a = false, shared_b = false;
    double special = 0; /* probability of inf / -inf / NaN / +-0 in A, B and C */
    bool edge = false;  /* edge_fill instead: see there */
    bool nonneg = false; /* with edge: A and B >= -0 (the kernels' integer-reduction paths) */
};

/* What the operands are filled with: uniform [-1, 1), and for OR_AND mostly zeros (so that
 * the OR over k terms is not always true), sprinkled with special values. */
template <class T> T draw(Rng &rng, kobalt_semiring s, double special)
{
    if (special > 0 && rng.uniform(0, 1) < special) {
        switch (rng.below(6)) {
        case 0: return std::numeric_limits<T>::infinity();
        case 1: return -std::numeric_limits<T>::infinity();
        case 2: case 3: return std::numeric_limits<T>::quiet_NaN();
        case 4: return T(0);
        default: return -T(0);
        }
    }
    if (s == KOBALT_OR_AND) {
        const double u = rng.uniform(0, 1);
        return u < 0.82 ? T(0) : u < 0.9 ? T(1) : (T)rng.uniform(-3, 3);
    }
    return (T)rng.uniform();
}

template <class T> void fill(MatBatch<T> &M, Rng &rng, kobalt_semiring s, double special)
{
    for (kobalt_int i = 0; i < M.batch; i++)
        for (kobalt_int c = 0; c < M.cols; c++)
            for (kobalt_int r = 0; r < M.rows; r++) M.at(i, r, c) = draw<T>(rng, s, special);
}

/* The values whose order the integer keys of the min/max kernels must keep: signed zeros,
 * infinities, denormals, the smallest normals and the largest finite values of both signs,
 * mixed with ordinary signed values. */
template <class T> T edge_value(Rng &rng)
{
    using L = std::numeric_limits<T>;
    const T pool[] = {T(0), -T(0), L::infinity(), -L::infinity(), L::denorm_min(), -L::denorm_min(),
                      L::min() / T(3), -L::min() / T(3), L::min(), -L::min(), L::max(), -L::max(),
                      T(1), T(-1)};
    const size_t n = sizeof pool / sizeof pool[0];
    return rng.below(3) == 0 ? pool[rng.below((int)n)] : (T)rng.uniform();
}

/* Every element from edge_value (negated where nonneg and < 0, so -0 stays); NaN sprinkled into A in items 0, 3, 6, ... and into B in
 * items 2, 5, 8, ... (items 1, 4, 7, ... stay NaN-free), so that items that take different
 * kernel paths sit next to each other in one batch. */
template <class T> void edge_fill(MatBatch<T> &M, Rng &rng, int nan_item, bool nonneg = false)
{
    for (kobalt_int i = 0; i < M.batch; i++)
        for (kobalt_int c = 0; c < M.cols; c++)
            for (kobalt_int r = 0; r < M.rows; r++) {
                const bool nan = i % 3 == nan_item && rng.below(8) == 0;
                const T v = edge_value<T>(rng);
                M.at(i, r, c) = nan ? std::numeric_limits<T>::quiet_NaN() : nonneg && v < T(0) ? -v : v;
            }
}

/* A read of C with beta == z would change the result (for the IEEE multiplies: z * -1.5
 * has the wrong infinity; plus-times: 0 * NaN) or leak a NaN. */
template <class T> T c_poison(kobalt_semiring s)
{
    return (s == KOBALT_MIN_TIMES || s == KOBALT_MAX_TIMES) ? T(-1.5) : poison<T>();
}

/* Memory that faults when touched: operands that must not be read live here. */
struct NoAccess {
    void *p = MAP_FAILED;
    size_t bytes = 0;
    explicit NoAccess(size_t b) : bytes(b) { p = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); }
    ~NoAccess()
    {
        if (p != MAP_FAILED) munmap(p, bytes);
    }
    template <class T> const T *as() const { return p == MAP_FAILED ? nullptr : (const T *)p; }
};

template <class T> void run(Case<T> c, Rng &rng)
{
    /* PLUS_TIMES is gemm, whose edge cases test_gemm.cpp owns: BLAS leaves non-finite
     * alpha/beta and Inf/NaN inputs unspecified (Kobalt's small kernels scale the sum,
     * OpenBLAS the terms: inf * 0 terms differ), so gemm is only checked on finite data. */
    if (c.s == KOBALT_PLUS_TIMES) {
        c.special = 0;
        if (!std::isfinite((double)c.alpha) || !std::isfinite((double)c.beta)) {
            c.alpha = (T)0.75;
            c.beta = (T)-0.5;
        }
    }
    set_case("%sgemm_semiring_%s %s %s ta=%s tb=%s m=%ld n=%ld k=%ld alpha=%g beta=%g batch=%ld ldx=%ld,%ld,%ld "
             "stridex=%ld,%ld,%ld shared=%d,%d special=%g",
             type_name<T>(), form_name(c.form), semiring_name(c.s), layout_name(c.layout), op_name(c.ta),
             op_name(c.tb), (long)c.m, (long)c.n, (long)c.k, (double)c.alpha, (double)c.beta, (long)c.batch,
             (long)c.lda_x, (long)c.ldb_x, (long)c.ldc_x, (long)c.sa_x, (long)c.sb_x, (long)c.sc_x, c.shared_a,
             c.shared_b, c.special);
    const Semiring<T> S{c.s};
    const bool rev = c.form == Form::Batched;
    const bool na = c.ta == KOBALT_NO_TRANS, nb = c.tb == KOBALT_NO_TRANS;
    MatBatch<T> A(c.layout, na ? c.m : c.k, na ? c.k : c.m, c.batch, c.lda_x, c.sa_x, c.shared_a, rev);
    MatBatch<T> B(c.layout, nb ? c.k : c.n, nb ? c.n : c.k, c.batch, c.ldb_x, c.sb_x, c.shared_b, rev);
    MatBatch<T> C(c.layout, c.m, c.n, c.batch, c.ldc_x, c.sc_x, false, rev);
    const bool read_ab = c.k > 0 && !(c.alpha == S.zero());
    const bool read_c = !(c.beta == S.zero());
    if (c.edge) {
        edge_fill(A, rng, 0, c.nonneg);
        edge_fill(B, rng, 2, c.nonneg);
    } else {
        fill(A, rng, c.s, c.special);
        fill(B, rng, c.s, c.special);
    }
    if (read_c && c.edge) edge_fill(C, rng, 1);
    else if (read_c) fill(C, rng, c.s, c.special);
    else C.fill_value(c_poison<T>(c.s));
    const std::vector<T> a0 = A.buf, b0 = B.buf;
    const MatBatch<T> C0 = C;

    /* A and B that must not be read are handed over as inaccessible memory. */
    NoAccess fence(size_t(2) * 1024 * 1024);
    const T *pa = A.base(), *pb = B.base();
    std::vector<const T *> aptr = A.cptrs(), bptr = B.cptrs();
    if (!read_ab && fence.as<T>()) {
        pa = pb = fence.as<T>();
        for (auto &p : aptr) p = fence.as<T>();
        for (auto &p : bptr) p = fence.as<T>();
    }
    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::gemm_semiring_strided(c.s, c.layout, c.ta, c.tb, c.m, c.n, c.k, c.alpha, pa, A.ld,
                                                  A.stride, pb, B.ld, B.stride, c.beta, C.base(), C.ld, C.stride,
                                                  c.batch));
    } else {
        auto pc = C.ptrs();
        KT_CHECK_STATUS(kb::gemm_semiring_batched(c.s, c.layout, c.ta, c.tb, c.m, c.n, c.k, c.alpha, aptr.data(),
                                                  A.ld, bptr.data(), B.ld, c.beta, pc.data(), C.ld, c.batch));
    }
    A.check_unchanged(a0, "A");
    B.check_unchanged(b0, "B");
    C.check_padding("C");

    if (c.s == KOBALT_PLUS_TIMES) { /* gemm: scaled residual against CBLAS */
        MatBatch<T> R = C0;
        const double e = eps<T>();
        for (kobalt_int i = 0; i < c.batch; i++) {
            if (read_ab)
                ref::gemm(c.layout, c.ta, c.tb, (int)c.m, (int)c.n, (int)c.k, c.alpha, A.item(i), (int)A.ld,
                          B.item(i), (int)B.ld, c.beta, R.item(i), (int)R.ld);
            else
                for (kobalt_int q = 0; q < c.n; q++)
                    for (kobalt_int p = 0; p < c.m; p++)
                        R.at(i, p, q) = read_c ? c.beta * C0.at(i, p, q) : T(0);
            Dense bound(c.m, c.n);
            if (read_ab) bound = mul(abs(op(to_dense(A, i), c.ta)), abs(op(to_dense(B, i), c.tb)));
            long bad = 0;
            for (kobalt_int q = 0; q < c.n; q++)
                for (kobalt_int p = 0; p < c.m; p++) {
                    double b = std::fabs((double)c.alpha) * bound(p, q);
                    if (read_c) b += std::fabs((double)c.beta) * std::fabs((double)C0.at(i, p, q));
                    const double diff = std::fabs((double)C.at(i, p, q) - (double)R.at(i, p, q));
                    /* NaN and infinities (special values) land where the reference has them */
                    if (!(same(C.at(i, p, q), R.at(i, p, q)) || diff <= kThreshold * (double)(c.k + 2) * e * b))
                        bad++;
                }
            KT_CHECK(bad == 0, "item %ld: %ld element(s) off the gemm reference", (long)i, bad);
        }
        return;
    }

    for (kobalt_int i = 0; i < c.batch; i++) {
        long bad = 0;
        kobalt_int wr = 0, wc = 0;
        T wgot = 0, wwant = 0;
        for (kobalt_int q = 0; q < c.n; q++)
            for (kobalt_int p = 0; p < c.m; p++) {
                T r = S.zero();
                if (read_ab) {
                    T acc = S.zero();
                    for (kobalt_int l = 0; l < c.k; l++) {
                        const T x = na ? A.at(i, p, l) : A.at(i, l, p);
                        const T y = nb ? B.at(i, l, q) : B.at(i, q, l);
                        acc = S.add(acc, S.mult(x, y));
                    }
                    r = S.mult(c.alpha, acc);
                }
                const T s = read_c ? S.mult(c.beta, C0.at(i, p, q)) : S.zero();
                const T want = S.add(r, s), got = C.at(i, p, q);
                bool ok = same(got, want);
                if (c.s == KOBALT_OR_AND) ok = ok && (got == T(0) || got == T(1));
                if (!ok) {
                    if (!bad) { wr = p; wc = q; wgot = got; wwant = want; }
                    bad++;
                }
            }
        KT_CHECK(bad == 0, "item %ld: %ld wrong element(s); first C(%ld,%ld) = %.9g, reference %.9g", (long)i,
                 bad, (long)wr, (long)wc, (double)wgot, (double)wwant);
    }
}

/* alpha and beta per semiring: plain product, accumulate into C, and arbitrary values. */
template <class T> void alpha_beta(kobalt_semiring s, int idx, T &alpha, T &beta)
{
    const Semiring<T> S{s};
    switch (idx % 6) {
    case 0: alpha = S.one(); beta = S.zero(); break;          /* plain product */
    case 1: alpha = S.one(); beta = S.one(); break;           /* accumulate into C */
    case 2: alpha = (T)0.75; beta = (T)-0.5; break;
    case 3: alpha = (T)-1.25; beta = S.zero(); break;
    case 4: alpha = S.zero(); beta = (T)0.5; break;           /* A and B not read */
    default: alpha = (T)2; beta = S.one(); break;
    }
}

const kobalt_int kSquare[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 31, 32, 33, 64};

/* Every semiring, size, layout and form; the transposes and alpha/beta rotate. */
template <class T> void sweep_square(void **)
{
    Rng rng(11);
    int idx = 0;
    for (kobalt_semiring s : kSemirings)
        for (kobalt_int sz : kSquare)
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms)
                    for (int t = 0; t < 3; t++) {
                        Case<T> c;
                        c.s = s; c.layout = l; c.form = f;
                        c.ta = kOps[(idx + t) % 3]; c.tb = kOps[(idx / 3 + 2 * t) % 3];
                        c.m = c.n = c.k = sz;
                        alpha_beta(s, idx, c.alpha, c.beta);
                        c.batch = sz <= 33 ? 3 : 2;
                        c.lda_x = idx % 3; c.ldb_x = (idx / 3) % 2; c.ldc_x = (idx + 1) % 3;
                        c.sa_x = idx % 2 ? 5 : 0; c.sb_x = idx % 4 ? 0 : 3; c.sc_x = (idx + 1) % 2 ? 2 : 0;
                        run(c, rng);
                        idx++;
                    }
    finish();
}

/* Every transpose pair at a few sizes around the panel and vector widths. */
template <class T> void every_op(void **)
{
    Rng rng(12);
    static const kobalt_int sizes[] = {6, 13, 32, 40};
    int idx = 0;
    for (kobalt_semiring s : kSemirings)
        for (kobalt_int sz : sizes)
            for (kobalt_layout l : kLayouts)
                for (kobalt_op ta : kOps)
                    for (kobalt_op tb : kOps) {
                        Case<T> c;
                        c.s = s; c.layout = l; c.ta = ta; c.tb = tb;
                        c.form = idx % 2 ? Form::Batched : Form::Strided;
                        c.m = sz; c.n = sz + idx % 3; c.k = sz + 1;
                        alpha_beta(s, idx, c.alpha, c.beta);
                        c.batch = 2;
                        run(c, rng);
                        idx++;
                    }
    finish();
}

template <class T> void sweep_nonsquare(void **)
{
    static const kobalt_int shapes[][3] = {
        {1, 2, 3},   {3, 1, 2},    {2, 3, 1},   {5, 7, 3},  {7, 5, 9},   {17, 4, 31}, {4, 33, 16},
        {64, 9, 17}, {9, 100, 8},  {33, 65, 7}, {0, 3, 4},  {3, 0, 4},   {3, 4, 0},   {0, 0, 0},
        {1, 1, 200}, {200, 3, 5},  {16, 15, 17}, {8, 9, 7}, {32, 31, 33}, {100, 31, 64}, {47, 2, 130}};
    Rng rng(13);
    int idx = 0;
    for (kobalt_semiring s : kSemirings)
        for (auto &sh : shapes)
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    Case<T> c;
                    c.s = s; c.layout = l; c.form = f;
                    c.ta = kOps[idx % 3]; c.tb = kOps[(idx / 3) % 3];
                    c.m = sh[0]; c.n = sh[1]; c.k = sh[2];
                    alpha_beta(s, idx, c.alpha, c.beta);
                    c.batch = 3;
                    c.lda_x = (idx / 2) % 2 ? 2 : 0; c.ldc_x = idx % 2; c.sc_x = idx % 3;
                    run(c, rng);
                    idx++;
                }
    finish();
}

/* Infinities, NaN and signed zeros in A, B and C, and as alpha and beta. */
template <class T> void special_values(void **)
{
    Rng rng(14);
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    static const kobalt_int sizes[] = {1, 3, 4, 5, 6, 7, 8, 10, 12, 16, 17, 32, 33};
    int idx = 0;
    for (kobalt_semiring s : kSemirings)
        for (kobalt_int sz : sizes)
            for (double special : {0.05, 0.3, 0.9})
                for (kobalt_layout l : kLayouts) {
                    Case<T> c;
                    c.s = s; c.layout = l; c.special = special;
                    c.form = idx % 2 ? Form::Batched : Form::Strided;
                    c.ta = kOps[idx % 3]; c.tb = kOps[(idx / 3) % 3];
                    c.m = sz; c.n = sz; c.k = sz + idx % 2;
                    const T ab[][2] = {{inf, inf}, {-inf, -inf}, {nan, nan}, {nan, (T)0.5},
                                       {(T)0.5, nan}, {-inf, inf}, {(T)0, -(T)0}, {(T)1, (T)1}};
                    if (idx % 3 == 0) {
                        c.alpha = ab[(idx / 3) % 8][0];
                        c.beta = ab[(idx / 3) % 8][1];
                    } else {
                        alpha_beta(s, idx, c.alpha, c.beta);
                    }
                    c.batch = 4;
                    run(c, rng);
                    idx++;
                }
    finish();
}

/* Min-max and max-min on edge values of any sign (edge_fill): the kernels map op(A) and
 * op(B) to order-preserving integer keys where op(B) holds no NaN, and take exact loops
 * where it does; square sizes on both sides of the one-vector kernels' limit, panels of
 * one and several vectors, non-square shapes, every transpose, both layouts and forms;
 * one case in three with A and B >= -0, where the kernels may reduce on the bit patterns. */
template <class T> void minmax_edge_values(void **)
{
    Rng rng(19);
    static const kobalt_int shapes[][3] = {
        {1, 1, 1},   {2, 2, 2},   {3, 3, 3},   {4, 4, 4},    {5, 5, 5},   {8, 8, 8},   {9, 9, 9},
        {12, 12, 12}, {16, 16, 16}, {17, 17, 17}, {24, 24, 24}, {32, 32, 32}, {33, 33, 33}, {3, 5, 7},
        {4, 17, 9},  {13, 6, 40},  {40, 9, 3},  {70, 11, 20}, {2, 64, 33}, {31, 1, 5}};
    int idx = 0;
    for (kobalt_semiring s : {KOBALT_MIN_MAX, KOBALT_MAX_MIN})
        for (auto &sh : shapes)
            for (kobalt_layout l : kLayouts)
                for (int t = 0; t < 3; t++) {
                    Case<T> c;
                    c.s = s; c.layout = l; c.edge = true; c.nonneg = t == 2;
                    c.form = idx % 2 ? Form::Batched : Form::Strided;
                    c.ta = kOps[(idx + t) % 3]; c.tb = kOps[(idx / 3 + t) % 3];
                    c.m = sh[0]; c.n = sh[1]; c.k = sh[2];
                    alpha_beta(s, idx, c.alpha, c.beta);
                    c.batch = 7;
                    c.lda_x = idx % 2; c.ldc_x = (idx / 2) % 2;
                    run(c, rng);
                    idx++;
                }
    finish();
}

/* Leading dimensions and strides above the minimum, stride-0 (shared) inputs. */
template <class T> void padding_and_shared(void **)
{
    Rng rng(15);
    static const kobalt_int sizes[] = {1, 3, 8, 9, 17, 33};
    int idx = 0;
    for (kobalt_semiring s : kSemirings)
        for (kobalt_int sz : sizes)
            for (kobalt_layout l : kLayouts)
                for (int variant = 0; variant < 4; variant++) {
                    Case<T> c;
                    c.s = s; c.layout = l; c.form = variant % 2 ? Form::Batched : Form::Strided;
                    c.ta = variant & 1 ? KOBALT_TRANS : KOBALT_NO_TRANS;
                    c.tb = variant & 2 ? KOBALT_TRANS : KOBALT_NO_TRANS;
                    c.m = sz; c.n = sz + 1; c.k = sz + 2;
                    alpha_beta(s, idx++, c.alpha, c.beta);
                    c.batch = 4;
                    c.lda_x = 7; c.ldb_x = 3; c.ldc_x = 5; c.sa_x = 11; c.sb_x = 1; c.sc_x = 13;
                    c.shared_a = variant == 1 || variant == 3;
                    c.shared_b = variant >= 2;
                    run(c, rng);
                }
    finish();
}

/* Batches of 1, 3 and a few thousand (every OpenMP thread busy); batch 0 touches nothing. */
template <class T> void batch_counts(void **)
{
    Rng rng(16);
    static const kobalt_int sizes[] = {1, 2, 4, 5, 8, 16};
    int idx = 0;
    for (kobalt_semiring s : kSemirings)
        for (kobalt_int sz : sizes)
            for (kobalt_int nb : {1, 3, 4099})
                for (Form f : kForms) {
                    Case<T> c;
                    c.s = s; c.form = f; c.m = c.n = c.k = sz; c.batch = nb;
                    c.layout = idx % 2 ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR;
                    c.ta = idx % 3 ? KOBALT_NO_TRANS : KOBALT_TRANS;
                    alpha_beta(s, idx, c.alpha, c.beta);
                    c.shared_b = idx % 5 == 0;
                    c.special = idx % 4 == 0 ? 0.1 : 0.0;
                    run(c, rng);
                    idx++;
                }
    for (kobalt_semiring s : kSemirings) {
        set_case("%sgemm_semiring %s batch 0 with NULL pointers", type_name<T>(), semiring_name(s));
        KT_CHECK_STATUS(kb::gemm_semiring_strided(s, KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 4, 4, 4,
                                                  (T)1, (const T *)nullptr, 4, 16, (const T *)nullptr, 4, 16, (T)0,
                                                  (T *)nullptr, 4, 16, 0));
        KT_CHECK_STATUS(kb::gemm_semiring_batched(s, KOBALT_ROW_MAJOR, KOBALT_TRANS, KOBALT_NO_TRANS, 4, 4, 4,
                                                  (T)1, (const T *const *)nullptr, 4, (const T *const *)nullptr, 4,
                                                  (T)0, (T *const *)nullptr, 4, 0));
        MatBatch<T> A(KOBALT_COL_MAJOR, 3, 3, 1), B(KOBALT_COL_MAJOR, 3, 3, 1), C(KOBALT_COL_MAJOR, 3, 3, 1);
        A.fill_random(rng); B.fill_random(rng); C.fill_random(rng);
        const std::vector<T> c0 = C.buf;
        KT_CHECK_STATUS(kb::gemm_semiring_strided(s, KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 3, 3, 3,
                                                  (T)1, A.base(), 3, 9, B.base(), 3, 9, (T)0, C.base(), 3, 9, 0));
        C.check_unchanged(c0, "C");
    }
    finish();
}

/* Item offsets beyond 2^31 elements: batch 3 of 2x2 items, every stride 2^31+7. */
template <class T> void huge_stride(void **)
{
    const kobalt_int S = kHugeStride, nb = 3;
    const size_t count = (size_t)((nb - 1) * S + 12);
    SparseMap<T> A(count), B(count), C(count);
    if (!A.ok() || !B.ok() || !C.ok()) skip();
    for (kobalt_layout l : kLayouts) {
        set_case("%sgemm_semiring_strided MIN_PLUS %s 2x2x2 batch 3 strides 2^31+7", type_name<T>(), layout_name(l));
        Rng rng(17);
        for (kobalt_int i = 0; i < nb; i++)
            for (int e = 0; e < 12; e++) {
                A.p[i * S + e] = (T)rng.uniform();
                B.p[i * S + e] = (T)rng.uniform();
                C.p[i * S + e] = e < 4 ? (T)rng.uniform() : poison<T>();
            }
        T want[3][4];
        for (kobalt_int i = 0; i < nb; i++) { /* C = min(A + B, C), 2x2, B transposed */
            const T *a = A.p + i * S, *b = B.p + i * S, *c = C.p + i * S;
            for (int r = 0; r < 2; r++)
                for (int q = 0; q < 2; q++) {
                    auto at = [&](const T *m, int x, int y) { return l == KOBALT_COL_MAJOR ? m[x + 2 * y] : m[2 * x + y]; };
                    T acc = std::numeric_limits<T>::infinity();
                    for (int p = 0; p < 2; p++) acc = std::fmin(acc, at(a, r, p) + at(b, q, p));
                    want[i][l == KOBALT_COL_MAJOR ? r + 2 * q : 2 * r + q] = std::fmin(acc, at(c, r, q));
                }
        }
        KT_CHECK_STATUS(kb::gemm_semiring_strided(KOBALT_MIN_PLUS, l, KOBALT_NO_TRANS, KOBALT_TRANS, 2, 2, 2, (T)0,
                                                  A.p, 2, S, B.p, 2, S, (T)0, C.p, 2, S, nb));
        for (kobalt_int i = 0; i < nb; i++) {
            for (int e = 0; e < 4; e++)
                KT_CHECK(C.p[i * S + e] == want[i][e], "item %ld element %d: got %g want %g", (long)i, e,
                         (double)C.p[i * S + e], (double)want[i][e]);
            for (int e = 4; e < 12; e++)
                KT_CHECK(same_bits(C.p[i * S + e], poison<T>()), "item %ld: padding %d overwritten", (long)i, e);
        }
    }
    finish();
}

/* Unknown semiring values are refused before anything is written (the argument tests
 * check the message; here: every value outside 201..208, both forms, nothing written). */
template <class T> void invalid_semiring(void **)
{
    Rng rng(18);
    MatBatch<T> A(KOBALT_COL_MAJOR, 3, 3, 2), B(KOBALT_COL_MAJOR, 3, 3, 2), C(KOBALT_COL_MAJOR, 3, 3, 2);
    A.fill_random(rng); B.fill_random(rng); C.fill_random(rng);
    const std::vector<T> c0 = C.buf;
    for (int v : {0, 200, 209, 101, -1}) {
        set_case("%sgemm_semiring semiring = %d", type_name<T>(), v);
        const kobalt_status st = kb::gemm_semiring_strided((kobalt_semiring)v, KOBALT_COL_MAJOR, KOBALT_NO_TRANS,
                                                           KOBALT_NO_TRANS, 3, 3, 3, (T)1, A.base(), 3, 9,
                                                           B.base(), 3, 9, (T)0, C.base(), 3, 9, 2);
        KT_CHECK(st == KOBALT_INVALID_ARGUMENT, "status %s", kobalt_status_name(st));
        KT_CHECK(strstr(kobalt_last_error(), "semiring") != nullptr, "message: %s", kobalt_last_error());
        C.check_unchanged(c0, "C");
    }
    finish();
}

/* Callers in a host program's OpenMP team larger than omp_get_max_threads() inside it
 * (omp_set_num_threads(2), then num_threads(8)), each with batch 1, which the backend runs
 * on the calling thread: the caller's thread number (up to 7) must not index the per-thread
 * panel scratch, allocated for omp_get_max_threads() = 2 threads. It once did: a heap buffer
 * overflow (ASan reports it every time; the plain build crashed now and then). Every
 * semiring, both layouts, m = n = 16, k = 4000 (a non-square item takes the panels, and a
 * long k makes the scratch a large block of its own). Each caller's result must equal bit
 * for bit the same call made afterwards from the main thread alone. */
template <class T> void host_team_callers(void **)
{
#ifndef _OPENMP
    skip();
#else
    constexpr int callers = 8;
    const kobalt_int m = 16, k = 4000, mk = m * k, mm = m * m;
    for (kobalt_semiring sr : kSemirings) {
        if (sr == KOBALT_PLUS_TIMES) continue; /* gemm's paths, no panel scratch */
        for (kobalt_layout l : kLayouts) {
            set_case("%sgemm_semiring_strided %s %s m=n=%ld k=%ld batch 1 from %d host OpenMP threads "
                     "(max_threads 2)", type_name<T>(), semiring_name(sr), layout_name(l), (long)m, (long)k, callers);
            const bool col = l == KOBALT_COL_MAJOR;
            const kobalt_int lda = col ? m : k, ldb = col ? k : m, ldc = m;
            std::vector<T> A((size_t)(callers * mk)), B((size_t)(callers * mk)), C((size_t)(callers * mm), T(0));
            Rng rng(600 + (uint64_t)sr);
            for (size_t e = 0; e < A.size(); e++) {
                A[e] = sr == KOBALT_OR_AND ? T(rng.below(2)) : T(rng.below(17)) - T(8);
                B[e] = sr == KOBALT_OR_AND ? T(rng.below(2)) : T(rng.below(13)) - T(6);
            }
            std::vector<kobalt_status> st((size_t)callers, KOBALT_BACKEND_ERROR);
            int team = 0;
            const int saved = omp_get_max_threads();
            omp_set_num_threads(2);
#pragma omp parallel num_threads(callers)
            {
                const int t = omp_get_thread_num();
                if (t == 0) team = omp_get_num_threads();
                st[(size_t)t] = kb::gemm_semiring_strided(sr, l, KOBALT_NO_TRANS, KOBALT_NO_TRANS, m, m, k, T(1),
                                                          A.data() + t * mk, lda, 0, B.data() + t * mk, ldb, 0, T(0),
                                                          C.data() + t * mm, ldc, 0, 1);
            }
            omp_set_num_threads(saved);
            if (team != callers) print_message("  (the host team had %d threads, not %d)\n", team, callers);
            for (int t = 0; t < team; t++) {
                KT_CHECK(st[(size_t)t] == KOBALT_SUCCESS, "caller %d: status %s", t, kobalt_status_name(st[(size_t)t]));
                std::vector<T> want((size_t)mm, T(0));
                KT_CHECK_STATUS(kb::gemm_semiring_strided(sr, l, KOBALT_NO_TRANS, KOBALT_NO_TRANS, m, m, k, T(1),
                                                          A.data() + t * mk, lda, 0, B.data() + t * mk, ldb, 0, T(0),
                                                          want.data(), ldc, 0, 1));
                long bad = 0;
                for (kobalt_int e = 0; e < mm; e++) bad += !same_bits(C[(size_t)(t * mm + e)], want[(size_t)e]);
                KT_CHECK(bad == 0, "caller %d: %ld element(s) differ from the same call on the main thread", t, bad);
            }
        }
    }
    finish();
#endif
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_square<double>),       cmocka_unit_test(sweep_square<float>),
        cmocka_unit_test(every_op<double>),           cmocka_unit_test(every_op<float>),
        cmocka_unit_test(sweep_nonsquare<double>),    cmocka_unit_test(sweep_nonsquare<float>),
        cmocka_unit_test(special_values<double>),     cmocka_unit_test(special_values<float>),
        cmocka_unit_test(minmax_edge_values<double>), cmocka_unit_test(minmax_edge_values<float>),
        cmocka_unit_test(padding_and_shared<double>), cmocka_unit_test(padding_and_shared<float>),
        cmocka_unit_test(batch_counts<double>),       cmocka_unit_test(batch_counts<float>),
        cmocka_unit_test(huge_stride<double>),        cmocka_unit_test(huge_stride<float>),
        cmocka_unit_test(invalid_semiring<double>),   cmocka_unit_test(invalid_semiring<float>),
        cmocka_unit_test(host_team_callers<double>),  cmocka_unit_test(host_team_callers<float>),
    };
    return cmocka_run_group_tests_name("gemm_semiring", tests, NULL, NULL);
}
