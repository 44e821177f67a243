"""getrf, getrs, gesv and the fused gemm_lu_trsv against NumPy on random batches,
with singular and NaN items."""
import numpy as np
import pytest

import kobalt
from conftest import (DTYPES, ORDERS, SIZES, apply_pivots, assert_close, rand, reference_getrf,
                      split_lu, well_conditioned)

BATCH = 4


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS + ["strided"])
def test_getrf_square(rng, dtype, order):
    for n in SIZES:
        A = well_conditioned(rng, BATCH, n, dtype, order)
        A0 = A.copy()
        LU, ipiv, info = kobalt.getrf(A)
        assert np.array_equal(A, A0, equal_nan=True)  # input untouched
        assert LU.shape == A.shape and LU.dtype == dtype
        assert ipiv.shape == (BATCH, n) and ipiv.dtype == np.intc
        assert info.shape == (BATCH,) and info.dtype == np.intc and np.all(info == 0)
        if n:
            assert ipiv.min() >= 1 and ipiv.max() <= n
            assert np.all(ipiv >= np.arange(1, n + 1))
        L, U = split_lu(LU)
        assert_close(L @ U, apply_pivots(A, ipiv), dtype, scale=n + 1, what="PLU n=%d" % n)
        if dtype == np.float64:
            assert np.array_equal(ipiv, reference_getrf(A)), "pivots differ from LAPACK's rule"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("m,n", [(0, 3), (3, 0), (1, 4), (4, 1), (5, 3), (3, 5), (33, 8), (8, 33)])
def test_getrf_rectangular(rng, dtype, order, m, n):
    A = rand(rng, (BATCH, m, n), dtype, order)
    LU, ipiv, info = kobalt.getrf(A)
    assert ipiv.shape == (BATCH, min(m, n))
    L, U = split_lu(LU)
    assert_close(L @ U, apply_pivots(A, ipiv), dtype, scale=max(m, n) + 1)
    if dtype == np.float64:
        assert np.array_equal(ipiv, reference_getrf(A))


