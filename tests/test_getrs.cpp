/*
 * test_getrs.cpp -- correctness of kobalt_{s,d}getrs_{strided,batched}:
 * B_i = op(A_i)^{-1} B_i from getrf's factors (LAPACKE_?getrf per item), and from
 * unpivoted factors with ipiv == NULL.
 *
 * Check: per column, ||op(A) x - b||_1 / (n eps ||op(A)||_1 ||x||_1) < 30 with the original
 * A; factors and ipiv unchanged; padding of B untouched. LAPACKE_?getrs's residual is
 * printed on failure.
 */
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/kt_lu.hpp"
#include "common/kt_test.hpp"

using namespace kt;

namespace {

struct GetrsCase {
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_op trans = KOBALT_NO_TRANS;
    kobalt_int n = 1, nrhs = 1, batch = 1;
    Form form = Form::Strided;
    kobalt_int lda_x = 0, ldb_x = 0, sa_x = 0, sb_x = 0, sp_x = 0;
    bool shared_a = false; /* strideA = strideIpiv = 0: one factorization for every item */
    bool no_pivot = false;
    kobalt_int nan_every = 0; /* > 0: items i % nan_every == 1 get a NaN in B and in a factor */
};

template <class T> bool nan_item(const GetrsCase &c, kobalt_int i)
{
    return c.nan_every > 0 && c.n > 0 && c.nrhs > 0 && !c.shared_a && i % c.nan_every == 1;
}

/* The call under test, in c's form (strided or pointer arrays). */
template <class T>
void call_getrs(const GetrsCase &c, const MatBatch<T> &A, const int *pp, kobalt_int strideIpiv, MatBatch<T> &B)
{
    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::getrs_strided(c.layout, c.trans, c.n, c.nrhs, A.base(), A.ld, A.stride, pp,
                                          strideIpiv, B.base(), B.ld, B.stride, c.batch));
    } else {
        auto pa = A.cptrs();
        auto pb = B.ptrs();
        KT_CHECK_STATUS(kb::getrs_batched(c.layout, c.trans, c.n, c.nrhs, pa.data(), A.ld, pp, strideIpiv,
                                          pb.data(), B.ld, c.batch));
    }
}

template <class T> void run_getrs(const GetrsCase &c, Rng &rng)
{
    set_case("%sgetrs_%s %s trans=%s n=%ld nrhs=%ld batch=%ld ldx=%ld,%ld stridex=%ld,%ld,%ld shared=%d ipiv=%s",
             type_name<T>(), form_name(c.form), layout_name(c.layout), op_name(c.trans), (long)c.n, (long)c.nrhs,
             (long)c.batch, (long)c.lda_x, (long)c.ldb_x, (long)c.sa_x, (long)c.sb_x, (long)c.sp_x, c.shared_a,
             c.no_pivot ? "NULL" : "array");
    const bool rev = c.form == Form::Batched;
    MatBatch<T> A(c.layout, c.n, c.n, c.batch, c.lda_x, c.sa_x, c.shared_a, rev);
    A.fill_random(rng);
    if (c.no_pivot)
        for (kobalt_int i = 0; i < c.batch; i++) make_dominant(A, i);
    const MatBatch<T> A0 = A;
    IntBatch ipiv(c.n, c.batch, c.sp_x, c.shared_a);
    const kobalt_int distinct = c.shared_a ? std::min<kobalt_int>(c.batch, 1) : c.batch;
    for (kobalt_int i = 0; i < distinct; i++) {
        if (c.no_pivot) {
            lu_nopivot(A, i);
        } else {
            int info = ref::getrf(c.layout, (int)c.n, (int)c.n, A.item(i), (int)A.ld, &ipiv.at(i, 0));
            KT_CHECK(info == 0, "test setup: LAPACK getrf info %d on item %ld", info, (long)i);
        }
    }
    MatBatch<T> B(c.layout, c.n, c.nrhs, c.batch, c.ldb_x, c.sb_x, false, rev);
    B.fill_random(rng);
    for (kobalt_int i = 0; i < c.batch; i++)
        if (nan_item<T>(c, i)) { /* only the other items are specified */
            B.at(i, c.n - 1, c.nrhs - 1) = std::numeric_limits<T>::quiet_NaN();
            A.at(i, c.n - 1, 0) = std::numeric_limits<T>::quiet_NaN();
        }
    const MatBatch<T> B0 = B;
    const std::vector<T> f0 = A.buf;
    const std::vector<int> p0 = ipiv.buf;
    const int *pp = c.no_pivot ? nullptr : ipiv.base();

    call_getrs(c, A, pp, ipiv.stride, B);
    A.check_unchanged(f0, "A (factors)");
    ipiv.check_unchanged(p0, "ipiv");
    B.check_padding("B");
    for (kobalt_int i = 0; i < c.batch; i++) {
        if (nan_item<T>(c, i)) continue;
        Dense M = op(to_dense(A0, i), c.trans);
        double res = solve_residual(M, to_dense(B, i), to_dense(B0, i), eps<T>());
        if (!(res < kThreshold)) {
            double rres = -1;
            if (!c.no_pivot) {
                MatBatch<T> R = B0;
                ref::getrs(c.layout, c.trans, (int)c.n, (int)c.nrhs, A.item(i), (int)A.ld, &ipiv.at(i, 0),
                           R.item(i), (int)R.ld);
                rres = solve_residual(M, to_dense(R, i), to_dense(B0, i), eps<T>());
            }
            KT_CHECK(false, "item %ld: scaled residual %g (LAPACK getrs: %g)", (long)i, res, rres);
        }
    }
}

