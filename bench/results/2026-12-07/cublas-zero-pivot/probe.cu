// probe.cu -- what cublasDgetrfBatched does with exactly singular items and ties, against
// LAPACK's dgetf2 rules (first largest |a| as pivot; a zero pivot sets info to its first
// column and skips the scaling). Build: nvcc -O2 -arch=sm_90 probe.cu -lcublas -o probe
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void ref_getf2(int n, double *a, int *piv, int *info) {
    *info = 0;
    for (int j = 0; j < n; ++j) {
        int p = j;
        double m = std::fabs(a[j + j * n]);
        for (int i = j + 1; i < n; ++i)
            if (std::fabs(a[i + j * n]) > m) m = std::fabs(a[i + j * n]), p = i;
        piv[j] = p + 1;
        if (a[p + j * n] != 0.0) {
            if (p != j)
                for (int c = 0; c < n; ++c) std::swap(a[j + c * n], a[p + c * n]);
            const double r = 1.0 / a[j + j * n];
            for (int i = j + 1; i < n; ++i) a[i + j * n] *= r;
        } else if (*info == 0) {
            *info = j + 1;
        }
        for (int c = j + 1; c < n; ++c)
            for (int i = j + 1; i < n; ++i) a[i + c * n] -= a[i + j * n] * a[j + c * n];
    }
}

// max |P A - L U| / max |A| for factors f (column-major, unit L below the diagonal) and
// 1-based pivots piv of the original a; NaN when any factor is not finite.
static double residual(int n, const double *a, const double *f, const int *piv) {
    std::vector<double> pa(a, a + size_t(n) * n);
    for (int j = 0; j < n; ++j) {
        const int p = piv[j] - 1;
        if (p < 0 || p >= n) return -1.0;
        if (p != j)
            for (int c = 0; c < n; ++c) std::swap(pa[j + c * n], pa[p + c * n]);
    }
    double worst = 0, scale = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double s = 0;
            for (int k = 0; k <= (i < j ? i : j); ++k) s += (k == i ? 1.0 : f[i + k * n]) * f[k + j * n];
            if (!std::isfinite(s)) return NAN;
            worst = std::fmax(worst, std::fabs(s - pa[i + j * n]));
            scale = std::fmax(scale, std::fabs(pa[i + j * n]));
        }
    return worst / (scale > 0 ? scale : 1);
}

static const char *names[] = {"random", "zero col 3", "all zero", "col 5 = 2 col 2", "last col zero",
                              "first col zero", "col 3 zero below diag", "first col all ones (ties)",
                              "two zero cols 1,4", "rank 1, exact (powers of two)",
                              "denormal first column (1e-310)", "NaN at (n/2, n/2)", "Inf at (0, 0)",
                              "tiny col 0 (1e-300) and col 1 (1e-300 + eps)"};
const int kCases = 14;

static void fill(int c, int n, double *a) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) a[i + j * n] = 2.0 * rand() / RAND_MAX - 1.0;
    auto col0 = [&](int j, int from) { for (int i = from; i < n; ++i) a[i + j * n] = 0.0; };
    switch (c) {
    case 1: col0(3 % n, 0); break;
    case 2: for (int j = 0; j < n; ++j) col0(j, 0); break;
    case 3: if (n > 5) for (int i = 0; i < n; ++i) a[i + 5 * n] = 2.0 * a[i + 2 * n]; break;
    case 4: col0(n - 1, 0); break;
    case 5: col0(0, 0); break;
    case 6: if (n > 3) col0(3, 3); break;
    case 7: for (int i = 0; i < n; ++i) a[i] = 1.0; break;
    case 8: col0(1 % n, 0); col0(4 % n, 0); break;
    case 9: for (int j = 0; j < n; ++j) for (int i = 0; i < n; ++i) a[i + j * n] = double(1 << (i % 4)) * double((j % 3) + 1); break;
    case 10: for (int i = 0; i < n; ++i) a[i] *= 1e-310; break;
    case 11: a[n / 2 + (n / 2) * n] = NAN; break;
    case 12: a[0] = INFINITY; break;
    case 13: for (int i = 0; i < n; ++i) { a[i] *= 1e-300; a[i + (n > 1 ? n : 0)] = a[i] * (1 + 1e-15); } break;
    }
}

