"""Loading libkobalt and declaring its C functions to ctypes.

The library is looked up, in this order:

1. the path in the environment variable ``KOBALT_LIBRARY`` (if set, nothing else is
   tried);
2. a ``libkobalt.so*`` file next to this package (a wheel that bundles the library);
3. the SONAME ``libkobalt.so.0`` through the dynamic loader (``LD_LIBRARY_PATH``, the
   ld.so cache, the default folders);
4. ``ctypes.util.find_library("kobalt")``.

``ROUTINES`` below repeats the parameter lists of ``include/kobalt/kobalt_routines.def``
in the header's own spelling; the ctypes argument types are derived from it. The test
``python/tests/test_signatures.py`` parses the header and checks that the two agree,
so that they cannot drift apart.
"""

import ctypes
import ctypes.util
import glob
import os
import re
import sys

# The major version this package speaks to; it is the SONAME's number.
ABI_MAJOR = 0
SONAME = "libkobalt.so.%d" % ABI_MAJOR

# ---- status codes and enumerations (kobalt.h) ---------------------------------------
SUCCESS = 0
INVALID_ARGUMENT = 1
NOT_SUPPORTED = 2
NO_BACKEND = 3
OUT_OF_MEMORY = 4
BACKEND_ERROR = 5

ROW_MAJOR, COL_MAJOR = 101, 102
NO_TRANS, TRANS, CONJ_TRANS = 111, 112, 113
UPPER, LOWER = 121, 122
NON_UNIT, UNIT = 131, 132
LEFT, RIGHT = 141, 142
PLUS_TIMES, MIN_PLUS, MAX_PLUS, MIN_TIMES, MAX_TIMES, MIN_MAX, MAX_MIN, OR_AND = range(201, 209)