template <class T> void sweep(void **)
{
    Rng rng(51);
    int idx = 0;
    for (kobalt_int s : sizes())
        for (kobalt_layout l : kLayouts)
            for (kobalt_op t : kOps)
                for (Form f : kForms)
                    for (int v = 0; v < 2; v++) {
                        GetrsCase c;
                        c.layout = l; c.trans = t; c.form = f; c.n = s;
                        static const kobalt_int rhs[] = {1, 2, 3, 5, -1};
                        c.nrhs = rhs[idx % 5] < 0 ? s : rhs[idx % 5];
                        c.batch = s <= 33 ? 3 : 2;
                        c.lda_x = idx % 3; c.ldb_x = (idx / 2) % 2; c.sa_x = idx % 2 ? 4 : 0;
                        c.sb_x = (idx / 3) % 3; c.sp_x = idx % 2;
                        c.no_pivot = v == 1;
                        run_getrs<T>(c, rng);
                        idx++;
                    }
    finish();
}

template <class T> void rhs_shapes(void **)
{
    static const kobalt_int shapes[][2] = {{1, 7}, {7, 1}, {4, 16}, {16, 4}, {17, 3}, {3, 33},
                                           {33, 9}, {9, 64}, {64, 100}, {100, 64}, {5, 0}, {0, 5}};
    Rng rng(52);
    int idx = 0;
    for (auto &sh : shapes)
        for (kobalt_layout l : kLayouts)
            for (kobalt_op t : kOps)
                for (Form f : kForms) {
                    GetrsCase c;
                    c.layout = l; c.trans = t; c.form = f; c.n = sh[0]; c.nrhs = sh[1];
                    c.batch = 2; c.ldb_x = idx % 2; c.sb_x = idx % 3;
                    c.no_pivot = idx % 4 == 3;
                    run_getrs<T>(c, rng);
                    idx++;
                }
    finish();
}

template <class T> void padding_and_shared(void **)
{
    Rng rng(53);
    static const kobalt_int sizes[] = {1, 3, 8, 9, 17, 33, 64};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int v = 0; v < 4; v++) {
                    GetrsCase c;
                    c.layout = l; c.form = f; c.n = s; c.nrhs = 3; c.batch = 4;
                    c.trans = kOps[idx % 3];
                    c.lda_x = 5; c.ldb_x = 4; c.sa_x = 11; c.sb_x = 9; c.sp_x = 3;
                    c.shared_a = v & 1; c.no_pivot = v & 2;
                    run_getrs<T>(c, rng);
                    idx++;
                }
    finish();
}

