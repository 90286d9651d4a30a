#include "util/errno_text.hpp"

#include <system_error>

namespace aoti::util {

std::string errno_text(int error) { return std::generic_category().message(error); }

}  // namespace aoti::util