# ---- the routines, as in kobalt_routines.def ----------------------------------------
# (name without "kobalt_" and the precision letter, parameter list). KOBALT_T is the
# precision's real type: double for the d routines, float for the s routines.
ROUTINES = (
    ("gemm_strided",
     "kobalt_layout layout, kobalt_op transa, kobalt_op transb, kobalt_int m, kobalt_int n,"
     " kobalt_int k, KOBALT_T alpha, const KOBALT_T *A, kobalt_int lda, kobalt_int strideA,"
     " const KOBALT_T *B, kobalt_int ldb, kobalt_int strideB, KOBALT_T beta, KOBALT_T *C,"
     " kobalt_int ldc, kobalt_int strideC, kobalt_int batch"),
    ("gemm_batched",
     "kobalt_layout layout, kobalt_op transa, kobalt_op transb, kobalt_int m, kobalt_int n,"
     " kobalt_int k, KOBALT_T alpha, const KOBALT_T *const A[], kobalt_int lda,"
     " const KOBALT_T *const B[], kobalt_int ldb, KOBALT_T beta, KOBALT_T *const C[],"
     " kobalt_int ldc, kobalt_int batch"),
    ("gemv_strided",
     "kobalt_layout layout, kobalt_op trans, kobalt_int m, kobalt_int n, KOBALT_T alpha,"
     " const KOBALT_T *A, kobalt_int lda, kobalt_int strideA, const KOBALT_T *x,"
     " kobalt_int incx, kobalt_int stridex, KOBALT_T beta, KOBALT_T *y, kobalt_int incy,"
     " kobalt_int stridey, kobalt_int batch"),
    ("gemv_batched",
     "kobalt_layout layout, kobalt_op trans, kobalt_int m, kobalt_int n, KOBALT_T alpha,"
     " const KOBALT_T *const A[], kobalt_int lda, const KOBALT_T *const x[], kobalt_int incx,"
     " KOBALT_T beta, KOBALT_T *const y[], kobalt_int incy, kobalt_int batch"),
    ("trsv_strided",
     "kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans, kobalt_diag diag, kobalt_int n,"
     " const KOBALT_T *A, kobalt_int lda, kobalt_int strideA, KOBALT_T *x, kobalt_int incx,"
     " kobalt_int stridex, kobalt_int batch"),
    ("trsv_batched",
     "kobalt_layout layout, kobalt_uplo uplo, kobalt_op trans, kobalt_diag diag, kobalt_int n,"
     " const KOBALT_T *const A[], kobalt_int lda, KOBALT_T *const x[], kobalt_int incx,"
     " kobalt_int batch"),
    ("trsm_strided",
     "kobalt_layout layout, kobalt_side side, kobalt_uplo uplo, kobalt_op transa,"
     " kobalt_diag diag, kobalt_int m, kobalt_int n, KOBALT_T alpha, const KOBALT_T *A,"
     " kobalt_int lda, kobalt_int strideA, KOBALT_T *B, kobalt_int ldb, kobalt_int strideB,"
     " kobalt_int batch"),
    ("trsm_batched",
     "kobalt_layout layout, kobalt_side side, kobalt_uplo uplo, kobalt_op transa,"
     " kobalt_diag diag, kobalt_int m, kobalt_int n, KOBALT_T alpha, const KOBALT_T *const A[],"
     " kobalt_int lda, KOBALT_T *const B[], kobalt_int ldb, kobalt_int batch"),
    ("getrf_strided",
     "kobalt_layout layout, kobalt_int m, kobalt_int n, KOBALT_T *A, kobalt_int lda,"
     " kobalt_int strideA, int *ipiv, kobalt_int strideIpiv, int *info, kobalt_int batch"),
    ("getrf_batched",
     "kobalt_layout layout, kobalt_int m, kobalt_int n, KOBALT_T *const A[], kobalt_int lda,"
     " int *ipiv, kobalt_int strideIpiv, int *info, kobalt_int batch"),
    ("getrs_strided",
     "kobalt_layout layout, kobalt_op trans, kobalt_int n, kobalt_int nrhs, const KOBALT_T *A,"
     " kobalt_int lda, kobalt_int strideA, const int *ipiv, kobalt_int strideIpiv, KOBALT_T *B,"
     " kobalt_int ldb, kobalt_int strideB, kobalt_int batch"),
    ("getrs_batched",
     "kobalt_layout layout, kobalt_op trans, kobalt_int n, kobalt_int nrhs,"
     " const KOBALT_T *const A[], kobalt_int lda, const int *ipiv, kobalt_int strideIpiv,"
     " KOBALT_T *const B[], kobalt_int ldb, kobalt_int batch"),
    ("gemm_lu_trsv_strided",
     "kobalt_layout layout, kobalt_op transx, kobalt_op transy, kobalt_int n, kobalt_int k,"
     " kobalt_int nrhs, KOBALT_T alpha, const KOBALT_T *X, kobalt_int ldx, kobalt_int strideX,"
     " const KOBALT_T *Y, kobalt_int ldy, kobalt_int strideY, KOBALT_T beta, KOBALT_T *A,"
     " kobalt_int lda, kobalt_int strideA, int *ipiv, kobalt_int strideIpiv, KOBALT_T *B,"
     " kobalt_int ldb, kobalt_int strideB, int *info, kobalt_int batch"),
    ("gemm_lu_trsv_batched",
     "kobalt_layout layout, kobalt_op transx, kobalt_op transy, kobalt_int n, kobalt_int k,"
     " kobalt_int nrhs, KOBALT_T alpha, const KOBALT_T *const X[], kobalt_int ldx,"
     " const KOBALT_T *const Y[], kobalt_int ldy, KOBALT_T beta, KOBALT_T *const A[],"
     " kobalt_int lda, int *ipiv, kobalt_int strideIpiv, KOBALT_T *const B[], kobalt_int ldb,"
     " int *info, kobalt_int batch"),
    ("getri_strided",
     "kobalt_layout layout, kobalt_int n, const KOBALT_T *A, kobalt_int lda, kobalt_int strideA,"
     " const int *ipiv, kobalt_int strideIpiv, KOBALT_T *C, kobalt_int ldc, kobalt_int strideC,"
     " int *info, kobalt_int batch"),
    ("getri_batched",
     "kobalt_layout layout, kobalt_int n, const KOBALT_T *const A[], kobalt_int lda,"
     " const int *ipiv, kobalt_int strideIpiv, KOBALT_T *const C[], kobalt_int ldc, int *info,"
     " kobalt_int batch"),
    ("matinv_strided",
     "kobalt_layout layout, kobalt_int n, const KOBALT_T *A, kobalt_int lda, kobalt_int strideA,"
     " KOBALT_T *C, kobalt_int ldc, kobalt_int strideC, int *info, kobalt_int batch"),
    ("matinv_batched",
     "kobalt_layout layout, kobalt_int n, const KOBALT_T *const A[], kobalt_int lda,"
     " KOBALT_T *const C[], kobalt_int ldc, int *info, kobalt_int batch"),
    # ---- descriptor forms (any strided layout) and pack/unpack -------------------------
    ("gemm_desc",
     "kobalt_op transa, kobalt_op transb, KOBALT_T alpha, const KOBALT_T *A,"
     " const kobalt_matrix_desc *descA, const KOBALT_T *B, const kobalt_matrix_desc *descB,"
     " KOBALT_T beta, KOBALT_T *C, const kobalt_matrix_desc *descC, kobalt_int batch"),
    ("gemv_desc",
     "kobalt_op trans, KOBALT_T alpha, const KOBALT_T *A, const kobalt_matrix_desc *descA,"
     " const KOBALT_T *x, const kobalt_matrix_desc *descx, KOBALT_T beta, KOBALT_T *y,"
     " const kobalt_matrix_desc *descy, kobalt_int batch"),
    ("trsv_desc",
     "kobalt_uplo uplo, kobalt_op trans, kobalt_diag diag, const KOBALT_T *A,"
     " const kobalt_matrix_desc *descA, KOBALT_T *x, const kobalt_matrix_desc *descx,"
     " kobalt_int batch"),
    ("trsm_desc",
     "kobalt_side side, kobalt_uplo uplo, kobalt_op transa, kobalt_diag diag, KOBALT_T alpha,"
     " const KOBALT_T *A, const kobalt_matrix_desc *descA, KOBALT_T *B,"
     " const kobalt_matrix_desc *descB, kobalt_int batch"),
    ("getrf_desc",
     "KOBALT_T *A, const kobalt_matrix_desc *descA, int *ipiv, const kobalt_matrix_desc *descIpiv,"
     " int *info, kobalt_int batch"),
    ("getrs_desc",
     "kobalt_op trans, const KOBALT_T *A, const kobalt_matrix_desc *descA, const int *ipiv,"
     " const kobalt_matrix_desc *descIpiv, KOBALT_T *B, const kobalt_matrix_desc *descB,"
     " kobalt_int batch"),
    ("gemm_lu_trsv_desc",
     "kobalt_op transx, kobalt_op transy, KOBALT_T alpha, const KOBALT_T *X,"
     " const kobalt_matrix_desc *descX, const KOBALT_T *Y, const kobalt_matrix_desc *descY,"
     " KOBALT_T beta, KOBALT_T *A, const kobalt_matrix_desc *descA, int *ipiv,"
     " const kobalt_matrix_desc *descIpiv, KOBALT_T *B, const kobalt_matrix_desc *descB,"
     " int *info, kobalt_int batch"),
    ("pack_interleaved",
     "kobalt_layout layout, kobalt_int rows, kobalt_int cols, const KOBALT_T *A, kobalt_int lda,"
     " kobalt_int strideA, KOBALT_T *P, kobalt_int ldp, kobalt_int batch"),
    ("unpack_interleaved",
     "kobalt_layout layout, kobalt_int rows, kobalt_int cols, const KOBALT_T *P, kobalt_int ldp,"
     " KOBALT_T *A, kobalt_int lda, kobalt_int strideA, kobalt_int batch"),
    ("gemm_semiring_strided",
     "kobalt_semiring semiring, kobalt_layout layout, kobalt_op transa, kobalt_op transb,"
     " kobalt_int m, kobalt_int n, kobalt_int k, KOBALT_T alpha, const KOBALT_T *A,"
     " kobalt_int lda, kobalt_int strideA, const KOBALT_T *B, kobalt_int ldb, kobalt_int strideB,"
     " KOBALT_T beta, KOBALT_T *C, kobalt_int ldc, kobalt_int strideC, kobalt_int batch"),
    ("gemm_semiring_batched",
     "kobalt_semiring semiring, kobalt_layout layout, kobalt_op transa, kobalt_op transb,"
     " kobalt_int m, kobalt_int n, kobalt_int k, KOBALT_T alpha, const KOBALT_T *const A[],"
     " kobalt_int lda, const KOBALT_T *const B[], kobalt_int ldb, KOBALT_T beta,"
     " KOBALT_T *const C[], kobalt_int ldc, kobalt_int batch"),
)


