# Reliability tests (issue 7, host part; docs/reliability.md): fuzzing, integer safety,
# concurrency stress, faults, hostile numerics, repeated dlopen/dlclose. Included by
# tests/CMakeLists.txt, which defines KOBALT_TEST_ENV and PkgConfig::CMOCKA.
find_package(Threads REQUIRED)
include(CheckCXXSourceCompiles)

set(KOBALT_FUZZ_SECONDS 20 CACHE STRING "Length of the short libFuzzer run (fuzz_short test)")

set(rel_dir ${CMAKE_CURRENT_SOURCE_DIR})
set(rel_plugin ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/${KOBALT_PLUGIN_PREFIX}openmp${CMAKE_SHARED_MODULE_SUFFIX})
# The sanitized configuration: -fsanitize=address in the flags (LD_PRELOAD allocators do
# not mix with ASan's, and RSS bounds mean nothing under its quarantine).
string(FIND "${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS}" "-fsanitize=address" rel_asan_pos)
if(rel_asan_pos GREATER -1)
  set(rel_asan ON)
else()
  set(rel_asan OFF)
endif()
# Only the host backend, whatever else the plugin folder holds.
set(rel_env "${KOBALT_TEST_ENV}" "KOBALT_BACKENDS=openmp" "OMP_WAIT_POLICY=PASSIVE")

# ---- fuzzing ------------------------------------------------------------------------------
# kobalt_fuzz_replay (any compiler) replays the corpus and the regression inputs in every
# configuration; with clang, kobalt_fuzz is the libFuzzer binary and fuzz_short a short
# campaign (only in a sanitized build: there it catches what the replay cannot).
add_executable(kobalt_fuzz_replay ${rel_dir}/fuzz/fuzz_api.cpp ${rel_dir}/fuzz/replay_main.cpp)
target_link_libraries(kobalt_fuzz_replay PRIVATE Kobalt::kobalt)
target_include_directories(kobalt_fuzz_replay PRIVATE ${rel_dir})  # common/kt_api.hpp
target_compile_options(kobalt_fuzz_replay PRIVATE -Wall -Wextra)
add_test(NAME fuzz_replay_corpus
  COMMAND kobalt_fuzz_replay ${rel_dir}/fuzz/corpus ${rel_dir}/fuzz/regressions)
add_test(NAME fuzz_replay_random COMMAND kobalt_fuzz_replay --random 3000)
set_tests_properties(fuzz_replay_corpus fuzz_replay_random PROPERTIES ENVIRONMENT "${rel_env}" TIMEOUT 300)

if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  check_cxx_source_compiles(
    "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) { return 0; }"
    KOBALT_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  if(KOBALT_HAVE_LIBFUZZER)
    add_executable(kobalt_fuzz ${rel_dir}/fuzz/fuzz_api.cpp)
    target_link_libraries(kobalt_fuzz PRIVATE Kobalt::kobalt)
    target_include_directories(kobalt_fuzz PRIVATE ${rel_dir})
    target_compile_options(kobalt_fuzz PRIVATE -fsanitize=fuzzer)
    target_link_options(kobalt_fuzz PRIVATE -fsanitize=fuzzer)
    add_test(NAME fuzz_corpus COMMAND kobalt_fuzz -runs=0 ${rel_dir}/fuzz/corpus ${rel_dir}/fuzz/regressions)
    set_tests_properties(fuzz_corpus PROPERTIES ENVIRONMENT "${rel_env}" TIMEOUT 300)
    if(rel_asan)
      # New inputs go to a scratch folder of the build, never into the source corpus.
      file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz-new)
      add_test(NAME fuzz_short
        COMMAND kobalt_fuzz -max_total_time=${KOBALT_FUZZ_SECONDS} -print_final_stats=1
                ${CMAKE_CURRENT_BINARY_DIR}/fuzz-new ${rel_dir}/fuzz/corpus)
      set_tests_properties(fuzz_short PROPERTIES ENVIRONMENT "${rel_env}" TIMEOUT 600)
    endif()
  endif()
endif()

# ---- integer safety -------------------------------------------------------------------------
add_executable(test_overflow ${rel_dir}/reliability/test_overflow.cpp)
target_link_libraries(test_overflow PRIVATE Kobalt::kobalt)
target_include_directories(test_overflow PRIVATE ${rel_dir})
target_compile_options(test_overflow PRIVATE -Wall -Wextra)
add_test(NAME reliability_overflow COMMAND test_overflow)
set_tests_properties(reliability_overflow PROPERTIES ENVIRONMENT "${rel_env}" TIMEOUT 120)

