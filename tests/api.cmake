# API-level tests: argument validation, plugin loading, dlopen use, exported symbols,
# concurrent callers. Included by tests/CMakeLists.txt, which defines KOBALT_TEST_ENV,
# PkgConfig::CMOCKA and Kobalt::blas_lapack.
find_package(Threads REQUIRED)

set(KOBALT_API_TEST_DIR ${CMAKE_CURRENT_SOURCE_DIR})
set(KOBALT_REAL_PLUGIN ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/${KOBALT_PLUGIN_PREFIX}openmp${CMAKE_SHARED_MODULE_SUFFIX})

# ---- argument validation, expanded from kobalt_routines.def ------------------------------
add_executable(test_arguments ${KOBALT_API_TEST_DIR}/test_arguments.c)
target_include_directories(test_arguments PRIVATE ${KOBALT_API_TEST_DIR})
target_link_libraries(test_arguments PRIVATE Kobalt::kobalt PkgConfig::CMOCKA)
target_compile_options(test_arguments PRIVATE -Wall -Wextra)
add_test(NAME api_args COMMAND test_arguments)
set_tests_properties(api_args PROPERTIES ENVIRONMENT "${KOBALT_TEST_ENV}" TIMEOUT 60)
# Strides whose byte offsets overflow: one process per case, a crash fails that case.
# Each child loads the library and its plugins: 31-40 s in CI's plain step, 47-55 s in its
# ASan step on an idle 2-core VM, and past 60 s there once with a build running beside it
# (session 39), hence 180.
add_test(NAME api_args_byte_overflow COMMAND test_arguments --isolated)
set_tests_properties(api_args_byte_overflow PROPERTIES ENVIRONMENT "${KOBALT_TEST_ENV}" TIMEOUT 180)

