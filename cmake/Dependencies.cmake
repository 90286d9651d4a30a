# Every external library, found in one place. Each is a Debian 12 package (scripts/setup.sh installs
# them); what only tests or benchmarks need is looked for only when they are enabled.

find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

# AOTI_STATIC_DEPENDENCIES: link the archives Debian ships (Boost.Program_options, SQLite, libdw and
# libelf, zlib, liblzma, libzstd, jemalloc) into the executable instead of loading their
# shared objects at every start. Most runs are short: mapping and relocating a shared object costs
# about 0.2-0.5 ms each, which bench/startup.sh measured as a tenth of analyzing a small package.
# fmt and simdjson have no archive in Debian and stay shared, and with them libstdc++ (one copy of
# it per process).
# Off for the sanitizer and fuzz builds, whose runtimes want to see every allocation.
if(AOTI_SANITIZE OR AOTI_FUZZ)
  set(aoti_static_default OFF)
else()
  set(aoti_static_default ON)
endif()
option(AOTI_STATIC_DEPENDENCIES "Link the dependencies' static archives where Debian ships them" ${aoti_static_default})

# Points PkgConfig::NAME at the static archive of each of its libraries, plus what `pkg-config
# --static` says they need: their archives too where Debian ships them (zlib, liblzma, libzstd,
# libbz2 under libdw), else the shared object.
function(aoti_use_static_archives name)
  set(archives "")
  foreach(library IN LISTS ${name}_LIBRARIES)
    find_library(archive_${library} NAMES lib${library}.a HINTS ${${name}_LIBRARY_DIRS} REQUIRED)
    list(APPEND archives ${archive_${library}})
  endforeach()
  set(needs ${${name}_STATIC_LIBRARIES})
  list(REMOVE_ITEM needs ${${name}_LIBRARIES})
  # glibc's own libraries (m, pthread, dl, rt) stay shared, like libc itself.
  list(REMOVE_ITEM needs m pthread dl rt c)
  foreach(library IN LISTS needs)
    find_library(archive_${library} NAMES lib${library}.a HINTS ${${name}_LIBRARY_DIRS})
    if(archive_${library})
      list(APPEND archives ${archive_${library}})
    else()
      list(APPEND archives "-l${library}")
    endif()
  endforeach()
  set_target_properties(PkgConfig::${name} PROPERTIES INTERFACE_LINK_LIBRARIES "${archives}")
endfunction()

set(AOTI_DEPENDENCY_SUMMARY "")
# Records NAME VERSION for the configuration summary.
function(aoti_register_dependency name version)
  list(APPEND AOTI_DEPENDENCY_SUMMARY "${name}:${version}")
  set(AOTI_DEPENDENCY_SUMMARY "${AOTI_DEPENDENCY_SUMMARY}" PARENT_SCOPE)
endfunction()

# ---- the tool --------------------------------------------------------------------------------
pkg_check_modules(LIBLZMA REQUIRED IMPORTED_TARGET liblzma)
aoti_register_dependency(liblzma "${LIBLZMA_VERSION}")
pkg_check_modules(LIBZSTD REQUIRED IMPORTED_TARGET libzstd)
aoti_register_dependency(libzstd "${LIBZSTD_VERSION}")
pkg_check_modules(LIBDW REQUIRED IMPORTED_TARGET libdw libelf)
aoti_register_dependency(libdw "${LIBDW_libdw_VERSION}")
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
aoti_register_dependency(sqlite3 "${SQLITE3_VERSION}")
if(AOTI_STATIC_DEPENDENCIES)
  aoti_use_static_archives(LIBDW)
  aoti_use_static_archives(SQLITE3)
  aoti_use_static_archives(LIBLZMA)
  aoti_use_static_archives(LIBZSTD)
  set(Boost_USE_STATIC_LIBS ON)
  set(ZLIB_USE_STATIC_LIBS ON)
