/*
 * test_getri.cpp -- correctness of kobalt_{s,d}getri_{strided,batched} (C_i = A_i^{-1}
 * from getrf's factors) and kobalt_{s,d}matinv_{strided,batched} (C_i = A_i^{-1} from
 * A_i itself), against LAPACKE.
 *
 * getri: A is factored by LAPACKE_?getrf (or without pivoting, for ipiv == NULL, on a
 * diagonally dominant matrix); Kobalt's C must satisfy ||A C - I||_1 / (n eps ||A||_1
 * ||C||_1) < 30 (LAPACK's dget03 ratio), info must be 0, or, on factors with a zero on
 * U's diagonal, the first such column, with C_i left untouched.
 * matinv: the same residual on random A, info equal to LAPACKE_?getrf's (singular items:
 * a zero column), C_i untouched where info > 0, A unchanged.
 * Everywhere: padding of C and info untouched, inputs (A, ipiv) unchanged.
 */
#include "common/kt_lu.hpp"
#include "common/kt_test.hpp"

using namespace kt;

namespace {

/* ||A C - I||_1 / (n eps ||A||_1 ||C||_1); 0 for n == 0, infinity for non-finite C. */
double inverse_residual(const Dense &A, const Dense &C, double eps)
{
    const int64_t n = A.rows;
    if (n == 0) return 0.0;
    if (!all_finite(C)) return INFINITY;
    Dense R = mul(A, C);
    for (int64_t i = 0; i < n; i++) R(i, i) -= 1.0;
    const double an = norm1(A), cn = norm1(C);
    if (an == 0.0 || cn == 0.0) return INFINITY;
    return norm1(R) / ((double)n * eps * an * cn);
}

enum Kind { kRandom, kSingularFirst, kSingularMid, kSingularLast, kNaN };
const char *kind_name(Kind k)
{
    return k == kRandom ? "random" : k == kNaN ? "NaN" : "singular";
}

struct Case {
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_int n = 1, batch = 1;
    Form form = Form::Strided;
    kobalt_int lda_x = 0, ldc_x = 0, sa_x = 0, sc_x = 0, sp_x = 0;
    bool no_pivot = false;
};

/* Runs getri on the factors of A0 (original matrices), kinds[i] per item. */
template <class T> void run_getri(const Case &c, const MatBatch<T> &A0, const std::vector<Kind> &kinds)
{
    const kobalt_int n = c.n;
    MatBatch<T> F = A0; /* the factors, in A's layout and storage */
    IntBatch ipiv(n, c.batch, c.sp_x);
    std::vector<int> want((size_t)c.batch, 0);
    for (kobalt_int i = 0; i < c.batch; i++) {
        if (c.no_pivot) {
            lu_nopivot(F, i);
        } else if (n > 0) {
            std::vector<int> p((size_t)n);
            ref::getrf(c.layout, (int)n, (int)n, F.item(i), (int)F.ld, p.data());
            for (kobalt_int j = 0; j < n; j++) ipiv.at(i, j) = p[(size_t)j];
        }
        /* singular factors: a zero on U's diagonal (the first one is reported) */
        const Kind k = kinds[(size_t)i];
        if (n > 0 && (k == kSingularFirst || k == kSingularMid || k == kSingularLast)) {
            const kobalt_int j = k == kSingularFirst ? 0 : k == kSingularMid ? n / 2 : n - 1;
            F.at(i, j, j) = T(0);
            if (k == kSingularFirst && n > 2) F.at(i, n - 1, n - 1) = T(0); /* a later zero is not reported */
            want[(size_t)i] = (int)j + 1;
        }
        if (n > 0 && k == kNaN) F.at(i, n / 2, n / 2) = std::numeric_limits<T>::quiet_NaN();
    }
    MatBatch<T> C(c.layout, n, n, c.batch, c.ldc_x, c.sc_x, false, c.form == Form::Batched);
    Rng fill(7);
    C.fill_random(fill); /* items with info > 0 must keep these values */
    const std::vector<T> c0 = C.buf, f0 = F.buf;
    const std::vector<int> p0 = ipiv.buf;
    IntBatch info(1, c.batch);
    const int *pp = c.no_pivot ? nullptr : ipiv.base();
    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::getri_strided(c.layout, n, F.base(), F.ld, F.stride, pp, ipiv.stride, C.base(), C.ld,
                                          C.stride, info.base(), c.batch));
    } else {
        auto pa = F.cptrs();
        auto pc = C.ptrs();
        KT_CHECK_STATUS(kb::getri_batched(c.layout, n, pa.data(), F.ld, pp, ipiv.stride, pc.data(), C.ld,
                                          info.base(), c.batch));
    }
    F.check_unchanged(f0, "A (the factors, an input)");
    ipiv.check_unchanged(p0, "ipiv (an input)");
    C.check_padding("C");
    info.check_padding("info");
    for (kobalt_int i = 0; i < c.batch; i++) {
        const Kind k = kinds[(size_t)i];
        if (k == kNaN) continue; /* only the other items are specified */
        KT_CHECK(info.at(i, 0) == want[(size_t)i], "item %ld (%s): info %d, expected %d", (long)i, kind_name(k),
                 info.at(i, 0), want[(size_t)i]);
        if (want[(size_t)i] != 0) {
            bool same = true;
            for (kobalt_int q = 0; q < n; q++)
                for (kobalt_int p = 0; p < n; p++) same = same && same_bits(C.at(i, p, q), c0[C.pos(i, p, q)]);
            KT_CHECK(same, "item %ld: singular (info %d) but C was written", (long)i, want[(size_t)i]);
            continue;
        }
        const double r = inverse_residual(to_dense(A0, i), to_dense(C, i), eps<T>());
        KT_CHECK(r < kThreshold, "item %ld: ||A C - I|| scaled residual %g", (long)i, r);
    }
}

