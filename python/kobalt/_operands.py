"""How NumPy arrays are handed to libkobalt: dtypes, layouts, strides, copies.

A batch of matrices is a 3-D array (batch, rows, cols); a batch of vectors a 2-D array
(batch, len). Items are passed without a copy when the library can address them:

- matrix items row-major (last axis contiguous, ld = strides[1]/itemsize) or
  column-major (middle axis contiguous, ld = strides[2]/itemsize);
- vectors with any non-zero increment strides[1]/itemsize (negative included);
- a batch stride strides[0]/itemsize that is >= 0 (0 = one item broadcast to all);
- the array aligned to its item size.

Anything else is copied. Outputs must in addition keep their items apart (batch
stride >= one item's extent) and share no memory with the call's other operands;
an ``out=`` array that does not qualify is computed into a temporary and copied back.
"""

import numpy as np

from ._lib import COL_MAJOR, NO_TRANS, ROW_MAJOR, TRANS

FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
IPIV_DTYPE = np.dtype(np.intc)


def other(layout):
    return COL_MAJOR if layout == ROW_MAJOR else ROW_MAJOR


def flip(op, flipped):
    if not flipped:
        return op
    return TRANS if op == NO_TRANS else NO_TRANS


# ---- argument conversion ----------------------------------------------------------------

def common_dtype(*named):
    """The dtype of the call: that of its ndarray arguments, which must agree."""
    dtype = first = None
    for name, a in named:
        if not isinstance(a, np.ndarray):
            continue
        if a.dtype not in FLOAT_DTYPES:
            raise TypeError("kobalt: %s has dtype %s; kobalt computes in float32 or float64 "
                            "(native byte order) only" % (name, a.dtype))
        if dtype is None:
            dtype, first = a.dtype, name
        elif a.dtype != dtype:
            raise TypeError("kobalt: %s is %s but %s is %s; all arrays of one call must have "
                            "the same dtype (convert one with .astype())"
                            % (name, a.dtype, first, dtype))
    return dtype if dtype is not None else np.dtype(np.float64)


def as_array(name, a, dtype, ndims):
    """a as an ndarray of ``dtype`` with one of ``ndims`` dimensions."""
    if not isinstance(a, np.ndarray):
        try:
            a = np.asarray(a, dtype=dtype)
        except (TypeError, ValueError) as exc:
            raise TypeError("kobalt: %s cannot be read as a %s array: %s" % (name, dtype, exc))
    if a.ndim not in ndims:
        want = " or ".join("%d-D" % d for d in ndims)
        raise ValueError("kobalt: %s must be a %s array with the batch on axis 0, got shape %s"
                         % (name, want, a.shape))
    return a


def batch_size(*named):
    batch = first = None
    for name, a in named:
        if a is None:
            continue
        if batch is None:
            batch, first = a.shape[0], name
        elif a.shape[0] != batch:
            raise ValueError("kobalt: %s has %d items (axis 0) but %s has %d"
                             % (name, a.shape[0], first, batch))
    return batch


def op_flag(name, value):
    """False/'N' -> NO_TRANS; True/'T'/'C' -> TRANS (the routines are real)."""
    if isinstance(value, str):
        v = value.upper()
        if v in ("N", "NO_TRANS"):
            return NO_TRANS
        if v in ("T", "C", "TRANS", "CONJ_TRANS"):
            return TRANS
        raise ValueError("kobalt: %s must be False/True or 'N'/'T'/'C', got %r" % (name, value))
    return TRANS if value else NO_TRANS


def scalar(name, value):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError("kobalt: %s must be a real number, got %r" % (name, value))


# ---- matrices ----------------------------------------------------------------------------

def _ld(rows, cols, s_row, s_col, e):
    """ld with element (p, q) at p*ld + q, for axes of rows (byte stride s_row) and
    cols (byte stride s_col); None when the axes do not have that form."""
    if cols > 1 and s_col != e:
        return None
    if rows <= 1:
        return max(1, cols)
    if s_row % e or s_row // e < max(1, cols):
        return None
    return s_row // e


