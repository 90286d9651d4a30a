// The text of an errno value, safe to call from the scan's worker threads (std::strerror is not:
// it may return a buffer shared by every thread).
#pragma once
#include <string>

namespace aoti::util {

std::string errno_text(int error);

}  // namespace aoti::util
