#include "analyzer/report/backtrace.hpp"

#include <fmt/format.h>

#include "model/describe.hpp"

namespace aoti::report {

std::string render_backtrace(const model::CoreFacts& core) {
  std::string out = "Core " + core.artifact + ": pid " + std::to_string(core.pid);
  if (!core.executable.empty()) out += ", " + core.executable;
  if (!core.process_name.empty()) out += " (" + core.process_name + ")";
  out += "\n";
  if (!core.command_line.empty()) out += "Command: " + core.command_line + "\n";
  out += "Signal: " + (core.signal_name.empty() ? std::string("none") : core.signal_name);
  if (!core.signal_code_name.empty()) out += " (" + core.signal_code_name + ")";
  if (core.sender_pid) out += " sent by pid " + std::to_string(*core.sender_pid);
  if (core.fault_address) out += fmt::format(" at fault address 0x{:x}", *core.fault_address);
  out += "\n";
  if (!core.fault_region.empty()) out += "Fault: " + core.fault_region + "\n";
  for (const std::string& note : core.health) out += "Note: " + note + "\n";
  for (const model::CoreThread& thread : core.threads) {
    out += "\nThread " + std::to_string(thread.tid) + (thread.crashed ? " (crashed)" : "") + ":\n";
    bool stop_told = false;
    for (std::size_t i = 0; i < thread.frames.size(); ++i) {
      const model::StackFrame& frame = thread.frames[i];
      // Where the unwound path ends, the scan's candidates begin: never read as one path.
      if (!frame.unwound() && (i == 0 || thread.frames[i - 1].unwound())) {
        if (!thread.unwind_error.empty() && !stop_told)
          out += "    unwinding stopped: " + thread.unwind_error + "\n";
        stop_told = true;
        out += "    -- " + std::string(model::k_stack_scan_label) + " --\n";
      }
      std::string symbol = frame.symbol.empty() ? "??" : frame.symbol;
      if (symbol.size() > 300) symbol = symbol.substr(0, 300) + "...";  // template-heavy names
      if (!frame.symbol.empty()) symbol += fmt::format("+0x{:x}", frame.symbol_offset);
      // "#0  0x00007f...": the frame number padded like gdb and eu-stack, the pc at full width.
      out += fmt::format("#{:<3}0x{:016x} in {}", i, frame.pc, symbol);
      if (!frame.module.empty())
        out += fmt::format(" ({} +0x{:x})", frame.module, frame.module_offset);
      if (!frame.package.empty()) out += " [model " + frame.package + "]";
      if (!frame.unwound()) out += " [stack scan]";
      out += "\n";
    }
    if (!thread.unwind_error.empty() && !stop_told)
      out += "    unwinding stopped: " + thread.unwind_error + "\n";
  }
  return out;
}

}  // namespace aoti::report

namespace aoti::report {

std::string render_gpu_backtrace(const model::GpuCoreFacts& core) {
  using model::dim3_text;
  using model::gpu_location_text;
  std::string out = "GPU core " + core.artifact;
  if (!core.driver_version.empty()) out += ": driver " + core.driver_version;
  if (!core.cuda_version.empty()) out += ", CUDA " + core.cuda_version;
  if (core.lightweight) out += " (lightweight dump)";
  out += "\n";
  for (const auto& d : core.devices)
    out += fmt::format("Device {}: {} {} {}, {} SMs\n", d.index, d.name, d.type, d.sm_type,
                       d.sm_count);
  for (const std::string& note : core.health) out += "Note: " + note + "\n";
  for (const auto& g : core.grids)
    out += fmt::format("\nGrid {} on device {}: {} <<<{},{}>>>, launched by host thread {}\n", g.id,
                       g.device, gpu_location_text(g.entry), dim3_text(g.grid_dim),
                       dim3_text(g.block_dim), g.host_tid);
  for (const auto& w : core.faulting_warps) {
    if (w.from_sm_table) {
      out += fmt::format("\nSM {} on device {}: {} (its faulting warps had exited)\n", w.sm,
                         w.device, w.exception_name);
    } else {
      out += fmt::format(
          "\nWarp {} on SM {}, device {}, grid {}, block {}: {}, {} faulting lane(s)", w.warp, w.sm,
          w.device, w.grid, dim3_text(w.block), w.exception_name, w.faulting_lanes.size());
      if (!w.faulting_lanes.empty())
        out += fmt::format(", first thread {}, last {}", dim3_text(w.faulting_lanes.front().thread),
                           dim3_text(w.faulting_lanes.back().thread));
      out += "\n";
    }
    if (w.error)
      out += fmt::format("    error 0x{:016x} in {}\n", w.error->pc, gpu_location_text(*w.error));
    if (w.stop)
      out += fmt::format("#0    0x{:016x} in {}\n", w.stop->pc, gpu_location_text(*w.stop));
    for (const auto* at : {w.error ? &*w.error : nullptr, w.stop ? &*w.stop : nullptr})
      if (at && !at->problem.empty()) out += fmt::format("    0x{:x}: {}\n", at->pc, at->problem);
  }
  if (core.faulting_warps.empty()) out += "\nNo warp of the dump recorded an exception.\n";
  return out;
}

}  // namespace aoti::report