class MatrixDesc(ctypes.Structure):
    """kobalt_matrix_desc (kobalt.h): a batch operand in any strided layout. Element
    (i, j) of item b is at offset b*batch_stride + i*row_stride + j*col_stride, in
    elements. kobalt.matrix_desc(array) builds one from a NumPy view."""
    _fields_ = [("rows", ctypes.c_int64), ("cols", ctypes.c_int64),
                ("row_stride", ctypes.c_int64), ("col_stride", ctypes.c_int64),
                ("batch_stride", ctypes.c_int64)]

    def __repr__(self):
        return "MatrixDesc(rows=%d, cols=%d, row_stride=%d, col_stride=%d, batch_stride=%d)" % (
            self.rows, self.cols, self.row_stride, self.col_stride, self.batch_stride)

PRECISIONS = (("d", ctypes.c_double), ("s", ctypes.c_float))

_ENUM_TYPES = ("kobalt_layout", "kobalt_op", "kobalt_uplo", "kobalt_diag", "kobalt_side",
               "kobalt_semiring")


def split_param(param):
    """Split one C parameter declaration into (type, name), the type in a canonical
    spelling (words separated by one space, "*" a word of its own, "[]" appended):

    "const KOBALT_T *const A[]" -> ("const KOBALT_T * const []", "A")
    """
    text = param.strip()
    array = re.search(r"\[\s*\]\s*$", text)
    if array:
        text = text[: array.start()]
    words = text.replace("*", " * ").split()
    if len(words) < 2:
        raise ValueError("kobalt: cannot read the C parameter %r" % param)
    ctype = " ".join(words[:-1]) + (" []" if array else "")
    return ctype, words[-1]


