// Unit tests for every check: each runs on the real corpus case it is about (loaded through the
// whole pipeline), and on small hand-built Cases for the edges the corpus does not cover.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "analyzer/pipeline/analyze.hpp"
#include "torch/index_assert.hpp"
#include "checks/registry.hpp"
#include "tests/support.hpp"
#include "util/demangle.hpp"

namespace {
using namespace aoti::model;
using namespace aoti::pipeline;
using namespace aoti::checks;
using namespace aoti::torch;

std::vector<Finding> run_check(const std::string& id, const Case& c) {
  const Check* check = find_check(id);
  REQUIRE(check != nullptr);
  return check->run(c);
}

Case corpus(const std::string& name) { return load_case({aoti::test::corpus_case(name).string()}); }

bool mentions(const Finding& f, const std::string& text) {
  std::string all = f.title + "\n" + f.message + "\n" + f.why;
  for (const auto& e : f.evidence) all += "\n" + e.excerpt + "\n" + e.note + "\n" + e.where.display();
  for (const auto& s : f.next_steps) all += "\n" + s.what + "\n" + s.command;
  return all.find(text) != std::string::npos;
}

// A one-model CUDA case with one dynamic input `arg0_1` (dim 0 in [2, 64], dim 1 = 16).
Case cuda_case() {
  Case c;
  ModelFacts model;
  model.name = "model";
  model.metadata["AOTI_DEVICE_KEY"] = "cuda";
  WrapperFacts w;
  w.where = Location{"m.pt2", "model/x.wrapper.cpp", 0};
  w.inputs.push_back({0, "arg0_1", 10});
  w.input_checks.push_back({0, "arg0_1", InputCheckKind::dim_min, 0, 2, "", 20});
  w.input_checks.push_back({0, "arg0_1", InputCheckKind::dim_max, 0, 64, "", 21});
  w.input_checks.push_back({0, "arg0_1", InputCheckKind::dim_equal, 1, 16, "", 22});
  w.checks_gated_by_env = true;
  w.gate_line = 30;
  w.bindings.push_back({"s0", "arg0_1", 0, false, 40});
  model.wrapper = w;
  c.models.push_back(model);
  return c;
}

LogEvent event(LogEventKind kind, std::string subject = {}, std::string value = {}) {
  LogEvent e;
  e.kind = kind;
  e.where = Location{"stderr.txt", "", 3};
  e.subject = std::move(subject);
  e.value = std::move(value);
  e.model = 0;
  return e;
}

}  // namespace

TEST_CASE("the registry lists every check once, each with a doc page") {
  std::vector<std::string> ids;
  for (const auto& check : all_checks()) {
    ids.emplace_back(check->id());
    CHECK_FALSE(check->summary().empty());
    INFO(check->id());
    CHECK(check->doc().find(std::string("# ") + std::string(check->id())) == 0);
    CHECK(check->family() == check->id().substr(0, check->id().find('.')));
  }
  CHECK(ids.size() >= 11);
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
}

TEST_CASE("device.constant-placement") {
  SUBCASE("const-cpu-buffer: the host buffer `scale` in a CUDA model, with its _cuda0 copy") {
    const auto found = run_check("device.constant-placement", corpus("const-cpu-buffer"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::warning);
    CHECK(mentions(found[0], "`scale`"));
    CHECK(mentions(found[0], "scale_cuda0"));
  }
  SUBCASE("constants on the model's device are fine") {
    for (const char* name : {"embedding-device-assert", "healthy-cuda-dynamic"})
      CHECK(run_check("device.constant-placement", corpus(name)).empty());
  }
  SUBCASE("a Mixed-device constants error makes it an explained error") {
    Case c = cuda_case();
    c.models[0].wrapper->constants.push_back({0, "table", "float32", "cpu", "Parameter", "emb.table", {10, 4}, {4, 1}, 160, false, 50});
    c.log_events.push_back(event(LogEventKind::mixed_device_constants));
    const auto found = run_check("device.constant-placement", c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::error);
    CHECK(found[0].explains_failure);
  }
}

TEST_CASE("device.input-mismatch") {
  SUBCASE("input-check-errors: the CPU input to the CUDA package") {
    const auto found = run_check("device.input-mismatch", corpus("input-check-errors"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "arg4_1"));
    CHECK(mentions(found[0], "cpu"));
    CHECK(mentions(found[0], "cuda"));
  }
  SUBCASE("a same-device runtime error") {
    Case c = cuda_case();
    c.log_events.push_back(event(LogEventKind::tensors_on_different_devices, "", "cuda:0 and cpu"));
    const auto found = run_check("device.input-mismatch", c);
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "cuda:0 and cpu"));
  }
  SUBCASE("nothing without device errors") { CHECK(run_check("device.input-mismatch", corpus("healthy-cuda-dynamic")).empty()); }
}

TEST_CASE("device.load-mismatch") {
  Case c = cuda_case();
  c.log_events.push_back(event(LogEventKind::out_tensor_device));
  const auto found = run_check("device.load-mismatch", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "AOTI_DEVICE_KEY = cuda"));
  CHECK(run_check("device.load-mismatch", corpus("input-check-errors")).empty());
}

