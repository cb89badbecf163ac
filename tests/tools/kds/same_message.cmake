# A bad scenario file through `kds run` with two structures (run with KDS=<kds>
# FILE=<scenario> STRUCTURES=<a|b> EXPECTED=<regex>): both exit with 1 and print the same
# message, which matches EXPECTED. The hard-sphere path must reject exactly what the
# collision world rejects, with the same words (issue 8, "Bad input").
string(REPLACE "|" ";" structures "${STRUCTURES}")
set(first "")
foreach(structure IN LISTS structures)
  execute_process(COMMAND ${KDS} run ${FILE} --structure ${structure} --no-progress RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "--structure ${structure}: exited with ${rc}, not 1:\n${out}${err}")
  endif()
  if(NOT err MATCHES "${EXPECTED}")
    message(FATAL_ERROR "--structure ${structure}: did not print '${EXPECTED}':\n${err}")
  endif()
  if(first STREQUAL "")
    set(first "${err}")
  elseif(NOT err STREQUAL first)
    message(FATAL_ERROR "the structures print different messages:\n${first}\n${err}")
  endif()
endforeach()
message(STATUS "ok: ${structures} print the same: ${first}")
