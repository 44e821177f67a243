"""gemm, gemv, trsv, trsm against NumPy on random batches."""
import numpy as np
import pytest

import kobalt
from conftest import DTYPES, ORDERS, SIZES, assert_close, rand, triangular

BATCH = 3


def opT(a, t):
    return a.transpose(0, 2, 1) if t else a


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order_a,order_b", [("C", "C"), ("F", "F"), ("C", "F"), ("F", "C"),
                                             ("strided", "C")])
@pytest.mark.parametrize("transa,transb", [(False, False), (True, False), (False, True), (True, True)])
def test_gemm(rng, dtype, order_a, order_b, transa, transb):
    for m, n, k in [(0, 2, 3), (1, 1, 1), (2, 3, 0), (3, 5, 2), (5, 8, 16), (16, 3, 33), (33, 16, 8)]:
        A = rand(rng, (BATCH,) + ((k, m) if transa else (m, k)), dtype, order_a)
        B = rand(rng, (BATCH,) + ((n, k) if transb else (k, n)), dtype, order_b)
        C = rand(rng, (BATCH, m, n), dtype, order_b)
        want = 1.5 * np.matmul(opT(A, transa).astype(np.float64), opT(B, transb)) - 0.5 * C
        got = kobalt.gemm(A, B, C, alpha=1.5, beta=-0.5, transa=transa, transb=transb)
        assert got.dtype == dtype and got.shape == (BATCH, m, n)
        assert_close(got, want, dtype, scale=k + 1, what="gemm %dx%dx%d" % (m, n, k))
        # beta = 0 without C
        got = kobalt.gemm(A, B, transa=transa, transb=transb)
        assert_close(got, np.matmul(opT(A, transa), opT(B, transb)), dtype, scale=k + 1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_in_place_and_out(rng, dtype):
    A = rand(rng, (4, 5, 3), dtype)
    B = rand(rng, (4, 3, 6), dtype, "F")
    C = rand(rng, (4, 5, 6), dtype, "F")
    want = A.astype(np.float64) @ B + 2.0 * C
    C0 = C.copy()
    got = kobalt.gemm(A, B, C, beta=2.0)
    assert got is not C and np.array_equal(C, C0)  # inputs are not modified
    ret = kobalt.gemm(A, B, C, beta=2.0, out=C)    # in place
    assert ret is C
    assert_close(C, want, dtype, scale=4)
    assert_close(got, want, dtype, scale=4)
    # out= that the library cannot write directly (negative strides): copied back
    out = np.zeros((4, 6, 5), dtype)[::-1].transpose(0, 2, 1)
    ret = kobalt.gemm(A, B, C0, beta=2.0, out=out)
    assert ret is out
    assert_close(out, want, dtype, scale=4)
    # out= overlapping an input: computed into a temporary
    A2 = rand(rng, (4, 5, 5), dtype)
    want = A2.astype(np.float64) @ A2
    kobalt.gemm(A2, A2, out=A2)
    assert_close(A2, want, dtype, scale=6)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_broadcast_inputs(rng, dtype):
    A1 = rand(rng, (1, 4, 3), dtype)
    A = np.broadcast_to(A1, (5, 4, 3))  # batch stride 0, read-only
    assert A.strides[0] == 0
    B = rand(rng, (5, 3, 2), dtype)
    assert_close(kobalt.gemm(A, B), np.matmul(A, B), dtype, scale=4)
    # all items broadcast: one output per item still
    Bb = np.broadcast_to(B[:1], B.shape)
    got = kobalt.gemm(A, Bb)
    assert got.shape == (5, 4, 2) and got.strides[0] != 0
    assert_close(got, np.matmul(A, Bb), dtype, scale=4)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS + ["strided"])
