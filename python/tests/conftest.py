"""Shared helpers of the kobalt Python tests (run by ctest as python_pytest).

The package is imported from the source tree (PYTHONPATH=<source>/python) and loads
the build's libkobalt through KOBALT_LIBRARY; see tests/python.cmake.
"""
import numpy as np
import pytest

DTYPES = [np.float64, np.float32]
SIZES = [0, 1, 2, 3, 5, 8, 16, 33]
ORDERS = ["C", "F"]


def eps(dtype):
    return float(np.finfo(dtype).eps)


def items_order(a, order):
    """a with its items stored row-major ("C"), column-major ("F"), or as a
    non-contiguous view ("strided": every other row and column of a bigger array)."""
    a = np.asarray(a)
    if order == "C":
        return np.ascontiguousarray(a)
    if order == "F":
        return np.ascontiguousarray(a.transpose(0, 2, 1)).transpose(0, 2, 1)
    if order == "strided":
        big = np.full((a.shape[0], 2 * a.shape[1] + 1, 2 * a.shape[2] + 1), np.nan, a.dtype)
        big[:, 1::2, 1::2] = a
        return big[:, 1::2, 1::2]
    raise ValueError(order)


def rand(rng, shape, dtype, order="C"):
    a = rng.standard_normal(shape).astype(dtype)
    return items_order(a, order) if len(shape) == 3 else a


def well_conditioned(rng, batch, n, dtype, order="C"):
    """Random (pivoting needed) but well-conditioned square items."""
    a = rng.standard_normal((batch, n, n))
    a += 4.0 * np.sqrt(max(n, 1)) * np.eye(n)[rng.permutation(n)] if n else 0
    return items_order(a.astype(dtype), order)


def triangular(rng, batch, n, dtype, lower, unit, order="C"):
    """(the array passed, the logical triangular matrix it stands for). The unused
    triangle, and with unit the diagonal, hold NaN: reading them poisons the result."""
    t = rng.standard_normal((batch, n, n)) * (0.5 / np.sqrt(max(n, 1)))
    t = np.tril(t) if lower else np.triu(t)
    idx = np.arange(n)
    t[:, idx, idx] = rng.choice([-1.0, 1.0], (batch, n)) * (1.0 + rng.random((batch, n)))
    logical = t.copy()
    if unit:
        logical[:, idx, idx] = 1.0
    passed = t.copy()
    mask = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
    passed[:, mask] = np.nan
    if unit:
        passed[:, idx, idx] = np.nan
    return items_order(passed.astype(dtype), order), logical


def assert_close(got, want, dtype, scale=1.0, what=""):
    got = np.asarray(got, np.float64)
    want = np.asarray(want, np.float64)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    if got.size == 0:
        return
    tol = 200 * eps(dtype) * scale * max(1.0, float(np.abs(want).max()))
    err = float(np.abs(got - want).max())
    assert err <= tol, "%s: max error %g > %g" % (what, err, tol)


def apply_pivots(a, ipiv):
    """P^T A: the rows of each item of a swapped as LAPACK's ipiv (1-based) says."""
    a = np.array(a, copy=True)
    for i in range(a.shape[0]):
        for j, p in enumerate(ipiv[i]):
            if p - 1 != j:
                a[i, [j, p - 1]] = a[i, [p - 1, j]]
    return a


def split_lu(lu):
    """(L, U) of getrf's combined factors, for (batch, m, n) items."""
    _, m, n = lu.shape
    mn = min(m, n)
    L = np.tril(lu[:, :, :mn], -1) + np.eye(m, mn)
    U = np.triu(lu[:, :mn, :])
    return L, U


def reference_getrf(a):
    """Partial pivoting LU in float64 (the first entry of largest magnitude), for the pivots."""
    a = np.array(a, np.float64, copy=True)
    batch, m, n = a.shape
    ipiv = np.zeros((batch, min(m, n)), np.intc)
    for i in range(batch):
        x = a[i]
        for j in range(min(m, n)):
            p = j + int(np.argmax(np.abs(x[j:, j])))
            ipiv[i, j] = p + 1
            if p != j:
                x[[j, p]] = x[[p, j]]
            if x[j, j] != 0:
                x[j + 1:, j] /= x[j, j]
                x[j + 1:, j + 1:] -= np.outer(x[j + 1:, j], x[j, j + 1:])
    return ipiv


@pytest.fixture
def rng(request):
    # One reproducible stream per test (seeded from its name).
    seed = sum(ord(c) * (i + 1) for i, c in enumerate(request.node.nodeid)) % (2 ** 32)
    return np.random.default_rng(seed)
