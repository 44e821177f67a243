// kobalt-bench -- Kobalt against the host alternatives, on identical inputs.
//
// For every routine, precision and size n it times Kobalt's public entry point (core
// validation, routing and the openmp backend, exactly what a user calls) and, in the
// same run and on the same batch, the peers a user would otherwise write:
//   blas    OpenBLAS CBLAS / LAPACKE per item inside an OpenMP loop (one thread per
//           call); for the fused call three sweeps: gemm, getrf, getrs
//   kokkos  the KokkosBatched Serial functors called directly in an OpenMP loop
//           (Unblocked and Blocked both timed, the faster one is the peer; for the
//           fused call without pivoting all three functors in one loop)
//   xsmm    libxsmm's JIT kernel (gemm), dispatched once, called per item
//   eigen   Eigen fixed-size maps (gemm, gemv, trsv, trsm, PartialPivLU's in-place
//           factorisation, the solve, the fused sequence), n <= 16
// plus "kobalt3", Kobalt's own gemm + getrf + getrs calls, on the fused lines.
//
// Every peer's output is checked against Kobalt's on fresh random inputs before its
// timing counts; a peer that disagrees is shown as FAIL. Timings are the median of
// --reps runs, contenders interleaved in each repeat, inputs restored (untimed) before
// every run. The batch holds --mb MB of data (default 4x the last-level cache). A
// measured copy bandwidth (STREAM-like copy loop, read + write counted) gives the
// memory floor of each line: bytes read once + bytes written once, over the bandwidth.
//
//   kobalt-bench [--routines gemm,gemv,trsv,trsm,getrf,getrf_np,getrs,fused,fused_np]
//                [--prec d,s] [--sizes 2,3,4,...] [--layout col|row]
//                [--form strided|batched] [--trans N|T] [--reps R] [--mb MB] [--nrhs K]
//                [--pivots random|rotate]
//                [--peers blas,kokkos,xsmm,eigen,kobalt3] [--out file.csv|file.json]
#include <kobalt/kobalt.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "peers.hpp"

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string t;
    while (std::getline(ss, t, ','))
        if (!t.empty()) out.push_back(t);
    return out;
}

struct Options {
    std::vector<std::string> routines = {"gemm",  "gemv",  "trsv",     "trsm", "getrf",
                                         "getrf_np", "getrs", "fused", "fused_np"};
    std::vector<std::string> precs = {"d", "s"};
    std::vector<int> sizes = {2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64, 96, 128, 256};
    bool row = false, batched = false, trans = false; // trans: getrs, trsv with op(A) = A^T
    bool random_pivots = true; // --pivots random|rotate (fill's solvable items)
    int reps = 7, nrhs = 1;
    double mb = 0; // 0: 4x LLC
    std::set<std::string> peers = {"blas", "kokkos", "xsmm", "eigen", "kobalt3"};
    std::string out;
};

// Last-level cache: sysfs first (some VMs report nonsense through sysconf).
size_t llc_bytes() {
    for (int idx = 3; idx >= 2; --idx) {
        std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(idx) +
                        "/size");
        std::string s;
        if (f >> s) {
            size_t x = std::stoul(s);
            if (s.back() == 'K') x <<= 10;
            if (s.back() == 'M') x <<= 20;
            return x;
        }
    }
    long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (v > 0) return size_t(v);
    return 32u << 20;
}

// Parallel fill with a fast counter-based generator: uniform in [-1, 1).
inline double hash01(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return double(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

// STREAM-like copy bandwidth, bytes read + bytes written per second (median of 7).
double copy_bandwidth(size_t bytes) {
    const size_t n = bytes / sizeof(double);
    std::vector<double> a(n), b(n);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; ++i) {
        a[i] = double(i);
        b[i] = 0;
    }
    std::vector<double> t;
    for (int r = 0; r < 9; ++r) {
        const double t0 = now();
        double *__restrict__ pa = a.data(), *__restrict__ pb = b.data();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; ++i) pb[i] = pa[i];
        t.push_back(now() - t0);
    }
    std::sort(t.begin(), t.end());
    return 2.0 * double(n * sizeof(double)) / t[t.size() / 2];
}

// ---- one batch of operands ------------------------------------------------------------

