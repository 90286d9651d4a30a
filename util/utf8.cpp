#include "util/utf8.hpp"

#include <algorithm>

namespace aoti::util {

std::size_t utf8_length(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return length;
}

std::string clean_text(std::string_view text, std::size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes));
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1B && i + 1 < text.size() && text[i + 1] == '[') {
      std::size_t end = i + 2;
      while (end < text.size() && static_cast<unsigned char>(text[end]) >= 0x20 &&
             static_cast<unsigned char>(text[end]) <= 0x3F)
        ++end;
      if (end < text.size() && static_cast<unsigned char>(text[end]) >= 0x40 &&
          static_cast<unsigned char>(text[end]) <= 0x7E) {
        i = end + 1;
        continue;
      }
    }
    std::size_t length = 1;
    std::string_view piece = "?";
    if (c >= 0x80) {
      length = utf8_length(text.substr(i));
      if (length == 0)
        length = 1;
      else
        piece = text.substr(i, length);
    } else if (c >= 0x20 && c != 0x7F) {
      piece = text.substr(i, 1);
    } else if (c == '\t') {
      piece = " ";
    }
    if (out.size() + piece.size() > max_bytes) break;
    out.append(piece);
    i += length;
  }
  return out;
}

}  // namespace aoti::util
