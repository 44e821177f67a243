# The example programs, run from the build tree: the C consumer linked and through
# dlopen of the SONAME, and the element_solve demo (fused call vs three calls) on
# small batches in both layouts and a few shapes.
if(NOT KOBALT_BUILD_EXAMPLES)
  return()
endif()
add_test(NAME clients_batched_solve COMMAND batched_solve)
add_test(NAME clients_batched_solve_dlopen COMMAND batched_solve_dlopen)
add_test(NAME clients_batched_solve_no_backend COMMAND batched_solve_dlopen --no-backend)
set_tests_properties(clients_batched_solve clients_batched_solve_dlopen PROPERTIES
  ENVIRONMENT "${KOBALT_TEST_ENV};LD_LIBRARY_PATH=${CMAKE_LIBRARY_OUTPUT_DIRECTORY}")
set_tests_properties(clients_batched_solve_no_backend PROPERTIES
  ENVIRONMENT "KOBALT_PLUGIN_PATH=;LD_LIBRARY_PATH=${CMAKE_LIBRARY_OUTPUT_DIRECTORY}")

foreach(case "8;8;1;row" "8;8;1;col" "5;3;4;row" "33;20;2;col" "1;1;1;row")
  list(GET case 0 n)
  list(GET case 1 k)
  list(GET case 2 nrhs)
  list(GET case 3 layout)
  set(args -n ${n} -k ${k} -s ${nrhs} -b 3001 -r 2)
  if(layout STREQUAL "col")
    list(APPEND args -c)
  endif()
  add_test(NAME clients_element_solve_n${n}_k${k}_s${nrhs}_${layout} COMMAND element_solve ${args})
  set_tests_properties(clients_element_solve_n${n}_k${k}_s${nrhs}_${layout} PROPERTIES
    ENVIRONMENT "${KOBALT_TEST_ENV};OMP_WAIT_POLICY=PASSIVE" LABELS "clients")
endforeach()
