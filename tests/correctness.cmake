# Correctness tests: every routine against CBLAS/LAPACKE per item (tests/test_<routine>.cpp,
# shared helpers in tests/common/). Each executable runs three times under ctest, so
# both sides of every size threshold of the backend are exercised whatever their values:
#   correctness_<routine>_default  the backend's own thresholds
#   correctness_<routine>_vendor   every *_SMALL_MAX = 0: all sizes on the OpenBLAS path,
#                                  and FEW_ITEMS_LARGE_MIN = 1: batches with fewer items
#                                  than threads go item by item through threaded OpenBLAS
#   correctness_<routine>_small    every *_SMALL_MAX huge: all sizes on the KokkosBatched path
# and once more as correctness_<routine>_one_thread with OMP_NUM_THREADS=1, where the batch
# loops run on the calling thread without a parallel region (backends/openmp/team.hpp).
set(KOBALT_CORRECTNESS_ROUTINES gemm gemv trsv trsm getrf getrs gemm_lu_trsv getri desc semiring)
set(KOBALT_THRESHOLD_NAMES
  GEMM_SMALL_MAX GEMV_SMALL_MAX TRSV_SMALL_MAX TRSM_SMALL_MAX GETRF_SMALL_MAX GETRS_SMALL_MAX
  GEMM_LU_TRSV_SMALL_MAX GETRI_SMALL_MAX GETRF_NP_SMALL_MAX
  GEMV_FIXED_MAX TRSV_FIXED_MAX TRSM_FIXED_MAX GETRS_DIRECT_MAX GETRS_STREAM_MIN
  GETRS_TINY_MAX TRSM_SMALL_MAX_FLOAT TRSV_DIRECT_MAX TRSV_PREFETCH_MAX TRSM_DIRECT_MAX
  TRSV_INPLACE_MAX TRSV_COL_SWEEP_MIN TRSV_ROW_SWEEP_MAX TRSV_PREFETCH_NEXT_MIN TRSV_COL_SWEEP_MAX
  GETRF_TINY_MAX PACKED_PREFETCH_BYTES PACKED_TILE_MAX_BYTES PACKED_FUSED_TILE_MAX_BYTES
  GEMM_PANEL_MAX GEMM_PANEL_MAX_FLOAT FUSED_COMPOSE_MIN FUSED_COMPOSE_MAX
  GETRS_TINY_PAIR_MAX GETRS_TINY_PAIR_MAX_FLOAT GEMM_PREFETCH_MIN_BYTES GEMM_PREFETCH_ITEM_MAX_BYTES
  GETRF_DIRECT_MAX GETRF_DIRECT_MIN GETRS_TINY_WIDE_MIN GEMM_PREFETCH_AHEAD_BYTES
  PACKED_PREFETCH_AHEAD_BYTES PACKED_LU_BLOCK_MIN PACKED_LU_BLOCK_MIN_FLOAT PACKED_FUSED_BY_ITEM_MAX_BYTES
  FUSED_REGION_MIN_BYTES FUSED_REGION_CHUNK_BYTES FUSED_REGION_COMPOSE_MIN FUSED_REGION_COMPOSE_MIN_FLOAT
  FUSED_REGION_COMPOSE_ALSO FUSED_REGION_COMPOSE_ALSO_FLOAT)

set(kobalt_env_vendor "KOBALT_FEW_ITEMS_LARGE_MIN=1")
set(kobalt_env_small "KOBALT_FEW_ITEMS_LARGE_MIN=1000000000")
foreach(t IN LISTS KOBALT_THRESHOLD_NAMES)
  list(APPEND kobalt_env_vendor "KOBALT_${t}=0")
  list(APPEND kobalt_env_small "KOBALT_${t}=1000000")
endforeach()

# One run of test executable <exe> under ctest as <name>, labelled <labels>, with the
# environment every correctness run gets plus the variables given after <labels>.
# Passive OpenMP waiting: on a loaded 2-core CI machine spinning worker threads slow these
# call-heavy tests (thousands of tiny calls) by an order of magnitude.
function(kobalt_add_correctness_run name exe labels)
  set(env ${KOBALT_TEST_ENV} OMP_WAIT_POLICY=PASSIVE ${ARGN})
  add_test(NAME ${name} COMMAND ${exe})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "${env}"
    LABELS "${labels}"
    TIMEOUT 300)
endfunction()

