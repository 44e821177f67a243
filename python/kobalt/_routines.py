"""The NumPy-level routines: batched over axis 0, float32 or float64.

Every function returns new arrays unless an ``out=`` (``out_a=``, ``out_b=``) array is
given, which then receives the result and is returned; passing the in/out operand
itself (``gemm(A, B, C, beta=1, out=C)``) updates it in place. Inputs are never
modified. See docs/python.md.
"""

import numpy as np

from . import _operands as op
from ._lib import (LEFT, LOWER, MAX_MIN, MAX_PLUS, MAX_TIMES, MIN_MAX, MIN_PLUS, MIN_TIMES, NO_TRANS,
                   NON_UNIT, OR_AND, PLUS_TIMES, RIGHT, UNIT, UPPER, lib)

__all__ = ["gemm", "gemv", "trsv", "trsm", "getrf", "getrs", "gesv", "gemm_lu_trsv", "gemm_semiring"]


def _prec(dtype):
    return "d" if dtype == np.float64 else "s"


def _call(dtype, routine, *args):
    lib.call(_prec(dtype) + routine, *args)


def _side(value):
    if isinstance(value, str):
        v = value.upper()
        if v in ("L", "LEFT"):
            return LEFT
        if v in ("R", "RIGHT"):
            return RIGHT
    raise ValueError("kobalt: side must be 'left' or 'right' ('L'/'R'), got %r" % (value,))


def _square(name, a):
    if a.shape[1] != a.shape[2]:
        raise ValueError("kobalt: the items of %s must be square, got %d x %d"
                         % (name, a.shape[1], a.shape[2]))
    return a.shape[1]


def _rhs(name, b, n, batch):
    """B as 3-D (batch, n, nrhs); a 2-D B (batch, n) is one right-hand side per item."""
    b3 = b[:, :, None] if b.ndim == 2 else b
    if b3.shape[1] != n:
        raise ValueError("kobalt: %s has %d rows per item, expected n = %d" % (name, b3.shape[1], n))
    return b3


def _out3(out, vector):
    """An out= array for a right-hand side, viewed as 3-D when B was 2-D."""
    if out is None or not vector:
        return out
    if not isinstance(out, np.ndarray) or out.ndim != 2:
        raise ValueError("kobalt: out must be a 2-D array like B")
    return out[:, :, None]


def _back(spec, vector, out):
    res = op.finish(spec)
    if not vector:
        return res
    return out if out is not None else res[:, :, 0]


def gemm(A, B, C=None, *, alpha=1.0, beta=0.0, transa=False, transb=False, out=None):
    """C_i = alpha op(A_i) op(B_i) + beta C_i for every item i.

    A: (batch, m, k), or (batch, k, m) with transa; B: (batch, k, n), or (batch, n, k)
    with transb; C: (batch, m, n), needed when beta != 0. Returns (batch, m, n).
    """
    dt = op.common_dtype(("A", A), ("B", B), ("C", C), ("out", out))
    A = op.as_array("A", A, dt, (3,))
    B = op.as_array("B", B, dt, (3,))
    C = None if C is None else op.as_array("C", C, dt, (3,))
    alpha, beta = op.scalar("alpha", alpha), op.scalar("beta", beta)
    ta, tb = op.op_flag("transa", transa), op.op_flag("transb", transb)
    batch = op.batch_size(("A", A), ("B", B), ("C", C))
    m, k = A.shape[1:] if ta == NO_TRANS else A.shape[:0:-1]
    kb, n = B.shape[1:] if tb == NO_TRANS else B.shape[:0:-1]
    if kb != k:
        raise ValueError("kobalt: gemm: op(A) is %d x %d but op(B) is %d x %d" % (m, k, kb, n))
    if C is not None and C.shape[1:] != (m, n):
        raise ValueError("kobalt: gemm: C items are %s, expected %s" % (C.shape[1:], (m, n)))
    if C is None and beta != 0.0:
        raise ValueError("kobalt: gemm: beta != 0 needs C")
    spec = op.OutSpec("out", out, (batch, m, n), C if beta != 0.0 else None, (A, B))
    layout = op.choose_buffers([spec], dt, op.preferred_layout(C, A, B))
    a, fa = op.in_mat(A, layout, True)
    b, fb = op.in_mat(B, layout, True)
    c = op.out_mat(spec.buf, layout)
    _call(dt, "gemm_strided", layout, op.flip(ta, fa), op.flip(tb, fb), m, n, k, alpha,
          a.ptr, a.ld, a.stride, b.ptr, b.ld, b.stride, beta, c.ptr, c.ld, c.stride, batch)
    return op.finish(spec)


