# Builds the libFuzzer targets of fuzz/targets with clang and runs each for SECONDS
# seconds (default 10) over its seed corpus, then over the inputs of fuzz/regressions/
# (crashes found before, kept as regression tests). Exits with 77 (CTest: skipped) when
# clang or libFuzzer is missing. Variables: SOURCE (the kds tree), WORK (a build directory).
# Found inputs go to WORK, never into the source tree.
if(NOT SECONDS)
  set(SECONDS 10)
endif()
find_program(clang NAMES clang++ clang++-16 clang++-15 clang++-14)
if(NOT clang)
  message(STATUS "SKIP: no clang++ (Debian: apt-get install clang libclang-rt-14-dev)")
  cmake_language(EXIT 77)
endif()
# libFuzzer is part of clang's runtime, packaged apart on Debian (libclang-rt-*-dev).
file(WRITE ${WORK}/probe/probe.cpp "#include <cstdint>\n#include <cstddef>\nextern \"C\" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n")
execute_process(COMMAND ${clang} -fsanitize=fuzzer ${WORK}/probe/probe.cpp -o ${WORK}/probe/probe
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(STATUS "SKIP: ${clang} cannot link -fsanitize=fuzzer (Debian: apt-get install libclang-rt-14-dev)")
  cmake_language(EXIT 77)
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/fuzz/targets -B ${WORK}/build -DCMAKE_CXX_COMPILER=${clang}
                        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKDS_SOURCE_DIR=${SOURCE}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the fuzz targets failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build -j 2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the fuzz targets failed")
endif()

foreach(target scene_parser:scene validate_spheres:spheres contact_log:contacts)
  string(REPLACE ":" ";" pair ${target})
  list(GET pair 0 name)
  list(GET pair 1 corpus)
  set(exe ${WORK}/build/kds_fuzz_${name})
  # Crashes found before: each file must now run clean.
  file(GLOB regressions ${SOURCE}/fuzz/regressions/${corpus}/*)
  if(regressions)
    execute_process(COMMAND ${exe} ${regressions} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "kds_fuzz_${name} fails on a regression input of fuzz/regressions/${corpus}")
    endif()
  endif()
  # New inputs go to a scratch corpus; the seeds are read only.
  file(MAKE_DIRECTORY ${WORK}/corpus/${corpus} ${WORK}/crashes)
  execute_process(COMMAND ${exe} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
                          -artifact_prefix=${WORK}/crashes/${name}- ${WORK}/corpus/${corpus} ${SOURCE}/fuzz/corpus/${corpus}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kds_fuzz_${name} found a failing input: see ${WORK}/crashes/ (add it to "
                        "fuzz/regressions/${corpus}/ with a fix)")
  endif()
  message(STATUS "kds_fuzz_${name}: ${SECONDS} s without a failure")
endforeach()
