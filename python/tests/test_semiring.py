"""gemm_semiring against NumPy: every semiring, both dtypes, row- and column-major items,
transposes, plain product and accumulation into C. Results other than plus-times are
compared exactly: each is the min/max of singly rounded terms (docs/api.md)."""
import numpy as np
import pytest

import kobalt
from conftest import DTYPES, assert_close, items_order

BATCH = 3

# name -> (add reduction, multiply), NumPy's fmin/fmax ignore NaN as Kobalt's min/max do
RINGS = {
    "min_plus": (np.fmin, np.add),
    "max_plus": (np.fmax, np.add),
    "min_times": (np.fmin, np.multiply),
    "max_times": (np.fmax, np.multiply),
    "min_max": (np.fmin, np.fmax),
    "max_min": (np.fmax, np.fmin),
}


def opT(a, t):
    return a.transpose(0, 2, 1) if t else a


def product(name, a, b):
    """The semiring product of (batch, m, k) and (batch, k, n)."""
    if name == "or_and":
        return np.any((a[:, :, :, None] != 0) & (b[:, None, :, :] != 0), axis=2).astype(a.dtype)
    add, mul = RINGS[name]
    terms = mul(a[:, :, :, None], b[:, None, :, :])
    zero = np.inf if add is np.fmin else -np.inf
    return add.reduce(terms, axis=2, initial=zero).astype(a.dtype)


def draw(rng, shape, dtype, name, order):
    if name == "or_and":
        a = (rng.random(shape) < 0.2) * rng.integers(-2, 3, shape)
    else:
        a = rng.uniform(-1, 1, shape)
    return items_order(a.astype(dtype), order)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(RINGS) + ["or_and"])
@pytest.mark.parametrize("order_a,order_b", [("C", "C"), ("F", "F"), ("C", "F"), ("strided", "C")])
@pytest.mark.parametrize("transa,transb", [(False, False), (True, False), (False, True)])
def test_semiring(rng, dtype, name, order_a, order_b, transa, transb):
    for m, n, k in [(1, 1, 1), (2, 3, 4), (5, 8, 16), (16, 3, 33), (33, 17, 8)]:
        A = draw(rng, (BATCH,) + ((k, m) if transa else (m, k)), dtype, name, order_a)
        B = draw(rng, (BATCH,) + ((n, k) if transb else (k, n)), dtype, name, order_b)
        P = product(name, opT(A, transa), opT(B, transb))
        got = kobalt.gemm_semiring(A, B, semiring=name, transa=transa, transb=transb)
        assert got.dtype == dtype and got.shape == (BATCH, m, n)
        assert np.array_equal(got, P), "%s %dx%dx%d plain product" % (name, m, n, k)
        # accumulate into C: beta = the multiply's identity
        C = draw(rng, (BATCH, m, n), dtype, name, order_b)
        one = kobalt._routines.SEMIRINGS[name][1]
        if name == "or_and":
            want = ((P != 0) | (C != 0)).astype(dtype)
        else:
            want = RINGS[name][0](P, C)
        got = kobalt.gemm_semiring(A, B, C, semiring=name, beta=one, transa=transa, transb=transb)
        assert np.array_equal(got, want), "%s %dx%dx%d accumulate" % (name, m, n, k)


@pytest.mark.parametrize("dtype", DTYPES)
def test_plus_times_is_gemm(rng, dtype):
    A = rng.standard_normal((4, 5, 6)).astype(dtype)
    B = rng.standard_normal((4, 6, 3)).astype(dtype)
    C = rng.standard_normal((4, 5, 3)).astype(dtype)
    got = kobalt.gemm_semiring(A, B, C, semiring="plus_times", alpha=2.0, beta=-1.0)
    assert_close(got, 2.0 * (A.astype(np.float64) @ B) - C, dtype, scale=8)


def test_shortest_paths():
    """Min-plus squaring of a path graph 0 -> 1 -> ... -> 5 gives the distances j - i."""
    n = 6
    W = np.full((1, n, n), np.inf)
    W[0, np.arange(n), np.arange(n)] = 0
    W[0, np.arange(n - 1), np.arange(1, n)] = 1
    D = W
    for _ in range(3):
        D = kobalt.gemm_semiring(D, D, semiring="min_plus")
    i, j = np.indices((n, n))
    assert np.array_equal(D[0], np.where(j >= i, (j - i).astype(float), np.inf))


def test_errors(rng):
    A = rng.standard_normal((2, 3, 3))
    with pytest.raises(ValueError, match="semiring must be one of"):
        kobalt.gemm_semiring(A, A, semiring="tropical")
    with pytest.raises(ValueError, match="needs C"):
        kobalt.gemm_semiring(A, A, semiring="min_plus", beta=0.0)
    # C is not read with the default beta: NaN in it does not leak
    C = np.full((2, 3, 3), np.nan)
    assert not np.isnan(kobalt.gemm_semiring(A, A, C, semiring="max_plus")).any()