# semiring name -> (kobalt_semiring, mult identity (alpha of a plain product), add identity
# (beta that leaves C unread)); docs/api.md
SEMIRINGS = {
    "plus_times": (PLUS_TIMES, 1.0, 0.0),
    "min_plus": (MIN_PLUS, 0.0, np.inf),
    "max_plus": (MAX_PLUS, 0.0, -np.inf),
    "min_times": (MIN_TIMES, 1.0, np.inf),
    "max_times": (MAX_TIMES, 1.0, -np.inf),
    "min_max": (MIN_MAX, -np.inf, np.inf),
    "max_min": (MAX_MIN, np.inf, -np.inf),
    "or_and": (OR_AND, 1.0, 0.0),
}


def gemm_semiring(A, B, C=None, *, semiring="min_plus", alpha=None, beta=None, transa=False,
                  transb=False, out=None):
    """C_i = add(mult(alpha, op(A_i) op(B_i)), mult(beta, C_i)) over a semiring, every item i.

    semiring: "plus_times", "min_plus", "max_plus", "min_times", "max_times", "min_max",
    "max_min" or "or_and" (docs/api.md gives each one's operations and NaN rules).
    alpha defaults to the multiply's identity and beta to the add identity (the plain
    product; C is then not read and may be omitted); beta = the multiply's identity
    accumulates into C (min-plus: C = min(A B, C)). Shapes as gemm.
    """
    try:
        code, one, zero = SEMIRINGS[str(semiring).lower()]
    except KeyError:
        raise ValueError("kobalt: gemm_semiring: semiring must be one of %s, got %r"
                         % (", ".join(sorted(SEMIRINGS)), semiring)) from None
    alpha = one if alpha is None else alpha
    beta = zero if beta is None else beta
    dt = op.common_dtype(("A", A), ("B", B), ("C", C), ("out", out))
    A = op.as_array("A", A, dt, (3,))
    B = op.as_array("B", B, dt, (3,))
    C = None if C is None else op.as_array("C", C, dt, (3,))
    alpha, beta = op.scalar("alpha", alpha), op.scalar("beta", beta)
    ta, tb = op.op_flag("transa", transa), op.op_flag("transb", transb)
    batch = op.batch_size(("A", A), ("B", B), ("C", C))
    m, k = A.shape[1:] if ta == NO_TRANS else A.shape[:0:-1]
    kb, n = B.shape[1:] if tb == NO_TRANS else B.shape[:0:-1]
    if kb != k:
        raise ValueError("kobalt: gemm_semiring: op(A) is %d x %d but op(B) is %d x %d" % (m, k, kb, n))
    if C is not None and C.shape[1:] != (m, n):
        raise ValueError("kobalt: gemm_semiring: C items are %s, expected %s" % (C.shape[1:], (m, n)))
    reads_c = beta != zero
    if C is None and reads_c:
        raise ValueError("kobalt: gemm_semiring: beta other than the add identity (%r) needs C" % zero)
    spec = op.OutSpec("out", out, (batch, m, n), C if reads_c else None, (A, B))
    layout = op.choose_buffers([spec], dt, op.preferred_layout(C, A, B))
    a, fa = op.in_mat(A, layout, True)
    b, fb = op.in_mat(B, layout, True)
    c = op.out_mat(spec.buf, layout)
    _call(dt, "gemm_semiring_strided", code, layout, op.flip(ta, fa), op.flip(tb, fb), m, n, k,
          alpha, a.ptr, a.ld, a.stride, b.ptr, b.ld, b.stride, beta, c.ptr, c.ld, c.stride, batch)
    return op.finish(spec)


