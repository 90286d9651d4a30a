# standard_warnings: an INTERFACE target linked PRIVATE by all product, test and benchmark code (not
# by third-party code, whose warnings are not ours to fix).

if(AOTI_DEV_MODE)
  # Developer and CI builds: a new warning fails the build, so it is fixed where it appears.
  option(WARNINGS_AS_ERRORS "Treat compiler warnings as errors" ON)
else()
  # User builds: a newer compiler's new warning must not stop someone from building the tool.
  option(WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
endif()

add_library(standard_warnings INTERFACE)

set(AOTI_COMPILER_WARNINGS
    -Wall
    -Wextra
    -Wpedantic
    -Wnon-virtual-dtor
    -Woverloaded-virtual
    -Wcast-align
    -Wextra-semi
    # Many callbacks and interface overrides take arguments they do not need.
    -Wno-unused-parameter
    # Candidates for later (each fires in today's tree):
    # -Wshadow
    # -Wconversion
    # -Wsign-conversion
    # -Wold-style-cast
)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # Logical operations where bitwise ones were meant, and `a && a`.
  list(APPEND AOTI_COMPILER_WARNINGS -Wlogical-op)
  if(CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 (Debian 12's) warns about `"literal" + std::string&&` inside libstdc++'s own
    # basic_string::_M_replace ("accessing 9223372036854775810 or more bytes ... may overlap",
    # Location::display() and four more): a false positive, GCC bug 105651, fixed in GCC 13.
    list(APPEND AOTI_COMPILER_WARNINGS -Wno-restrict)
  endif()
endif()
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  # Clang 19 (the sanitizer and fuzz build's) reports libstdc++ 12's own use of the deprecated
  # std::get_temporary_buffer inside std::stable_sort, at every call of it: not ours to fix.
  list(APPEND AOTI_COMPILER_WARNINGS -Wno-deprecated-declarations)
endif()
if(WARNINGS_AS_ERRORS)
  list(APPEND AOTI_COMPILER_WARNINGS -Werror)
endif()

target_compile_options(standard_warnings INTERFACE ${AOTI_COMPILER_WARNINGS})
