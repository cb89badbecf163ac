# Configures, builds and runs the consumer project SOURCE in BINARY (emptied first) against
# the kds installed in PREFIX, the way a user would: the only option is CMAKE_PREFIX_PATH.
# Fails if any step fails or prints a CMake or compiler warning.

# Runs one step; fails if it fails or its output holds a warning.
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code})")
  endif()
  string(TOLOWER "${out}${err}" text)
  if(text MATCHES "warning")
    message(FATAL_ERROR "${what} printed a warning (see above)")
  endif()
endfunction()

file(REMOVE_RECURSE ${BINARY})
run_step("configuring the consumer" ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -DCMAKE_PREFIX_PATH=${PREFIX})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${BINARY})
run_step("running the consumer" ${BINARY}/consumer)