# ---- concurrency stress ---------------------------------------------------------------------
add_executable(test_stress ${rel_dir}/test_stress.cpp)
target_include_directories(test_stress PRIVATE ${rel_dir})
find_package(OpenMP REQUIRED COMPONENTS CXX)
target_link_libraries(test_stress PRIVATE Kobalt::kobalt Threads::Threads OpenMP::OpenMP_CXX)
target_compile_options(test_stress PRIVATE -Wall -Wextra)
set(KOBALT_STRESS_SECONDS 10 CACHE STRING "Concurrent phase of each stress test, seconds")
add_test(NAME reliability_stress COMMAND test_stress ${KOBALT_STRESS_SECONDS} 16 threads)
add_test(NAME reliability_stress_openmp COMMAND test_stress ${KOBALT_STRESS_SECONDS} 16 openmp)
set_tests_properties(reliability_stress reliability_stress_openmp PROPERTIES
  ENVIRONMENT "${rel_env}" TIMEOUT 600 RUN_SERIAL ON)
# gemm_semiring alone for 3 s (its per-thread panel scratch, results against a reference):
# from std::threads, and from a host OpenMP team whose calls' own loops start nested teams
# (OMP_MAX_ACTIVE_LEVELS=2: caller numbers up to 15 and the call's team numbers at once).
add_test(NAME reliability_stress_semiring COMMAND test_stress 3 16 threads semiring)
add_test(NAME reliability_stress_semiring_openmp COMMAND test_stress 3 16 openmp semiring)
set_tests_properties(reliability_stress_semiring PROPERTIES
  ENVIRONMENT "${rel_env}" TIMEOUT 300 RUN_SERIAL ON)
set_tests_properties(reliability_stress_semiring_openmp PROPERTIES
  ENVIRONMENT "${rel_env};OMP_MAX_ACTIVE_LEVELS=2" TIMEOUT 300 RUN_SERIAL ON)