# The references: CBLAS and LAPACKE. Kobalt::blas_lapack is an imported target of the
# directory that first included KobaltDependencies.cmake (include_guard(GLOBAL) keeps a
# second include from defining it here), so fall back to the cached find results.
if(TARGET Kobalt::blas_lapack)
  set(kobalt_reference_libs Kobalt::blas_lapack)
else()
  add_library(kobalt_test_reference INTERFACE)
  target_include_directories(kobalt_test_reference INTERFACE
    ${KOBALT_CBLAS_INCLUDE_DIR} ${KOBALT_LAPACKE_INCLUDE_DIR})
  target_link_libraries(kobalt_test_reference INTERFACE
    ${KOBALT_LAPACKE_LIBRARY} ${KOBALT_OPENBLAS_LIBRARY})
  set(kobalt_reference_libs kobalt_test_reference)
endif()

foreach(routine IN LISTS KOBALT_CORRECTNESS_ROUTINES)
  set(src ${CMAKE_CURRENT_SOURCE_DIR}/test_${routine}.cpp)
  if(NOT EXISTS ${src})
    continue()
  endif()
  set(exe test_${routine})
  add_executable(${exe} ${src})
  target_include_directories(${exe} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${exe} PRIVATE Kobalt::kobalt ${kobalt_reference_libs} PkgConfig::CMOCKA)
  target_compile_options(${exe} PRIVATE -Wall -Wextra)
  foreach(variant default vendor small)
    kobalt_add_correctness_run(correctness_${routine}_${variant} ${exe}
      "correctness;correctness_${variant}" ${kobalt_env_${variant}})
  endforeach()
  kobalt_add_correctness_run(correctness_${routine}_one_thread ${exe}
    "correctness;correctness_one_thread" OMP_NUM_THREADS=1)
endforeach()

# The descriptor routines (test_desc.cpp) once more per copy of the interleaved SIMD
# kernels (AVX-512, AVX2, baseline SSE2: whichever this CPU runs), and with the
# interleaved kernels off and one item per gather round, so that every _desc call goes
# through the standard or the gathered path.
if(TARGET test_desc)
  set(kobalt_desc_env_no_avx512 "KOBALT_OPENMP_NO_AVX512=1")
  set(kobalt_desc_env_no_avx2 "KOBALT_OPENMP_NO_AVX2=1")
  set(kobalt_desc_env_gathered "KOBALT_INTERLEAVED_MAX=0;KOBALT_DESC_GATHER_BYTES=1")
  foreach(variant no_avx512 no_avx2 gathered)
    kobalt_add_correctness_run(correctness_desc_${variant} test_desc "correctness;correctness_desc"
      ${kobalt_desc_env_${variant}})
  endforeach()
endif()

# test_semiring's host_team_callers calls from a host program's own OpenMP team (the
# per-thread panel scratch of backends/openmp/semiring_kernels.cpp); without OpenMP it skips.
if(TARGET test_semiring)
  find_package(OpenMP COMPONENTS CXX)
  if(OpenMP_CXX_FOUND)
    target_link_libraries(test_semiring PRIVATE OpenMP::OpenMP_CXX)
  endif()
endif()

