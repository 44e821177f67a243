"""Checks an installed kobalt package (run by run_install_test.sh, not by pytest).

    install_check.py soname  LIBDIR   kobalt imported from PYTHONPATH finds the
                                      installed libkobalt through its SONAME
    install_check.py bundled PKGDIR   ... the libkobalt copied next to the package
    install_check.py missing          no libkobalt anywhere: a clear ImportError
"""
import os
import sys


def loaded_libkobalt():
    """Real path of the libkobalt.so* mapped into this process."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "/libkobalt.so" in line}
    assert len(paths) == 1, "libkobalt mapped %d times: %s" % (len(paths), sorted(paths))
    return os.path.realpath(paths.pop())


def check_numbers(kobalt):
    import numpy as np
    rng = np.random.default_rng(7)
    A = rng.standard_normal((5, 6, 6)) + 6 * np.eye(6)
    B = rng.standard_normal((5, 6, 2))
    A[2, :, 1] = 0.0  # singular item
    X, LU, ipiv, info = kobalt.gesv(A, B)
    assert info.tolist() == [0, 0, 2, 0, 0], info
    ok = [0, 1, 3, 4]
    err = np.abs(X[ok] - np.linalg.solve(A[ok], B[ok])).max()
    assert err < 1e-10, err
    C = kobalt.gemm(A.astype(np.float32), B.astype(np.float32))
    assert np.abs(C - A @ B).max() < 1e-3
    try:
        kobalt.getrs(LU, np.zeros_like(ipiv), B)
    except kobalt.KobaltError as exc:
        assert "ipiv" in str(exc) and str(exc).startswith("kobalt_dgetrs_strided"), exc
    else:
        raise AssertionError("getrs accepted pivots of 0")
    assert "openmp" in kobalt.backends(), kobalt.backends()


def main():
    mode = sys.argv[1]
    assert "KOBALT_LIBRARY" not in os.environ
    if mode == "missing":
        try:
            import kobalt  # noqa: F401
        except ImportError as exc:
            msg = str(exc)
            print("ImportError as expected:\n" + msg)
            for part in ("KOBALT_LIBRARY", "libkobalt.so.0", "next to the package"):
                assert part in msg, "the message does not mention %r" % part
            return
        raise AssertionError("import kobalt succeeded without any libkobalt")

    import kobalt
    where = os.path.realpath(sys.argv[2])
    pkg = os.path.dirname(os.path.realpath(kobalt.__file__))
    print("kobalt %s from %s" % (kobalt.__version__, pkg))
    print("libkobalt %s: %s (%s)" % (kobalt.library_version(), kobalt.library_path,
                                     kobalt.library_origin))
    lib = loaded_libkobalt()
    print("mapped: %s; backends: %s" % (lib, kobalt.backends()))
    if mode == "soname":
        assert kobalt.library_origin.startswith("the SONAME"), kobalt.library_origin
        assert os.path.dirname(lib) == where, "loaded %s, not the one in %s" % (lib, where)
    elif mode == "bundled":
        assert kobalt.library_origin.startswith("next to the package"), kobalt.library_origin
        assert pkg == where and os.path.dirname(lib) == where, (pkg, lib, where)
    else:
        raise SystemExit("unknown mode %r" % mode)
    check_numbers(kobalt)
    print("install check (%s) passed" % mode)


if __name__ == "__main__":
    main()
