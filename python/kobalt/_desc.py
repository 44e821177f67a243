"""Descriptors of NumPy views for the ``_desc`` routines (any strided layout).

A batch of matrices is a 3-d view ``a[b, i, j]`` (batch, rows, columns) and a batch of
vectors a 2-d view ``v[b, i]``; their NumPy strides become the kobalt_matrix_desc, so a
transpose, a slice of a larger tensor or the interleaved layout (batch index fastest,
e.g. ``np.empty((n, n, batch)).transpose(2, 0, 1)``) is passed without a copy:

    A = np.empty((8, 8, 100000)).transpose(2, 0, 1)   # interleaved, A[b] is item b
    kobalt.lowlevel.dgetrf_desc(A, kobalt.matrix_desc(A), ipiv, kobalt.matrix_desc(ipiv),
                                info, A.shape[0])

Pass the view itself as the data pointer (its first element is element (0, 0) of item 0).
"""

import numpy as np

from ._lib import MatrixDesc


def matrix_desc(a):
    """The kobalt.MatrixDesc of a NumPy view: (batch, rows, cols) for matrices, (batch,
    len) for vectors and pivots (a len x 1 descriptor). Strides must be non-negative
    multiples of the item size (Kobalt's descriptors take no negative strides)."""
    a = np.asarray(a)
    if a.ndim not in (2, 3):
        raise ValueError("kobalt.matrix_desc: need a (batch, rows, cols) or (batch, len) array, got %d-d"
                         % a.ndim)
    steps = []
    for s in a.strides:
        if s < 0 or s % a.itemsize:
            raise ValueError("kobalt.matrix_desc: strides %s are not non-negative multiples of %d bytes"
                             % (a.strides, a.itemsize))
        steps.append(s // a.itemsize)
    if a.ndim == 2:
        return MatrixDesc(a.shape[1], 1, steps[1], 0, steps[0])
    return MatrixDesc(a.shape[1], a.shape[2], steps[1], steps[2], steps[0])
