# kds replay --check (docs/cli.md): run with KDS=<kds> WORK=<folder>.
#  1. a run with frame stops (XYZ export) and its trace: the replay (one run_until) finds
#     the same events, exit 0; so does an audited run of all-pairs;
#  2. one event changed, events missing, the structure changed in the header: exit 3 and
#     the first differing event;
#  3. a header of another version, a trace without header, a changed scenario: exit 1.
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)  # expect(), an empty WORK

set(scenario ${WORK}/box.json)
expect(0 "wrote" ${KDS} generate paper-box --n 40 --until 0.6 --seed 3 -o ${scenario})
expect(0 "Events by type" ${KDS} run ${scenario} --trace ${WORK}/trace.jsonl --export-xyz ${WORK}/frames.xyz --frames 7
       --no-progress)
expect(0 "the same sequence" ${KDS} replay --check ${WORK}/trace.jsonl)

# The brute-force reference, audited after every event, on particles of the circulating
# field: the settings recorded in the header are those replayed.
expect(0 "wrote" ${KDS} generate circulating --n 60 --until 0.3 -o ${WORK}/flow.json)
expect(0 "audited.*Audits: [1-9][0-9]* passed" ${KDS} run ${WORK}/flow.json --structure all-pairs --audit --trace ${WORK}/flow.jsonl
       --no-progress)
expect(0 "the same sequence .*structure all-pairs" ${KDS} replay --check ${WORK}/flow.jsonl)

file(STRINGS ${WORK}/trace.jsonl lines)
list(LENGTH lines count)
if(count LESS 20)
  message(FATAL_ERROR "the trace has only ${count} lines: too short a run to test replay")
endif()

# One event changed: the time of event 4 (line 6, after the header).
list(GET lines 5 line)
string(REGEX REPLACE "\"time\":[^,]*" "\"time\":0.123" changed "${line}")
list(REMOVE_AT lines 5)
list(INSERT lines 5 "${changed}")
list(JOIN lines "\n" text)
file(WRITE ${WORK}/changed.jsonl "${text}\n")
expect(3 "changed.jsonl:6: event 4 differs\n  recorded: .*\"time\":0.123.*\n  replayed: " ${KDS} replay --check ${WORK}/changed.jsonl)

# Events missing at the end.
file(STRINGS ${WORK}/trace.jsonl lines)
math(EXPR keep "${count} - 3")
list(SUBLIST lines 0 ${keep} head)
list(JOIN head "\n" text)
file(WRITE ${WORK}/short.jsonl "${text}\n")
math(EXPR events "${keep} - 1")
math(EXPR missing "${keep} + 1")  # the line where the next event should be
expect(3 "short.jsonl:${missing}: the trace ends after ${events} events; the replay goes on" ${KDS} replay --check
       ${WORK}/short.jsonl)

# Another structure in the header: other certificates, other events.
list(GET lines 0 header)
string(REPLACE "\"structure\":\"tvb-grid\"" "\"structure\":\"all-pairs\"" other "${header}")
list(REMOVE_AT lines 0)
list(JOIN lines "\n" events_text)
file(WRITE ${WORK}/other.jsonl "${other}\n${events_text}\n")
expect(3 "other.jsonl:[0-9]+: event [0-9]+ differs" ${KDS} replay --check ${WORK}/other.jsonl)

# A trace of another version.
string(REPLACE "\"kds_trace\":1" "\"kds_trace\":2" future "${header}")
file(WRITE ${WORK}/future.jsonl "${future}\n${events_text}\n")
expect(1 "future.jsonl:1: kds_trace: trace from another version of kds .*trace version 2, this kds reads version 1"
       ${KDS} replay --check ${WORK}/future.jsonl)

# A trace without header (as the examples write them).
file(WRITE ${WORK}/headless.jsonl "${events_text}\n")
expect(1 "headless.jsonl:1: not a kds trace header" ${KDS} replay --check ${WORK}/headless.jsonl)

# The scenario changed since the trace was recorded.
file(READ ${scenario} scenario_text)
file(WRITE ${scenario} "${scenario_text} ")
expect(1 "box.json: not the scenario the trace was recorded with" ${KDS} replay --check ${WORK}/trace.jsonl)

# --check is required.
expect(2 "--check is required" ${KDS} replay ${WORK}/trace.jsonl)