@pytest.mark.parametrize("trans", [False, True])
def test_gemv(rng, dtype, order, trans):
    for m, n in [(0, 0), (0, 3), (1, 1), (2, 3), (5, 8), (16, 33), (33, 5)]:
        A = rand(rng, (BATCH, m, n), dtype, order)
        lx, ly = (m, n) if trans else (n, m)
        x = rand(rng, (BATCH, lx), dtype)
        y = rand(rng, (BATCH, ly), dtype)
        want = -2.0 * np.einsum("bij,bj->bi", opT(A, trans).astype(np.float64), x) + 3.0 * y
        got = kobalt.gemv(A, x, y, alpha=-2.0, beta=3.0, trans=trans)
        assert got.shape == (BATCH, ly) and got.dtype == dtype
        assert_close(got, want, dtype, scale=max(m, n) + 1, what="gemv %dx%d" % (m, n))


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemv_vector_strides(rng, dtype):
    A = rand(rng, (4, 6, 5), dtype)
    xbig = rand(rng, (4, 15), dtype)
    x = xbig[:, ::-3]          # negative increment
    assert x.strides[1] < 0
    ybig = np.zeros((4, 12), dtype)
    y = ybig[:, 10::-2]        # negative increment, written in place
    ret = kobalt.gemv(A, x, out=y)
    assert ret is y
    assert_close(y, np.einsum("bij,bj->bi", A, x), dtype, scale=6)
    assert np.all(ybig[:, 1::2] == 0)  # only y's elements were written
    # x broadcast (stride 0 over the batch)
    xb = np.broadcast_to(x[:1], x.shape)
    assert_close(kobalt.gemv(A, xb), np.einsum("bij,bj->bi", A, xb), dtype, scale=6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("unit", [False, True])
def test_trsv(rng, dtype, order, lower, trans, unit):
    for n in SIZES:
        A, T = triangular(rng, BATCH, n, dtype, lower, unit, order)
        x = rand(rng, (BATCH, n), dtype)
        want = np.linalg.solve(opT(T, trans), x[..., None])[..., 0] if n else x
        got = kobalt.trsv(A, x, lower=lower, trans=trans, unit=unit)
        assert got.shape == (BATCH, n)
        assert_close(got, want, dtype, scale=n + 1, what="trsv n=%d" % n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_trsv_in_place(rng, dtype):
    A, T = triangular(rng, 5, 7, dtype, True, False, "C")
    x = rand(rng, (5, 7), dtype)
    want = np.linalg.solve(T, x[..., None])[..., 0]
    ret = kobalt.trsv(A, x, out=x)
    assert ret is x
    assert_close(x, want, dtype, scale=8)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order_a,order_b", [("C", "C"), ("F", "F"), ("C", "F"), ("F", "C")])
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("unit", [False, True])
def test_trsm(rng, dtype, order_a, order_b, side, lower, trans, unit):
    for m, n in [(0, 2), (2, 0), (1, 1), (3, 2), (5, 8), (16, 3), (33, 5)]:
        s = m if side == "left" else n
        A, T = triangular(rng, BATCH, s, dtype, lower, unit, order_a)
        B = rand(rng, (BATCH, m, n), dtype, order_b)
        opA = opT(T, trans)
        if m == 0 or n == 0:
            want = B
        elif side == "left":
            want = np.linalg.solve(opA, 0.5 * B)
        else:
            want = np.linalg.solve(opA.transpose(0, 2, 1), 0.5 * B.transpose(0, 2, 1)).transpose(0, 2, 1)
        got = kobalt.trsm(A, B, side=side, lower=lower, trans=trans, unit=unit, alpha=0.5)
        assert got.shape == (BATCH, m, n)
        assert_close(got, want, dtype, scale=s + 1, what="trsm %s %dx%d" % (side, m, n))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS)
def test_trsv_negative_increment_in_place(rng, dtype, order):
    A, T = triangular(rng, 3, 4, dtype, False, False, order)
    storage = np.zeros((3, 8), dtype)
    x = storage[:, ::-2]              # increment -2, written in place
    x[...] = rand(rng, (3, 4), dtype)
    want = np.linalg.solve(T, x[..., None].astype(np.float64))[..., 0]
    ret = kobalt.trsv(A, x, lower=False, out=x)
    assert ret is x
    assert_close(x, want, dtype, scale=5)
    assert np.all(storage[:, 0::2] == 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_beta_zero_does_not_read_the_output(rng, dtype):
    A = rand(rng, (3, 4, 4), dtype)
    nan = np.full((3, 4, 4), np.nan, dtype)
    assert not np.isnan(kobalt.gemm(A, A, nan, beta=0.0)).any()
    assert not np.isnan(kobalt.gemv(A, A[:, 0], nan[:, 0], beta=0.0)).any()
    # trsm with alpha = 0: B = 0 without reading B
    T = np.tril(A) + 4 * np.eye(4, dtype=dtype)
    assert np.all(kobalt.trsm(T, nan, alpha=0.0) == 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemv_empty_inner_dimension(rng, dtype):
    # op(A) is m x 0: y = beta y (libkobalt itself leaves y untouched here, as CBLAS;
    # the binding keeps the formula, so a new y is never left uninitialised)
    A = np.zeros((3, 4, 0), dtype)
    y = rand(rng, (3, 4), dtype)
    assert np.array_equal(kobalt.gemv(A, np.zeros((3, 0), dtype)), np.zeros((3, 4)))
    assert_close(kobalt.gemv(A, np.zeros((3, 0), dtype), y, beta=2.0), 2 * y, dtype)
    assert_close(kobalt.gemv(A.transpose(0, 2, 1), np.zeros((3, 0), dtype), y, beta=-1.0,
                             trans=True), -y, dtype)
