/*
 * test_gemv.cpp -- correctness of kobalt_{s,d}gemv_{strided,batched} against
 * cblas_?gemv per item: y_i = alpha op(A_i) x_i + beta y_i, with positive and negative
 * increments (BLAS semantics).
 *
 * Check: |y - yref| <= 30 (len(x)+2) eps (|alpha| |op(A)||x| + |beta| |y0|) element-wise,
 * inputs unchanged, padding of y (including the gaps of |incy| > 1) untouched, y
 * poisoned with NaN when beta == 0.
 */
#include "common/kt_test.hpp"

using namespace kt;

namespace {

template <class T> struct GemvCase {
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_op trans = KOBALT_NO_TRANS;
    kobalt_int m = 1, n = 1;
    T alpha = 1, beta = 0;
    kobalt_int incx = 1, incy = 1;
    kobalt_int batch = 1;
    Form form = Form::Strided;
    kobalt_int lda_x = 0, sa_x = 0, sx_x = 0, sy_x = 0;
    bool shared_a = false, shared_x = false;
};

template <class T> void run_gemv(const GemvCase<T> &c, Rng &rng)
{
    set_case("%sgemv_%s %s trans=%s m=%ld n=%ld alpha=%g beta=%g incx=%ld incy=%ld batch=%ld ldx=%ld "
             "stridex=%ld,%ld,%ld shared=%d,%d",
             type_name<T>(), form_name(c.form), layout_name(c.layout), op_name(c.trans), (long)c.m,
             (long)c.n, (double)c.alpha, (double)c.beta, (long)c.incx, (long)c.incy, (long)c.batch,
             (long)c.lda_x, (long)c.sa_x, (long)c.sx_x, (long)c.sy_x, c.shared_a, c.shared_x);
    const bool rev = c.form == Form::Batched;
    const bool nt = c.trans == KOBALT_NO_TRANS;
    const kobalt_int lx = nt ? c.n : c.m, ly = nt ? c.m : c.n;
    MatBatch<T> A(c.layout, c.m, c.n, c.batch, c.lda_x, c.sa_x, c.shared_a, rev);
    VecBatch<T> x(lx, c.incx, c.batch, c.sx_x, c.shared_x, rev);
    VecBatch<T> y(ly, c.incy, c.batch, c.sy_x, false, rev);
    A.fill_random(rng);
    x.fill_random(rng);
    if (c.beta == T(0)) y.fill_value(poison<T>());
    else y.fill_random(rng);
    const std::vector<T> a0 = A.buf, x0 = x.buf;
    const VecBatch<T> y0 = y;
    VecBatch<T> r = y;
    for (kobalt_int i = 0; i < c.batch; i++)
        ref::gemv(c.layout, c.trans, (int)c.m, (int)c.n, c.alpha, A.item(i), (int)A.ld, x.item(i),
                  (int)c.incx, c.beta, r.item(i), (int)c.incy);

    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::gemv_strided(c.layout, c.trans, c.m, c.n, c.alpha, A.base(), A.ld, A.stride,
                                         x.base(), c.incx, x.stride, c.beta, y.base(), c.incy, y.stride,
                                         c.batch));
    } else {
        auto pa = A.cptrs(), px = x.cptrs();
        auto py = y.ptrs();
        KT_CHECK_STATUS(kb::gemv_batched(c.layout, c.trans, c.m, c.n, c.alpha, pa.data(), A.ld, px.data(),
                                         c.incx, c.beta, py.data(), c.incy, c.batch));
    }
    A.check_unchanged(a0, "A");
    x.check_unchanged(x0, "x");
    y.check_padding("y");

    const double e = eps<T>();
    for (kobalt_int i = 0; i < c.batch; i++) {
        Dense bound(ly, 1);
        if (c.alpha != T(0) && lx > 0) bound = mul(abs(op(to_dense(A, i), c.trans)), abs(to_dense(x, i)));
        long bad = 0;
        double worst = 0;
        kobalt_int wj = 0;
        for (kobalt_int j = 0; j < ly; j++) {
            double b = std::fabs((double)c.alpha) * bound(j, 0);
            if (c.beta != T(0)) b += std::fabs((double)c.beta) * std::fabs((double)y0.at(i, j));
            /* BLAS returns early for m == 0 or n == 0 and leaves y as it was (poison
             * included): identical bits match. */
            if (same_bits(y.at(i, j), r.at(i, j))) continue;
            double diff = std::fabs((double)y.at(i, j) - (double)r.at(i, j));
            double ratio = diff == 0.0 ? 0.0 : diff / ((double)(lx + 2) * e * b);
            if (!(ratio <= kThreshold)) {
                if (!bad || !(ratio <= worst)) { worst = ratio; wj = j; }
                bad++;
            }
        }
        KT_CHECK(bad == 0, "item %ld: %ld wrong element(s); worst y(%ld) = %.9g, reference %.9g (scaled "
                 "error %g)", (long)i, bad, (long)wj, (double)y.at(i, wj), (double)r.at(i, wj), worst);
    }
}