# ---- faults -----------------------------------------------------------------------------------
foreach(variant SHORT NULLSLOT DUP)
  string(TOLOWER ${variant} lower)
  add_library(test_fault_${lower} MODULE ${rel_dir}/reliability/fault_plugin.c)
  target_compile_definitions(test_fault_${lower} PRIVATE KOBALT_FAULT_${variant})
  target_include_directories(test_fault_${lower} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  set_target_properties(test_fault_${lower} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fault_plugins
    PREFIX "" OUTPUT_NAME libkobalt-fault${lower} C_VISIBILITY_PRESET hidden)
endforeach()
add_executable(test_faults ${rel_dir}/test_faults.c)
target_link_libraries(test_faults PRIVATE Kobalt::kobalt ${CMAKE_DL_LIBS})
target_compile_options(test_faults PRIVATE -Wall -Wextra)
add_dependencies(test_faults test_fault_short test_fault_nullslot test_fault_dup)
set(fault_dir ${CMAKE_CURRENT_BINARY_DIR}/fault_plugins)
add_test(NAME faults_short_table COMMAND test_faults short-table)
set_tests_properties(faults_short_table PROPERTIES
  ENVIRONMENT "KOBALT_PLUGIN_PATH=${fault_dir}/libkobalt-faultshort.so" ENVIRONMENT_MODIFICATION "KOBALT_BACKENDS=unset:")
add_test(NAME faults_null_slot COMMAND test_faults null-slot)
set_tests_properties(faults_null_slot PROPERTIES
  ENVIRONMENT "KOBALT_PLUGIN_PATH=${fault_dir}/libkobalt-faultnullslot.so" ENVIRONMENT_MODIFICATION "KOBALT_BACKENDS=unset:")
add_test(NAME faults_dup_name COMMAND test_faults dup-name)
set_tests_properties(faults_dup_name PROPERTIES
  ENVIRONMENT "KOBALT_PLUGIN_PATH=${rel_plugin}:${fault_dir}/libkobalt-faultdup.so"
  ENVIRONMENT_MODIFICATION "KOBALT_BACKENDS=unset:")

# Allocation failure: an LD_PRELOAD shim (not under ASan, whose allocator it would bypass).
if(NOT rel_asan)
  add_library(kobalt_failing_malloc SHARED ${rel_dir}/reliability/failing_malloc.c)
  set_target_properties(kobalt_failing_malloc PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/shims C_VISIBILITY_PRESET hidden)
  add_dependencies(test_faults kobalt_failing_malloc)
  # The vendor getrf and fused paths allocate their row-major LU scratch: force them (the
  # direct LU, checked before the small/vendor choice, off too).
  set(oom_env "${rel_env}" "LD_PRELOAD=$<TARGET_FILE:kobalt_failing_malloc>" "KOBALT_GETRF_SMALL_MAX=0"
    "KOBALT_GETRF_DIRECT_MAX=0" "KOBALT_GEMM_LU_TRSV_SMALL_MAX=0" "KOBALT_FEW_ITEMS_LARGE_MIN=1000000000")
  add_test(NAME faults_oom COMMAND test_faults oom)
  set_tests_properties(faults_oom PROPERTIES ENVIRONMENT "${oom_env}" SKIP_RETURN_CODE 77 TIMEOUT 120)
  # Allocation failures while the first call loads the backends: a plugin with no
  # dependency but libc (the real one's dependencies exit or throw from their own
  # initialisation when malloc fails: docs/reliability.md).
  add_test(NAME faults_oom_loading COMMAND test_faults oom-loading)
  set_tests_properties(faults_oom_loading PROPERTIES
    ENVIRONMENT "KOBALT_PLUGIN_PATH=${fault_dir}/libkobalt-faultnullslot.so;LD_PRELOAD=$<TARGET_FILE:kobalt_failing_malloc>"
    ENVIRONMENT_MODIFICATION "KOBALT_BACKENDS=unset:" SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()

# ---- numerics -------------------------------------------------------------------------------
add_executable(test_numerics ${rel_dir}/test_numerics.cpp)
target_include_directories(test_numerics PRIVATE ${rel_dir})
if(TARGET Kobalt::blas_lapack)
  target_link_libraries(test_numerics PRIVATE Kobalt::blas_lapack)
else()
  target_include_directories(test_numerics PRIVATE ${KOBALT_CBLAS_INCLUDE_DIR} ${KOBALT_LAPACKE_INCLUDE_DIR})
  target_link_libraries(test_numerics PRIVATE ${KOBALT_LAPACKE_LIBRARY} ${KOBALT_OPENBLAS_LIBRARY})
endif()
target_link_libraries(test_numerics PRIVATE Kobalt::kobalt)
target_compile_options(test_numerics PRIVATE -Wall -Wextra)
foreach(variant default vendor small)
  set(env ${rel_env})
  if(variant STREQUAL "vendor")
    list(APPEND env "KOBALT_GETRF_SMALL_MAX=0" "KOBALT_GETRS_SMALL_MAX=0" "KOBALT_GEMM_LU_TRSV_SMALL_MAX=0"
      "KOBALT_GETRS_DIRECT_MAX=0" "KOBALT_GETRS_TINY_MAX=0")
  elseif(variant STREQUAL "small")
    list(APPEND env "KOBALT_GETRF_SMALL_MAX=1000000" "KOBALT_GETRS_SMALL_MAX=1000000"
      "KOBALT_GEMM_LU_TRSV_SMALL_MAX=1000000" "KOBALT_GETRS_DIRECT_MAX=1000000"
      "KOBALT_GETRS_TINY_MAX=1000000")
  endif()
  add_test(NAME reliability_numerics_${variant} COMMAND test_numerics)
  set_tests_properties(reliability_numerics_${variant} PROPERTIES ENVIRONMENT "${env}" TIMEOUT 300)
endforeach()

# ---- repeated dlopen/dlclose ----------------------------------------------------------------
add_executable(test_dlopen_cycles ${rel_dir}/reliability/test_dlopen_cycles.c)
target_include_directories(test_dlopen_cycles PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(test_dlopen_cycles PRIVATE ${CMAKE_DL_LIBS})
target_compile_options(test_dlopen_cycles PRIVATE -Wall -Wextra)
target_compile_definitions(test_dlopen_cycles PRIVATE KOBALT_TEST_LIBRARY="$<TARGET_FILE:kobalt>")
add_dependencies(test_dlopen_cycles kobalt)
# Under ASan the RSS bound means nothing (freed memory sits in its quarantine): LSan
# checks for leaks there instead.
if(rel_asan)
  add_test(NAME reliability_dlopen_cycles COMMAND test_dlopen_cycles 200 0)
else()
  add_test(NAME reliability_dlopen_cycles COMMAND test_dlopen_cycles 200 4096)
endif()
set_tests_properties(reliability_dlopen_cycles PROPERTIES ENVIRONMENT "${rel_env}" TIMEOUT 300)

if(TARGET kobalt-openmp)
  foreach(exe kobalt_fuzz_replay test_overflow test_stress test_faults test_numerics test_dlopen_cycles)
    add_dependencies(${exe} kobalt-openmp)
  endforeach()
  if(TARGET kobalt_fuzz)
    add_dependencies(kobalt_fuzz kobalt-openmp)
  endif()
endif()