TEST_CASE("shape.input-checks-off") {
  SUBCASE("healthy-cuda-dynamic's package alone: a note naming the unenforced range") {
    const auto found = run_check("shape.input-checks-off",
                                 load_case({aoti::test::corpus_package("healthy-cuda-dynamic").string()}));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::note);
    CHECK(mentions(found[0], "[2, 1024]"));
    CHECK(mentions(found[0], "AOTI_RUNTIME_CHECK_INPUTS=1"));
  }
  SUBCASE("healthy-cuda-dynamic with its logs: the run used batch 4096 outside [2, 1024], a warning") {
    const auto found = run_check("shape.input-checks-off", corpus("healthy-cuda-dynamic"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::warning);
    CHECK(found[0].title.find("dim 0 = 4096, compiled for [2, 1024]") != std::string::npos);
    CHECK(mentions(found[0], "an inference"));
  }
  SUBCASE("a failing run without checks is a warning") {
    const auto found = run_check("shape.input-checks-off", corpus("embedding-device-assert"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::warning);
  }
  SUBCASE("input-check errors prove the checks were on") {
    CHECK(run_check("shape.input-checks-off", corpus("input-check-errors")).empty());
  }
}

TEST_CASE("shape.input-contract-violation") {
  const auto found = run_check("shape.input-contract-violation", corpus("input-check-errors"));
  REQUIRE(found.size() == 3);
  const auto has = [&](const std::string& text) {
    return std::any_of(found.begin(), found.end(), [&](const Finding& f) { return mentions(f, text); });
  };
  CHECK(has("4096"));
  CHECK(has("[2, 1024]"));
  CHECK(has("float16"));
  CHECK(has("x.contiguous()"));
  for (const auto& f : found) CHECK(mentions(f, "arg4_1"));
}

TEST_CASE("shape.dim-specialized") {
  SUBCASE("cpp-meta-sizes: batch specialized to 8, the custom op named") {
    const auto found = run_check("shape.dim-specialized", corpus("cpp-meta-sizes"));
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "`batch`"));
    CHECK(mentions(found[0], "8"));
    CHECK(mentions(found[0], "heldout_cpp::scale_rows"));
  }
  SUBCASE("nothing without an export error") { CHECK(run_check("shape.dim-specialized", corpus("healthy-cuda-dynamic")).empty()); }
}

TEST_CASE("customop.fake-static-shape") {
  SUBCASE("custom-op-fake-static-rows: pad_rows feeds a kernel compiled for 144 = 9 x 16 elements") {
    const auto found = run_check("customop.fake-static-shape", corpus("custom-op-fake-static-rows"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::error);
    CHECK(mentions(found[0], "heldout::pad_rows"));
    CHECK(mentions(found[0], "144"));
    CHECK(mentions(found[0], "9 rows"));
  }
  SUBCASE("a custom op on a static input is not flagged") {
    // cpp-meta-sizes calls heldout_cpp::scale_rows, but its package is static in every dim.
    CHECK(run_check("customop.fake-static-shape", corpus("cpp-meta-sizes")).empty());
  }
}

TEST_CASE("triton.index-out-of-bounds") {
  SUBCASE("embedding-device-assert: kernel, ids input and the bound 1000 = rows of emb.weight") {
    const auto found = run_check("triton.index-out-of-bounds", corpus("embedding-device-assert"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "triton_poi_fused_embedding_0"));
    CHECK(mentions(found[0], "arg3_1"));
    CHECK(mentions(found[0], "1000"));
    CHECK(mentions(found[0], "emb.weight"));
    CHECK(mentions(found[0], "AOT_INDUCTOR_FILTERED_KERNELS_TO_PRINT=\"triton_poi_fused_embedding_0\""));
  }
  SUBCASE("a ksN bound is traced to the input dim through the wrapper symbol") {
    Case c = cuda_case();
    auto& w = *c.models[0].wrapper;
    TritonKernel k;
    k.name = "triton_poi_fused_index_0";
    k.params = {"in_ptr0", "out_ptr0", "ks0", "xnumel"};
    k.loads.push_back({"tmp0", "in_ptr0", "x0", 100});
    k.assignments["tmp3"] = "tl.where(tmp2, tmp1, tmp0)";
    k.asserts.push_back({"index out of bounds: 0 <= tmp3 < ks0", "(0 <= tmp3) & (tmp3 < ks0)", "tmp3", "ks0", 105});
    w.kernels.push_back(k);
    w.kernel_calls.push_back({"triton_poi_fused_index_0", {"arg0_1", "buf0", "s0", "16L"}, {"index"}, {"aten.index"}, 200});
    c.log_events.push_back(event(LogEventKind::triton_assert, "index out of bounds: 0 <= tmp3 < ks0"));
    const auto found = run_check("triton.index-out-of-bounds", c);
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "`s0`"));
    CHECK(mentions(found[0], "size 0 of model input `arg0_1`"));
    CHECK(mentions(found[0], "[2, 64]"));
  }
  SUBCASE("an assert no package holds is still reported, without a kernel") {
    Case c = cuda_case();
    c.log_events.push_back(event(LogEventKind::triton_assert, "index out of bounds: 0 <= tmp9 < 7"));
    const auto found = run_check("triton.index-out-of-bounds", c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].confidence < 0.9);
  }
}

TEST_CASE("cuda.illegal-memory-access") {
  Case c = cuda_case();
  c.models[0].wrapper->kernel_calls.push_back({"triton_poi_fused_add_0", {"arg0_1"}, {}, {}, 300});
  c.log_events.push_back(event(LogEventKind::cuda_error, "", "an illegal memory access was encountered"));
  const auto found = run_check("cuda.illegal-memory-access", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "triton_poi_fused_add_0"));
  CHECK(mentions(found[0], "CUDA_LAUNCH_BLOCKING=1"));
  CHECK(run_check("cuda.illegal-memory-access", corpus("embedding-device-assert")).empty());
}

TEST_CASE("runtime.cxx-runtime-conflict") {
  for (const char* name : {"load-crash-static-libstdcxx", "const-cpu-buffer", "cpp-meta-sizes"}) {
    INFO(name);
    const auto found = run_check("runtime.cxx-runtime-conflict", corpus(name));
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "std::locale"));
    CHECK(mentions(found[0], "/opt/gcc/bin/g++"));
  }
  for (const char* name : {"embedding-device-assert", "healthy-cuda-dynamic", "cpu-package-cuda-input-segv",
                           "custom-op-fake-static-rows", "input-check-errors"}) {
    INFO(name);
    CHECK(run_check("runtime.cxx-runtime-conflict", corpus(name)).empty());
  }
}

TEST_CASE("api.deprecated") {
  Case c = cuda_case();
  c.log_events.push_back(event(LogEventKind::deprecated_api, "torch._export.aot_load"));
  const auto found = run_check("api.deprecated", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "aoti_load_package"));
}

