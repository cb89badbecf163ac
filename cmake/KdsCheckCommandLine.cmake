# Runs PROGRAM with ARGUMENTS (separated by "|") and fails unless it exits with EXIT_CODE
# and prints what matches the regular expression EXPECTED: on stdout for a success, on
# stderr for a failure.
# Used by kds_test_command_line() (cmake/KdsPrograms.cmake).
#
# REQUIRES (optional) names a file the check needs, such as /dev/full: where it does not
# exist the program is not run (as root it would create a plain file there) and the
# script prints "skipped: <file> does not exist on this machine", which the test's
# SKIP_REGULAR_EXPRESSION turns into a skip that CTest reports as one, not as a pass.
if(DEFINED REQUIRES AND NOT EXISTS "${REQUIRES}")
  message("skipped: ${REQUIRES} does not exist on this machine")
  return()
endif()
string(REPLACE "|" ";" arguments "${ARGUMENTS}")
execute_process(COMMAND ${PROGRAM} ${arguments} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code STREQUAL EXIT_CODE)
  message(FATAL_ERROR "'${PROGRAM} ${arguments}' exited with ${code}, not ${EXIT_CODE}:\n${out}${err}")
endif()
set(stream "${err}")
if(EXIT_CODE EQUAL 0)
  set(stream "${out}")
endif()
if(NOT stream MATCHES "${EXPECTED}")
  message(FATAL_ERROR "'${PROGRAM} ${arguments}' did not print '${EXPECTED}' where expected:\n"
                      "stdout:\n${out}\nstderr:\n${err}")
endif()
message(STATUS "'${PROGRAM} ${arguments}' exited with ${code} and printed what was expected")
