// util/mapping_guard: a mapped file cut while it is read reads as zeros past its new end, and says
// so, instead of ending the process with SIGBUS.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "support.hpp"
#include "util/mapping_guard.hpp"

namespace {

const long k_page = ::sysconf(_SC_PAGESIZE);

// Three pages of 'x', mapped; the file is then cut to one page.
struct CutMapping {
  aoti::test::TempDir dir;
  int fd = -1;
  char* map = nullptr;
  std::size_t size = 3 * static_cast<std::size_t>(k_page);
  CutMapping() {
    const auto path = dir.path / "file";
    aoti::test::write_file(path, std::string(size, 'x'));
    fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    REQUIRE(fd >= 0);
    map = static_cast<char*>(::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0));
    REQUIRE(map != MAP_FAILED);
  }
  void cut() { REQUIRE(::ftruncate(fd, k_page) == 0); }
  ~CutMapping() {
    ::munmap(map, size);
    ::close(fd);
  }
};

}  // namespace

TEST_CASE("a page past the cut end of a guarded mapping reads as zeros and marks it cut") {
  CutMapping file;
  aoti::util::MappingGuard guard(file.map, file.size);
  REQUIRE(guard.guarded());
  CHECK(file.map[2 * k_page] == 'x');  // in the page cache before the cut
  CHECK_FALSE(guard.cut());
  file.cut();
  CHECK(file.map[0] == 'x');  // what the file still has
  const volatile char* past = file.map + 2 * k_page + 17;
  CHECK(*past == 0);  // SIGBUS without the guard
  CHECK(guard.cut());
}

TEST_CASE("a mapping nobody cut is not marked; guards of other mappings are independent") {
  CutMapping cut_one;
  CutMapping kept;
  aoti::util::MappingGuard cut_guard(cut_one.map, cut_one.size);
  aoti::util::MappingGuard kept_guard(kept.map, kept.size);
  cut_one.cut();
  const volatile char* past = cut_one.map + 2 * k_page;
  CHECK(*past == 0);
  CHECK(kept.map[2 * k_page] == 'x');
  CHECK(cut_guard.cut());
  CHECK_FALSE(kept_guard.cut());
}

TEST_CASE("a released slot is free for the next mapping, and starts uncut") {
  for (int round = 0; round < 300; ++round) {  // more rounds than there are slots
    CutMapping file;
    aoti::util::MappingGuard guard(file.map, file.size);
    REQUIRE(guard.guarded());
    CHECK_FALSE(guard.cut());
    if (round % 100 == 0) {
      file.cut();
      const volatile char* past = file.map + 2 * k_page;
      CHECK(*past == 0);
      CHECK(guard.cut());
    }
  }
}
