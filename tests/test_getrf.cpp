/*
 * test_getrf.cpp -- correctness of kobalt_{s,d}getrf_{strided,batched}: A_i = P_i L_i U_i
 * with LAPACK semantics (1-based ipiv, info[i] = LAPACK's info), ipiv == NULL meaning no
 * pivoting.
 *
 * Checks per item: info equal to LAPACKE_?getrf's, ipiv equal to LAPACKE_?getrf's,
 * ||P A - L U||_1 / (max(m,n) eps ||A||_1) < 30; padding of A, ipiv and info untouched.
 */
#include "common/kt_test.hpp"

using namespace kt;

namespace {

struct GetrfCase {
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_int m = 1, n = 1, batch = 1;
    Form form = Form::Strided;
    kobalt_int lda_x = 0, sa_x = 0, sp_x = 0;
    bool no_pivot = false;  /* ipiv == NULL */
    bool compare_pivots = true;
};

enum Special { kRandom, kZeroCol0, kZeroColMid, kZeroColLast, kZeroMatrix, kNaN, kDominant, kSubnormalCol0 };

/* Fill item i of A according to kind. */
template <class T> void fill_item(MatBatch<T> &A, kobalt_int i, Special kind, Rng &rng)
{
    const kobalt_int m = A.rows, n = A.cols, r = std::min(m, n);
    for (kobalt_int c = 0; c < n; c++)
        for (kobalt_int q = 0; q < m; q++) A.at(i, q, c) = (T)rng.uniform();
    kobalt_int zc = -1;
    switch (kind) {
    case kZeroCol0: zc = 0; break;
    case kZeroColMid: zc = r / 2; break;
    case kZeroColLast: zc = r - 1; break;
    case kZeroMatrix: A.fill_value(T(0)); break; /* note: all items; callers use it for batch 1 */
    case kNaN: if (m > 0 && n > 0) A.at(i, m / 2, n / 2) = std::numeric_limits<T>::quiet_NaN(); break;
    case kSubnormalCol0: /* the first pivot is subnormal: dgetf2 divides by it (1/p overflows) */
        for (kobalt_int q = 0; q < m && n > 0; q++)
            A.at(i, q, 0) = (T)(1 + q % 3) * std::numeric_limits<T>::denorm_min() * T(64);
        break;
    case kDominant:
        for (kobalt_int c = 0; c < r; c++) A.at(i, c, c) = (T)((c % 2 ? -1.0 : 1.0) * (double)(m + n + 1));
        break;
    default: break;
    }
    if (zc >= 0)
        for (kobalt_int q = 0; q < m; q++) A.at(i, q, zc) = T(0);
}

/* Runs one call on A (already filled); kinds[i] says what item i is. */
template <class T> void run_getrf(const GetrfCase &c, MatBatch<T> &A, const std::vector<Special> &kinds)
{
    const kobalt_int r = std::min(c.m, c.n);
    IntBatch ipiv(r, c.batch, c.sp_x);
    IntBatch info(1, c.batch);
    const MatBatch<T> A0 = A;

    /* reference: LAPACKE per item on a copy, same layout */
    MatBatch<T> R = A;
    std::vector<int> rinfo((size_t)c.batch, 0);
    std::vector<int> ripiv((size_t)(c.batch * std::max<kobalt_int>(r, 1)), 0);
    for (kobalt_int i = 0; i < c.batch; i++)
        if (kinds[(size_t)i] != kNaN && !c.no_pivot)
            rinfo[(size_t)i] = ref::getrf(c.layout, (int)c.m, (int)c.n, R.item(i), (int)R.ld,
                                          &ripiv[(size_t)(i * std::max<kobalt_int>(r, 1))]);

    int *pp = c.no_pivot ? nullptr : ipiv.base();
    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::getrf_strided(c.layout, c.m, c.n, A.base(), A.ld, A.stride, pp, ipiv.stride,
                                          info.base(), c.batch));
    } else {
        auto pa = A.ptrs();
        KT_CHECK_STATUS(kb::getrf_batched(c.layout, c.m, c.n, pa.data(), A.ld, pp, ipiv.stride, info.base(),
                                          c.batch));
    }
    A.check_padding("A");
    info.check_padding("info");
    if (c.no_pivot) ipiv.check_unchanged(IntBatch(r, c.batch, c.sp_x).buf, "ipiv (NULL was passed; unused)");
    else ipiv.check_padding("ipiv");

    for (kobalt_int i = 0; i < c.batch; i++) {
        const Special kind = kinds[(size_t)i];
        if (kind == kNaN) continue; /* only the other items are specified */
        const int got_info = info.at(i, 0);
        const int *gp = c.no_pivot ? nullptr : &ipiv.at(i, 0);
        if (c.no_pivot) {
            KT_CHECK(got_info == 0, "item %ld: info %d, expected 0 (diagonally dominant, no pivoting)", (long)i,
                     got_info);
        } else {
            KT_CHECK(got_info == rinfo[(size_t)i], "item %ld: info %d, LAPACK %d", (long)i, got_info,
                     rinfo[(size_t)i]);
            if (c.compare_pivots) {
                const int *rp = &ripiv[(size_t)(i * std::max<kobalt_int>(r, 1))];
                kobalt_int first = -1;
                for (kobalt_int j = 0; j < r && first < 0; j++)
                    if (gp[j] != rp[j]) first = j;
                KT_CHECK(first < 0, "item %ld: ipiv[%ld] = %d, LAPACK %d", (long)i, (long)first,
                         first < 0 ? 0 : gp[first], first < 0 ? 0 : rp[first]);
            } else {
                for (kobalt_int j = 0; j < r; j++)
                    KT_CHECK(gp[j] >= j + 1 && gp[j] <= c.m, "item %ld: ipiv[%ld] = %d out of range", (long)i,
                             (long)j, gp[j]);
            }
        }
        double res = lu_residual(to_dense(A0, i), to_dense(A, i), gp, eps<T>());
        KT_CHECK(res < kThreshold, "item %ld (%s): ||PA - LU|| scaled residual %g", (long)i,
                 kind == kRandom ? "random" : kind == kDominant ? "dominant" : kind == kSubnormalCol0 ? "subnormal column" : "singular", res);
    }
}

