// The intermediate value printer's calls (AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER), one per
// line as codegen writes them: mode 1's aoti_torch_save_tensor_handle, modes 2 and 3's
// aoti_torch_print_tensor_handle and the printf of a scalar argument.
#pragma once

#include <optional>
#include <string_view>

#include "model/case.hpp"

namespace aoti::parsers::wrapper {

// The call on `line` (trimmed), or nullopt when the line is none of them or its label does not
// read as the printer's.
std::optional<model::PrinterCall> read_printer_call(std::string_view line, int number);

}  // namespace aoti::parsers::wrapper
