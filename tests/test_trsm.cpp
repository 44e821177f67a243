/*
 * test_trsm.cpp -- correctness of kobalt_{s,d}trsm_{strided,batched}:
 * B_i = alpha op(A_i)^{-1} B_i (left) or alpha B_i op(A_i)^{-1} (right).
 *
 * Check: per column, ||op(T) X - alpha B||_1 / (n eps ||op(T)||_1 ||X||_1) < 30 (left; the
 * transposed system for right) where T is the referenced triangle; the unreferenced
 * triangle (and a unit diagonal) hold NaN; alpha == 0 gives exactly zero; A unchanged,
 * padding of B untouched; cblas_?trsm's residual is printed on failure.
 */
#include <limits>
#include <utility>
#include <vector>

#include "common/kt_test.hpp"
#include "common/kt_triangular.hpp"

using namespace kt;

namespace {

const kobalt_uplo kUplos[] = {KOBALT_UPPER, KOBALT_LOWER};
const kobalt_diag kDiags[] = {KOBALT_NON_UNIT, KOBALT_UNIT};
const kobalt_side kSides[] = {KOBALT_LEFT, KOBALT_RIGHT};

template <class T> struct TrsmCase {
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_side side = KOBALT_LEFT;
    kobalt_uplo uplo = KOBALT_UPPER;
    kobalt_op trans = KOBALT_NO_TRANS;
    kobalt_diag diag = KOBALT_NON_UNIT;
    kobalt_int m = 1, n = 1, batch = 1;
    T alpha = 1;
    Form form = Form::Strided;
    kobalt_int lda_x = 0, ldb_x = 0, sa_x = 0, sb_x = 0;
    bool shared_a = false;
    bool nan_b = false; /* alpha == 0: B holds NaN, which must not reach the (zero) result */
};

template <class T> void run_trsm(const TrsmCase<T> &c, Rng &rng)
{
    set_case("%strsm_%s %s side=%s uplo=%s trans=%s diag=%s m=%ld n=%ld alpha=%g batch=%ld ldx=%ld,%ld "
             "stridex=%ld,%ld shared=%d",
             type_name<T>(), form_name(c.form), layout_name(c.layout), c.side == KOBALT_LEFT ? "L" : "R",
             c.uplo == KOBALT_UPPER ? "U" : "L", op_name(c.trans), c.diag == KOBALT_UNIT ? "U" : "N", (long)c.m,
             (long)c.n, (double)c.alpha, (long)c.batch, (long)c.lda_x, (long)c.ldb_x, (long)c.sa_x,
             (long)c.sb_x, c.shared_a);
    const bool rev = c.form == Form::Batched;
    const bool left = c.side == KOBALT_LEFT;
    const kobalt_int na = left ? c.m : c.n;
    MatBatch<T> A(c.layout, na, na, c.batch, c.lda_x, c.sa_x, c.shared_a, rev);
    MatBatch<T> B(c.layout, c.m, c.n, c.batch, c.ldb_x, c.sb_x, false, rev);
    fill_triangular(A, c.uplo, c.diag, rng);
    B.fill_random(rng);
    if (c.nan_b && c.alpha == T(0)) B.fill_value(std::numeric_limits<T>::quiet_NaN());
    const std::vector<T> a0 = A.buf;
    const MatBatch<T> B0 = B;

    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::trsm_strided(c.layout, c.side, c.uplo, c.trans, c.diag, c.m, c.n, c.alpha, A.base(),
                                         A.ld, A.stride, B.base(), B.ld, B.stride, c.batch));
    } else {
        auto pa = A.cptrs();
        auto pb = B.ptrs();
        KT_CHECK_STATUS(kb::trsm_batched(c.layout, c.side, c.uplo, c.trans, c.diag, c.m, c.n, c.alpha,
                                         pa.data(), A.ld, pb.data(), B.ld, c.batch));
    }
    A.check_unchanged(a0, "A");
    B.check_padding("B");
    for (kobalt_int i = 0; i < c.batch; i++) {
        Dense X = to_dense(B, i);
        if (c.alpha == T(0)) {
            KT_CHECK(norm_max(X) == 0.0, "item %ld: alpha == 0 must give B = 0, max |B| = %g", (long)i,
                     norm_max(X));
            continue;
        }
        Dense M = op(triangle(to_dense(A, i), c.uplo, c.diag), c.trans);
        Dense R = to_dense(B0, i);
        for (auto &v : R.a) v *= (double)c.alpha;
        if (!left) { M = transpose(M); X = transpose(X); R = transpose(R); }
        double res = solve_residual(M, X, R, eps<T>());
        if (!(res < kThreshold)) {
            MatBatch<T> ref = B0;
            ref::trsm(c.layout, c.side, c.uplo, c.trans, c.diag, (int)c.m, (int)c.n, c.alpha, A.item(i),
                      (int)A.ld, ref.item(i), (int)ref.ld);
            Dense Xr = to_dense(ref, i);
            if (!left) Xr = transpose(Xr);
            KT_CHECK(false, "item %ld: scaled residual %g (cblas reference: %g)", (long)i, res,
                     solve_residual(M, Xr, R, eps<T>()));
        }
    }
}