template <class T> void run_random(const GetrfCase &c, Rng &rng)
{
    set_case("%sgetrf_%s %s m=%ld n=%ld batch=%ld ldx=%ld stridex=%ld ipivstridex=%ld ipiv=%s",
             type_name<T>(), form_name(c.form), layout_name(c.layout), (long)c.m, (long)c.n, (long)c.batch,
             (long)c.lda_x, (long)c.sa_x, (long)c.sp_x, c.no_pivot ? "NULL" : "array");
    MatBatch<T> A(c.layout, c.m, c.n, c.batch, c.lda_x, c.sa_x, false, c.form == Form::Batched);
    std::vector<Special> kinds((size_t)c.batch, c.no_pivot ? kDominant : kRandom);
    for (kobalt_int i = 0; i < c.batch; i++) fill_item(A, i, kinds[(size_t)i], rng);
    run_getrf(c, A, kinds);
}

/* Pivot choices of the same random matrix can legitimately differ in single precision
 * at large sizes (near ties resolved by different rounding); there the residual decides. */
template <class T> bool strict_pivots(kobalt_int m, kobalt_int n)
{
    return sizeof(T) == 8 || std::max(m, n) <= 64;
}

template <class T> void sweep_square(void **)
{
    Rng rng(41);
    int idx = 0;
    for (kobalt_int s : sizes())
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int v = 0; v < 2; v++) {
                    GetrfCase c;
                    c.layout = l; c.form = f; c.m = c.n = s;
                    c.batch = s <= 33 ? 3 : 2;
                    c.lda_x = idx % 3; c.sa_x = (idx / 3) % 2 ? 5 : 0; c.sp_x = idx % 2 ? 3 : 0;
                    c.no_pivot = v == 1;
                    c.compare_pivots = strict_pivots<T>(c.m, c.n);
                    run_random<T>(c, rng);
                    idx++;
                }
    finish();
}

/* getrf without pivoting on both sides of GETRF_NP_SMALL_MAX (128 since session 7, 8 before; the
 * _vendor variant puts every n on the blocked CBLAS loop, _small every n on the small path):
 * square items take the unit-stride LU of lu_nopivot_unit.hpp on the small path. Every n % 4
 * near the threshold, both layouts and forms, padded ld and strides. */
