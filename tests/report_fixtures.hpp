// A hand-built case modelled on corpus/embedding-device-assert, its two findings, and findings
// carrying every hostile string an input file can smuggle in: what the report writer tests share.
// Findings are built by hand so that the writer tests do not depend on the checks.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::test {

using aoti::model::ArtifactKind;
using aoti::model::Case;
using aoti::model::Finding;
using aoti::model::InputCheckKind;
using aoti::model::Severity;

inline const std::string k_dir = "corpus/embedding-device-assert";
inline const std::string k_package = k_dir + "/model.pt2";
inline const std::string k_stderr = k_dir + "/stderr.txt";
inline const std::string k_wrapper_entry =
    "model/data/aotinductor/model/cdnctzzhd3tubc5ir4itscfgos625b32bllm2mbc7nsudd7x2qxd.wrapper.cpp";

inline Case embedding_case() {
  Case c;
  c.artifacts = {
      {k_package, ArtifactKind::package, 620094, true, "1 model (model), 13 entries"},
      {k_stderr, ArtifactKind::log, 3292, true, "12 events"},
      {k_dir + "/core.xz", ArtifactKind::core_dump, 3949452, false, "core dumps are not read yet"},
  };
  c.diagnostics = {
      {k_dir + "/core.xz", "xz-compressed ELF core: core dumps are not supported yet"}};

  aoti::model::ModelFacts model;
  model.name = "model";
  model.package = k_package;
  model.metadata = {
      {"AOTI_DEVICE_KEY", "cuda"}, {"AOTI_PLATFORM", "linux"}, {"AOTI_COMPUTE_CAPABILITY", "90"}};
  aoti::model::WrapperFacts wrapper;
  wrapper.where = {k_package, k_wrapper_entry, 0};
  wrapper.inputs = {{0, "arg3_1", 588, {}, {}, {}}};
  wrapper.input_checks = {
      {0, "arg3_1", InputCheckKind::dtype, -1, 4, "at::kLong", 875},
      {0, "arg3_1", InputCheckKind::dim_min, 0, 2, "", 884},
      {0, "arg3_1", InputCheckKind::dim_max, 0, 64, "", 892},
      {0, "arg3_1", InputCheckKind::dim_min, 1, 2, "", 900},
      {0, "arg3_1", InputCheckKind::dim_max, 1, 2048, "", 908},
      {0, "arg3_1", InputCheckKind::stride_equal, 1, 1, "", 917},
      {0, "arg3_1", InputCheckKind::device_type, -1, 1, "cuda", 928},
  };
  wrapper.checks_gated_by_env = true;
  wrapper.gate_line = 946;
  for (const char* name :
       {"triton_poi_fused_embedding_0", "triton_poi_fused_1", "triton_red_fused_sum_view_2"}) {
    aoti::model::TritonKernel kernel;
    kernel.name = name;
    wrapper.kernels.push_back(kernel);
  }
  wrapper.link_cmd =
      "/usr/bin/g++ cdnctzzhd3tubc5ir4itscfgos625b32bllm2mbc7nsudd7x2qxd.wrapper.o -shared -fPIC";
  model.wrapper = wrapper;
  aoti::model::ElfFacts so;
  so.comments = {"GCC: (Ubuntu 13.3.0-6ubuntu2~24.04.1) 13.3.0"};
  model.so = so;
  c.models.push_back(model);
  return c;
}

