# What the `kds` test scripts (run with cmake -P) share: include it, then
#   expect(<code> <regex> <command>...)
# runs the command and fails unless it exits with <code> and prints what matches <regex>
# (stdout and stderr together); the output is left in `expect_output` for further checks.
# The scripts start from an empty folder WORK.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(expect code expected)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${code}")
    message(FATAL_ERROR "'${ARGN}' exited with ${rc}, not ${code}:\n${out}${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${expected}")
    message(FATAL_ERROR "'${ARGN}' did not print '${expected}':\n${out}${err}")
  endif()
  message(STATUS "ok (exit ${rc}): ${ARGN}")
  set(expect_output "${out}${err}" PARENT_SCOPE)
endfunction()
