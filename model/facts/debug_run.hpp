// What the debugging guide's own flags leave behind, read back: the intermediate value printer's
// launches and tensor values (AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER: printed in a log by
// modes 2 and 3, saved as `.pt` files by mode 1), and the driver's notice that it caught a device
// exception (CUDA_ENABLE_COREDUMP_ON_EXCEPTION).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/location.hpp"

namespace aoti::model {

// A tensor's statistics, as the printer prints them (`Dtype: long int`, `Max value: 2.74878e+11`)
// or as computed from a saved tensor's bytes. What was not printed or not computed stays empty.
// Computed ones (parsers/pt) leave NaN out of min and max and every non-finite value out of mean,
// so that one NaN does not hide the range of the rest; nan_count and inf_count say what was left.
struct TensorSummary {
  std::string dtype;  // as printed ("float32", "long int") or torch's name of the stored type
  std::optional<std::int64_t> numel;
  std::optional<double> min, max, mean;
  // The printed text of each statistic ("2.74878e+11"), so a report quotes it as the log has it;
  // empty for computed ones.
  std::string min_text, max_text, mean_text;
  int min_line = 0, max_line = 0;  // the log lines that printed them (0 for computed ones)
  std::vector<std::int64_t> size, stride;
  std::string device;  // "cuda:0"
  // Counted only over a saved tensor's bytes (the printer's text does not say).
  std::optional<std::int64_t> nan_count, inf_count;
};

// Which point of the run a value was printed at.
enum class PrintPhase { model_inputs, before_launch, after_launch };
std::string_view to_string(PrintPhase phase);

// One argument the printer showed: `[  before_launch - K - arg9_1  ]:` and the lines under it, a
// scalar `[  before_launch - K - xnumel: 160  ]`, or one `.pt` file of mode 1.
struct PrintedValue {
  PrintPhase phase = PrintPhase::before_launch;
  std::string kernel;  // "" for model inputs
  std::string arg;     // "arg9_1", "buf8", "bias_weight", "xnumel"
  Location where;      // the header's line in the log, or the `.pt` file
  std::string header;  // the header line as the log holds it, trimmed ("" for a `.pt` file)
  std::optional<TensorSummary> tensor;  // a tensor's statistics
  std::string scalar;                   // a scalar argument's printed value ("160")
  bool cut = false;  // the log ended (or another block began) before the statistics did
  // A `.pt` file of mode 1 names kernel and arg joined by `_`, and both hold underscores: they are
  // split by the wrapper's save call for that file when the case has the wrapper (wrapper_line),
  // else by a rule (parsers/pt/dump_name.hpp), and then names_inferred is true.
  bool names_inferred = false;
  int wrapper_line = 0;  // the wrapper's printer call that saved (or printed) it; 0: not known
};

// A kernel (or fallback op) the printer announced: `[ before_launch: K ]`, then `[ after_launch: K
// ]` when the launch returned.
struct KernelLaunch {
  std::string kernel;
  int before_line = 0;
  int after_line = 0;       // 0: no `after_launch` followed
  std::string before_text;  // the `before_launch` line as the log holds it, trimmed
};

// One run of the model, as the printer saw it: its launches in order and the values it printed.
// A new run starts where the model inputs are printed again, or where the first kernel of the run
// is launched again after the run's launches all returned. A folder of `.pt` dumps is one run (each
// run overwrites the files of the one before), with no launches and no lines: its values are in
// the order of the wrapper's save calls when the case has the wrapper, else in file name order.
struct PrinterRun {
  std::vector<KernelLaunch> launches;
  std::vector<PrintedValue> values;
  int first_line = 0;
  int last_line = 0;
  std::size_t launches_not_kept = 0;  // older launches let go past the reader's cap
};

// `Starting GPU coredump generation` (and what CUDA_COREDUMP_SHOW_PROGRESS adds): the CUDA driver
// caught an exception on the device and dumps the GPU before aborting the process.
struct DeviceExceptionNotice {
  Location where;
  std::string text;       // the line, trimmed
  std::string core_file;  // the dump's file when the progress output names it; "" otherwise
};

// What one log (or one folder of `.pt` dumps) holds of these.
struct DebugRunFacts {
  std::string artifact;  // the log's display name, or the dump folder's
  std::vector<PrinterRun> runs;
  // The model whose wrapper's printer calls name these values (correlation); nullopt: none does.
  std::optional<std::size_t> model;
  std::optional<DeviceExceptionNotice> device_exception;
  // Printer blocks cut in the middle, values that do not parse: what was wrong, at which line.
  std::vector<std::string> problems;
};

}  // namespace aoti::model