def parse_params(params):
    """[(type, name), ...] of a parenthesis-free C parameter list."""
    return [split_param(p) for p in params.split(",")]


def ctype_of(ctype, scalar):
    """The ctypes type passed for a parameter of C type ``ctype``."""
    if "*" in ctype or "[]" in ctype:
        return ctypes.c_void_p
    if ctype in _ENUM_TYPES:
        return ctypes.c_int
    if ctype == "kobalt_int":
        return ctypes.c_int64
    if ctype == "KOBALT_T":
        return scalar
    if ctype == "int":
        return ctypes.c_int
    raise TypeError("kobalt: no ctypes mapping for the C type %r" % ctype)


class KobaltError(RuntimeError):
    """A libkobalt call returned a status other than KOBALT_SUCCESS.

    ``status`` is the numeric kobalt_status, ``status_name`` its name
    ("KOBALT_INVALID_ARGUMENT"), ``function`` the C function, and the message is
    ``kobalt_last_error()``, which names the function and the argument.
    """

    def __init__(self, message, status=None, status_name=None, function=None):
        super().__init__(message)
        self.status = status
        self.status_name = status_name
        self.function = function


class KobaltArgumentError(KobaltError, ValueError):
    """KOBALT_INVALID_ARGUMENT: the library refused an argument (nothing was written)."""