# getrf, getrs and the fused call at n <= 8 run through the interleaved kernels on packs of
# W items (PACKED_LU_MAX, on by default, getrs from PACKED_GETRS_MIN = 8;
# backends/openmp/packed_kernels.hpp). These runs force the packed path off (the fixed-n
# kernels take those sizes), on at every n = 1..8 for all three routines, and on with the
# AVX2 and baseline copies (W = 4 and 2 doubles, 8 and 4 floats) instead of AVX-512.
foreach(routine getrf getrs gemm_lu_trsv)
  if(NOT TARGET test_${routine})
    continue()
  endif()
  set(kobalt_packed_env_off "KOBALT_PACKED_LU_MAX=0")
  # _on also prefetches ahead at every pack size (PACKED_PREFETCH_BYTES = 0) and copies dense
  # column-major items as tiles at every size (the *TILE_MAX_BYTES above every item); the
  # other runs keep the default bounds, so the larger items take the element copies. _on and
  # _avx2 factor getrf's packs one column at a time at every n (PACKED_LU_BLOCK_MIN) and form
  # the fused call's packs item by item where n is the pack's width (PACKED_FUSED_BY_ITEM_MAX_BYTES:
  # double n = 8 in _on, double n = 4 and float n = 8 in _avx2), _base all in registers and
  # across the lanes. _on keeps the per-item fused kernel (AVX-512 only) off, so that the
  # packed path runs the fused call at every n.
  set(kobalt_packed_lu_block "KOBALT_PACKED_LU_BLOCK_MIN=1;KOBALT_PACKED_LU_BLOCK_MIN_FLOAT=1"
    "KOBALT_PACKED_FUSED_BY_ITEM_MAX_BYTES=1000000000000")
  set(kobalt_packed_env_on "KOBALT_PACKED_LU_MAX=8;KOBALT_PACKED_GETRS_MIN=1;KOBALT_PACKED_PREFETCH_BYTES=0"
    "KOBALT_PACKED_TILE_MAX_BYTES=1000000;KOBALT_PACKED_FUSED_TILE_MAX_BYTES=1000000"
    "KOBALT_FUSED_ITEM_MIN=9;KOBALT_FUSED_ITEM_MIN_FLOAT=9" ${kobalt_packed_lu_block})
  set(kobalt_packed_env_avx2 "KOBALT_PACKED_LU_MAX=8;KOBALT_PACKED_GETRS_MIN=1;KOBALT_OPENMP_NO_AVX512=1"
    ${kobalt_packed_lu_block})
  set(kobalt_packed_env_base "KOBALT_PACKED_LU_MAX=8;KOBALT_PACKED_GETRS_MIN=1;KOBALT_OPENMP_NO_AVX2=1"
    "KOBALT_PACKED_LU_BLOCK_MIN=9;KOBALT_PACKED_LU_BLOCK_MIN_FLOAT=9;KOBALT_PACKED_FUSED_BY_ITEM_MAX_BYTES=0")
  foreach(variant off on avx2 base)
    # getrs with one right-hand side takes the grouped solve (GETRS_TINY_MAX) ahead of both
    # paths: off here, so that these runs keep exercising them with nrhs = 1 too.
    set(env ${kobalt_packed_env_${variant}})
    if(routine STREQUAL "getrs")
      list(APPEND env "KOBALT_GETRS_TINY_MAX=0")
    endif()
    # getrf at n = 2 takes the in-place kernel (GETRF_TINY_MAX) ahead of both: off here too.
    if(routine STREQUAL "getrf")
      list(APPEND env "KOBALT_GETRF_TINY_MAX=0")
    endif()
    # The fused call at n >= FUSED_ITEM_MIN(_FLOAT) runs the per-item kernel ahead of both: off.
    if(routine STREQUAL "gemm_lu_trsv")
      list(APPEND env "KOBALT_FUSED_ITEM_MIN=9" "KOBALT_FUSED_ITEM_MIN_FLOAT=9")
    endif()
    kobalt_add_correctness_run(correctness_${routine}_packed_${variant} test_${routine} "correctness;correctness_packed"
      ${env})
  endforeach()
endforeach()

# getrf of 2 x 2 items in place, W at a time in registers (backends/openmp/getrf_tiny.cpp,
# GETRF_TINY_MAX = 2), ahead of the packed path: on in _default and _small (with the AVX-512
# copy where the CPU has it), off in _vendor and the _packed_* runs; _tiny_avx2 and
# _tiny_base run its AVX2 and baseline (SSE2) copies.
if(TARGET test_getrf)
  set(kobalt_tiny_env_avx2 "KOBALT_OPENMP_NO_AVX512=1")
  set(kobalt_tiny_env_base "KOBALT_OPENMP_NO_AVX2=1")
  foreach(variant avx2 base)
    kobalt_add_correctness_run(correctness_getrf_tiny_${variant} test_getrf "correctness;correctness_fixed"
      ${kobalt_tiny_env_${variant}})
  endforeach()
endif()

# getrf with pivoting at n = GETRF_DIRECT_MIN (24) ... GETRF_DIRECT_MAX (64) runs
# the direct LU (backends/openmp/getrf_direct.cpp) in _default (off in _vendor and _small, which
# set every threshold to 0 / 10^6); _direct_all runs it at every n = 9 ... 64 (the kernel's
# limit), _direct_avx2 and _direct_base the same with its AVX2 and baseline (SSE2) copies, as
# on CPUs without AVX-512 (or AVX2).
if(TARGET test_getrf)
  set(kobalt_direct_env_all "KOBALT_GETRF_DIRECT_MIN=9;KOBALT_GETRF_DIRECT_MAX=64")
  set(kobalt_direct_env_avx2 ${kobalt_direct_env_all} "KOBALT_OPENMP_NO_AVX512=1")
  set(kobalt_direct_env_base ${kobalt_direct_env_all} "KOBALT_OPENMP_NO_AVX2=1")
  foreach(variant all avx2 base)
    kobalt_add_correctness_run(correctness_getrf_direct_${variant} test_getrf "correctness;correctness_fixed"
      ${kobalt_direct_env_${variant}})
  endforeach()