// An operand: per item `count` elements; pristine inputs, the working copy and the
// pointer array of the working copy.
template <class E> struct Operand {
    size_t count = 0;
    std::vector<E> pristine, work;
    std::vector<E *> ptrs;
    void alloc(size_t per_item, size_t batch) {
        count = per_item;
        pristine.assign(per_item * batch, E(0));
        work.assign(per_item * batch, E(0));
        ptrs.resize(batch);
        for (size_t i = 0; i < batch; ++i) ptrs[i] = work.data() + i * per_item;
    }
    void restore() {
        const size_t total = work.size();
        E *__restrict__ w = work.data();
        const E *__restrict__ p = pristine.data();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < total; ++i) w[i] = p[i];
    }
    bool empty() const { return count == 0; }
};

enum class Kind { general, triangular, factored, solvable };

// Fills n x n items: general (uniform), triangular (lower, diagonal n+1, upper part
// random junk that must not be read), solvable (a row permutation of a diagonally
// dominant matrix: partial pivoting must swap, the matrix is well conditioned).
//
// The solvable items' row permutation: random per item (random_rows, the default since
// session 35), or the rotation by 1 + (item * 7919) mod (n - 1) that every run before used
// (--pivots rotate). The rotation's pivots repeat with period n - 1 along the batch, and a
// branch predictor learns them: kernels that branch on a pivot's value then ran up to
// twice as fast as on pivots of real data (docs/performance.md, "getrs at n <= 8: the
// interchanges as load offsets").
template <class T>
void fill(Operand<T> &op, int rows, int cols, Kind kind, uint64_t seed, bool row_major,
          bool random_rows = true) {
    const size_t batch = op.ptrs.size(), cnt = op.count;
    T *base = op.pristine.data();
#pragma omp parallel for schedule(static)
    for (size_t it = 0; it < batch; ++it) {
        T *p = base + it * cnt;
        const uint64_t s = seed * 0x100000001b3ull + it * 0x9e3779b9ull;
        for (size_t e = 0; e < cnt; ++e) p[e] = T(hash01(s * 1315423911ull + e));
        if (kind == Kind::general) continue;
        const int n = rows;
        auto at = [&](int i, int j) -> T & {
            return row_major ? p[size_t(i) * cols + j] : p[i + size_t(j) * rows];
        };
        if (kind == Kind::triangular) {
            for (int i = 0; i < n; ++i) at(i, i) = T(n + 1) * (at(i, i) < 0 ? T(-1) : T(1));
            for (int i = 0; i < n; ++i)
                for (int j = i + 1; j < n; ++j) at(i, j) = T(1e30f); // never read
        } else if (kind == Kind::solvable) {
            for (int i = 0; i < n; ++i) at(i, i) += T(n + 1) * (at(i, i) < 0 ? T(-1) : T(1));
            // permute the rows by a per-item permutation: pivoting has to undo it
            std::vector<int> to(n);
            const int shift = n > 1 ? 1 + int((it * 7919) % size_t(n - 1)) : 0;
            for (int i = 0; i < n; ++i) to[i] = (i + shift) % n;
            if (random_rows) // Fisher-Yates, drawn from the item's own hash stream
                for (int i = n - 1; i > 0; --i) {
                    const double u = 0.5 * (hash01(s * 2654435761ull + 0x5851f42dull + i) + 1.0);
                    std::swap(to[i], to[std::min(i, int(u * (i + 1)))]);
                }
            std::vector<T> tmp(size_t(n) * n);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) tmp[size_t(i) * n + j] = at(i, j);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) at(to[i], j) = tmp[size_t(i) * n + j];
        }
    }
}

// ---- results --------------------------------------------------------------------------

struct Timing {
    std::string name;
    bool ok = true, skipped = false;
    std::string why;
    double med = 0, lo = 0, hi = 0;
};

struct Line {
    std::string routine, prec;
    int n = 0;
    size_t batch = 0;
    double flops_item = 0, bytes_item = 0, floor_s = 0;
    std::vector<Timing> t; // t[0] = kobalt
};

const char *peer_order[] = {"blas", "kokkos", "xsmm", "eigen"};

// Best time of a peer family (kokkos = best of kokkos_u / kokkos_b).
const Timing *family(const Line &l, const std::string &f) {
    const Timing *best = nullptr;
    for (const Timing &t : l.t) {
        if (t.skipped || !t.ok) continue;
        if (t.name == f || t.name.rfind(f + "_", 0) == 0)
            if (!best || t.med < best->med) best = &t;
    }
    return best;
}

