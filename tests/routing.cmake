# Memory-space routing: the OpenMP backend plus a fake "device" backend that owns one
# array of the test, so routing, mixed-space refusal, missing slots, the stream and
# kobalt_synchronize are tested without a GPU.
add_library(kobalt_test_fakedev MODULE ${CMAKE_CURRENT_SOURCE_DIR}/routing/fake_device_plugin.c)
target_include_directories(kobalt_test_fakedev PRIVATE ${PROJECT_SOURCE_DIR}/include)
# Outside lib/: only this test loads it, by naming the file in KOBALT_PLUGIN_PATH.
set_target_properties(kobalt_test_fakedev PROPERTIES
  PREFIX "" OUTPUT_NAME libkobalt-fakedev
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fakedev)

add_executable(test_routing test_routing.c)
target_link_libraries(test_routing PRIVATE Kobalt::kobalt PkgConfig::CMOCKA Threads::Threads)
target_compile_definitions(test_routing PRIVATE
  KOBALT_TEST_PLUGIN_DIR="${CMAKE_LIBRARY_OUTPUT_DIRECTORY}"
  KOBALT_FAKE_PLUGIN="$<TARGET_FILE:kobalt_test_fakedev>")
add_dependencies(test_routing kobalt_test_fakedev)
add_test(NAME api_routing COMMAND test_routing)
set_tests_properties(api_routing PROPERTIES LABELS "api")
