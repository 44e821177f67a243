/*
 * test_trsv.cpp -- correctness of kobalt_{s,d}trsv_{strided,batched}:
 * x_i = op(A_i)^{-1} x_i for triangular A_i, positive and negative increments.
 *
 * Check: ||op(T) x - b||_1 / (n eps ||op(T)||_1 ||x||_1) < 30 where T is the referenced
 * triangle; the unreferenced triangle (and a unit diagonal) hold NaN, so reading them
 * fails; A unchanged, padding of x (and the gaps of |incx| > 1) untouched; cblas_?trsv
 * on the same item must agree to the same scaled measure.
 */
#include "common/kt_test.hpp"
#include "common/kt_triangular.hpp"

using namespace kt;

namespace {

const kobalt_uplo kUplos[] = {KOBALT_UPPER, KOBALT_LOWER};
const kobalt_diag kDiags[] = {KOBALT_NON_UNIT, KOBALT_UNIT};

struct TrsvCase {
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_uplo uplo = KOBALT_UPPER;
    kobalt_op trans = KOBALT_NO_TRANS;
    kobalt_diag diag = KOBALT_NON_UNIT;
    kobalt_int n = 1, incx = 1, batch = 1;
    Form form = Form::Strided;
    kobalt_int lda_x = 0, sa_x = 0, sx_x = 0;
    bool shared_a = false;
};

template <class T> void run_trsv(const TrsvCase &c, Rng &rng)
{
    set_case("%strsv_%s %s uplo=%s trans=%s diag=%s n=%ld incx=%ld batch=%ld ldx=%ld stridex=%ld,%ld "
             "shared=%d",
             type_name<T>(), form_name(c.form), layout_name(c.layout), c.uplo == KOBALT_UPPER ? "U" : "L",
             op_name(c.trans), c.diag == KOBALT_UNIT ? "U" : "N", (long)c.n, (long)c.incx, (long)c.batch,
             (long)c.lda_x, (long)c.sa_x, (long)c.sx_x, c.shared_a);
    const bool rev = c.form == Form::Batched;
    MatBatch<T> A(c.layout, c.n, c.n, c.batch, c.lda_x, c.sa_x, c.shared_a, rev);
    VecBatch<T> x(c.n, c.incx, c.batch, c.sx_x, false, rev);
    fill_triangular(A, c.uplo, c.diag, rng);
    x.fill_random(rng);
    const std::vector<T> a0 = A.buf;
    const VecBatch<T> b = x;
    VecBatch<T> r = x;
    for (kobalt_int i = 0; i < c.batch; i++)
        ref::trsv(c.layout, c.uplo, c.trans, c.diag, (int)c.n, A.item(i), (int)A.ld, r.item(i), (int)c.incx);

    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::trsv_strided(c.layout, c.uplo, c.trans, c.diag, c.n, A.base(), A.ld, A.stride,
                                         x.base(), c.incx, x.stride, c.batch));
    } else {
        auto pa = A.cptrs();
        auto px = x.ptrs();
        KT_CHECK_STATUS(kb::trsv_batched(c.layout, c.uplo, c.trans, c.diag, c.n, pa.data(), A.ld, px.data(),
                                         c.incx, c.batch));
    }
    A.check_unchanged(a0, "A");
    x.check_padding("x");
    for (kobalt_int i = 0; i < c.batch; i++) {
        Dense M = op(triangle(to_dense(A, i), c.uplo, c.diag), c.trans);
        double res = solve_residual(M, to_dense(x, i), to_dense(b, i), eps<T>());
        if (!(res < kThreshold)) {
            double res_ref = solve_residual(M, to_dense(r, i), to_dense(b, i), eps<T>());
            KT_CHECK(false, "item %ld: scaled residual %g (cblas reference: %g)", (long)i, res, res_ref);
        }
    }
}

const kobalt_int kIncs[] = {1, 2, -1, -3, 1, 5};

/* Every size x layout x uplo x op x diag x form, in that nesting order: fill(c, idx) completes
 * and runs case number idx (its layout, uplo, trans, diag, form and n already set). */
template <class Sizes, class Fill> void for_each_case(const Sizes &sizes, Fill fill)
{
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (kobalt_uplo u : kUplos)
                for (kobalt_op t : kOps)
                    for (kobalt_diag d : kDiags)
                        for (Form f : kForms) {
                            TrsvCase c;
                            c.layout = l; c.uplo = u; c.trans = t; c.diag = d; c.form = f; c.n = s;
                            fill(c, idx++);
                        }
}

