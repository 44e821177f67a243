! element_solve.f90 -- Kobalt's demo from Fortran: many small element matrices, built,
! factored and solved, once with the fused call and once with the three-call sequence.
!
! For every element i of a batch (column-major, the natural Fortran layout: item i of X
! is X(:,:,i), and consecutive items are n*k elements apart):
!
!     A_i = alpha X_i Y_i + beta A0      X_i n x k, Y_i k x n, A0 = shift * I
!     A_i = P_i L_i U_i                  LU with partial pivoting
!     b_i = A_i^{-1} b_i                 one load vector, overwritten by the solution
!
! alpha = 1/k, beta = 1 and shift = n keep every A_i strictly diagonally dominant.
!
!   fused:    kobalt_dgemm_lu_trsv_strided
!   sequence: kobalt_dgemm_strided, kobalt_dgetrf_strided, kobalt_dgetrs_strided
!
! The program checks that both solutions agree and that every residual ||A_i x - b_i||
! is small (A_i rebuilt from X_i and Y_i), prints the best time of each, and stops with
! `error stop` when a call fails or a check does not hold.
!
! Build (installed Kobalt):
!   gfortran element_solve.f90 $(pkg-config --cflags --libs kobalt-fortran)
! Usage: element_solve_fortran [-n N] [-k K] [-b BATCH] [-r REPEATS]
program element_solve
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  use, intrinsic :: iso_fortran_env, only: int64, output_unit, error_unit
  use kobalt
  implicit none

  integer(kobalt_int) :: n = 8, k = -1, nbatch = 100000, repeats = 3
  real(c_double), allocatable :: X(:,:,:), Y(:,:,:), A(:,:,:), B(:,:), B0(:,:), Bfused(:,:)
  integer(c_int), allocatable :: ipiv(:,:), info(:)
  real(c_double) :: alpha, beta, shift, diff, resid, tol
  real(c_double) :: tfused, tseq, t(3), tbest(3)
  integer(kobalt_int) :: r
  integer :: nbackends, i

  call parse_arguments()
  if (k < 0) k = n
  alpha = 1.0_c_double / real(k, c_double)
  beta = 1.0_c_double
  shift = real(n, c_double)

  allocate (X(n, k, nbatch), Y(k, n, nbatch), A(n, n, nbatch))
  allocate (B(n, nbatch), B0(n, nbatch), Bfused(n, nbatch))
  allocate (ipiv(n, nbatch), info(nbatch))
  X = reshape(noise(size(X, kind=kobalt_int), 1), shape(X))
  Y = reshape(noise(size(Y, kind=kobalt_int), 2), shape(Y))
  B0 = reshape(noise(size(B0, kind=kobalt_int), 3), shape(B0))

  write (output_unit, '(a)', advance='no') 'Kobalt '//kobalt_version_string()//', backends:'
  nbackends = kobalt_backend_count()
  do i = 0, nbackends - 1
    write (output_unit, '(1x,a)', advance='no') kobalt_backend_name_string(i)
  end do
  if (nbackends == 0) write (output_unit, '(a)', advance='no') ' none'
  write (output_unit, '(a)') ''
  write (output_unit, '(a,i0,a,i0,a,i0,a)') 'batch ', nbatch, ' of n=', n, &
      ' element matrices (k=', k, ', column-major, from Fortran)'

  ! Untimed first runs: load the backends, fault the pages in, check the results.
  call reset()
  call run_fused(tfused)
  Bfused = B
  call reset()
  call run_sequence(t)

  tol = 1000.0_c_double * real(n, c_double) * epsilon(1.0_c_double)
  diff = scaled_difference()
  resid = max_residual()
  write (output_unit, '(a,es8.2,a,es7.1,a)') 'fused vs sequence: max scaled difference ', &
      diff, ' (tolerance ', tol, ')'
  write (output_unit, '(a,f8.2,a)') 'fused residual (all items): max ', resid, &
      '  (||Ax-b|| / ((||A|| ||x|| + ||b||) n eps))'
  if (.not. (diff <= tol)) error stop 'element_solve: the fused and the three-call results disagree'
  if (.not. (resid <= 100.0_c_double)) error stop 'element_solve: the fused solution has a large residual'

  tfused = huge(1.0_c_double)
  tbest = huge(1.0_c_double)
  do r = 1, repeats
    call reset()
    call run_fused(t(1))
    tfused = min(tfused, t(1))
    call reset()
    call run_sequence(t)
    tbest = min(tbest, t)
  end do
  tseq = sum(tbest)
  write (output_unit, '(a,i0,a)') 'best of ', repeats, ' repeats:'
  write (output_unit, '(a,f9.3,a)') '  fused    kobalt_dgemm_lu_trsv_strided       ', 1e3_c_double * tfused, ' ms'
  write (output_unit, '(a,f9.3,a,3(f6.3,a))') '  sequence dgemm + dgetrf + dgetrs            ', &
      1e3_c_double * tseq, ' ms  (', 1e3_c_double * tbest(1), ' + ', 1e3_c_double * tbest(2), ' + ', &
      1e3_c_double * tbest(3), ')'
  write (output_unit, '(a,f9.2,a)') '  sequence / fused                            ', tseq / tfused, 'x'
  ! A main program's arrays are never freed by gfortran (they are implicitly SAVEd): give
  ! them back, so that leak checkers (docs/reliability.md) see no leak.
  deallocate (X, Y, A, B, B0, Bfused, ipiv, info)

