# The cuBLAS drop-in (shim/cublas, docs/cublas.md). Registered when the shim is built
# (CUDA toolkit found):
#   cublas_shim_symbols   the exported symbols are exactly exports.txt, unversioned (no GPU)
#   cublas_dropin_preload plain cuBLAS run, then the same program under LD_PRELOAD
#   cublas_dropin_linked  plain cuBLAS run, then its twin linked -lkobalt-cublas -lcublas
# The GPU tests exit 77 (skipped) without a device.
if(NOT TARGET kobalt-cublas)
  return()
endif()

add_test(NAME cublas_shim_symbols
  COMMAND ${CMAKE_COMMAND}
    -DLIBRARY=$<TARGET_FILE:kobalt-cublas>
    -DNM=${CMAKE_NM}
    -DEXPORTS=${PROJECT_SOURCE_DIR}/shim/cublas/exports.txt
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cublas/check_exports.cmake)
set_tests_properties(cublas_shim_symbols PROPERTIES LABELS "cublas")

# The test program knows only cublas_v2.h: no Kobalt include path, no Kobalt library
# (the linked twin gets the shim, nothing else of Kobalt, ahead of cuBLAS).
add_executable(test_cublas_dropin ${CMAKE_CURRENT_SOURCE_DIR}/cublas/test_cublas_dropin.cu)
target_link_libraries(test_cublas_dropin PRIVATE CUDA::cublas ${CMAKE_DL_LIBS})
add_executable(test_cublas_dropin_linked ${CMAKE_CURRENT_SOURCE_DIR}/cublas/test_cublas_dropin.cu)
target_link_libraries(test_cublas_dropin_linked PRIVATE kobalt-cublas CUDA::cublas ${CMAKE_DL_LIBS})
foreach(exe test_cublas_dropin test_cublas_dropin_linked)
  add_dependencies(${exe} kobalt-cuda)
endforeach()

set(kobalt_dropin ${CMAKE_CURRENT_SOURCE_DIR}/cublas/run_dropin.sh)
add_test(NAME cublas_dropin_preload
  COMMAND ${kobalt_dropin} $<TARGET_FILE:test_cublas_dropin> $<TARGET_FILE:test_cublas_dropin>
          ${CMAKE_CURRENT_BINARY_DIR}/cublas_dropin_preload.rec $<TARGET_FILE:kobalt-cublas>)
add_test(NAME cublas_dropin_linked
  COMMAND ${kobalt_dropin} $<TARGET_FILE:test_cublas_dropin> $<TARGET_FILE:test_cublas_dropin_linked>
          ${CMAKE_CURRENT_BINARY_DIR}/cublas_dropin_linked.rec)
set_tests_properties(cublas_dropin_preload cublas_dropin_linked PROPERTIES
  LABELS "cublas;cuda" SKIP_RETURN_CODE 77 ENVIRONMENT "${KOBALT_TEST_ENV}" TIMEOUT 600)
# The LD_PRELOAD run serves every size up to 32 (Kobalt's semantics on as many calls as
# possible, and Kobalt's own cuBLAS calls for gemm above 16 through the shim); the linked
# run keeps the shim's default ranges.
foreach(family GEMM GEMV TRSM GETRF GETRS GETRI MATINV)
  set_property(TEST cublas_dropin_preload APPEND PROPERTY ENVIRONMENT
    "KOBALT_CUBLAS_${family}_MIN=1" "KOBALT_CUBLAS_${family}_MAX=32")
endforeach()
