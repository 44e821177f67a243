"""The _desc routines through kobalt.lowlevel with kobalt.matrix_desc: NumPy views in any
strided layout (the interleaved layout, transposed and sliced views) against NumPy."""
import numpy as np
import pytest

import kobalt
from kobalt import lowlevel
from conftest import DTYPES, assert_close, eps, well_conditioned


def interleaved(a):
    """A copy of the (batch, r, c) array a whose batch index is fastest in memory."""
    out = np.empty(a.shape[1:] + a.shape[:1], a.dtype).transpose(2, 0, 1)
    out[...] = a
    return out


def p(dtype):
    return "d" if dtype == np.float64 else "s"


def test_matrix_desc_of_views():
    a = np.zeros((5, 3, 4))
    d = kobalt.matrix_desc(a)
    assert (d.rows, d.cols, d.row_stride, d.col_stride, d.batch_stride) == (3, 4, 4, 1, 12)
    d = kobalt.matrix_desc(interleaved(a))
    assert (d.rows, d.cols, d.row_stride, d.col_stride, d.batch_stride) == (3, 4, 20, 5, 1)
    d = kobalt.matrix_desc(a.transpose(0, 2, 1)[:, 1:, :])
    assert (d.rows, d.cols, d.row_stride, d.col_stride, d.batch_stride) == (3, 3, 1, 4, 12)
    v = np.zeros((7, 3), np.intc)
    d = kobalt.matrix_desc(v)
    assert (d.rows, d.cols, d.row_stride, d.batch_stride) == (3, 1, 1, 3)
    with pytest.raises(ValueError):
        kobalt.matrix_desc(a[::-1])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 3, 8, 12])
def test_interleaved_getrf_getrs(rng, dtype, n):
    batch = 37
    A0 = well_conditioned(rng, batch, n, dtype)
    b0 = rng.standard_normal((batch, n)).astype(dtype)
    A = interleaved(A0)
    b = np.empty((n, batch), dtype).T
    b[...] = b0
    ipiv = np.empty((n, batch), np.intc).T
    info = np.full(batch, -1, np.intc)
    f = p(dtype)
    lowlevel.call(f + "getrf_desc", A, kobalt.matrix_desc(A), ipiv, kobalt.matrix_desc(ipiv), info, batch)
    assert (info == 0).all()
    lowlevel.call(f + "getrs_desc", kobalt.NO_TRANS, A, kobalt.matrix_desc(A), ipiv, kobalt.matrix_desc(ipiv),
                  b, kobalt.matrix_desc(b), batch)
    x = np.linalg.solve(A0.astype(np.float64), b0.astype(np.float64)[..., None])[..., 0]
    assert_close(b, x, dtype, scale=30 * n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_desc_on_views(rng, dtype):
    big = rng.standard_normal((6, 9, 10)).astype(dtype)
    A = big[:, 1:5, 2:9:2]            # a slice with a column step: neither row- nor column-major
    B = rng.standard_normal((6, 3, 4)).astype(dtype).transpose(0, 2, 1)  # (6, 4, 3), column-major items
    C = np.zeros((3, 4, 6), dtype).transpose(2, 1, 0)                     # (6, 4, 3), batch fastest
    lowlevel.call(p(dtype) + "gemm_desc", kobalt.NO_TRANS, kobalt.NO_TRANS, 1.0, A, kobalt.matrix_desc(A),
                  B, kobalt.matrix_desc(B), 0.0, C, kobalt.matrix_desc(C), 6)
    assert_close(C, A @ B, dtype, scale=10)


def test_desc_refuses_overlapping_output(rng):
    A = rng.standard_normal((4, 3, 3))
    C = np.zeros((4, 3, 3))
    d = kobalt.matrix_desc(C)
    d.batch_stride = 4  # items overlap
    with pytest.raises(kobalt.KobaltArgumentError, match="descC"):
        lowlevel.call("dgemm_desc", kobalt.NO_TRANS, kobalt.NO_TRANS, 1.0, A, kobalt.matrix_desc(A), A,
                      kobalt.matrix_desc(A), 0.0, C, d, 4)
    assert (C == 0).all()
    with pytest.raises(TypeError):
        lowlevel.call("dgemm_desc", kobalt.NO_TRANS, kobalt.NO_TRANS, 1.0, A, A, A, A, 0.0, C, C, 4)


@pytest.mark.parametrize("dtype", DTYPES)
def test_pack_unpack_roundtrip(rng, dtype):
    batch, r, c = 9, 3, 5
    A = rng.standard_normal((batch, r, c)).astype(dtype)       # row-major items
    ldp = batch + 3
    P = np.full(r * c * ldp, np.nan, dtype)
    f = p(dtype)
    lowlevel.call(f + "pack_interleaved", kobalt.ROW_MAJOR, r, c, A, c, r * c, P, ldp, batch)
    planes = P.reshape(c, r, ldp)                              # element (i, j) at (i + j*r)*ldp + b
    assert np.array_equal(planes[:, :, :batch].transpose(2, 1, 0), A)
    assert np.isnan(planes[:, :, batch:]).all()
    back = np.zeros_like(A)
    lowlevel.call(f + "unpack_interleaved", kobalt.ROW_MAJOR, r, c, P, ldp, back, c, r * c, batch)
    assert np.array_equal(back, A)