def _candidates():
    """[(description, loader callable)] in lookup order."""
    env = os.environ.get("KOBALT_LIBRARY")
    if env:
        return [("KOBALT_LIBRARY=%s" % env, env)]
    out = []
    here = os.path.dirname(os.path.abspath(__file__))
    bundled = sorted(glob.glob(os.path.join(here, "libkobalt.so*")),
                     key=lambda p: (os.path.basename(p) != SONAME, p))
    for path in bundled:
        out.append(("next to the package: %s" % path, path))
    if not bundled:
        out.append(("next to the package: no libkobalt.so* in %s" % here, None))
    out.append(("the SONAME %s through the dynamic loader" % SONAME, SONAME))
    if sys.platform == "darwin":
        out.append(("libkobalt.%d.dylib through the dynamic loader" % ABI_MAJOR,
                     "libkobalt.%d.dylib" % ABI_MAJOR))
    found = ctypes.util.find_library("kobalt")
    out.append(("ctypes.util.find_library('kobalt') -> %s" % found, found))
    return out


def load_library():
    """Open libkobalt; ImportError listing every place tried when none works."""
    tried = []
    for what, target in _candidates():
        if target is None:
            tried.append(what)
            continue
        try:
            cdll = ctypes.CDLL(target)
        except OSError as exc:
            tried.append("%s: %s" % (what, exc))
            continue
        try:
            cdll.kobalt_version
        except AttributeError:
            tried.append("%s: not libkobalt (no kobalt_version)" % what)
            continue
        return cdll, what
    raise ImportError(
        "kobalt: cannot load libkobalt (%s). Tried:\n  - %s\n"
        "Install Kobalt and make its libdir known to the dynamic loader "
        "(LD_LIBRARY_PATH or ldconfig), or set KOBALT_LIBRARY to the path of libkobalt.so."
        % (SONAME, "\n  - ".join(tried)))


class Library:
    """The opened libkobalt with every function declared.

    ``functions["dgemm_strided"]`` is the ctypes function ``kobalt_dgemm_strided``;
    ``params["dgemm_strided"]`` its [(C type, name), ...].
    """

    def __init__(self, cdll, origin):
        self.cdll = cdll
        self.origin = origin
        self.path = getattr(cdll, "_name", None)
        cdll.kobalt_version.argtypes = []
        cdll.kobalt_version.restype = ctypes.c_char_p
        cdll.kobalt_last_error.argtypes = []
        cdll.kobalt_last_error.restype = ctypes.c_char_p
        cdll.kobalt_status_name.argtypes = [ctypes.c_int]
        cdll.kobalt_status_name.restype = ctypes.c_char_p
        cdll.kobalt_backend_count.argtypes = []
        cdll.kobalt_backend_count.restype = ctypes.c_int
        cdll.kobalt_backend_name.argtypes = [ctypes.c_int]
        cdll.kobalt_backend_name.restype = ctypes.c_char_p
        self.version = cdll.kobalt_version().decode()
        major = int(self.version.split(".")[0])
        if major != ABI_MAJOR:
            raise ImportError("kobalt: %s is libkobalt %s; this package needs major version %d"
                              % (self.path, self.version, ABI_MAJOR))
        self.functions = {}
        self.params = {}
        for prec, scalar in PRECISIONS:
            for name, params in ROUTINES:
                decl = parse_params(params)
                fn = getattr(cdll, "kobalt_%s%s" % (prec, name))
                fn.argtypes = [ctype_of(t, scalar) for t, _ in decl]
                fn.restype = ctypes.c_int
                self.functions[prec + name] = fn
                self.params[prec + name] = decl

    def last_error(self):
        return self.cdll.kobalt_last_error().decode(errors="replace")

    def status_name(self, status):
        return self.cdll.kobalt_status_name(status).decode()

    def check(self, status, function):
        """Raise KobaltError for a failed call (status != KOBALT_SUCCESS)."""
        if status == SUCCESS:
            return
        message = self.last_error()  # read before anything else can call the library
        name = self.status_name(status)
        if not message:
            message = "%s returned %s" % (function, name)
        cls = KobaltArgumentError if status == INVALID_ARGUMENT else KobaltError
        raise cls(message, status=status, status_name=name, function=function)

    def call(self, name, *args):
        """Call kobalt_<name> (e.g. "dgemm_strided") and raise KobaltError on failure."""
        self.check(self.functions[name](*args), "kobalt_" + name)


lib = Library(*load_library())
