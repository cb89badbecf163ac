# The project's warning flags, in one place: every target of kds (the library, tests,
# examples, tools, benchmarks, the documentation's code) calls kds_target_warnings, so that
# a flag added here reaches all of them and none is set for a whole directory.
#
# KDS_WARNINGS_AS_ERRORS (option, OFF) turns the warnings into errors.

# kds_target_warnings(<target> [GOOGLETEST]): the project's warnings on <target>'s own
# sources only (PRIVATE: they never reach a program that links <target>). GOOGLETEST is for
# test programs written with GoogleTest's assertion macros.
function(kds_target_warnings target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "GOOGLETEST" "" "")
  target_compile_options(${target} PRIVATE
    $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra>
    $<$<CXX_COMPILER_ID:MSVC>:/W4>
    # GCC 12 takes C++20's `"text" + std::to_string(x)` for a memcpy of 2^63 bytes that
    # may overlap (GCC bug 105329, a false positive fixed in GCC 13).
    $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>
    $<$<BOOL:${KDS_WARNINGS_AS_ERRORS}>:$<IF:$<CXX_COMPILER_ID:MSVC>,/WX,-Werror>>)
  if(arg_GOOGLETEST)
    # GoogleTest's ASSERT_ and EXPECT_ macros shield their own `else` (inside a switch), yet
    # GCC still calls `if (c) ASSERT_TRUE(x);` ambiguous; the tests write it that way.
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-dangling-else>)
  endif()
endfunction()