template <class T> void nopivot_threshold(void **)
{
    static const kobalt_int sizes[] = {7, 8, 9, 10, 11, 12, 13, 20, 23, 40, 47, 48, 49, 50, 56, 127, 128, 129};
    Rng rng(43);
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms) {
                GetrfCase c;
                c.layout = l; c.form = f; c.m = c.n = s;
                c.batch = 3;
                c.lda_x = idx % 3; c.sa_x = (idx / 3) % 2 ? 5 : 0; c.sp_x = idx % 2 ? 3 : 0;
                c.no_pivot = true;
                c.compare_pivots = strict_pivots<T>(c.m, c.n);
                run_random<T>(c, rng);
                idx++;
            }
    finish();
}

/* getrf without pivoting on an item whose first pivot is subnormal, below 1 / max (its
 * reciprocal overflows): dgetf2 divides by such a pivot, so L's first column is exactly 2
 * (2p / p), where a multiplication by 1/p would give Inf. Sizes on every path by default
 * (fixed n <= 8, unit-stride LU up to GETRF_NP_SMALL_MAX, vendor above), both layouts. */
template <class T> void nopivot_subnormal_pivot(void **)
{
    static const kobalt_int sizes[] = {2, 4, 12, 40, 129};
    const T p = std::numeric_limits<T>::denorm_min() * T(16);
    for (kobalt_int n : sizes)
        for (kobalt_layout l : kLayouts) {
            set_case("%sgetrf_strided %s n=%ld no pivoting, subnormal first pivot", type_name<T>(), layout_name(l),
                     (long)n);
            MatBatch<T> A(l, n, n, 1, 0, 0, false, false);
            for (kobalt_int q = 0; q < n; q++)
                for (kobalt_int r = 0; r < n; r++) A.at(0, r, q) = r == q ? T(1) : T(0);
            A.at(0, 0, 0) = p;
            for (kobalt_int r = 1; r < n; r++) A.at(0, r, 0) = T(2) * p;
            IntBatch info(1, 1);
            KT_CHECK_STATUS(kb::getrf_strided(l, n, n, A.base(), A.ld, A.stride, (int *)nullptr, 0,
                                              info.base(), 1));
            KT_CHECK(info.at(0, 0) == 0, "info %d, expected 0", info.at(0, 0));
            kobalt_int bad = -1;
            for (kobalt_int r = 1; r < n && bad < 0; r++)
                if (!(A.at(0, r, 0) == T(2))) bad = r;
            KT_CHECK(bad < 0, "L(%ld,0) = %g, expected 2 (the subnormal pivot divides)", (long)bad,
                     bad < 0 ? 0.0 : (double)A.at(0, bad, 0));
            KT_CHECK(A.at(0, 0, 0) == p && A.at(0, n - 1, n - 1) == T(1), "U changed: U(0,0) %g, U(n-1,n-1) %g",
                     (double)A.at(0, 0, 0), (double)A.at(0, n - 1, n - 1));
        }
    finish();
}

template <class T> void sweep_nonsquare(void **)
{
    static const kobalt_int shapes[][2] = {{1, 2},   {2, 1},   {3, 5},   {5, 3},   {7, 16},  {16, 7},
                                           {9, 17},  {17, 9},  {31, 33}, {33, 31}, {64, 15}, {15, 64},
                                           {100, 32}, {32, 100}, {200, 64}, {64, 200}, {0, 4}, {4, 0}, {1, 200}, {200, 1}};
    Rng rng(42);
    int idx = 0;
    for (auto &sh : shapes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int v = 0; v < 2; v++) {
                    GetrfCase c;
                    c.layout = l; c.form = f; c.m = sh[0]; c.n = sh[1];
                    c.batch = 2;
                    c.lda_x = idx % 2 ? 3 : 0; c.sa_x = idx % 3; c.sp_x = idx % 2;
                    c.no_pivot = v == 1;
                    c.compare_pivots = strict_pivots<T>(c.m, c.n);
                    run_random<T>(c, rng);
                    idx++;
                }
    finish();
}

template <class T> void padding(void **)
{
    Rng rng(43);
    static const kobalt_int sizes[] = {1, 3, 8, 9, 17, 33, 64};
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int v = 0; v < 2; v++) {
                    GetrfCase c;
                    c.layout = l; c.form = f; c.m = s + v; c.n = s; c.batch = 4;
                    c.lda_x = 7; c.sa_x = 19; c.sp_x = 5;
                    c.compare_pivots = strict_pivots<T>(c.m, c.n);
                    run_random<T>(c, rng);
                }
    finish();
}

