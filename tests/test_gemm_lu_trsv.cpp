/*
 * test_gemm_lu_trsv.cpp -- correctness of kobalt_{s,d}gemm_lu_trsv_{strided,batched}:
 *   A_i = alpha op(X_i) op(Y_i) + beta A_i;  A_i = P_i L_i U_i;  B_i = A_i^{-1} B_i
 * against the three-step reference cblas_?gemm, LAPACKE_?getrf, LAPACKE_?getrs per item.
 *
 * Checks per item: info equal to LAPACK's on the reference A_i; ipiv equal to LAPACK's;
 * ||P Aref - L U||_1 and ||Aref x - b||_1 scaled by (n+k+2) eps max(||Aref||_1, ||G||_1)
 * (G = |alpha||op X||op Y| + |beta||A0| bounds the gemm's rounding) below 30; B_i
 * untouched for items with info > 0; inputs unchanged; padding of A, B, ipiv, info
 * untouched; a NaN item leaves the others correct.
 */
#include "common/kt_test.hpp"

using namespace kt;

namespace {

enum Kind { kRandom, kZeroCol, kNaN };

template <class T> struct FusedCase {
    kobalt_layout layout = KOBALT_COL_MAJOR;
    kobalt_op tx = KOBALT_NO_TRANS, ty = KOBALT_NO_TRANS;
    kobalt_int n = 1, k = 1, nrhs = 1, batch = 1;
    T alpha = 1, beta = 1;
    Form form = Form::Strided;
    kobalt_int ldx_x = 0, ldy_x = 0, lda_x = 0, ldb_x = 0;
    kobalt_int sx_x = 0, sy_x = 0, sa_x = 0, sb_x = 0, sp_x = 0;
    bool shared_x = false, shared_y = false;
    std::vector<Kind> kinds; /* empty: all random */
};

template <class T> bool strict_pivots(kobalt_int n) { return sizeof(T) == 8 || n <= 64; }

template <class T> void run_fused(const FusedCase<T> &c, Rng &rng)
{
    set_case("%sgemm_lu_trsv_%s %s tx=%s ty=%s n=%ld k=%ld nrhs=%ld alpha=%g beta=%g batch=%ld "
             "ldx=%ld,%ld,%ld,%ld stridex=%ld,%ld,%ld,%ld,%ld shared=%d,%d special=%d",
             type_name<T>(), form_name(c.form), layout_name(c.layout), op_name(c.tx), op_name(c.ty), (long)c.n,
             (long)c.k, (long)c.nrhs, (double)c.alpha, (double)c.beta, (long)c.batch, (long)c.ldx_x,
             (long)c.ldy_x, (long)c.lda_x, (long)c.ldb_x, (long)c.sx_x, (long)c.sy_x, (long)c.sa_x,
             (long)c.sb_x, (long)c.sp_x, c.shared_x, c.shared_y, !c.kinds.empty());
    const bool rev = c.form == Form::Batched;
    const bool nx = c.tx == KOBALT_NO_TRANS, ny = c.ty == KOBALT_NO_TRANS;
    const kobalt_int n = c.n, k = c.k;
    MatBatch<T> X(c.layout, nx ? n : k, nx ? k : n, c.batch, c.ldx_x, c.sx_x, c.shared_x, rev);
    MatBatch<T> Y(c.layout, ny ? k : n, ny ? n : k, c.batch, c.ldy_x, c.sy_x, c.shared_y, rev);
    MatBatch<T> A(c.layout, n, n, c.batch, c.lda_x, c.sa_x, false, rev);
    MatBatch<T> B(c.layout, n, c.nrhs, c.batch, c.ldb_x, c.sb_x, false, rev);
    IntBatch ipiv(n, c.batch, c.sp_x), info(1, c.batch);
    X.fill_random(rng);
    Y.fill_random(rng);
    if (c.beta == T(0)) A.fill_value(poison<T>()); /* not read when beta == 0 */
    else A.fill_random(rng);
    B.fill_random(rng);
    std::vector<Kind> kinds = c.kinds;
    kinds.resize((size_t)c.batch, kRandom);
    for (kobalt_int i = 0; i < c.batch; i++) {
        if (kinds[(size_t)i] == kZeroCol && n > 0) { /* column j of op(Y) and of A zero: A_new(:,j) = 0 */
            kobalt_int j = (i * 7 + 3) % n;
            for (kobalt_int p = 0; p < k; p++) (ny ? Y.at(i, p, j) : Y.at(i, j, p)) = T(0);
            if (c.beta != T(0))
                for (kobalt_int p = 0; p < n; p++) A.at(i, p, j) = T(0);
        }
        if (kinds[(size_t)i] == kNaN && n > 0 && k > 0)
            (nx ? X.at(i, n / 2, k / 2) : X.at(i, k / 2, n / 2)) = std::numeric_limits<T>::quiet_NaN();
    }
    const std::vector<T> x0 = X.buf, y0 = Y.buf;
    const MatBatch<T> A0 = A, B0 = B;

    /* reference: gemm, getrf, getrs per item */
    MatBatch<T> RA = A, RB = B;
    std::vector<int> rinfo((size_t)c.batch, 0), ripiv((size_t)(c.batch * std::max<kobalt_int>(n, 1)), 0);
    std::vector<Dense> Anew((size_t)c.batch);
    for (kobalt_int i = 0; i < c.batch; i++) {
        if (kinds[(size_t)i] == kNaN) continue;
        ref::gemm(c.layout, c.tx, c.ty, (int)n, (int)n, (int)k, c.alpha, X.item(i), (int)X.ld, Y.item(i), (int)Y.ld,
                  c.beta, RA.item(i), (int)RA.ld);
        Anew[(size_t)i] = to_dense(RA, i);
        int *rp = &ripiv[(size_t)(i * std::max<kobalt_int>(n, 1))];
        rinfo[(size_t)i] = ref::getrf(c.layout, (int)n, (int)n, RA.item(i), (int)RA.ld, rp);
        if (rinfo[(size_t)i] == 0)
            ref::getrs(c.layout, KOBALT_NO_TRANS, (int)n, (int)c.nrhs, RA.item(i), (int)RA.ld, rp, RB.item(i),
                       (int)RB.ld);
    }

    if (c.form == Form::Strided) {
        KT_CHECK_STATUS(kb::gemm_lu_trsv_strided(c.layout, c.tx, c.ty, n, k, c.nrhs, c.alpha, X.base(), X.ld,
                                                 X.stride, Y.base(), Y.ld, Y.stride, c.beta, A.base(), A.ld,
                                                 A.stride, ipiv.base(), ipiv.stride, B.base(), B.ld, B.stride,
                                                 info.base(), c.batch));
    } else {
        auto px = X.cptrs(), py = Y.cptrs();
        auto pa = A.ptrs(), pb = B.ptrs();
        KT_CHECK_STATUS(kb::gemm_lu_trsv_batched(c.layout, c.tx, c.ty, n, k, c.nrhs, c.alpha, px.data(), X.ld,
                                                 py.data(), Y.ld, c.beta, pa.data(), A.ld, ipiv.base(),
                                                 ipiv.stride, pb.data(), B.ld, info.base(), c.batch));
    }
    X.check_unchanged(x0, "X");
    Y.check_unchanged(y0, "Y");
    A.check_padding("A");
    B.check_padding("B");
    ipiv.check_padding("ipiv");
    info.check_padding("info");

    const double e = eps<T>();
    for (kobalt_int i = 0; i < c.batch; i++) {
        if (kinds[(size_t)i] == kNaN) continue;
        const int gi = info.at(i, 0), ri = rinfo[(size_t)i];
        KT_CHECK(gi == ri, "item %ld: info %d, LAPACK %d", (long)i, gi, ri);
        const int *gp = &ipiv.at(i, 0);
        const int *rp = &ripiv[(size_t)(i * std::max<kobalt_int>(n, 1))];
        if (strict_pivots<T>(n)) {
            kobalt_int first = -1;
            for (kobalt_int j = 0; j < n && first < 0; j++)
                if (gp[j] != rp[j]) first = j;
            KT_CHECK(first < 0, "item %ld: ipiv[%ld] = %d, LAPACK %d", (long)i, (long)first, first < 0 ? 0 : gp[first],
                     first < 0 ? 0 : rp[first]);
        }
        if (n == 0) continue;
        const Dense &Ar = Anew[(size_t)i];
        Dense G(n, n);
        if (c.alpha != T(0) && k > 0)
            G = mul(abs(op(to_dense(X, i), c.tx)), abs(op(to_dense(Y, i), c.ty)));
        for (kobalt_int q = 0; q < n; q++)
            for (kobalt_int p = 0; p < n; p++)
                G(p, q) = std::fabs((double)c.alpha) * G(p, q) +
                          (c.beta != T(0) ? std::fabs((double)c.beta) * std::fabs((double)A0.at(i, p, q)) : 0.0);
        const double scale = std::max(norm1(Ar), norm1(G));
        const double denom_n = (double)(n + k + 2) * e;
        /* LU residual against the reference A_new */
        {
            Dense Lo, Up;
            Dense F = to_dense(A, i);
            split_lu(F, Lo, Up);
            Dense PA = apply_pivots(Ar, gp, n);
            Dense LU = mul(Lo, Up);
            for (size_t p = 0; p < LU.a.size(); p++) LU.a[p] -= PA.a[p];
            double r = norm1(LU);
            double ratio = r == 0.0 ? 0.0 : r / (denom_n * scale);
            KT_CHECK(ratio < kThreshold, "item %ld: ||P A - L U|| scaled residual %g", (long)i, ratio);
        }
        if (gi > 0) { /* singular: B untouched */
            long changed = 0;
            for (kobalt_int q = 0; q < c.nrhs; q++)
                for (kobalt_int p = 0; p < n; p++)
                    if (!same_bits(B.at(i, p, q), B0.at(i, p, q))) changed++;
            KT_CHECK(changed == 0, "item %ld (info %d): %ld element(s) of B changed; expected untouched", (long)i, gi,
                     changed);
            continue;
        }
        if (ri > 0) continue;
        /* solve residual: ||A_new x - b|| / ((n+k+2) eps max(||A_new||, ||G||) ||x||) per column */
        Dense Xs = to_dense(B, i), Bs = to_dense(B0, i);
        double worst = 0;
        if (!all_finite(Xs)) worst = INFINITY;
        else {
            Dense R = mul(Ar, Xs);
            for (kobalt_int q = 0; q < c.nrhs; q++) {
                double rn = 0, xn = 0;
                for (kobalt_int p = 0; p < n; p++) {
                    rn += std::fabs(R(p, q) - Bs(p, q));
                    xn += std::fabs(Xs(p, q));
                }
                double ratio = rn == 0.0 ? 0.0 : rn / (denom_n * scale * xn);
                if (!(ratio <= worst)) worst = ratio;
            }
        }
        if (!(worst < kThreshold)) {
            Dense Xr = to_dense(RB, i);
            KT_CHECK(false, "item %ld: solve scaled residual %g (reference solve: %g)", (long)i, worst,
                     solve_residual(Ar, Xr, Bs, e));
        }
    }
}

const double kAlphaBeta[][2] = {{1, 1}, {-0.5, 1}, {0.25, 0}, {1, -1}, {2, 0.5}};

template <class T> void sweep(void **)
{
    Rng rng(61);
    int idx = 0;
    for (kobalt_int s : sizes())
        for (kobalt_layout l : kLayouts)
            for (kobalt_op tx : kOps)
                for (kobalt_op ty : kOps)
                    for (Form f : kForms) {
                        FusedCase<T> c;
                        c.layout = l; c.tx = tx; c.ty = ty; c.form = f; c.n = s;
                        c.alpha = (T)kAlphaBeta[idx % 5][0];
                        c.beta = (T)kAlphaBeta[idx % 5][1];
                        static const kobalt_int ks[] = {0, 1, 3, -1, 2}; /* -1: k = n; beta == 0 needs k >= n */
                        c.k = c.beta == T(0) ? s + idx % 3 : (ks[idx % 5] < 0 ? s : ks[idx % 5] + s / 2);
                        static const kobalt_int rhs[] = {1, 2, 3, -1};
                        c.nrhs = rhs[idx % 4] < 0 ? s : rhs[idx % 4];
                        c.batch = s <= 33 ? 3 : s <= 100 ? 2 : 1;
                        c.ldx_x = idx % 2; c.ldy_x = (idx / 2) % 2; c.lda_x = idx % 3; c.ldb_x = (idx / 3) % 2;
                        c.sa_x = idx % 2 ? 3 : 0; c.sb_x = (idx / 2) % 3; c.sp_x = idx % 2;
                        c.sx_x = idx % 3; c.sy_x = (idx / 4) % 2;
                        run_fused(c, rng);
                        idx++;
                    }
    finish();
}

template <class T> void padding_and_shared(void **)
{
    Rng rng(62);
    static const kobalt_int sizes[] = {1, 3, 8, 9, 17, 33, 64};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms)
                for (int v = 0; v < 4; v++) {
                    FusedCase<T> c;
                    c.layout = l; c.form = f; c.n = s; c.k = s + 1; c.nrhs = 2; c.batch = 4;
                    c.tx = kOps[idx % 3]; c.ty = kOps[(idx / 3) % 3];
                    c.alpha = (T)0.5; c.beta = (T)1;
                    c.ldx_x = 3; c.ldy_x = 5; c.lda_x = 7; c.ldb_x = 2;
                    c.sx_x = 4; c.sy_x = 6; c.sa_x = 9; c.sb_x = 11; c.sp_x = 3;
                    c.shared_x = v & 1; c.shared_y = v & 2;
                    run_fused(c, rng);
                    idx++;
                }
    finish();
}

