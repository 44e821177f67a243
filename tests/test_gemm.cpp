/*
 * test_gemm.cpp -- correctness of kobalt_{s,d}gemm_{strided,batched} against
 * cblas_?gemm per item: C_i = alpha op(A_i) op(B_i) + beta C_i.
 *
 * Check: |C - Cref| <= 30 (k+2) eps (|alpha| |op(A)||op(B)| + |beta| |C0|) element-wise,
 * inputs unchanged, padding of C untouched, C poisoned with NaN when beta == 0.
 */
#include "common/kt_test.hpp"

using namespace kt;

namespace {

template <class T> struct GemmCase {
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_op ta = KOBALT_NO_TRANS, tb = KOBALT_NO_TRANS;
    kobalt_int m = 1, n = 1, k = 1;
    T alpha = 1, beta = 0;
    kobalt_int batch = 1;
    Form form = Form::Strided;
    kobalt_int lda_x = 0, ldb_x = 0, ldc_x = 0; /* extra leading dimension */
    kobalt_int sa_x = 0, sb_x = 0, sc_x = 0;    /* extra stride */
    bool shared_a = false, shared_b = false;    /* stride 0 inputs */
};

template <class T> void run_gemm(const GemmCase<T> &c, Rng &rng)
{
    set_case("%sgemm_%s %s ta=%s tb=%s m=%ld n=%ld k=%ld alpha=%g beta=%g batch=%ld ldx=%ld,%ld,%ld "
             "stridex=%ld,%ld,%ld shared=%d,%d",
             type_name<T>(), form_name(c.form), layout_name(c.layout), op_name(c.ta), op_name(c.tb),
             (long)c.m, (long)c.n, (long)c.k, (double)c.alpha, (double)c.beta, (long)c.batch,
             (long)c.lda_x, (long)c.ldb_x, (long)c.ldc_x, (long)c.sa_x, (long)c.sb_x, (long)c.sc_x,
             c.shared_a, c.shared_b);
    const bool rev = c.form == Form::Batched;
    const bool na = c.ta == KOBALT_NO_TRANS, nb = c.tb == KOBALT_NO_TRANS;
    MatBatch<T> A(c.layout, na ? c.m : c.k, na ? c.k : c.m, c.batch, c.lda_x, c.sa_x, c.shared_a, rev);
    MatBatch<T> B(c.layout, nb ? c.k : c.n, nb ? c.n : c.k, c.batch, c.ldb_x, c.sb_x, c.shared_b, rev);
    MatBatch<T> C(c.layout, c.m, c.n, c.batch, c.ldc_x, c.sc_x, false, rev);
    A.fill_random(rng);
    B.fill_random(rng);
    if (c.beta == T(0)) C.fill_value(poison<T>()); /* must not be read */
    else C.fill_random(rng);
    const std::vector<T> a0 = A.buf, b0 = B.buf;
    const MatBatch<T> C0 = C;
    MatBatch<T> R = C;
    for (kobalt_int i = 0; i < c.batch; i++)
        ref::gemm(c.layout, c.ta, c.tb, (int)c.m, (int)c.n, (int)c.k, c.alpha, A.item(i), (int)A.ld,
                  B.item(i), (int)B.ld, c.beta, R.item(i), (int)R.ld);

    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::gemm_strided(c.layout, c.ta, c.tb, c.m, c.n, c.k, c.alpha, A.base(), A.ld,
                                         A.stride, B.base(), B.ld, B.stride, c.beta, C.base(), C.ld,
                                         C.stride, c.batch));
    } else {
        auto pa = A.cptrs(), pb = B.cptrs();
        auto pc = C.ptrs();
        KT_CHECK_STATUS(kb::gemm_batched(c.layout, c.ta, c.tb, c.m, c.n, c.k, c.alpha, pa.data(), A.ld,
                                         pb.data(), B.ld, c.beta, pc.data(), C.ld, c.batch));
    }
    A.check_unchanged(a0, "A");
    B.check_unchanged(b0, "B");
    C.check_padding("C");

    const double e = eps<T>();
    for (kobalt_int i = 0; i < c.batch; i++) {
        Dense bound(c.m, c.n);
        if (c.alpha != T(0) && c.k > 0)
            bound = mul(abs(op(to_dense(A, i), c.ta)), abs(op(to_dense(B, i), c.tb)));
        double worst = 0;
        long bad = 0;
        kobalt_int wr = 0, wc = 0;
        for (kobalt_int q = 0; q < c.n; q++)
            for (kobalt_int p = 0; p < c.m; p++) {
                double b = std::fabs((double)c.alpha) * bound(p, q);
                if (c.beta != T(0)) b += std::fabs((double)c.beta) * std::fabs((double)C0.at(i, p, q));
                double got = C.at(i, p, q), want = R.at(i, p, q);
                double diff = std::fabs(got - want);
                double ratio = diff == 0.0 ? 0.0 : diff / ((double)(c.k + 2) * e * b);
                if (!(ratio <= kThreshold)) {
                    if (!bad || !(ratio <= worst)) { worst = ratio; wr = p; wc = q; }
                    bad++;
                }
            }
        KT_CHECK(bad == 0, "item %ld: %ld wrong element(s); worst C(%ld,%ld) = %.9g, reference %.9g "
                 "(scaled error %g)", (long)i, bad, (long)wr, (long)wc, (double)C.at(i, wr, wc),
                 (double)R.at(i, wr, wc), worst);
    }
}

