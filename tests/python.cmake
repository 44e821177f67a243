# Python bindings (python/): the pytest suite against the build tree, and an install
# test (pip install of the package, offline, against an installed copy of the build).
# Included by tests/CMakeLists.txt, which defines KOBALT_TEST_ENV.
#
# The interpreter must have numpy and pytest (Debian: python3-numpy, python3-pytest).
# Debian's /usr/bin/python3 is preferred over a python3 found on PATH (a pyenv or
# conda one often lacks numpy); -DKOBALT_PYTHON=/path/to/python3 chooses another.
set(_kobalt_py_candidates)
if(KOBALT_PYTHON)
  list(APPEND _kobalt_py_candidates ${KOBALT_PYTHON})
else()
  find_program(_kobalt_py_system NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH NO_CACHE)
  find_program(_kobalt_py_path NAMES python3 NO_CACHE)
  foreach(_py ${_kobalt_py_system} ${_kobalt_py_path})
    if(_py)
      list(APPEND _kobalt_py_candidates ${_py})
    endif()
  endforeach()
endif()

set(_kobalt_py "")
foreach(_py ${_kobalt_py_candidates})
  execute_process(COMMAND ${_py} -c "import numpy, pytest"
    RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
  if(_rc EQUAL 0)
    set(_kobalt_py ${_py})
    break()
  endif()
endforeach()
if(NOT _kobalt_py)
  message(STATUS "Python tests not registered: no python3 with numpy and pytest "
                 "(tried: ${_kobalt_py_candidates}; install python3-numpy python3-pytest "
                 "or set KOBALT_PYTHON)")
  return()
endif()
set(KOBALT_PYTHON ${_kobalt_py} CACHE FILEPATH "Python interpreter for the Python tests")
message(STATUS "Python tests: ${KOBALT_PYTHON}")

# No __pycache__ or .pytest_cache may appear in the source tree. The suite makes a few
# thousand small calls: with libgomp's default (active) waiting, each call of a
# two-thread team stalls for a time slice when the cores are busy with other work
# (a parallel build, ctest -j), which turns 1 s into a minute; passive waiting keeps
# the batch parallelism and the test fast.
set(_kobalt_py_env
  "${KOBALT_TEST_ENV}"
  "OMP_WAIT_POLICY=passive"
  "PYTHONPATH=${PROJECT_SOURCE_DIR}/python"
  "KOBALT_LIBRARY=$<TARGET_FILE:kobalt>"
  "KOBALT_ROUTINES_DEF=${PROJECT_SOURCE_DIR}/include/kobalt/kobalt_routines.def"
  "PYTHONDONTWRITEBYTECODE=1"
  "PYTHONNOUSERSITE=1")
add_test(NAME python_pytest
  COMMAND ${KOBALT_PYTHON} -m pytest -p no:cacheprovider -q -rs
          ${PROJECT_SOURCE_DIR}/python/tests
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(python_pytest PROPERTIES
  ENVIRONMENT "${_kobalt_py_env}"
  ENVIRONMENT_MODIFICATION "KOBALT_VERBOSE=unset:;KOBALT_BACKENDS=unset:"
  TIMEOUT 300
  LABELS "python")

# The install test needs pip and setuptools (python3-pip, python3-setuptools); pip runs
# offline (--no-index) with the system's setuptools (--no-build-isolation).
execute_process(COMMAND ${KOBALT_PYTHON} -c "import setuptools.build_meta, pip"
  RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
if(NOT _rc EQUAL 0)
  message(STATUS "Python install test not registered: ${KOBALT_PYTHON} lacks pip or setuptools")
  return()
endif()
find_program(KOBALT_BASH bash REQUIRED)
add_test(NAME python_install
  COMMAND ${KOBALT_BASH} ${PROJECT_SOURCE_DIR}/python/tests/run_install_test.sh
          ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${KOBALT_PYTHON} ${CMAKE_COMMAND}
          ${CMAKE_INSTALL_LIBDIR})
# cmake --install writes install_manifest.txt into the build tree: one at a time.
set_tests_properties(python_install PROPERTIES
  TIMEOUT 300
  RESOURCE_LOCK kobalt_build_tree_install
  LABELS "python;install")