def gemv(A, x, y=None, *, alpha=1.0, beta=0.0, trans=False, out=None):
    """y_i = alpha op(A_i) x_i + beta y_i for every item i.

    A: (batch, m, n); x: (batch, n), or (batch, m) with trans; y: (batch, m), or
    (batch, n) with trans, needed when beta != 0. Returns y's shape.
    """
    dt = op.common_dtype(("A", A), ("x", x), ("y", y), ("out", out))
    A = op.as_array("A", A, dt, (3,))
    x = op.as_array("x", x, dt, (2,))
    y = None if y is None else op.as_array("y", y, dt, (2,))
    alpha, beta = op.scalar("alpha", alpha), op.scalar("beta", beta)
    t = op.op_flag("trans", trans)
    batch = op.batch_size(("A", A), ("x", x), ("y", y))
    m, n = A.shape[1:]
    lx, ly = (n, m) if t == NO_TRANS else (m, n)
    if x.shape[1] != lx:
        raise ValueError("kobalt: gemv: x has length %d, expected %d" % (x.shape[1], lx))
    if y is not None and y.shape[1] != ly:
        raise ValueError("kobalt: gemv: y has length %d, expected %d" % (y.shape[1], ly))
    if y is None and beta != 0.0:
        raise ValueError("kobalt: gemv: beta != 0 needs y")
    spec = op.OutSpec("out", out, (batch, ly), y if beta != 0.0 else None, (A, x), vector=True)
    layout = op.choose_buffers([spec], dt, op.preferred_layout(A))
    a, _ = op.in_mat(A, layout, False)
    xv = op.in_vec(x)
    yv = op.Vec(spec.buf, *op.out_vec_desc(spec.buf))
    if lx == 0:
        # y = beta y. libkobalt, as CBLAS, leaves y untouched when m or n is 0 (even
        # with beta = 0); the formula is kept here.
        spec.buf[...] = 0.0 if beta == 0.0 else beta * spec.buf
        return op.finish(spec)
    _call(dt, "gemv_strided", layout, t, m, n, alpha, a.ptr, a.ld, a.stride,
          xv.ptr, xv.inc, xv.stride, beta, yv.ptr, yv.inc, yv.stride, batch)
    return op.finish(spec)


def trsv(A, x, *, lower=True, trans=False, unit=False, out=None):
    """Solves op(A_i) z_i = x_i for every item i; returns z (batch, n).

    A: (batch, n, n), triangular (only the ``lower`` or upper triangle is read; with
    ``unit`` the diagonal is taken as 1); x: (batch, n).
    """
    dt = op.common_dtype(("A", A), ("x", x), ("out", out))
    A = op.as_array("A", A, dt, (3,))
    x = op.as_array("x", x, dt, (2,))
    t = op.op_flag("trans", trans)
    batch = op.batch_size(("A", A), ("x", x))
    n = _square("A", A)
    if x.shape[1] != n:
        raise ValueError("kobalt: trsv: x has length %d, expected %d" % (x.shape[1], n))
    spec = op.OutSpec("out", out, (batch, n), x, (A,), vector=True)
    layout = op.choose_buffers([spec], dt, op.preferred_layout(A))
    a, _ = op.in_mat(A, layout, False)
    xv = op.Vec(spec.buf, *op.out_vec_desc(spec.buf))
    _call(dt, "trsv_strided", layout, LOWER if lower else UPPER, t, UNIT if unit else NON_UNIT,
          n, a.ptr, a.ld, a.stride, xv.ptr, xv.inc, xv.stride, batch)
    return op.finish(spec)


def trsm(A, B, *, side="left", lower=True, trans=False, unit=False, alpha=1.0, out=None):
    """Solves op(A_i) Z_i = alpha B_i (side='left') or Z_i op(A_i) = alpha B_i
    (side='right') for every item i; returns Z (batch, m, n).

    A: (batch, m, m) (left) or (batch, n, n) (right), triangular as in trsv;
    B: (batch, m, n).
    """
    dt = op.common_dtype(("A", A), ("B", B), ("out", out))
    A = op.as_array("A", A, dt, (3,))
    B = op.as_array("B", B, dt, (3,))
    s = _side(side)
    t = op.op_flag("trans", trans)
    alpha = op.scalar("alpha", alpha)
    batch = op.batch_size(("A", A), ("B", B))
    na = _square("A", A)
    m, n = B.shape[1:]
    if na != (m if s == LEFT else n):
        raise ValueError("kobalt: trsm: A items are %d x %d but B items are %d x %d (side=%s)"
                         % (na, na, m, n, "left" if s == LEFT else "right"))
    spec = op.OutSpec("out", out, (batch, m, n), B, (A,))
    layout = op.choose_buffers([spec], dt, op.preferred_layout(B, A))
    a, fa = op.in_mat(A, layout, True)
    uplo = LOWER if lower else UPPER
    if fa:  # the library sees A's transpose: the other triangle, the other op
        uplo = UPPER if uplo == LOWER else LOWER
    b = op.out_mat(spec.buf, layout)
    _call(dt, "trsm_strided", layout, s, uplo, op.flip(t, fa), UNIT if unit else NON_UNIT,
          m, n, alpha, a.ptr, a.ld, a.stride, b.ptr, b.ld, b.stride, batch)
    return op.finish(spec)