const double kAlphaBeta[][2] = {{1, 0}, {-0.5, 1.5}, {1, 1}, {2, -1}, {0, 0.5}, {0.75, 0}};

/* Every size, square, every layout/transpose/form; ld and stride padding rotate. */
template <class T> void sweep_square(void **)
{
    Rng rng(1);
    int idx = 0;
    for (kobalt_int s : sizes())
        for (kobalt_layout l : kLayouts)
            for (kobalt_op ta : kOps)
                for (kobalt_op tb : kOps)
                    for (Form f : kForms) {
                        GemmCase<T> c;
                        c.layout = l; c.ta = ta; c.tb = tb; c.form = f;
                        c.m = c.n = c.k = s;
                        c.alpha = (T)kAlphaBeta[idx % 6][0];
                        c.beta = (T)kAlphaBeta[idx % 6][1];
                        c.batch = s <= 33 ? 3 : 2;
                        c.lda_x = idx % 3; c.ldb_x = (idx / 3) % 2; c.ldc_x = (idx + 1) % 3;
                        c.sa_x = idx % 2 ? 5 : 0; c.sb_x = idx % 4 ? 0 : 3; c.sc_x = (idx + 1) % 2 ? 2 : 0;
                        run_gemm(c, rng);
                        idx++;
                    }
    finish();
}

template <class T> void sweep_nonsquare(void **)
{
    static const kobalt_int shapes[][3] = {
        {1, 2, 3},  {3, 1, 2},   {2, 3, 1},   {5, 7, 3},   {7, 5, 9},   {17, 4, 31}, {4, 33, 16},
        {64, 9, 17}, {9, 100, 8}, {33, 65, 7}, {100, 31, 64}, {0, 3, 4}, {3, 0, 4},  {3, 4, 0},
        {0, 0, 0},  {1, 1, 200}, {200, 3, 5}, {16, 15, 17}, {8, 9, 7},  {32, 31, 33}};
    Rng rng(2);
    int idx = 0;
    for (auto &sh : shapes)
        for (kobalt_layout l : kLayouts)
            for (kobalt_op ta : kOps)
                for (kobalt_op tb : kOps)
                    for (Form f : kForms) {
                        GemmCase<T> c;
                        c.layout = l; c.ta = ta; c.tb = tb; c.form = f;
                        c.m = sh[0]; c.n = sh[1]; c.k = sh[2];
                        c.alpha = (T)kAlphaBeta[idx % 6][0];
                        c.beta = (T)kAlphaBeta[idx % 6][1];
                        c.batch = 3;
                        c.lda_x = (idx / 2) % 2 ? 2 : 0; c.ldc_x = idx % 2;
                        c.sc_x = idx % 3;
                        run_gemm(c, rng);
                        idx++;
                    }
    finish();
}

/* Every square order 2 ... 32, where the host backend has a kernel per order (one vector a
 * column up to the widest vector, two up to twice that: double 9 ... 16 and float 17 ... 32
 * with AVX-512), sizes() samples them: items packed (ld = n, the constant-offset copy) and
 * padded, op(B) both ways, a plain product (alpha = 1, C not read) and the general
 * epilogue, each of these in both layouts, the forms alternating. */
