// Checks together through the pipeline: ranking, trace facts several checks read, a bare model .so,
// every wild log, and a trace's failure record joining the log's finding.
#include <doctest/doctest.h>

#include <filesystem>

#include "checks/support/crash.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

namespace {

// A case's model .so written out as a bare file, under its own name (<hash>.wrapper.so), as
// torch._export.aot_compile leaves one; with its wrapper source beside it when asked.
std::filesystem::path bare_so(const std::string& case_name, const std::filesystem::path& dir,
                              bool with_wrapper = false) {
  const std::string entry = corpus_entry_name(case_name, ".wrapper.so");
  REQUIRE(!entry.empty());
  const auto path = dir / std::filesystem::path(entry).filename();
  write_file(path, corpus_entry_text(case_name, ".wrapper.so"));
  if (with_wrapper)
    write_file(dir / std::filesystem::path(entry).replace_extension(".cpp").filename(),
               corpus_entry_text(case_name, ".wrapper.cpp"));
  return path;
}
std::string core_of_case(const std::string& case_name) {
  return (corpus_case(case_name) / "core.xz").string();
}

}  // namespace

TEST_CASE("ranking puts the explained failure first and is deterministic") {
  std::vector<Finding> findings(3);
  findings[0].check = "b.latent";
  findings[0].severity = Severity::error;
  findings[0].subject = "x";
  findings[1].check = "a.note";
  findings[1].severity = Severity::note;
  findings[1].subject = "y";
  findings[2].check = "c.explains";
  findings[2].severity = Severity::warning;
  findings[2].explains_failure = true;
  rank(findings);
  CHECK(findings[0].check == "c.explains");
  CHECK(findings[1].check == "b.latent");
  CHECK(findings[2].rank == 3);
  auto again = findings;
  rank(again);
  for (std::size_t i = 0; i < findings.size(); ++i)
    CHECK(again[i].fingerprint == findings[i].fingerprint);
}

TEST_CASE(
    "traces: the specializing user frame, graph shapes, and wrapper facts without the package") {
  namespace fs = std::filesystem;
  const auto trace_of = [](const std::string& name) {
    for (const auto& entry : fs::directory_iterator(aoti::test::corpus_case(name) / "trace"))
      return entry.path().string();
    return std::string();
  };
  SUBCASE("cpp-meta-sizes: batch = 8, specialized at the custom op's call") {
    const auto found = run_check("shape.dim-specialized", corpus("cpp-meta-sizes"));
    REQUIRE(found.size() == 1);  // the log's error and the trace's record are one finding
    CHECK(mentions(found[0], "`batch`"));
    CHECK(mentions(found[0], "s77 -> 8"));
    CHECK(mentions(found[0], "torch.ops.heldout_cpp.scale_rows(x, 0.5)"));
  }
  SUBCASE(
      "custom-op-fake-static-rows: the trace alone shows pad_rows f32[9, 16] from f32[s77, 16]") {
    const auto found = run_check("customop.fake-static-shape",
                                 load_case({trace_of("custom-op-fake-static-rows")}));
    REQUIRE(found.size() == 1);
    CHECK(mentions(found[0], "heldout::pad_rows"));
    CHECK(mentions(found[0], "f32[9, 16]"));
    CHECK(mentions(found[0], "f32[s77, 16]"));
  }
  SUBCASE(
      "embedding-device-assert: without the package, the trace's wrapper dump still traces the "
      "assert") {
    const std::string stderr_path =
        (aoti::test::corpus_case("embedding-device-assert") / "stderr.txt").string();
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
  SUBCASE(
      "without the model .so, a crash under torch's package layout is not blamed on a custom op") {
    CHECK(
        run_check("customop.kernel-crash", load_case({core_of_case("load-crash-static-libstdcxx")}))
            .empty());
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
    const Case c = load_case(
        {so.string(), (aoti::test::corpus_case("cpu-package-cuda-input-segv") / "trace").string(),
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
    for (const char* library :
         {"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6"}) {
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

TEST_CASE("every wild case that states an error gets a finding, and --fail-on note fails on it") {
  const auto dir = aoti::test::corpus_dir() / "wild" / "pytorch-166841-cpu-scatter-cuda-shim";
  const auto run = aoti::test::run_cli("--fail-on note " +
                                       aoti::test::shell_quote((dir / "stderr.txt").string()));
  CHECK(run.exit_code == 1);
}

TEST_CASE("ranking: the error that ended the run first, fatal errors above warnings") {
  // An optional extension failed to import (the program went on), then export stopped on a
  // data-dependent guard: the guard ended the run.
  const auto found = analyze_log(
      "ImportError: /opt/ext/_fast.so: undefined symbol: _ZN3c104impl3cow11cow_deleterEPv\n"
      "falling back to the slow path\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/me/export.py\", line 9, in <module>\n"
      "    torch.export.export(m, (x,))\n"
      "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode: Could not guard on "
      "data-dependent "
      "expression Eq(u0, 1) (unhinted: Eq(u0, 1)).  (Size-like symbols: none)\n");
  REQUIRE(found.size() == 2);
  CHECK(found[0].check == "shape.data-dependent-guard");
  CHECK(found[0].ends_run);
  CHECK(found[1].check == "load.library-failed");
  CHECK_FALSE(found[1].ends_run);
}

TEST_CASE(
    "a trace's failure record: merged into the log's finding of the same run, a finding of its own "
    "alone") {
  const auto dir = aoti::test::corpus_dir() / "export-data-branch-strict";
  auto found = analyze_paths({dir.string()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "export.failed");
  CHECK(std::any_of(found[0].evidence.begin(), found[0].evidence.end(), [](const Evidence& e) {
    return e.where.line == 0 &&
           e.excerpt.starts_with("compilation_metrics: fail_type = Unsupported");
  }));
  found = analyze_paths({(dir / "trace").string()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "export.failed");
  CHECK(mentions(
      found[0],
      "from user code: /tmp/fails/export-data-branch-strict/repro.py:4 (`if x.sum() > 0:`)"));
  // InductorError carrying InvalidCxxCompiler is the build's, from the trace alone too.
  found = analyze_paths({(aoti::test::corpus_dir() / "aoti-no-compiler" / "trace").string()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "build.compile-failed");
}
