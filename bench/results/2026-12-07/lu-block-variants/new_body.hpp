template <class O, int N, int C = N, bool RowOrder = false>
KOBALT_IL_FN void lu_block2(typename O::T *blk, bool pivoting, typename O::I *pv, typename O::I &info) {
    using V = typename O::V;
    using M = typename O::M;
    constexpr int W = int(sizeof(V) / sizeof(typename O::T));
    const auto at = [blk](int i, int c) { return blk + (RowOrder ? i * C + c : i + c * N) * W; };
    info = O::isplat(0);
    KOBALT_IL_UNROLL for (int j = 0; j < N; j += 2) {
        const int k = j + 1; // the pair's second step (none where j is the last column)
        V cj[N], ck[N];
        M hj[N], hk[N];
        bool sj = false, sk = false;
        KOBALT_IL_UNROLL for (int i = j; i < N; ++i) cj[i] = O::load(at(i, j));
        V pivot = cj[j];
        if (pivoting) {
            pivot = il::find_pivot<O, N>(cj, j, pv[j]);
            sj = il::swap_masks<O, N>(pivot, pv[j], j, hj);
            if (sj) il::swap_rows_where<O, N>(cj, j, hj);
        }
        il::scale_below_pivot<O, N>(cj, j, pivot, pivoting, info);
        if (k < N) {
            KOBALT_IL_UNROLL for (int i = j; i < N; ++i) ck[i] = O::load(at(i, k));
            if (sj) il::swap_rows_where<O, N>(ck, j, hj);
            const V u = ck[j];
            KOBALT_IL_UNROLL for (int i = k; i < N; ++i) ck[i] -= cj[i] * u;
            V pk = ck[k];
            if (pivoting) {
                pk = il::find_pivot<O, N>(ck, k, pv[k]);
                sk = il::swap_masks<O, N>(pk, pv[k], k, hk);
                if (sk) {
                    il::swap_rows_where<O, N>(ck, k, hk);
                    il::swap_rows_where<O, N>(cj, k, hk); // column j's L part: step k's interchange
                }
            }
            il::scale_below_pivot<O, N>(ck, k, pk, pivoting, info);
            KOBALT_IL_UNROLL for (int i = j; i < N; ++i) O::store(at(i, k), ck[i]);
        }
        KOBALT_IL_UNROLL for (int i = j; i < N; ++i) O::store(at(i, j), cj[i]);
        KOBALT_IL_UNROLL for (int c = 0; c < C; ++c) {
            if (c == j || c == k || (c < j && !sj && !sk)) continue;
            V x[N];
            KOBALT_IL_UNROLL for (int i = j; i < N; ++i) x[i] = O::load(at(i, c));
            if (sj) il::swap_rows_where<O, N>(x, j, hj);
            if (k < N && sk) il::swap_rows_where<O, N>(x, k, hk);
            if (c > j) {
                const V u = x[j];
                KOBALT_IL_UNROLL for (int i = j + 1; i < N; ++i) x[i] -= cj[i] * u;
                if (k < N) {
                    const V v = x[k];
                    KOBALT_IL_UNROLL for (int i = k + 1; i < N; ++i) x[i] -= ck[i] * v;
                }
            }
            KOBALT_IL_UNROLL for (int i = j; i < N; ++i) O::store(at(i, c), x[i]);
        }
    }
}