template <class T> void batch_counts(void **)
{
    Rng rng(54);
    for_each_batch_case([&](kobalt_int s, kobalt_int nb, kobalt_layout l, Form f, int idx) {
        GetrsCase c;
        c.layout = l; c.form = f; c.n = s; c.nrhs = 1 + idx % 2; c.batch = nb;
        c.trans = kOps[idx % 3]; c.no_pivot = idx % 4 == 3; c.shared_a = idx % 5 == 0;
        run_getrs<T>(c, rng);
    });
    set_case("%sgetrs batch 0 with NULL pointers", type_name<T>());
    KT_CHECK_STATUS(kb::getrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, 4, 2, (const T *)nullptr, 4, 16, nullptr,
                                      4, (T *)nullptr, 4, 8, 0));
    KT_CHECK_STATUS(kb::getrs_batched(KOBALT_ROW_MAJOR, KOBALT_TRANS, 4, 2, (const T *const *)nullptr, 4, nullptr,
                                      4, (T *const *)nullptr, 2, 0));
    for (Form f : kForms) {
        set_case("%sgetrs_%s batch 0 with buffers touches nothing", type_name<T>(), form_name(f));
        MatBatch<T> A(KOBALT_COL_MAJOR, 3, 3, 1), B(KOBALT_COL_MAJOR, 3, 2, 1);
        A.fill_random(rng); B.fill_random(rng);
        IntBatch ipiv(3, 1);
        for (int j = 0; j < 3; j++) ipiv.at(0, j) = j + 1;
        const std::vector<T> b0 = B.buf;
        if (f == Form::Strided) {
            KT_CHECK_STATUS(kb::getrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, 3, 2, A.base(), 3, 9, ipiv.base(), 3,
                                              B.base(), 3, 6, 0));
        } else {
            auto pa = A.cptrs();
            auto pb = B.ptrs();
            KT_CHECK_STATUS(kb::getrs_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, 3, 2, pa.data(), 3, ipiv.base(), 3,
                                              pb.data(), 3, 0));
        }
        B.check_unchanged(b0, "B");
    }
    finish();
}

/* The packed path (PACKED_LU_MAX, on by default; the _packed_off ctest variant turns it
 * off): packs of W items (2..16 per ISA and precision) and the partial pack after them.
 * Orders 0..8, batch counts around every W, both layouts, forms and transposes, nrhs up to
 * 17 (B is copied 8 columns at a time), NaN items mixed in. */
template <class T> void packed_batches(void **)
{
    Rng rng(56);
    static const kobalt_int batches[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 1000};
    static const kobalt_int rhs[] = {1, 2, 3, 8, 9, 17};
    int idx = 0;
    for (kobalt_int s = 0; s <= 8; s++)
        for (kobalt_int nb : batches)
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    GetrsCase c;
                    c.layout = l; c.form = f; c.n = s; c.batch = nb;
                    c.nrhs = nb >= 1000 ? 1 + idx % 2 : rhs[idx % 6];
                    c.trans = kOps[idx % 3]; c.no_pivot = idx % 4 == 3;
                    c.lda_x = idx % 2; c.ldb_x = (idx / 2) % 2; c.sa_x = idx % 3 == 0 ? 2 : 0;
                    c.sb_x = idx % 2; c.sp_x = (idx / 3) % 2;
                    c.nan_every = 3 + idx % 4;
                    run_getrs<T>(c, rng);
                    idx++;
                }
    finish();
}

/* One right-hand side at n = 1..8: the grouped in-place solve (GETRS_TINY_MAX, 8 by default;
 * _vendor and _notiny turn it off: the fixed-n solve or the packed path run instead).
 * It solves two items together up to n = GETRS_TINY_PAIR_MAX(_FLOAT) (4 by default; 6 in
 * _small) and the rest of each thread's chunk one at a time, so the batch counts cover
 * odd and even counts, alone and after full groups, and a batch large enough to split over threads; every n, both layouts and forms, every transpose, padded ld
 * and strides, with and without pivots, shared factors, NaN items mixed in. */