endif()

# The fused call with k = n from FUSED_ITEM_MIN (double, 7; 8 on AMD Zen 5) /
# FUSED_ITEM_MIN_FLOAT (8; off on AMD Zen 5) to 8 runs one item at a time in SIMD registers
# (backends/openmp/fused_item.cpp, AVX-512 CPUs only), ahead of the packed and fixed-n
# kernels: on from the defaults in _default and _small. _item_all runs it at every n = 1..8 in both precisions; _item_off turns it off (the
# packed or fixed-n path at n <= 8, as on CPUs without AVX-512). The _packed_* runs above
# also turn it off. On a CPU without AVX-512 all of these take the packed or fixed-n path.
if(TARGET test_gemm_lu_trsv)
  set(kobalt_item_env_all "KOBALT_FUSED_ITEM_MIN=1;KOBALT_FUSED_ITEM_MIN_FLOAT=1")
  set(kobalt_item_env_off "KOBALT_FUSED_ITEM_MIN=9;KOBALT_FUSED_ITEM_MIN_FLOAT=9")
  foreach(variant all off)
    kobalt_add_correctness_run(correctness_gemm_lu_trsv_item_${variant} test_gemm_lu_trsv
      "correctness;correctness_fixed" ${kobalt_item_env_${variant}})
  endforeach()
endif()

# The fused call at FUSED_COMPOSE_MIN (9) <= n <= FUSED_COMPOSE_MAX (64) runs as
# Kobalt's own gemm, getrf and getrs over chunks of the batch (backends/openmp/
# gemm_lu_trsv.cpp, composed): on in _default, off in _vendor and _small (both thresholds 0 /
# huge). _composed runs it at every size with chunks of a few items, so that singular and NaN
# items fall inside chunks and at their ends (the solve skips them run by run).
# _region runs every composition in one parallel region (FUSED_REGION_MIN_BYTES = 0), each
# thread its own chunks of a few items; _region_small composes n = 1 ... 8 as well, in one
# region, but only calls of 4 KiB or more, so that both sides of that size are crossed.
if(TARGET test_gemm_lu_trsv)
  kobalt_add_correctness_run(correctness_gemm_lu_trsv_composed test_gemm_lu_trsv "correctness"
    KOBALT_FUSED_COMPOSE_MIN=0 KOBALT_FUSED_COMPOSE_MAX=1000000 KOBALT_FUSED_CHUNK_BYTES=2048
    KOBALT_FUSED_REGION_MIN_BYTES=1000000000)
  kobalt_add_correctness_run(correctness_gemm_lu_trsv_region test_gemm_lu_trsv "correctness"
    KOBALT_FUSED_COMPOSE_MIN=0 KOBALT_FUSED_COMPOSE_MAX=1000000 KOBALT_FUSED_REGION_MIN_BYTES=0
    KOBALT_FUSED_REGION_CHUNK_BYTES=2048)
  kobalt_add_correctness_run(correctness_gemm_lu_trsv_region_small test_gemm_lu_trsv "correctness"
    KOBALT_FUSED_REGION_COMPOSE_MIN=1 KOBALT_FUSED_REGION_COMPOSE_MIN_FLOAT=1
    KOBALT_FUSED_REGION_MIN_BYTES=4096 KOBALT_FUSED_REGION_CHUNK_BYTES=1024)
endif()

