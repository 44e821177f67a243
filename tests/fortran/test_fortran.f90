! test_fortran.f90 -- checks of the Fortran module `kobalt` (fortran/, docs/fortran.md).
!
! Built twice by tests/fortran.cmake: in the build tree (test fortran_module) and
! against the installed tree through pkg-config and find_package (fortran_install).
!   - the service functions and their *_string wrappers, the named constants
!   - dgemm_strided and sgemm_strided against hand-computed values (column-major)
!   - dgetrf_strided with ipiv absent (no pivoting) and present; dgetrs_strided both ways
!   - an invalid argument: KOBALT_INVALID_ARGUMENT and a message naming the argument
!   - the pointer-array forms (dgemm_batched, dgetrf_batched) with c_loc pointers
!   - the descriptor forms on the interleaved layout A(batch, n, n): dgetrf_desc with
!     per-item pivots, dgetrs_desc, and the no-pivoting call with ipiv/descIpiv absent
!   - dgemm_semiring_strided (min-plus) and the kobalt_semiring constants
! Exits with `error stop` when a check fails.
program test_fortran
  use, intrinsic :: iso_c_binding, only: c_int, c_float, c_double, c_ptr, c_loc
  use, intrinsic :: iso_fortran_env, only: output_unit
  use kobalt
  implicit none

  integer :: failures = 0

  call test_service()
  call test_gemm_strided()
  call test_sgemm_strided()
  call test_getrf_no_pivoting()
  call test_invalid_argument()
  call test_gemm_batched()
  call test_getrf_batched()
  call test_desc_interleaved()
  call test_min_plus()

  if (failures > 0) then
    write (output_unit, '(i0,a)') failures, ' check(s) failed'
    error stop 1
  end if
  write (output_unit, '(a)') 'all Fortran checks passed'

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) then
      write (output_unit, '(a)') 'ok    '//what
    else
      write (output_unit, '(a)') 'FAIL  '//what
      failures = failures + 1
    end if
  end subroutine expect

  subroutine expect_success(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status /= KOBALT_SUCCESS) then
      write (output_unit, '(a)') '      '//kobalt_status_name_string(status)//': '// &
          kobalt_last_error_string()
    end if
    call expect(status == KOBALT_SUCCESS, what//' returns KOBALT_SUCCESS')
  end subroutine expect_success

  logical function close_to(x, y, tol)
    real(c_double), intent(in) :: x(:), y(:), tol
    close_to = all(abs(x - y) <= tol * max(1.0_c_double, abs(y)))
  end function close_to

  subroutine test_service()
    character(len=32) :: expected
    write (expected, '(i0,".",i0,".",i0)') KOBALT_VERSION_MAJOR, KOBALT_VERSION_MINOR, &
        KOBALT_VERSION_PATCH
    write (output_unit, '(a)') 'kobalt_version_string() = "'//kobalt_version_string()//'"'
    call expect(kobalt_version_string() == trim(expected), 'version matches KOBALT_VERSION_*')
    call expect(kobalt_backend_count() >= 1, 'at least one backend')
    call expect(len(kobalt_backend_name_string(0_c_int)) > 0, 'backend 0 has a name')
    call expect(kobalt_backend_name_string(1000_c_int) == '', 'backend 1000 has no name')
    call expect(kobalt_status_name_string(KOBALT_NO_BACKEND) == 'KOBALT_NO_BACKEND', &
        'kobalt_status_name_string(KOBALT_NO_BACKEND)')
    call expect(KOBALT_SUCCESS == 0 .and. KOBALT_BACKEND_ERROR == 5, 'status constants')
    call expect(KOBALT_ROW_MAJOR == 101 .and. KOBALT_COL_MAJOR == 102 .and. &
        KOBALT_CONJ_TRANS == 113 .and. KOBALT_LOWER == 122 .and. KOBALT_UNIT == 132 .and. &
        KOBALT_RIGHT == 142, 'CBLAS enumeration constants')
    call expect(kobalt_int == selected_int_kind(18), 'kobalt_int is a 64-bit kind')
    call expect(kobalt_synchronize() == KOBALT_SUCCESS, 'kobalt_synchronize with nothing queued')
  end subroutine test_service

  ! C_i = 2 op(A_i) B_i + C_i with A_1 = [1 2; 3 4], A_2 = I, B_i = [5 6; 7 8], C_i = 1.
  subroutine test_gemm_strided()
    real(c_double) :: A(2, 2, 2), B(2, 2, 2), C(2, 2, 2)
    A(:, :, 1) = reshape([1, 3, 2, 4], [2, 2])
    A(:, :, 2) = reshape([1, 0, 0, 1], [2, 2])
    B(:, :, 1) = reshape([5, 7, 6, 8], [2, 2])
    B(:, :, 2) = B(:, :, 1)
    C = 1.0_c_double
    call expect_success(kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, &
        2_kobalt_int, 2_kobalt_int, 2_kobalt_int, 2.0_c_double, A, 2_kobalt_int, 4_kobalt_int, &
        B, 2_kobalt_int, 4_kobalt_int, 1.0_c_double, C, 2_kobalt_int, 4_kobalt_int, &
        2_kobalt_int), 'kobalt_dgemm_strided')
    ! 2 [19 22; 43 50] + 1 and 2 [5 6; 7 8] + 1, column by column
    call expect(close_to(reshape(C, [8]), [39d0, 87d0, 45d0, 101d0, 11d0, 15d0, 13d0, 17d0], &
        1d-14), 'dgemm_strided values')

    ! op(A_1) = A_1^T: [1 3; 2 4] [5 6; 7 8] = [26 30; 38 44]; beta = 0
    call expect_success(kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_TRANS, KOBALT_NO_TRANS, &
        2_kobalt_int, 2_kobalt_int, 2_kobalt_int, 1.0_c_double, A, 2_kobalt_int, 4_kobalt_int, &
        B, 2_kobalt_int, 4_kobalt_int, 0.0_c_double, C, 2_kobalt_int, 4_kobalt_int, &
        1_kobalt_int), 'kobalt_dgemm_strided (transposed A)')
    call expect(close_to(reshape(C(:, :, 1), [4]), [26d0, 38d0, 30d0, 44d0], 1d-14), &
        'dgemm_strided values with KOBALT_TRANS')
  end subroutine test_gemm_strided

  ! Min-plus: C = min(A (+) B, C) with A = [0 1; 4 0], B = A, C = [0 0; 3 0] (beta = 0 is
  ! the multiply's identity: accumulate into C).
  subroutine test_min_plus()
    real(c_double) :: A(2, 2), C(2, 2)
    call expect(KOBALT_PLUS_TIMES == 201 .and. KOBALT_MIN_PLUS == 202 .and. KOBALT_OR_AND == 208, &
        'kobalt_semiring constants')
    A = reshape([0, 4, 1, 0], [2, 2])
    C = reshape([0, 3, 0, 0], [2, 2])
    call expect_success(kobalt_dgemm_semiring_strided(KOBALT_MIN_PLUS, KOBALT_COL_MAJOR, &
        KOBALT_NO_TRANS, KOBALT_NO_TRANS, 2_kobalt_int, 2_kobalt_int, 2_kobalt_int, 0.0_c_double, &
        A, 2_kobalt_int, 4_kobalt_int, A, 2_kobalt_int, 4_kobalt_int, 0.0_c_double, C, &
        2_kobalt_int, 4_kobalt_int, 1_kobalt_int), 'kobalt_dgemm_semiring_strided')
    ! A (+) A = [0 1; 4 0]; min with C = [0 0; 3 0]
    call expect(close_to(reshape(C, [4]), [0d0, 3d0, 0d0, 0d0], 0d0), 'min-plus values')
  end subroutine test_min_plus

  subroutine test_sgemm_strided()
    real(c_float) :: A(2, 2), B(2, 2), C(2, 2)
    A = reshape([1, 3, 2, 4], [2, 2])
    B = reshape([5, 7, 6, 8], [2, 2])
    C = 0.0_c_float
    call expect_success(kobalt_sgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, &
        2_kobalt_int, 2_kobalt_int, 2_kobalt_int, 1.0_c_float, A, 2_kobalt_int, 4_kobalt_int, &
        B, 2_kobalt_int, 4_kobalt_int, 0.0_c_float, C, 2_kobalt_int, 4_kobalt_int, &
        1_kobalt_int), 'kobalt_sgemm_strided')
    call expect(all(abs(reshape(C, [4]) - [19, 43, 22, 50]) <= 1e-5_c_float * 50), &
        'sgemm_strided values')
  end subroutine test_sgemm_strided

  ! A = [4 3; 6 3]: without pivoting L = [1 0; 1.5 1], U = [4 3; 0 -1.5];
  ! with partial pivoting rows swap: ipiv = [2 2], U = [6 3; 0 1].
  subroutine test_getrf_no_pivoting()
    real(c_double) :: A(2, 2), F(2, 2), b(2)
    integer(c_int) :: ipiv(2), info(1)
    A = reshape([4, 6, 3, 3], [2, 2])
    F = A
    info = -7
    call expect_success(kobalt_dgetrf_strided(KOBALT_COL_MAJOR, 2_kobalt_int, 2_kobalt_int, F, &
        2_kobalt_int, 4_kobalt_int, strideIpiv=0_kobalt_int, info=info, batch=1_kobalt_int), &
        'kobalt_dgetrf_strided without ipiv')
    call expect(info(1) == 0, 'getrf without ipiv: info = 0')
    call expect(close_to(reshape(F, [4]), [4d0, 1.5d0, 3d0, -1.5d0], 1d-14), &
        'getrf without ipiv: the unpivoted factors')
    b = [10d0, 12d0] ! A [1 2]^T
    call expect_success(kobalt_dgetrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, 2_kobalt_int, &
        1_kobalt_int, F, 2_kobalt_int, 4_kobalt_int, strideIpiv=0_kobalt_int, B=b, &
        ldb=2_kobalt_int, strideB=2_kobalt_int, batch=1_kobalt_int), &
        'kobalt_dgetrs_strided without ipiv')
    call expect(close_to(b, [1d0, 2d0], 1d-13), 'getrs without ipiv solves A x = b')

    F = A
    call expect_success(kobalt_dgetrf_strided(KOBALT_COL_MAJOR, 2_kobalt_int, 2_kobalt_int, F, &
        2_kobalt_int, 4_kobalt_int, ipiv, 2_kobalt_int, info, 1_kobalt_int), &
        'kobalt_dgetrf_strided with ipiv')
    call expect(all(ipiv == [2, 2]) .and. info(1) == 0, 'getrf with ipiv: ipiv = [2 2]')
    call expect(close_to(reshape(F, [4]), [6d0, 4d0 / 6d0, 3d0, 1d0], 1d-14), &
        'getrf with ipiv: the pivoted factors')
    b = [10d0, 12d0]
    call expect_success(kobalt_dgetrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, 2_kobalt_int, &
        1_kobalt_int, F, 2_kobalt_int, 4_kobalt_int, ipiv, 2_kobalt_int, b, 2_kobalt_int, &
        2_kobalt_int, 1_kobalt_int), 'kobalt_dgetrs_strided with ipiv')
    call expect(close_to(b, [1d0, 2d0], 1d-13), 'getrs with ipiv solves A x = b')
  end subroutine test_getrf_no_pivoting

  ! Three 2 x 2 systems stored interleaved, A(item, row, col): each item pivots its own way.
  subroutine test_desc_interleaved()
    real(c_double) :: A(3, 2, 2), F(3, 2, 2), b(3, 2)
    integer(c_int) :: ipiv(3, 2), info(3)
    type(kobalt_matrix_desc) :: dA, dP, db
    integer :: i
    A(1, :, :) = reshape([4, 6, 3, 3], [2, 2]) ! pivots [2 2]
    A(2, :, :) = reshape([6, 4, 3, 3], [2, 2]) ! pivots [1 2]
    A(3, :, :) = reshape([1, 0, 0, 2], [2, 2]) ! pivots [1 2]
    dA = kobalt_matrix_desc(2, 2, 3, 6, 1)
    dP = kobalt_matrix_desc(2, 1, 3, 0, 1)
    db = kobalt_matrix_desc(2, 1, 3, 0, 1)
    F = A
    info = -7
    call expect_success(kobalt_dgetrf_desc(F, dA, ipiv, dP, info, 3_kobalt_int), 'kobalt_dgetrf_desc')
    call expect(all(info == 0), 'getrf_desc: info = 0')
    call expect(all(ipiv(1, :) == [2, 2]) .and. all(ipiv(2, :) == [1, 2]) .and. all(ipiv(3, :) == [1, 2]), &
        'getrf_desc: per-item pivots')
    do i = 1, 3
      b(i, :) = matmul(A(i, :, :), [1d0, 2d0])
    end do
    call expect_success(kobalt_dgetrs_desc(KOBALT_NO_TRANS, F, dA, ipiv, dP, b, db, 3_kobalt_int), &
        'kobalt_dgetrs_desc')
    call expect(close_to(reshape(b, [6]), [1d0, 1d0, 1d0, 2d0, 2d0, 2d0], 1d-13), &
        'getrs_desc solves the three systems')
    F = A
    call expect_success(kobalt_dgetrf_desc(F, dA, info=info, batch=3_kobalt_int), &
        'kobalt_dgetrf_desc without ipiv')
    call expect(close_to(reshape(F(1, :, :), [4]), [4d0, 1.5d0, 3d0, -1.5d0], 1d-14), &
        'getrf_desc without ipiv: the unpivoted factors')
  end subroutine test_desc_interleaved

  ! lda = 1 < m = 2: refused before anything is written.
  subroutine test_invalid_argument()
    real(c_double) :: A(2, 2), B(2, 2), C(2, 2)
    integer(c_int) :: status
    character(len=:), allocatable :: message
    A = 1.0_c_double
    B = 1.0_c_double
    C = -3.0_c_double
    status = kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, &
        2_kobalt_int, 2_kobalt_int, 2_kobalt_int, 1.0_c_double, A, 1_kobalt_int, 4_kobalt_int, &
        B, 2_kobalt_int, 4_kobalt_int, 0.0_c_double, C, 2_kobalt_int, 4_kobalt_int, 1_kobalt_int)
    message = kobalt_last_error_string()
    write (output_unit, '(a)') 'kobalt_last_error_string() = "'//message//'"'
    call expect(status == KOBALT_INVALID_ARGUMENT, 'lda = 1 returns KOBALT_INVALID_ARGUMENT')
    call expect(kobalt_status_name_string(status) == 'KOBALT_INVALID_ARGUMENT', &
        'kobalt_status_name_string of it')
    call expect(index(message, 'kobalt_dgemm_strided') > 0 .and. index(message, 'lda') > 0, &
        'the message names the function and lda')
    call expect(maxval(abs(C + 3.0_c_double)) <= 0.0_c_double, 'nothing written on an invalid argument')
  end subroutine test_invalid_argument

  ! The pointer-array form: item i of A is Ap(i) = c_loc(A(1,1,i)).
  subroutine test_gemm_batched()
    real(c_double), target :: A(2, 2, 3), B(2, 2, 3), C(2, 2, 3)
    type(c_ptr) :: Ap(3), Bp(3), Cp(3)
    real(c_double) :: expected(2, 2, 3)
    integer :: i
    do i = 1, 3
      A(:, :, i) = reshape([1, 3, 2, 4], [2, 2]) * i
      B(:, :, i) = reshape([5, 7, 6, 8], [2, 2])
      expected(:, :, i) = matmul(A(:, :, i), B(:, :, i))
    end do
    C = 0.0_c_double
    ! items in reverse order: Ap(1) is the last item, and so on
    do i = 1, 3
      Ap(i) = c_loc(A(1, 1, 4 - i))
      Bp(i) = c_loc(B(1, 1, 4 - i))
      Cp(i) = c_loc(C(1, 1, 4 - i))
    end do
    call expect_success(kobalt_dgemm_batched(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, &
        2_kobalt_int, 2_kobalt_int, 2_kobalt_int, 1.0_c_double, Ap, 2_kobalt_int, Bp, 2_kobalt_int, &
        0.0_c_double, Cp, 2_kobalt_int, 3_kobalt_int), 'kobalt_dgemm_batched (c_loc pointers)')
    call expect(close_to(reshape(C, [12]), reshape(expected, [12]), 1d-14), &
        'dgemm_batched values')
  end subroutine test_gemm_batched

  subroutine test_getrf_batched()
    real(c_double), target :: A1(2, 2), A2(3, 3)
    type(c_ptr) :: Ap(2)
    integer(c_int) :: info(2)
    ! two items of order n = 2 in two separate arrays: no stride relates them
    A1 = reshape([4, 6, 3, 3], [2, 2])
    ! A2 is 3 x 3 but read with lda = 2: its item is A2's first 4 elements, [2 1; 1 3]
    A2 = reshape([2d0, 1d0, 1d0, 3d0, 0d0, 0d0, 0d0, 0d0, 0d0], [3, 3])
    Ap = [c_loc(A1), c_loc(A2)]
    info = -7
    call expect_success(kobalt_dgetrf_batched(KOBALT_COL_MAJOR, 2_kobalt_int, 2_kobalt_int, Ap, &
        2_kobalt_int, strideIpiv=0_kobalt_int, info=info, batch=2_kobalt_int), &
        'kobalt_dgetrf_batched without ipiv')
    call expect(all(info == 0), 'getrf_batched: info = 0')
    call expect(close_to(reshape(A1, [4]), [4d0, 1.5d0, 3d0, -1.5d0], 1d-14), &
        'getrf_batched item 1 unpivoted factors')
    call expect(close_to(reshape(A2, [9]), [2d0, 0.5d0, 1d0, 2.5d0, 0d0, 0d0, 0d0, 0d0, 0d0], &
        1d-14), 'getrf_batched item 2 unpivoted factors')
  end subroutine test_getrf_batched

end program test_fortran
