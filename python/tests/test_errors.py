"""Errors: Python-side checks (ValueError/TypeError) and the library's own
(KobaltError carrying kobalt_last_error())."""
import numpy as np
import pytest

import kobalt
from kobalt import lowlevel


def test_dtype_errors():
    A = np.ones((2, 3, 3))
    with pytest.raises(TypeError, match="float32 or float64"):
        kobalt.gemm(A.astype(np.int64), A)
    with pytest.raises(TypeError, match="same dtype"):
        kobalt.gemm(A, A.astype(np.float32))
    with pytest.raises(TypeError, match="float32 or float64"):
        kobalt.getrf(A.astype(np.complex128))
    with pytest.raises(TypeError):
        kobalt.gemm(A, A, out=np.zeros((2, 3, 3), np.float32))


def test_shape_errors():
    A = np.ones((2, 3, 4))
    with pytest.raises(ValueError, match="op\\(A\\) is 3 x 4"):
        kobalt.gemm(A, A)
    with pytest.raises(ValueError, match="3-D"):
        kobalt.gemm(np.ones((3, 4)), A)
    with pytest.raises(ValueError, match="items"):
        kobalt.gemm(A, np.ones((3, 4, 2)))
    with pytest.raises(ValueError, match="square"):
        kobalt.getrs(A, None, np.ones((2, 3)))
    with pytest.raises(ValueError, match="beta"):
        kobalt.gemm(A, A, beta=1.0, transb=True)
    with pytest.raises(ValueError, match="read-only"):
        kobalt.gemm(A, A, transb=True, out=np.broadcast_to(np.zeros((3, 3)), (2, 3, 3)))
    with pytest.raises(ValueError, match="shape"):
        kobalt.gemm(A, A, transb=True, out=np.zeros((2, 3, 4)))
    with pytest.raises(ValueError, match="side"):
        kobalt.trsm(np.ones((2, 3, 3)), np.ones((2, 3, 3)), side="up")
    with pytest.raises(ValueError, match="ipiv"):
        kobalt.getrs(np.ones((2, 3, 3)), np.ones((2, 2), np.intc), np.ones((2, 3)))


def test_bad_pivots_raise_kobalt_error():
    A = np.eye(3)[None].repeat(2, axis=0)
    ipiv = np.array([[1, 2, 3], [1, 4, 3]], np.intc)  # 4 > n
    with pytest.raises(kobalt.KobaltError) as exc:
        kobalt.getrs(A, ipiv, np.ones((2, 3)))
    err = exc.value
    assert isinstance(err, ValueError)  # KOBALT_INVALID_ARGUMENT
    assert isinstance(err, kobalt.KobaltArgumentError) and err.status == 1
    assert err.status_name == "KOBALT_INVALID_ARGUMENT"
    assert str(err).startswith("kobalt_dgetrs_strided:")
    assert "ipiv" in str(err)
    assert str(err) == kobalt.last_error()


def test_lowlevel_bad_lda():
    A = np.zeros((2, 3, 3))
    ipiv = np.zeros((2, 3), np.intc)
    info = np.zeros(2, np.intc)
    with pytest.raises(kobalt.KobaltError, match=r"^kobalt_dgetrf_strided: lda \(2\)") as exc:
        lowlevel.dgetrf_strided(kobalt.COL_MAJOR, 3, 3, A, 2, 9, ipiv, 3, info, 2)
    assert exc.value.function == "kobalt_dgetrf_strided"
    assert np.all(A == 0)  # nothing written
    # an output stride below one item's extent
    with pytest.raises(kobalt.KobaltError, match="strideC"):
        lowlevel.sgemm_strided(kobalt.ROW_MAJOR, kobalt.NO_TRANS, kobalt.NO_TRANS, 3, 3, 3,
                               1.0, A.astype(np.float32), 3, 9, A.astype(np.float32), 3, 9,
                               0.0, A.astype(np.float32), 3, 4, 2)
    # a bad enumeration value
    with pytest.raises(kobalt.KobaltError, match="layout"):
        lowlevel.dgetrf_strided(7, 3, 3, A, 3, 9, ipiv, 3, info, 2)


def test_lowlevel_success_and_checks():
    rng = np.random.default_rng(1)
    A = rng.standard_normal((2, 4, 4)) + 4 * np.eye(4)
    ipiv = np.zeros((2, 4), np.intc)
    info = np.ones(2, np.intc)
    LU = A.copy()
    lowlevel.call("dgetrf_strided", kobalt.ROW_MAJOR, 4, 4, LU, 4, 16, ipiv, 4, info, 2)
    LU2, ipiv2, info2 = kobalt.getrf(A)
    assert np.array_equal(LU, LU2) and np.array_equal(ipiv, ipiv2) and np.all(info == 0)
    with pytest.raises(TypeError, match="int32|intc"):
        lowlevel.dgetrf_strided(kobalt.ROW_MAJOR, 4, 4, LU, 4, 16, ipiv.astype(np.int64), 4, info, 2)
    with pytest.raises(TypeError, match="takes 10 arguments"):
        lowlevel.dgetrf_strided(kobalt.ROW_MAJOR, 4, 4)
    # the pointer-array form
    ptrs = np.array([LU2[i].ctypes.data for i in range(2)], np.uintp)
    B = rng.standard_normal((2, 4))
    bptrs = np.array([B[i].ctypes.data for i in range(2)], np.uintp)
    want = np.linalg.solve(A, B[..., None])[..., 0]
    lowlevel.dgetrs_batched(kobalt.ROW_MAJOR, kobalt.NO_TRANS, 4, 1, ptrs, 4, ipiv2, 4, bptrs, 1, 2)
    np.testing.assert_allclose(B, want, rtol=1e-10, atol=1e-12)
    assert "dgemm_lu_trsv_batched" in lowlevel.names()


def test_library_info():
    assert kobalt.library_version().split(".")[0] == "0"
    assert kobalt.__version__.split(".")[0] == kobalt.library_version().split(".")[0]
    assert "openmp" in kobalt.backends()
    assert kobalt.library_path


def test_threads_and_per_thread_errors():
    """Calls from several threads at once (ctypes releases the GIL); each thread's
    KobaltError carries its own message."""
    import threading
    rng = np.random.default_rng(3)
    A = rng.standard_normal((8, 50, 6, 6)) + 6 * np.eye(6)
    B = rng.standard_normal((8, 50, 6, 2))
    results, errors = [None] * 8, [None] * 8

    def work(t):
        X, _, _, info = kobalt.gesv(A[t], B[t])
        results[t] = float(np.abs(X - np.linalg.solve(A[t], B[t])).max())
        bad = np.full((50, 6), t + 10, np.intc)
        try:
            kobalt.getrs(A[t], bad, B[t])
        except kobalt.KobaltError as exc:
            errors[t] = str(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert max(results) < 1e-10
    for t in range(8):
        assert errors[t] is not None and "%d) must be within" % (t + 10) in errors[t], errors[t]
