#!/usr/bin/env python3
"""Writes the four pieces of a new check and its registry line (clang-tidy's add_new_check.py).

    scripts/new_check.py shape.negative-stride "A stride the wrapper checks is negative"

creates
    checks/<family>/<name>.hpp        the class: its CheckInfo and run()
    checks/<family>/<name>.cpp        run(), to fill in
    checks/docs/<id>.md               the doc page skeleton (--explain prints it)
    tests/checks/test_<family>_<name>.cpp   its test file, named as tests/test_checks_registry.cpp expects
and adds `#include` + `list.push_back(std::make_unique<...>())` to checks/registry.cpp (the new check
runs before error.unclassified, the last resort), the .cpp to checks/CMakeLists.txt and the test to
tests/CMakeLists.txt (both list their sources explicitly).
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ID_RE = re.compile(r"^[a-z]+\.[a-z0-9-]+$")


def class_name(check_id: str) -> str:
    # device.input-mismatch -> DeviceInputMismatchCheck
    return "".join(word.capitalize() for word in re.split(r"[.\-]", check_id)) + "Check"


def cxx_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_new(path: pathlib.Path, text: str) -> None:
    if path.exists():
        sys.exit(f"{path.relative_to(ROOT)} exists already")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    print(f"wrote {path.relative_to(ROOT)}")


def add_to_registry(header: str, cls: str) -> None:
    registry = ROOT / "checks" / "registry.cpp"
    text = registry.read_text()
    includes = re.findall(r'^#include "checks/[a-z]+/[a-z0-9_]+\.hpp"$', text, re.M)
    new_include = f'#include "{header}"'
    block = "\n".join(sorted(includes + [new_include]))
    text = text.replace("\n".join(includes), block, 1)
    last_resort = "    list.push_back(std::make_unique<ErrorUnclassifiedCheck>());"
    if last_resort not in text:
        sys.exit("checks/registry.cpp: the error.unclassified line is not where this script expects it")
    text = text.replace(last_resort, f"    list.push_back(std::make_unique<{cls}>());\n{last_resort}", 1)
    registry.write_text(text)
    print("added the check to checks/registry.cpp")


def add_line_sorted(path: pathlib.Path, line: str, pattern: str) -> None:
    """Adds `line` to the longest run of consecutive lines matching `pattern` in `path`, keeping it sorted."""
    lines = path.read_text().split("\n")
    runs, current = [], []
    for i, text in enumerate(lines):
        if re.fullmatch(pattern, text):
            current.append(i)
        elif current:
            runs.append(current)
            current = []
    runs.append(current)
    run = max(runs, key=len)
    if not run:
        sys.exit(f"{path.relative_to(ROOT)}: no line like {pattern!r} to add {line.strip()!r} beside")
    block = sorted({lines[i] for i in run} | {line})
    lines[run[0] : run[-1] + 1] = block
    path.write_text("\n".join(lines))
    print(f"added {line.strip()} to {path.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("id", help="family.name, e.g. shape.negative-stride")
    parser.add_argument("summary", help="one line for --list-checks and SARIF")
    args = parser.parse_args()
    if not ID_RE.match(args.id):
        sys.exit(f"{args.id}: a check id is family.name ({ID_RE.pattern})")
    family, name = args.id.split(".", 1)
    stem = name.replace("-", "_")
    cls = class_name(args.id)
    header = f"checks/{family}/{stem}.hpp"
    summary = cxx_string(args.summary)

    write_new(ROOT / header, f"""// {args.id}: {args.summary}.
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {{

class {cls} final : public Check {{
 public:
  static constexpr CheckInfo k_info{{"{args.id}", "{family}",
                                    {summary}}};
  const CheckInfo& info() const override {{ return k_info; }}
  std::vector<model::Finding> run(const model::Case& c) const override;
}};

}}  // namespace aoti::checks
""")

    write_new(ROOT / "checks" / family / f"{stem}.cpp", f"""// {args.id}: {args.summary}.
#include "{header}"

#include "checks/support/finding.hpp"

namespace aoti::checks {{
using namespace aoti::model;

std::vector<Finding> {cls}::run(const Case& c) const {{
  std::vector<Finding> out;
  // For each fact of `c` that shows the problem:
  //   Finding f = new_finding(k_info, Severity::warning, 0.5);
  //   f.subject, f.title, f.message, f.why, f.evidence (quote_wrapper, event_evidence, fact), f.next_steps
  //   out.push_back(std::move(f));
  return out;
}}

}}  // namespace aoti::checks
""")

    write_new(ROOT / "checks" / "docs" / f"{args.id}.md", f"""# {args.id}

**Finds:** {args.summary[0].lower() + args.summary[1:]}.

**Evidence it uses**
- 

**Severity:** 

**Why it matters:** 

**Example:** 

**Next steps:** 

**Limitations:** 
""")

    write_new(ROOT / "tests" / "checks" / f"test_{family}_{stem}.cpp", f"""// {args.id}: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "{header}"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("{args.id}") {{
  Case c = cuda_case();
  // Add the facts the check looks for, then:
  const auto found = run_check<{cls}>(c);
  CHECK(found.empty());
}}
""")

    add_to_registry(header, cls)
    family, name = args.id.split(".", 1)
    stem = name.replace("-", "_")
    add_line_sorted(ROOT / "checks" / "CMakeLists.txt", f"  {family}/{stem}.cpp", r"  [a-z]+/[a-z0-9_]+\.cpp")
    add_line_sorted(ROOT / "tests" / "CMakeLists.txt", f"aoti_test(checks/test_{family}_{stem} aoti_analyzer NEEDS_LIBCLANG)",
                    r"aoti_test\(checks/test_[a-z0-9_]+ aoti_analyzer NEEDS_LIBCLANG\)")


if __name__ == "__main__":
    main()