TEST_CASE("ranking puts the explained failure first and is deterministic") {
  std::vector<Finding> findings(3);
  findings[0].check = "b.latent"; findings[0].severity = Severity::error; findings[0].subject = "x";
  findings[1].check = "a.note"; findings[1].severity = Severity::note; findings[1].subject = "y";
  findings[2].check = "c.explains"; findings[2].severity = Severity::warning; findings[2].explains_failure = true;
  rank(findings);
  CHECK(findings[0].check == "c.explains");
  CHECK(findings[1].check == "b.latent");
  CHECK(findings[2].rank == 3);
  auto again = findings;
  rank(again);
  for (std::size_t i = 0; i < findings.size(); ++i) CHECK(again[i].fingerprint == findings[i].fingerprint);
}

TEST_CASE("runtime.api-call-failed") {
  namespace fs = std::filesystem;
  // A real package with a log naming a line of its own wrapper, as torch prints a failed shim call.
  const fs::path dir = fs::temp_directory_path() / ("aoti-api-call-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path package = aoti::test::corpus_case("embedding-device-assert") / "model.pt2";
  Case probe = load_case({package.string()});
  REQUIRE(probe.models.size() == 1);
  const std::string entry = probe.models[0].wrapper->where.entry;
  const std::string wrapper_name = entry.substr(entry.rfind('/') + 1);
  int addmm_line = 0;
  {
    std::istringstream text(aoti::test::corpus_entry_text("embedding-device-assert", ".wrapper.cpp"));
    std::string line;
    for (int number = 1; std::getline(text, line) && addmm_line == 0; ++number)
      if (line.find("aoti_torch_cuda_addmm_out(") != std::string::npos) addmm_line = number;
  }
  REQUIRE(addmm_line > 0);
  {
    std::ofstream log(dir / "stderr.txt");
    log << "RuntimeError: aoti_torch_cuda_addmm_out(buf2, buf1, ...) API call failed at /tmp/cache/" << wrapper_name
        << ", line " << addmm_line << "\n";
  }
  const auto found = run_check("runtime.api-call-failed", load_case({package.string(), (dir / "stderr.txt").string()}));
  fs::remove_all(dir);
  REQUIRE(found.size() == 1);
  CHECK(found[0].explains_failure);
  CHECK(mentions(found[0], "aoti_torch_cuda_addmm_out(buf2, buf1"));
  CHECK(mentions(found[0], "linear"));
  // Errors that name torch's own runner are left to the error before them.
  CHECK(run_check("runtime.api-call-failed", corpus("input-check-errors")).empty());
}

TEST_CASE("crash checks on the real cores") {
  SUBCASE("load-crash-static-libstdcxx: the crash in the model's own libstdc++ makes the conflict the answer") {
    const auto found = run_check("runtime.cxx-runtime-conflict", corpus("load-crash-static-libstdcxx"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == Severity::error);
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "torch::aot_inductor::parse_device_str"));
    CHECK(mentions(found[0], "libstdc++.so.6.0.33"));
    CHECK(mentions(found[0], "while loading the model"));
  }
  SUBCASE("cpu-package-cuda-input-segv: a CPU kernel on a device pointer") {
    const Case c = corpus("cpu-package-cuda-input-segv");
    REQUIRE(c.cores.size() == 1);
    CHECK(c.cores[0].fault_kind == "device");
    CHECK(crash_phase(c.cores[0]) == "running the model");
    const auto found = run_check("device.input-mismatch", c);
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "cpp_fused_convolution_0"));
    CHECK(mentions(found[0], "AOTI_DEVICE_KEY = cpu"));
    const auto off = run_check("shape.input-checks-off", c);
    REQUIRE(off.size() == 1);
    CHECK(off[0].severity == Severity::warning);
    CHECK(mentions(off[0], "AOTI_RUNTIME_CHECK_INPUTS not in the environment"));
    CHECK(run_check("device.load-mismatch", c).empty());  // the process had CUDA loaded
    CHECK(run_check("customop.kernel-crash", c).empty());  // the crash is in the model itself
  }
  SUBCASE("embedding-device-assert: the abort is evidence of the index error") {
    const auto found = run_check("triton.index-out-of-bounds", corpus("embedding-device-assert"));
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "SIGABRT"));
  }
}

namespace {
// A crash whose innermost frame is in `module`, in a process mapping `modules`.
CoreFacts crash_in(const std::string& module, const std::string& package, std::vector<std::string> modules) {
  CoreFacts core;
  core.artifact = "core";
  core.signal_name = "SIGSEGV";
  CoreThread thread;
  thread.tid = 7;
  thread.crashed = true;
  thread.frames.push_back({0x1000, module, 0x10, "gather_rows_cpu(at::Tensor const&, at::Tensor const&)", 4, "initial", package});
  core.threads.push_back(thread);
  for (const auto& m : modules) core.modules.push_back({m, false, 0, 0, 0, "", ""});
  return core;
}
}  // namespace

