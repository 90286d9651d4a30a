// The helpers both source front ends share (parsers/source/source_text): op names, the order of
// pattern records, excerpts and schema strings.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "parsers/source/source_text.hpp"

using aoti::model::PatternForm;
using aoti::model::SourcePattern;
namespace source = aoti::parsers::source;

TEST_CASE("qualify: a name joins its namespace unless it has one, and no namespace adds nothing") {
  CHECK(source::qualify("ns", "op") == "ns::op");
  CHECK(source::qualify("ns", "other::op") == "other::op");
  // Never "::op": an op without a namespace must stay recognizable as one.
  CHECK(source::qualify("", "op") == "op");
}

TEST_CASE("sort_by_place: by line, then column, then pattern id") {
  struct Place {
    const char* id;
    int line, column;
  };
  std::vector<SourcePattern> patterns;
  for (const Place& at :
       {Place{"P5", 4, 9}, Place{"P1", 4, 9}, Place{"C1", 2, 30}, Place{"P2", 4, 1}}) {
    SourcePattern p = source::matched(at.id, PatternForm::size_read);
    p.line = at.line;
    p.column = at.column;
    patterns.push_back(p);
  }
  source::sort_by_place(patterns);
  std::vector<std::string> order;
  for (const auto& p : patterns) order.push_back(p.id);
  CHECK(order == std::vector<std::string>{"C1", "P2", "P1", "P5"});
}

TEST_CASE("LineIndex::excerpt: the line trimmed, bounded, empty past the end") {
  const std::string text = "first\n  \tsecond line \r\n" + std::string(300, 'x') + "\n";
  const source::LineIndex lines(text);
  CHECK(lines.line_count() == 3);
  CHECK(lines.excerpt(1) == "first");
  CHECK(lines.excerpt(2) == "second line");
  CHECK(lines.excerpt(3) == std::string(source::k_excerpt_limit, 'x') + "...");
  CHECK(lines.excerpt(0).empty());
  CHECK(lines.excerpt(4).empty());
}

TEST_CASE("parse_schema: name, argument types as spelled, alias annotations dropped") {
  const auto schema =
      source::parse_schema("ns::op.out(Tensor(a!) x, SymInt n=1, *, int[] sizes) -> Tensor");
  CHECK(schema.name == "ns::op.out");
  REQUIRE(schema.args.size() == 3);
  CHECK(schema.args[0].type == "Tensor");
  CHECK(schema.args[1].type == "SymInt");
  CHECK(schema.args[1].name == "n");
  CHECK(schema.args[2].type == "int[]");
  CHECK(schema.args[2].type == "int[]");
  CHECK(source::names_a_size(schema.args[2].name));
}
