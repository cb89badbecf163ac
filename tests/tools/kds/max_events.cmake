# `kds run --max-events N` (docs/cli.md): run with KDS=<kds> WORK=<folder> SCENARIOS=<folder>.
#  1. a budget of exactly the run's events lets it finish; one less stops it with exit 1
#     and a message naming the option, and no output file is left (trace, contacts, XYZ);
#  2. the same with hard-spheres;
#  3. values that are not counts are refused with exit 2 naming the option.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(), an empty WORK

set(bullet ${SCENARIOS}/bullet.json)
# 1. The collision world: the summary's total is the budget's count.
expect(0 "total +[0-9]+" ${KDS} run ${bullet} --no-progress)
string(REGEX MATCH "total +([0-9]+)" line "${expect_output}")
set(total ${CMAKE_MATCH_1})
math(EXPR less "${total} - 1")
expect(0 "total +${total}" ${KDS} run ${bullet} --max-events ${total} --no-progress)
expect(1 "more than ${less} events \\(--max-events\\) by t = .*no output written" ${KDS} run ${bullet}
       --max-events ${less} --trace ${WORK}/t.jsonl --replay ${WORK}/r.jsonl --contacts ${WORK}/c.csv
       --export-xyz ${WORK}/x.xyz --states ${WORK}/s.txt --no-progress)
foreach(file t.jsonl r.jsonl c.csv x.xyz s.txt)
  if(EXISTS ${WORK}/${file})
    message(FATAL_ERROR "--max-events stopped the run, and ${file} was left behind")
  endif()
endforeach()
message(STATUS "ok: ${total} events pass a budget of ${total} and are stopped by ${less}, no output left")

# 2. hard-spheres: stopped, nothing written; a large budget passes.
expect(1 "more than 5 events \\(--max-events\\).*no output written" ${KDS} run ${bullet} --structure hard-spheres
       --max-events 5 --contacts ${WORK}/c.csv --export-xyz ${WORK}/x.xyz --no-progress)
foreach(file c.csv x.xyz)
  if(EXISTS ${WORK}/${file})
    message(FATAL_ERROR "--max-events stopped hard-spheres, and ${file} was left behind")
  endif()
endforeach()
expect(0 "Structure hard-spheres" ${KDS} run ${bullet} --structure hard-spheres --max-events 1000000 --no-progress)

# 3. Not a count.
foreach(bad -1 abc 1.5)
  expect(2 "--max-events: must be a non-negative integer, not '${bad}'" ${KDS} run ${bullet} --max-events ${bad})
endforeach()