/* Singular items (a zero column of A_new) get LAPACK's info, keep B; NaN items leave
 * the other items correct. */
template <class T> void singular_and_nan(void **)
{
    Rng rng(63);
    static const kobalt_int sizes[] = {1, 2, 3, 5, 8, 9, 16, 17, 33, 64, 100};
    const Kind kinds[] = {kRandom, kZeroCol, kNaN, kRandom, kZeroCol, kNaN, kRandom};
    int idx = 0;
    for (kobalt_int s : sizes)
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms) {
                FusedCase<T> c;
                c.layout = l; c.form = f; c.n = s; c.k = s + 2; c.nrhs = 2; c.batch = 7;
                c.tx = kOps[idx % 3]; c.ty = kOps[(idx + 1) % 3];
                c.alpha = (T)0.5; c.beta = idx % 2 ? (T)1 : (T)0;
                c.kinds.assign(kinds, kinds + 7);
                run_fused(c, rng);
                idx++;
            }
    finish();
}

template <class T> void batch_counts(void **)
{
    Rng rng(64);
    for_each_batch_case([&](kobalt_int s, kobalt_int nb, kobalt_layout l, Form f, int idx) {
        FusedCase<T> c;
        c.layout = l; c.form = f; c.n = s; c.k = s + idx % 3; c.nrhs = 1 + idx % 2; c.batch = nb;
        c.tx = kOps[idx % 3]; c.ty = kOps[(idx / 3) % 3];
        c.alpha = (T)kAlphaBeta[idx % 5][0]; c.beta = (T)kAlphaBeta[idx % 5][1];
        c.shared_x = idx % 5 == 0;
        run_fused(c, rng);
    });
    set_case("%sgemm_lu_trsv batch 0 with NULL pointers", type_name<T>());
    KT_CHECK_STATUS(kb::gemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 4, 4, 1, (T)1,
                                             (const T *)nullptr, 4, 16, (const T *)nullptr, 4, 16, (T)1,
                                             (T *)nullptr, 4, 16, nullptr, 4, (T *)nullptr, 4, 4, nullptr, 0));
    KT_CHECK_STATUS(kb::gemm_lu_trsv_batched(KOBALT_ROW_MAJOR, KOBALT_TRANS, KOBALT_NO_TRANS, 4, 4, 1, (T)1,
                                             (const T *const *)nullptr, 4, (const T *const *)nullptr, 4, (T)1,
                                             (T *const *)nullptr, 4, nullptr, 4, (T *const *)nullptr, 1, nullptr,
                                             0));
    for (Form f : kForms) {
        set_case("%sgemm_lu_trsv_%s batch 0 with buffers touches nothing", type_name<T>(), form_name(f));
        MatBatch<T> X(KOBALT_COL_MAJOR, 3, 3, 1), Y(KOBALT_COL_MAJOR, 3, 3, 1), A(KOBALT_COL_MAJOR, 3, 3, 1),
            B(KOBALT_COL_MAJOR, 3, 1, 1);
        X.fill_random(rng); Y.fill_random(rng); A.fill_random(rng); B.fill_random(rng);
        IntBatch ipiv(3, 1), info(1, 1);
        const std::vector<T> a0 = A.buf, b0 = B.buf;
        if (f == Form::Strided) {
            KT_CHECK_STATUS(kb::gemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 3, 3, 1,
                                                     (T)1, X.base(), 3, 9, Y.base(), 3, 9, (T)1, A.base(), 3, 9,
                                                     ipiv.base(), 3, B.base(), 3, 3, info.base(), 0));
        } else {
            auto px = X.cptrs(), py = Y.cptrs();
            auto pa = A.ptrs(), pb = B.ptrs();
            KT_CHECK_STATUS(kb::gemm_lu_trsv_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, 3, 3, 1,
                                                     (T)1, px.data(), 3, py.data(), 3, (T)1, pa.data(), 3,
                                                     ipiv.base(), 3, pb.data(), 3, info.base(), 0));
        }
        A.check_unchanged(a0, "A");
        B.check_unchanged(b0, "B");
        ipiv.check_unchanged(IntBatch(3, 1).buf, "ipiv");
        info.check_unchanged(IntBatch(1, 1).buf, "info");
    }
    finish();
}

