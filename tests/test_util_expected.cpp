// TRY and TRY_ASSIGN forward an error to the caller and otherwise carry on with the value.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include <tl/expected.hpp>

#include "util/expected.hpp"

namespace {

using Result = tl::expected<int, std::string>;

Result parse(const std::string& text) {
  if (text.empty()) return tl::unexpected(std::string("empty"));
  return static_cast<int>(text.size());
}

Result twice(const std::string& text) {
  TRY_ASSIGN(const int value, parse(text));
  return 2 * value;
}

tl::expected<void, std::string> check(const std::string& text, int& calls) {
  TRY(parse(text));
  ++calls;
  return {};
}

// Move-only values are moved out, not copied.
tl::expected<std::unique_ptr<int>, std::string> boxed(int value) {
  return std::make_unique<int>(value);
}

tl::expected<int, std::string> unbox(int value) {
  TRY_ASSIGN(auto box, boxed(value));
  return *box;
}

}  // namespace

TEST_CASE("TRY_ASSIGN gives the value, or returns the error") {
  CHECK(twice("abc") == Result(6));
  REQUIRE_FALSE(twice(""));
  CHECK(twice("").error() == "empty");
  CHECK(unbox(7) == 7);
}

TEST_CASE("TRY goes on after a value and returns the error otherwise") {
  int calls = 0;
  CHECK(check("x", calls));
  CHECK(calls == 1);
  const auto failed = check("", calls);
  REQUIRE_FALSE(failed);
  CHECK(failed.error() == "empty");
  CHECK(calls == 1);
}