/* Singular items (a zero column, the zero matrix) get LAPACK's info and pivots; NaN items
 * leave the other items of the batch correct. */
template <class T> void singular_and_nan(void **)
{
    Rng rng(44);
    static const kobalt_int shapes[][2] = {{1, 1}, {2, 2}, {3, 3}, {5, 5}, {8, 8}, {9, 9}, {16, 16}, {17, 17},
                                           {33, 33}, {64, 64}, {100, 100}, {7, 4}, {4, 7}, {40, 20}, {20, 40}};
    const Special items[] = {kRandom, kZeroCol0, kNaN, kZeroColMid, kRandom, kZeroColLast, kNaN, kRandom};
    for (auto &sh : shapes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms) {
                GetrfCase c;
                c.layout = l; c.form = f; c.m = sh[0]; c.n = sh[1]; c.batch = 8;
                c.sp_x = 1;
                c.compare_pivots = strict_pivots<T>(c.m, c.n);
                set_case("%sgetrf_%s %s m=%ld n=%ld batch 8 of random/zero column/NaN items", type_name<T>(),
                         form_name(f), layout_name(l), (long)c.m, (long)c.n);
                MatBatch<T> A(l, c.m, c.n, c.batch, 1, 2, false, f == Form::Batched);
                std::vector<Special> kinds(items, items + 8);
                for (kobalt_int i = 0; i < c.batch; i++) fill_item(A, i, kinds[(size_t)i], rng);
                run_getrf(c, A, kinds);

                set_case("%sgetrf_%s %s m=%ld n=%ld zero matrix", type_name<T>(), form_name(f), layout_name(l),
                         (long)c.m, (long)c.n);
                GetrfCase z = c;
                z.batch = 1;
                MatBatch<T> Z(l, c.m, c.n, 1, 0, 0, false, f == Form::Batched);
                fill_item(Z, 0, kZeroMatrix, rng);
                run_getrf(z, Z, std::vector<Special>(1, kZeroMatrix));
            }
    finish();
}

/* A row-major call on the same logical matrix gives the same pivots and info as the
 * column-major call. */
template <class T> void row_vs_col(void **)
{
    Rng rng(45);
    static const kobalt_int shapes[][2] = {{1, 1}, {3, 3}, {8, 8}, {9, 9}, {17, 17}, {33, 33}, {64, 64},
                                           {100, 100}, {200, 200}, {12, 5}, {5, 12}, {70, 40}};
    const Special items[] = {kRandom, kZeroColMid, kRandom};
    for (auto &sh : shapes)
        for (Form f : kForms) {
            const kobalt_int m = sh[0], n = sh[1], r = std::min(m, n), nb = 3;
            set_case("%sgetrf_%s m=%ld n=%ld row-major vs column-major", type_name<T>(), form_name(f), (long)m,
                     (long)n);
            MatBatch<T> C(KOBALT_COL_MAJOR, m, n, nb, 0, 0, false, f == Form::Batched);
            for (kobalt_int i = 0; i < nb; i++) fill_item(C, i, items[i], rng);
            MatBatch<T> Rw(KOBALT_ROW_MAJOR, m, n, nb, 0, 0, false, f == Form::Batched);
            for (kobalt_int i = 0; i < nb; i++)
                for (kobalt_int q = 0; q < n; q++)
                    for (kobalt_int p = 0; p < m; p++) Rw.at(i, p, q) = C.at(i, p, q);
            IntBatch pc(r, nb), pr(r, nb), ic(1, nb), ir(1, nb);
            if (f == Form::Strided) {
                KT_CHECK_STATUS(kb::getrf_strided(KOBALT_COL_MAJOR, m, n, C.base(), C.ld, C.stride, pc.base(),
                                                  pc.stride, ic.base(), nb));
                KT_CHECK_STATUS(kb::getrf_strided(KOBALT_ROW_MAJOR, m, n, Rw.base(), Rw.ld, Rw.stride, pr.base(),
                                                  pr.stride, ir.base(), nb));
            } else {
                auto a = C.ptrs(), b = Rw.ptrs();
                KT_CHECK_STATUS(kb::getrf_batched(KOBALT_COL_MAJOR, m, n, a.data(), C.ld, pc.base(), pc.stride,
                                                  ic.base(), nb));
                KT_CHECK_STATUS(kb::getrf_batched(KOBALT_ROW_MAJOR, m, n, b.data(), Rw.ld, pr.base(), pr.stride,
                                                  ir.base(), nb));
            }
            for (kobalt_int i = 0; i < nb; i++) {
                KT_CHECK(ic.at(i, 0) == ir.at(i, 0), "item %ld: info col-major %d, row-major %d", (long)i,
                         ic.at(i, 0), ir.at(i, 0));
                if (!strict_pivots<T>(m, n)) continue;
                kobalt_int first = -1;
                for (kobalt_int j = 0; j < r && first < 0; j++)
                    if (pc.at(i, j) != pr.at(i, j)) first = j;
                KT_CHECK(first < 0, "item %ld: ipiv[%ld] col-major %d, row-major %d", (long)i, (long)first,
                         first < 0 ? 0 : pc.at(i, first), first < 0 ? 0 : pr.at(i, first));
            }
        }
    finish();
}