const double kAlphas[] = {1.0, -0.75, 2.0, 1.0, 0.0};

/* Every layout x side x uplo x trans x diag x form at each (m, n) of `shapes`, in that
 * nesting order (shapes outermost): fill(c, idx) gets the case with those and m, n set and
 * the running index, sets the rest and runs it (as test_trsv.cpp's for_each_case). */
template <class T, class Fill>
void for_each_case(const std::vector<std::pair<kobalt_int, kobalt_int>> &shapes, Fill fill)
{
    int idx = 0;
    for (auto &p : shapes)
        for (kobalt_layout l : kLayouts)
            for (kobalt_side sd : kSides)
                for (kobalt_uplo u : kUplos)
                    for (kobalt_op t : kOps)
                        for (kobalt_diag d : kDiags)
                            for (Form f : kForms) {
                                TrsmCase<T> c;
                                c.layout = l; c.side = sd; c.uplo = u; c.trans = t; c.diag = d; c.form = f;
                                c.m = p.first; c.n = p.second;
                                fill(c, idx++);
                            }
}

template <class T> void sweep_square(void **)
{
    Rng rng(31);
    std::vector<std::pair<kobalt_int, kobalt_int>> mn;
    for (kobalt_int s : sizes()) mn.push_back({s, s});
    for_each_case<T>(mn, [&](TrsmCase<T> &c, int idx) {
        const kobalt_int s = c.n;
        c.alpha = (T)kAlphas[idx % 5];
        c.batch = s <= 33 ? 3 : s <= 64 ? 2 : 1;
        c.lda_x = idx % 3; c.ldb_x = (idx / 3) % 2;
        c.sa_x = idx % 2 ? 4 : 0; c.sb_x = (idx / 2) % 3;
        run_trsm(c, rng);
    });
    finish();
}

template <class T> void sweep_nonsquare(void **)
{
    static const kobalt_int shapes[][2] = {{1, 5},  {5, 1},  {3, 17}, {17, 3}, {16, 33}, {33, 16},
                                           {64, 7}, {7, 64}, {100, 9}, {9, 100}, {0, 4}, {4, 0},
                                           // around TRSM_FIXED_MAX = 8 (the compile-time-n solve)
                                           {2, 7}, {7, 2}, {3, 8}, {8, 3}, {8, 9}, {9, 8}};
    Rng rng(32);
    std::vector<std::pair<kobalt_int, kobalt_int>> mn;
    for (auto &sh : shapes) mn.push_back({sh[0], sh[1]});
    for_each_case<T>(mn, [&](TrsmCase<T> &c, int idx) {
        c.alpha = (T)kAlphas[idx % 5];
        c.batch = 2;
        c.lda_x = idx % 2; c.ldb_x = idx % 3; c.sb_x = idx % 2 ? 3 : 0;
        run_trsm(c, rng);
    });
    finish();
}

template <class T> void padding_and_shared(void **)
{
    Rng rng(33);
    static const kobalt_int sizes[] = {1, 4, 9, 17, 33, 64};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (kobalt_side sd : kSides)
                for (Form f : kForms)
                    for (int shared = 0; shared < 2; shared++) {
                        TrsmCase<T> c;
                        c.layout = l; c.side = sd; c.form = f; c.m = s; c.n = s + 2; c.batch = 4;
                        c.uplo = kUplos[idx % 2]; c.trans = kOps[idx % 3]; c.diag = kDiags[(idx / 2) % 2];
                        c.alpha = (T)0.5;
                        c.lda_x = 5; c.ldb_x = 3; c.sa_x = 9; c.sb_x = 17; c.shared_a = shared;
                        run_trsm(c, rng);
                        idx++;
                    }
    finish();
}

