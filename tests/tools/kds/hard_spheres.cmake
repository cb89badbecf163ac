# `kds run --structure hard-spheres` (structures/hard_spheres, docs/cli.md): run with
# KDS=<kds> WORK=<folder> SCENARIOS=<folder>.
#  1. scenario files run with hard-spheres and with all-pairs, the reference: the same
#     contact CSV, final states and XYZ frames, byte for byte; the summary prints the
#     hard-sphere statistics, and an audited run is audited after every event;
#  2. what hard-spheres cannot do is refused with exit 1 and a message naming the setting:
#     gravity, unknown trajectories, the planar response, --trace, --replay, and a trace
#     whose header names hard-spheres (kds replay --check); no trace file is left behind.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(), an empty WORK

function(same a b)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${a} ${b} RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "hard-spheres and all-pairs differ: ${a} ${b}")
  endif()
endfunction()

# 1. The same answers as the reference.
expect(0 "wrote" ${KDS} generate paper-box --ballistic --n 200 --seed 3 --until 2 -o ${WORK}/box.json)
expect(0 "wrote" ${KDS} generate pool-break --3d -o ${WORK}/pool.json)
foreach(scenario ${SCENARIOS}/bullet.json ${SCENARIOS}/two_spheres.json ${WORK}/box.json ${WORK}/pool.json)
  get_filename_component(name ${scenario} NAME_WE)
  foreach(structure all-pairs hard-spheres)
    set(out ${WORK}/${name}-${structure})
    expect(0 "Structure ${structure}, elastic response" ${KDS} run ${scenario} --structure ${structure}
           --contacts ${out}.csv --states ${out}.states --export-xyz ${out}.xyz --frames 5 --no-progress)
  endforeach()
  foreach(what csv states xyz)
    same(${WORK}/${name}-all-pairs.${what} ${WORK}/${name}-hard-spheres.${what})
  endforeach()
  file(STRINGS ${WORK}/${name}-hard-spheres.csv lines)
  list(LENGTH lines count)
  math(EXPR count "${count} - 1")
  message(STATUS "ok: ${name}: ${count} contacts, the same with hard-spheres and all-pairs")
  if(count LESS 3)
    message(FATAL_ERROR "${name}: only ${count} contacts: too short a run to compare")
  endif()
endforeach()
file(STRINGS ${WORK}/box-hard-spheres.csv lines)
list(LENGTH lines count)
if(count LESS 100)
  message(FATAL_ERROR "box.json: only ${count} lines of contacts: the generated scene no longer tests much")
endif()
# Audited as the collision world is: after every event (passed or skipped), and at the end
# of every run_until (each of the 4 frames), plus once after the setup.
expect(0 "Structure hard-spheres, elastic response, simulated until t = 2, audited.*cell crossing.*Exact fallbacks: [0-9]+ of [0-9]+ failure times.*Audits: [0-9]+ passed, [0-9]+ skipped.*stale events: +[0-9]+"
       ${KDS} run ${WORK}/box.json --structure hard-spheres --audit --export-xyz ${WORK}/audited.xyz --frames 4 --no-progress)
string(REGEX MATCH "total +([0-9]+)" _ "${expect_output}")
set(events ${CMAKE_MATCH_1})
string(REGEX MATCH "Audits: ([0-9]+) passed, ([0-9]+) skipped" _ "${expect_output}")
math(EXPR audits "${CMAKE_MATCH_1} + ${CMAKE_MATCH_2}")
math(EXPR expected_audits "${events} + 4 + 1")
if(NOT audits EQUAL expected_audits OR CMAKE_MATCH_1 LESS 100)
  message(FATAL_ERROR "box.json: ${CMAKE_MATCH_1} audits passed and ${CMAKE_MATCH_2} skipped for ${events} events and 4 "
                      "frames; expected one after every event, every frame and the setup:\n${expect_output}")
endif()

# 2. Refusals, each naming what hard-spheres cannot do.
file(READ ${SCENARIOS}/two_spheres.json two)
string(REPLACE "\"until\": 4," "\"until\": 4, \"gravity\": [0, 0, -9.81]," gravity "${two}")
file(WRITE ${WORK}/gravity.json "${gravity}")
expect(0 "Structure all-pairs" ${KDS} run ${WORK}/gravity.json --structure all-pairs --no-progress)
expect(1 "kds run: hard-spheres: gravity must be 0" ${KDS} run ${WORK}/gravity.json --structure hard-spheres --no-progress)
expect(0 "wrote" ${KDS} generate paper-box --n 10 --seed 3 --until 0.1 -o ${WORK}/unknown.json)
expect(1 "sphere 0: has an unknown trajectory \\(max_acceleration > 0\\); hard-spheres takes ballistic spheres only" ${KDS} run ${WORK}/unknown.json
       --structure hard-spheres --no-progress)
expect(1 "\"response\": \"planar\": the structure hard-spheres answers contacts with the elastic response"
       ${KDS} run ${SCENARIOS}/rolling_marbles.json --structure hard-spheres --no-progress)
expect(1 "kds run: --trace: needs the events of a kds::Simulator, and the structure hard-spheres runs its own event loop"
       ${KDS} run ${SCENARIOS}/two_spheres.json --structure hard-spheres --trace ${WORK}/refused.jsonl --no-progress)
expect(1 "kds run: --replay: needs the events of a kds::Simulator"
       ${KDS} run ${SCENARIOS}/two_spheres.json --structure hard-spheres --replay ${WORK}/refused.replay.jsonl --no-progress)
foreach(file refused.jsonl refused.replay.jsonl)
  if(EXISTS ${WORK}/${file})
    message(FATAL_ERROR "a refused run left ${WORK}/${file} behind")
  endif()
endforeach()
# A trace of all-pairs whose header is made to name hard-spheres: refused, not compared.
expect(0 "Structure all-pairs" ${KDS} run ${SCENARIOS}/two_spheres.json --structure all-pairs --trace ${WORK}/two.jsonl
       --no-progress)
file(READ ${WORK}/two.jsonl trace)
string(REPLACE "\"structure\":\"all-pairs\"" "\"structure\":\"hard-spheres\"" edited "${trace}")
if(edited STREQUAL trace)
  message(FATAL_ERROR "no \"structure\":\"all-pairs\" in the header of ${WORK}/two.jsonl")
endif()
file(WRITE ${WORK}/edited.jsonl "${edited}")
expect(1 "kds replay --check: needs the events of a kds::Simulator, and the structure hard-spheres" ${KDS} replay --check
       ${WORK}/edited.jsonl)