// ---- one routine at one size ----------------------------------------------------------

template <class T> struct Bench {
    const Options &o;
    std::string routine;
    int n, nrhs;
    size_t batch;
    Operand<T> A, B, C, X, Y;
    Operand<int> ipiv, info;
    bool row;

    Bench(const Options &o_, const std::string &r, int n_, double total_bytes)
        : o(o_), routine(r), n(n_), nrhs(o_.nrhs), row(o_.row) {
        const double per = bytes_item();
        batch = size_t(std::max(8.0, std::ceil(total_bytes / per)));
        const size_t nn = size_t(n) * n;
        if (r == "gemm") { A.alloc(nn, batch); B.alloc(nn, batch); C.alloc(nn, batch); }
        else if (r == "gemv") { A.alloc(nn, batch); B.alloc(n, batch); C.alloc(n, batch); }
        else if (r == "trsv") { A.alloc(nn, batch); B.alloc(n, batch); }
        else if (r == "trsm") { A.alloc(nn, batch); B.alloc(nn, batch); }
        else if (r == "getrf" || r == "getrf_np") { A.alloc(nn, batch); info.alloc(1, batch); if (r == "getrf") ipiv.alloc(n, batch); }
        else if (r == "getrs") { A.alloc(nn, batch); ipiv.alloc(n, batch); B.alloc(size_t(n) * nrhs, batch); }
        else { // fused, fused_np: X, Y in; A out (beta = 0); B in/out
            X.alloc(nn, batch); Y.alloc(nn, batch); A.alloc(nn, batch); B.alloc(size_t(n) * nrhs, batch);
            info.alloc(1, batch);
            if (r == "fused") ipiv.alloc(n, batch);
        }
    }

    double flops_item() const {
        const double N = n, K = nrhs;
        if (routine == "gemm") return 2 * N * N * N;
        if (routine == "gemv") return 2 * N * N;
        if (routine == "trsv") return N * N;
        if (routine == "trsm") return N * N * N;
        if (routine.rfind("getrf", 0) == 0) return 2.0 / 3 * N * N * N;
        if (routine == "getrs") return 2 * N * N * K;
        return 2 * N * N * N + 2.0 / 3 * N * N * N + 2 * N * N * K;
    }
    // Each input read once, each output written once.
    double bytes_item() const {
        const double s = sizeof(T), nn = double(n) * n, K = nrhs;
        if (routine == "gemm") return 3 * nn * s;
        if (routine == "gemv") return (nn + 2 * n) * s;
        if (routine == "trsv") return (nn + 2 * n) * s;
        if (routine == "trsm") return 3 * nn * s;
        if (routine == "getrf") return 2 * nn * s + 4.0 * n + 4;
        if (routine == "getrf_np") return 2 * nn * s + 4;
        if (routine == "getrs") return (nn + 2 * n * K) * s + 4.0 * n;
        if (routine == "fused") return (3 * nn + 2 * n * K) * s + 4.0 * n + 4;
        return (3 * nn + 2 * n * K) * s + 4;
    }

    void fill_inputs(uint64_t seed) {
        if (routine == "gemm" || routine == "gemv") {
            fill(A, n, n, Kind::general, seed, row);
            fill(B, n, routine == "gemm" ? n : 1, Kind::general, seed + 1, row);
        } else if (routine == "trsv" || routine == "trsm") {
            fill(A, n, n, Kind::triangular, seed, row);
            fill(B, n, routine == "trsm" ? n : 1, Kind::general, seed + 1, row);
        } else if (routine == "getrf") {
            fill(A, n, n, Kind::solvable, seed, row, o.random_pivots);
        } else if (routine == "getrf_np") {
            fill(A, n, n, Kind::solvable, seed, row, o.random_pivots);
            unrotate(A); // no pivoting: keep it diagonally dominant
        } else if (routine == "getrs") {
            fill(A, n, n, Kind::solvable, seed, row, o.random_pivots);
            fill(B, n, nrhs, Kind::general, seed + 1, row);
            // factor the pristine A once with Kobalt (untimed) so getrs gets real factors
            A.restore();
            info.alloc(1, batch);
            call_kobalt_getrf(A.work.data(), ipiv.work.data());
            A.pristine = A.work;
            ipiv.pristine = ipiv.work;
            info = Operand<int>();
        } else {
            // X Y well conditioned: X a row permutation of a diagonally dominant matrix
            // (pivoting has to undo it; none for fused_np), Y diagonally dominant.
            fill(X, n, n, Kind::solvable, seed, row, o.random_pivots);
            if (routine == "fused_np") unrotate(X);
            // Y: with --pivots rotate as every run before session 35 (a rotated dominant
            // matrix plus 2n + 2 on the diagonal); with random rows, general plus 2n + 2 on
            // the diagonal. A permuted Y put entries of n + 1 off its diagonal, and the two
            // largest candidates of a pivot column of X Y came within rounding of each other
            // in about one item of 13 million (float, n = 2): Kobalt and Eigen then chose
            // different rows and the exact pivot check failed.
            fill(Y, n, n, o.random_pivots ? Kind::general : Kind::solvable, seed + 1, row, false);
            unrotate(Y);
            fill(B, n, nrhs, Kind::general, seed + 2, row);
        }
    }
    void unrotate(Operand<T> &op) {
        // rebuild as plain diagonally dominant: add to the diagonal after the fact
        const size_t cnt = op.count;
#pragma omp parallel for schedule(static)
        for (size_t it = 0; it < op.ptrs.size(); ++it) {
            T *p = op.pristine.data() + it * cnt;
            for (int i = 0; i < n; ++i) p[size_t(i) * n + i] += T(2 * n + 2);
        }
    }
    void restore() {
        for (Operand<T> *op : {&A, &B, &C, &X, &Y})
            if (!op->empty()) op->restore();
        for (Operand<int> *op : {&ipiv, &info})
            if (!op->empty()) op->restore();
    }

    kobalt_layout layout() const { return row ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR; }
    // Leading dimension of an n x cols item.
    int ld(int cols) const { return row ? cols : n; }

    void call_kobalt_getrf(T *a, int *piv) {
        kobalt_int nn = kobalt_int(n) * n;
        kobalt_status st;
        if constexpr (sizeof(T) == 8)
            st = kobalt_dgetrf_strided(layout(), n, n, a, n, nn, piv, n, info.work.data(), batch);
        else
            st = kobalt_sgetrf_strided(layout(), n, n, a, n, nn, piv, n, info.work.data(), batch);
        if (st != KOBALT_SUCCESS) {
            std::fprintf(stderr, "kobalt getrf failed: %s\n", kobalt_last_error());
            std::exit(1);
        }
    }

    // ---- Kobalt through the public API ----
    void kobalt() {
        const kobalt_layout L = layout();
        const kobalt_int nn = kobalt_int(n) * n, bt = kobalt_int(batch);
        const bool pa = o.batched;
        kobalt_status st = KOBALT_SUCCESS;
        int *piv = ipiv.empty() ? nullptr : ipiv.work.data();
        int *inf = info.empty() ? nullptr : info.work.data();
        const kobalt_int ldb = ld(nrhs), sb = kobalt_int(n) * nrhs;
        using P = T *const *;
        using CP = const T *const *;
        if (routine == "gemm") {
            st = pa ? kb::gemm_batched<T>(L, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, T(1), (CP)A.ptrs.data(), n, (CP)B.ptrs.data(), n, T(0), (P)C.ptrs.data(), n, bt)
                    : kb::gemm_strided<T>(L, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, T(1), A.work.data(), n, nn, B.work.data(), n, nn, T(0), C.work.data(), n, nn, bt);
        } else if (routine == "gemv") {
            st = pa ? kb::gemv_batched<T>(L, KOBALT_NO_TRANS, n, n, T(1), (CP)A.ptrs.data(), n, (CP)B.ptrs.data(), 1, T(0), (P)C.ptrs.data(), 1, bt)
                    : kb::gemv_strided<T>(L, KOBALT_NO_TRANS, n, n, T(1), A.work.data(), n, nn, B.work.data(), 1, n, T(0), C.work.data(), 1, n, bt);
        } else if (routine == "trsv") {
            const kobalt_op t = o.trans ? KOBALT_TRANS : KOBALT_NO_TRANS;
            st = pa ? kb::trsv_batched<T>(L, KOBALT_LOWER, t, KOBALT_NON_UNIT, n, (CP)A.ptrs.data(), n, (P)B.ptrs.data(), 1, bt)
                    : kb::trsv_strided<T>(L, KOBALT_LOWER, t, KOBALT_NON_UNIT, n, A.work.data(), n, nn, B.work.data(), 1, n, bt);
        } else if (routine == "trsm") {
            st = pa ? kb::trsm_batched<T>(L, KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, n, n, T(1), (CP)A.ptrs.data(), n, (P)B.ptrs.data(), n, bt)
                    : kb::trsm_strided<T>(L, KOBALT_LEFT, KOBALT_LOWER, KOBALT_NO_TRANS, KOBALT_NON_UNIT, n, n, T(1), A.work.data(), n, nn, B.work.data(), n, nn, bt);
        } else if (routine == "getrf" || routine == "getrf_np") {
            st = pa ? kb::getrf_batched<T>(L, n, n, (P)A.ptrs.data(), n, piv, n, inf, bt)
                    : kb::getrf_strided<T>(L, n, n, A.work.data(), n, nn, piv, n, inf, bt);
        } else if (routine == "getrs") {
            const kobalt_op t = o.trans ? KOBALT_TRANS : KOBALT_NO_TRANS;
            st = pa ? kb::getrs_batched<T>(L, t, n, nrhs, (CP)A.ptrs.data(), n, piv, n, (P)B.ptrs.data(), ldb, bt)
                    : kb::getrs_strided<T>(L, t, n, nrhs, A.work.data(), n, nn, piv, n, B.work.data(), ldb, sb, bt);
        } else {
            st = pa ? kb::fused_batched<T>(L, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, nrhs, T(1), (CP)X.ptrs.data(), n, (CP)Y.ptrs.data(), n, T(0), (P)A.ptrs.data(), n, piv, n, (P)B.ptrs.data(), ldb, inf, bt)
                    : kb::fused_strided<T>(L, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, nrhs, T(1), X.work.data(), n, nn, Y.work.data(), n, nn, T(0), A.work.data(), n, nn, piv, n, B.work.data(), ldb, sb, inf, bt);
        }
        if (st != KOBALT_SUCCESS) {
            std::fprintf(stderr, "kobalt %s failed: %s\n", routine.c_str(), kobalt_last_error());
            std::exit(1);
        }
    }
    // Kobalt's own three calls for the fused problem.
    void kobalt3() {
        const kobalt_layout L = layout();
        const kobalt_int nn = kobalt_int(n) * n, bt = kobalt_int(batch);
        int *piv = ipiv.empty() ? nullptr : ipiv.work.data();
        const kobalt_int ldb = ld(nrhs), sb = kobalt_int(n) * nrhs;
        kobalt_status s1 = kb::gemm_strided<T>(L, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, n, T(1), X.work.data(), n, nn, Y.work.data(), n, nn, T(0), A.work.data(), n, nn, bt);
        kobalt_status s2 = kb::getrf_strided<T>(L, n, n, A.work.data(), n, nn, piv, n, info.work.data(), bt);
        kobalt_status s3 = kb::getrs_strided<T>(L, KOBALT_NO_TRANS, n, nrhs, A.work.data(), n, nn, piv, n, B.work.data(), ldb, sb, bt);
        if (s1 || s2 || s3) {
            std::fprintf(stderr, "kobalt three calls failed: %s\n", kobalt_last_error());
            std::exit(1);
        }
    }

    // ---- contenders ----
    struct Contender {
        std::string name;
        std::function<void()> run;
    };
    std::vector<Contender> contenders() {
        std::vector<Contender> c;
        c.push_back({"kobalt", [this] { kobalt(); }});
        peers::Ctx<T> x{n, nrhs, row, batch, A.ptrs.data(), B.ptrs.data(), C.ptrs.data(),
                        X.ptrs.data(), Y.ptrs.data(), ipiv.empty() ? nullptr : ipiv.work.data(),
                        info.empty() ? nullptr : info.work.data(), o.trans};
        auto add = [&](const std::string &name, std::function<void()> f) {
            const std::string fam = name.substr(0, name.find('_'));
            if (f && o.peers.count(fam)) c.push_back({name, f});
        };
        add("blas", peers::blas<T>(routine, x));
        add("kokkos_u", peers::kokkos<T>(routine, x, false));
        add("kokkos_b", peers::kokkos<T>(routine, x, true));
        add("xsmm", peers::xsmm<T>(routine, x));
        add("eigen", peers::eigen<T>(routine, x));
        if (routine == "fused" || routine == "fused_np")
            if (o.peers.count("kobalt3") && !o.batched) c.push_back({"kobalt3", [this] { kobalt3(); }});
        return c;
    }

    // Outputs of the routine, T operands and pivots.
    std::vector<Operand<T> *> outs() {
        if (routine == "gemm" || routine == "gemv") return {&C};
        if (routine == "trsv" || routine == "trsm" || routine == "getrs") return {&B};
        if (routine.rfind("getrf", 0) == 0) return {&A};
        return {&A, &B};
    }
    // Largest item-relative difference of a contender's outputs from the reference.
    double compare(const std::vector<std::vector<T>> &ref, const std::vector<int> &refpiv,
                   std::string &why) {
        double worst = 0;
        auto o_ = outs();
        for (size_t k = 0; k < o_.size(); ++k) {
            const std::vector<T> &w = o_[k]->work, &r = ref[k];
            const size_t cnt = o_[k]->count;
            double wk = 0;
#pragma omp parallel for reduction(max : wk) schedule(static)
            for (size_t it = 0; it < batch; ++it) {
                double num = 0, den = 0;
                for (size_t e = 0; e < cnt; ++e) {
                    const double d = std::fabs(double(w[it * cnt + e]) - double(r[it * cnt + e]));
                    num = std::max(num, d != d ? 1e300 : d);
                    den = std::max(den, std::fabs(double(r[it * cnt + e])));
                }
                wk = std::max(wk, num / std::max(den, 1e-300));
            }
            worst = std::max(worst, wk);
        }
        if (!ipiv.empty() && routine != "getrs" && ipiv.work != refpiv) {
            why = "pivots differ";
            return 1e300;
        }
        return worst;
    }

    // Catches wrong results, not rounding: peers round differently (FMA, operation
    // order, blocked LU), and the fused chain amplifies that by the condition number;
    // pivots are compared exactly.
    double tolerance() const {
        const double base = sizeof(T) == 8 ? 1e-8 : 2e-3;
        return base * std::max(1.0, n / 8.0);
    }

    Line run(int &progress_done, int progress_total, const std::string &prec) {
        Line line;
        line.routine = routine;
        line.prec = prec;
        line.n = n;
        line.batch = batch;
        line.flops_item = flops_item();
        line.bytes_item = bytes_item();
        auto cs = contenders();
        std::vector<Timing> &tim = line.t;
        tim.resize(cs.size());
        for (size_t i = 0; i < cs.size(); ++i) tim[i].name = cs[i].name;
        // Checks: fresh random inputs for each peer, Kobalt's result as reference.
        uint64_t seed = 1000 + uint64_t(n) * 31;
        for (size_t i = 1; i < cs.size(); ++i) {
            fill_inputs(++seed * 7);
            restore();
            kobalt();
            std::vector<std::vector<T>> ref;
            for (Operand<T> *op : outs()) ref.push_back(op->work);
            std::vector<int> refpiv = ipiv.work;
            restore();
            cs[i].run();
            std::string why;
            const double err = compare(ref, refpiv, why);
            if (err > tolerance()) {
                tim[i].ok = false;
                char buf[96];
                std::snprintf(buf, sizeof buf, "%s (rel. diff %.2g)", why.empty() ? "differs" : why.c_str(), err);
                tim[i].why = buf;
            }
        }
        if (cs.size() == 1) fill_inputs(++seed * 7);
        // Timing: interleaved, inputs restored before every run.
        std::vector<std::vector<double>> t(cs.size());
        for (size_t i = 0; i < cs.size(); ++i) { restore(); cs[i].run(); } // warm-up
        for (int r = 0; r < o.reps; ++r)
            for (size_t i = 0; i < cs.size(); ++i) {
                if (!tim[i].ok) continue;
                restore();
                const double t0 = now();
                cs[i].run();
                t[i].push_back(now() - t0);
            }
        for (size_t i = 0; i < cs.size(); ++i) {
            if (t[i].empty()) continue;
            std::sort(t[i].begin(), t[i].end());
            tim[i].med = t[i][t[i].size() / 2];
            tim[i].lo = t[i].front();
            tim[i].hi = t[i].back();
        }
        ++progress_done;
        std::fprintf(stderr, "\r[%d/%d] %s%s n=%d batch=%zu          ", progress_done,
                     progress_total, prec.c_str(), routine.c_str(), n, batch);
        return line;
    }
};