TEST_CASE("customop.kernel-crash and device.load-mismatch from a core") {
  Case c = cuda_case();
  c.models[0].package = "m.pt2";
  c.models[0].extern_nodes.push_back({0, "buf0", "heldout_cpp::gather_rows", {}, {"buf1"}});
  c.cores.push_back(crash_in("/opt/ops/libheldout_ops.so", "", {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"}));
  auto found = run_check("customop.kernel-crash", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "libheldout_ops.so"));
  CHECK(mentions(found[0], "heldout_cpp::gather_rows"));

  // The same crash in libtorch is not a custom op's.
  c.cores[0] = crash_in("/site-packages/torch/lib/libtorch_cpu.so", "", {});
  CHECK(run_check("customop.kernel-crash", c).empty());

  // A CUDA package's frame crashing in a process without libcuda: a CPU runner loaded it.
  c.cores[0] = crash_in("/tmp/x/model.so", "m.pt2", {"/usr/lib/x86_64-linux-gnu/libc.so.6"});
  found = run_check("device.load-mismatch", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "AOTI_DEVICE_KEY = cuda"));
}

TEST_CASE("short_symbol keeps the name a person reads") {
  CHECK(aoti::util::short_symbol("std::__detail::_Compiler<std::__cxx11::regex_traits<char> >::_M_disjunction()") ==
        "std::__detail::_Compiler::_M_disjunction");
  CHECK(aoti::util::short_symbol("void std::__detail::_Compiler<std::__cxx11::regex_traits<char> >::_M_insert<false>(bool)") ==
        "std::__detail::_Compiler::_M_insert");
  CHECK(aoti::util::short_symbol("torch::aot_inductor::AOTInductorModel::run_impl(AtenTensorOpaque**, void*) const") ==
        "torch::aot_inductor::AOTInductorModel::run_impl");
  CHECK(aoti::util::short_symbol("operator new(unsigned long)") == "operator new");
  CHECK(aoti::util::short_symbol("cpp_fused_convolution_0") == "cpp_fused_convolution_0");
}

TEST_CASE("traces: the specializing user frame, graph shapes, and wrapper facts without the package") {
  namespace fs = std::filesystem;
  const auto trace_of = [](const std::string& name) {
    for (const auto& entry : fs::directory_iterator(aoti::test::corpus_case(name) / "trace")) return entry.path().string();
    return std::string();
  };
  SUBCASE("cpp-meta-sizes: batch = 8, specialized at the custom op's call") {
    const auto found = run_check("shape.dim-specialized", corpus("cpp-meta-sizes"));
    REQUIRE(found.size() == 1);  // the log's error and the trace's record are one finding
    CHECK(mentions(found[0], "`batch`"));
    CHECK(mentions(found[0], "s77 -> 8"));
    CHECK(mentions(found[0], "torch.ops.heldout_cpp.scale_rows(x, 0.5)"));
  }
  SUBCASE("custom-op-fake-static-rows: the trace alone shows pad_rows f32[9, 16] from f32[s77, 16]") {
    const auto found = run_check("customop.fake-static-shape", load_case({trace_of("custom-op-fake-static-rows")}));
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "heldout::pad_rows"));
    CHECK(mentions(found[0], "f32[9, 16]"));
    CHECK(mentions(found[0], "f32[s77, 16]"));
  }
  SUBCASE("embedding-device-assert: without the package, the trace's wrapper dump still traces the assert") {
    const std::string stderr_path = (aoti::test::corpus_case("embedding-device-assert") / "stderr.txt").string();
    const Case c = load_case({trace_of("embedding-device-assert"), stderr_path});
    REQUIRE(c.models.size() == 1);
    REQUIRE(c.models[0].wrapper.has_value());
    const auto found = run_check("triton.index-out-of-bounds", c);
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "triton_poi_fused_embedding_0"));
    CHECK(mentions(found[0], "emb.weight"));
  }
  SUBCASE("a trace's package in the case: the trace adds no second model") {
    CHECK(corpus("embedding-device-assert").models.size() == 1);
  }
}

TEST_CASE("customop.meta-not-symint and customop.fake-not-symint") {
  SUBCASE("cpp-meta-sizes: scale_rows_meta explains the specialization; gather_rows_meta is fine") {
    const auto found = run_check("customop.meta-not-symint", corpus("cpp-meta-sizes"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "scale_rows_meta"));
    CHECK(mentions(found[0], "x.sym_size(0)"));
    CHECK(mentions(found[0], "at::empty_symint"));
    CHECK_FALSE(mentions(found[0], "gather_rows"));
  }
  SUBCASE("the same source alone: a risk, not the explanation") {
    const auto found = run_check("customop.meta-not-symint",
                                 load_case({(aoti::test::corpus_case("cpp-meta-sizes") / "heldout_ops.cpp").string()}));
    REQUIRE(found.size() == 1);
    CHECK_FALSE(found[0].explains_failure);
    CHECK(found[0].severity == Severity::warning);
  }
  SUBCASE("the generator's hard-coded pad_rows fake") {
    const auto found = run_check("customop.fake-not-symint",
                                 load_case({(aoti::test::corpus_dir() / "generate" / "aoti_gen.py").string()}));
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "seed::pad_rows"));
    CHECK(run_check("customop.meta-not-symint", corpus("healthy-cuda-dynamic")).empty());
  }
}

TEST_CASE("shape.lower-bound-missing, shape.data-dependent-guard, customop.fake-missing / fake-mismatch") {
  Case c = cuda_case();
  auto& w = *c.models[0].wrapper;
  w.input_checks.erase(w.input_checks.begin());  // no lower bound on dim 0
  TritonKernel k;
  k.name = "triton_poi_fused_index_0";
  k.params = {"in_ptr0", "ks0"};
  k.asserts.push_back({"index out of bounds: 0 <= tmp3 < ks0", "(0 <= tmp3) & (tmp3 < ks0)", "tmp3", "ks0", 105});
  w.kernels.push_back(k);
  w.kernel_calls.push_back({"triton_poi_fused_index_0", {"arg0_1", "s0"}, {}, {}, 200});
  auto found = run_check("shape.lower-bound-missing", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "declares no lower bound"));
  w.input_checks.push_back({0, "arg0_1", InputCheckKind::dim_min, 0, 2, "", 20});
  found = run_check("shape.lower-bound-missing", c);  // min 2, but checked only with the variable set
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "only when AOTI_RUNTIME_CHECK_INPUTS=1"));
  w.checks_gated_by_env = false;
  CHECK(run_check("shape.lower-bound-missing", c).empty());  // min 2, always checked: never empty

  TraceFacts trace;
  trace.artifact = "trace.log";
  trace.data_dependent.push_back({{"trace.log", 12, "", 0}, "guard_on_data_dependent_error", "Eq(u0, 0)", "", "", {}});
  trace.fake_kernels.push_back({{"trace.log", 20, "", 0}, "missing_fake_kernel", "mylib::nofake", ""});
  trace.fake_kernels.push_back({{"trace.log", 30, "", 0}, "mismatched_fake_kernel", "mylib::liar", "shape [4] vs [5]"});
  c.traces.push_back(trace);
  found = run_check("shape.data-dependent-guard", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "Eq(u0, 0)"));
  found = run_check("customop.fake-missing", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "mylib::nofake"));
  found = run_check("customop.fake-mismatch", c);
  REQUIRE(found.size() == 1);
  CHECK(mentions(found[0], "shape [4] vs [5]"));
}

