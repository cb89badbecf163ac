# Runs kds_spheres on one scene with several structures and all pairs, and fails unless
# all write the same collision log and the same final states: the brute-force twin check
# of the interchange tool. Variables: TOOL, SCENE, UNTIL, OUT (a directory), STRUCTURES
# (separated by "|"; default: the grid and box overlap).
file(MAKE_DIRECTORY ${OUT})
set(structures tvb-grid box-overlap)
if(DEFINED STRUCTURES)
  string(REPLACE "|" ";" structures "${STRUCTURES}")
endif()
foreach(bp ${structures} all-pairs)
  execute_process(COMMAND ${TOOL} ${SCENE} --until ${UNTIL} --broad-phase ${bp}
                          --contacts ${OUT}/contacts-${bp}.txt --states ${OUT}/states-${bp}.txt
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kds_spheres --broad-phase ${bp} failed (${rc})")
  endif()
endforeach()
file(STRINGS ${OUT}/contacts-all-pairs.txt lines)
list(LENGTH lines count)
if(count LESS 10)
  message(FATAL_ERROR "only ${count} contacts: the scene does not test much")
endif()
foreach(bp ${structures})
  foreach(what contacts states)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${what}-${bp}.txt ${OUT}/${what}-all-pairs.txt
                    RESULT_VARIABLE differ)
    if(NOT differ EQUAL 0)
      message(FATAL_ERROR "${bp} and all-pairs ${what} differ: ${OUT}/${what}-${bp}.txt ${OUT}/${what}-all-pairs.txt")
    endif()
  endforeach()
endforeach()
message(STATUS "${structures} and all-pairs agree on ${count} contacts and the final states")