template <class T> void batch_counts(void **)
{
    Rng rng(46);
    for_each_batch_case([&](kobalt_int s, kobalt_int nb, kobalt_layout l, Form f, int idx) {
        GetrfCase c;
        c.layout = l; c.form = f; c.m = s; c.n = s + idx % 2; c.batch = nb;
        c.sp_x = idx % 3; c.no_pivot = idx % 4 == 3;
        run_random<T>(c, rng);
    });
    set_case("%sgetrf batch 0 with NULL pointers", type_name<T>());
    KT_CHECK_STATUS(kb::getrf_strided(KOBALT_COL_MAJOR, 4, 4, (T *)nullptr, 4, 16, nullptr, 4, nullptr, 0));
    KT_CHECK_STATUS(kb::getrf_batched(KOBALT_ROW_MAJOR, 4, 4, (T *const *)nullptr, 4, nullptr, 4, nullptr, 0));
    for (Form f : kForms) {
        set_case("%sgetrf_%s batch 0 with buffers touches nothing", type_name<T>(), form_name(f));
        MatBatch<T> A(KOBALT_COL_MAJOR, 3, 3, 1);
        A.fill_random(rng);
        IntBatch ipiv(3, 1), info(1, 1);
        const std::vector<T> a0 = A.buf;
        if (f == Form::Strided) {
            KT_CHECK_STATUS(kb::getrf_strided(KOBALT_COL_MAJOR, 3, 3, A.base(), 3, 9, ipiv.base(), 3, info.base(), 0));
        } else {
            auto pa = A.ptrs();
            KT_CHECK_STATUS(kb::getrf_batched(KOBALT_COL_MAJOR, 3, 3, pa.data(), 3, ipiv.base(), 3, info.base(), 0));
        }
        A.check_unchanged(a0, "A");
        ipiv.check_unchanged(IntBatch(3, 1).buf, "ipiv");
        info.check_unchanged(IntBatch(1, 1).buf, "info");
    }
    finish();
}

/* The packed path (PACKED_LU_MAX, on by default; the _packed_off ctest variant turns it
 * off): packs of W items (2..16 per ISA and precision) and the partial pack after them.
 * Orders 0..8, batch counts around every W, both layouts and forms, random items with
 * singular (zero column) and NaN items mixed in at shifting positions. */
template <class T> void packed_batches(void **)
{
    Rng rng(49);
    static const kobalt_int batches[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 1000};
    static const Special mix[] = {kRandom, kZeroColMid, kRandom, kNaN,         kRandom, kRandom,
                                  kZeroCol0, kRandom,   kRandom, kZeroColLast, kRandom};
    const size_t nmix = sizeof mix / sizeof mix[0];
    int idx = 0;
    for (kobalt_int s = 0; s <= 8; s++)
        for (kobalt_int nb : batches)
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    GetrfCase c;
                    c.layout = l; c.form = f; c.m = c.n = s; c.batch = nb;
                    c.lda_x = idx % 2; c.sa_x = idx % 3 == 0 ? 2 : 0; c.sp_x = (idx / 2) % 2;
                    c.no_pivot = idx % 5 == 4;
                    set_case("%sgetrf_%s %s n=%ld batch=%ld ldx=%ld stridex=%ld ipivstridex=%ld ipiv=%s, "
                             "singular/NaN items mixed",
                             type_name<T>(), form_name(f), layout_name(l), (long)s, (long)nb, (long)c.lda_x,
                             (long)c.sa_x, (long)c.sp_x, c.no_pivot ? "NULL" : "array");
                    MatBatch<T> A(l, s, s, nb, c.lda_x, c.sa_x, false, f == Form::Batched);
                    std::vector<Special> kinds((size_t)nb);
                    for (kobalt_int i = 0; i < nb; i++) {
                        kinds[(size_t)i] = c.no_pivot ? kDominant : mix[(size_t)(i + idx) % nmix];
                        fill_item(A, i, kinds[(size_t)i], rng);
                    }
                    run_getrf(c, A, kinds);
                    idx++;
                }
    finish();
}