template <class T> void tiny_sizes(void **)
{
    Rng rng(58);
    static const kobalt_int batches[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 1001};
    int idx = 0;
    for (kobalt_int s = 1; s <= 8; s++)
        for (kobalt_int nb : batches)
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    GetrsCase c;
                    c.layout = l; c.trans = kOps[idx % 3]; c.form = f; c.n = s; c.nrhs = 1;
                    c.batch = nb;
                    c.lda_x = idx % 3; c.ldb_x = (idx / 3) % 2; c.sa_x = idx % 2 ? 3 : 0;
                    c.sb_x = (idx / 2) % 3; c.sp_x = idx % 2;
                    c.no_pivot = idx % 4 == 3;
                    c.shared_a = idx % 7 == 5;
                    c.nan_every = nb >= 5 ? 2 + idx % 3 : 0;
                    run_getrs<T>(c, rng);
                    idx++;
                }
    finish();
}

/* The in-place solve divides by U's diagonal at n = 1..4 and from n = 5 multiplies by its
 * reciprocal, unless an entry of the group's diagonal is below the smallest normal number
 * (then divisions: a subnormal entry below 1 / max has an infinite reciprocal).
 * Identity factors with U(j,j) = p subnormal, b(j) = 2p: x(j) must be exactly 2, where a
 * multiplication by 1/p would give Inf. Batch 5 (groups of two, then one), the subnormal
 * item second or last, its neighbours normal; both layouts, NoTrans and Trans. */
template <class T> void tiny_subnormal_diagonal(void **)
{
    const T p = std::numeric_limits<T>::denorm_min() * T(16);
    const kobalt_int batch = 5;
    for (kobalt_int n = 1; n <= 8; n++)
        for (kobalt_layout l : kLayouts)
            for (kobalt_op t : {KOBALT_NO_TRANS, KOBALT_TRANS})
                for (kobalt_int odd : {kobalt_int(1), batch - 1}) {
                    const kobalt_int j = (n - 1) / 2 + (odd == 1 ? 0 : n / 2); // some diagonal entry
                    set_case("%sgetrs_strided %s trans=%s n=%ld item %ld: U(%ld,%ld) subnormal", type_name<T>(),
                             layout_name(l), op_name(t), (long)n, (long)odd, (long)j, (long)j);
                    MatBatch<T> A(l, n, n, batch, 0, 0, false, false);
                    MatBatch<T> B(l, n, 1, batch, 0, 0, false, false);
                    IntBatch ipiv(n, batch);
                    for (kobalt_int i = 0; i < batch; i++) {
                        for (kobalt_int q = 0; q < n; q++) {
                            for (kobalt_int r = 0; r < n; r++) A.at(i, r, q) = r == q ? T(1) : T(0);
                            B.at(i, q, 0) = T(1);
                            ipiv.at(i, q) = int(q + 1);
                        }
                    }
                    A.at(odd, j, j) = p;
                    B.at(odd, j, 0) = T(2) * p;
                    KT_CHECK_STATUS(kb::getrs_strided(l, t, n, 1, A.base(), A.ld, A.stride, ipiv.base(), ipiv.stride,
                                                      B.base(), B.ld, B.stride, batch));
                    for (kobalt_int i = 0; i < batch; i++)
                        for (kobalt_int r = 0; r < n; r++) {
                            const T want = i == odd && r == j ? T(2) : T(1);
                            KT_CHECK(B.at(i, r, 0) == want, "item %ld x(%ld) = %g, expected %g", (long)i, (long)r,
                                     (double)B.at(i, r, 0), (double)want);
                        }
                }
    finish();
}

/* Any pivot values in 1..n, not only getrf's (ipiv[k] >= k + 1): LAPACK's getrs applies
 * whatever interchanges ipiv names (dlaswp), and so must every path. The in-place solve
 * at n <= 8 turns ipiv into a permutation of b's rows (from a table of all n^n pivot
 * vectors at n <= 4, from a table of getrf's n! at n = 5, 6 where every ipiv[k] >= k + 1,
 * from bit fields otherwise; backends/openmp/fixed_common.hpp), the
 * fixed-n solve likewise for nrhs > 1. Diagonally dominant factors, random pivots per
 * item (the identity, repeated values, values below k + 1), n = 1..10, nrhs 1 and 3, both
 * layouts and forms, every transpose, batches 7 (pairs, then one item) and 1001; checked
 * element by element against LAPACKE_?getrs on the same factors and pivots, factors and
 * pivots unchanged, B's padding untouched. */
