/*
 * test_desc.cpp -- correctness of the descriptor routines kobalt_{s,d}{gemm,gemv,trsv,trsm,
 * getrf,getrs,gemm_lu_trsv}_desc and of kobalt_{s,d}{pack,unpack}_interleaved.
 *
 * Every operand gets a random kobalt_matrix_desc: column-major, row-major, interleaved
 * (batch_stride 1, both element orders), the batch index between rows and columns, a
 * random order of the three dimensions with random gaps, and for inputs also shared
 * (batch_stride 0) and self-overlapping items. Sweeps where every operand is interleaved
 * run the SIMD kernels (batches around multiples of every pack width, so full packs and
 * tails both run); mixed sweeps run the standard and the gathered paths. The results are
 * compared per item with CBLAS / LAPACKE (or a scaled residual), as the other
 * correctness tests do: element-wise gemm bounds, ||P A - L U||, solve residuals, pivots
 * and info equal to LAPACK's; every memory cell of an output that is not an element of it
 * keeps its poison, inputs are unchanged bit for bit.
 *
 * Negative cases: random written descriptors whose elements overlap (found by brute force)
 * must be refused with nothing written, and whatever the validator accepts must really
 * be free of overlap.
 */
#include <numeric>

#include "common/kt_test.hpp"

using namespace kt;