namespace {
// A case's model .so written out as a bare file, under its own name (<hash>.wrapper.so), as
// torch._export.aot_compile leaves one; with its wrapper source beside it when asked.
std::filesystem::path bare_so(const std::string& case_name, const std::filesystem::path& dir, bool with_wrapper = false) {
  const std::string entry = aoti::test::corpus_entry_name(case_name, ".wrapper.so");
  REQUIRE(!entry.empty());
  const auto path = dir / std::filesystem::path(entry).filename();
  aoti::test::write_file(path, aoti::test::corpus_entry_text(case_name, ".wrapper.so"));
  if (with_wrapper)
    aoti::test::write_file(dir / std::filesystem::path(entry).replace_extension(".cpp").filename(),
                           aoti::test::corpus_entry_text(case_name, ".wrapper.cpp"));
  return path;
}
std::string core_of_case(const std::string& case_name) { return (aoti::test::corpus_case(case_name) / "core.xz").string(); }
}  // namespace

TEST_CASE("a bare model .so is a model: it names the core's frames, never a custom-op library") {
  aoti::test::TempDir dir;
  SUBCASE("the static-libstdc++ load crash, with the .so and the core only") {
    const auto so = bare_so("load-crash-static-libstdcxx", dir.path);
    const Case c = load_case({so.string(), core_of_case("load-crash-static-libstdcxx")});
    REQUIRE(c.models.size() == 1);
    CHECK(c.artifacts[0].kind == ArtifactKind::model_so);
    CHECK(c.artifacts[0].analyzed);
    CHECK(c.models[0].package == so.string());
    CHECK(c.models[0].device() == "cuda");  // it links libtorch_cuda.so
    CHECK_FALSE(c.models[0].wrapper);
    // The core's module with the same build-id is the model .so.
    REQUIRE(c.cores.size() == 1);
    const CoreThread* thread = crashing_thread(c.cores[0]);
    REQUIRE(thread != nullptr);
    CHECK(thread->frames.front().package == so.string());
    CHECK(run_check("customop.kernel-crash", c).empty());
    const auto found = run_check("runtime.cxx-runtime-conflict", c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "torch::aot_inductor::parse_device_str in the model .so"));
    CHECK(mentions(found[0], "while loading the model"));
    // A bare .so is read where it lies: no unzip in its commands.
    CHECK(mentions(found[0], "readelf -d '" + so.string() + "'"));
    CHECK_FALSE(mentions(found[0], "unzip"));
  }
  SUBCASE("without the model .so, a crash under torch's package layout is not blamed on a custom op") {
    CHECK(run_check("customop.kernel-crash", load_case({core_of_case("load-crash-static-libstdcxx")})).empty());
  }
  SUBCASE("the CPU model run on a CUDA input: the device comes from the .so's DT_NEEDED") {
    const auto so = bare_so("cpu-package-cuda-input-segv", dir.path);
    const Case c = load_case({so.string(), core_of_case("cpu-package-cuda-input-segv")});
    REQUIRE(c.models.size() == 1);
    CHECK(c.models[0].device() == "cpu");
    const auto found = run_check("device.input-mismatch", c);
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "cpu model .so"));
    CHECK(mentions(found[0], "DT_NEEDED: libtorch.so, libtorch_cpu.so"));
    CHECK_FALSE(mentions(found[0], "AOTI_DEVICE_KEY"));  // there is no metadata to quote
  }
  SUBCASE("a wrapper source beside it, with the same name, is its wrapper") {
    const auto so = bare_so("cpu-package-cuda-input-segv", dir.path, true);
    const Case c = load_case({dir.path.string()});
    REQUIRE(c.models.size() == 1);
    REQUIRE(c.models[0].wrapper);
    CHECK(c.models[0].package == so.string());
    CHECK(c.models[0].wrapper->inputs.size() == 1);
  }
  SUBCASE("a trace's dump of the wrapper it was compiled from is its wrapper") {
    const auto so = bare_so("cpu-package-cuda-input-segv", dir.path);
    const Case c = load_case({so.string(), (aoti::test::corpus_case("cpu-package-cuda-input-segv") / "trace").string(),
                              core_of_case("cpu-package-cuda-input-segv")});
    REQUIRE(c.models.size() == 1);
    REQUIRE(c.models[0].wrapper);
    REQUIRE(c.traces.size() == 1);
    CHECK(c.traces[0].model == 0);
    const auto off = run_check("shape.input-checks-off", c);
    REQUIRE(off.size() == 1);
    CHECK(mentions(off[0], "AOTI_RUNTIME_CHECK_INPUTS not in the environment"));
  }
  SUBCASE("a model .so cut short is named as unreadable, not read as a model") {
    const auto so = bare_so("cpu-package-cuda-input-segv", dir.path);
    const std::string bytes = aoti::test::read_file(so);
    aoti::test::write_file(so, bytes.substr(0, 64 << 10));
    const Case c = load_case({so.string()});
    REQUIRE(c.artifacts.size() == 1);
    CHECK(c.artifacts[0].kind == ArtifactKind::unknown);
    CHECK(c.artifacts[0].note.find("cannot be read") != std::string::npos);
    CHECK(c.models.empty());
  }
  SUBCASE("another shared object stays a skipped library") {
    for (const char* library : {"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6"}) {
      if (!std::filesystem::exists(library)) continue;
      const Case c = load_case({library});
      REQUIRE(c.artifacts.size() == 1);
      CHECK(c.artifacts[0].kind == ArtifactKind::unknown);
      CHECK(c.artifacts[0].note.find("without the AOTI model API") != std::string::npos);
      CHECK(c.models.empty());
      break;
    }
  }
}