endif()
find_package(nlohmann_json REQUIRED)
aoti_register_dependency(nlohmann_json "${nlohmann_json_VERSION}")
find_package(Boost REQUIRED COMPONENTS program_options)
aoti_register_dependency(boost_program_options "${Boost_VERSION}")
find_package(tl-expected REQUIRED)
aoti_register_dependency(tl-expected "${tl-expected_VERSION}")
find_package(fmt REQUIRED)
aoti_register_dependency(fmt "${fmt_VERSION}")
# parsers/trace parses every TORCH_TRACE record header with it (nlohmann only for the few in full).
find_package(simdjson REQUIRED)
aoti_register_dependency(simdjson "${simdjson_VERSION}")
# The executable's allocator (not the sanitizer builds', whose runtime owns malloc). A trace is
# scanned on threads and merged on another, which frees what the scans allocated: glibc's malloc
# spent a fifth of a 1 GiB ingest there (arena locks, consolidation), jemalloc's thread caches a
# few percent.
if(NOT AOTI_SANITIZE)
  pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
  aoti_register_dependency(jemalloc "${JEMALLOC_VERSION}")
endif()
# parsers/zip inflates deflated entries (the reason it reads the zip format itself is at the top of
# parsers/zip/zip_archive.cpp); parsers/gpucore checks a dump's cubins with crc32().
find_package(ZLIB REQUIRED)
aoti_register_dependency(zlib "${ZLIB_VERSION_STRING}")

if(ENABLE_LIBCLANG)
  # Debian's libclang-19-dev ships no ClangConfig.cmake: find the library and its C header, and wrap
  # them in an INTERFACE target like the others.
  find_library(LIBCLANG_LIBRARY NAMES clang-19 HINTS /usr/lib/llvm-19/lib REQUIRED)
  find_path(LIBCLANG_INCLUDE_DIR clang-c/Index.h HINTS /usr/lib/llvm-19/include REQUIRED)
  # Not linked: parsers/source/libclang.cpp loads it when a C++ source is analyzed, so that runs
  # without one never map LLVM. The soname and path are what that loader tries.
  file(REAL_PATH ${LIBCLANG_LIBRARY} LIBCLANG_REAL_PATH)
  get_filename_component(LIBCLANG_SONAME ${LIBCLANG_REAL_PATH} NAME)
  add_library(dep_libclang INTERFACE)
  target_link_libraries(dep_libclang INTERFACE ${CMAKE_DL_LIBS})
  target_include_directories(dep_libclang SYSTEM INTERFACE ${LIBCLANG_INCLUDE_DIR})
  target_compile_definitions(dep_libclang INTERFACE AOTI_LIBCLANG_SONAME="${LIBCLANG_SONAME}"
                                                    AOTI_LIBCLANG_PATH="${LIBCLANG_REAL_PATH}")
  aoti_register_dependency(libclang "19")
endif()

# ---- tests and benchmarks --------------------------------------------------------------------
# Tests and bench/make_big_pt2 write and read their zip files with libzip: a second, independent
# implementation of the format, so that a reader bug cannot hide behind a writer sharing it.
if(ENABLE_TESTING OR ENABLE_BENCHMARKS)
  pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)
  aoti_register_dependency(libzip "${LIBZIP_VERSION}")
endif()
if(ENABLE_TESTING)
  find_package(doctest REQUIRED)
  aoti_register_dependency(doctest "${doctest_VERSION}")
endif()

if(ENABLE_BROWSER_TESTS)
  # tests/test_html.cpp runs Debian's `chromium` by name; this only makes its absence a configure
  # error instead of a failing test.
  find_program(CHROMIUM_EXECUTABLE chromium REQUIRED)
  aoti_register_dependency(chromium "${CHROMIUM_EXECUTABLE}")
endif()


# ---- documentation and packaging -------------------------------------------------------------
# The man page is generated from `aoti-analyze --help`; without help2man there is no man page.
find_program(HELP2MAN_EXECUTABLE help2man)
# `format` and `check_format` targets; the style is pinned to one clang-format version.
find_program(CLANG_FORMAT_EXECUTABLE clang-format-19)
