// runtime.cxx-runtime-conflict: a model .so that carries its own static libstdc++ and exports the
// C++ runtime's symbols: in a process that already maps libstdc++.so.6 (every PyTorch process), two
// copies of std::locale, iostreams and the exception runtime meet, which crashes at load.
#include "checks/runtime/cxx_runtime_conflict.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/finding.hpp"
#include "model/describe.hpp"
#include "util/demangle.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

std::string first_word(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  return std::string(text.substr(begin, text.find_first_of(" \t", begin) - begin));
}

// The crash this conflict explains: the crashing thread is in C++ runtime code that the model .so
// carries itself, in a process that also maps the system libstdc++.so.6.
void add_crash(Finding& f, const CoreFacts& core, const ModelFacts& model) {
  const CoreThread* thread = crashing_thread(core);
  const MappedModule* system_runtime = mapped(core, "libstdc++.so.6");
  if (!thread || !system_runtime) return;
  std::size_t runtime_frame = thread->frames.size();
  for (std::size_t i = 0;
       i < thread->frames.size() && i < 8 && runtime_frame == thread->frames.size(); ++i) {
    const auto& frame = thread->frames[i];
    if (frame.unwound() && frame.package == model.package && !model.package.empty() &&
        is_cxx_runtime_symbol(frame.symbol))
      runtime_frame = i;
  }
  if (runtime_frame == thread->frames.size()) return;

  f.severity = Severity::error;
  f.confidence = 0.95;
  f.explains_failure = true;
  const std::string phase = crash_phase(core);
  f.title = fmt::format("{} in the model .so's own copy of the C++ runtime{}", core.signal_name,
                        crash_phase_clause(core).empty() ? "" : " " + crash_phase_clause(core));
  f.message += fmt::format(
      " The process died of {} in thread {} inside that copy ({}), while it also maps {}.",
      core.signal_name, thread->tid, util::short_symbol(thread->frames[runtime_frame].symbol),
      module_name(system_runtime->path));
  f.evidence.insert(
      f.evidence.begin(),
      Evidence{core_location(core),
               fmt::format("{} ({}) at {}", core.signal_name, core.signal_code_name,
                           core.fault_address ? fmt::format("0x{:x}", *core.fault_address) : "?"),
               core.fault_region.empty() ? "the crash" : "the crash: " + core.fault_region});
  // The frames that tell the story: the runtime code, then the AOTI calls that led there.
  std::vector<std::string> frames;
  std::size_t skipped = 0;
  for (std::size_t i = 0; i < thread->frames.size() && frames.size() < 12; ++i) {
    const auto& frame = thread->frames[i];
    if (!frame.unwound()) continue;  // candidates, shown apart below
    const bool aoti = frame.symbol.find("aot_inductor") != std::string::npos ||
                      frame.symbol.find("AOTInductor") != std::string::npos;
    if (i <= runtime_frame + 2 || aoti) {
      if (skipped)
        frames.push_back(fmt::format("   ... {} more frame(s) of the C++ runtime", skipped));
      skipped = 0;
      frames.push_back(frame_text(frame, i));
    } else if (frame.package == model.package) {
      ++skipped;
    }
  }
  if (const std::string candidates =
          candidate_frames(*thread, 4,
                           [&](std::size_t i) {
                             const auto& symbol = thread->frames[i].symbol;
                             return symbol.find("aot_inductor") != std::string::npos ||
                                    symbol.find("AOTInductor") != std::string::npos;
                           });
      !candidates.empty())
    frames.push_back(candidates);
  f.evidence.insert(
      f.evidence.begin() + 1,
      Evidence{core_location(core), join(frames, "\n"),
               fmt::format("the crashing thread {} (frames in the model .so)", thread->tid)});
  f.evidence.insert(f.evidence.begin() + 2,
                    Evidence{core_location(core), system_runtime->path,
                             "the system C++ runtime the process maps as well"});
  f.chain = {"process maps " + module_name(system_runtime->path),
             "model .so links its own libstdc++", phase.empty() ? "AOTI call" : phase,
             util::short_symbol(thread->frames[runtime_frame].symbol), core.signal_name};
}

}  // namespace