template <class T> void sweep(void **)
{
    Rng rng(21);
    for_each_case(sizes(), [&](TrsvCase &c, int idx) {
        c.incx = kIncs[idx % 6];
        c.batch = c.n <= 33 ? 3 : 2;
        c.lda_x = idx % 3; c.sa_x = idx % 2 ? 4 : 0; c.sx_x = (idx / 2) % 3;
        run_trsv<T>(c, rng);
    });
    finish();
}

/* The compile-time-n solve (TRSV_FIXED_MAX, n <= 8, positive increments): n = 0..9,
 * every layout/uplo/trans/diag/form with incx = 1 and 2, and incx = -1 (other paths).
 * The ctest variants run this with the fixed kernels on (default, _small) and off
 * (_nofixed, _vendor). */
template <class T> void fixed_sizes(void **)
{
    Rng rng(25);
    int idx = 0;
    for (kobalt_int s = 0; s <= 9; s++)
        for (kobalt_int inc : {1, 2, -1})
            for (kobalt_layout l : kLayouts)
                for (kobalt_uplo u : kUplos)
                    for (kobalt_op t : kOps)
                        for (kobalt_diag d : kDiags)
                            for (Form f : kForms) {
                                TrsvCase c;
                                c.layout = l; c.uplo = u; c.trans = t; c.diag = d; c.form = f; c.n = s;
                                c.incx = inc; c.batch = 3;
                                c.lda_x = idx % 3; c.sa_x = idx % 2 ? 4 : 0; c.sx_x = (idx / 2) % 3;
                                run_trsv<T>(c, rng);
                                idx++;
                            }
    finish();
}

/* batch = 0 with real buffers, n x n items: nothing is written, in both forms. */
template <class T> void batch0_untouched(kobalt_layout layout, kobalt_uplo uplo, kobalt_int n, Rng &rng)
{
    for (Form f : kForms) {
        set_case("%strsv_%s n=%lld batch 0 with buffers touches nothing", type_name<T>(), form_name(f), (long long)n);
        MatBatch<T> A(layout, n, n, 1);
        VecBatch<T> x(n, 1, 1);
        fill_triangular(A, uplo, KOBALT_NON_UNIT, rng);
        x.fill_random(rng);
        const std::vector<T> x0 = x.buf;
        if (f == Form::Strided) {
            KT_CHECK_STATUS(kb::trsv_strided(layout, uplo, KOBALT_NO_TRANS, KOBALT_NON_UNIT, n, A.base(), n, n * n,
                                             x.base(), 1, n, 0));
        } else {
            auto pa = A.cptrs();
            auto px = x.ptrs();
            KT_CHECK_STATUS(kb::trsv_batched(layout, uplo, KOBALT_NO_TRANS, KOBALT_NON_UNIT, n, pa.data(), n,
                                             px.data(), 1, 0));
        }
        x.check_unchanged(x0, "x");
    }
}

/* The direct solve (TRSV_DIRECT_MAX, n = 9..256, positive increments; each item's triangle
 * prefetched first up to TRSV_PREFETCH_MAX = 64): on both sides of n = 9, of the prefetch
 * threshold, of the kernel limit 256 (257: the old paths), every n % 4 (blocks of four
 * columns or rows, the rest one by one), every layout/uplo/trans/diag/form (so each of the
 * four kernels, Unit and NonUnit), incx 1 and > 1 (and -2: the old paths), padded ld and
 * strides, shared A, batch 1 and more. Also both sides of branch hosttrsv's choices (24/31
 * for the row sweep, 32/33 for the in-place solve, 47/48 and 128/129 for the rank-1 column
 * sweep, 47/48 for the next-item prefetch). The ctest variants run it on (default; _small:
 * always prefetched, row sweep and in place at every n; _sweeps_swapped: column sweep and
 * next-item prefetch at every n, row dot products and the local copy everywhere;
 * _noprefetch: never prefetched; _direct_base: the SSE2 copy) and off (_vendor, _nodirect,
 * _nodirect_small). */
template <class T> void direct_sizes(void **)
{
    Rng rng(26);
    static const kobalt_int sizes[] = {9,  10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 23, 24,
                                       31, 32, 33, 34, 35, 40, 47, 48, 64, 65, 96, 127, 128,
                                       129, 130, 255, 256, 257};
    static const kobalt_int incs[] = {1, 3, 1, 2, -2};
    for_each_case(sizes, [&](TrsvCase &c, int idx) {
        c.incx = incs[idx % 5];
        c.batch = idx % 4 == 0 ? 1 : (c.n <= 64 ? 4 : 2);
        c.lda_x = idx % 3; c.sa_x = idx % 2 ? 5 : 0; c.sx_x = (idx / 2) % 3;
        c.shared_a = idx % 7 == 3;
        run_trsv<T>(c, rng);
    });
    finish();
}