// ---- output -----------------------------------------------------------------------------

void print_table(const std::vector<Line> &lines, double bw) {
    std::printf("\n%-10s %4s %8s | %9s %6s %6s %5s | %9s %9s %9s %9s | %9s | %6s %s\n", "routine",
                "n", "batch", "kobalt", "GF/s", "spread", "%bw", "blas", "kokkos", "xsmm",
                "eigen", "kobalt3", "ratio", "(best peer / kobalt)");
    std::printf("%s\n", std::string(150, '-').c_str());
    std::string last;
    for (const Line &l : lines) {
        const std::string rn = l.prec + l.routine;
        if (rn != last && !last.empty()) std::printf("\n");
        last = rn;
        const Timing &k = l.t[0];
        const double b = double(l.batch);
        auto us = [&](const Timing *t) -> std::string {
            char buf[32];
            if (!t) return "-";
            std::snprintf(buf, sizeof buf, "%.4g", t->med / b * 1e6);
            return buf;
        };
        auto fam = [&](const std::string &f) -> std::string {
            bool present = false, failed = false;
            for (const Timing &t : l.t)
                if (t.name == f || t.name.rfind(f + "_", 0) == 0) {
                    present = true;
                    failed |= !t.ok;
                }
            const Timing *t = family(l, f);
            if (!t) return present && failed ? "FAIL" : "-";
            return us(t);
        };
        double best = 0;
        std::string bestname = "-";
        for (const char *f : peer_order)
            if (const Timing *t = family(l, f))
                if (best == 0 || t->med < best) { best = t->med; bestname = f; }
        char ratio[48] = "-";
        if (best > 0) std::snprintf(ratio, sizeof ratio, "%.2f %s", best / k.med, bestname.c_str());
        const double floor_s = l.bytes_item * b / bw;
        std::printf("%-10s %4d %8zu | %9s %6.1f %5.0f%% %4.0f%% | %9s %9s %9s %9s | %9s | %s\n",
                    rn.c_str(), l.n, l.batch, us(&k).c_str(), l.flops_item * b / k.med * 1e-9,
                    (k.hi - k.lo) / k.med * 100, floor_s / k.med * 100, fam("blas").c_str(),
                    fam("kokkos").c_str(), fam("xsmm").c_str(), fam("eigen").c_str(),
                    fam("kobalt3").c_str(), ratio);
    }
    std::printf("\ntimes: microseconds per item, median; spread: (max-min)/median of kobalt; "
                "%%bw: memory floor / kobalt time (copy bandwidth %.1f GB/s)\n", bw * 1e-9);
    for (const Line &l : lines)
        for (const Timing &t : l.t)
            if (!t.ok)
                std::printf("check FAILED: %s%s n=%d %s: %s\n", l.prec.c_str(), l.routine.c_str(),
                            l.n, t.name.c_str(), t.why.c_str());
}

