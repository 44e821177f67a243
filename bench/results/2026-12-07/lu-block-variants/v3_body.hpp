template <class O, int N, int C = N, bool RowOrder = false>
KOBALT_IL_FN void lu_block3(typename O::T *blk, bool pivoting, typename O::I *pv, typename O::I &info) {
    using V = typename O::V;
    constexpr int W = int(sizeof(V) / sizeof(typename O::T));
    const auto at = [blk](int i, int c) { return blk + (RowOrder ? i * C + c : i + c * N) * W; };
    info = O::isplat(0);
    KOBALT_IL_UNROLL for (int j = 0; j < N; ++j) {
        V col[N];
        KOBALT_IL_UNROLL for (int i = j; i < N; ++i) col[i] = O::load(at(i, j));
        V pivot = col[j];
        typename O::M hit[N];
        bool swaps = false;
        typename O::I pe = O::isplat(j);
        if (pivoting) {
            pivot = il::find_pivot<O, N>(col, j, pv[j]);
            swaps = il::swap_masks<O, N>(pivot, pv[j], j, hit);
            if (swaps) {
                il::swap_rows_where<O, N>(col, j, hit);
                pe = O::isel(O::mand(O::ne(pivot, O::splat(typename O::T(0))), O::mnot(O::ieq(pv[j], O::isplat(j)))), pv[j], O::isplat(j));
            }
        }
        il::scale_below_pivot<O, N>(col, j, pivot, pivoting, info);
        KOBALT_IL_UNROLL for (int i = j; i < N; ++i) O::store(at(i, j), col[i]);
        KOBALT_IL_UNROLL for (int c = 0; c < C; ++c) {
            if (c == j || (c < j && !swaps)) continue;
            V x[N];
            KOBALT_IL_UNROLL for (int i = j; i < N; ++i) x[i] = O::load(at(i, c));
            if (swaps) {
                typename O::M h[N];
                KOBALT_IL_UNROLL for (int i = j + 1; i < N; ++i) h[i] = O::ieq(pe, O::isplat(i));
                il::swap_rows_where<O, N>(x, j, h);
            }
            if (c > j) {
                const V u = x[j];
                KOBALT_IL_UNROLL for (int i = j + 1; i < N; ++i) x[i] -= col[i] * u;
            }
            KOBALT_IL_UNROLL for (int i = j; i < N; ++i) O::store(at(i, c), x[i]);
        }
    }
}
