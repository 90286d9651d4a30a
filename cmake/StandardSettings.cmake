# standard_settings: an INTERFACE target every target of this project links PRIVATE. It carries the
# language level, the debug-build library assertions and the sanitizers, so none of them is a global
# flag that would also reach third-party code.

add_library(standard_settings INTERFACE)
target_compile_features(standard_settings INTERFACE cxx_std_20)

# libstdc++ bounds checks (operator[], front(), back(), ...): cheap, and they turn a silent
# out-of-bounds read on a hostile input into an abort with a message.
target_compile_definitions(standard_settings INTERFACE $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>)

# AOTI_SANITIZE: the sanitizers, as clang and GCC spell them (`address,undefined`). Every report is
# fatal (a report that lets the test go on is a report nobody reads), and the libstdc++ bounds
# checks come with them. scripts/sanitize.sh builds build-sanitize/ this way and runs the suite.
set(AOTI_SANITIZE "" CACHE STRING "Sanitizers for every target of the project, e.g. address,undefined")
if(AOTI_SANITIZE)
  target_compile_options(standard_settings INTERFACE -fsanitize=${AOTI_SANITIZE} -fno-sanitize-recover=all
                                                     -fno-omit-frame-pointer)
  target_link_options(standard_settings INTERFACE -fsanitize=${AOTI_SANITIZE})
  target_compile_definitions(standard_settings INTERFACE _GLIBCXX_ASSERTIONS)
endif()

# AOTI_FUZZ: the libFuzzer targets of fuzz/ (clang only). Every library gets the coverage
# instrumentation libFuzzer steers by; only the targets link libFuzzer's main.
option(AOTI_FUZZ "Build the libFuzzer targets of fuzz/ (needs clang; use with AOTI_SANITIZE)" OFF)
if(AOTI_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "AOTI_FUZZ needs clang (CXX=clang++-19), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  target_compile_options(standard_settings INTERFACE -fsanitize=fuzzer-no-link)
endif()
