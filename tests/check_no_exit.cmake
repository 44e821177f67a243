# check_no_exit.cmake -- cmake -DLIB=<library> -DOBJDUMP=<objdump> -P check_no_exit.cmake
# A library must never end its host process. nvcc compiles a __device__-only call reached
# from host template code into a silent exit(1) (no diagnostic); this found one in the CUDA
# backend. Fails when any of Kobalt's own functions in LIB (a name containing "kobalt")
# calls exit, _exit, abort or quick_exit; the C++ runtime pieces a toolchain may link in
# statically (std::terminate, the unwinder) are not ours and are left alone.
# grep keeps only function headers and process-ending calls: a CMake loop over every line
# of the disassembly took 110 s on the host plugin (2 minutes more in a sanitized build).
find_program(GREP grep REQUIRED)
execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn ${LIB}
  COMMAND ${GREP} -E "^[0-9a-f]+ <.*>:$|call.*<(exit|_exit|_Exit|abort|quick_exit)@plt>"
  OUTPUT_VARIABLE dis RESULTS_VARIABLE rcs ERROR_VARIABLE err)
list(GET rcs 0 rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "objdump failed on ${LIB}: ${err}")
endif()
string(REPLACE "\n" ";" lines "${dis}")
set(fn "")
set(found "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-f]+ <(.*)>:$")
    set(fn "${CMAKE_MATCH_1}")
  elseif(line MATCHES "call.*<(exit|_exit|_Exit|abort|quick_exit)@plt>" AND fn MATCHES "kobalt")
    list(APPEND found "${fn}")
  endif()
endforeach()
if(found)
  list(REMOVE_DUPLICATES found)
  string(REPLACE ";" "\n  " found "${found}")
  message(FATAL_ERROR "${LIB}: Kobalt functions call a process-ending function:\n  ${found}")
endif()
message(STATUS "${LIB}: no Kobalt function calls exit/_exit/abort/quick_exit")