@pytest.mark.parametrize("dtype", DTYPES)
def test_getrf_no_pivoting_and_in_place(rng, dtype):
    n = 6
    A = rand(rng, (BATCH, n, n), dtype, "F") + 8 * np.eye(n, dtype=dtype)
    A0 = A.copy()
    ret = kobalt.getrf(A, pivot=False, out=A)
    LU, ipiv, info = ret
    assert LU is A and ipiv is None and np.all(info == 0)
    L, U = split_lu(LU)
    assert_close(L @ U, A0, dtype, scale=n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_getrf_singular_items(rng, dtype):
    n = 5
    A = well_conditioned(rng, 6, n, dtype)
    A[1, :, 2] = 0.0          # column 3 zero: U(3,3) = 0
    A[3] = 0.0                # all zero: info 1
    A[4, :, n - 1] = 0.0      # last column
    LU, ipiv, info = kobalt.getrf(A)
    assert info.tolist() == [0, 3, 0, 1, n, 0]
    L, U = split_lu(LU)
    # the factorisation is completed for the singular items too
    assert_close(L @ U, apply_pivots(A, ipiv), dtype, scale=n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("trans", [False, True])
def test_getrs(rng, dtype, order, trans):
    for n in SIZES:
        for nrhs in (0, 1, 3):
            A = well_conditioned(rng, BATCH, n, dtype, order)
            B = rand(rng, (BATCH, n, nrhs), dtype, "F" if order == "C" else "C")
            LU, ipiv, info = kobalt.getrf(A)
            X = kobalt.getrs(LU, ipiv, B, trans=trans)
            want = np.linalg.solve(A.transpose(0, 2, 1) if trans else A, B) if n else B
            assert X.shape == B.shape
            assert_close(X, want, dtype, scale=4 * (n + 1), what="getrs n=%d nrhs=%d" % (n, nrhs))


@pytest.mark.parametrize("dtype", DTYPES)
def test_getrs_vector_and_int64_pivots(rng, dtype):
    A = well_conditioned(rng, BATCH, 7, dtype)
    b = rand(rng, (BATCH, 7), dtype)
    LU, ipiv, info = kobalt.getrf(A)
    x = kobalt.getrs(LU, ipiv.astype(np.int64), b)
    assert x.shape == (BATCH, 7)
    assert_close(x, np.linalg.solve(A, b[..., None])[..., 0], dtype, scale=20)
    # in place into b
    ret = kobalt.getrs(LU, ipiv, b, out=b)
    assert ret is b
    assert_close(b, x, dtype, scale=20)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS + ["strided"])
def test_gesv(rng, dtype, order):
    for n in SIZES:
        A = well_conditioned(rng, BATCH, n, dtype, order)
        B = rand(rng, (BATCH, n, 2), dtype, order)
        X, LU, ipiv, info = kobalt.gesv(A, B)
        assert X.shape == B.shape and LU.shape == A.shape and np.all(info == 0)
        want = np.linalg.solve(A, B) if n else B
        assert_close(X, want, dtype, scale=4 * (n + 1), what="gesv n=%d" % n)
        L, U = split_lu(LU)
        assert_close(L @ U, apply_pivots(A, ipiv), dtype, scale=n + 1)
        # one right-hand side per item as a 2-D array
        x, _, _, _ = kobalt.gesv(A, B[:, :, 0])
        assert x.shape == (BATCH, n)
        assert_close(x, want[:, :, 0], dtype, scale=4 * (n + 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_gesv_singular_and_nan_items(rng, dtype):
    n = 6
    A = well_conditioned(rng, 5, n, dtype)
    B = rand(rng, (5, n, 3), dtype)
    A[1, :, 3] = 0.0      # exactly singular: info[1] = 4
    A[3, 2, 2] = np.nan   # NaN item: the others are unaffected
    X, LU, ipiv, info = kobalt.gesv(A, B)
    assert info[1] == 4
    assert info[0] == info[2] == info[4] == 0
    assert np.array_equal(X[1], B[1])     # singular item: B left untouched
    assert np.isnan(X[3]).any()
    ok = [0, 2, 4]
    assert_close(X[ok], np.linalg.solve(A[ok], B[ok]), dtype, scale=4 * n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gesv_no_pivoting_and_outs(rng, dtype):
    n = 5
    A = rand(rng, (BATCH, n, n), dtype) + 10 * np.eye(n, dtype=dtype)
    B = rand(rng, (BATCH, n, 2), dtype, "F")
    want = np.linalg.solve(A, B)
    X, LU, ipiv, info = kobalt.gesv(A, B, pivot=False, out_a=A, out_b=B)
    assert X is B and LU is A and ipiv is None
    assert_close(B, want, dtype, scale=4 * n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("transx,transy", [(False, False), (True, False), (False, True), (True, True)])
def test_gemm_lu_trsv(rng, dtype, order, transx, transy):
    for n, k in [(0, 2), (1, 1), (2, 0), (3, 2), (5, 5), (8, 3), (16, 16), (33, 4)]:
        X = rand(rng, (BATCH,) + ((k, n) if transx else (n, k)), dtype, order)
        Y = rand(rng, (BATCH,) + ((n, k) if transy else (k, n)), dtype, "C")
        A = well_conditioned(rng, BATCH, n, dtype, order)
        B = rand(rng, (BATCH, n, 2), dtype, order)
        opX = X.transpose(0, 2, 1) if transx else X
        opY = Y.transpose(0, 2, 1) if transy else Y
        M = 0.1 * np.matmul(opX.astype(np.float64), opY) + A
        LU, ipiv, sol, info = kobalt.gemm_lu_trsv(X, Y, B, A, alpha=0.1, beta=1.0,
                                                  transx=transx, transy=transy)
        assert np.all(info == 0)
        assert_close(sol, np.linalg.solve(M, B) if n else B, dtype, scale=8 * (n + 1),
                     what="fused n=%d k=%d" % (n, k))
        L, U = split_lu(LU)
        assert_close(L @ U, apply_pivots(M, ipiv), dtype, scale=2 * (n + k + 1))
        # matches gemm + getrf + getrs
        M2 = kobalt.gemm(X, Y, A, alpha=0.1, beta=1.0, transa=transx, transb=transy)
        LU2, ipiv2, info2 = kobalt.getrf(M2)
        if dtype == np.float64:
            assert np.array_equal(ipiv, ipiv2)
        assert_close(sol, kobalt.getrs(LU2, ipiv2, B), dtype, scale=8 * (n + 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_lu_trsv_singular_item(rng, dtype):
    n, k = 4, 2
    X = rand(rng, (3, n, k), dtype)
    Y = rand(rng, (3, k, n), dtype)
    B = rand(rng, (3, n), dtype)
    X[1] = 0.0  # beta = 0: A_1 = 0, info 1, B_1 untouched
    LU, ipiv, sol, info = kobalt.gemm_lu_trsv(X, Y, B)
    assert info.tolist()[1] == 1
    assert np.array_equal(sol[1], B[1])
    assert sol.shape == (3, n)


def test_batch_zero():
    for dtype in DTYPES:
        A = np.zeros((0, 3, 3), dtype)
        B = np.zeros((0, 3, 2), dtype)
        assert kobalt.gemm(A, B).shape == (0, 3, 2)
        LU, ipiv, info = kobalt.getrf(A)
        assert LU.shape == (0, 3, 3) and ipiv.shape == (0, 3) and info.shape == (0,)
        assert kobalt.getrs(LU, ipiv, B).shape == (0, 3, 2)
        X, LU, ipiv, info = kobalt.gesv(A, B)
        assert X.shape == (0, 3, 2)
        assert kobalt.trsv(A, np.zeros((0, 3), dtype)).shape == (0, 3)
        assert kobalt.trsm(A, B).shape == (0, 3, 2)
        assert kobalt.gemv(A, np.zeros((0, 3), dtype)).shape == (0, 3)
        assert kobalt.gemm_lu_trsv(A, A, B)[2].shape == (0, 3, 2)
