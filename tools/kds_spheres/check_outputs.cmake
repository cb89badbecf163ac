# Runs TOOL on SCENE with an unwritable --states path after writing "old" into the
# contacts file, and fails unless the run exits non-zero naming the states path and
# leaves the contacts file as it was (issue 12, item 2). Variables: TOOL, SCENE, OUT.
set(contacts ${OUT}/untouched-contacts.txt)
file(WRITE ${contacts} "old\n")
execute_process(COMMAND ${TOOL} ${SCENE} --until 4 --contacts ${contacts} --states ${OUT}/missing/dir/states.txt
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "kds_spheres exited with 0 with an unwritable --states")
endif()
if(NOT err MATCHES "cannot write '${OUT}/missing/dir/states.txt'")
  message(FATAL_ERROR "the error does not name the states file:\n${err}")
endif()
file(READ ${contacts} content)
if(NOT content STREQUAL "old\n")
  message(FATAL_ERROR "the contacts file was overwritten by a run that failed")
endif()
file(GLOB left ${OUT}/untouched-contacts.txt.tmp-*)
if(left)
  message(FATAL_ERROR "temporary files left behind: ${left}")
endif()
message(STATUS "the failed run left the contacts file untouched: ${err}")
