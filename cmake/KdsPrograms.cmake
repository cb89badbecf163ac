# kds_add_program(<name> <source>...): an example, tool or benchmark. It links kds and CLI11,
# the one option parser of all programs (their shared validators and error handling are in
# examples/common/command_line.hpp), and gets the project's warnings.
function(kds_add_program name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE kds::kds CLI11::CLI11)
  kds_target_warnings(${name})
endfunction()

# kds_test_command_line(<program> <expected message> <bad arguments>...): two CTest checks
# of the command-line contract that examples/common/command_line.hpp keeps for every
# program: `--help` exits with 0 and prints the usage; the bad arguments exit with 2 and
# print a message matching <expected message> (a regular expression) on stderr.
function(kds_test_command_line program expected)
  if(NOT KDS_BUILD_TESTS)
    return()
  endif()
  set(script ${PROJECT_SOURCE_DIR}/cmake/KdsCheckCommandLine.cmake)
  add_test(NAME ${program}_help
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${program}> -DARGUMENTS=--help -DEXIT_CODE=0
                   "-DEXPECTED=Usage:" -P ${script})
  string(REPLACE ";" "|" arguments "${ARGN}")  # one -D value; the script splits it again
  add_test(NAME ${program}_bad_input
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${program}> "-DARGUMENTS=${arguments}" -DEXIT_CODE=2
                   "-DEXPECTED=${expected}" -P ${script})
endfunction()
