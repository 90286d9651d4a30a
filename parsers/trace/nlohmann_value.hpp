// record_facts.hpp's Value over an nlohmann::json: how a record header parsed whole (a tlparse
// raw.jsonl line, or a header the fast parse leaves to nlohmann) is read, by record_header.cpp's
// header_of and by export_calls.cpp's track_export. header_parse.cpp has its simdjson twin.
// Internal to parsers/trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace aoti::parsers::trace {

// record_facts.hpp's Value over nlohmann; a default one is null.
class NlohmannValue {
 public:
  NlohmannValue() = default;
  explicit NlohmannValue(const nlohmann::json& value) : m_value(&value) {}
  bool is_null() const { return !m_value || m_value->is_null(); }
  bool is_object() const { return m_value && m_value->is_object(); }
  bool is_array() const { return m_value && m_value->is_array(); }
  bool is_string() const { return m_value && m_value->is_string(); }
  bool is_integer() const { return m_value && m_value->is_number_integer(); }
  std::string_view string() const { return m_value->get_ref<const std::string&>(); }
  std::int64_t integer() const { return m_value->get<std::int64_t>(); }
  std::string dump() const { return m_value->dump(); }
  std::size_t size() const { return m_value->size(); }
  std::optional<NlohmannValue> find(std::string_view key) const {
    const auto it = m_value->find(key);
    if (it == m_value->end()) return std::nullopt;
    return NlohmannValue(*it);
  }
  template <class Fn>
  void for_each_item(Fn&& fn) const {
    for (const nlohmann::json& item : *m_value) fn(NlohmannValue(item));
  }

 private:
  const nlohmann::json* m_value = nullptr;
};

}  // namespace aoti::parsers::trace
