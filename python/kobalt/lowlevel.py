"""Direct access to every C routine of libkobalt, for what the NumPy-level functions
do not cover (the ``_batched`` pointer-array forms, explicit leading dimensions and
strides).

``kobalt.lowlevel.dgemm_strided(layout, transa, ..., batch)`` calls
``kobalt_dgemm_strided`` with the C parameters in the C order (see docs/api.md).
A pointer parameter takes a numpy array (its first element's address is passed;
its dtype must match: float64/float32 for ``double*``/``float*``, int32 (numpy.intc)
for ``int*``, numpy.uintp for the pointer arrays of the ``_batched`` forms), an
integer address, or None (NULL); a ``const kobalt_matrix_desc *`` takes a
kobalt.MatrixDesc (``kobalt.matrix_desc(view)`` describes a NumPy view). Nothing is
checked beyond that: the library validates sizes, leading dimensions and strides, and raises nothing for memory it
is told to read or write out of bounds, exactly as from C.

A status other than KOBALT_SUCCESS raises kobalt.KobaltError carrying
``kobalt_last_error()``. The enumeration values are kobalt.ROW_MAJOR etc.
"""

import ctypes

import numpy as np

from ._lib import MatrixDesc, lib

__all__ = ["call", "names", "params"]

_SCALARS = {"d": np.dtype(np.float64), "s": np.dtype(np.float32)}


def _pointer(routine, ctype, pname, value, prec):
    if value is None:
        return None
    if "kobalt_matrix_desc" in ctype:
        if isinstance(value, MatrixDesc):
            return ctypes.addressof(value)
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            return int(value)
        raise TypeError("kobalt.lowlevel.%s: %s must be a kobalt.MatrixDesc (see kobalt.matrix_desc), "
                        "an address or None, got %s" % (routine, pname, type(value).__name__))
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    if not isinstance(value, np.ndarray):
        raise TypeError("kobalt.lowlevel.%s: %s must be a numpy array, an address or None, got %s"
                        % (routine, pname, type(value).__name__))
    if ctype.endswith("[]"):
        want = np.dtype(np.uintp)
        ok = value.dtype.kind in "iu" and value.dtype.itemsize == want.itemsize
    elif ctype.startswith("int") or ctype.startswith("const int"):
        want = np.dtype(np.intc)
        ok = value.dtype == want
    else:
        want = _SCALARS[prec]
        ok = value.dtype == want
    if not ok:
        raise TypeError("kobalt.lowlevel.%s: %s (%s) must be a %s array, got %s"
                        % (routine, pname, ctype, want, value.dtype))
    return value.ctypes.data


def call(routine, *args):
    """Call kobalt_<routine> ("dgetrf_strided", ...) with the C arguments."""
    try:
        decl = lib.params[routine]
    except KeyError:
        raise AttributeError("kobalt.lowlevel: no routine %r" % routine) from None
    if len(args) != len(decl):
        raise TypeError("kobalt.lowlevel.%s takes %d arguments (%s), got %d"
                        % (routine, len(decl), ", ".join(p for _, p in decl), len(args)))
    conv = []
    for (ctype, pname), value in zip(decl, args):
        if "*" in ctype or "[]" in ctype:
            conv.append(_pointer(routine, ctype, pname, value, routine[0]))
        else:
            conv.append(value)
    lib.call(routine, *conv)


def names():
    """The routine names, "dgemm_strided" ... "sgemm_lu_trsv_batched"."""
    return sorted(lib.params)


def params(routine):
    """[(C type, name), ...] of a routine, as in kobalt_routines.def."""
    return list(lib.params[routine])


def _make(routine):
    def f(*args):
        return call(routine, *args)
    f.__name__ = routine
    f.__qualname__ = routine
    f.__doc__ = "kobalt_%s(%s)" % (routine, ", ".join("%s %s" % p for p in lib.params[routine]))
    return f


for _r in lib.params:
    globals()[_r] = _make(_r)
    __all__.append(_r)
del _r