/* The packed path (PACKED_LU_MAX, on by default; the _packed_off ctest variant turns it
 * off; it takes k = n) below FUSED_ITEM_MIN / FUSED_ITEM_MIN_FLOAT (the _packed_* runs set
 * both to 9, so that they keep the packed path at every n <= 8), and from there on the
 * per-item kernel (fused_item.cpp, AVX-512 CPUs only; the _item_all run takes it at every
 * n = 1..8). Packed path: packs of W items (2..16 per
 * ISA and precision) and the partial pack after them. Orders 0..8, batch counts around every W, both layouts and forms, every
 * transpose, nrhs 0..17 (B is copied 8 columns at a time), alpha/beta with zeros, singular
 * (zero column) and NaN items mixed in at shifting positions. */
template <class T> void packed_batches(void **)
{
    Rng rng(66);
    static const kobalt_int batches[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 1000};
    static const kobalt_int rhs[] = {1, 0, 2, 9, 1, 17, 8};
    static const double ab[][2] = {{1, 1}, {-0.5, 0}, {0.25, 1}, {0, 2}, {2, -0.5}};
    static const Kind mix[] = {kRandom, kZeroCol, kRandom, kRandom, kNaN, kRandom, kRandom, kZeroCol, kRandom};
    const size_t nmix = sizeof mix / sizeof mix[0];
    int idx = 0;
    for (kobalt_int s = 0; s <= 8; s++)
        for (kobalt_int nb : batches)
            for (kobalt_layout l : kLayouts)
                for (Form f : kForms) {
                    FusedCase<T> c;
                    c.layout = l; c.form = f; c.n = c.k = s; c.batch = nb;
                    c.nrhs = nb >= 1000 ? 1 : rhs[idx % 7];
                    c.tx = kOps[idx % 3]; c.ty = kOps[(idx / 3) % 3];
                    c.alpha = (T)ab[idx % 5][0]; c.beta = (T)ab[idx % 5][1];
                    c.ldx_x = idx % 2; c.ldy_x = (idx / 2) % 2; c.lda_x = (idx / 3) % 2; c.ldb_x = idx % 2;
                    c.sx_x = idx % 3 == 1 ? 2 : 0; c.sa_x = idx % 3 == 2 ? 3 : 0; c.sb_x = idx % 2;
                    c.sp_x = (idx / 2) % 2; c.shared_y = idx % 7 == 5;
                    if (!c.shared_y && c.alpha != T(0))
                        for (kobalt_int i = 0; i < nb; i++) c.kinds.push_back(mix[(size_t)(i + idx) % nmix]);
                    run_fused(c, rng);
                    idx++;
                }
    finish();
}

