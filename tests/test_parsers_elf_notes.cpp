// The note walker shared by the .so reader and the core reader, on hand-built note areas.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/elf/notes.hpp"
#include "parsers/elf/types.hpp"

namespace {

using aoti::parsers::elf::for_each_note;
using aoti::parsers::elf::Note;

void put_u32(std::string& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

// One note as a linker or the kernel writes it: name and descriptor each padded to `alignment`.
std::string note(std::string_view owner, std::uint32_t type, std::string_view desc,
                 std::size_t alignment = 4) {
  std::string out;
  const std::string name = owner.empty() ? "" : std::string(owner) + '\0';
  put_u32(out, static_cast<std::uint32_t>(name.size()));
  put_u32(out, static_cast<std::uint32_t>(desc.size()));
  put_u32(out, type);
  out += name;
  out.resize((out.size() + alignment - 1) / alignment * alignment, '\0');
  out += desc;
  out.resize((out.size() + alignment - 1) / alignment * alignment, '\0');
  return out;
}

struct Seen {
  std::string owner;
  std::uint32_t type;
  std::string desc;
};

std::uint64_t walk(const std::string& area, std::uint64_t align, std::vector<Seen>& seen) {
  const aoti::util::ByteView bytes({reinterpret_cast<const std::byte*>(area.data()), area.size()});
  return for_each_note(bytes, align, [&](const Note& n) {
    seen.push_back({std::string(n.owner), n.type, std::string(n.desc.text(0, n.desc.size()))});
    return true;
  });
}

}  // namespace

TEST_CASE("notes: every whole note, in order, with its owner, type and descriptor") {
  const std::string area = note("GNU", 5, "12345678") +
                           note("GNU", aoti::parsers::elf::k_nt_gnu_build_id, "abcde") +
                           note("", 7, "");
  std::vector<Seen> seen;
  CHECK(walk(area, 4, seen) == area.size());
  REQUIRE(seen.size() == 3);
  CHECK(seen[1].owner == std::string("GNU\0", 4));
  CHECK(seen[1].type == 3);
  CHECK(seen[1].desc == "abcde");  // unpadded
  CHECK(seen[2].owner.empty());
}

TEST_CASE("notes: 8-byte alignment only in areas aligned to 8") {
  // GNU property notes: in an area aligned to 8, the descriptor starts at 16 after a 4-byte name.
  const std::string area = note("GNU", 5, std::string(12, 'p'), 8) + note("GNU", 3, "id", 8);
  std::vector<Seen> seen;
  CHECK(walk(area, 8, seen) == area.size());
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].desc == std::string(12, 'p'));
  CHECK(seen[1].desc == "id");
}

TEST_CASE(
    "notes: a note cut by the end of the area is not visited, and the walk says where it stopped") {
  const std::string whole = note("CORE", 1, std::string(40, 'x'));
  const std::string cut = whole + note("CORE", 6, std::string(64, 'y')).substr(0, 30);
  std::vector<Seen> seen;
  CHECK(walk(cut, 4, seen) == whole.size());
  CHECK(seen.size() == 1);

  // A descriptor size that would run billions of bytes past the end.
  std::string forged = note("CORE", 1, "abcd");
  forged[4] = '\xff';
  forged[5] = '\xff';
  forged[6] = '\xff';
  forged[7] = '\xff';
  seen.clear();
  CHECK(walk(forged, 4, seen) == 0);
  CHECK(seen.empty());
}

TEST_CASE("notes: owners compare with their terminating NUL, as libelf does") {
  const std::string area = note("GNU", 3, "id") + note("GNUX", 3, "id");
  std::vector<bool> gnu;
  const aoti::util::ByteView bytes({reinterpret_cast<const std::byte*>(area.data()), area.size()});
  for_each_note(bytes, 4, [&](const Note& n) {
    gnu.push_back(n.owned_by("GNU"));
    return true;
  });
  CHECK(gnu == std::vector<bool>{true, false});
}

TEST_CASE("notes: the callback stops the walk") {
  const std::string area = note("GNU", 3, "first") + note("GNU", 3, "second");
  int visited = 0;
  const aoti::util::ByteView bytes({reinterpret_cast<const std::byte*>(area.data()), area.size()});
  for_each_note(bytes, 4, [&](const Note&) {
    ++visited;
    return false;
  });
  CHECK(visited == 1);
}
