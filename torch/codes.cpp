#include "torch/codes.hpp"

#include <algorithm>

namespace aoti::torch {

namespace {
template <typename Table, typename Field, typename Value>
auto find_in(const Table& table, Field field, const Value& value) -> const
    typename Table::value_type* {
  const auto it = std::find_if(table.begin(), table.end(),
                               [&](const auto& row) { return row.*field == value; });
  return it == table.end() ? nullptr : &*it;
}
}  // namespace

const ScalarTypeInfo* scalar_type(std::int64_t code) {
  return find_in(k_scalar_types, &ScalarTypeInfo::code, code);
}
const ScalarTypeInfo* scalar_type_named(std::string_view name) {
  return find_in(k_scalar_types, &ScalarTypeInfo::name, name);
}
const ScalarTypeInfo* scalar_type_of_aten(std::string_view aten) {
  return find_in(k_scalar_types, &ScalarTypeInfo::aten, aten);
}
const DeviceTypeInfo* device_type(std::int64_t code) {
  return find_in(k_device_types, &DeviceTypeInfo::code, code);
}

const DeviceTypeInfo* device_type_of_shim(std::string_view shim) {
  return shim.empty() ? nullptr : find_in(k_device_types, &DeviceTypeInfo::shim, shim);
}

}  // namespace aoti::torch