const double kAlphaBeta[][2] = {{1, 0}, {-0.5, 1.5}, {1, 1}, {2, -1}, {0, 0.5}, {0.75, 0}};
const kobalt_int kIncs[][2] = {{1, 1}, {2, 1}, {1, 3}, {-1, 1}, {1, -1}, {-2, -3}, {3, 2}};

template <class T> void sweep_square(void **)
{
    Rng rng(11);
    int idx = 0;
    for (kobalt_int s : sizes())
        for (kobalt_layout l : kLayouts)
            for (kobalt_op t : kOps)
                for (Form f : kForms)
                    for (int v = 0; v < 2; v++) {
                        GemvCase<T> c;
                        c.layout = l; c.trans = t; c.form = f; c.m = c.n = s;
                        c.alpha = (T)kAlphaBeta[idx % 6][0];
                        c.beta = (T)kAlphaBeta[idx % 6][1];
                        c.incx = kIncs[idx % 7][0]; c.incy = kIncs[idx % 7][1];
                        c.batch = s <= 33 ? 3 : 2;
                        c.lda_x = idx % 3; c.sa_x = idx % 2 ? 3 : 0; c.sx_x = idx % 4; c.sy_x = (idx + 1) % 3;
                        run_gemv(c, rng);
                        idx++;
                    }
    finish();
}

template <class T> void sweep_nonsquare(void **)
{
    static const kobalt_int shapes[][2] = {{1, 2},  {2, 1},   {3, 7},   {7, 3},    {5, 17}, {17, 5},
                                           {16, 9}, {9, 16},  {33, 8},  {8, 33},   {64, 3}, {3, 64},
                                           {100, 31}, {31, 100}, {200, 17}, {1, 200}, {0, 5}, {5, 0}};
    Rng rng(12);
    int idx = 0;
    for (auto &sh : shapes)
        for (kobalt_layout l : kLayouts)
            for (kobalt_op t : kOps)
                for (Form f : kForms)
                    for (int v = 0; v < 3; v++) {
                        GemvCase<T> c;
                        c.layout = l; c.trans = t; c.form = f; c.m = sh[0]; c.n = sh[1];
                        c.alpha = (T)kAlphaBeta[idx % 6][0];
                        c.beta = (T)kAlphaBeta[idx % 6][1];
                        c.incx = kIncs[idx % 7][0]; c.incy = kIncs[idx % 7][1];
                        c.batch = 3;
                        c.lda_x = idx % 2 ? 4 : 0; c.sy_x = idx % 3;
                        run_gemv(c, rng);
                        idx++;
                    }
    finish();
}

/* The compile-time-n kernels (GEMV_FIXED_MAX, unit increments, max(m,n) <= 16):
 * every m, n = 0..17 (square and m != n, so the fixed dimension meets both a fixed and
 * a run-time other dimension), every layout/trans/form with incx = incy = 1, and again
 * with incx = 2 or incy = -1, which must take the other paths. The ctest variants run
 * this with the fixed kernels on (default, _small) and off (_nofixed, _vendor). */
template <class T> void fixed_sizes(void **)
{
    Rng rng(15);
    int idx = 0;
    for (kobalt_int m = 0; m <= 17; m++)
        for (kobalt_int dn : {0, 1, 5})
            for (kobalt_layout l : kLayouts)
                for (kobalt_op t : kOps)
                    for (Form f : kForms)
                        for (int v = 0; v < 2; v++) {
                        const kobalt_int n = dn == 0 ? m : (m + dn) % 18;
                        GemvCase<T> c;
                        c.layout = l; c.trans = t; c.form = f; c.m = m; c.n = n;
                        c.alpha = (T)kAlphaBeta[idx % 6][0];
                        c.beta = (T)kAlphaBeta[(idx / 6) % 6][1];
                        c.incx = v == 0 ? 1 : idx % 2 ? 2 : 1;  // v = 1: one increment != 1
                        c.incy = v == 0 ? 1 : idx % 2 ? 1 : -1;
                        c.batch = 3;
                        c.lda_x = idx % 3; c.sa_x = idx % 2 ? 3 : 0; c.sy_x = idx % 4;
                        run_gemv(c, rng);
                        idx++;
                    }
    finish();
}