/* The direct solve on batches of 1, 3 and many items (more than one per OpenMP thread,
 * a thread's run of items reusing its local vector), and batch 0 with buffers. */
template <class T> void direct_batches(void **)
{
    Rng rng(27);
    static const kobalt_int sizes[] = {9, 33, 100};
    static const kobalt_int batches[] = {1, 3, 1001};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_int nb : batches)
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    TrsvCase c;
                    c.layout = l; c.form = f; c.n = s; c.batch = nb;
                    c.uplo = kUplos[idx % 2]; c.trans = kOps[(idx / 2) % 3]; c.diag = kDiags[(idx / 3) % 2];
                    c.incx = idx % 3 == 2 ? 2 : 1; c.shared_a = idx % 5 == 0;
                    run_trsv<T>(c, rng);
                    idx++;
                }
    batch0_untouched<T>(KOBALT_ROW_MAJOR, KOBALT_LOWER, 40, rng);
    finish();
}

template <class T> void padding_and_shared(void **)
{
    Rng rng(22);
    static const kobalt_int sizes[] = {1, 4, 9, 17, 33, 64};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int shared = 0; shared < 2; shared++)
                    for (int v = 0; v < 2; v++) {
                        TrsvCase c;
                        c.layout = l; c.form = f; c.n = s; c.batch = 5;
                        c.uplo = kUplos[idx % 2]; c.trans = kOps[idx % 3]; c.diag = kDiags[(idx / 2) % 2];
                        c.incx = v ? -2 : 3;
                        c.lda_x = 6; c.sa_x = 13; c.sx_x = 7; c.shared_a = shared;
                        run_trsv<T>(c, rng);
                        idx++;
                    }
    finish();
}

template <class T> void batch_counts(void **)
{
    Rng rng(23);
    for_each_batch_case([&](kobalt_int s, kobalt_int nb, kobalt_layout l, Form f, int idx) {
        TrsvCase c;
        c.layout = l; c.form = f; c.n = s; c.batch = nb;
        c.uplo = kUplos[idx % 2]; c.trans = kOps[idx % 3]; c.diag = kDiags[(idx / 3) % 2];
        c.incx = kIncs[idx % 6]; c.shared_a = idx % 5 == 0;
        run_trsv<T>(c, rng);
    });
    set_case("%strsv batch 0 with NULL pointers", type_name<T>());
    KT_CHECK_STATUS(kb::trsv_strided(KOBALT_COL_MAJOR, KOBALT_UPPER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, 4,
                                     (const T *)nullptr, 4, 16, (T *)nullptr, 1, 4, 0));
    KT_CHECK_STATUS(kb::trsv_batched(KOBALT_ROW_MAJOR, KOBALT_LOWER, KOBALT_TRANS, KOBALT_UNIT, 4,
                                     (const T *const *)nullptr, 4, (T *const *)nullptr, 1, 0));
    batch0_untouched<T>(KOBALT_COL_MAJOR, KOBALT_UPPER, 3, rng);
    finish();
}

/* Items above the backend's "few large items" size (256), batch 1 and 2. */
template <class T> void large_items(void **)
{
    Rng rng(24);
    int idx = 0;
    for (kobalt_int nb : {1, 2})
        for (kobalt_layout l : kLayouts)
            for (kobalt_uplo u : kUplos)
                for (Form f : kForms) {
                    TrsvCase c;
                    c.layout = l; c.uplo = u; c.form = f; c.n = 300; c.batch = nb;
                    c.trans = kOps[idx % 3]; c.diag = kDiags[(idx / 3) % 2]; c.incx = kIncs[idx % 6];
                    run_trsv<T>(c, rng);
                    idx++;
                }
    finish();
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep<double>),              cmocka_unit_test(sweep<float>),
        cmocka_unit_test(padding_and_shared<double>), cmocka_unit_test(padding_and_shared<float>),
        cmocka_unit_test(fixed_sizes<double>),       cmocka_unit_test(fixed_sizes<float>),
        cmocka_unit_test(direct_sizes<double>),      cmocka_unit_test(direct_sizes<float>),
        cmocka_unit_test(direct_batches<double>),    cmocka_unit_test(direct_batches<float>),
        cmocka_unit_test(batch_counts<double>),       cmocka_unit_test(batch_counts<float>),
        cmocka_unit_test(large_items<double>), cmocka_unit_test(large_items<float>),
    };
    return cmocka_run_group_tests_name("trsv", tests, NULL, NULL);
}