/* 2 x 2 items factored in place, W at a time in registers (GETRF_TINY_MAX, on by default; the
 * _packed_* and _vendor runs turn it off, _tiny_avx2 / _tiny_base run its AVX2 / SSE2 copies):
 * dense strided batches (lda 2, stride 4: the de-interleaving loads) and every other layout
 * (padding, pointer arrays: element by element), batch counts around every W (2..16) and a
 * thread's chunk, pivots contiguous (stride 2: one vector store) or strided, with and without
 * pivoting, and items with a zero first or last column, a NaN, or a subnormal first column
 * (the division path) at shifting positions within the blocks.
 * Subnormal columns not on the vendor path (the _vendor run sets GETRF_SMALL_MAX = 0):
 * OpenBLAS 0.3.21's dgetrf scales by the reciprocal of a subnormal pivot (Inf in L) where
 * reference dgetf2 divides, a known difference of the vendor path (see test_gemm_lu_trsv's
 * subnormal_pivot); there those items are random ones. */
template <class T> void tiny_in_place(void **)
{
    Rng rng(50);
    const char *small_max = getenv("KOBALT_GETRF_SMALL_MAX");
    const bool vendor = small_max && *small_max && strtol(small_max, nullptr, 10) < 2;
    if (vendor) print_message("tiny_in_place: no subnormal columns (GETRF_SMALL_MAX = %s: the vendor path)\n", small_max);
    static const kobalt_int batches[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 1001};
    static const Special mix[] = {kRandom,   kZeroCol0, kRandom, kSubnormalCol0, kRandom, kNaN, kRandom,
                                  kRandom,   kZeroColLast, kRandom, kRandom, kRandom, kSubnormalCol0};
    const size_t nmix = sizeof mix / sizeof mix[0];
    int idx = 0;
    for (kobalt_int nb : batches)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int v = 0; v < 4; v++) {
                    GetrfCase c;
                    c.layout = l; c.form = f; c.m = c.n = 2; c.batch = nb;
                    c.lda_x = v == 2 ? 1 : 0; c.sa_x = v == 3 ? 3 : 0; c.sp_x = v == 1 ? 1 : 0;
                    c.no_pivot = idx % 3 == 2;
                    set_case("%sgetrf_%s %s n=2 batch=%ld ldx=%ld stridex=%ld ipivstridex=%ld ipiv=%s, special items "
                             "mixed",
                             type_name<T>(), form_name(f), layout_name(l), (long)nb, (long)c.lda_x, (long)c.sa_x,
                             (long)c.sp_x, c.no_pivot ? "NULL" : "array");
                    MatBatch<T> A(l, 2, 2, nb, c.lda_x, c.sa_x, false, f == Form::Batched);
                    std::vector<Special> kinds((size_t)nb);
                    for (kobalt_int i = 0; i < nb; i++) {
                        kinds[(size_t)i] = c.no_pivot ? kDominant : mix[(size_t)(i + idx) % nmix];
                        if (vendor && kinds[(size_t)i] == kSubnormalCol0) kinds[(size_t)i] = kRandom;
                        fill_item(A, i, kinds[(size_t)i], rng);
                    }
                    run_getrf(c, A, kinds);
                    idx++;
                }
    finish();
}

