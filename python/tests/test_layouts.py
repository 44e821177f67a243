"""Layouts, strides and copies: which arrays are passed as they are, which are copied,
and out= arrays that are written directly or through a temporary."""
import numpy as np
import pytest

import kobalt
from kobalt import _operands
from conftest import assert_close, items_order, rand, well_conditioned


@pytest.fixture
def copies(monkeypatch):
    """Counts the input copies made to reach a usable layout."""
    count = {"n": 0}
    real = _operands.copy_as

    def counting(a, layout):
        count["n"] += 1
        return real(a, layout)

    monkeypatch.setattr(_operands, "copy_as", counting)
    return count


@pytest.mark.parametrize("oa", ["C", "F"])
@pytest.mark.parametrize("ob", ["C", "F"])
@pytest.mark.parametrize("oc", ["C", "F"])
def test_gemm_mixed_orders_need_no_copy(rng, copies, oa, ob, oc):
    A = rand(rng, (3, 4, 5), np.float64, oa)
    B = rand(rng, (3, 5, 6), np.float64, ob)
    out = items_order(np.zeros((3, 4, 6)), oc)
    ret = kobalt.gemm(A, B, out=out)
    assert ret is out
    assert copies["n"] == 0
    assert_close(out, A @ B, np.float64, scale=5)


def test_strided_inputs_are_copied(rng, copies):
    A = rand(rng, (3, 4, 5), np.float64, "strided")  # neither row- nor column-major items
    B = rand(rng, (3, 5, 2), np.float64)
    assert_close(kobalt.gemm(A, B), A @ B, np.float64, scale=5)
    assert copies["n"] == 1
    # a negative batch stride is copied too
    Ar = rand(rng, (3, 4, 5), np.float64)[::-1]
    assert_close(kobalt.gemm(Ar, B), Ar @ B, np.float64, scale=5)
    assert copies["n"] == 2


def test_row_slices_are_not_copied(rng, copies):
    # items with a leading dimension larger than their width (a column slice)
    big = rand(rng, (3, 6, 9), np.float32)
    A = big[:, :, 2:7]
    Af = items_order(rand(rng, (3, 9, 6), np.float32), "F")[:, 1:6, :]
    x = rand(rng, (3, 5), np.float32)
    assert_close(kobalt.gemv(A, x), np.einsum("bij,bj->bi", A, x), np.float32, scale=6)
    assert Af.strides[1] == Af.itemsize  # column-major items, ld 9
    ones = np.ones((3, 6), np.float32)
    assert_close(kobalt.gemv(Af, ones), Af.sum(axis=2), np.float32, scale=6)
    assert copies["n"] == 0


def test_getrs_factor_layout_is_followed(rng, copies):
    A = well_conditioned(rng, 4, 6, np.float64, "F")
    LU, ipiv, info = kobalt.getrf(A)
    assert LU.strides[1] == LU.itemsize  # getrf keeps A's (column-major) layout
    B = rand(rng, (4, 6, 3), np.float64, "C")
    X = kobalt.getrs(LU, ipiv, B)
    assert copies["n"] == 0  # X is made in LU's layout, B copied into it
    assert_close(X, np.linalg.solve(A, B), np.float64, scale=30)
    # B given as out= in the other layout: LU is copied to B's layout instead
    Bc = B.copy()
    kobalt.getrs(LU, ipiv, Bc, out=Bc)
    assert copies["n"] == 1
    assert_close(Bc, X, np.float64, scale=30)


def test_broadcast_factors_and_pivots(rng):
    A = well_conditioned(rng, 1, 5, np.float64)
    LU, ipiv, info = kobalt.getrf(A)
    B = rand(rng, (6, 5, 2), np.float64)
    LUb = np.broadcast_to(LU, (6, 5, 5))
    ipivb = np.broadcast_to(ipiv, (6, 5))
    X = kobalt.getrs(LUb, ipivb, B)
    assert_close(X, np.linalg.solve(np.broadcast_to(A, (6, 5, 5)), B), np.float64, scale=30)


def test_broadcast_triangular(rng):
    T = np.tril(rand(rng, (1, 4, 4), np.float32)) + 4 * np.eye(4, dtype=np.float32)
    Tb = np.broadcast_to(T, (5, 4, 4))
    B = rand(rng, (5, 4, 3), np.float32)
    assert_close(kobalt.trsm(Tb, B), np.linalg.solve(Tb, B), np.float32, scale=10)
    x = rand(rng, (5, 4), np.float32)
    assert_close(kobalt.trsv(Tb, x), np.linalg.solve(Tb, x[..., None])[..., 0], np.float32, scale=10)


def test_out_with_interleaved_items(rng):
    # items of out interleaved in memory (batch axis in the middle): the library's
    # no-overlap rule refuses that stride, so a temporary is used and copied back
    A = rand(rng, (4, 3, 3), np.float64)
    storage = np.zeros((3, 4, 3))
    out = storage.transpose(1, 0, 2)
    ret = kobalt.gemm(A, A, out=out)
    assert ret is out
    assert_close(out, A @ A, np.float64, scale=4)


def test_unaligned_input_is_copied():
    raw = np.zeros(2 * 3 * 3 * 8 + 1, np.uint8)
    A = raw[1:].view(np.float64).reshape(2, 3, 3)
    assert not A.flags.aligned
    A[...] = np.eye(3) * 2
    assert_close(kobalt.gemm(A, A), A @ A, np.float64)


def test_lists_are_accepted():
    A = [[[2.0, 0.0], [0.0, 4.0]]]
    X, LU, ipiv, info = kobalt.gesv(A, [[2.0, 4.0]])
    assert X.dtype == np.float64 and np.allclose(X, [[1.0, 1.0]])
    # a list takes the dtype of the call's arrays
    x = kobalt.trsv(np.eye(2, dtype=np.float32)[None], [[1, 2]])
    assert x.dtype == np.float32


def test_single_items_and_vectors_of_length_one(rng):
    for dtype in (np.float32, np.float64):
        A = rand(rng, (1, 1, 1), dtype) + 3
        b = rand(rng, (1, 1), dtype)
        X, LU, ipiv, info = kobalt.gesv(A, b)
        assert_close(X, b / A[:, :, 0], dtype)
        assert ipiv.tolist() == [[1]]
