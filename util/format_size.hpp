// Byte counts as people read them.
#pragma once

#include <cstdint>
#include <string>

namespace aoti::util {

// In the largest unit that is not more than the value, exact or with one decimal:
// "1 byte", "900 bytes", "1.5 KiB", "64 MiB", "4 GiB".
std::string format_size(std::uint64_t bytes);

// Approximate, for memory regions: whole KiB or MiB rounded to the nearest, GiB and TiB with one
// decimal: "4 KiB", "12 MiB", "2.0 GiB", "128.0 TiB".
std::string format_approximate_size(std::uint64_t bytes);

// Rounded to the nearest whole MiB: "0 MiB", "12 MiB" (sizes of cores, where KiB do not matter).
std::string format_mib(std::uint64_t bytes);

}  // namespace aoti::util