int main() {
    cublasHandle_t h;
    cublasCreate(&h);
    for (int n : {4, 8, 16, 32, 64, 128, 256}) {
        const int per = 16, batch = kCases * per; // 16 copies of each case
        std::vector<double> a(size_t(n) * n * batch), out(a.size()), ref(a.size());
        srand(n);
        for (int t = 0; t < batch; ++t) fill(t / per, n, &a[size_t(t) * n * n]);
        ref = a;
        std::vector<int> rp(size_t(n) * batch), ri(batch), cp(size_t(n) * batch), ci(batch);
        for (int t = 0; t < batch; ++t) ref_getf2(n, &ref[size_t(t) * n * n], &rp[size_t(t) * n], &ri[t]);
        double *d;
        double **dp;
        int *dpiv, *dinfo;
        cudaMalloc(&d, a.size() * 8);
        cudaMalloc(&dp, batch * sizeof(double *));
        cudaMalloc(&dpiv, cp.size() * 4);
        cudaMalloc(&dinfo, batch * 4);
        std::vector<double *> hp(batch);
        for (int t = 0; t < batch; ++t) hp[t] = d + size_t(t) * n * n;
        cudaMemcpy(dp, hp.data(), batch * sizeof(double *), cudaMemcpyHostToDevice);
        cudaMemcpy(d, a.data(), a.size() * 8, cudaMemcpyHostToDevice);
        const cublasStatus_t st = cublasDgetrfBatched(h, n, dp, n, dpiv, dinfo, batch);
        cudaMemcpy(out.data(), d, a.size() * 8, cudaMemcpyDeviceToHost);
        cudaMemcpy(cp.data(), dpiv, cp.size() * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(ci.data(), dinfo, batch * 4, cudaMemcpyDeviceToHost);
        printf("n=%d status %d\n", n, int(st));
        for (int c = 0; c < kCases; ++c) {
            int info_eq = 0, piv_eq = 0, finite = 0, ref_finite = 0;
            double worst = 0, res = 0;
            int ex_ci = 0, ex_ri = 0;
            for (int t = c * per; t < (c + 1) * per; ++t) {
                info_eq += ci[t] == ri[t];
                ex_ci = ci[t], ex_ri = ri[t];
                bool pe = true;
                for (int j = 0; j < n; ++j) pe &= cp[size_t(t) * n + j] == rp[size_t(t) * n + j];
                piv_eq += pe;
                bool f = true, rf = true;
                double mx = 0, scale = 0;
                for (size_t e = 0; e < size_t(n) * n; ++e) {
                    const double o = out[size_t(t) * n * n + e], r = ref[size_t(t) * n * n + e];
                    f &= std::isfinite(o);
                    rf &= std::isfinite(r);
                    mx = std::fmax(mx, std::fabs(o - r));
                    scale = std::fmax(scale, std::fabs(r));
                }
                finite += f;
                ref_finite += rf;
                if (pe) worst = std::fmax(worst, mx / (scale > 0 ? scale : 1));
                const double r = residual(n, &a[size_t(t) * n * n], &out[size_t(t) * n * n], &cp[size_t(t) * n]);
                res = std::isnan(r) || std::isnan(res) ? NAN : std::fmax(res, r);
            }
            printf("  %-36s info equal %2d/%d (cublas %d ref %d)  pivots equal %2d/%d  finite %2d/%d (ref %2d)  "
                   "max rel diff (equal pivots) %.2e  cublas |PA-LU|/|A| %.2e\n",
                   names[c], info_eq, per, ex_ci, ex_ri, piv_eq, per, finite, per, ref_finite, worst, res);
        }
        cudaFree(d);
        cudaFree(dp);
        cudaFree(dpiv);
        cudaFree(dinfo);
    }
    return 0;
}