contains

  subroutine parse_arguments()
    character(len=64) :: flag, value
    integer :: iarg, stat
    iarg = 1
    do while (iarg <= command_argument_count())
      call get_command_argument(iarg, flag)
      if (flag == '-h') then
        write (output_unit, '(a)') 'usage: element_solve_fortran [-n N] [-k K] [-b BATCH] [-r REPEATS]'
        stop
      end if
      call get_command_argument(iarg + 1, value, status=stat)
      if (stat /= 0) call usage_error('missing value after '//trim(flag))
      select case (flag)
      case ('-n'); n = positive(value)
      case ('-k'); k = positive(value)
      case ('-b'); nbatch = positive(value)
      case ('-r'); repeats = positive(value)
      case default; call usage_error('unknown option '//trim(flag))
      end select
      iarg = iarg + 2
    end do
  end subroutine parse_arguments

  integer(kobalt_int) function positive(text)
    character(len=*), intent(in) :: text
    integer :: stat
    read (text, *, iostat=stat) positive
    if (stat /= 0 .or. positive < 1) call usage_error('not a positive integer: '//trim(text))
  end function positive

  subroutine usage_error(message)
    character(len=*), intent(in) :: message
    write (error_unit, '(a)') 'element_solve: '//message
    error stop 2
  end subroutine usage_error

  ! count reproducible values in (-1, 1) (Park-Miller sequence).
  function noise(count, seed) result(v)
    integer(kobalt_int), intent(in) :: count
    integer, intent(in) :: seed
    real(c_double) :: v(count)
    integer(int64) :: e, z
    z = 12345_int64 * seed
    do e = 1, count
      z = modulo(z * 48271_int64, 2147483647_int64)
      v(e) = 2.0_c_double * real(z, c_double) / 2147483647.0_c_double - 1.0_c_double
    end do
  end function noise

  ! A_i = shift * I, b_i = the load vector: the inputs every run starts from.
  subroutine reset()
    integer(kobalt_int) :: e, j
    do e = 1, nbatch
      A(:, :, e) = 0.0_c_double
      do j = 1, n
        A(j, j, e) = shift
      end do
    end do
    B = B0
  end subroutine reset

  real(c_double) function seconds()
    integer(int64) :: count, rate
    call system_clock(count, rate)
    seconds = real(count, c_double) / real(rate, c_double)
  end function seconds

  subroutine check(call_name, status)
    character(len=*), intent(in) :: call_name
    integer(c_int), intent(in) :: status
    if (status /= KOBALT_SUCCESS) then
      write (error_unit, '(a)') 'element_solve: '//call_name//' returned '// &
          kobalt_status_name_string(status)//': '//kobalt_last_error_string()
      error stop 1
    end if
  end subroutine check

  subroutine check_info(what)
    character(len=*), intent(in) :: what
    integer :: bad
    bad = findloc(info /= 0, .true., dim=1)
    if (bad /= 0) then
      write (error_unit, '(a,i0,a,i0)') 'element_solve: '//what//': info(', bad, ') = ', info(bad)
      error stop 1
    end if
  end subroutine check_info

  ! One sweep: A_i = alpha X_i Y_i + beta A_i, A_i = P_i L_i U_i, b_i = A_i^{-1} b_i.
  ! Column-major: the leading dimensions are the row counts, the strides the sizes of
  ! one item (the arrays' first dimensions).
  subroutine run_fused(elapsed)
    real(c_double), intent(out) :: elapsed
    real(c_double) :: t0
    t0 = seconds()
    call check('kobalt_dgemm_lu_trsv_strided', &
        kobalt_dgemm_lu_trsv_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, &
            n, k, 1_kobalt_int, alpha, X, n, n * k, Y, k, k * n, beta, A, n, n * n, &
            ipiv, n, B, n, n, info, nbatch))
    elapsed = seconds() - t0
    call check_info('fused')
  end subroutine run_fused

  ! The three-call sequence; elapsed(1:3) receive the time of each call.
  subroutine run_sequence(elapsed)
    real(c_double), intent(out) :: elapsed(3)
    real(c_double) :: t0, t1, t2, t3
    t0 = seconds()
    call check('kobalt_dgemm_strided', &
        kobalt_dgemm_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, KOBALT_NO_TRANS, n, n, k, &
            alpha, X, n, n * k, Y, k, k * n, beta, A, n, n * n, nbatch))
    t1 = seconds()
    call check('kobalt_dgetrf_strided', &
        kobalt_dgetrf_strided(KOBALT_COL_MAJOR, n, n, A, n, n * n, ipiv, n, info, nbatch))
    t2 = seconds()
    call check('kobalt_dgetrs_strided', &
        kobalt_dgetrs_strided(KOBALT_COL_MAJOR, KOBALT_NO_TRANS, n, 1_kobalt_int, A, n, &
            n * n, ipiv, n, B, n, n, nbatch))
    t3 = seconds()
    elapsed = [t1 - t0, t2 - t1, t3 - t2]
    call check_info('sequence')
  end subroutine run_sequence

  ! max over items of ||x_fused - x_seq||_inf / ||x_seq||_inf
  real(c_double) function scaled_difference() result(worst)
    integer(kobalt_int) :: e
    real(c_double) :: d, norm
    worst = 0.0_c_double
    do e = 1, nbatch
      norm = maxval(abs(B(:, e)))
      d = maxval(abs(Bfused(:, e) - B(:, e))) / merge(norm, 1.0_c_double, norm > 0.0_c_double)
      if (.not. (d <= worst)) worst = d ! also catches NaN
    end do
  end function scaled_difference

  ! max over items of ||A_i x - b||_inf / ((||A_i||_inf ||x||_inf + ||b||_inf) n eps),
  ! A_i rebuilt from X_i and Y_i.
  real(c_double) function max_residual() result(worst)
    integer(kobalt_int) :: e, j
    real(c_double) :: Ai(n, n), res
    worst = 0.0_c_double
    do e = 1, nbatch
      Ai = alpha * matmul(X(:, :, e), Y(:, :, e))
      do j = 1, n
        Ai(j, j) = Ai(j, j) + beta * shift
      end do
      res = maxval(abs(matmul(Ai, Bfused(:, e)) - B0(:, e))) / &
          ((maxval(sum(abs(Ai), dim=2)) * maxval(abs(Bfused(:, e))) + maxval(abs(B0(:, e)))) * &
          real(n, c_double) * epsilon(1.0_c_double))
      if (.not. (res <= worst)) worst = res
    end do
  end function max_residual

end program element_solve