/* A subnormal pivot U(j, j) in one item at n = 1..8 (the per-item kernel from n = 7 in double,
 * 8 in float by default, every n in the _item_all run; the packed or fixed-n path
 * below it and in _item_off): the L column is divided instead of scaled by the reciprocal and the back
 * substitution divides too, so that x_j = 2p / p = 2 stays finite where 1/p is Inf. A_new =
 * X Y with X = I and Y = diag(1, .., p, .., 1), beta = 0; the item is one of a group of two
 * (item 1) or the odd one after the groups (item 4 of 5).
 * Not on the vendor path (the _vendor run sets GEMM_LU_TRSV_SMALL_MAX = 0): OpenBLAS 0.3.21's
 * dgetrf scales the L column by the reciprocal of a subnormal pivot (Inf, then NaN in U and
 * x) where reference dgetf2 divides; a known difference of the vendor path
 * (docs/performance.md, "Fused call at n = 6, 8 (branch hostfused8, session 9)"). */
template <class T> void subnormal_pivot(void **)
{
    const char *small_max = getenv("KOBALT_GEMM_LU_TRSV_SMALL_MAX");
    if (small_max && *small_max && strtol(small_max, nullptr, 10) < 8) {
        print_message("subnormal_pivot: skipped (GEMM_LU_TRSV_SMALL_MAX = %s: the vendor path)\n", small_max);
        return;
    }
    const T p = std::numeric_limits<T>::denorm_min() * T(16);
    const kobalt_int batch = 5;
    for (kobalt_int n = 1; n <= 8; n++)
        for (kobalt_layout l : kLayouts)
            for (kobalt_int odd : {kobalt_int(1), batch - 1}) {
                const kobalt_int j = (n - 1) / 2 + (odd == 1 ? 0 : n / 2);
                set_case("%sgemm_lu_trsv_strided %s n=%ld item %ld: U(%ld,%ld) subnormal", type_name<T>(),
                         layout_name(l), (long)n, (long)odd, (long)j, (long)j);
                MatBatch<T> X(l, n, n, batch, 0, 0, false, false), Y(l, n, n, batch, 0, 0, false, false);
                MatBatch<T> A(l, n, n, batch, 0, 0, false, false), B(l, n, 1, batch, 0, 0, false, false);
                IntBatch ipiv(n, batch), info(1, batch);
                for (kobalt_int i = 0; i < batch; i++)
                    for (kobalt_int q = 0; q < n; q++) {
                        for (kobalt_int r = 0; r < n; r++) X.at(i, r, q) = Y.at(i, r, q) = r == q ? T(1) : T(0);
                        B.at(i, q, 0) = T(1);
                    }
                Y.at(odd, j, j) = p;
                B.at(odd, j, 0) = T(2) * p;
                KT_CHECK_STATUS(kb::gemm_lu_trsv_strided(l, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, 1, T(1), X.base(),
                                                         X.ld, X.stride, Y.base(), Y.ld, Y.stride, T(0), A.base(),
                                                         A.ld, A.stride, ipiv.base(), ipiv.stride, B.base(), B.ld,
                                                         B.stride, info.base(), batch));
                for (kobalt_int i = 0; i < batch; i++) {
                    KT_CHECK(info.at(i, 0) == 0, "item %ld: info %d, expected 0", (long)i, info.at(i, 0));
                    for (kobalt_int r = 0; r < n; r++) {
                        KT_CHECK(ipiv.at(i, r) == int(r + 1), "item %ld: ipiv[%ld] = %d", (long)i, (long)r,
                                 ipiv.at(i, r));
                        const T want = i == odd && r == j ? T(2) : T(1);
                        KT_CHECK(B.at(i, r, 0) == want, "item %ld x(%ld) = %g, expected %g", (long)i, (long)r,
                                 (double)B.at(i, r, 0), (double)want);
                        const T diag = i == odd && r == j ? p : T(1);
                        KT_CHECK(A.at(i, r, r) == diag, "item %ld U(%ld,%ld) = %g", (long)i, (long)r, (long)r,
                                 (double)A.at(i, r, r));
                    }
                }
            }
    finish();
}

