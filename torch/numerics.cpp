#include "torch/numerics.hpp"

#include <array>
#include <utility>

namespace aoti::torch {

std::string_view nan_inf_domain(std::string_view op) {
  // aten.log.default -> log
  if (op.starts_with("aten.")) op.remove_prefix(5);
  if (const auto dot = op.find('.'); dot != std::string_view::npos) op = op.substr(0, dot);
  if (op.ends_with('_')) op.remove_suffix(1);
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 19> k_domains{{
      {"log", "NaN for inputs below 0 and -inf at 0"},
      {"log2", "NaN for inputs below 0 and -inf at 0"},
      {"log10", "NaN for inputs below 0 and -inf at 0"},
      {"log1p", "NaN for inputs below -1 and -inf at -1"},
      {"sqrt", "NaN for inputs below 0"},
      {"rsqrt", "NaN for inputs below 0 and inf at 0"},
      {"div", "NaN for 0/0 and inf for a finite value divided by 0"},
      {"reciprocal", "inf at 0"},
      {"pow",
       "NaN for a negative base with a fractional exponent, inf for 0 to a negative power "
       "or on overflow"},
      {"exp", "inf on overflow, for float32 inputs above about 88.7"},
      {"exp2", "inf on overflow, for float32 inputs above 128"},
      {"expm1", "inf on overflow, for float32 inputs above about 88.7"},
      {"acos", "NaN for inputs outside [-1, 1]"},
      {"asin", "NaN for inputs outside [-1, 1]"},
      {"acosh", "NaN for inputs below 1"},
      {"atanh", "NaN for inputs outside [-1, 1] and inf at -1 and 1"},
      {"lgamma", "inf at 0 and the negative integers"},
      {"digamma", "NaN or inf at 0 and the negative integers"},
      {"fmod", "NaN for a divisor of 0"},
  }};
  for (const auto& [name, domain] : k_domains)
    if (op == name) return domain;
  return {};
}

}  // namespace aoti::torch
