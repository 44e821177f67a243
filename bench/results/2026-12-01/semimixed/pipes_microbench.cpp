#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
// Each loop body: 8 independent accumulator chains (zmm0-7), x in zmm8/9, temps zmm16-23.
#define BODY_FMA \
 "vfmadd231pd %%zmm8, %%zmm9, %%zmm0\n vfmadd231pd %%zmm8, %%zmm9, %%zmm1\n vfmadd231pd %%zmm8, %%zmm9, %%zmm2\n vfmadd231pd %%zmm8, %%zmm9, %%zmm3\n" \
 "vfmadd231pd %%zmm8, %%zmm9, %%zmm4\n vfmadd231pd %%zmm8, %%zmm9, %%zmm5\n vfmadd231pd %%zmm8, %%zmm9, %%zmm6\n vfmadd231pd %%zmm8, %%zmm9, %%zmm7\n"
#define PAIR(OP1, OP2, k) OP1 " %%zmm8, %%zmm9, %%zmm" #k "1\n" OP2 " %%zmm" #k "1, %%zmm" #k ", %%zmm" #k "\n"
#define TERM8(OP1, OP2) \
 OP1 " %%zmm8, %%zmm9, %%zmm16\n " OP2 " %%zmm16, %%zmm0, %%zmm0\n " \
 OP1 " %%zmm8, %%zmm9, %%zmm17\n " OP2 " %%zmm17, %%zmm1, %%zmm1\n " \
 OP1 " %%zmm8, %%zmm9, %%zmm18\n " OP2 " %%zmm18, %%zmm2, %%zmm2\n " \
 OP1 " %%zmm8, %%zmm9, %%zmm19\n " OP2 " %%zmm19, %%zmm3, %%zmm3\n " \
 OP1 " %%zmm8, %%zmm9, %%zmm20\n " OP2 " %%zmm20, %%zmm4, %%zmm4\n " \
 OP1 " %%zmm8, %%zmm9, %%zmm21\n " OP2 " %%zmm21, %%zmm5, %%zmm5\n " \
 OP1 " %%zmm8, %%zmm9, %%zmm22\n " OP2 " %%zmm22, %%zmm6, %%zmm6\n " \
 OP1 " %%zmm8, %%zmm9, %%zmm23\n " OP2 " %%zmm23, %%zmm7, %%zmm7\n "
#define MIX8 \
 "vmaxpd %%zmm8, %%zmm9, %%zmm16\n vminpd %%zmm16, %%zmm0, %%zmm0\n " \
 "vpmaxsq %%zmm8, %%zmm9, %%zmm17\n vpminsq %%zmm17, %%zmm1, %%zmm1\n " \
 "vmaxpd %%zmm8, %%zmm9, %%zmm18\n vminpd %%zmm18, %%zmm2, %%zmm2\n " \
 "vpmaxsq %%zmm8, %%zmm9, %%zmm19\n vpminsq %%zmm19, %%zmm3, %%zmm3\n " \
 "vmaxpd %%zmm8, %%zmm9, %%zmm20\n vminpd %%zmm20, %%zmm4, %%zmm4\n " \
 "vpmaxsq %%zmm8, %%zmm9, %%zmm21\n vpminsq %%zmm21, %%zmm5, %%zmm5\n " \
 "vmaxpd %%zmm8, %%zmm9, %%zmm22\n vminpd %%zmm22, %%zmm6, %%zmm6\n " \
 "vpmaxsq %%zmm8, %%zmm9, %%zmm23\n vpminsq %%zmm23, %%zmm7, %%zmm7\n "
#define LOOP(name, body) double name(long n) { auto s = std::chrono::steady_clock::now(); \
  __asm__ volatile("vxorpd %%zmm8,%%zmm8,%%zmm8\n vxorpd %%zmm9,%%zmm9,%%zmm9\n 1:\n" body body "dec %0\n jnz 1b\n" : "+r"(n) :: "xmm0","xmm1","xmm2","xmm3","xmm4","xmm5","xmm6","xmm7","xmm8","xmm9","xmm16","xmm17","xmm18","xmm19","xmm20","xmm21","xmm22","xmm23","cc"); \
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count(); }
LOOP(t_fma, BODY_FMA)
LOOP(t_maxmin, TERM8("vmaxpd", "vminpd"))
LOOP(t_rangemin, TERM8("vrangepd $5,", "vminpd"))
LOOP(t_maxrange, TERM8("vmaxpd", "vrangepd $4,"))
LOOP(t_rangerange, TERM8("vrangepd $5,", "vrangepd $4,"))
LOOP(t_imaxmin, TERM8("vpmaxsq", "vpminsq"))
LOOP(t_imaxmind, TERM8("vpmaxsd", "vpminsd"))
LOOP(t_fmaxmin_i, TERM8("vmaxpd", "vpminsq"))
LOOP(t_mix, MIX8)
LOOP(t_addmin, TERM8("vaddpd", "vminpd"))
template <class F> double med(F f, long n) { std::vector<double> v; for (int i = 0; i < 9; ++i) v.push_back(f(n)); std::sort(v.begin(), v.end()); return v[4]; }
int main() {
  long n = 5000000; double terms = n * 16.0; // 16 term-vectors per iteration
  for (int r = 0; r < 2; ++r) {
    double f = med(t_fma, n);
    printf("ns per zmm term: fma %.3f | ratio to fma: max+min %.2f  range(max)+min %.2f  max+range(min) %.2f  range+range %.2f  int64 %.2f  int32 %.2f  fmax+imin64 %.2f  add+min %.2f mix %.2f\n",
      f / terms * 1e9, med(t_maxmin, n) / f, med(t_rangemin, n) / f, med(t_maxrange, n) / f, med(t_rangerange, n) / f,
      med(t_imaxmin, n) / f, med(t_imaxmind, n) / f, med(t_fmaxmin_i, n) / f, med(t_addmin, n) / f, med(t_mix, n) / f);
  }
}