TEST_CASE("stack-scan frames are candidates: never the path, never the phase where unwound frames speak") {
  const Case c = corpus("custom-op-kernel-crash");
  REQUIRE(c.cores.size() == 1);
  const CoreFacts& core = c.cores[0];
  // The unwound frames stop in libtorch_cpu; AOTInductorModelContainerRun is only found by the scan.
  CHECK(crash_phase(core).empty());
  const CrashPhase phase = crash_phase_of(core);
  CHECK(phase.phase == "running the model");
  CHECK(phase.from_stack_scan);
  CHECK(phase.symbol == "AOTInductorModelContainerRun");
  CHECK(crash_phase_clause(core).starts_with("probably while running the model (AOTInductorModelContainerRun"));
  const auto found = run_check("customop.kernel-crash", c);
  REQUIRE(found.size() == 1);
  // The frames evidence: the unwound path, then the one candidate that suggested the phase, labelled.
  const Evidence* frames = nullptr;
  for (const auto& e : found[0].evidence)
    if (e.excerpt.starts_with("#0 ")) frames = &e;
  REQUIRE(frames != nullptr);
  const auto label = frames->excerpt.find(std::string(k_stack_scan_label));
  REQUIRE(label != std::string::npos);
  CHECK(frames->excerpt.find("AOTInductorModelContainerRun", label) != std::string::npos);
  CHECK(frames->excerpt.find("libc.so.6") == std::string::npos);  // a stack-scan frame, not the path
  CHECK(frames->excerpt.find("[stack scan]") == std::string::npos);
  // Where unwound frames say the phase (the load crash), a stack-scan frame never overrides it.
  const Case load = corpus("load-crash-static-libstdcxx");
  CHECK(crash_phase(load.cores[0]) == "loading the model");
  CHECK_FALSE(crash_phase_of(load.cores[0]).from_stack_scan);
}
// ---- triton.index-out-of-bounds on every assert form ------------------------------------------------

namespace {

// The sentences a finding writes (quoted excerpts and commands are the artifacts' own text).
std::string written_text(const Finding& f) {
  std::string all = f.title + "\n" + f.message + "\n" + f.why;
  for (const auto& e : f.evidence) all += "\n" + e.note;
  for (const auto& s : f.next_steps) all += "\n" + s.what;
  for (const auto& s : f.chain) all += "\n" + s;
  return all;
}

// No template holes: empty code spans, a parameter with no name, dangling separators.
void check_no_holes(const Finding& f) {
  const std::string text = written_text(f);
  INFO(text);
  for (const std::string hole : {"``", "parameter ``", " ;", " ,", " .", ": .", "; .", "()", "  ", "\n\n"})
    CHECK_MESSAGE(text.find(hole) == std::string::npos, "hole: '" << hole << "'");
  // A quote always has its text; a hand-built case's wrapper has no source to quote from.
  for (const auto& e : f.evidence)
    if (e.kind == EvidenceKind::quote) CHECK_FALSE(e.excerpt.empty());
  for (const auto& s : f.chain) CHECK_FALSE(s.empty());
}

// A CUDA or CPU model with input `arg0_1` (the table, dim 0 = s0 in [2, 64]), the ids `arg1_1`, a
// constant `table` [1000, 32], and one kernel launched as `launch` with `args`.
Case assert_case(TritonKernel kernel, std::string launch, std::vector<std::string> args, std::string message) {
  Case c = cuda_case();
  auto& w = *c.models[0].wrapper;
  w.inputs.push_back({1, "arg1_1", 11});
  WrapperConstant table;
  table.name = "table";
  table.original_fqn = "table";
  table.shape = {1000, 32};
  table.line = 50;
  w.constants.push_back(table);
  KernelCall call;
  call.kernel = kernel.name;
  call.args = std::move(args);
  call.line = 200;
  call.text = std::move(launch);
  w.kernels.push_back(std::move(kernel));
  w.kernel_calls.push_back(std::move(call));
  LogEvent e = event(LogEventKind::triton_assert, message);
  e.text = "Error: " + message;
  c.log_events.push_back(std::move(e));
  return c;
}

TritonAssert assert_line(std::string text, std::string message, int line) {
  TritonAssert a;
  a.text = std::move(text);
  a.message = std::move(message);
  a.line = line;
  if (const auto form = parse_index_assert(a.message)) a.index_var = form->index_var, a.bound = form->upper;
  return a;
}

TritonLoad access_line(std::string var, std::string pointer, std::string offset, int line, std::string text,
                       bool store = false) {
  TritonLoad l;
  l.var = std::move(var);
  l.pointer = std::move(pointer);
  l.offset = std::move(offset);
  l.line = line;
  l.text = std::move(text);
  l.is_store = store;
  return l;
}

}  // namespace