template <class T> void square_orders(void **)
{
    Rng rng(7);
    int idx = 0;
    for (kobalt_int s = 2; s <= 32; s++)
        for (kobalt_layout l : kLayouts)
            for (kobalt_op tb : {KOBALT_NO_TRANS, KOBALT_TRANS})
                for (int padded = 0; padded < 2; padded++)
                    for (int plain = 0; plain < 2; plain++) {
                        /* The form rotates with idx / 3 so that it does not follow any loop
                         * above (every loop has two values). */
                        GemmCase<T> c;
                        c.layout = l;
                        c.form = kForms[(idx / 3) % 2];
                        c.tb = tb;
                        c.m = c.n = c.k = s;
                        c.alpha = plain ? (T)1 : (T)-0.5;
                        c.beta = plain ? (T)0 : (T)1.5;
                        c.batch = 5;
                        c.lda_x = c.ldb_x = c.ldc_x = padded ? 1 + idx % 3 : 0;
                        c.sc_x = padded;
                        run_gemm(c, rng);
                        idx++;
                    }
    finish();
}

/* Leading dimensions and strides well above the minimum, and stride-0 (shared) inputs. */
template <class T> void padding_and_shared(void **)
{
    Rng rng(3);
    static const kobalt_int sizes[] = {1, 3, 8, 9, 17, 33, 64};
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int variant = 0; variant < 5; variant++) {
                    GemmCase<T> c;
                    c.layout = l; c.form = f;
                    c.ta = variant & 1 ? KOBALT_TRANS : KOBALT_NO_TRANS;
                    c.tb = variant & 2 ? KOBALT_TRANS : KOBALT_NO_TRANS;
                    c.m = s; c.n = s + 1; c.k = s + 2;
                    c.alpha = (T)1.25; c.beta = variant % 2 ? (T)0 : (T)-0.5;
                    c.batch = 4;
                    c.lda_x = 7; c.ldb_x = 3; c.ldc_x = 5;
                    c.sa_x = 11; c.sb_x = 1; c.sc_x = 13;
                    c.shared_a = variant == 1 || variant == 3 || variant == 4;
                    c.shared_b = variant == 2 || variant == 3;
                    run_gemm(c, rng);
                }
    finish();
}

/* Batch 1, 3 and a few thousand at small sizes; batch 0 touches nothing, NULL pointers too. */
template <class T> void batch_counts(void **)
{
    Rng rng(4);
    for_each_batch_case([&](kobalt_int s, kobalt_int nb, kobalt_layout l, Form f, int idx) {
        GemmCase<T> c;
        c.layout = l; c.form = f; c.m = s; c.n = s; c.k = s; c.batch = nb;
        c.ta = idx % 2 ? KOBALT_TRANS : KOBALT_NO_TRANS;
        c.tb = idx % 3 ? KOBALT_NO_TRANS : KOBALT_TRANS;
        c.alpha = (T)kAlphaBeta[idx % 6][0];
        c.beta = (T)kAlphaBeta[idx % 6][1];
        c.sc_x = idx % 2;
        c.shared_b = idx % 5 == 0;
        run_gemm(c, rng);
    });

    set_case("%sgemm batch 0 with NULL pointers", type_name<T>());
    KT_CHECK_STATUS(kb::gemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 4, 4, 4, (T)1,
                                     (const T *)nullptr, 4, 16, (const T *)nullptr, 4, 16, (T)0,
                                     (T *)nullptr, 4, 16, 0));
    KT_CHECK_STATUS(kb::gemm_batched(KOBALT_ROW_MAJOR, KOBALT_TRANS, KOBALT_NO_TRANS, 4, 4, 4, (T)1,
                                     (const T *const *)nullptr, 4, (const T *const *)nullptr, 4, (T)0,
                                     (T *const *)nullptr, 4, 0));
    for (Form f : kForms) {
        set_case("%sgemm_%s batch 0 with buffers touches nothing", type_name<T>(), form_name(f));
        MatBatch<T> A(KOBALT_COL_MAJOR, 3, 3, 1), B(KOBALT_COL_MAJOR, 3, 3, 1), C(KOBALT_COL_MAJOR, 3, 3, 1);
        A.fill_random(rng); B.fill_random(rng); C.fill_random(rng);
        const std::vector<T> c0 = C.buf;
        if (f == Form::Strided) {
            KT_CHECK_STATUS(kb::gemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 3, 3, 3, (T)1,
                                             A.base(), 3, 9, B.base(), 3, 9, (T)0, C.base(), 3, 9, 0));
        } else {
            auto pa = A.cptrs(), pb = B.cptrs();
            auto pc = C.ptrs();
            KT_CHECK_STATUS(kb::gemm_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 3, 3, 3, (T)1,
                                             pa.data(), 3, pb.data(), 3, (T)0, pc.data(), 3, 0));
        }
        C.check_unchanged(c0, "C");
    }
    finish();
}

