// Where a fact was seen, and what could not be read: the two things every layer points at.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace aoti::model {

// Where a fact was seen. `artifact` is the path the user gave (or found in a folder);
// `entry` names a file inside it (a zip entry of a package), empty otherwise.
struct Location {
  std::string artifact;
  std::string entry;
  int line = 0;  // 1-based; 0 when the fact has no line

  std::string display() const;  // "model.pt2:model/.../x.wrapper.cpp:42"
};

// Two artifacts are outputs of one run when one's folder holds the other's: stderr.txt beside
// trace/, a log and the core of the same process. What ties findings and facts of one run together.
bool same_run(std::string_view artifact_a, std::string_view artifact_b);

// What a diagnostic is about: an input (almost always), or a check that failed internally.
enum class DiagnosticSource { artifact, check };

// What a diagnostic of a C++ source says, for the reports' summary of a whole tree: a compile error
// clang recovered from, or headers the file includes that were found nowhere (`names`).
// What a C++ source's diagnostic is about, so that a tree's many can be summarized:
// functions_with_errors names, in `names`, the functions whose bodies the compile errors are in.
enum class SourceProblem { none, compile_error, missing_headers, functions_with_errors };

struct Diagnostic {
  std::string artifact;  // the input as displayed; the check's id when source is check
  std::string message;
  DiagnosticSource source = DiagnosticSource::artifact;
  SourceProblem problem = SourceProblem::none;
  int count = 1;                        // compile_error: how many errors this one stands for
  std::vector<std::string> names = {};  // missing_headers: the headers, as included;
                                        // functions_with_errors: the functions
};

}  // namespace aoti::model
