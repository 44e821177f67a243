# The install test: `cmake --install` this build tree into a temporary prefix, then
# build and run a consumer against the installed copy through pkg-config and through
# find_package(Kobalt). See tests/install/run_install_test.sh.
find_program(KOBALT_BASH bash REQUIRED)
find_program(KOBALT_PKG_CONFIG NAMES pkg-config pkgconf)
if(NOT KOBALT_PKG_CONFIG)
  message(WARNING "pkg-config not found: the install test is not registered")
  return()
endif()
add_test(NAME install
  COMMAND ${KOBALT_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/install/run_install_test.sh
          ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${CMAKE_COMMAND} ${CMAKE_C_COMPILER}
          "${CMAKE_GENERATOR}" "${CMAKE_MAKE_PROGRAM}" ${CMAKE_INSTALL_LIBDIR} ${PROJECT_VERSION})
set_tests_properties(install PROPERTIES
  TIMEOUT 300
  LABELS "install")
