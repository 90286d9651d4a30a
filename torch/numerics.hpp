// Where ATen's elementwise ops leave finite inputs for NaN or Inf: the domains the NaN/Inf findings
// name when a kernel made a NaN or Inf from inputs that held none.
#pragma once

#include <string_view>

namespace aoti::torch {

// What `op` ("aten.log", "aten.sqrt.default", "log") returns outside its domain, as a clause
// ("NaN for inputs below 0 and -inf at 0"); "" for ops that keep finite inputs finite (add, mul,
// relu, ...) or that this table does not know.
std::string_view nan_inf_domain(std::string_view op);

}  // namespace aoti::torch
