# kds generate rolling-marbles, then kds run with the rolling-ball tree and with the
# all-pairs reference (run with KDS=<kds> WORK=<folder>):
# - both report the same contacts (time, kind, ids, bit for bit) and the same final states;
# - there are marble-marble contacts, some between marbles of different radii (the case the
#   planar response is for), and no marble ends with a vertical velocity;
# - the same file with "response": "elastic" is refused by the rolling tree, naming a ball
#   that the 3D response lifted off the floor (what "planar" prevents).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# run(<output variable> <expected exit code> <arguments>...)
function(run out_var code)
  execute_process(COMMAND ${KDS} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "'kds ${ARGN}' exited with ${rc}, not ${code}:\n${out}${err}")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

set(scene ${WORK}/marbles.json)
run(out 0 generate rolling-marbles --n 40 --seed 3 --until 4 -o ${scene})
if(NOT out MATCHES "wrote .*marbles.json: 40 spheres, until t = 4")
  message(FATAL_ERROR "unexpected output of kds generate:\n${out}")
endif()

foreach(structure rolling-tree all-pairs)
  run(out 0 run ${scene} --structure ${structure} --contacts ${WORK}/${structure}.csv --states ${WORK}/${structure}.states
      --no-progress)
  if(NOT out MATCHES "Structure ${structure}, planar response, simulated until t = 4")
    message(FATAL_ERROR "${structure}: the summary does not name the structure and the planar response:\n${out}")
  endif()
  message(STATUS "${structure}: ${out}")
endforeach()

file(READ ${WORK}/rolling-tree.csv tree_contacts)
file(READ ${WORK}/all-pairs.csv reference_contacts)
if(NOT tree_contacts STREQUAL reference_contacts)
  message(FATAL_ERROR "rolling-tree and all-pairs report different contacts: compare ${WORK}/rolling-tree.csv and "
                      "${WORK}/all-pairs.csv")
endif()
file(READ ${WORK}/rolling-tree.states tree_states)
file(READ ${WORK}/all-pairs.states reference_states)
if(NOT tree_states STREQUAL reference_states)
  message(FATAL_ERROR "rolling-tree and all-pairs end in different states: compare ${WORK}/rolling-tree.states and "
                      "${WORK}/all-pairs.states")
endif()

# Marble-marble contacts, and among them some between different radii.
file(READ ${scene} scenario)
file(STRINGS ${WORK}/rolling-tree.csv lines REGEX ",sphere,")
list(LENGTH lines pair_contacts)
set(mixed 0)
foreach(line IN LISTS lines)
  string(REPLACE "," ";" fields "${line}")
  list(GET fields 2 a)
  list(GET fields 3 b)
  string(JSON ra GET "${scenario}" spheres ${a} radius)
  string(JSON rb GET "${scenario}" spheres ${b} radius)
  if(NOT ra STREQUAL rb)
    math(EXPR mixed "${mixed} + 1")
  endif()
endforeach()
if(mixed EQUAL 0)
  message(FATAL_ERROR "no contact between marbles of different radii (${pair_contacts} marble-marble contacts): too "
                      "small a scene to test the planar response")
endif()

# No marble moves vertically at the end (scenario_test.cpp checks z = radius exactly).
file(STRINGS ${WORK}/rolling-tree.states states)
foreach(line IN LISTS states)
  string(REPLACE " " ";" fields "${line}")
  list(GET fields 5 vz)
  if(NOT vz STREQUAL "0")
    message(FATAL_ERROR "a marble moves vertically at the end: ${line}")
  endif()
endforeach()
message(STATUS "ok: ${pair_contacts} marble-marble contacts (${mixed} between different radii), the same with "
               "rolling-tree and all-pairs")

# The default response lifts marbles of different radii off the floor: the rolling tree refuses.
string(REPLACE "\"response\": \"planar\"" "\"response\": \"elastic\"" elastic "${scenario}")
if(elastic STREQUAL scenario)
  message(FATAL_ERROR "${scene} has no \"response\": \"planar\" line")
endif()
file(WRITE ${WORK}/elastic.json "${elastic}")
run(out 1 run ${WORK}/elastic.json --no-progress)
if(NOT out MATCHES "rolling-tree: ball [0-9]+")
  message(FATAL_ERROR "the elastic response should make the rolling tree refuse a ball:\n${out}")
endif()
message(STATUS "ok: with the elastic response the rolling tree refuses: ${out}")