/* Item offsets beyond 2^31 elements for A and ipiv, in sparse mappings. */
template <class T> void huge_stride(void **)
{
    const kobalt_int S = kHugeStride, SP = ((kobalt_int)1 << 31) + 5, nb = 3, n = 3;
    SparseMap<T> A((size_t)((nb - 1) * S + n * n + 8));
    SparseMap<int> P((size_t)((nb - 1) * SP + n + 4));
    if (!A.ok() || !P.ok()) skip();
    for (kobalt_layout l : kLayouts) {
        set_case("%sgetrf_strided %s 3x3 batch 3, strideA 2^31+7, strideIpiv 2^31+5", type_name<T>(),
                 layout_name(l));
        Rng rng(47);
        int info[3] = {-7, -7, -7};
        T want[3][9];
        int wpiv[3][3];
        int winfo[3];
        for (kobalt_int i = 0; i < nb; i++) {
            for (int e = 0; e < n * n + 8; e++) A.p[i * S + e] = e < n * n ? (T)rng.uniform() : poison<T>();
            if (i == 1) for (int e = 0; e < n; e++) A.p[i * S + e * (l == KOBALT_COL_MAJOR ? 1 : n) + (l == KOBALT_COL_MAJOR ? n : 1)] = 0; /* zero column 1 */
            for (int e = 0; e < n + 4; e++) P.p[i * SP + e] = poison<int>();
            std::copy(A.p + i * S, A.p + i * S + 9, want[i]);
            winfo[i] = ref::getrf(l, 3, 3, want[i], 3, wpiv[i]);
        }
        KT_CHECK_STATUS(kb::getrf_strided(l, 3, 3, A.p, 3, S, P.p, SP, info, nb));
        for (kobalt_int i = 0; i < nb; i++) {
            KT_CHECK(info[i] == winfo[i], "item %ld: info %d, LAPACK %d", (long)i, info[i], winfo[i]);
            for (int e = 0; e < 3; e++)
                KT_CHECK(P.p[i * SP + e] == wpiv[i][e], "item %ld: ipiv[%d] = %d, LAPACK %d", (long)i, e,
                         P.p[i * SP + e], wpiv[i][e]);
            for (int e = 3; e < 7; e++)
                KT_CHECK(P.p[i * SP + e] == poison<int>(), "item %ld: ipiv padding %d overwritten", (long)i, e);
            for (int e = 0; e < 9; e++)
                KT_CHECK(std::fabs((double)A.p[i * S + e] - (double)want[i][e]) <= 1e2 * eps<T>(),
                         "item %ld: factor element %d = %g, LAPACK %g", (long)i, e, (double)A.p[i * S + e],
                         (double)want[i][e]);
            for (int e = 9; e < 17; e++)
                KT_CHECK(same_bits(A.p[i * S + e], poison<T>()), "item %ld: A padding %d overwritten", (long)i, e);
        }
    }
    finish();
}

/* Items above the backend's "few large items" size (256), batch 1 and 2. */
template <class T> void large_items(void **)
{
    Rng rng(48);
    static const kobalt_int shapes[][2] = {{300, 300}, {260, 300}, {300, 260}};
    int idx = 0;
    for (auto &sh : shapes)
        for (kobalt_int nb : {1, 2})
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    GetrfCase c;
                    c.layout = l; c.form = f; c.m = sh[0]; c.n = sh[1]; c.batch = nb;
                    c.sp_x = idx % 2; c.no_pivot = idx % 4 == 3;
                    c.compare_pivots = strict_pivots<T>(c.m, c.n);
                    run_random<T>(c, rng);
                    idx++;
                }
    finish();
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_square<double>),     cmocka_unit_test(sweep_square<float>),
        cmocka_unit_test(nopivot_threshold<double>), cmocka_unit_test(nopivot_threshold<float>),
        cmocka_unit_test(nopivot_subnormal_pivot<double>), cmocka_unit_test(nopivot_subnormal_pivot<float>),
        cmocka_unit_test(sweep_nonsquare<double>),  cmocka_unit_test(sweep_nonsquare<float>),
        cmocka_unit_test(padding<double>),          cmocka_unit_test(padding<float>),
        cmocka_unit_test(singular_and_nan<double>), cmocka_unit_test(singular_and_nan<float>),
        cmocka_unit_test(row_vs_col<double>),       cmocka_unit_test(row_vs_col<float>),
        cmocka_unit_test(batch_counts<double>),     cmocka_unit_test(batch_counts<float>),
        cmocka_unit_test(huge_stride<double>),      cmocka_unit_test(huge_stride<float>),
        cmocka_unit_test(large_items<double>), cmocka_unit_test(large_items<float>),
        cmocka_unit_test(packed_batches<double>),   cmocka_unit_test(packed_batches<float>),
        cmocka_unit_test(tiny_in_place<double>),    cmocka_unit_test(tiny_in_place<float>),
    };
    return cmocka_run_group_tests_name("getrf", tests, NULL, NULL);
}