template <class T> void padding_and_shared(void **)
{
    Rng rng(13);
    static const kobalt_int sizes[] = {1, 3, 8, 9, 17, 33, 64};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int variant = 0; variant < 4; variant++) {
                    GemvCase<T> c;
                    c.layout = l; c.form = f; c.m = s + 1; c.n = s;
                    c.trans = variant & 1 ? KOBALT_TRANS : KOBALT_NO_TRANS;
                    c.alpha = (T)-1.5; c.beta = variant == 2 ? (T)0 : (T)0.5;
                    c.incx = kIncs[idx % 7][0]; c.incy = kIncs[idx % 7][1];
                    c.batch = 4;
                    c.lda_x = 9; c.sa_x = 7; c.sx_x = 5; c.sy_x = 11;
                    c.shared_a = variant == 1 || variant == 3;
                    c.shared_x = variant >= 2;
                    run_gemv(c, rng);
                    idx++;
                }
    finish();
}

template <class T> void batch_counts(void **)
{
    Rng rng(14);
    for_each_batch_case([&](kobalt_int s, kobalt_int nb, kobalt_layout l, Form f, int idx) {
        GemvCase<T> c;
        c.layout = l; c.form = f; c.m = s; c.n = s; c.batch = nb;
        c.trans = idx % 2 ? KOBALT_TRANS : KOBALT_NO_TRANS;
        c.alpha = (T)kAlphaBeta[idx % 6][0];
        c.beta = (T)kAlphaBeta[idx % 6][1];
        c.incx = kIncs[idx % 7][0]; c.incy = kIncs[idx % 7][1];
        c.sy_x = idx % 2;
        c.shared_a = idx % 5 == 0;
        run_gemv(c, rng);
    });
    set_case("%sgemv batch 0 with NULL pointers", type_name<T>());
    KT_CHECK_STATUS(kb::gemv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, 4, 4, (T)1, (const T *)nullptr, 4, 16,
                                     (const T *)nullptr, 1, 4, (T)0, (T *)nullptr, 1, 4, 0));
    KT_CHECK_STATUS(kb::gemv_batched(KOBALT_ROW_MAJOR, KOBALT_TRANS, 4, 4, (T)1, (const T *const *)nullptr, 4,
                                     (const T *const *)nullptr, 1, (T)0, (T *const *)nullptr, 1, 0));
    for (Form f : kForms) {
        set_case("%sgemv_%s batch 0 with buffers touches nothing", type_name<T>(), form_name(f));
        MatBatch<T> A(KOBALT_COL_MAJOR, 3, 3, 1);
        VecBatch<T> x(3, 1, 1), y(3, 1, 1);
        A.fill_random(rng); x.fill_random(rng); y.fill_random(rng);
        const std::vector<T> y0 = y.buf;
        if (f == Form::Strided) {
            KT_CHECK_STATUS(kb::gemv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, 3, 3, (T)1, A.base(), 3, 9,
                                             x.base(), 1, 3, (T)0, y.base(), 1, 3, 0));
        } else {
            auto pa = A.cptrs(), px = x.cptrs();
            auto py = y.ptrs();
            KT_CHECK_STATUS(kb::gemv_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, 3, 3, (T)1, pa.data(), 3,
                                             px.data(), 1, (T)0, py.data(), 1, 0));
        }
        y.check_unchanged(y0, "y");
    }
    finish();
}

/* Items above the backend's "few large items" size (256), batch 1 and 2. */
template <class T> void large_items(void **)
{
    Rng rng(15);
    static const kobalt_int shapes[][2] = {{300, 300}, {400, 17}, {17, 400}};
    int idx = 0;
    for (auto &sh : shapes)
        for (kobalt_int nb : {1, 2})
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    GemvCase<T> c;
                    c.layout = l; c.form = f; c.m = sh[0]; c.n = sh[1]; c.batch = nb;
                    c.trans = kOps[idx % 3];
                    c.alpha = (T)kAlphaBeta[idx % 6][0]; c.beta = (T)kAlphaBeta[idx % 6][1];
                    c.incx = kIncs[idx % 7][0]; c.incy = kIncs[idx % 7][1];
                    run_gemv(c, rng);
                    idx++;
                }
    finish();
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_square<double>),       cmocka_unit_test(sweep_square<float>),
        cmocka_unit_test(sweep_nonsquare<double>),    cmocka_unit_test(sweep_nonsquare<float>),
        cmocka_unit_test(padding_and_shared<double>), cmocka_unit_test(padding_and_shared<float>),
        cmocka_unit_test(fixed_sizes<double>), cmocka_unit_test(fixed_sizes<float>),
        cmocka_unit_test(batch_counts<double>),       cmocka_unit_test(batch_counts<float>),
        cmocka_unit_test(large_items<double>), cmocka_unit_test(large_items<float>),
    };
    return cmocka_run_group_tests_name("gemv", tests, NULL, NULL);
}