std::vector<Finding> RuntimeCxxRuntimeConflictCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& model : c.models) {
    if (!model.so) continue;
    const ElfFacts& so = *model.so;
    const bool links_libstdcxx = std::any_of(
        so.needed.begin(), so.needed.end(),
        [](const std::string& n) { return n.starts_with("libstdc++") || n.starts_with("libc++"); });
    if (links_libstdcxx || so.cxx_runtime_symbol_count == 0) continue;

    // A latent hazard that stops the model at load outranks every warning: nothing else in the
    // package matters if it cannot be created.
    Finding f = new_finding(k_info, Severity::error, 0.85);
    f.subject = "model so " + model.name;
    const std::string compiler = model.wrapper ? first_word(model.wrapper->link_cmd) : "";
    f.title = "The model .so carries its own copy of the C++ runtime (libstdc++ linked statically)";
    f.message = fmt::format(
        "The model's shared object has no DT_NEEDED entry for libstdc++.so.6 yet defines {} "
        "symbols of the C++ "
        "runtime itself (std::locale, iostreams, the exception runtime){}. The Python process that "
        "loads it "
        "already maps the system libstdc++.so.6.",
        so.cxx_runtime_symbol_count,
        compiler.empty() ? "" : fmt::format("; it was linked by `{}`", compiler));
    f.why =
        "Two C++ runtimes in one process share global state by symbol name: std::locale and regex "
        "objects "
        "built by one copy are used by the other, which crashes while the model is created "
        "(parse_device_str → std::regex) or later, depending on load order.";
    f.evidence.push_back(Evidence{so.where, "DT_NEEDED: " + join(so.needed),
                                  "no libstdc++.so.6 among the libraries the model .so needs"});
    std::vector<std::string> sample;
    for (std::size_t i = 0; i < so.cxx_runtime_symbols.size() && i < 4; ++i)
      sample.push_back(util::demangle(so.cxx_runtime_symbols[i]));
    f.evidence.push_back(
        Evidence{so.where, join(sample, "; "),
                 fmt::format("{} C++ runtime symbols defined by the model .so itself",
                             so.cxx_runtime_symbol_count)});
    for (const auto& comment : so.comments)
      f.evidence.push_back(Evidence{so.where, comment, "the compiler that built it (.comment)"});
    if (model.wrapper && !model.wrapper->link_cmd.empty())
      f.evidence.push_back(quote_wrapper(
          *model.wrapper, model.wrapper->link_cmd_line,
          fmt::format("the link command recorded in the wrapper: the compiler is `{}`", compiler)));
    for (const auto& core : c.cores) add_crash(f, core, model);
    // A bare model .so (no zip entry) is read where it lies.
    const bool bare = so.where.entry.empty();
    f.next_steps = {
        repackage_step(c,
                       bare ? "re-compile with the compiler whose libstdc++ the process uses, "
                              "which links it dynamically"
                            : "re-package with the compiler whose libstdc++ the process uses, "
                              "which links it dynamically",
                       "CXX=/usr/bin/g++"),
        {"see the libraries this .so needs: libstdc++.so.6 is missing from the list (a rebuilt one "
         "has it)",
         bare ? fmt::format("readelf -d {} | grep NEEDED", shell_quote(so.where.artifact))
              : fmt::format("d=$(mktemp -d) && unzip -q {} {} -d \"$d\" && readelf -d \"$d\"/{} | "
                            "grep NEEDED",
                            shell_quote(so.where.artifact), shell_quote(so.where.entry),
                            shell_quote(so.where.entry))},
        {"after rebuilding in place, run this analysis again: this finding should be gone",
         reanalyze_command(c, "")}};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace aoti::checks