def getrf(A, *, pivot=True, out=None):
    """LU factorisation A_i = P_i L_i U_i of every item; returns (LU, ipiv, info).

    A: (batch, m, n). LU: (batch, m, n), L below the diagonal (unit diagonal not
    stored) and U on and above it. ipiv: int32 (batch, min(m, n)), 1-based LAPACK
    row interchanges, or None with pivot=False (no pivoting, P = I). info: int32
    (batch,), 0 or the first j (1-based) with U[j-1, j-1] exactly zero.
    """
    dt = op.common_dtype(("A", A), ("out", out))
    A = op.as_array("A", A, dt, (3,))
    batch, m, n = A.shape
    mn = min(m, n)
    spec = op.OutSpec("out", out, A.shape, A, ())
    layout = op.choose_buffers([spec], dt, op.preferred_layout(A))
    a = op.out_mat(spec.buf, layout)
    ipiv = np.zeros((batch, mn), op.IPIV_DTYPE) if pivot else None
    info = np.zeros(batch, op.IPIV_DTYPE)
    _call(dt, "getrf_strided", layout, m, n, a.ptr, a.ld, a.stride,
          None if ipiv is None else ipiv.ctypes.data, mn, info.ctypes.data, batch)
    return op.finish(spec), ipiv, info


def getrs(LU, ipiv, B, *, trans=False, out=None):
    """Solves op(A_i) X_i = B_i from getrf's factors; returns X (B's shape).

    LU: (batch, n, n) and ipiv (batch, n) as returned by getrf (ipiv None: factors
    computed without pivoting); B: (batch, n, nrhs), or (batch, n) for one
    right-hand side per item. Pivots outside 1..n raise KobaltError.
    """
    dt = op.common_dtype(("LU", LU), ("B", B), ("out", out))
    LU = op.as_array("LU", LU, dt, (3,))
    B = op.as_array("B", B, dt, (2, 3))
    t = op.op_flag("trans", trans)
    batch = op.batch_size(("LU", LU), ("B", B))
    n = _square("LU", LU)
    vector = B.ndim == 2
    B3 = _rhs("B", B, n, batch)
    piv = op.in_ipiv(ipiv, batch, n)
    spec = op.OutSpec("out", _out3(out, vector), B3.shape, B3, (LU, piv.arr))
    layout = op.choose_buffers([spec], dt, op.preferred_layout(LU))
    a, _ = op.in_mat(LU, layout, False)  # the factors cannot be flipped
    b = op.out_mat(spec.buf, layout)
    _call(dt, "getrs_strided", layout, t, n, B3.shape[2], a.ptr, a.ld, a.stride,
          piv.ptr, piv.stride, b.ptr, b.ld, b.stride, batch)
    return _back(spec, vector, out)


def gesv(A, B, *, pivot=True, out_a=None, out_b=None):
    """Solves A_i X_i = B_i (factor and solve); returns (X, LU, ipiv, info).

    A: (batch, n, n); B: (batch, n, nrhs) or (batch, n). X has B's shape; LU, ipiv
    and info are getrf's. For an item with info > 0 (exactly singular U) X holds
    that item's B unchanged. One call of the fused routine (with k = 0).
    """
    dt = op.common_dtype(("A", A), ("B", B), ("out_a", out_a), ("out_b", out_b))
    A = op.as_array("A", A, dt, (3,))
    B = op.as_array("B", B, dt, (2, 3))
    batch = op.batch_size(("A", A), ("B", B))
    n = _square("A", A)
    vector = B.ndim == 2
    B3 = _rhs("B", B, n, batch)
    ob = _out3(out_b, vector)
    sa = op.OutSpec("out_a", out_a, A.shape, A, (B, ob))
    sb = op.OutSpec("out_b", ob, B3.shape, B3, (A, out_a))
    layout = op.choose_buffers([sa, sb], dt, op.preferred_layout(A, B3))
    a = op.out_mat(sa.buf, layout)
    b = op.out_mat(sb.buf, layout)
    ipiv = np.zeros((batch, n), op.IPIV_DTYPE) if pivot else None
    info = np.zeros(batch, op.IPIV_DTYPE)
    ld0 = max(1, n)  # X (n x 0) and Y (0 x n) are empty: valid in either layout
    _call(dt, "gemm_lu_trsv_strided", layout, NO_TRANS, NO_TRANS, n, 0, B3.shape[2], 0.0,
          None, ld0, 0, None, ld0, 0, 1.0, a.ptr, a.ld, a.stride,
          None if ipiv is None else ipiv.ctypes.data, n, b.ptr, b.ld, b.stride,
          info.ctypes.data, batch)
    return _back(sb, vector, out_b), op.finish(sa), ipiv, info


