# standard_settings: an INTERFACE target every target of this project links PRIVATE. It carries the
# language level, the debug-build library assertions and the sanitizers, so none of them is a global
# flag that would also reach third-party code.

add_library(standard_settings INTERFACE)
target_compile_features(standard_settings INTERFACE cxx_std_20)

# libstdc++ bounds checks (operator[], front(), back(), ...): cheap, and they turn a silent
# out-of-bounds read on a hostile input into an abort with a message.
target_compile_definitions(standard_settings INTERFACE $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>)

option(ENABLE_ASAN "Build with AddressSanitizer" OFF)
option(ENABLE_UBSAN "Build with UndefinedBehaviorSanitizer (every finding fatal)" OFF)

set(AOTI_SANITIZERS "")
if(ENABLE_ASAN)
  list(APPEND AOTI_SANITIZERS address)
endif()
if(ENABLE_UBSAN)
  list(APPEND AOTI_SANITIZERS undefined)
  # A UB report that lets the test go on is a report nobody reads.
  target_compile_options(standard_settings INTERFACE -fno-sanitize-recover=undefined)
endif()
foreach(sanitizer IN LISTS AOTI_SANITIZERS)
  target_compile_options(standard_settings INTERFACE -fsanitize=${sanitizer} -fno-omit-frame-pointer)
  target_link_options(standard_settings INTERFACE -fsanitize=${sanitizer})
endforeach()