template <class T> void batch_counts(void **)
{
    Rng rng(34);
    for_each_batch_case([&](kobalt_int s, kobalt_int nb, kobalt_layout l, Form f, int idx) {
        TrsmCase<T> c;
        c.layout = l; c.form = f; c.m = s; c.n = (s % 3) + 1; c.batch = nb;
        c.side = kSides[idx % 2]; c.uplo = kUplos[(idx / 2) % 2]; c.trans = kOps[idx % 3];
        c.diag = kDiags[(idx / 3) % 2]; c.alpha = (T)kAlphas[idx % 4];
        c.shared_a = idx % 5 == 0;
        run_trsm(c, rng);
    });
    set_case("%strsm batch 0 with NULL pointers", type_name<T>());
    KT_CHECK_STATUS(kb::trsm_strided(KOBALT_COL_MAJOR, KOBALT_LEFT, KOBALT_UPPER, KOBALT_NO_TRANS, KOBALT_NON_UNIT,
                                     4, 4, (T)1, (const T *)nullptr, 4, 16, (T *)nullptr, 4, 16, 0));
    KT_CHECK_STATUS(kb::trsm_batched(KOBALT_ROW_MAJOR, KOBALT_RIGHT, KOBALT_LOWER, KOBALT_TRANS, KOBALT_UNIT, 4,
                                     4, (T)1, (const T *const *)nullptr, 4, (T *const *)nullptr, 4, 0));
    for (Form f : kForms) {
        set_case("%strsm_%s batch 0 with buffers touches nothing", type_name<T>(), form_name(f));
        MatBatch<T> A(KOBALT_COL_MAJOR, 3, 3, 1), B(KOBALT_COL_MAJOR, 3, 3, 1);
        fill_triangular(A, KOBALT_UPPER, KOBALT_NON_UNIT, rng);
        B.fill_random(rng);
        const std::vector<T> b0 = B.buf;
        if (f == Form::Strided) {
            KT_CHECK_STATUS(kb::trsm_strided(KOBALT_COL_MAJOR, KOBALT_LEFT, KOBALT_UPPER, KOBALT_NO_TRANS,
                                             KOBALT_NON_UNIT, 3, 3, (T)1, A.base(), 3, 9, B.base(), 3, 9, 0));
        } else {
            auto pa = A.cptrs();
            auto pb = B.ptrs();
            KT_CHECK_STATUS(kb::trsm_batched(KOBALT_COL_MAJOR, KOBALT_LEFT, KOBALT_UPPER, KOBALT_NO_TRANS,
                                             KOBALT_NON_UNIT, 3, 3, (T)1, pa.data(), 3, pb.data(), 3, 0));
        }
        B.check_unchanged(b0, "B");
    }
    finish();
}

/* The direct solve (TRSM_DIRECT_MAX, max(m, n) = 9..64, the kernel's limit): every side,
 * uplo, transpose, diag, layout and form (so both B storages: solved in place when the
 * reduced B has unit-stride rows, through a transposed local copy otherwise) at every square
 * n = 8..49, 52, 56, 63, 64 and 65 (above the limit: the old paths), rectangular m != n on
 * both sides of the threshold and of the kernel's column chunks, alpha 1 / other / 0 (B
 * NaN then: it must not be read), padded ld and item strides, shared A. The ctest variants
 * run it on (default, _small) and off (_vendor, _nodirect) and with the SSE2 copy
 * (_direct_base). */