inline std::vector<Finding> embedding_findings() {
  Finding oob;
  oob.check = "triton.index-out-of-bounds";
  oob.severity = Severity::error;
  oob.confidence = 0.95;
  oob.title =
      "Embedding ids out of range in triton_poi_fused_embedding_0 (input arg3_1, table of 1000 "
      "rows)";
  oob.message =
      "The device assert `index out of bounds: 0 <= tmp4 < 1000` fired 8 times in "
      "triton_poi_fused_embedding_0. tmp4 is tmp0 wrapped once for negative ids, and tmp0 is "
      "loaded from in_ptr0, which the wrapper binds to arg3_1, the model's input 0. So arg3_1 held "
      "an id >= 1000 or < -1000 for an embedding table of 1000 rows (emb.weight).";
  oob.why =
      "A device-side assert poisons the CUDA context: every later CUDA call fails, and the model "
      "cannot run again in this process. The package's input checks cover shapes and dtypes, "
      "never the values of ids, so nothing stops this input before the kernel.";
  oob.evidence = {
      {{k_package, k_wrapper_entry, 679},
       "tl.device_assert(((0 <= tmp4) & (tmp4 < 1000)) | ~(ymask), \"index out of bounds: 0 <= "
       "tmp4 < "
       "1000\")",
       "the bound the kernel was compiled with: the embedding table has 1000 rows"},
      {{k_package, k_wrapper_entry, 990},
       "call_triton_poi_fused_embedding_0(arg3_1, emb_weight, buf0, "
       "triton_poi_fused_embedding_0_ynumel, "
       "32L, ...);",
       "in_ptr0 is arg3_1"},
      {{k_stderr, "", 5},
       "...cd3okwxvqua6grd5jkdkkefdmhojjp54tdrdzwugize4oqluxxm3.py:33: unknown: block: [0,0,0], "
       "thread: "
       "[113,0,0] Assertion `index out of bounds: 0 <= tmp4 < 1000` failed.",
       "the assert that fired (8 times)"},
  };
  oob.next_steps = {
      {"re-package printing the kernel's inputs",
       "AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"triton_poi_fused_embedding_0\" "
       "AOT_INDUCTOR_DEBUG_INTERMEDIATE_VALUE_PRINTER=2 python repro.py"},
      {"check the ids",
       "python -c \"import torch; x = torch.load('arg3_1.pt'); print(x.min().item(), "
       "x.max().item())\""},
  };
  oob.explains_failure = true;
  oob.subject = "kernel triton_poi_fused_embedding_0";
  oob.rank = 1;
  oob.fingerprint = "7c1e0d5f9a3b2e84";

  Finding gate;
  gate.check = "shape.input-checks-off";
  gate.severity = Severity::warning;
  gate.confidence = 0.7;
  gate.title = "Input checks are compiled in but were off (AOTI_RUNTIME_CHECK_INPUTS unset)";
  gate.message =
      "The wrapper checks arg3_1 (dim0 in [2, 64], dim1 in [2, 2048], int64, cuda) only when "
      "AOTI_RUNTIME_CHECK_INPUTS is set and not 0.";
  gate.why =
      "Without the checks, a wrong shape or device reaches the kernels and fails far from its "
      "cause.";
  gate.evidence = {{{k_package, k_wrapper_entry, 946},
                    "if (!_check_aoti_runtime_check_inputs_env()){",
                    "the gate in __check_inputs_outputs"}};
  gate.next_steps = {{"validate the inputs", "AOTI_RUNTIME_CHECK_INPUTS=1 python repro.py"}};
  gate.subject = "model model";
  gate.rank = 2;
  gate.fingerprint = "1b9f04c2d7e6a311";
  return {oob, gate};
}

// Unregistered check id, a pipe in the title, invalid UTF-8, backticks, a terminal escape and a
// 10 KB excerpt: everything an input file can smuggle into a finding.
inline std::vector<Finding> hostile_findings() {
  auto findings = embedding_findings();
  Finding bad;
  bad.check = "test.not-registered";
  bad.severity = Severity::note;
  bad.confidence = 0.1;
  bad.title = "a | b `tick` *star* <script>alert(1)</script> \xff\xfe";
  bad.message =
      "bad \xc3\x28 utf8 \x1b[31mred\x1b[0m\nsecond line | pipe ```fence``` # not a heading";
  bad.why = "- not a list item";
  std::string huge(10 * 1024, 'x');
  huge[5000] = '`';
  huge[6000] = '|';
  bad.evidence = {{{"weird dir/stderr log.txt", "", 3}, huge, "note with ``` and | and \xe2\x82"},
                  {{"", "", 0}, "orphan excerpt", ""}};
  bad.next_steps = {{"a | pipe and `code`", "echo '```' && printf '%s' \"a|b\""},
                    {"", "multi\nline ```` step"}};
  bad.subject = "hostile";
  bad.rank = 3;
  bad.fingerprint = "ffff";
  findings.push_back(bad);
  return findings;
}

// The embedding case with an artifact and a diagnostic as hostile as the findings.
inline Case hostile_case() {
  Case c = embedding_case();
  c.artifacts.push_back({"weird dir/stderr log.txt", ArtifactKind::log, 10, true, "a | b \xff"});
  c.diagnostics.push_back({"", "\xc0\xaf `x` | y"});
  return c;
}

inline bool valid_utf8(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

// Every fence opened is closed, so no input can swallow the rest of a Markdown report.
inline bool fences_balanced(const std::string& markdown) {
  std::size_t open = 0;  // length of the open fence, 0 when none
  std::size_t start = 0;
  while (start < markdown.size()) {
    const auto end = std::min(markdown.find('\n', start), markdown.size());
    const std::string_view line(markdown.data() + start, end - start);
    const auto ticks = line.find_first_not_of('`');
    const std::size_t run = ticks == std::string_view::npos ? line.size() : ticks;
    if (run >= 3) {
      if (open == 0)
        open = run;
      else if (run >= open && line.find_first_not_of('`', run) == std::string_view::npos)
        open = 0;
    }
    start = end + 1;
  }
  return open == 0;
}

}  // namespace aoti::test