/* Items above the backend's "few large items" size (256), batch 1 and 2. */
template <class T> void large_items(void **)
{
    Rng rng(65);
    int idx = 0;
    for (kobalt_int nb : {1, 2})
        for (kobalt_layout l : kLayouts)
            for (Form f : kForms) {
                FusedCase<T> c;
                c.layout = l; c.form = f; c.n = 260; c.k = 270; c.nrhs = 1 + idx % 3; c.batch = nb;
                c.tx = kOps[idx % 3]; c.ty = kOps[(idx + 2) % 3];
                c.alpha = (T)kAlphaBeta[idx % 5][0]; c.beta = (T)kAlphaBeta[idx % 5][1];
                run_fused(c, rng);
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
        cmocka_unit_test(singular_and_nan<double>),   cmocka_unit_test(singular_and_nan<float>),
        cmocka_unit_test(batch_counts<double>),       cmocka_unit_test(batch_counts<float>),
        cmocka_unit_test(large_items<double>), cmocka_unit_test(large_items<float>),
        cmocka_unit_test(packed_batches<double>),     cmocka_unit_test(packed_batches<float>),
        cmocka_unit_test(subnormal_pivot<double>),    cmocka_unit_test(subnormal_pivot<float>),
    };
    return cmocka_run_group_tests_name("gemm_lu_trsv", tests, NULL, NULL);
}