def mat_layouts(a):
    """({layout: ld}, batch stride) for passing the 3-D array a without a copy."""
    b, r, c = a.shape
    if b == 0 or r == 0 or c == 0:  # nothing is read or written
        return {ROW_MAJOR: max(1, c), COL_MAJOR: max(1, r)}, 0
    if not a.flags.aligned:
        return {}, None
    e = a.itemsize
    s0, s1, s2 = a.strides
    if b == 1:
        stride = 0
    elif s0 >= 0 and s0 % e == 0:
        stride = s0 // e
    else:
        return {}, None
    lay = {}
    ld = _ld(r, c, s1, s2, e)
    if ld is not None:
        lay[ROW_MAJOR] = ld
    ld = _ld(c, r, s2, s1, e)
    if ld is not None:
        lay[COL_MAJOR] = ld
    return lay, stride


def mat_extent(layout, ld, r, c):
    if r == 0 or c == 0:
        return 0
    return ld * (r - 1) + c if layout == ROW_MAJOR else ld * (c - 1) + r


def out_mat_layouts(a):
    """Like mat_layouts, keeping only the layouts in which the items stay apart."""
    lay, stride = mat_layouts(a)
    b, r, c = a.shape
    if b > 1:
        lay = {L: ld for L, ld in lay.items() if stride >= mat_extent(L, ld, r, c)}
    return lay, stride


def new_mat(shape, dtype, layout):
    b, r, c = shape
    if layout == ROW_MAJOR:
        return np.empty(shape, dtype)
    return np.empty((b, c, r), dtype).transpose(0, 2, 1)


def copy_as(a, layout):
    if layout == ROW_MAJOR:
        return np.array(a, order="C", copy=True)
    return np.array(a.transpose(0, 2, 1), order="C", copy=True).transpose(0, 2, 1)


def preferred_layout(*arrays):
    """The layout of the first 3-D array that has one (row-major when possible)."""
    for a in arrays:
        if a is None or a.ndim != 3:
            continue
        lay, _ = mat_layouts(a)
        if ROW_MAJOR in lay:
            return ROW_MAJOR
        if COL_MAJOR in lay:
            return COL_MAJOR
    return ROW_MAJOR


class Mat:
    """A matrix operand as passed: the array (kept alive), pointer, ld, batch stride."""
    __slots__ = ("arr", "ptr", "ld", "stride")

    def __init__(self, arr, ld, stride):
        self.arr = arr
        self.ptr = arr.ctypes.data
        self.ld = ld
        self.stride = stride


def in_mat(a, layout, may_flip):
    """An input matrix for a call in ``layout``: (Mat, flipped).

    flipped: the items are stored in the other layout and passed as they are; the
    library then sees their transposes (the caller flips the op, and uplo for a
    triangular matrix). Without may_flip such an operand is copied.
    """
    lay, stride = mat_layouts(a)
    if layout in lay:
        return Mat(a, lay[layout], stride), False
    if may_flip and other(layout) in lay:
        return Mat(a, lay[other(layout)], stride), True
    c = copy_as(a, layout)
    lay, stride = mat_layouts(c)
    return Mat(c, lay[layout], stride), False


def out_mat(buf, layout):
    lay, stride = out_mat_layouts(buf)
    return Mat(buf, lay[layout], stride)


# ---- vectors -----------------------------------------------------------------------------

class Vec:
    """A vector operand as passed: the array, pointer (lowest element), inc, stride."""
    __slots__ = ("arr", "ptr", "inc", "stride")

    def __init__(self, arr, offset, inc, stride):
        self.arr = arr
        self.ptr = arr.ctypes.data + offset
        self.inc = inc
        self.stride = stride


def vec_desc(v):
    """(byte offset of item 0's lowest element, inc, batch stride) or None."""
    b, n = v.shape
    if b == 0 or n == 0:
        return 0, 1, 0
    if not v.flags.aligned:
        return None
    e = v.itemsize
    s0, s1 = v.strides
    if b == 1:
        stride = 0
    elif s0 >= 0 and s0 % e == 0:
        stride = s0 // e
    else:
        return None
    if n == 1:
        return 0, 1, stride
    if s1 == 0 or s1 % e:
        return None
    inc = s1 // e
    # BLAS: a negative increment walks the vector backwards from the lowest address.
    return ((n - 1) * s1 if inc < 0 else 0), inc, stride


def out_vec_desc(v):
    d = vec_desc(v)
    if d is None:
        return None
    b, n = v.shape
    if b > 1 and n > 0 and d[2] < abs(d[1]) * (n - 1) + 1:
        return None
    return d


def in_vec(v):
    d = vec_desc(v)
    if d is None:
        v = np.array(v, order="C", copy=True)
        d = vec_desc(v)
    return Vec(v, *d)


# ---- outputs -----------------------------------------------------------------------------

