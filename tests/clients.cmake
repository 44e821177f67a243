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

# shortest_paths (min-plus squaring vs Floyd-Warshall), both layouts, a few graph sizes.
foreach(case "16;2000;0.3;row" "16;2000;0.3;col" "7;3001;0.5;row" "33;200;0.1;col" "1;10;0.5;row" "2;10;0.5;col")
  list(GET case 0 n)
  list(GET case 1 b)
  list(GET case 2 d)
  list(GET case 3 layout)
  set(args -n ${n} -b ${b} -d ${d} -r 1)
  if(layout STREQUAL "col")
    list(APPEND args -c)
  endif()
  add_test(NAME clients_shortest_paths_n${n}_${layout} COMMAND shortest_paths ${args})
  set_tests_properties(clients_shortest_paths_n${n}_${layout} PROPERTIES
    ENVIRONMENT "${KOBALT_TEST_ENV};OMP_WAIT_POLICY=PASSIVE" LABELS "clients")
endforeach()