template <class T> void any_pivots(void **)
{
    Rng rng(60);
    int idx = 0;
    for (kobalt_int n = 1; n <= 10; n++)
        for (kobalt_layout l : kLayouts)
            for (kobalt_op t : kOps)
                for (Form f : kForms)
                    for (kobalt_int nrhs : {1, 3}) {
                        GetrsCase c;
                        c.layout = l; c.trans = t; c.form = f; c.n = n; c.nrhs = nrhs;
                        // 1001 items (split over the threads) in one case in 12: LAPACKE's
                        // getrs per item is the cost of this test.
                        c.batch = idx % 12 == 0 ? 1001 : 7;
                        set_case("%sgetrs_%s %s trans=%s n=%ld nrhs=%ld batch=%ld: random pivots in 1..n",
                                 type_name<T>(), form_name(f), layout_name(l), op_name(t), (long)n, (long)nrhs,
                                 (long)c.batch);
                        const bool rev = f == Form::Batched;
                        MatBatch<T> A(l, n, n, c.batch, idx % 2, 0, false, rev);
                        A.fill_random(rng);
                        for (kobalt_int i = 0; i < c.batch; i++) {
                            make_dominant(A, i);
                            lu_nopivot(A, i);
                        }
                        IntBatch ipiv(n, c.batch, idx % 3 == 0 ? 2 : 0);
                        for (kobalt_int i = 0; i < c.batch; i++)
                            for (kobalt_int k = 0; k < n; k++)
                                ipiv.at(i, k) = (i + k) % 5 == 0 ? int(k + 1) : int(1 + rng.below(n));
                        MatBatch<T> B(l, n, nrhs, c.batch, (idx / 2) % 2, 0, false, rev);
                        B.fill_random(rng);
                        MatBatch<T> R = B;
                        const std::vector<T> f0 = A.buf;
                        const std::vector<int> p0 = ipiv.buf;
                        call_getrs(c, A, ipiv.base(), ipiv.stride, B);
                        A.check_unchanged(f0, "A (factors)");
                        ipiv.check_unchanged(p0, "ipiv");
                        B.check_padding("B");
                        for (kobalt_int i = 0; i < c.batch; i++) {
                            ref::getrs(l, t, (int)n, (int)nrhs, A.item(i), (int)A.ld, &ipiv.at(i, 0), R.item(i),
                                       (int)R.ld);
                            double scale = 0, err = 0;
                            for (kobalt_int col = 0; col < nrhs; col++)
                                for (kobalt_int r = 0; r < n; r++) {
                                    scale = std::max(scale, std::abs((double)R.at(i, r, col)));
                                    err = std::max(err, std::abs((double)B.at(i, r, col) - (double)R.at(i, r, col)));
                                }
                            const double tol = 64.0 * (double)n * eps<T>() * std::max(scale, 1.0);
                            if (!(err <= tol)) {
                                KT_CHECK(false, "item %ld: max |x - x_lapack| = %g > %g", (long)i, err, tol);
                                break;
                            }
                        }
                        idx++;
                    }
    finish();
}

/* One right-hand side at n = 9..DIRECT_MAX_N (256): the direct solve (GETRS_DIRECT_MAX, 256 by
 * default, 32 before; _vendor and _nodirect turn it off), on both sides of its old default, of
 * its default and kernel limit, and of GETRS_STREAM_MIN (32: the factors prefetched ahead;
 * _small never streams, _stream_all streams every n). Every n % 4 (the solve works on blocks
 * of four columns or rows), both layouts and forms, every transpose, padded ld and strides,
 * with and without pivots, shared factors, NaN items mixed in. */
