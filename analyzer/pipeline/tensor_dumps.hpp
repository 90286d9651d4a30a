// The `.pt` files the intermediate value printer's mode 1 saves (one per argument of each kernel
// launch, before and after it): read into one DebugRunFacts per folder, then named and ordered by
// the wrapper's save calls when the case holds the wrapper.
#pragma once

#include <map>
#include <string>

#include "analyzer/pipeline/sniff.hpp"
#include "model/case.hpp"

namespace aoti::pipeline {

class TensorDumpFolders {
 public:
  // Reads one dump into its folder's run; a dump that cannot be read is a diagnostic (and a problem
  // of its folder's run), the others are still read.
  void load(const SniffedInput& input, model::Artifact& artifact, model::Case& c);
  // Each folder's run into the case, its values in file name order.
  void finish(model::Case& c);

 private:
  model::DebugRunFacts& facts_of(const std::string& display);  // the run of the dump's folder
  std::map<std::string, model::DebugRunFacts> m_runs;          // by folder, as displayed
};

// Correlation: the kernel and arg of each dump, from the save call of the wrapper that names the
// most of them (mode 1 joins both with `_` in the file name, and both hold underscores), and its
// values in the order of those calls.
void correlate_tensor_dumps(model::Case& c);

}  // namespace aoti::pipeline
