# Installation of the core: libkobalt (with its SONAME links), the public headers,
# pkg-config and CMake package files. Each backend installs its own plugin into
# CMAKE_INSTALL_LIBDIR next to libkobalt (backends/<name>/CMakeLists.txt), where the
# core finds it at run time.
#
# After `cmake --install <build> --prefix <p>`:
#   <p>/<libdir>/libkobalt.so -> libkobalt.so.0 -> libkobalt.so.<version>
#   <p>/<libdir>/libkobalt-<backend>.so
#   <p>/include/kobalt/{kobalt.h,kobalt_backend.h,kobalt_expand.h,kobalt_routines.def,kobalt_routines_all.def}
#   <p>/<libdir>/pkgconfig/kobalt.pc
#   <p>/<libdir>/cmake/Kobalt/{KobaltConfig,KobaltConfigVersion,KobaltTargets*}.cmake
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KOBALT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/Kobalt"
  CACHE STRING "Where the Kobalt CMake package files are installed (relative to the prefix)")

install(TARGETS kobalt
  EXPORT KobaltTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    COMPONENT Runtime
    NAMELINK_COMPONENT Development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
# (The include directory of Kobalt::kobalt comes from the target's INSTALL_INTERFACE.)

file(GLOB kobalt_public_headers
  ${PROJECT_SOURCE_DIR}/include/kobalt/*.h
  ${PROJECT_SOURCE_DIR}/include/kobalt/*.def)
install(FILES ${kobalt_public_headers}
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kobalt
  COMPONENT Development)

# --- CMake package: find_package(Kobalt) gives Kobalt::kobalt ----------------------
# libkobalt links libdl and pthread privately; a shared library's private links are
# not part of the exported interface, so the package has no dependencies to find.
install(EXPORT KobaltTargets
  NAMESPACE Kobalt::
  FILE KobaltTargets.cmake
  DESTINATION ${KOBALT_INSTALL_CMAKEDIR}
  COMPONENT Development)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/KobaltConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/KobaltConfig.cmake
  INSTALL_DESTINATION ${KOBALT_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
# The soname carries the major version only, so any release of the same major
# version is accepted.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/KobaltConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/KobaltConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/KobaltConfigVersion.cmake
  DESTINATION ${KOBALT_INSTALL_CMAKEDIR}
  COMPONENT Development)

# --- pkg-config --------------------------------------------------------------------
# The prefix is only known at install time (`cmake --install --prefix` overrides the
# configured one), so kobalt.pc is configured by the install script itself.
install(CODE "
  set(KOBALT_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(KOBALT_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(KOBALT_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  if(NOT IS_ABSOLUTE \"\${KOBALT_PC_LIBDIR}\")
    set(KOBALT_PC_LIBDIR \"\\\${prefix}/\${KOBALT_PC_LIBDIR}\")
  endif()
  if(NOT IS_ABSOLUTE \"\${KOBALT_PC_INCLUDEDIR}\")
    set(KOBALT_PC_INCLUDEDIR \"\\\${prefix}/\${KOBALT_PC_INCLUDEDIR}\")
  endif()
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  set(PROJECT_DESCRIPTION \"${PROJECT_DESCRIPTION}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/pkgconfig/kobalt.pc.in\"
                 \"${PROJECT_BINARY_DIR}/pkgconfig/kobalt.pc\" @ONLY)
" COMPONENT Development)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/kobalt.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
  COMPONENT Development)

# --- documentation -----------------------------------------------------------------
foreach(doc README.md LICENSE docs/api.md docs/architecture.md docs/performance.md)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${doc})
    install(FILES ${PROJECT_SOURCE_DIR}/${doc} DESTINATION ${CMAKE_INSTALL_DOCDIR}
      COMPONENT Documentation)
  endif()
endforeach()
