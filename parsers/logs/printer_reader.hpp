// The debugging flags' own output in a log, read in the log scanner's one pass: the intermediate
// value printer's launches (`[ before_launch: K ]`, `[ after_launch: K ]`), its tensor blocks
// (`[  before_launch - K - ARG  ]:` then `Number of elements: ...`, `Max value: ...`), its scalar
// arguments (`[  before_launch - K - xnumel: 160  ]`), the model inputs it prints
// (`[  aoti_model_inputs - ARG  ]:`), and the CUDA driver's `Starting GPU coredump generation`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "model/facts/debug_run.hpp"

namespace aoti::parsers::logs {

class PrinterReader {
 public:
  explicit PrinterReader(std::string display) { m_facts.artifact = std::move(display); }
  // `line` without its CI or logger prefix; `raw` as the log holds it (what the facts quote).
  void scan(std::string_view line, std::string_view raw, int number);
  // The facts, or nullopt when the log holds none of this output.
  std::optional<model::DebugRunFacts> finish();

 private:
  void header(model::PrintPhase phase, std::string_view kernel, std::string_view arg,
              std::string_view scalar, bool is_scalar, int number, std::string_view raw);
  void launch_line(bool before, std::string_view kernel, int number, std::string_view raw);
  bool statistic(std::string_view line, int number);
  void close_block(bool cut);
  model::PrinterRun& run_for(model::PrintPhase phase, std::string_view kernel);
  model::KernelLaunch* open_launch(std::string_view kernel);
  void begin_launch(std::string_view kernel, int number, std::string_view raw);
  void returned(std::string_view kernel, int number);

  model::DebugRunFacts m_facts;
  // What run_for() asks of the current run, kept as it grows so that a line costs the same however
  // long the run is.
  struct RunState {
    bool inputs_printed = false;  // the model inputs were printed
    bool past_inputs = false;     // a launch or a kernel's value came after them
    std::size_t unreturned = 0;   // launches with no `after_launch` yet
  };
  RunState m_run;
  std::size_t m_values = 0, m_launches = 0;  // kept, over all runs
  std::size_t m_dropped_values = 0, m_dropped_launches = 0;
  // The tensor block whose statistics the next lines hold: its run and index in run.values.
  int m_block = -1;
  bool m_block_has_stats = false;
  bool m_any = false;
};

}  // namespace aoti::parsers::logs
