"""kobalt: NumPy bindings (ctypes) to libkobalt, a batched BLAS/LAPACK library.

Batched over axis 0, in float32 or float64:

    gemm, gemv, trsv, trsm       BLAS
    getrf, getrs, gesv           LU factorisation and solves
    gemm_lu_trsv                 the fused element solve
    gemm_semiring                gemm over min-plus, max-min, or-and, ... semirings

Functions return new arrays unless given out= arrays; numerical trouble of an item
(a zero pivot) is reported in the returned ``info`` array, argument errors raise
ValueError/TypeError (found in Python) or KobaltError (refused by the library, with
kobalt_last_error() as its message). ``kobalt.lowlevel`` calls the C routines
directly; ``kobalt.matrix_desc(view)`` describes any NumPy view for the ``_desc``
routines there (any strides, the interleaved layout). See docs/python.md.
"""

from ._lib import (  # noqa: F401
    COL_MAJOR, CONJ_TRANS, LEFT, LOWER, NO_TRANS, NON_UNIT, RIGHT, ROW_MAJOR, TRANS, UNIT,
    UPPER, KobaltArgumentError, KobaltError, lib as _library)
from ._routines import (gemm, gemv, gesv, gemm_lu_trsv, gemm_semiring, getrf, getrs, trsm,  # noqa: F401
                        trsv)
from ._lib import MatrixDesc  # noqa: F401
from ._desc import matrix_desc  # noqa: F401
from . import lowlevel  # noqa: F401

__version__ = "0.1.0"

#: Path of the libkobalt that was loaded, and how it was found.
library_path = _library.path
library_origin = _library.origin


def library_version():
    """libkobalt's version string ("0.1.0")."""
    return _library.version


def backends():
    """Names of the backends libkobalt loaded ("openmp", ...)."""
    cdll = _library.cdll
    return [cdll.kobalt_backend_name(i).decode() for i in range(cdll.kobalt_backend_count())]


def last_error():
    """kobalt_last_error(): this thread's message for its last failed call."""
    return _library.last_error()


__all__ = ["gemm", "gemv", "trsv", "trsm", "getrf", "getrs", "gesv", "gemm_lu_trsv", "gemm_semiring",
           "KobaltError", "KobaltArgumentError", "lowlevel", "library_version", "backends",
           "MatrixDesc", "matrix_desc",
           "last_error", "library_path", "ROW_MAJOR", "COL_MAJOR", "NO_TRANS", "TRANS",
           "CONJ_TRANS", "UPPER", "LOWER", "NON_UNIT", "UNIT", "LEFT", "RIGHT"]
