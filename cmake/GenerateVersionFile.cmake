# The version lives in one generated translation unit (ccache's cmake/version.cpp.in), so a version
# bump recompiles one file instead of every file that sees a compile definition.
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.cpp.in ${PROJECT_BINARY_DIR}/generated/version.cpp @ONLY)
