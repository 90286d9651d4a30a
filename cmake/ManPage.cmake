# aoti-analyze.1, generated from `aoti-analyze --help` and `--version` by help2man, so the man page
# cannot drift from the options the binary has. gzip -n: Debian's man pages are compressed, and
# without a timestamp the file is the same on every build.
if(NOT HELP2MAN_EXECUTABLE)
  return()
endif()

set(AOTI_MAN_PAGE ${PROJECT_BINARY_DIR}/aoti-analyze.1.gz)
add_custom_command(
  OUTPUT ${AOTI_MAN_PAGE}
  COMMAND ${HELP2MAN_EXECUTABLE} --no-info --section=1
          "--name=${PROJECT_DESCRIPTION}" --output=aoti-analyze.1 $<TARGET_FILE:aoti-analyze>
  COMMAND gzip -n -9 -f aoti-analyze.1
  DEPENDS aoti-analyze
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
  COMMENT "Generating the man page aoti-analyze.1 from --help"
  VERBATIM)
add_custom_target(man_page ALL DEPENDS ${AOTI_MAN_PAGE})
install(FILES ${AOTI_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
