#include "parsers/pt/storage_types.hpp"

#include <array>
#include <utility>

namespace aoti::parsers::pt {
namespace {

struct Summarized {
  std::string_view c10;
  Element element;
  std::size_t size;
};
constexpr std::array<Summarized, 10> k_summarized = {{
    {"Byte", Element::uint8, 1},
    {"Char", Element::int8, 1},
    {"Short", Element::int16, 2},
    {"Int", Element::int32, 4},
    {"Long", Element::int64, 8},
    {"Half", Element::float16, 2},
    {"Float", Element::float32, 4},
    {"Double", Element::float64, 8},
    {"Bool", Element::boolean, 1},
    {"BFloat16", Element::bfloat16, 2},
}};

}  // namespace

std::optional<StorageType> storage_type_named(std::string_view class_name) {
  constexpr std::string_view k_suffix = "Storage";
  if (!class_name.ends_with(k_suffix)) return std::nullopt;
  const std::string_view c10 = class_name.substr(0, class_name.size() - k_suffix.size());
  for (const Summarized& type : k_summarized) {
    if (type.c10 != c10) continue;
    for (const auto& scalar : torch::k_scalar_types)
      if (scalar.c10 == c10) return StorageType{&scalar, type.element, type.size};
  }
  return std::nullopt;
}

}  // namespace aoti::parsers::pt
