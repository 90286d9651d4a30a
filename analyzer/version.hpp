// The tool's version ("0.1.0"), defined in the build's generated version.cpp (cmake/version.cpp.in)
// so that a version bump recompiles one file.
#pragma once

namespace aoti {

extern const char* const k_version;

}  // namespace aoti