template <class T> void getri_case(const Case &c, Rng &rng, const std::vector<Kind> &kinds)
{
    set_case("%sgetri_%s %s n=%ld batch=%ld ldx=%ld/%ld stridex=%ld/%ld ipivx=%ld ipiv=%s", type_name<T>(),
             form_name(c.form), layout_name(c.layout), (long)c.n, (long)c.batch, (long)c.lda_x, (long)c.ldc_x,
             (long)c.sa_x, (long)c.sc_x, (long)c.sp_x, c.no_pivot ? "NULL" : "array");
    MatBatch<T> A(c.layout, c.n, c.n, c.batch, c.lda_x, c.sa_x, false, c.form == Form::Batched);
    A.fill_random(rng);
    if (c.no_pivot)
        for (kobalt_int i = 0; i < c.batch; i++) make_dominant(A, i);
    run_getri(c, A, kinds);
}

template <class T> void getri_sweep(void **)
{
    Rng rng(61);
    int idx = 0;
    for (kobalt_int s : sizes())
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int v = 0; v < 2; v++) {
                    Case c;
                    c.layout = l; c.form = f; c.n = s; c.batch = s <= 33 ? 3 : 2;
                    c.lda_x = idx % 3; c.ldc_x = (idx + 1) % 2; c.sa_x = idx % 2 ? 5 : 0;
                    c.sc_x = (idx / 2) % 2 ? 3 : 0; c.sp_x = idx % 2 ? 2 : 0;
                    c.no_pivot = v == 1;
                    getri_case<T>(c, rng, std::vector<Kind>((size_t)c.batch, kRandom));
                    idx++;
                }
    finish();
}

/* Zero diagonal elements of U give info and leave C alone; a NaN item spoils only itself. */
template <class T> void getri_singular(void **)
{
    Rng rng(62);
    static const kobalt_int sizes[] = {1, 2, 3, 5, 8, 9, 16, 17, 32, 33, 64, 100};
    const std::vector<Kind> kinds = {kRandom, kSingularFirst, kNaN, kSingularMid, kRandom, kSingularLast};
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int v = 0; v < 2; v++) {
                    Case c;
                    c.layout = l; c.form = f; c.n = s; c.batch = (kobalt_int)kinds.size();
                    c.ldc_x = 2; c.sc_x = 1; c.sp_x = 1; c.no_pivot = v == 1;
                    getri_case<T>(c, rng, kinds);
                }
    finish();
}

