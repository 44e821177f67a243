// other_cases.cpp -- times kobalt_{d,s}trsm_strided for side/uplo/trans/layout cases that
// kobalt-bench does not cover (it times left-lower-NoTrans only). One call on a batch of
// about 64 MB (A and B), median of 5 after one warm-up; prints us per item.
#include <kobalt/kobalt.h>
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
template <class T> double run(kobalt_layout L, kobalt_side S, kobalt_uplo U, kobalt_op O, int n) {
    const long nn = long(n) * n, batch = (64l << 20) / (2 * nn * sizeof(T));
    std::vector<T> A(nn * batch), B(nn * batch);
    for (long i = 0; i < batch; ++i)
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) {
                A[i * nn + r * n + c] = r == c ? T(n) : T(((r * 7 + c * 3 + i) % 11) - 5) / T(11);
                B[i * nn + r * n + c] = T(((r + 2 * c + i) % 13) - 6) / T(13);
            }
    std::vector<double> t;
    for (int rep = 0; rep < 6; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        int st;
        if constexpr (sizeof(T) == 8) st = kobalt_dtrsm_strided(L, S, U, O, KOBALT_NON_UNIT, n, n, 1.0, A.data(), n, nn, B.data(), n, nn, batch);
        else st = kobalt_strsm_strided(L, S, U, O, KOBALT_NON_UNIT, n, n, 1.0f, A.data(), n, nn, B.data(), n, nn, batch);
        auto t1 = std::chrono::steady_clock::now();
        if (st) { std::printf("error %d\n", st); return 0; }
        if (rep) t.push_back(std::chrono::duration<double>(t1 - t0).count() / batch * 1e6);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
int main() {
    const char *lay[] = {"col", "row"};
    for (int l = 0; l < 2; ++l)
        for (int s = 0; s < 2; ++s)
            for (int u = 0; u < 2; ++u)
                for (int o = 0; o < 2; ++o)
                    for (int n : {12, 32})
                        std::printf("%s %s %s %s n=%d d %.4f s %.4f\n", lay[l], s ? "R" : "L", u ? "U" : "L", o ? "T" : "N", n,
                                    run<double>(l ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR, s ? KOBALT_RIGHT : KOBALT_LEFT, u ? KOBALT_UPPER : KOBALT_LOWER, o ? KOBALT_TRANS : KOBALT_NO_TRANS, n),
                                    run<float>(l ? KOBALT_ROW_MAJOR : KOBALT_COL_MAJOR, s ? KOBALT_RIGHT : KOBALT_LEFT, u ? KOBALT_UPPER : KOBALT_LOWER, o ? KOBALT_TRANS : KOBALT_NO_TRANS, n));
}