template <class T> void direct_sizes(void **)
{
    Rng rng(57);
    static const kobalt_int sizes[] = {9,  10, 11, 12, 13, 14,  15,  16,  19,  20,  23,  24, 30,
                                       31, 32, 33, 34, 40, 47, 48,  56,  57,  64,  65,  96, 127,
                                       128, 129, 255, 256, 257};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (kobalt_op t : kOps)
                for (Form f : kForms) {
                    GetrsCase c;
                    c.layout = l; c.trans = t; c.form = f; c.n = s; c.nrhs = 1;
                    c.batch = s <= 64 ? 5 : 2;
                    c.lda_x = idx % 3; c.ldb_x = (idx / 3) % 2; c.sa_x = idx % 2 ? 3 : 0;
                    c.sb_x = (idx / 2) % 3; c.sp_x = idx % 2;
                    c.no_pivot = idx % 4 == 3;
                    c.shared_a = idx % 7 == 5;
                    c.nan_every = c.batch >= 5 ? 2 + idx % 3 : 0;
                    run_getrs<T>(c, rng);
                    idx++;
                }
    finish();
}

/* Items above the backend's "few large items" size (256), batch 1 and 2. */
template <class T> void large_items(void **)
{
    Rng rng(55);
    int idx = 0;
    for (kobalt_int nb : {1, 2})
        for (kobalt_layout l : kLayouts)
            for (kobalt_op t : kOps)
                for (Form f : kForms) {
                    GetrsCase c;
                    c.layout = l; c.trans = t; c.form = f; c.n = 300; c.nrhs = 1 + idx % 3; c.batch = nb;
                    c.no_pivot = idx % 4 == 3;
                    run_getrs<T>(c, rng);
                    idx++;
                }
    finish();
}


/* One right-hand side at n = 1..8 (the in-place solve, getrs_tiny.cpp) and 9..12 (the direct
 * solve, getrs_direct.cpp) with lda = 2^31 - 1, the largest the openmp backend takes: both run
 * whatever the small/vendor choice, and element (i, j) lies at i + j*lda (or i*lda + j),
 * beyond 2^31 elements from j = 1 on, so their offsets must be 64-bit. One item in a sparse
 * mapping; random factors with a dominant diagonal and random pivots; x compared with
 * LAPACK's getrs on a compact copy of the same factors; both layouts, every transpose,
 * with and without pivots. */
template <class T> void tiny_huge_lda(void **)
{
    const kobalt_int lda = INT32_MAX;
    Rng rng(59);
    for (kobalt_int n = 1; n <= 12; n++) {
        SparseMap<T> A((size_t)(lda * (n - 1) + n));
        if (!A.ok()) skip();
        for (kobalt_layout l : kLayouts)
            for (kobalt_op t : kOps)
                for (bool pivots : {true, false}) {
                    set_case("%sgetrs_strided %s trans=%s n=%ld nrhs=1 lda=2^31-1 ipiv=%s", type_name<T>(),
                             layout_name(l), op_name(t), (long)n, pivots ? "array" : "NULL");
                    std::vector<T> a((size_t)(n * n)), b((size_t)n), want;
                    std::vector<int> ipiv((size_t)n);
                    for (kobalt_int j = 0; j < n; j++) {
                        for (kobalt_int i = 0; i < n; i++)
                            a[(size_t)(i + j * n)] = i == j ? T(4) + (T)rng.uniform() : (T)rng.uniform();
                        b[(size_t)j] = (T)rng.uniform();
                        ipiv[(size_t)j] = pivots ? int(j + rng.below(n - j) + 1) : int(j + 1);
                    }
                    /* a holds element (i, j) at i + j*n, read as the layout's storage */
                    for (kobalt_int j = 0; j < n; j++)
                        for (kobalt_int i = 0; i < n; i++) A.p[i + j * lda] = a[(size_t)(i + j * n)];
                    want = b;
                    KT_CHECK(ref::getrs(l, t, int(n), 1, a.data(), int(n), ipiv.data(), want.data(),
                                        l == KOBALT_COL_MAJOR ? int(n) : 1) == 0,
                             "test setup: LAPACK getrs failed");
                    KT_CHECK_STATUS(kb::getrs_strided(l, t, n, 1, A.p, lda, 0, pivots ? ipiv.data() : nullptr, n,
                                                      b.data(), l == KOBALT_COL_MAJOR ? n : 1, n, 1));
                    for (kobalt_int i = 0; i < n; i++)
                        KT_CHECK(std::fabs((double)b[(size_t)i] - (double)want[(size_t)i]) <=
                                     1e2 * eps<T>() * (1 + std::fabs((double)want[(size_t)i])),
                                 "x(%ld) = %g, LAPACK %g", (long)i, (double)b[(size_t)i], (double)want[(size_t)i]);
                }
    }
    finish();
}