void write_out(const std::string &path, const std::vector<Line> &lines, double bw,
               const Options &o) {
    std::ofstream f(path);
    if (!f) {
        std::fprintf(stderr, "kobalt-bench: cannot write %s\n", path.c_str());
        return;
    }
    const bool json = path.size() > 5 && path.substr(path.size() - 5) == ".json";
    const char *layout = o.row ? "row" : "col", *form = o.batched ? "batched" : "strided";
    if (json) {
        f << "{\"copy_bandwidth_Bps\": " << bw << ", \"threads\": " << omp_get_max_threads()
          << ", \"layout\": \"" << layout << "\", \"form\": \"" << form << "\", \"lines\": [\n";
    } else {
        f << "routine,prec,layout,form,n,batch,contender,ok,median_s,min_s,max_s,us_per_item,"
             "gflops,pct_bw_floor,floor_s,copy_bw_GBps\n";
    }
    bool first = true;
    for (const Line &l : lines)
        for (const Timing &t : l.t) {
            const double floor_s = l.bytes_item * double(l.batch) / bw;
            const double us = t.med / double(l.batch) * 1e6;
            const double gf = t.med > 0 ? l.flops_item * double(l.batch) / t.med * 1e-9 : 0;
            const double pct = t.med > 0 ? floor_s / t.med * 100 : 0;
            if (json) {
                f << (first ? "" : ",\n") << "{\"routine\": \"" << l.routine << "\", \"prec\": \""
                  << l.prec << "\", \"n\": " << l.n << ", \"batch\": " << l.batch
                  << ", \"contender\": \"" << t.name << "\", \"ok\": " << (t.ok ? "true" : "false")
                  << ", \"median_s\": " << t.med << ", \"min_s\": " << t.lo
                  << ", \"max_s\": " << t.hi << ", \"us_per_item\": " << us
                  << ", \"gflops\": " << gf << ", \"pct_bw_floor\": " << pct
                  << ", \"floor_s\": " << floor_s << "}";
            } else {
                f << l.routine << ',' << l.prec << ',' << layout << ',' << form << ',' << l.n << ','
                  << l.batch << ',' << t.name << ',' << (t.ok ? 1 : 0) << ',' << t.med << ','
                  << t.lo << ',' << t.hi << ',' << us << ',' << gf << ',' << pct << ','
                  << floor_s << ',' << bw * 1e-9 << '\n';
            }
            first = false;
        }
    if (json) f << "\n]}\n";
}

} // namespace