namespace {

/* ---- a described batch in one poisoned buffer ------------------------------------------ */
template <class E> struct DescBatch {
    static constexpr size_t guard = 4;
    kobalt_matrix_desc d{};
    kobalt_int batch = 0;
    std::vector<E> buf;
    std::vector<unsigned char> mask; /* 1: an element of some item */

    DescBatch() = default;
    DescBatch(const kobalt_matrix_desc &desc, kobalt_int nbatch) : d(desc), batch(nbatch)
    {
        size_t cells = 0;
        if (d.rows > 0 && d.cols > 0 && batch > 0)
            cells = (size_t)((d.rows - 1) * d.row_stride + (d.cols - 1) * d.col_stride + (batch - 1) * d.batch_stride) + 1;
        buf.assign(2 * guard + cells, poison<E>());
        mask.assign(buf.size(), 0);
        for (kobalt_int b = 0; b < batch; b++)
            for (kobalt_int j = 0; j < d.cols; j++)
                for (kobalt_int i = 0; i < d.rows; i++) mask[pos(b, i, j)] = 1;
    }
    size_t pos(kobalt_int b, kobalt_int i, kobalt_int j) const
    {
        return guard + (size_t)(b * d.batch_stride + i * d.row_stride + j * d.col_stride);
    }
    E *base() { return buf.data() + guard; }
    E &at(kobalt_int b, kobalt_int i, kobalt_int j) { return buf[pos(b, i, j)]; }
    E at(kobalt_int b, kobalt_int i, kobalt_int j) const { return buf[pos(b, i, j)]; }
    void fill_random(Rng &rng)
    {
        for (kobalt_int b = 0; b < batch; b++)
            for (kobalt_int j = 0; j < d.cols; j++)
                for (kobalt_int i = 0; i < d.rows; i++) at(b, i, j) = (E)rng.uniform();
    }
    void fill_value(E v)
    {
        for (kobalt_int b = 0; b < batch; b++)
            for (kobalt_int j = 0; j < d.cols; j++)
                for (kobalt_int i = 0; i < d.rows; i++) at(b, i, j) = v;
    }
    Dense dense(kobalt_int b) const
    {
        Dense D(d.rows, d.cols);
        for (kobalt_int j = 0; j < d.cols; j++)
            for (kobalt_int i = 0; i < d.rows; i++) D(i, j) = (double)at(b, i, j);
        return D;
    }
    /* Item b column-major with ld = max(1, rows), in the working precision. */
    std::vector<E> colmajor(kobalt_int b) const
    {
        const kobalt_int ld = std::max<kobalt_int>(1, d.rows);
        std::vector<E> v((size_t)(ld * std::max<kobalt_int>(1, d.cols)));
        for (kobalt_int j = 0; j < d.cols; j++)
            for (kobalt_int i = 0; i < d.rows; i++) v[(size_t)(i + j * ld)] = at(b, i, j);
        return v;
    }
    void set_colmajor(kobalt_int b, const std::vector<E> &v)
    {
        const kobalt_int ld = std::max<kobalt_int>(1, d.rows);
        for (kobalt_int j = 0; j < d.cols; j++)
            for (kobalt_int i = 0; i < d.rows; i++) at(b, i, j) = v[(size_t)(i + j * ld)];
    }
    long check_padding(const char *what) const
    {
        long bad = 0;
        for (size_t p = 0; p < buf.size(); p++)
            if (!mask[p] && !same_bits(buf[p], poison<E>())) bad++;
        KT_CHECK(bad == 0, "%s: %ld cell(s) that are no element of it were written", what, bad);
        return bad;
    }
    long check_unchanged(const std::vector<E> &snapshot, const char *what) const
    {
        long bad = 0;
        for (size_t p = 0; p < buf.size(); p++)
            if (!same_bits(buf[p], snapshot[p])) bad++;
        KT_CHECK(bad == 0, "%s: %ld cell(s) of an input changed", what, bad);
        return bad;
    }
};

/* ---- random descriptors ------------------------------------------------------------------ */
enum Kind {
    kCol,             /* rows, cols, batch from fastest to slowest */
    kRow,             /* cols, rows, batch */
    kInterleaved,     /* batch, rows, cols: batch_stride 1 */
    kInterleavedRow,  /* batch, cols, rows: batch_stride 1 */
    kBatchMiddle,     /* rows, batch, cols */
    kPermuted,        /* a random order, the fastest stride 1 or 2 */
    kShared,          /* inputs: column- or row-major, batch_stride 0 */
    kOverlap,         /* inputs: items and elements overlapping (row_stride 1, col_stride 1) */
    kKinds
};
const char *const kKindNames[kKinds] = {"col", "row", "il", "il-row", "batch-mid", "perm", "shared", "overlap"};

/* A descriptor of `kind` for a batch of rows x cols items, with random gaps. The
 * strides of dimensions of one element are random too (they must not matter). */
kobalt_matrix_desc make_desc(kobalt_int rows, kobalt_int cols, kobalt_int batch, Kind kind, Rng &rng)
{
    kobalt_int count[3] = {rows, cols, batch}, stride[3] = {0, 0, 0};
    int order[3] = {0, 1, 2};
    switch (kind) {
    case kRow: order[0] = 1; order[1] = 0; break;
    case kInterleaved: order[0] = 2; order[1] = 0; order[2] = 1; break;
    case kInterleavedRow: order[0] = 2; order[1] = 1; order[2] = 0; break;
    case kBatchMiddle: order[1] = 2; order[2] = 1; break;
    case kPermuted:
        for (int i = 2; i > 0; i--) std::swap(order[i], order[rng.below(i + 1)]);
        break;
    case kShared:
        if (rng.below(2)) std::swap(order[0], order[1]);
        break;
    default: break;
    }
    if (kind == kOverlap) {
        kobalt_matrix_desc d = {rows, cols, 1, 1, 1 + rng.below(2)};
        return d;
    }
    kobalt_int span = 0; /* largest offset reached so far */
    for (int k = 0; k < 3; k++) {
        const int dim = order[k];
        kobalt_int s;
        if (k == 0) s = (kind == kPermuted && rng.below(2)) ? 2 : 1;
        else s = span + 1 + (rng.below(3) == 0 ? rng.below(3) : 0);
        if (count[dim] <= 1) s = rng.below(4); /* irrelevant */
        stride[dim] = s;
        if (count[dim] > 1) span += s * (count[dim] - 1);
    }
    if (kind == kShared) stride[2] = 0;
    if ((kind == kInterleaved || kind == kInterleavedRow) && batch > 1) stride[2] = 1;
    kobalt_matrix_desc d = {rows, cols, stride[0], stride[1], stride[2]};
    return d;
}

Kind random_output_kind(Rng &rng) { return (Kind)rng.below(kPermuted + 1); }
Kind random_input_kind(Rng &rng) { return (Kind)rng.below(kKinds); }

std::string describe(const kobalt_matrix_desc &d)
{
    char s[128];
    snprintf(s, sizeof s, "{%ld,%ld,%ld,%ld,%ld}", (long)d.rows, (long)d.cols, (long)d.row_stride, (long)d.col_stride,
             (long)d.batch_stride);
    return s;
}

/* Pivots as a len x 1 int descriptor. */
kobalt_matrix_desc pivot_desc(kobalt_int len, kobalt_int batch, bool interleaved, Rng &rng)
{
    return make_desc(len, 1, batch, interleaved ? kInterleaved : random_output_kind(rng), rng);
}

/* Layout plan of one case: every operand interleaved, or each one random. */
struct Plan {
    bool interleaved = false;
    Rng *rng = nullptr;
    Kind in() const { return interleaved ? (rng->below(2) ? kInterleaved : kInterleavedRow) : random_input_kind(*rng); }
    Kind out() const { return interleaved ? (rng->below(2) ? kInterleaved : kInterleavedRow) : random_output_kind(*rng); }
};

/* Batches around every pack width (2, 4, 8, 16 lanes) and a few more. */
const kobalt_int kBatches[] = {1, 2, 3, 7, 8, 9, 16, 17, 33};
const kobalt_int kTiny[] = {1, 2, 3, 4, 5, 6, 7, 8};
const kobalt_int kMixedSizes[] = {0, 1, 2, 3, 5, 8, 9, 17, 33};

std::vector<kobalt_int> sizes(bool interleaved)
{
    return interleaved ? std::vector<kobalt_int>(std::begin(kTiny), std::end(kTiny))
                       : std::vector<kobalt_int>(std::begin(kMixedSizes), std::end(kMixedSizes));
}

const double kAlphaBeta[][2] = {{1, 0}, {-0.5, 1.5}, {1, 1}, {2, -1}, {0, 0.5}, {0.75, 0}};

/* ======================================================================================
 * gemm (and gemv, which is gemm with one column)
 * ====================================================================================== */
template <class T>
void check_gemm_items(const DescBatch<T> &A, kobalt_op ta, const DescBatch<T> &B, kobalt_op tb, const DescBatch<T> &C0,
                      const DescBatch<T> &C, T alpha, T beta, kobalt_int batch)
{
    const double e = eps<T>();
    for (kobalt_int i = 0; i < batch; i++) {
        const Dense oa = op(A.dense(i), ta), ob = op(B.dense(i), tb);
        const kobalt_int m = C.d.rows, n = C.d.cols, k = oa.cols;
        Dense R = mul(oa, ob), bound = mul(abs(oa), abs(ob));
        long bad = 0;
        double worst = 0;
        for (kobalt_int q = 0; q < n; q++)
            for (kobalt_int p = 0; p < m; p++) {
                double want = (double)alpha * (k > 0 ? R(p, q) : 0.0), b = std::fabs((double)alpha) * (k > 0 ? bound(p, q) : 0.0);
                if (beta != T(0)) {
                    want += (double)beta * (double)C0.at(i, p, q);
                    b += std::fabs((double)beta) * std::fabs((double)C0.at(i, p, q));
                }
                const double diff = std::fabs((double)C.at(i, p, q) - want);
                const double ratio = diff == 0.0 ? 0.0 : diff / ((double)(k + 2) * e * b);
                if (!(ratio <= kThreshold)) {
                    bad++;
                    if (!(ratio <= worst)) worst = ratio;
                }
            }
        KT_CHECK(bad == 0, "item %ld: %ld wrong element(s), worst scaled error %g", (long)i, bad, worst);
    }
}

template <class T>
void run_gemm(const Plan &pl, kobalt_op ta, kobalt_op tb, kobalt_int m, kobalt_int n, kobalt_int k, T alpha, T beta,
              kobalt_int batch)
{
    Rng &rng = *pl.rng;
    const bool na = ta == KOBALT_NO_TRANS, nb = tb == KOBALT_NO_TRANS;
    DescBatch<T> A(make_desc(na ? m : k, na ? k : m, batch, pl.in(), rng), batch);
    DescBatch<T> B(make_desc(nb ? k : n, nb ? n : k, batch, pl.in(), rng), batch);
    DescBatch<T> C(make_desc(m, n, batch, pl.out(), rng), batch);
    set_case("%sgemm_desc ta=%s tb=%s m=%ld n=%ld k=%ld alpha=%g beta=%g batch=%ld A%s B%s C%s", type_name<T>(),
             op_name(ta), op_name(tb), (long)m, (long)n, (long)k, (double)alpha, (double)beta, (long)batch,
             describe(A.d).c_str(), describe(B.d).c_str(), describe(C.d).c_str());
    A.fill_random(rng);
    B.fill_random(rng);
    if (beta == T(0)) C.fill_value(poison<T>());
    else C.fill_random(rng);
    const std::vector<T> a0 = A.buf, b0 = B.buf;
    const DescBatch<T> C0 = C;
    KT_CHECK_STATUS(kb::gemm_desc(ta, tb, alpha, A.base(), &A.d, B.base(), &B.d, beta, C.base(), &C.d, batch));
    A.check_unchanged(a0, "A");
    B.check_unchanged(b0, "B");
    C.check_padding("C");
    check_gemm_items(A, ta, B, tb, C0, C, alpha, beta, batch);
}

template <class T> void gemm_interleaved(void **)
{
    Rng rng(901);
    Plan pl{true, &rng};
    int idx = 0;
    for (kobalt_int s : kTiny)
        for (kobalt_int b : kBatches)
            for (int v = 0; v < 2; v++) {
                const kobalt_op ta = kOps[idx % 3], tb = kOps[(idx / 3) % 3];
                const kobalt_int m = s, n = v ? s : 1 + rng.below(8), k = v ? s : 1 + rng.below(8);
                run_gemm<T>(pl, ta, tb, m, n, k, (T)kAlphaBeta[idx % 6][0], (T)kAlphaBeta[idx % 6][1], b);
                idx++;
            }
    finish();
}

template <class T> void gemm_mixed(void **)
{
    Rng rng(902);
    Plan pl{false, &rng};
    int idx = 0;
    for (kobalt_int s : kMixedSizes)
        for (int rep = 0; rep < 12; rep++) {
            const kobalt_op ta = kOps[idx % 3], tb = kOps[(idx / 3) % 3];
            const kobalt_int m = s, n = rep % 3 ? s : s + 1, k = rep % 4 ? s : (s > 1 ? s - 1 : 2);
            const kobalt_int b = idx % 11 == 5 ? 0 : kBatches[idx % 9] % 10;
            run_gemm<T>(pl, ta, tb, m, n, k, (T)kAlphaBeta[idx % 6][0], (T)kAlphaBeta[idx % 6][1], b);
            idx++;
        }
    finish();
}

template <class T>
void run_gemv(const Plan &pl, kobalt_op trans, kobalt_int m, kobalt_int n, T alpha, T beta, kobalt_int batch)
{
    Rng &rng = *pl.rng;
    const bool nt = trans == KOBALT_NO_TRANS;
    DescBatch<T> A(make_desc(m, n, batch, pl.in(), rng), batch);
    DescBatch<T> x(make_desc(nt ? n : m, 1, batch, pl.in(), rng), batch);
    DescBatch<T> y(make_desc(nt ? m : n, 1, batch, pl.out(), rng), batch);
    set_case("%sgemv_desc trans=%s m=%ld n=%ld alpha=%g beta=%g batch=%ld A%s x%s y%s", type_name<T>(), op_name(trans),
             (long)m, (long)n, (double)alpha, (double)beta, (long)batch, describe(A.d).c_str(), describe(x.d).c_str(),
             describe(y.d).c_str());
    A.fill_random(rng);
    x.fill_random(rng);
    if (beta == T(0) && m > 0 && n > 0) y.fill_value(poison<T>());
    else y.fill_random(rng);
    const std::vector<T> a0 = A.buf, x0 = x.buf, y0 = y.buf;
    const DescBatch<T> Y0 = y;
    KT_CHECK_STATUS(kb::gemv_desc(trans, alpha, A.base(), &A.d, x.base(), &x.d, beta, y.base(), &y.d, batch));
    A.check_unchanged(a0, "A");
    x.check_unchanged(x0, "x");
    y.check_padding("y");
    if (m == 0 || n == 0) {
        y.check_unchanged(y0, "y (empty product: untouched, as CBLAS)");
        return;
    }
    check_gemm_items(A, trans, x, KOBALT_NO_TRANS, Y0, y, alpha, beta, batch);
}

template <class T> void gemv_all(void **)
{
    Rng rng(903);
    int idx = 0;
    for (int il = 0; il < 2; il++) {
        Plan pl{il == 1, &rng};
        for (kobalt_int s : sizes(il))
            for (kobalt_int b : kBatches) {
                const kobalt_int m = s, n = idx % 2 ? s : std::max<kobalt_int>(1, (s + 3) % 9);
                run_gemv<T>(pl, kOps[idx % 3], m, n, (T)kAlphaBeta[idx % 6][0], (T)kAlphaBeta[idx % 6][1], b);
                idx++;
            }
    }
    finish();
}

/* ======================================================================================
 * trsv and trsm
 * ====================================================================================== */
/* Well conditioned triangle in A; the other triangle (and a unit diagonal) poisoned. */
template <class T> void fill_triangle(DescBatch<T> &A, kobalt_uplo uplo, kobalt_diag diag, Rng &rng)
{
    const kobalt_int n = A.d.rows;
    const double scale = diag == KOBALT_UNIT ? 1.0 / (double)std::max<kobalt_int>(n, 1) : 1.0;
    for (kobalt_int b = 0; b < A.batch; b++)
        for (kobalt_int c = 0; c < n; c++)
            for (kobalt_int r = 0; r < n; r++) {
                T v;
                if (r == c) v = diag == KOBALT_UNIT ? poison<T>() : (T)((rng.below(2) ? -1.0 : 1.0) * ((double)n + rng.uniform(0, 1)));
                else if ((uplo == KOBALT_UPPER) == (r < c)) v = (T)(scale * rng.uniform());
                else v = poison<T>();
                A.at(b, r, c) = v;
            }
}

template <class T>
void run_trsm(const Plan &pl, kobalt_side side, kobalt_uplo uplo, kobalt_op ta, kobalt_diag diag, kobalt_int m,
              kobalt_int n, T alpha, kobalt_int batch, bool as_trsv)
{
    Rng &rng = *pl.rng;
    const kobalt_int na = side == KOBALT_LEFT ? m : n;
    /* The triangle is written once per item: shared and overlapping items would mix them. */
    Kind ka = pl.in();
    if (ka == kOverlap || ka == kShared) ka = kCol;
    DescBatch<T> A(make_desc(na, na, batch, ka, rng), batch);
    DescBatch<T> B(make_desc(m, n, batch, pl.out(), rng), batch);
    set_case("%s%s_desc side=%s uplo=%s ta=%s diag=%s m=%ld n=%ld alpha=%g batch=%ld A%s B%s", type_name<T>(),
             as_trsv ? "trsv" : "trsm", side == KOBALT_LEFT ? "L" : "R", uplo == KOBALT_LOWER ? "L" : "U", op_name(ta),
             diag == KOBALT_UNIT ? "U" : "N", (long)m, (long)n, (double)alpha, (long)batch, describe(A.d).c_str(),
             describe(B.d).c_str());
    fill_triangle(A, uplo, diag, rng);
    B.fill_random(rng);
    const std::vector<T> a0 = A.buf;
    const DescBatch<T> B0 = B;
    if (as_trsv)
        KT_CHECK_STATUS(kb::trsv_desc(uplo, ta, diag, A.base(), &A.d, B.base(), &B.d, batch));
    else
        KT_CHECK_STATUS(kb::trsm_desc(side, uplo, ta, diag, alpha, A.base(), &A.d, B.base(), &B.d, batch));
    A.check_unchanged(a0, "A");
    B.check_padding("B");
    for (kobalt_int i = 0; i < batch && m > 0 && n > 0; i++) {
        if (alpha == T(0)) {
            KT_CHECK(norm_max(B.dense(i)) == 0.0, "item %ld: alpha = 0 must zero B", (long)i);
            continue;
        }
        const Dense M = op(triangle(A.dense(i), uplo, diag), ta);
        Dense rhs = B0.dense(i);
        for (double &v : rhs.a) v *= (double)alpha;
        const double res = side == KOBALT_LEFT ? solve_residual(M, B.dense(i), rhs, eps<T>())
                                               : solve_residual(transpose(M), transpose(B.dense(i)), transpose(rhs), eps<T>());
        KT_CHECK(res < kThreshold, "item %ld: solve residual %g", (long)i, res);
    }
}

template <class T> void trsv_trsm_all(void **)
{
    Rng rng(904);
    int idx = 0;
    const kobalt_uplo uplos[] = {KOBALT_LOWER, KOBALT_UPPER};
    const kobalt_diag diags[] = {KOBALT_NON_UNIT, KOBALT_UNIT};
    for (int il = 0; il < 2; il++) {
        Plan pl{il == 1, &rng};
        for (kobalt_int s : sizes(il))
            for (kobalt_uplo u : uplos)
                for (kobalt_diag dg : diags)
                    for (int rep = 0; rep < 3; rep++) {
                        const kobalt_op ta = kOps[idx % 3];
                        const kobalt_int b = kBatches[idx % 9];
                        /* trsv: x is n x 1 */
                        run_trsm<T>(pl, KOBALT_LEFT, u, ta, dg, s, 1, T(1), b, true);
                        const kobalt_side side = idx % 2 ? KOBALT_LEFT : KOBALT_RIGHT;
                        const kobalt_int other = 1 + rng.below(il ? 8 : 12);
                        const T alpha = idx % 7 == 3 ? T(0) : (T)(idx % 2 ? 1.0 : -1.5);
                        run_trsm<T>(pl, side, u, ta, dg, side == KOBALT_LEFT ? s : other,
                                    side == KOBALT_LEFT ? other : s, alpha, b, false);
                        idx++;
                    }
    }
    finish();
}

/* ======================================================================================
 * getrf
 * ====================================================================================== */
enum Special { kRandom, kZeroCol, kNaN, kDominant };

template <class T> void make_special(DescBatch<T> &A, kobalt_int b, Special s, Rng &rng)
{
    const kobalt_int m = A.d.rows, n = A.d.cols, r = std::min(m, n);
    if (s == kZeroCol && r > 0) {
        const kobalt_int c = rng.below(r);
        for (kobalt_int q = 0; q < m; q++) A.at(b, q, c) = T(0);
    }
    if (s == kNaN && r > 0) A.at(b, m / 2, n / 2) = std::numeric_limits<T>::quiet_NaN();
    if (s == kDominant)
        for (kobalt_int c = 0; c < r; c++) A.at(b, c, c) = (T)((c % 2 ? -1.0 : 1.0) * (double)(m + n + 1));
}

template <class T> bool strict_pivots(kobalt_int n) { return sizeof(T) == 8 || n <= 64; }

template <class T> void run_getrf(const Plan &pl, kobalt_int m, kobalt_int n, kobalt_int batch, bool no_pivot, bool specials)
{
    Rng &rng = *pl.rng;
    const kobalt_int r = std::min(m, n);
    DescBatch<T> A(make_desc(m, n, batch, pl.out(), rng), batch);
    DescBatch<int> P(pivot_desc(r, batch, pl.interleaved, rng), batch);
    DescBatch<int> info(kobalt_matrix_desc{1, 1, 1, 1, 1}, batch);
    set_case("%sgetrf_desc m=%ld n=%ld batch=%ld ipiv=%s specials=%d A%s ipiv%s", type_name<T>(), (long)m, (long)n,
             (long)batch, no_pivot ? "NULL" : "array", specials, describe(A.d).c_str(), describe(P.d).c_str());
    A.fill_random(rng);
    std::vector<Special> kinds((size_t)batch, no_pivot ? kDominant : kRandom);
    if (specials && !no_pivot)
        for (kobalt_int b = 0; b < batch; b++) kinds[(size_t)b] = (Special)(b % 3);
    for (kobalt_int b = 0; b < batch; b++) make_special(A, b, kinds[(size_t)b], rng);
    const DescBatch<T> A0 = A;
    KT_CHECK_STATUS(kb::getrf_desc(A.base(), &A.d, no_pivot ? nullptr : P.base(), no_pivot ? nullptr : &P.d,
                                   info.base(), batch));
    A.check_padding("A");
    P.check_padding("ipiv");
    info.check_padding("info");
    if (no_pivot) P.check_unchanged(DescBatch<int>(P.d, batch).buf, "ipiv (NULL was passed)");
    for (kobalt_int b = 0; b < batch; b++) {
        if (kinds[(size_t)b] == kNaN) continue;
        std::vector<T> ref = A0.colmajor(b);
        std::vector<int> rp((size_t)std::max<kobalt_int>(r, 1), 0);
        const int got = info.at(b, 0, 0);
        std::vector<int> gp((size_t)std::max<kobalt_int>(r, 1), 0);
        for (kobalt_int j = 0; j < r && !no_pivot; j++) gp[(size_t)j] = P.at(b, j, 0);
        if (no_pivot) {
            KT_CHECK(got == 0, "item %ld: info %d, expected 0 (dominant, no pivoting)", (long)b, got);
        } else {
            const int want = ref::getrf(KOBALT_COL_MAJOR, (int)m, (int)n, ref.data(), (int)std::max<kobalt_int>(1, m), rp.data());
            KT_CHECK(got == want, "item %ld: info %d, LAPACK %d", (long)b, got, want);
            if (strict_pivots<T>(std::max(m, n))) {
                kobalt_int first = -1;
                for (kobalt_int j = 0; j < r && first < 0; j++)
                    if (gp[(size_t)j] != rp[(size_t)j]) first = j;
                KT_CHECK(first < 0, "item %ld: ipiv[%ld] = %d, LAPACK %d", (long)b, (long)first,
                         first < 0 ? 0 : gp[(size_t)first], first < 0 ? 0 : rp[(size_t)first]);
            }
        }
        const double res = lu_residual(A0.dense(b), A.dense(b), no_pivot ? nullptr : gp.data(), eps<T>());
        KT_CHECK(res < kThreshold, "item %ld: ||PA - LU|| scaled residual %g", (long)b, res);
    }
}

template <class T> void getrf_all(void **)
{
    Rng rng(905);
    int idx = 0;
    for (int il = 0; il < 2; il++) {
        Plan pl{il == 1, &rng};
        for (kobalt_int s : sizes(il))
            for (kobalt_int b : kBatches) {
                const int shape = idx % 3; /* square, tall, wide */
                const kobalt_int m = shape == 1 ? std::min<kobalt_int>(s + 2, il ? 8 : 40) : s;
                const kobalt_int n = shape == 2 ? std::min<kobalt_int>(s + 3, il ? 8 : 40) : s;
                run_getrf<T>(pl, m, n, b, idx % 5 == 4, idx % 4 == 1);
                idx++;
            }
    }
    finish();
}

/* ======================================================================================
 * getrs
 * ====================================================================================== */
template <class T>
void run_getrs(const Plan &pl, kobalt_op trans, kobalt_int n, kobalt_int nrhs, kobalt_int batch, bool no_pivot)
{
    Rng &rng = *pl.rng;
    Kind ka = pl.in();
    if (ka == kOverlap || ka == kShared) ka = kRow; /* the factors are written per item */
    DescBatch<T> A(make_desc(n, n, batch, ka, rng), batch);
    DescBatch<int> P(pivot_desc(n, batch, pl.interleaved, rng), batch);
    DescBatch<T> B(make_desc(n, nrhs, batch, pl.out(), rng), batch);
    set_case("%sgetrs_desc trans=%s n=%ld nrhs=%ld batch=%ld ipiv=%s A%s ipiv%s B%s", type_name<T>(), op_name(trans),
             (long)n, (long)nrhs, (long)batch, no_pivot ? "NULL" : "array", describe(A.d).c_str(), describe(P.d).c_str(),
             describe(B.d).c_str());
    A.fill_random(rng);
    B.fill_random(rng);
    std::vector<Dense> orig((size_t)batch);
    for (kobalt_int b = 0; b < batch; b++) {
        if (no_pivot) make_special(A, b, kDominant, rng);
        orig[(size_t)b] = A.dense(b);
        std::vector<T> f = A.colmajor(b);
        const int ld = (int)std::max<kobalt_int>(1, n);
        if (no_pivot) {
            for (kobalt_int k = 0; k < n; k++)
                for (kobalt_int r = k + 1; r < n; r++) {
                    f[(size_t)(r + k * ld)] /= f[(size_t)(k + k * ld)];
                    for (kobalt_int c = k + 1; c < n; c++) f[(size_t)(r + c * ld)] -= f[(size_t)(r + k * ld)] * f[(size_t)(k + c * ld)];
                }
        } else {
            std::vector<int> rp((size_t)std::max<kobalt_int>(n, 1));
            ref::getrf(KOBALT_COL_MAJOR, (int)n, (int)n, f.data(), ld, rp.data());
            for (kobalt_int j = 0; j < n; j++) P.at(b, j, 0) = rp[(size_t)j];
        }
        A.set_colmajor(b, f);
    }
    const std::vector<T> a0 = A.buf;
    const std::vector<int> p0 = P.buf;
    const DescBatch<T> B0 = B;
    KT_CHECK_STATUS(kb::getrs_desc(trans, A.base(), &A.d, no_pivot ? nullptr : P.base(), no_pivot ? nullptr : &P.d,
                                   B.base(), &B.d, batch));
    A.check_unchanged(a0, "A");
    P.check_unchanged(p0, "ipiv");
    B.check_padding("B");
    for (kobalt_int b = 0; b < batch && n > 0; b++) {
        const double res = solve_residual(op(orig[(size_t)b], trans), B.dense(b), B0.dense(b), eps<T>());
        KT_CHECK(res < kThreshold, "item %ld: solve residual %g", (long)b, res);
    }
}

template <class T> void getrs_all(void **)
{
    Rng rng(906);
    int idx = 0;
    for (int il = 0; il < 2; il++) {
        Plan pl{il == 1, &rng};
        for (kobalt_int s : sizes(il))
            for (kobalt_int b : kBatches) {
                const kobalt_int nrhs = idx % 4 == 0 ? 1 + rng.below(5) : 1;
                run_getrs<T>(pl, kOps[idx % 3], s, idx % 9 == 4 ? 0 : nrhs, b, idx % 5 == 2);
                idx++;
            }
    }
    finish();
}

/* ======================================================================================
 * the fused call
 * ====================================================================================== */
template <class T>
void run_fused(const Plan &pl, kobalt_op tx, kobalt_op ty, kobalt_int n, kobalt_int k, kobalt_int nrhs, T alpha, T beta,
               kobalt_int batch, bool no_pivot, bool specials)
{
    Rng &rng = *pl.rng;
    const bool nx = tx == KOBALT_NO_TRANS, ny = ty == KOBALT_NO_TRANS;
    DescBatch<T> X(make_desc(nx ? n : k, nx ? k : n, batch, pl.in(), rng), batch);
    DescBatch<T> Y(make_desc(ny ? k : n, ny ? n : k, batch, pl.in(), rng), batch);
    DescBatch<T> A(make_desc(n, n, batch, pl.out(), rng), batch);
    DescBatch<int> P(pivot_desc(n, batch, pl.interleaved, rng), batch);
    DescBatch<T> B(make_desc(n, nrhs, batch, pl.out(), rng), batch);
    DescBatch<int> info(kobalt_matrix_desc{1, 1, 1, 1, 1}, batch);
    set_case("%sgemm_lu_trsv_desc tx=%s ty=%s n=%ld k=%ld nrhs=%ld alpha=%g beta=%g batch=%ld ipiv=%s specials=%d "
             "X%s Y%s A%s ipiv%s B%s",
             type_name<T>(), op_name(tx), op_name(ty), (long)n, (long)k, (long)nrhs, (double)alpha, (double)beta,
             (long)batch, no_pivot ? "NULL" : "array", specials, describe(X.d).c_str(), describe(Y.d).c_str(),
             describe(A.d).c_str(), describe(P.d).c_str(), describe(B.d).c_str());
    X.fill_random(rng);
    Y.fill_random(rng);
    if (beta == T(0)) A.fill_value(poison<T>());
    else A.fill_random(rng);
    B.fill_random(rng);
    /* Without pivoting (and for the singular items' neighbours) the new A must be safe:
     * beta A0 with a dominant A0 and alpha small. */
    const bool shared_inputs = X.d.batch_stride == 0 || Y.d.batch_stride == 0 ||
                               X.d.col_stride == X.d.row_stride || Y.d.col_stride == Y.d.row_stride;
    std::vector<int> kinds((size_t)batch, 0); /* 0 random, 1 zero column, 2 NaN */
    for (kobalt_int b = 0; b < batch; b++) {
        if (no_pivot) {
            for (kobalt_int c = 0; c < n; c++) A.at(b, c, c) = (T)((c % 2 ? -1.0 : 1.0) * (double)(4 * (n + k) + 4));
        } else if (specials && !shared_inputs && n > 0) {
            kinds[(size_t)b] = (int)(b % 3);
            if (kinds[(size_t)b] == 1) { /* column j of op(Y) and of A zero: column j of the new A is zero */
                const kobalt_int j = (b * 5 + 1) % n;
                for (kobalt_int p = 0; p < k; p++) (ny ? Y.at(b, p, j) : Y.at(b, j, p)) = T(0);
                if (beta != T(0))
                    for (kobalt_int p = 0; p < n; p++) A.at(b, p, j) = T(0);
            }
            if (kinds[(size_t)b] == 2 && k > 0) (nx ? X.at(b, n / 2, k / 2) : X.at(b, k / 2, n / 2)) = std::numeric_limits<T>::quiet_NaN();
        }
    }
    const std::vector<T> x0 = X.buf, y0 = Y.buf;
    const DescBatch<T> A0 = A, B0 = B;
    KT_CHECK_STATUS(kb::gemm_lu_trsv_desc(tx, ty, alpha, X.base(), &X.d, Y.base(), &Y.d, beta, A.base(), &A.d,
                                          no_pivot ? nullptr : P.base(), no_pivot ? nullptr : &P.d, B.base(), &B.d,
                                          info.base(), batch));
    X.check_unchanged(x0, "X");
    Y.check_unchanged(y0, "Y");
    A.check_padding("A");
    P.check_padding("ipiv");
    B.check_padding("B");
    info.check_padding("info");
    const double e = eps<T>();
    for (kobalt_int b = 0; b < batch; b++) {
        if (kinds[(size_t)b] == 2) continue;
        /* reference: gemm, then getrf, in the working precision, column-major */
        const int ld = (int)std::max<kobalt_int>(1, n);
        std::vector<T> xa = X.colmajor(b), ya = Y.colmajor(b), ra(beta == T(0) ? std::vector<T>((size_t)(ld * std::max<kobalt_int>(1, n)), T(0)) : A0.colmajor(b));
        if (n > 0)
            ref::gemm(KOBALT_COL_MAJOR, tx, ty, (int)n, (int)n, (int)k, alpha, xa.data(), (int)std::max<kobalt_int>(1, X.d.rows),
                      ya.data(), (int)std::max<kobalt_int>(1, Y.d.rows), beta, ra.data(), ld);
        Dense Ar(n, n);
        for (kobalt_int j = 0; j < n; j++)
            for (kobalt_int i = 0; i < n; i++) Ar(i, j) = (double)ra[(size_t)(i + j * ld)];
        std::vector<int> rp((size_t)std::max<kobalt_int>(n, 1), 0), gp((size_t)std::max<kobalt_int>(n, 1), 0);
        const int want = no_pivot ? 0 : (n > 0 ? ref::getrf(KOBALT_COL_MAJOR, (int)n, (int)n, ra.data(), ld, rp.data()) : 0);
        const int got = info.at(b, 0, 0);
        KT_CHECK(got == want, "item %ld: info %d, LAPACK %d", (long)b, got, want);
        for (kobalt_int j = 0; j < n && !no_pivot; j++) gp[(size_t)j] = P.at(b, j, 0);
        if (!no_pivot && strict_pivots<T>(n)) {
            kobalt_int first = -1;
            for (kobalt_int j = 0; j < n && first < 0; j++)
                if (gp[(size_t)j] != rp[(size_t)j]) first = j;
            KT_CHECK(first < 0, "item %ld: ipiv[%ld] = %d, LAPACK %d", (long)b, (long)first, first < 0 ? 0 : gp[(size_t)first],
                     first < 0 ? 0 : rp[(size_t)first]);
        }
        if (n == 0) continue;
        Dense G(n, n);
        if (alpha != T(0) && k > 0) G = mul(abs(op(X.dense(b), tx)), abs(op(Y.dense(b), ty)));
        for (kobalt_int q = 0; q < n; q++)
            for (kobalt_int p = 0; p < n; p++)
                G(p, q) = std::fabs((double)alpha) * G(p, q) + (beta != T(0) ? std::fabs((double)beta) * std::fabs((double)A0.at(b, p, q)) : 0.0);
        const double scale = std::max(norm1(Ar), norm1(G)), denom = (double)(n + k + 2) * e;
        Dense Lo, Up;
        split_lu(A.dense(b), Lo, Up);
        Dense PA = no_pivot ? Ar : apply_pivots(Ar, gp.data(), n), LU = mul(Lo, Up);
        for (size_t p = 0; p < LU.a.size(); p++) LU.a[p] -= PA.a[p];
        const double r1 = norm1(LU), ratio = r1 == 0.0 ? 0.0 : r1 / (denom * scale);
        KT_CHECK(ratio < kThreshold, "item %ld: ||P A - L U|| scaled residual %g", (long)b, ratio);
        if (got != 0) {
            long changed = 0;
            for (kobalt_int c = 0; c < nrhs; c++)
                for (kobalt_int i = 0; i < n; i++)
                    if (!same_bits(B.at(b, i, c), B0.at(b, i, c))) changed++;
            KT_CHECK(changed == 0, "item %ld: singular (info %d) but %ld element(s) of B changed", (long)b, got, changed);
            continue;
        }
        if (!all_finite(Ar)) continue;
        const double res = solve_residual(Ar, B.dense(b), B0.dense(b), e);
        KT_CHECK(res < kThreshold * 4, "item %ld: solve residual %g", (long)b, res);
    }
}

template <class T> void fused_all(void **)
{
    Rng rng(907);
    int idx = 0;
    for (int il = 0; il < 2; il++) {
        Plan pl{il == 1, &rng};
        for (kobalt_int s : sizes(il))
            for (kobalt_int b : kBatches) {
                const kobalt_int k = idx % 3 ? s : std::max<kobalt_int>(1, (s + 2) % 9);
                const kobalt_int nrhs = idx % 4 == 0 ? 1 + rng.below(3) : 1;
                const bool no_pivot = idx % 5 == 3; /* dominant A0, kept: beta 1, alpha small */
                const T alpha = no_pivot ? T(0.5) : (T)kAlphaBeta[idx % 6][0];
                const T beta = !no_pivot && idx % 5 == 1 ? T(0) : T(1);
                /* beta = 0 and k < n would make A exactly singular, its pivots rounding noise */
                run_fused<T>(pl, kOps[idx % 3], kOps[(idx / 3) % 3], s, beta == T(0) ? std::max(k, s) : k, nrhs, alpha,
                             beta, b, no_pivot, idx % 3 == 1);
                idx++;
            }
    }
    finish();
}

/* ======================================================================================
 * pack / unpack
 * ====================================================================================== */
template <class T> void pack_roundtrip(void **)
{
    Rng rng(908);
    const kobalt_int shapes[][2] = {{1, 1}, {2, 3}, {4, 4}, {5, 2}, {8, 8}, {9, 7}, {0, 3}};
    int idx = 0;
    for (auto &sh : shapes)
        for (kobalt_layout l : kLayouts)
            for (kobalt_int b : {1, 3, 64, 65, 200}) {
                const kobalt_int rows = sh[0], cols = sh[1], ldp = b + idx % 3;
                set_case("%spack/unpack_interleaved %s rows=%ld cols=%ld batch=%ld ldp=%ld", type_name<T>(), layout_name(l),
                         (long)rows, (long)cols, (long)b, (long)ldp);
                MatBatch<T> A(l, rows, cols, b, idx % 2, idx % 3);
                A.fill_random(rng);
                const std::vector<T> a0 = A.buf;
                const kobalt_matrix_desc pd = kobalt_desc_interleaved(rows, cols, ldp);
                /* P as a described batch: its padding columns (ldp > batch) must stay poisoned */
                DescBatch<T> P(pd, b);
                KT_CHECK_STATUS(kb::pack_interleaved(l, rows, cols, A.base(), A.ld, A.stride, P.base(), ldp, b));
                A.check_unchanged(a0, "A");
                P.check_padding("P");
                long bad = 0;
                for (kobalt_int i = 0; i < b; i++)
                    for (kobalt_int c = 0; c < cols; c++)
                        for (kobalt_int r = 0; r < rows; r++)
                            if (!same_bits(P.at(i, r, c), A.at(i, r, c))) bad++;
                KT_CHECK(bad == 0, "pack: %ld element(s) differ", bad);
                MatBatch<T> U(l, rows, cols, b, idx % 2, idx % 3);
                const std::vector<T> p0 = P.buf;
                KT_CHECK_STATUS(kb::unpack_interleaved(l, rows, cols, P.base(), ldp, U.base(), U.ld, U.stride, b));
                P.check_unchanged(p0, "P");
                U.check_padding("A (unpacked)");
                bad = 0;
                for (kobalt_int i = 0; i < b; i++)
                    for (kobalt_int c = 0; c < cols; c++)
                        for (kobalt_int r = 0; r < rows; r++)
                            if (!same_bits(U.at(i, r, c), A.at(i, r, c))) bad++;
                KT_CHECK(bad == 0, "unpack: %ld element(s) differ", bad);
                idx++;
            }
    finish();
}

/* Pack, solve in the interleaved layout, unpack: the same answers as the standard call. */
template <class T> void pack_then_solve(void **)
{
    Rng rng(909);
    for (kobalt_int n : {2, 4, 8})
        for (kobalt_int b : {5, 37}) {
            set_case("%spack + getrf_desc + getrs_desc + unpack n=%ld batch=%ld", type_name<T>(), (long)n, (long)b);
            MatBatch<T> A(KOBALT_ROW_MAJOR, n, n, b), X(KOBALT_ROW_MAJOR, n, 1, b);
            A.fill_random(rng);
            X.fill_random(rng);
            std::vector<T> PA((size_t)(n * n * b)), PX((size_t)(n * b));
            std::vector<int> piv((size_t)(n * b)), info((size_t)b, -7);
            const kobalt_matrix_desc da = kobalt_desc_interleaved(n, n, b), dx = kobalt_desc_interleaved(n, 1, b),
                                     dp = kobalt_desc_interleaved(n, 1, b);
            KT_CHECK_STATUS(kb::pack_interleaved(KOBALT_ROW_MAJOR, n, n, A.base(), A.ld, A.stride, PA.data(), b, b));
            KT_CHECK_STATUS(kb::pack_interleaved(KOBALT_ROW_MAJOR, n, 1, X.base(), X.ld, X.stride, PX.data(), b, b));
            KT_CHECK_STATUS(kb::getrf_desc(PA.data(), &da, piv.data(), &dp, info.data(), b));
            KT_CHECK_STATUS(kb::getrs_desc(KOBALT_NO_TRANS, PA.data(), &da, piv.data(), &dp, PX.data(), &dx, b));
            MatBatch<T> S = X;
            KT_CHECK_STATUS(kb::unpack_interleaved(KOBALT_ROW_MAJOR, n, 1, PX.data(), b, S.base(), S.ld, S.stride, b));
            for (kobalt_int i = 0; i < b; i++) {
                KT_CHECK(info[(size_t)i] == 0, "item %ld: info %d", (long)i, info[(size_t)i]);
                const double res = solve_residual(to_dense(A, i), to_dense(S, i), to_dense(X, i), eps<T>());
                KT_CHECK(res < kThreshold, "item %ld: solve residual %g", (long)i, res);
            }
        }
    finish();
}

/* ======================================================================================
 * negative cases: overlapping written operands
 * ====================================================================================== */
/* Brute force: do two elements of the batch share an offset? */
bool overlaps(const kobalt_matrix_desc &d, kobalt_int batch)
{
    std::vector<kobalt_int> offs;
    for (kobalt_int b = 0; b < batch; b++)
        for (kobalt_int j = 0; j < d.cols; j++)
            for (kobalt_int i = 0; i < d.rows; i++) offs.push_back(b * d.batch_stride + i * d.row_stride + j * d.col_stride);
    std::sort(offs.begin(), offs.end());
    return std::adjacent_find(offs.begin(), offs.end()) != offs.end();
}

template <class T> void overlap_refused(void **)
{
    Rng rng(910);
    long refused = 0, accepted = 0, overlapping = 0;
    for (int t = 0; t < 3000; t++) {
        const kobalt_int rows = 1 + rng.below(4), cols = 1 + rng.below(4), batch = 1 + rng.below(4);
        const kobalt_matrix_desc dc = {rows, cols, rng.below(7), rng.below(7), rng.below(12)};
        set_case("%sgetrf_desc overlap probe A%s batch=%ld", type_name<T>(), describe(dc).c_str(), (long)batch);
        DescBatch<T> A(dc, batch);
        A.fill_random(rng);
        const std::vector<T> a0 = A.buf;
        std::vector<int> info((size_t)batch, -3);
        const kobalt_status st = kb::getrf_desc(A.base(), &dc, nullptr, nullptr, info.data(), batch);
        const bool overlap = overlaps(dc, batch);
        overlapping += overlap;
        if (st == KOBALT_SUCCESS) {
            accepted++;
            KT_CHECK(!overlap, "accepted a descriptor whose elements overlap");
        } else {
            refused++;
            KT_CHECK(st == KOBALT_INVALID_ARGUMENT, "status %s", kobalt_status_name(st));
            KT_CHECK(strstr(kobalt_last_error(), "descA ") != NULL, "message does not name descA: %s", kobalt_last_error());
            A.check_unchanged(a0, "A (refused call)");
            KT_CHECK(info[0] == -3, "refused call wrote info");
        }
        /* the same descriptor as an input is always fine: gemm with C apart reads it */
        if (!overlap) continue;
        DescBatch<T> C(make_desc(rows, cols, batch, kCol, rng), batch);
        const kobalt_matrix_desc di = {cols, cols, 1, cols, 0};
        std::vector<T> I((size_t)(cols * cols), T(0));
        for (kobalt_int c = 0; c < cols; c++) I[(size_t)(c + c * cols)] = T(1);
        KT_CHECK_STATUS(kb::gemm_desc(KOBALT_NO_TRANS, KOBALT_NO_TRANS, T(1), A.base(), &dc, I.data(), &di, T(0),
                                      C.base(), &C.d, batch));
        for (kobalt_int b = 0; b < batch; b++)
            for (kobalt_int j = 0; j < cols; j++)
                for (kobalt_int i = 0; i < rows; i++)
                    KT_CHECK(same_bits(C.at(b, i, j), A.at(b, i, j)) || C.at(b, i, j) == A.at(b, i, j),
                             "overlapping input read wrongly at item %ld (%ld,%ld)", (long)b, (long)i, (long)j);
    }
    print_message("  overlap probes: %ld refused, %ld accepted, %ld overlapping\n", refused, accepted, overlapping);
    KT_CHECK(refused >= overlapping, "fewer refusals than overlapping descriptors");
    finish();
}

/* A valid input may claim far more elements than it occupies: A n x n with every stride 0
 * (one element, shared by all) and n = 2^31 - 1, with an output x / B of n elements apart
 * (a sparse mapping). Such a layout takes the gathered path, whose scratch for one item
 * (n^2 elements, about 2^65 bytes) cannot exist: the call must report KOBALT_OUT_OF_MEMORY
 * (as for any scratch it cannot allocate) before writing anything. The bytes per item once
 * overflowed int64 and std::vector's length_error came out as KOBALT_BACKEND_ERROR
 * ("unexpected C++ exception"). getrs_desc (no pivots) and trsv_desc. */
template <class T> void gather_scratch_too_large(void **)
{
    const kobalt_int n = INT32_MAX;
    SparseMap<T> X((size_t)n);
    if (!X.ok()) skip();
    const T a = T(2);
    const kobalt_matrix_desc dA = {n, n, 0, 0, 0}, dX = {n, 1, 1, n, n};
    const kobalt_int probes[] = {0, 1, n / 2, n - 1};
    for (kobalt_int e : probes) X.p[e] = poison<T>();
    for (int routine = 0; routine < 2; routine++) {
        set_case("%s%s_desc n=2^31-1, A one shared element (strides 0), x/B n x 1", type_name<T>(),
                 routine == 0 ? "getrs" : "trsv");
        const kobalt_status st =
            routine == 0 ? kb::getrs_desc(KOBALT_NO_TRANS, &a, &dA, nullptr, nullptr, X.p, &dX, 1)
                         : kb::trsv_desc(KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, &a, &dA, X.p, &dX, 1);
        KT_CHECK(st == KOBALT_OUT_OF_MEMORY, "status %s (%s), expected KOBALT_OUT_OF_MEMORY", kobalt_status_name(st),
                 kobalt_last_error());
        for (kobalt_int e : probes)
            KT_CHECK(same_bits(X.p[e], poison<T>()), "x/B element %ld written by a failed call", (long)e);
    }
    finish();
}

#define DESC_TESTS(T)                                                                                \
    cmocka_unit_test(gemm_interleaved<T>), cmocka_unit_test(gemm_mixed<T>), cmocka_unit_test(gemv_all<T>), \
        cmocka_unit_test(trsv_trsm_all<T>), cmocka_unit_test(getrf_all<T>), cmocka_unit_test(getrs_all<T>),  \
        cmocka_unit_test(fused_all<T>), cmocka_unit_test(pack_roundtrip<T>), cmocka_unit_test(pack_then_solve<T>), \
        cmocka_unit_test(overlap_refused<T>), cmocka_unit_test(gather_scratch_too_large<T>)

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {DESC_TESTS(double), DESC_TESTS(float)};
    return cmocka_run_group_tests_name("kobalt descriptor routines", tests, NULL, NULL);
}
