# GPU tests of the CUDA backend (backends/cuda, docs/cuda.md): every routine on device
# buffers against self-contained host references. Registered when the CUDA toolkit was
# found; each test exits 77 ("no CUDA device: skipped") on a machine without a GPU.
if(NOT KOBALT_HAVE_CUDA OR NOT TARGET kobalt-cuda)
  return()
endif()
# kobalt_gpu_test(NAME TIMEOUT SETTINGS COMMAND...): one GPU test, labelled cuda, skipped
# (exit 77) without a device, run with the suite's environment plus SETTINGS (a ;-list of
# KOBALT_CUDA_* overrides, "" for the defaults): the variants below differ only in those.
function(kobalt_gpu_test name timeout settings)
  add_test(NAME ${name} COMMAND ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "cuda" SKIP_RETURN_CODE 77 ENVIRONMENT "${KOBALT_TEST_ENV}"
    TIMEOUT ${timeout})
  if(NOT "${settings}" STREQUAL "")
    set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT ${settings})
  endif()
endfunction()
add_executable(test_cuda_routines ${CMAKE_CURRENT_SOURCE_DIR}/test_cuda_routines.cpp)
target_link_libraries(test_cuda_routines PRIVATE Kobalt::kobalt CUDA::cudart_static)

add_dependencies(test_cuda_routines kobalt-cuda)
target_include_directories(test_cuda_routines PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
# default thresholds (group kernels <= 32, vendor above) / one-thread-per-item staged kernels
# at every size / vendor paths wherever they apply (group kernels elsewhere) /
# one-thread-per-item unstaged / the > 2^31-element batch
set(kobalt_cuda_own "KOBALT_CUDA_GETRF_WARP_MAX=0;KOBALT_CUDA_FUSED_WARP_MAX=0;KOBALT_CUDA_GETRS_WARP_MAX=0;KOBALT_CUDA_GROUP_MAX=0;KOBALT_CUDA_GEMM_TILE_MAX=0;KOBALT_CUDA_GEMM_TILE_MAX_FLOAT=0;KOBALT_CUDA_GEMM_SMALL_MAX=100000;KOBALT_CUDA_GEMV_SMALL_MAX=100000;KOBALT_CUDA_TRSM_SMALL_MAX=100000;KOBALT_CUDA_GETRF_SMALL_MAX=100000;KOBALT_CUDA_GETRS_SMALL_MAX=100000;KOBALT_CUDA_GEMM_LU_TRSV_SMALL_MAX=100000")
set(kobalt_cuda_vendor "KOBALT_CUDA_GETRF_BLOCK_MAX=0;KOBALT_CUDA_GEMM_SMALL_MAX=0;KOBALT_CUDA_GEMM_TILE_MAX=0;KOBALT_CUDA_GEMM_TILE_MAX_FLOAT=0;KOBALT_CUDA_GEMV_SMALL_MAX=0;KOBALT_CUDA_TRSM_SMALL_MAX=0;KOBALT_CUDA_GETRF_SMALL_MAX=0;KOBALT_CUDA_GETRS_SMALL_MAX=0;KOBALT_CUDA_GEMM_LU_TRSV_SMALL_MAX=0;KOBALT_CUDA_GEMM_LU_TRSV_FULL_MAX_FLOAT=0")
kobalt_gpu_test(cuda_routines 1200 "" test_cuda_routines full)
kobalt_gpu_test(cuda_routines_own 1200 "${kobalt_cuda_own}" test_cuda_routines full)
kobalt_gpu_test(cuda_routines_vendor 1200 "${kobalt_cuda_vendor}" test_cuda_routines full)
# unstaged also runs the vendor paths of the first version: getrf on a packed copy, the fused
# call solving in a copy of B, getrs with one pointer-array kernel per operand, scratch from
# CUDA's default pool (VENDOR_INPLACE=0, SCRATCH_KEEP_MB=0); the others run the defaults.
kobalt_gpu_test(cuda_routines_unstaged 1200 "KOBALT_CUDA_GETRF_WARP_MAX=0;KOBALT_CUDA_FUSED_WARP_MAX=0;KOBALT_CUDA_GETRS_WARP_MAX=0;KOBALT_CUDA_STAGE_BYTES_MAX=0;KOBALT_CUDA_GROUP_MAX=0;KOBALT_CUDA_VENDOR_INPLACE=0;KOBALT_CUDA_SCRATCH_KEEP_MB=0" test_cuda_routines full)
kobalt_gpu_test(cuda_huge_batch 1200 "" test_cuda_routines huge)
# getrf's group kernel on both pivot-search/broadcast variants at every size up to 32
# (GETRF_BCAST_MIN = 1: lu_bcast.cuh everywhere; 0: the shuffle kernel everywhere; both
# with GETRF_FULL_MIN = 0 so that the square items of a group's width run them too), and
# the prefetching full-item kernel (lu_full.cuh) at every square size (GETRF_FULL_MIN = 1;
# the default 9 runs it in cuda_routines), with singular, NaN and exact-tie items.
kobalt_gpu_test(cuda_getrf_bcast_all 600 "KOBALT_CUDA_GETRF_WARP_MAX=0;KOBALT_CUDA_GETRF_BCAST_MIN=1;KOBALT_CUDA_GETRF_FULL_MIN=0" test_cuda_routines getrf)
kobalt_gpu_test(cuda_getrf_bcast_none 600 "KOBALT_CUDA_GETRF_WARP_MAX=0;KOBALT_CUDA_GETRF_BCAST_MIN=0;KOBALT_CUDA_GETRF_FULL_MIN=0" test_cuda_routines getrf)
kobalt_gpu_test(cuda_getrf_full_all 600 "KOBALT_CUDA_GETRF_WARP_MAX=0;KOBALT_CUDA_GETRF_FULL_MIN=1;KOBALT_CUDA_GETRF_TWO_ROWS_MIN_FLOAT=0" test_cuda_routines getrf)
# float square items on the two-rows-a-lane kernel (lu_two_rows.cuh) at every n up to 16
# (padded to 16 below it; the defaults run it at 9 ... 16), the same cases
kobalt_gpu_test(cuda_getrf_two_rows_all 600 "KOBALT_CUDA_GETRF_WARP_MAX=0;KOBALT_CUDA_GETRF_TWO_ROWS_MIN_FLOAT=1" test_cuda_routines getrf)
# square pivoted items up to 8 on the warp-staged one-thread kernel (lu_warp.cu, the default
# GETRF_WARP_MIN..MAX = 1..8; the three tests above turn it off for the group kernels), the
# same cases: both layouts and forms, singular, NaN and tie items, 40,001 items at n = 4 and 8.
kobalt_gpu_test(cuda_getrf_warp 600 "" test_cuda_routines getrf)
# the fused call at n <= 8, k == n, nrhs == 1 on the warp-staged kernel (fused_warp.cu, the
# default FUSED_WARP_MIN..MAX = 1..8) and at n = 9..32, k <= the group width, nrhs <= 1 on the
# staged group kernel (fused_full.cu, FUSED_FULL_MIN..MAX = 9..32; GEMM_LU_TRSV_SMALL_MAX is 16
# by default, so 17..32 take the composed sequence in double and 30..32 in float, where
# GEMM_LU_TRSV_FULL_MAX_FLOAT = 29 runs the staged kernel first; cuda_fused_full32 raises
# SMALL_MAX to 32 for the kernel's 32-lane groups), and on the group kernel they replaced (FUSED_WARP_MAX = FUSED_FULL_MAX
# = 0, at every n up to 32),
# and both warp-staged kernels with two slices a warp (WARP_STAGE_BUFFERS = 2: the next
# group's copies in flight during the work),
kobalt_gpu_test(cuda_fused_warp 600 "" test_cuda_routines fused)
kobalt_gpu_test(cuda_fused_group 600 "KOBALT_CUDA_FUSED_WARP_MAX=0;KOBALT_CUDA_FUSED_FULL_MAX=0;KOBALT_CUDA_GEMM_LU_TRSV_SMALL_MAX=32" test_cuda_routines fused)
kobalt_gpu_test(cuda_fused_full32 600 "KOBALT_CUDA_GEMM_LU_TRSV_SMALL_MAX=32" test_cuda_routines fused)
kobalt_gpu_test(cuda_fused_warp_buf2 600 "KOBALT_CUDA_WARP_STAGE_BUFFERS=2" test_cuda_routines fused)
# and without the next group's op(X) copied during the LU (FUSED_WARP_AHEAD_MIN, by default
# n = 5 ... 8; 0 = the kernel before it)
kobalt_gpu_test(cuda_fused_warp_noahead 600 "KOBALT_CUDA_FUSED_WARP_AHEAD_MIN=0" test_cuda_routines fused)
kobalt_gpu_test(cuda_getrf_warp_buf2 600 "KOBALT_CUDA_WARP_STAGE_BUFFERS=2" test_cuda_routines getrf)
# and with the LU on the item's shared-memory record (lu_in_record; by default double n = 5 ... 8)
# at every n in both precisions, and in registers at every n (the kernel before it)
kobalt_gpu_test(cuda_getrf_warp_record 600 "KOBALT_CUDA_GETRF_WARP_RECORD_MIN=1;KOBALT_CUDA_GETRF_WARP_RECORD_MIN_FLOAT=1" test_cuda_routines getrf)
kobalt_gpu_test(cuda_getrf_warp_registers 600 "KOBALT_CUDA_GETRF_WARP_RECORD_MIN=9;KOBALT_CUDA_GETRF_WARP_RECORD_MIN_FLOAT=9" test_cuda_routines getrf)
# getrf above the group kernels on both sides of GETRF_BLOCK_MAX (test_cuda_routines.cpp
# "getrf_block"): the block-per-item kernel (lu_block.cuh, at most n = 64) with its ties
# checked, a threshold above that limit falling back to cuBLAS; the same on 8 warps a
# block and with GETRF_SMALL_MAX = 0 (every size from 1 on the block kernel); off (cuBLAS
# getrfBatched with its check).
kobalt_gpu_test(cuda_getrf_block_all 600 "KOBALT_CUDA_GETRF_BLOCK_MAX=192" test_cuda_routines getrf_block ties)
kobalt_gpu_test(cuda_getrf_block_w8 600 "KOBALT_CUDA_GETRF_BLOCK_MAX=192;KOBALT_CUDA_GETRF_BLOCK_WARPS=8;KOBALT_CUDA_GETRF_SMALL_MAX=0" test_cuda_routines getrf_block ties)
kobalt_gpu_test(cuda_getrf_block_none 600 "KOBALT_CUDA_GETRF_BLOCK_MAX=0" test_cuda_routines getrf_block)
# getrs with nrhs 1 at n <= 8 on the warp-staged kernel (getrs_warp.cu, the default
# GETRS_WARP_MIN..MAX; the four tests below set GETRS_WARP_MAX = 0 so that the pipe, row and
# group kernels keep these sizes), and with two slices a warp
kobalt_gpu_test(cuda_getrs_warp 600 "" test_cuda_routines getrs)
kobalt_gpu_test(cuda_getrs_warp_buf2 600 "KOBALT_CUDA_WARP_STAGE_BUFFERS=2" test_cuda_routines getrs)
# and without the next group's factors and b copied during the solve (GETRS_WARP_AHEAD_MIN,
# by default 1 = every n; 0 = the kernel before it)
kobalt_gpu_test(cuda_getrs_warp_noahead 600 "KOBALT_CUDA_GETRS_WARP_AHEAD_MIN=0" test_cuda_routines getrs)
# getrs alone on both sides of GETRS_PIPE_MIN (1, with GETRS_PIPE_MAX = 8: the one-thread pipe
# kernel at every n it takes, 1 ... 8, with 8- and 16-byte copies; 0: the group kernel up to n = 8), see
# test_cuda_routines.cpp "getrs".
kobalt_gpu_test(cuda_getrs_pipe_all 600 "KOBALT_CUDA_GETRS_WARP_MAX=0;KOBALT_CUDA_GETRS_PIPE_MIN=1;KOBALT_CUDA_GETRS_PIPE_MAX=8;KOBALT_CUDA_GETRS_PREFETCH_MIN=0" test_cuda_routines getrs)
kobalt_gpu_test(cuda_getrs_pipe_none 600 "KOBALT_CUDA_GETRS_WARP_MAX=0;KOBALT_CUDA_GETRS_PIPE_MIN=0" test_cuda_routines getrs)
# the same cases on both sides of GETRS_PREFETCH_MIN (all: the prefetching row kernel,
# getrs_rows.cuh, at every n it takes, 1 ... 32, the pipe kernel off; none: both off, the
# group kernel everywhere). cuda_getrs_pipe_none above runs it at its default (8 ... 32).
kobalt_gpu_test(cuda_getrs_prefetch_all 600 "KOBALT_CUDA_GETRS_WARP_MAX=0;KOBALT_CUDA_GETRS_PREFETCH_MIN=1;KOBALT_CUDA_GETRS_PIPE_MIN=0" test_cuda_routines getrs)
kobalt_gpu_test(cuda_getrs_prefetch_none 600 "KOBALT_CUDA_GETRS_WARP_MAX=0;KOBALT_CUDA_GETRS_PREFETCH_MIN=0;KOBALT_CUDA_GETRS_PIPE_MIN=0" test_cuda_routines getrs)
# gemm's group kernel on both product variants at every width (GEMM_BCAST_MIN = 1, the
# default: op(B) through shared memory everywhere, 12 columns at n = 9..12 and 16 at 15..16;
# 0: shuffles everywhere), GEMM_SMALL_MAX = 64 so that every max(m, n) <= 32 and k up to
# 41 stay on the group kernels (GEMM_TILE_MAX = 0: the tile kernel off). The tile kernel
# (gemm_tile.cu) on every max(m, n, k) <= 32 (GEMM_TILE_MIN = 1, GEMM_TILE_MAX = 32; k up to
# 41 on the group kernels), both tiles (GEMM_TILE_SMALL_MAX 24 and 0) and both buffer counts;
# the default range 17..24 (17..32 in float) runs in cuda_routines.
kobalt_gpu_test(cuda_gemm_bcast_all 600 "KOBALT_CUDA_GEMM_BCAST_MIN=1;KOBALT_CUDA_GEMM_SMALL_MAX=64;KOBALT_CUDA_GEMM_TILE_MAX=0;KOBALT_CUDA_GEMM_TILE_MAX_FLOAT=0" test_cuda_routines gemm)
kobalt_gpu_test(cuda_gemm_bcast_none 600 "KOBALT_CUDA_GEMM_BCAST_MIN=0;KOBALT_CUDA_GEMM_SMALL_MAX=64;KOBALT_CUDA_GEMM_TILE_MAX=0;KOBALT_CUDA_GEMM_TILE_MAX_FLOAT=0" test_cuda_routines gemm)
kobalt_gpu_test(cuda_gemm_tile_all 600 "KOBALT_CUDA_GEMM_TILE_MIN=1;KOBALT_CUDA_GEMM_TILE_MAX=32;KOBALT_CUDA_GEMM_TILE_MAX_FLOAT=32;KOBALT_CUDA_GEMM_SMALL_MAX=64" test_cuda_routines gemm)
kobalt_gpu_test(cuda_gemm_tile_big 600 "KOBALT_CUDA_GEMM_TILE_MIN=1;KOBALT_CUDA_GEMM_TILE_MAX=32;KOBALT_CUDA_GEMM_TILE_MAX_FLOAT=32;KOBALT_CUDA_GEMM_SMALL_MAX=64;KOBALT_CUDA_GEMM_TILE_SMALL_MAX=0;KOBALT_CUDA_GEMM_TILE_BUFFERS=2" test_cuda_routines gemm)

# No process-ending calls in the plugin (runs without a GPU, so CI checks it).
if(KOBALT_OBJDUMP)
  add_test(NAME cuda_plugin_never_exits
    COMMAND ${CMAKE_COMMAND} -DLIB=$<TARGET_FILE:kobalt-cuda> -DOBJDUMP=${KOBALT_OBJDUMP}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/check_no_exit.cmake)
endif()

# getri and matinv (backends/cuda/inverse.cu): group kernels up to 32 by default, the
# one-thread-per-item kernels at every size with GROUP_MAX=0.
add_executable(test_cuda_inverse ${CMAKE_CURRENT_SOURCE_DIR}/test_cuda_inverse.cpp)
target_link_libraries(test_cuda_inverse PRIVATE Kobalt::kobalt CUDA::cudart_static)
add_dependencies(test_cuda_inverse kobalt-cuda)
target_include_directories(test_cuda_inverse PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
kobalt_gpu_test(cuda_inverse 600 "" test_cuda_inverse)
kobalt_gpu_test(cuda_inverse_own 600 "KOBALT_CUDA_GROUP_MAX=0" test_cuda_inverse)

# The descriptor routines on device memory (tests/test_cuda_desc.cpp): interleaved register
# kernels, standard slots and general-stride kernels; once more with the register kernels
# off, so that interleaved operands take the general-stride kernels too.
add_executable(test_cuda_desc ${CMAKE_CURRENT_SOURCE_DIR}/test_cuda_desc.cpp)
target_link_libraries(test_cuda_desc PRIVATE Kobalt::kobalt CUDA::cudart_static)
add_dependencies(test_cuda_desc kobalt-cuda)
target_include_directories(test_cuda_desc PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
kobalt_gpu_test(cuda_desc 600 "" test_cuda_desc)
kobalt_gpu_test(cuda_desc_general 600 "KOBALT_CUDA_INTERLEAVED_MAX=0" test_cuda_desc)
# The interleaved gemm with an item's columns split over warps at every size (square items
# from 5 with A in shared memory, below from L1/L2; getrs prefetching (il_prefetch.cuh), getrf
# on two threads per item (il_lu_pair.cuh; its row swaps under a branch, 128-thread blocks) and
# the fused call with its registers capped, at every size, both precisions), and never (none of those; the fused call's
# product loop at run time, not unrolled; square items up to 4 with every load first, above
# through the column-pair loop). cuda_desc, the defaults: square items up to 5 with every
# load first, from 6 split with A in shared memory; getrs prefetching and getrf on two threads
# at n = 8 in double only (row swaps by selects, 64-thread blocks); the fused call capped up
# to n = 6.
kobalt_gpu_test(cuda_desc_split_all 600 "KOBALT_CUDA_INTERLEAVED_GEMM_SPLIT_MIN=1;KOBALT_CUDA_INTERLEAVED_GEMM_SHARED_MIN=5;KOBALT_CUDA_INTERLEAVED_GETRS_PREFETCH_MIN=1;KOBALT_CUDA_INTERLEAVED_GETRS_PREFETCH_MIN_FLOAT=1;KOBALT_CUDA_INTERLEAVED_FUSED_BOUNDED_MAX=8;KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_MIN=1;KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_MIN_FLOAT=1;KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_BRANCHLESS=0;KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_THREADS=128" test_cuda_desc)
# The fused call at double n = 7 with B loaded after A is stored, instead of before the LU
# (the default, INTERLEAVED_FUSED_EARLY_B = 1).
kobalt_gpu_test(cuda_desc_fused_late_b 600 "KOBALT_CUDA_INTERLEAVED_FUSED_EARLY_B=0" test_cuda_desc)
kobalt_gpu_test(cuda_desc_split_none 600 "KOBALT_CUDA_INTERLEAVED_GEMM_SPLIT_MIN=0;KOBALT_CUDA_INTERLEAVED_FUSED_UNROLL_MAX=0;KOBALT_CUDA_INTERLEAVED_GEMM_PRELOAD_MAX=4;KOBALT_CUDA_INTERLEAVED_GETRS_PREFETCH_MIN=0;KOBALT_CUDA_INTERLEAVED_GETRS_PREFETCH_MIN_FLOAT=0;KOBALT_CUDA_INTERLEAVED_FUSED_BOUNDED_MAX=0;KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_MIN=0;KOBALT_CUDA_INTERLEAVED_GETRF_PAIR_MIN_FLOAT=0" test_cuda_desc)

# gemm_semiring on the GPU (backends/cuda/semiring.cu): defaults (group kernels up to 16,
# the one-buffer tile kernel from 17 to 32, its 24 x 24 tile up to 24, one block per item);
# the two-buffer tile kernel at every size up to 32, both precisions, both tiles; the
# one-buffer 32 x 32 tile at every size (tile32); the group kernels up to 32 (tile off); the
# one-thread-per-element kernel; the tile kernel at every size with a grid of one block per SM
# (tile_grid: every block walks many items grid-stride) and of 32 per SM (tile_grid32: the grid
# before session 9, float on the tile from 24 only, so float 17 ... 23 takes the group kernel).
add_executable(test_cuda_semiring ${CMAKE_CURRENT_SOURCE_DIR}/test_cuda_semiring.cpp)
target_link_libraries(test_cuda_semiring PRIVATE Kobalt::kobalt CUDA::cudart_static)
target_include_directories(test_cuda_semiring PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
add_dependencies(test_cuda_semiring kobalt-cuda)
kobalt_gpu_test(cuda_semiring 1200 "" test_cuda_semiring full)
kobalt_gpu_test(cuda_semiring_tile 1200 "KOBALT_CUDA_SEMIRING_TILE_MIN=1;KOBALT_CUDA_SEMIRING_TILE_MIN_FLOAT=1;KOBALT_CUDA_SEMIRING_TILE_BUFFERS=2" test_cuda_semiring full)
kobalt_gpu_test(cuda_semiring_group 1200 "KOBALT_CUDA_SEMIRING_TILE_MIN=33;KOBALT_CUDA_SEMIRING_TILE_MIN_FLOAT=33" test_cuda_semiring full)
kobalt_gpu_test(cuda_semiring_element 1200 "KOBALT_CUDA_GROUP_MAX=0;KOBALT_CUDA_SEMIRING_TILE_MIN=33;KOBALT_CUDA_SEMIRING_TILE_MIN_FLOAT=33" test_cuda_semiring full)
kobalt_gpu_test(cuda_semiring_tile32 1200 "KOBALT_CUDA_SEMIRING_TILE_MIN=1;KOBALT_CUDA_SEMIRING_TILE_MIN_FLOAT=1;KOBALT_CUDA_SEMIRING_TILE_SMALL_MAX=0" test_cuda_semiring full)
kobalt_gpu_test(cuda_semiring_tile_grid 1200 "KOBALT_CUDA_SEMIRING_TILE_MIN=1;KOBALT_CUDA_SEMIRING_TILE_MIN_FLOAT=1;KOBALT_CUDA_SEMIRING_TILE_BLOCKS_PER_SM=1" test_cuda_semiring full)
kobalt_gpu_test(cuda_semiring_tile_grid32 1200 "KOBALT_CUDA_SEMIRING_TILE_MIN_FLOAT=24;KOBALT_CUDA_SEMIRING_TILE_BLOCKS_PER_SM=32" test_cuda_semiring full)

# Reliability on the GPU (docs/reliability.md): the concurrency stress on several CUDA
# streams, and CUDA faults, each in its own process (a sticky CUDA error spoils the
# context). RUN_SERIAL: the out-of-memory test fills the device, the stress test times itself.
find_package(Threads REQUIRED)
add_executable(test_cuda_stress ${CMAKE_CURRENT_SOURCE_DIR}/test_cuda_stress.cpp)
target_include_directories(test_cuda_stress PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_cuda_stress PRIVATE Kobalt::kobalt CUDA::cudart_static Threads::Threads)
add_executable(test_cuda_faults ${CMAKE_CURRENT_SOURCE_DIR}/test_cuda_faults.cpp)
target_link_libraries(test_cuda_faults PRIVATE Kobalt::kobalt CUDA::cudart_static)
target_include_directories(test_cuda_faults PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
add_dependencies(test_cuda_stress kobalt-cuda)
add_dependencies(test_cuda_faults kobalt-cuda)
set(KOBALT_CUDA_STRESS_SECONDS 20 CACHE STRING "Concurrent phase of the CUDA stress test, seconds")
# At most 20,000 operations per thread (the default 4,000 ended the concurrent phase after
# about 3 s on an H200); the single-stream replay afterwards takes about twice as long.
add_test(NAME cuda_stress COMMAND test_cuda_stress ${KOBALT_CUDA_STRESS_SECONDS} 8 20000)
foreach(mode illegal-address out-of-memory empty-operands)
  string(REPLACE "-" "_" name ${mode})
  add_test(NAME cuda_fault_${name} COMMAND test_cuda_faults ${mode})
  list(APPEND kobalt_cuda_reliability cuda_fault_${name})
endforeach()
set_tests_properties(cuda_stress ${kobalt_cuda_reliability} PROPERTIES
  LABELS "cuda" SKIP_RETURN_CODE 77 ENVIRONMENT "${KOBALT_TEST_ENV}" TIMEOUT 600 RUN_SERIAL ON)