template <class T> void getri_batches(void **)
{
    Rng rng(63);
    static const kobalt_int sizes[] = {1, 2, 4, 7};
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms) {
                Case c;
                c.layout = l; c.form = f; c.n = s; c.batch = 4099;
                getri_case<T>(c, rng, std::vector<Kind>((size_t)c.batch, kRandom));
            }
    set_case("%sgetri batch 0 with NULL pointers", type_name<T>());
    KT_CHECK_STATUS(kb::getri_strided(KOBALT_COL_MAJOR, 4, (const T *)nullptr, 4, 16, nullptr, 4, (T *)nullptr, 4,
                                      16, nullptr, 0));
    KT_CHECK_STATUS(kb::getri_batched(KOBALT_ROW_MAJOR, 4, (const T *const *)nullptr, 4, nullptr, 4,
                                      (T *const *)nullptr, 4, nullptr, 0));
    set_case("%sgetri n = 0 sets info to 0", type_name<T>());
    IntBatch info(1, 3);
    KT_CHECK_STATUS(kb::getri_strided(KOBALT_COL_MAJOR, 0, (const T *)nullptr, 1, 0, nullptr, 0, (T *)nullptr, 1, 0,
                                      info.base(), 3));
    for (int i = 0; i < 3; i++) KT_CHECK(info.at(i, 0) == 0, "info[%d] = %d after n = 0", i, info.at(i, 0));
    finish();
}

/* ---- matinv -------------------------------------------------------------------------- */
template <class T> void run_matinv(const Case &c, MatBatch<T> &A, const std::vector<Kind> &kinds)
{
    const kobalt_int n = c.n;
    for (kobalt_int i = 0; i < c.batch; i++) {
        const Kind k = kinds[(size_t)i];
        if (n == 0) break;
        if (k == kSingularFirst || k == kSingularMid || k == kSingularLast) {
            const kobalt_int col = k == kSingularFirst ? 0 : k == kSingularMid ? n / 2 : n - 1;
            for (kobalt_int r = 0; r < n; r++) A.at(i, r, col) = T(0);
        }
        if (k == kNaN) A.at(i, n / 2, n / 2) = std::numeric_limits<T>::quiet_NaN();
    }
    /* reference info: LAPACKE getrf on a copy */
    std::vector<int> want((size_t)c.batch, 0);
    {
        MatBatch<T> R = A;
        std::vector<int> p((size_t)std::max<kobalt_int>(n, 1));
        for (kobalt_int i = 0; i < c.batch && n > 0; i++)
            if (kinds[(size_t)i] != kNaN) want[(size_t)i] = ref::getrf(c.layout, (int)n, (int)n, R.item(i), (int)R.ld, p.data());
    }
    MatBatch<T> C(c.layout, n, n, c.batch, c.ldc_x, c.sc_x, false, c.form == Form::Batched);
    Rng fill(8);
    C.fill_random(fill);
    const std::vector<T> c0 = C.buf, a0 = A.buf;
    IntBatch info(1, c.batch);
    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::matinv_strided(c.layout, n, A.base(), A.ld, A.stride, C.base(), C.ld, C.stride,
                                           info.base(), c.batch));
    } else {
        auto pa = A.cptrs();
        auto pc = C.ptrs();
        KT_CHECK_STATUS(kb::matinv_batched(c.layout, n, pa.data(), A.ld, pc.data(), C.ld, info.base(), c.batch));
    }
    A.check_unchanged(a0, "A (an input)");
    C.check_padding("C");
    info.check_padding("info");
    for (kobalt_int i = 0; i < c.batch; i++) {
        const Kind k = kinds[(size_t)i];
        if (k == kNaN) continue;
        KT_CHECK(info.at(i, 0) == want[(size_t)i], "item %ld (%s): info %d, LAPACK %d", (long)i, kind_name(k),
                 info.at(i, 0), want[(size_t)i]);
        if (want[(size_t)i] != 0) {
            bool same = true;
            for (kobalt_int q = 0; q < n; q++)
                for (kobalt_int p = 0; p < n; p++) same = same && same_bits(C.at(i, p, q), c0[C.pos(i, p, q)]);
            KT_CHECK(same, "item %ld: singular (info %d) but C was written", (long)i, want[(size_t)i]);
            continue;
        }
        const double r = inverse_residual(to_dense(A, i), to_dense(C, i), eps<T>());
        KT_CHECK(r < kThreshold, "item %ld: ||A C - I|| scaled residual %g", (long)i, r);
    }
}