# gemm above GEMM_SMALL_MAX up to GEMM_PANEL_MAX runs the semiring kernels' packed panels
# with an FMA term (backends/openmp/gemm.cpp, panel_gemm). Its default depends on the core
# OpenBLAS picked (off under OpenBLAS's AVX-512 kernels, double up to 80 under its Zen kernels),
# so _default may or may not run it:
# _panel runs it at every size above GEMM_SMALL_MAX (AVX-512 copy where the CPU has it),
# _panel_avx2 in the AVX2 copy; _vendor turns it off. Both also prefetch the next item at
# every call size (GEMM_PREFETCH_MIN_BYTES = 0; by default only calls of 16 MiB and more,
# which the tests do not make).
if(TARGET test_gemm)
  kobalt_add_correctness_run(correctness_gemm_panel test_gemm "correctness;correctness_panel"
    KOBALT_GEMM_PANEL_MAX=1000000 KOBALT_GEMM_PANEL_MAX_FLOAT=1000000 KOBALT_GEMM_PREFETCH_MIN_BYTES=0)
  kobalt_add_correctness_run(correctness_gemm_panel_avx2 test_gemm "correctness;correctness_panel"
    KOBALT_GEMM_PANEL_MAX=1000000 KOBALT_GEMM_PANEL_MAX_FLOAT=1000000 KOBALT_OPENMP_NO_AVX512=1
    KOBALT_GEMM_PREFETCH_MIN_BYTES=0)
endif()

# gemv, trsv and trsm up to GEMV_FIXED_MAX / TRSV_FIXED_MAX / TRSM_FIXED_MAX run the
# compile-time-n kernels (backends/openmp/fixed_blas2.cpp): on in _default and _small,
# off in _vendor (every size on OpenBLAS). _nofixed turns them off with the other
# thresholds at their defaults, so the same sizes take the KokkosBatched small path;
# _fixed_base forces the baseline (non-AVX2) copy of the fixed kernels.
foreach(routine gemv trsv trsm)
  if(NOT TARGET test_${routine})
    continue()
  endif()
  set(kobalt_fixed_env_nofixed "KOBALT_GEMV_FIXED_MAX=0;KOBALT_TRSV_FIXED_MAX=0;KOBALT_TRSM_FIXED_MAX=0")
  set(kobalt_fixed_env_fixed_base "KOBALT_OPENMP_NO_AVX2=1")
  foreach(variant nofixed fixed_base)
    kobalt_add_correctness_run(correctness_${routine}_${variant} test_${routine} "correctness;correctness_fixed"
      ${kobalt_fixed_env_${variant}})
  endforeach()
endforeach()

# getrs with one right-hand side at n = 9..GETRS_DIRECT_MAX runs the direct solve
# (backends/openmp/getrs_direct.cpp): on in _default (n <= 256, the factors streamed from
# GETRS_STREAM_MIN = 32) and _small (n <= 256, never streamed), off in _vendor. _nodirect
# turns it off with the other thresholds at their defaults, so the same sizes take the
# KokkosBatched small path (n <= GETRS_SMALL_MAX) or the vendor path; _direct_base forces
# the baseline (SSE2) copy of the kernel; _stream_all streams at every n from 9.
# At n = 1..8 the grouped solve (getrs_tiny.cpp, GETRS_TINY_MAX = 8) runs in _default and
# _nodirect (in its AVX-512 copy from GETRS_TINY_WIDE_MIN = 5 where the CPU has it, pairing
# items up to n = 6 there), _stream_all (the AVX-512 copy at every n: GETRS_TINY_WIDE_MIN = 0),
# _small (never the AVX-512 copy: GETRS_TINY_WIDE_MIN huge), in its baseline copy in
# _direct_base, and in its AVX2 copy in _tiny_avx2, pairing items up to n = 6 as well (the
# default there is 4, which _direct_base keeps); _vendor and the _packed_* runs above turn it off.
if(TARGET test_getrs)
  set(kobalt_direct_env_nodirect "KOBALT_GETRS_DIRECT_MAX=0")
  set(kobalt_direct_env_direct_base "KOBALT_OPENMP_NO_AVX2=1")
  set(kobalt_direct_env_stream_all "KOBALT_GETRS_STREAM_MIN=0;KOBALT_GETRS_TINY_WIDE_MIN=0")
  set(kobalt_direct_env_tiny_avx2 "KOBALT_OPENMP_NO_AVX512=1;KOBALT_GETRS_TINY_PAIR_MAX=6;KOBALT_GETRS_TINY_PAIR_MAX_FLOAT=6")
  foreach(variant nodirect direct_base stream_all tiny_avx2)
    kobalt_add_correctness_run(correctness_getrs_${variant} test_getrs "correctness;correctness_fixed"
      ${kobalt_direct_env_${variant}})
  endforeach()
endif()