TEST_CASE("triton.index-out-of-bounds: every assert form, traced, with no holes") {
  SUBCASE("the corpus: literal, kernel parameter, expression; Triton and C++") {
    struct Expected {
      const char* name;
      const char* title;
      std::vector<std::string> traced;
    };
    const Expected cases[] = {
        {"embedding-device-assert", "Index out of bounds in Triton kernel `triton_poi_fused_embedding_0`: `0 <= tmp4 < 1000` failed",
         {"the bound `1000` is 1000 = dim 0 of constant `emb.weight` [1000, 32]", "model input 0 `arg3_1`"}},
        {"index-select-empty", "Index out of bounds in Triton kernel `triton_poi_fused_index_select_mul_0`: `0 <= tmp4 < ks0` failed",
         {"the bound `ks0` is a kernel parameter: `ks0` is bound at the launch to `s77` = size 0 of model input `arg0_1`",
          "model input 1 `arg1_1`"}},
        {"flat-index-product-bound",
         "Index out of bounds in Triton kernel `triton_poi_fused_index_mul_view_0`: `0 <= tmp4 < ks0*ks1` failed",
         {"the bound `ks0*ks1` is an expression of sizes: `ks0` is bound at the launch to `s27` = size 1 of model input "
          "`arg0_1`",
          "`ks1` is bound at the launch to `s77` = size 0 of model input `arg0_1`"}},
        {"cpu-index-check", "Index out of bounds in C++ kernel `cpp_fused_embedding_mul_0`: `0 <= tmp7 < 1000L` failed",
         {"the bound `1000L` is 1000 = dim 0 of constant `emb.weight` [1000, 32]", "model input 0 `arg1_1`"}},
    };
    for (const auto& expected : cases) {
      CAPTURE(expected.name);
      const auto found = run_check("triton.index-out-of-bounds", corpus(expected.name));
      REQUIRE(found.size() == 1);
      CHECK(found[0].title == expected.title);
      for (const auto& t : expected.traced) CHECK(mentions(found[0], t));
      check_no_holes(found[0]);
    }
  }
  SUBCASE("a C++ check is quoted from <hash>.kernel.cpp at its own line, the launch from the wrapper") {
    const auto found = run_check("triton.index-out-of-bounds", corpus("cpu-index-check"));
    REQUIRE(found.size() == 1);
    const auto check = std::find_if(found[0].evidence.begin(), found[0].evidence.end(), [](const Evidence& e) {
      return e.excerpt.starts_with("AOTI_TORCH_CHECK(");
    });
    REQUIRE(check != found[0].evidence.end());
    CHECK(check->where.entry.ends_with(".kernel.cpp"));
    CHECK(check->where.line == 26);
    CHECK(check->excerpt == R"(AOTI_TORCH_CHECK((0 <= tmp7) & (tmp7 < 1000L), "index out of bounds: 0 <= tmp7 < 1000L");)");
    const auto launch = std::find_if(found[0].evidence.begin(), found[0].evidence.end(), [](const Evidence& e) {
      return e.excerpt.starts_with("cpp_fused_embedding_mul_0(");
    });
    REQUIRE(launch != found[0].evidence.end());
    CHECK(launch->where.entry.ends_with(".wrapper.cpp"));
    // The read-the-kernel command shows the kernel file, not the wrapper.
    CHECK(mentions(found[0], ".kernel.cpp' | sed -n '4,37p'"));
    CHECK_FALSE(mentions(found[0], "CUDA_LAUNCH_BLOCKING"));
  }
  SUBCASE("without the package, the trace's kernel dump is quoted at the trace's own lines") {
    const auto dir = aoti::test::corpus_case("cpu-index-check");
    std::string trace;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "trace")) trace = entry.path().string();
    const auto found = run_check("triton.index-out-of-bounds", load_case({(dir / "output.txt").string(), trace}));
    REQUIRE(found.size() == 1);
    CHECK(found[0].title == "Index out of bounds in C++ kernel `cpp_fused_embedding_mul_0`: `0 <= tmp7 < 1000L` failed");
    const auto check = std::find_if(found[0].evidence.begin(), found[0].evidence.end(), [](const Evidence& e) {
      return e.excerpt.starts_with("AOTI_TORCH_CHECK(");
    });
    REQUIRE(check != found[0].evidence.end());
    CHECK(check->where.artifact == trace);
    const std::string text = aoti::test::read_file(trace);
    std::size_t begin = 0;
    for (int i = 1; i < check->where.line; ++i) begin = text.find('\n', begin) + 1;
    const std::string line = text.substr(begin, text.find('\n', begin) - begin);
    CHECK(line.find(check->excerpt) != std::string::npos);
  }
  SUBCASE("upper side only, a literal: the table's dim") {
    TritonKernel k;
    k.name = "triton_poi_fused_index_0";
    k.params = {"in_ptr0", "in_ptr1", "out_ptr0", "xnumel"};
    k.loads.push_back(access_line("tmp0", "in_ptr0", "x1", 100, "tmp0 = tl.load(in_ptr0 + (x1), xmask)"));
    k.assignments["tmp6"] = "triton_helpers.maximum(tmp0, tmp1)";
    k.asserts.push_back(assert_line(R"(tl.device_assert((tmp6 < 1000) | ~(ymask), "index out of bounds: tmp6 < 1000"))",
                                    "index out of bounds: tmp6 < 1000", 104));
    k.loads.push_back(access_line("tmp8", "in_ptr1", "x0 + 32*tmp6", 105, "tmp8 = tl.load(in_ptr1 + (x0 + 32*tmp6), xmask)"));
    const Case c = assert_case(k, "call_triton_poi_fused_index_0(arg1_1, table, buf0, 32L, stream);",
                               {"arg1_1", "table", "buf0", "32L", "stream"}, "index out of bounds: tmp6 < 1000");
    const auto found = run_check("triton.index-out-of-bounds", c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title == "Index out of bounds in Triton kernel `triton_poi_fused_index_0`: `tmp6 < 1000` failed");
    CHECK(mentions(found[0], "The index `tmp6` comes from the values of model input 1 `arg1_1`"));
    CHECK(mentions(found[0], "the bound `1000` is 1000 = dim 0 of constant `table` [1000, 32]"));
    CHECK(mentions(found[0], "int(x.max()) < 1000,"));
    check_no_holes(found[0]);
  }
  SUBCASE("lower side only: a negative index, no bound to trace") {
    TritonKernel k;
    k.name = "triton_poi_fused_index_0";
    k.params = {"in_ptr0", "in_ptr1", "out_ptr0", "xnumel"};
    k.loads.push_back(access_line("tmp0", "in_ptr0", "x1", 100, "tmp0 = tl.load(in_ptr0 + (x1), xmask)"));
    k.assignments["tmp6"] = "tl.where(tmp5, tmp4, tmp2)";
    k.assignments["tmp2"] = "triton_helpers.minimum(tmp0, tmp1)";
    k.asserts.push_back(assert_line(R"(tl.device_assert((0 <= tmp6) | ~(ymask), "index out of bounds: 0 <= tmp6"))",
                                    "index out of bounds: 0 <= tmp6", 104));
    const Case c = assert_case(k, "call_triton_poi_fused_index_0(arg1_1, table, buf0, 32L, stream);",
                               {"arg1_1", "table", "buf0", "32L", "stream"}, "index out of bounds: 0 <= tmp6");
    const auto found = run_check("triton.index-out-of-bounds", c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title == "Index out of bounds in Triton kernel `triton_poi_fused_index_0`: `0 <= tmp6` failed");
    CHECK(mentions(found[0], "the assert checks the lower side only (`0 <= tmp6`), so the index was negative"));
    CHECK(mentions(found[0], "assert int(x.min()) >= 0"));
    check_no_holes(found[0]);
  }
  SUBCASE("a vectorized C++ check of the upper side against a kernel parameter") {
    TritonKernel k;
    k.name = "cpp_fused_index_0";
    k.language = KernelLanguage::cpp;
    k.source = Location{"m.pt2", "model/x.kernel.cpp", 0};
    k.params = {"in_ptr0", "in_ptr1", "out_ptr0", "ks0"};
    k.loads.push_back(access_line("tmp0", "in_ptr0", "static_cast<int64_t>(x0)", 17,
                                  "auto tmp0 = at::vec::VectorizedN<int64_t,2>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));"));
    for (auto& l : k.loads) l.scope = 1;
    k.assignments["tmp10@1"] = "tmp0";
    TritonAssert a = assert_line(
        R"(AOTI_TORCH_CHECK((at::vec::VecMask<int64_t,2>(tmp10 < at::vec::VectorizedN<int64_t,2>(ks0))).all_masked(), "index out of bounds: tmp10 < ks0");)",
        "index out of bounds: tmp10 < ks0", 48);
    a.scope = 1;
    k.asserts.push_back(a);
    Case c = assert_case(k, "cpp_fused_index_0((const int64_t*)(arg1_1.data_ptr()), (const float*)(arg0_1.data_ptr()), (float*)(buf0.data_ptr()), s0);",
                         {"(const int64_t*)(arg1_1.data_ptr())", "(const float*)(arg0_1.data_ptr())", "(float*)(buf0.data_ptr())", "s0"},
                         "index out of bounds: tmp10 < ks0");
    c.log_events[0].kernel = "cpp_fused_index_0";
    const auto found = run_check("triton.index-out-of-bounds", c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title == "Index out of bounds in C++ kernel `cpp_fused_index_0`: `tmp10 < ks0` failed");
    CHECK(mentions(found[0], "`tmp10` is computed from `tmp0`, loaded from `in_ptr0`, which the launch binds to `arg1_1` (model input 1)"));
    CHECK(mentions(found[0], "`ks0` is bound at the launch to `s0` = size 0 of model input `arg0_1` (declared in [2, 64])"));
    const auto quoted = std::find_if(found[0].evidence.begin(), found[0].evidence.end(),
                                     [](const Evidence& e) { return e.where.line == 48; });
    REQUIRE(quoted != found[0].evidence.end());
    CHECK(quoted->where.entry == "model/x.kernel.cpp");
    check_no_holes(found[0]);
  }
  SUBCASE("an expression bound `1 + ks0`") {
    TritonKernel k;
    k.name = "triton_poi_fused_cat_index_0";
    k.params = {"in_ptr0", "in_ptr1", "out_ptr0", "ks0", "ynumel", "xnumel"};
    k.loads.push_back(access_line("tmp0", "in_ptr0", "y0", 100, "tmp0 = tl.load(in_ptr0 + (y0), ymask, eviction_policy='evict_last')"));
    k.assignments["tmp4"] = "tl.where(tmp3, tmp2, tmp0)";
    k.asserts.push_back(assert_line(
        R"(tl.device_assert(((0 <= tmp4) & (tmp4 < 1 + ks0)) | ~(ymask), "index out of bounds: 0 <= tmp4 < 1 + ks0"))",
        "index out of bounds: 0 <= tmp4 < 1 + ks0", 104));
    const Case c = assert_case(k, "call_triton_poi_fused_cat_index_0(arg1_1, buf1, buf0, s0, s1, 8L, stream);",
                               {"arg1_1", "buf1", "buf0", "s0", "s1", "8L", "stream"}, "index out of bounds: 0 <= tmp4 < 1 + ks0");
    const auto found = run_check("triton.index-out-of-bounds", c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title == "Index out of bounds in Triton kernel `triton_poi_fused_cat_index_0`: `0 <= tmp4 < 1 + ks0` failed");
    CHECK(mentions(found[0], "the bound `1 + ks0` is an expression of sizes: `ks0` is bound at the launch to `s0` = size 0 "
                             "of model input `arg0_1`"));
    check_no_holes(found[0]);
  }
  SUBCASE("asserts nobody's package holds: named by where they come from") {
    Case c = cuda_case();
    c.log_events.push_back(event(LogEventKind::triton_assert, "index out of bounds: 0 <= tmp7 < 1000L"));
    c.log_events.back().kernel = "cpp_fused_embedding_mul_0";
    c.log_events.push_back(event(LogEventKind::triton_assert, "-sizes[i] <= index && index < sizes[i] && \"index out of bounds\""));
    c.log_events.back().source_file = "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu";
    c.log_events.push_back(event(LogEventKind::triton_assert, "index out of bounds: tmp2 < 2048"));
    const auto found = run_check("triton.index-out-of-bounds", c);
    REQUIRE(found.size() == 3);
    CHECK(found[0].title == "A C++ kernel (`cpp_fused_embedding_mul_0`) failed `index out of bounds: 0 <= tmp7 < 1000L`");
    CHECK(found[1].title == "An ATen CUDA kernel (`IndexKernel.cu`) hit `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"`");
    CHECK(found[2].title == "A Triton kernel hit `index out of bounds: tmp2 < 2048`");
    for (auto f : found) {
      f.evidence.clear();  // the hand-made events have no log line to quote
      check_no_holes(f);
    }
  }
}

TEST_CASE("shape.unguarded-range: from the package alone, a dim range wider than the table a kernel indexes with it") {
  // The real pos-embedding package: y0 = (yindex % ks0), ks0 = seq in [2, 2048], assert y0 < 512,
  // pos_emb.weight {512, 32}. Without the log, this is the latent finding.
  const Case c = load_case({(aoti::test::corpus_case("pos-embedding-unguarded-range") / "model.pt2").string()});
  const auto found = run_check("shape.unguarded-range", c);
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::warning);
  CHECK(found[0].title.find("the 512 rows of `pos_emb.weight`") != std::string::npos);
  CHECK(mentions(found[0], "[2, 2048]"));
  CHECK(mentions(found[0], "`y0` = `(yindex % ks0)`"));
  CHECK(mentions(found[0], "max=512"));
  check_no_holes(found[0]);
  // Every other corpus package keeps its indices within its ranges.
  for (const char* name : {"embedding-device-assert", "index-select-empty", "healthy-cuda-dynamic", "input-check-errors"})
    CHECK(run_check("shape.unguarded-range", corpus(name)).empty());
  // With the log showing the assert, the index finding explains it with the same range: one cause, one finding.
  const Case with_log = corpus("pos-embedding-unguarded-range");
  CHECK(run_check("shape.unguarded-range", with_log).empty());
  const auto index = run_check("triton.index-out-of-bounds", with_log);
  REQUIRE(index.size() == 1);
  CHECK(mentions(index[0], "the rows of `pos_emb.weight`"));
}