template <class T> void direct_sizes(void **)
{
    Rng rng(36);
    static const double alphas[] = {1.0, -0.75, 0.0, 2.0, 1.0};
    static const kobalt_int shapes[][2] = {{9, 1},   {1, 9},   {9, 5},   {5, 9},   {13, 48}, {48, 13},
                                           {47, 2},  {2, 47},  {30, 31}, {31, 30}, {49, 3},  {3, 49},
                                           {16, 17}, {17, 16}, {64, 9},  {9, 64},  {65, 4},  {4, 65},
                                           {12, 20}, {20, 12}, {40, 33}, {33, 40}};
    std::vector<std::pair<kobalt_int, kobalt_int>> mn;
    for (kobalt_int s = 8; s <= 49; s++) mn.push_back({s, s});
    for (kobalt_int s : {52, 56, 63, 64}) mn.push_back({s, s});
    mn.push_back({65, 65});
    for (auto &sh : shapes) mn.push_back({sh[0], sh[1]});
    for_each_case<T>(mn, [&](TrsmCase<T> &c, int idx) {
        c.alpha = (T)alphas[idx % 5];
        c.nan_b = true;
        c.batch = idx % 4 == 0 ? 1 : 3;
        c.lda_x = idx % 3; c.ldb_x = (idx / 3) % 2;
        c.sa_x = idx % 2 ? 5 : 0; c.sb_x = (idx / 2) % 3;
        c.shared_a = idx % 7 == 3;
        run_trsm(c, rng);
    });
    finish();
}

/* The direct solve on batches of 0 (with buffers: nothing touched), 1, 3 and many items
 * (more than one per OpenMP thread, a thread's run of items reusing its local copy). */
template <class T> void direct_batches(void **)
{
    Rng rng(37);
    static const kobalt_int sizes[] = {9, 24, 48};
    static const kobalt_int batches[] = {1, 3, 1001};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_int nb : batches)
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    TrsmCase<T> c;
                    c.layout = l; c.form = f; c.m = s; c.n = s - idx % 3; c.batch = nb;
                    c.side = kSides[idx % 2]; c.uplo = kUplos[(idx / 2) % 2]; c.trans = kOps[idx % 3];
                    c.diag = kDiags[(idx / 3) % 2]; c.alpha = (T)kAlphas[idx % 5]; c.nan_b = true;
                    c.shared_a = idx % 5 == 0;
                    run_trsm(c, rng);
                    idx++;
                }
    for (Form f : kForms) {
        set_case("%strsm_%s n=40 batch 0 with buffers touches nothing", type_name<T>(), form_name(f));
        MatBatch<T> A(KOBALT_ROW_MAJOR, 40, 40, 1), B(KOBALT_ROW_MAJOR, 40, 40, 1);
        fill_triangular(A, KOBALT_LOWER, KOBALT_NON_UNIT, rng);
        B.fill_random(rng);
        const std::vector<T> b0 = B.buf;
        if (f == Form::Strided) {
            KT_CHECK_STATUS(kb::trsm_strided(KOBALT_ROW_MAJOR, KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS,
                                             KOBALT_NON_UNIT, 40, 40, (T)1, A.base(), 40, 1600, B.base(), 40,
                                             1600, 0));
        } else {
            auto pa = A.cptrs();
            auto pb = B.ptrs();
            KT_CHECK_STATUS(kb::trsm_batched(KOBALT_ROW_MAJOR, KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS,
                                             KOBALT_NON_UNIT, 40, 40, (T)1, pa.data(), 40, pb.data(), 40, 0));
        }
        B.check_unchanged(b0, "B");
    }
    finish();
}

/* Items above the backend's "few large items" size (256), batch 1 and 2. */
template <class T> void large_items(void **)
{
    Rng rng(35);
    static const kobalt_int shapes[][2] = {{300, 5}, {5, 300}};
    int idx = 0;
    for (auto &sh : shapes)
        for (kobalt_int nb : {1, 2})
            for (kobalt_layout l : kLayouts)
                for (kobalt_side sd : kSides)
                    for (Form f : kForms) {
                        TrsmCase<T> c;
                        c.layout = l; c.side = sd; c.form = f; c.m = sh[0]; c.n = sh[1]; c.batch = nb;
                        c.uplo = kUplos[idx % 2]; c.trans = kOps[idx % 3]; c.diag = kDiags[(idx / 3) % 2];
                        c.alpha = (T)kAlphas[idx % 4];
                        run_trsm(c, rng);
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
        cmocka_unit_test(batch_counts<double>),       cmocka_unit_test(batch_counts<float>),
        cmocka_unit_test(large_items<double>), cmocka_unit_test(large_items<float>),
        cmocka_unit_test(direct_sizes<double>), cmocka_unit_test(direct_sizes<float>),
        cmocka_unit_test(direct_batches<double>), cmocka_unit_test(direct_batches<float>),
    };
    return cmocka_run_group_tests_name("trsm", tests, NULL, NULL);
}