/* Item offsets beyond 2^31 elements: batch 3 of 2x2 items, every stride 2^31+7,
 * in a sparse mapping (only the touched pages are backed). */
template <class T> void huge_stride(void **)
{
    const kobalt_int S = kHugeStride, nb = 3, n = 2;
    const size_t count = (size_t)((nb - 1) * S + n * n + 8);
    SparseMap<T> A(count), B(count), C(count);
    if (!A.ok() || !B.ok() || !C.ok()) skip();
    for (kobalt_layout l : kLayouts) {
        set_case("%sgemm_strided %s 2x2x2 batch 3 strides 2^31+7", type_name<T>(), layout_name(l));
        Rng rng(5);
        for (kobalt_int i = 0; i < nb; i++)
            for (int e = 0; e < n * n + 8; e++) {
                A.p[i * S + e] = (T)rng.uniform();
                B.p[i * S + e] = (T)rng.uniform();
                C.p[i * S + e] = e < n * n ? (T)rng.uniform() : poison<T>();
            }
        T want[3][4];
        for (kobalt_int i = 0; i < nb; i++) {
            std::copy(C.p + i * S, C.p + i * S + 4, want[i]);
            ref::gemm(l, KOBALT_NO_TRANS, KOBALT_TRANS, 2, 2, 2, (T)0.5, A.p + i * S, 2, B.p + i * S, 2, (T)2,
                      want[i], 2);
        }
        KT_CHECK_STATUS(kb::gemm_strided(l, KOBALT_NO_TRANS, KOBALT_TRANS, 2, 2, 2, (T)0.5, A.p, 2, S, B.p, 2,
                                         S, (T)2, C.p, 2, S, nb));
        for (kobalt_int i = 0; i < nb; i++) {
            for (int e = 0; e < 4; e++)
                KT_CHECK(std::fabs((double)C.p[i * S + e] - (double)want[i][e]) <= 1e2 * eps<T>(),
                         "item %ld element %d: got %g want %g", (long)i, e, (double)C.p[i * S + e],
                         (double)want[i][e]);
            for (int e = 4; e < 12; e++)
                KT_CHECK(same_bits(C.p[i * S + e], poison<T>()), "item %ld: padding %d overwritten", (long)i, e);
        }
    }
    finish();
}

/* Items above the backend's "few large items" size (256): batch 1 and 2 items may run
 * one at a time through threaded OpenBLAS. */
template <class T> void large_items(void **)
{
    Rng rng(6);
    static const kobalt_int shapes[][3] = {{260, 260, 260}, {300, 7, 280}, {5, 300, 300}};
    int idx = 0;
    for (auto &sh : shapes)
        for (kobalt_int nb : {1, 2})
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    GemmCase<T> c;
                    c.layout = l; c.form = f; c.m = sh[0]; c.n = sh[1]; c.k = sh[2]; c.batch = nb;
                    c.ta = kOps[idx % 3]; c.tb = kOps[(idx / 3) % 3];
                    c.alpha = (T)kAlphaBeta[idx % 6][0]; c.beta = (T)kAlphaBeta[idx % 6][1];
                    c.ldc_x = idx % 2; c.sc_x = 3;
                    run_gemm(c, rng);
                    idx++;
                }
    finish();
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_square<double>),      cmocka_unit_test(sweep_square<float>),
        cmocka_unit_test(sweep_nonsquare<double>),   cmocka_unit_test(sweep_nonsquare<float>),
        cmocka_unit_test(padding_and_shared<double>), cmocka_unit_test(padding_and_shared<float>),
        cmocka_unit_test(square_orders<double>),     cmocka_unit_test(square_orders<float>),
        cmocka_unit_test(batch_counts<double>),      cmocka_unit_test(batch_counts<float>),
        cmocka_unit_test(huge_stride<double>),       cmocka_unit_test(huge_stride<float>),
        cmocka_unit_test(large_items<double>), cmocka_unit_test(large_items<float>),
    };
    return cmocka_run_group_tests_name("gemm", tests, NULL, NULL);
}
