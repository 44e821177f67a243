"""The ctypes signature table (kobalt/_lib.py ROUTINES) must match
include/kobalt/kobalt_routines.def exactly: same routines in the same order, same
parameter names and types. ctest passes the header's path in KOBALT_ROUTINES_DEF;
run from the source tree, the test finds it relative to this file."""
import ctypes
import os
import re

import pytest

import kobalt
from kobalt import _lib


def _def_path():
    path = os.environ.get("KOBALT_ROUTINES_DEF")
    if not path:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include",
                            "kobalt", "kobalt_routines.def")
    if not os.path.isfile(path):
        pytest.skip("kobalt_routines.def not found (set KOBALT_ROUTINES_DEF)")
    return path


def _groups(text, start):
    """The parenthesised groups that follow position start, as strings (balanced)."""
    out, depth, begin, i = [], 0, None, start
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
            if depth == 2:
                begin = i + 1
        elif ch == ")":
            if depth == 2:
                out.append(text[begin:i])
            depth -= 1
            if depth == 0:
                return out, i
        i += 1
    raise AssertionError("unbalanced KOBALT_ROUTINE entry")


def parse_def(path):
    """[(name, params, args, route)] from the .def file, comments removed."""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    entries = []
    for m in re.finditer(r"\bKOBALT_ROUTINE\s*\(\s*(\w+)\s*,", text):
        groups, _ = _groups(text, m.start() + len("KOBALT_ROUTINE"))
        assert len(groups) == 3, (m.group(1), groups)
        entries.append((m.group(1),) + tuple(groups))
    return entries


def test_table_matches_def():
    entries = parse_def(_def_path())
    assert entries, "no KOBALT_ROUTINE entries found"
    assert [e[0] for e in entries] == [name for name, _ in _lib.ROUTINES]
    for (name, params, args, route), (_, table) in zip(entries, _lib.ROUTINES):
        want = _lib.parse_params(params)
        got = _lib.parse_params(table)
        assert got == want, name
        # the .def's argument list names the parameters in order
        assert [a.strip() for a in args.split(",")] == [p for _, p in want], name
        # every routed pointer is a parameter
        assert {r.strip() for r in route.split(",")} <= {p for _, p in want}, name


def _expected_ctype(ctype, prec):
    # kobalt.h: kobalt_int is int64_t, enums are C enums (int), KOBALT_T the real type
    if ctype.endswith("*") or ctype.endswith("[]") or "* const" in ctype:
        return ctypes.c_void_p
    return {"kobalt_int": ctypes.c_int64, "kobalt_layout": ctypes.c_int, "kobalt_op": ctypes.c_int,
            "kobalt_uplo": ctypes.c_int, "kobalt_diag": ctypes.c_int, "kobalt_side": ctypes.c_int,
            "kobalt_semiring": ctypes.c_int,
            "KOBALT_T": ctypes.c_double if prec == "d" else ctypes.c_float}[ctype]


def test_bound_functions():
    entries = parse_def(_def_path())
    lib = kobalt._library
    assert len(lib.functions) == 2 * len(entries)
    for prec in "ds":
        for name, params, _, _ in entries:
            fn = lib.functions[prec + name]
            decl = _lib.parse_params(params)
            assert fn.__name__ == "kobalt_%s%s" % (prec, name)
            assert fn.argtypes == [_expected_ctype(t, prec) for t, _ in decl], fn.__name__
            assert fn.restype is ctypes.c_int


def test_split_param():
    assert _lib.split_param(" const KOBALT_T *const A[] ") == ("const KOBALT_T * const []", "A")
    assert _lib.split_param("int *ipiv") == ("int *", "ipiv")
    assert _lib.split_param("kobalt_int  lda") == ("kobalt_int", "lda")
