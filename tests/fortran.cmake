# The Fortran tests (fortran/, docs/fortran.md), registered only when Kobalt is built
# with Fortran (KOBALT_BUILD_FORTRAN, on when a Fortran compiler is found).
#   fortran_module         tests/fortran/test_fortran.f90 built in the build tree
#   fortran_element_solve  examples/element_solve.f90 (a small batch)
#   fortran_install        install into a temporary prefix; build both programs with the
#                          Fortran compiler through pkg-config kobalt-fortran and through
#                          find_package(Kobalt COMPONENTS Fortran); run them
if(NOT TARGET kobalt_fortran)
  message(STATUS "Kobalt is built without Fortran: the Fortran tests are not registered")
  return()
endif()

add_executable(test_fortran fortran/test_fortran.f90)
target_link_libraries(test_fortran PRIVATE Kobalt::kobalt_fortran)
set_target_properties(test_fortran PROPERTIES
  Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/mod-test_fortran)
add_test(NAME fortran_module COMMAND test_fortran)
set_tests_properties(fortran_module PROPERTIES
  ENVIRONMENT "${KOBALT_TEST_ENV}"
  TIMEOUT 60
  LABELS "fortran")

if(TARGET element_solve_fortran)
  add_test(NAME fortran_element_solve COMMAND element_solve_fortran -b 5000 -r 1)
  set_tests_properties(fortran_element_solve PROPERTIES
    ENVIRONMENT "${KOBALT_TEST_ENV}"
    TIMEOUT 120
    LABELS "fortran")
endif()

find_program(KOBALT_BASH bash REQUIRED)
add_test(NAME fortran_install
  COMMAND ${KOBALT_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/fortran/run_fortran_install_test.sh
          ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${CMAKE_COMMAND} ${CMAKE_Fortran_COMPILER}
          "${CMAKE_GENERATOR}" "${CMAKE_MAKE_PROGRAM}" ${CMAKE_INSTALL_LIBDIR} ${PROJECT_VERSION})
# `cmake --install` of this build tree configures kobalt.pc and kobalt-fortran.pc (and
# writes install_manifest.txt) inside the build tree: two installs at once (this test,
# `install`, `python_install`) would write each other's prefix into them, hence the
# lock, shared with those tests.
set_tests_properties(fortran_install PROPERTIES
  TIMEOUT 300
  SKIP_RETURN_CODE 77
  RESOURCE_LOCK kobalt_build_tree_install
  LABELS "fortran;install")
if(TEST install)
  set_property(TEST install APPEND PROPERTY RESOURCE_LOCK kobalt_build_tree_install)
endif()