# ---- plugin discovery and loading ---------------------------------------------------------
# Broken plugins, kept out of the build's plugin folder; test_loading copies them into a
# temporary folder under libkobalt-*.so names.
foreach(variant NOGETTER NULLTABLE INITFAIL BADABI)
  string(TOLOWER ${variant} lower)
  add_library(test_loading_fake_${lower} MODULE ${KOBALT_API_TEST_DIR}/test_loading_plugin.c)
  target_compile_definitions(test_loading_fake_${lower} PRIVATE KOBALT_FAKE_${variant})
  target_include_directories(test_loading_fake_${lower} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  set_target_properties(test_loading_fake_${lower} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/loading_plugins
    C_VISIBILITY_PRESET hidden)
endforeach()

add_executable(test_loading ${KOBALT_API_TEST_DIR}/test_loading.c)
target_link_libraries(test_loading PRIVATE Kobalt::kobalt)
target_compile_options(test_loading PRIVATE -Wall -Wextra)
target_compile_definitions(test_loading PRIVATE
  KOBALT_TEST_REAL_PLUGIN="${KOBALT_REAL_PLUGIN}"
  KOBALT_TEST_FAKE_NOGETTER="$<TARGET_FILE:test_loading_fake_nogetter>"
  KOBALT_TEST_FAKE_NULLTABLE="$<TARGET_FILE:test_loading_fake_nulltable>"
  KOBALT_TEST_FAKE_INITFAIL="$<TARGET_FILE:test_loading_fake_initfail>"
  KOBALT_TEST_FAKE_BADABI="$<TARGET_FILE:test_loading_fake_badabi>")
add_dependencies(test_loading test_loading_fake_nogetter test_loading_fake_nulltable test_loading_fake_initfail
  test_loading_fake_badabi)

# One registration per environment. KOBALT_VERBOSE is unset in all of them (the child
# processes of "normal" and "plugin-dir" set it where they need it).
add_test(NAME api_loading_normal COMMAND test_loading normal)
set_tests_properties(api_loading_normal PROPERTIES
  ENVIRONMENT "${KOBALT_TEST_ENV}" ENVIRONMENT_MODIFICATION "KOBALT_VERBOSE=unset:;KOBALT_BACKENDS=unset:")
add_test(NAME api_loading_none COMMAND test_loading none)
set_tests_properties(api_loading_none PROPERTIES
  ENVIRONMENT "${KOBALT_TEST_ENV};KOBALT_BACKENDS=none" ENVIRONMENT_MODIFICATION "KOBALT_VERBOSE=unset:")
add_test(NAME api_loading_only_openmp COMMAND test_loading only-openmp)
set_tests_properties(api_loading_only_openmp PROPERTIES
  ENVIRONMENT "${KOBALT_TEST_ENV};KOBALT_BACKENDS=openmp" ENVIRONMENT_MODIFICATION "KOBALT_VERBOSE=unset:")
add_test(NAME api_loading_empty_path COMMAND test_loading empty-path)
set_tests_properties(api_loading_empty_path PROPERTIES
  ENVIRONMENT_MODIFICATION "KOBALT_PLUGIN_PATH=set:;KOBALT_VERBOSE=unset:;KOBALT_BACKENDS=unset:")
add_test(NAME api_loading_missing_dir COMMAND test_loading missing-dir)
set_tests_properties(api_loading_missing_dir PROPERTIES
  ENVIRONMENT "KOBALT_PLUGIN_PATH=${CMAKE_CURRENT_BINARY_DIR}/no-such-folder"
  ENVIRONMENT_MODIFICATION "KOBALT_VERBOSE=unset:;KOBALT_BACKENDS=unset:")
# KOBALT_PLUGIN_PATH unset: the folder libkobalt was loaded from (the build's lib/).
add_test(NAME api_loading_default_path COMMAND test_loading only-openmp)
set_tests_properties(api_loading_default_path PROPERTIES
  ENVIRONMENT_MODIFICATION "KOBALT_PLUGIN_PATH=unset:;KOBALT_VERBOSE=unset:;KOBALT_BACKENDS=unset:")
# A colon list with a missing folder and the same folder twice: openmp loads once.
add_test(NAME api_loading_colon_path COMMAND test_loading only-openmp)
set_tests_properties(api_loading_colon_path PROPERTIES
  ENVIRONMENT "KOBALT_PLUGIN_PATH=${CMAKE_CURRENT_BINARY_DIR}/no-such-folder:${CMAKE_LIBRARY_OUTPUT_DIRECTORY}:${CMAKE_LIBRARY_OUTPUT_DIRECTORY}"
  ENVIRONMENT_MODIFICATION "KOBALT_VERBOSE=unset:;KOBALT_BACKENDS=unset:")
# A plugin file named directly.
add_test(NAME api_loading_file_path COMMAND test_loading only-openmp)
set_tests_properties(api_loading_file_path PROPERTIES
  ENVIRONMENT "KOBALT_PLUGIN_PATH=${KOBALT_REAL_PLUGIN}"
  ENVIRONMENT_MODIFICATION "KOBALT_VERBOSE=unset:;KOBALT_BACKENDS=unset:")
# KOBALT_BACKENDS naming no existing backend: as none.
add_test(NAME api_loading_unknown_backend COMMAND test_loading none)
set_tests_properties(api_loading_unknown_backend PROPERTIES
  ENVIRONMENT "${KOBALT_TEST_ENV};KOBALT_BACKENDS=nosuch,alsonot" ENVIRONMENT_MODIFICATION "KOBALT_VERBOSE=unset:")
add_test(NAME api_loading_plugin_dir COMMAND test_loading plugin-dir)
set_tests_properties(api_loading_plugin_dir PROPERTIES
  ENVIRONMENT "${KOBALT_TEST_ENV}" ENVIRONMENT_MODIFICATION "KOBALT_VERBOSE=unset:;KOBALT_BACKENDS=unset:")

# ---- dlopen, without linking libkobalt ----------------------------------------------------
add_executable(test_dlopen ${KOBALT_API_TEST_DIR}/test_dlopen.c)
target_include_directories(test_dlopen PRIVATE ${PROJECT_SOURCE_DIR}/include)
# Kobalt::blas_lapack is imported in the directory that first included
# KobaltDependencies.cmake only (include_guard(GLOBAL)); fall back to the cached results.
if(TARGET Kobalt::blas_lapack)
  target_link_libraries(test_dlopen PRIVATE Kobalt::blas_lapack)
else()
  target_include_directories(test_dlopen PRIVATE ${KOBALT_CBLAS_INCLUDE_DIR} ${KOBALT_LAPACKE_INCLUDE_DIR})
  target_link_libraries(test_dlopen PRIVATE ${KOBALT_LAPACKE_LIBRARY} ${KOBALT_OPENBLAS_LIBRARY})
endif()
target_link_libraries(test_dlopen PRIVATE ${CMAKE_DL_LIBS} m)
target_compile_options(test_dlopen PRIVATE -Wall -Wextra)
target_compile_definitions(test_dlopen PRIVATE KOBALT_TEST_LIBRARY="$<TARGET_FILE:kobalt>")
add_dependencies(test_dlopen kobalt)
add_test(NAME api_dlopen COMMAND test_dlopen)
set_tests_properties(api_dlopen PROPERTIES ENVIRONMENT "${KOBALT_TEST_ENV}" TIMEOUT 60)

# ---- exported symbols: libkobalt exports exactly the public kobalt_* functions -----------
add_test(NAME api_exports
  COMMAND ${CMAKE_COMMAND}
    -DLIBRARY=$<TARGET_FILE:kobalt>
    -DPLUGIN=${KOBALT_REAL_PLUGIN}
    -DNM=${CMAKE_NM}
    -DROUTINES=${PROJECT_SOURCE_DIR}/include/kobalt/kobalt_routines.def
    -DHEADER=${PROJECT_SOURCE_DIR}/include/kobalt/kobalt.h
    -P ${KOBALT_API_TEST_DIR}/test_dlopen_exports.cmake)

# ---- concurrent callers -------------------------------------------------------------------
add_executable(test_threads ${KOBALT_API_TEST_DIR}/test_threads.c)
target_link_libraries(test_threads PRIVATE Kobalt::kobalt Threads::Threads)
target_compile_options(test_threads PRIVATE -Wall -Wextra)
add_test(NAME api_threads COMMAND test_threads)
set_tests_properties(api_threads PROPERTIES ENVIRONMENT "${KOBALT_TEST_ENV}" TIMEOUT 120)

# The tests need the OpenMP plugin in the build's lib/ folder.
if(TARGET kobalt-openmp)
  foreach(exe test_arguments test_loading test_dlopen test_threads)
    add_dependencies(${exe} kobalt-openmp)
  endforeach()
endif()

# ---- no process-ending calls in the library and the host plugin (check_no_exit.cmake) ----
if(KOBALT_OBJDUMP)
  add_test(NAME api_library_never_exits
    COMMAND ${CMAKE_COMMAND} -DLIB=$<TARGET_FILE:kobalt> -DOBJDUMP=${KOBALT_OBJDUMP}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/check_no_exit.cmake)
  if(TARGET kobalt-openmp)
    add_test(NAME api_openmp_plugin_never_exits
      COMMAND ${CMAKE_COMMAND} -DLIB=$<TARGET_FILE:kobalt-openmp> -DOBJDUMP=${KOBALT_OBJDUMP}
              -P ${CMAKE_CURRENT_SOURCE_DIR}/check_no_exit.cmake)
  endif()
endif()