int main(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", a.c_str()); std::exit(2); }
            return argv[++i];
        };
        if (a == "--routines") o.routines = split(val());
        else if (a == "--prec") o.precs = split(val());
        else if (a == "--sizes") { o.sizes.clear(); for (auto &s : split(val())) o.sizes.push_back(std::atoi(s.c_str())); }
        else if (a == "--layout") o.row = val() == "row";
        else if (a == "--form") o.batched = val() == "batched";
        else if (a == "--trans") o.trans = val() == "T";
        else if (a == "--pivots") {
            const std::string v = val();
            if (v != "random" && v != "rotate") { std::fprintf(stderr, "--pivots: random or rotate, not %s\n", v.c_str()); return 2; }
            o.random_pivots = v == "random";
        }
        else if (a == "--reps") o.reps = std::max(1, std::atoi(val().c_str()));
        else if (a == "--mb") o.mb = std::atof(val().c_str());
        else if (a == "--nrhs") o.nrhs = std::max(1, std::atoi(val().c_str()));
        else if (a == "--peers") { auto p = split(val()); o.peers = std::set<std::string>(p.begin(), p.end()); }
        else if (a == "--out") o.out = val();
        else {
            std::fprintf(stderr,
                         "usage: %s [--routines gemm,gemv,trsv,trsm,getrf,getrf_np,getrs,fused,fused_np]\n"
                         "  [--prec d,s] [--sizes 2,3,...] [--layout col|row] [--form strided|batched]\n"
                         "  [--trans N|T (getrs and trsv only; no Eigen peer for T)] [--reps R] [--mb MB] [--nrhs K] [--peers blas,kokkos,xsmm,eigen,kobalt3]\n"
                         "  [--pivots random|rotate (the row permutation of getrf/getrs/fused inputs)]\n"
                         "  [--out file.csv|file.json]\n", argv[0]);
            return a == "--help" || a == "-h" ? 0 : 2;
        }
    }
    const size_t llc = llc_bytes();
    const double total = o.mb > 0 ? o.mb * 1e6 : 4.0 * double(llc);
    std::printf("kobalt-bench: %d OpenMP threads, LLC %zu KiB, batch data %.0f MB, layout %s, "
                "form %s, getrs/trsv trans %s, pivots %s, %d reps\n", omp_get_max_threads(), llc >> 10, total * 1e-6,
                o.row ? "row" : "col", o.batched ? "batched" : "strided", o.trans ? "T" : "N",
                o.random_pivots ? "random" : "rotate", o.reps);
    std::printf("peers: %s\n", peers::available().c_str());
    const double bw = copy_bandwidth(std::max(size_t(total / 2), size_t(64) << 20));
    std::printf("copy bandwidth (read + write): %.1f GB/s\n", bw * 1e-9);
    std::fflush(stdout);

    std::vector<Line> lines;
    int done = 0;
    const int total_lines = int(o.routines.size() * o.precs.size() * o.sizes.size());
    for (const std::string &r : o.routines)
        for (const std::string &p : o.precs)
            for (int n : o.sizes) {
                if (p == "d") {
                    Bench<double> b(o, r, n, total);
                    lines.push_back(b.run(done, total_lines, p));
                } else {
                    Bench<float> b(o, r, n, total);
                    lines.push_back(b.run(done, total_lines, p));
                }
            }
    std::fprintf(stderr, "\n");
    print_table(lines, bw);
    if (!o.out.empty()) write_out(o.out, lines, bw, o);
    return 0;
}