/* The pivot values of a batch large enough that the openmp backend scans them on all its
 * threads (PIVOT_SCAN_PARALLEL_MIN, 65536 pivots by default): valid ones pass, and one bad
 * pivot anywhere (first item, middle, last; 0, n + 1, negative), with contiguous or padded
 * pivot vectors, refuses the call naming ipiv, and B is left untouched. */
template <class T> void large_batch_pivot_values(void **)
{
    Rng rng(61);
    const kobalt_int n = 2, nb = 50000;
    MatBatch<T> A(KOBALT_COL_MAJOR, n, n, nb), B(KOBALT_COL_MAJOR, n, 1, nb);
    A.fill_random(rng);
    for (kobalt_int i = 0; i < nb; i++) A.at(i, 0, 0) = A.at(i, 1, 1) = T(4);
    B.fill_random(rng);
    for (kobalt_int extra : {0, 1}) {
        IntBatch ipiv(n, nb, extra);
        for (kobalt_int i = 0; i < nb; i++) ipiv.at(i, 0) = 2, ipiv.at(i, 1) = 2;
        const auto call = [&] {
            return kb::getrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, 1, A.base(), A.ld, A.stride,
                                     ipiv.base(), ipiv.stride, B.base(), B.ld, B.stride, nb);
        };
        set_case("%sgetrs large batch, valid pivots, ipiv stride %ld", type_name<T>(), (long)ipiv.stride);
        std::vector<T> b0 = B.buf;
        KT_CHECK_STATUS(call());
        B.buf = b0;
        for (kobalt_int item : {kobalt_int(0), nb / 2 + 1, nb - 1})
            for (int bad : {0, 3, -1}) {
                set_case("%sgetrs large batch, pivot %d in item %ld, ipiv stride %ld", type_name<T>(), bad,
                         (long)item, (long)ipiv.stride);
                const int keep = ipiv.at(item, 1);
                ipiv.at(item, 1) = bad;
                const kobalt_status st = call();
                KT_CHECK(st == KOBALT_INVALID_ARGUMENT && std::strstr(kobalt_last_error(), "ipiv"),
                         "returned %s (%s)", kobalt_status_name(st), kobalt_last_error());
                B.check_unchanged(b0, "B");
                ipiv.at(item, 1) = keep;
            }
    }
    finish();
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep<double>),              cmocka_unit_test(sweep<float>),
        cmocka_unit_test(rhs_shapes<double>),         cmocka_unit_test(rhs_shapes<float>),
        cmocka_unit_test(padding_and_shared<double>), cmocka_unit_test(padding_and_shared<float>),
        cmocka_unit_test(batch_counts<double>),       cmocka_unit_test(batch_counts<float>),
        cmocka_unit_test(large_items<double>), cmocka_unit_test(large_items<float>),
        cmocka_unit_test(packed_batches<double>),     cmocka_unit_test(packed_batches<float>),
        cmocka_unit_test(tiny_sizes<double>),         cmocka_unit_test(tiny_sizes<float>),
        cmocka_unit_test(tiny_subnormal_diagonal<double>), cmocka_unit_test(tiny_subnormal_diagonal<float>),
        cmocka_unit_test(any_pivots<double>),         cmocka_unit_test(any_pivots<float>),
        cmocka_unit_test(direct_sizes<double>),       cmocka_unit_test(direct_sizes<float>),
        cmocka_unit_test(tiny_huge_lda<double>),      cmocka_unit_test(tiny_huge_lda<float>),
        cmocka_unit_test(large_batch_pivot_values<double>), cmocka_unit_test(large_batch_pivot_values<float>),
    };
    return cmocka_run_group_tests_name("getrs", tests, NULL, NULL);
}
