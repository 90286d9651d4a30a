#include "util/format_size.hpp"

#include <array>
#include <cstddef>

#include <fmt/format.h>

namespace aoti::util {

std::string format_size(std::uint64_t bytes) {
  constexpr std::array<const char*, 4> units = {"GiB", "MiB", "KiB", "bytes"};
  constexpr std::array<std::uint64_t, 4> scales = {1ull << 30, 1ull << 20, 1ull << 10, 1};
  if (bytes == 1) return "1 byte";
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (bytes < scales[i] && i + 1 < units.size()) continue;
    if (bytes % scales[i] == 0) return std::to_string(bytes / scales[i]) + " " + units[i];
    const double value = static_cast<double>(bytes) / static_cast<double>(scales[i]);
    const std::string text = std::to_string(static_cast<std::uint64_t>(value * 10 + 0.5));
    return text.substr(0, text.size() - 1) + "." + text.back() + " " + units[i];
  }
  return std::to_string(bytes) + " bytes";
}

std::string format_approximate_size(std::uint64_t bytes) {
  if (bytes >= (1ull << 40))
    return fmt::format("{:.1f} TiB", static_cast<double>(bytes) / (1ull << 40));
  if (bytes >= (1ull << 30))
    return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1ull << 30));
  if (bytes >= (1ull << 20)) return format_mib(bytes);
  return std::to_string((bytes + 512) >> 10) + " KiB";
}

std::string format_mib(std::uint64_t bytes) {
  return std::to_string((bytes + (1 << 19)) >> 20) + " MiB";
}

}  // namespace aoti::util