def check_out(name, out, shape, dtype):
    if not isinstance(out, np.ndarray):
        raise TypeError("kobalt: %s must be a numpy.ndarray, got %s" % (name, type(out).__name__))
    if out.shape != tuple(shape):
        raise ValueError("kobalt: %s has shape %s, expected %s" % (name, out.shape, tuple(shape)))
    if out.dtype != dtype:
        raise TypeError("kobalt: %s has dtype %s, expected %s" % (name, out.dtype, dtype))
    if not out.flags.writeable:
        raise ValueError("kobalt: %s is read-only" % name)


def _overlaps(a, others):
    return any(o is not None and np.may_share_memory(a, o) for o in others)


class OutSpec:
    """One written operand: the user's out= array (or None), the shape and initial
    contents (or None: not read), and the call's other arrays it must not overlap.
    After choose_buffers, ``buf`` is what the library writes and ``writeback`` the
    user array to copy buf into afterwards (None when buf is that array)."""

    def __init__(self, name, out, shape, init, others, vector=False):
        self.name, self.out, self.shape, self.init = name, out, tuple(shape), init
        self.others = others
        self.vector = vector
        self.buf = self.writeback = None


def choose_buffers(specs, dtype, pref):
    """Pick the call's layout and a buffer for each written operand; returns the layout.

    Matrix outputs of one call must share the layout; a usable out= array is written
    directly, anything else goes through a new array (in the chosen layout).
    """
    usable = {}
    for s in specs:
        if s.out is None:
            continue
        check_out(s.name, s.out, s.shape, dtype)
        if _overlaps(s.out, s.others):
            continue
        if s.vector:
            if out_vec_desc(s.out) is not None:
                usable[s.name] = {ROW_MAJOR, COL_MAJOR}
        else:
            lay, _ = out_mat_layouts(s.out)
            if lay:
                usable[s.name] = set(lay)
    layout = pref
    sets = list(usable.values())
    if sets:
        common = set.intersection(*sets)
        if pref not in common:
            layout = (sorted(common) or sorted(sets[0]))[0]
    for s in specs:
        if s.name in usable and layout in usable[s.name]:
            s.buf = s.out
            if s.init is not None and not _same_view(s.init, s.out):
                np.copyto(s.buf, s.init)
        else:
            s.buf = np.empty(s.shape, dtype) if s.vector else new_mat(s.shape, dtype, layout)
            s.writeback = s.out
            if s.init is not None:
                np.copyto(s.buf, s.init)
    return layout


def _same_view(a, b):
    return (a is b) or (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
                        and a.strides == b.strides and a.shape == b.shape)


def finish(spec):
    """The array handed back for a written operand (after copying into out= if needed)."""
    if spec.writeback is not None:
        np.copyto(spec.writeback, spec.buf)
        return spec.writeback
    return spec.buf


# ---- pivots ------------------------------------------------------------------------------

class Ipiv:
    __slots__ = ("arr", "ptr", "stride")

    def __init__(self, arr, stride):
        self.arr = arr
        self.ptr = None if arr is None else arr.ctypes.data
        self.stride = stride


def in_ipiv(ipiv, batch, n):
    """getrs's pivots: None (no pivoting) or integers of shape (batch, n), 1-based."""
    if ipiv is None:
        return Ipiv(None, 0)
    a = np.asarray(ipiv)
    if a.dtype.kind not in "iu":
        raise TypeError("kobalt: ipiv must be an integer array (as returned by getrf), got %s"
                        % a.dtype)
    if a.shape != (batch, n):
        raise ValueError("kobalt: ipiv has shape %s, expected (batch, n) = %s"
                         % (a.shape, (batch, n)))
    if a.dtype != IPIV_DTYPE:
        if a.size and (a.min() < np.iinfo(IPIV_DTYPE).min or a.max() > np.iinfo(IPIV_DTYPE).max):
            raise ValueError("kobalt: ipiv holds values outside the range of a C int")
        a = np.array(a, dtype=IPIV_DTYPE, order="C")
    e = a.itemsize
    ok = a.flags.aligned and (n <= 1 or a.strides[1] == e)
    if batch <= 1 or n == 0:
        stride = 0
    elif a.strides[0] >= 0 and a.strides[0] % e == 0:
        stride = a.strides[0] // e
    else:
        ok = False
    if not ok:
        a = np.array(a, dtype=IPIV_DTYPE, order="C")
        stride = n if batch > 1 else 0
    return Ipiv(a, stride)