template <class T> void matinv_case(const Case &c, Rng &rng, const std::vector<Kind> &kinds)
{
    set_case("%smatinv_%s %s n=%ld batch=%ld ldx=%ld/%ld stridex=%ld/%ld", type_name<T>(), form_name(c.form),
             layout_name(c.layout), (long)c.n, (long)c.batch, (long)c.lda_x, (long)c.ldc_x, (long)c.sa_x,
             (long)c.sc_x);
    MatBatch<T> A(c.layout, c.n, c.n, c.batch, c.lda_x, c.sa_x, false, c.form == Form::Batched);
    A.fill_random(rng);
    run_matinv(c, A, kinds);
}

template <class T> void matinv_sweep(void **)
{
    Rng rng(64);
    int idx = 0;
    for (kobalt_int s : sizes())
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms) {
                Case c;
                c.layout = l; c.form = f; c.n = s; c.batch = s <= 33 ? 3 : 2;
                c.lda_x = idx % 3; c.ldc_x = (idx + 1) % 2; c.sa_x = idx % 2 ? 5 : 0; c.sc_x = (idx / 2) % 2 ? 3 : 0;
                matinv_case<T>(c, rng, std::vector<Kind>((size_t)c.batch, kRandom));
                idx++;
            }
    finish();
}

template <class T> void matinv_singular(void **)
{
    Rng rng(65);
    static const kobalt_int sizes[] = {1, 2, 3, 5, 8, 9, 16, 17, 32, 33, 64, 100};
    const std::vector<Kind> kinds = {kRandom, kSingularFirst, kNaN, kSingularMid, kRandom, kSingularLast};
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms) {
                Case c;
                c.layout = l; c.form = f; c.n = s; c.batch = (kobalt_int)kinds.size(); c.ldc_x = 1; c.sc_x = 2;
                matinv_case<T>(c, rng, kinds);
            }
    finish();
}

template <class T> void matinv_batches(void **)
{
    Rng rng(66);
    static const kobalt_int sizes[] = {1, 3, 4, 8};
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms) {
                Case c;
                c.layout = l; c.form = f; c.n = s; c.batch = 4099;
                matinv_case<T>(c, rng, std::vector<Kind>((size_t)c.batch, kRandom));
            }
    set_case("%smatinv batch 0 with NULL pointers", type_name<T>());
    KT_CHECK_STATUS(kb::matinv_strided(KOBALT_COL_MAJOR, 4, (const T *)nullptr, 4, 16, (T *)nullptr, 4, 16, nullptr, 0));
    KT_CHECK_STATUS(kb::matinv_batched(KOBALT_ROW_MAJOR, 4, (const T *const *)nullptr, 4, (T *const *)nullptr, 4,
                                       nullptr, 0));
    set_case("%smatinv n = 0 sets info to 0", type_name<T>());
    IntBatch info(1, 3);
    KT_CHECK_STATUS(kb::matinv_batched(KOBALT_COL_MAJOR, 0, (const T *const *)nullptr, 1, (T *const *)nullptr, 1,
                                       info.base(), 3));
    for (int i = 0; i < 3; i++) KT_CHECK(info.at(i, 0) == 0, "info[%d] = %d after n = 0", i, info.at(i, 0));
    finish();
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(getri_sweep<double>),     cmocka_unit_test(getri_sweep<float>),
        cmocka_unit_test(getri_singular<double>),  cmocka_unit_test(getri_singular<float>),
        cmocka_unit_test(getri_batches<double>),   cmocka_unit_test(getri_batches<float>),
        cmocka_unit_test(matinv_sweep<double>),    cmocka_unit_test(matinv_sweep<float>),
        cmocka_unit_test(matinv_singular<double>), cmocka_unit_test(matinv_singular<float>),
        cmocka_unit_test(matinv_batches<double>),  cmocka_unit_test(matinv_batches<float>),
    };
    return cmocka_run_group_tests_name("getri and matinv", tests, NULL, NULL);
}
