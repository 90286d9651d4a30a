# `cpack -G DEB` (or plain `cpack`) in the build folder: aoti-analyze_<version>_<arch>.deb, whose
# Depends: dpkg-shlibdeps computes from the libraries the binary links (needs dpkg-dev). Installed with
# `sudo apt install ./aoti-analyze_*.deb`. Not to be confused with the CPackConfig.cmake it generates.

set(AOTI_PACKAGE_MAINTAINER "aoti-analyze maintainers <maintainers@users.noreply.a-seed-e4c52895.example>"
    CACHE STRING "The Maintainer: field of the .deb")
set(AOTI_PACKAGE_HOMEPAGE "" CACHE STRING "The Homepage: field of the .deb (left out when empty)")

set(CPACK_VERBATIM_VARIABLES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME aoti-analyze)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${AOTI_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Offline post-mortems of PyTorch AOTInductor failures")
set(CPACK_PACKAGE_DESCRIPTION
    "Give it the .pt2 package and whatever the failed run left behind (stderr and logs, a core dump, \
TORCH_TRACE logs or tlparse output, the custom operators' sources) and it says what went wrong, \
where, why, and what to run next, as a ranked findings report in text, Markdown, JSON, SARIF or \
HTML, without Python, libtorch or a GPU. The same binary scans every package a team builds each \
night.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY aoti-analyze)
# Packages install under /usr, whatever CMAKE_INSTALL_PREFIX the build folder was configured with.
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libclang is loaded only when C++ extension sources are analyzed (not linked, so shlibdeps does not
# see it): recommended, as a run without it still reads packages, cores, logs and Python sources.
if(ENABLE_LIBCLANG)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libclang1-19")
endif()
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${AOTI_PACKAGE_MAINTAINER}")
if(AOTI_PACKAGE_HOMEPAGE)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${AOTI_PACKAGE_HOMEPAGE}")
endif()

include(CPack)