def gemm_lu_trsv(X, Y, B, A=None, *, alpha=1.0, beta=0.0, transx=False, transy=False,
                 pivot=True, out_a=None, out_b=None):
    """The fused call, per item: A_i = alpha op(X_i) op(Y_i) + beta A_i; A_i = P_i L_i U_i;
    B_i = A_i^{-1} B_i. Returns (LU, ipiv, solution, info).

    X: (batch, n, k), or (batch, k, n) with transx; Y: (batch, k, n), or (batch, n, k)
    with transy; B: (batch, n, nrhs) or (batch, n); A: (batch, n, n), needed when
    beta != 0. ipiv and info as in getrf; an item with info > 0 keeps its B.
    """
    dt = op.common_dtype(("X", X), ("Y", Y), ("B", B), ("A", A), ("out_a", out_a),
                         ("out_b", out_b))
    X = op.as_array("X", X, dt, (3,))
    Y = op.as_array("Y", Y, dt, (3,))
    B = op.as_array("B", B, dt, (2, 3))
    A = None if A is None else op.as_array("A", A, dt, (3,))
    alpha, beta = op.scalar("alpha", alpha), op.scalar("beta", beta)
    tx, ty = op.op_flag("transx", transx), op.op_flag("transy", transy)
    batch = op.batch_size(("X", X), ("Y", Y), ("B", B), ("A", A))
    n, k = X.shape[1:] if tx == NO_TRANS else X.shape[:0:-1]
    ky, ny = Y.shape[1:] if ty == NO_TRANS else Y.shape[:0:-1]
    if (ky, ny) != (k, n):
        raise ValueError("kobalt: gemm_lu_trsv: op(X) is %d x %d, so op(Y) must be %d x %d, got "
                         "%d x %d" % (n, k, k, n, ky, ny))
    if A is not None and A.shape[1:] != (n, n):
        raise ValueError("kobalt: gemm_lu_trsv: A items are %s, expected %s" % (A.shape[1:], (n, n)))
    if A is None and beta != 0.0:
        raise ValueError("kobalt: gemm_lu_trsv: beta != 0 needs A")
    vector = B.ndim == 2
    B3 = _rhs("B", B, n, batch)
    ob = _out3(out_b, vector)
    sa = op.OutSpec("out_a", out_a, (batch, n, n), A if beta != 0.0 else None, (X, Y, B, ob))
    sb = op.OutSpec("out_b", ob, B3.shape, B3, (X, Y, A, out_a))
    layout = op.choose_buffers([sa, sb], dt, op.preferred_layout(A, B3, X))
    x, fx = op.in_mat(X, layout, True)
    y, fy = op.in_mat(Y, layout, True)
    a = op.out_mat(sa.buf, layout)
    b = op.out_mat(sb.buf, layout)
    ipiv = np.zeros((batch, n), op.IPIV_DTYPE) if pivot else None
    info = np.zeros(batch, op.IPIV_DTYPE)
    _call(dt, "gemm_lu_trsv_strided", layout, op.flip(tx, fx), op.flip(ty, fy), n, k,
          B3.shape[2], alpha, x.ptr, x.ld, x.stride, y.ptr, y.ld, y.stride, beta,
          a.ptr, a.ld, a.stride, None if ipiv is None else ipiv.ctypes.data, n,
          b.ptr, b.ld, b.stride, info.ctypes.data, batch)
    return op.finish(sa), ipiv, _back(sb, vector, out_b), info