# trsv with incx > 0 at n = 9..TRSV_DIRECT_MAX runs the direct solve
# (backends/openmp/trsv_direct.cpp): on in _default (n <= 256, each item's triangle
# prefetched first up to TRSV_PREFETCH_MAX = 64) and _small (n <= 256, prefetched at every
# n), off in _vendor. _nodirect turns it off with the other thresholds at their defaults (the
# paths before it: KokkosBatched up to TRSV_SMALL_MAX, OpenBLAS above); _nodirect_small runs
# KokkosBatched at every n, which _small no longer does; _direct_base forces the baseline
# (SSE2) copy of the kernels; _noprefetch runs the direct solve without the prefetch.
# Branch hosttrsv's choices inside the direct solve: _default runs the rank-1 column sweep at
# TRSV_COL_SWEEP_MIN..MAX = 48..128, the row-major sweep up to TRSV_ROW_SWEEP_MAX = 24, the next-item
# prefetch from TRSV_PREFETCH_NEXT_MIN = 48, in place up to TRSV_INPLACE_MAX = 32; _small
# runs the row sweep and in place at every n, the column sweep and next-item prefetch
# nowhere; _sweeps_swapped the opposite: the column sweep and the next-item prefetch
# (with the triangle prefetch) at every n, the row sweep nowhere, always the local copy.
if(TARGET test_trsv)
  set(kobalt_trsv_env_nodirect "KOBALT_TRSV_DIRECT_MAX=0")
  set(kobalt_trsv_env_nodirect_small "KOBALT_TRSV_DIRECT_MAX=0;KOBALT_TRSV_SMALL_MAX=1000000;KOBALT_FEW_ITEMS_LARGE_MIN=1000000000")
  set(kobalt_trsv_env_direct_base "KOBALT_OPENMP_NO_AVX2=1")
  set(kobalt_trsv_env_noprefetch "KOBALT_TRSV_PREFETCH_MAX=0")
  set(kobalt_trsv_env_sweeps_swapped "KOBALT_TRSV_COL_SWEEP_MIN=0;KOBALT_TRSV_COL_SWEEP_MAX=1000000;KOBALT_TRSV_ROW_SWEEP_MAX=0;KOBALT_TRSV_PREFETCH_NEXT_MIN=0;KOBALT_TRSV_PREFETCH_MAX=1000000;KOBALT_TRSV_INPLACE_MAX=0")
  foreach(variant nodirect nodirect_small direct_base noprefetch sweeps_swapped)
    kobalt_add_correctness_run(correctness_trsv_${variant} test_trsv "correctness;correctness_fixed"
      ${kobalt_trsv_env_${variant}})
  endforeach()
endif()

# trsm at max(m, n) = 9..TRSM_DIRECT_MAX runs the direct solve (backends/openmp/trsm_direct.cpp):
# on in _default and _small (up to the kernel's limit, 64), off in _vendor.
# _nodirect turns it off with the other thresholds at their defaults (the paths before it:
# KokkosBatched up to TRSM_SMALL_MAX(_FLOAT), OpenBLAS above); _direct_base forces the
# baseline (SSE2) copy of the kernel, _direct_avx2 the AVX2 copy on a CPU whose default is
# the AVX-512 one (elsewhere it repeats _default).
if(TARGET test_trsm)
  set(kobalt_trsm_env_nodirect "KOBALT_TRSM_DIRECT_MAX=0")
  set(kobalt_trsm_env_direct_base "KOBALT_OPENMP_NO_AVX2=1")
  set(kobalt_trsm_env_direct_avx2 "KOBALT_OPENMP_NO_AVX512=1")
  foreach(variant nodirect direct_base direct_avx2)
    kobalt_add_correctness_run(correctness_trsm_${variant} test_trsm "correctness;correctness_fixed"
      ${kobalt_trsm_env_${variant}})
  endforeach()
endif()

# The semiring kernels exist once per ISA (backends/openmp/semiring_kernels.hpp): the
# default run takes the widest the CPU has; these two force the AVX2 and baseline copies
# (the AVX2 run with the next-item prefetch at every call size, GEMM_PREFETCH_MIN_BYTES = 0).
if(TARGET test_semiring)
  kobalt_add_correctness_run(correctness_semiring_avx2 test_semiring "correctness"
    KOBALT_OPENMP_NO_AVX512=1 KOBALT_GEMM_PREFETCH_MIN_BYTES=0)
  kobalt_add_correctness_run(correctness_semiring_base test_semiring "correctness"
    KOBALT_OPENMP_NO_AVX2=1)
endif()
