// The failure checks (build.compile-failed, load.library-failed, export.failed,
// inductor.compile-failed, runtime.runner-error, error.unclassified) and the routes to the shape,
// device and custom-op checks, through the whole pipeline: real logs from corpus/wild and small logs
// in the formats the tools print.
#include <doctest/doctest.h>

#include <algorithm>

#include "analyzer/pipeline/analyze.hpp"
#include "checks/registry.hpp"
#include "tests/support.hpp"

namespace {
using namespace aoti::model;
using namespace aoti::pipeline;
using namespace aoti::checks;

std::vector<Finding> analyze_paths(const std::vector<std::string>& paths) {
  Case c = load_case(paths);
  auto findings = run_checks(c);
  rank(findings);
  return findings;
}

std::vector<Finding> analyze_wild(const std::string& name) {
  return analyze_paths({(aoti::test::corpus_dir() / "wild" / name / "stderr.txt").string()});
}

// Analyzes `text` as a log named stderr.txt in a scratch folder.
std::vector<Finding> analyze_log(const std::string& text) {
  aoti::test::TempDir dir;
  const auto path = dir.path / "stderr.txt";
  aoti::test::write_file(path, text);
  return analyze_paths({path.string()});
}

std::string all_text(const Finding& f) {
  std::string all = f.title + "\n" + f.message + "\n" + f.why;
  for (const auto& e : f.evidence) all += "\n" + e.excerpt + "\n" + e.note;
  for (const auto& s : f.next_steps) all += "\n" + s.what + "\n" + s.command;
  return all;
}

bool mentions(const Finding& f, const std::string& text) { return all_text(f).find(text) != std::string::npos; }

const Finding* first_of(const std::vector<Finding>& findings, const std::string& check) {
  for (const auto& f : findings)
    if (f.check == check) return &f;
  return nullptr;
}

// Every quoted log line is the line as the log holds it (trimmed).
void check_quotes(const std::vector<Finding>& findings, const std::string& log_text) {
  std::vector<std::string> lines(1);
  for (char ch : log_text) {
    if (ch == '\n') lines.emplace_back();
    else lines.back() += ch;
  }
  for (const auto& f : findings)
    for (const auto& e : f.evidence) {
      if (e.where.line <= 0 || !e.where.artifact.ends_with("stderr.txt")) continue;
      REQUIRE(static_cast<std::size_t>(e.where.line) <= lines.size());
      std::string line = lines[static_cast<std::size_t>(e.where.line) - 1];
      line.erase(0, line.find_first_not_of(" \t"));
      while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
      std::string excerpt = e.excerpt;
      while (!excerpt.empty() && excerpt.back() == ' ') excerpt.pop_back();
      INFO(f.check << " quotes line " << e.where.line);
      CHECK(excerpt == line);
    }
}

}  // namespace

TEST_CASE("the failure checks are registered, each with its doc page") {
  for (const char* id : {"build.compile-failed", "load.library-failed", "export.failed", "inductor.compile-failed",
                         "runtime.runner-error", "error.unclassified"}) {
    const Check* check = find_check(id);
    REQUIRE_MESSAGE(check, id);
    CHECK(check->doc().starts_with(std::string("# ") + id));
  }
  CHECK(find_check("error.unclassified")->last_resort());
  CHECK_FALSE(find_check("build.compile-failed")->last_resort());
}

TEST_CASE("build.compile-failed") {
  SUBCASE("a CUDA header missing: the toolkit, the generated file that included it") {
    const auto found = analyze_wild("pytorch-150442-cuda-h-missing-ctk");
    REQUIRE(!found.empty());
    const Finding& f = found[0];
    CHECK(f.check == "build.compile-failed");
    CHECK(f.title == "The C++ build failed: header `cuda.h` was not found");
    CHECK(mentions(f, "CUDA Toolkit"));
    CHECK(mentions(f, "aoti_runtime/device_utils.h"));                                  // where the include is
    CHECK(mentions(f, "cmt6f253zl4hyovrmrmpja5p6g7cjd2i4ookgutf7baavulnnrc6.cpp"));    // what was compiled
    CHECK(mentions(f, "export CUDA_HOME=/usr/local/cuda"));
    check_quotes(found, aoti::test::read_file(aoti::test::corpus_dir() / "wild/pytorch-150442-cuda-h-missing-ctk/stderr.txt"));
  }
  SUBCASE("generated code calling a shim function the headers do not declare") {
    const auto found = analyze_wild("pytorch-120394-embedding-bag-shim");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(mentions(found[0], "C++ that Inductor generated"));
    CHECK(mentions(found[0], "grep -rn aoti_torch__embedding_bag"));
  }
  SUBCASE("ptxas, with the nvcc command that ran it") {
    const auto found = analyze_wild("pytorch-174161-ptx-sm120a-fatbin");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(found[0].title.starts_with("ptxas rejected the PTX of a kernel"));
    CHECK(std::any_of(found[0].evidence.begin(), found[0].evidence.end(),
                      [](const Evidence& e) { return e.note == "the compiler command" && e.excerpt.starts_with("nvcc -fatbin"); }));
    CHECK(!first_of(found, "inductor.compile-failed"));  // Inductor's error only carried the build's
  }
  SUBCASE("no compiler output, only the exception: CUDA_HOME") {
    const auto found = analyze_wild("pytorch-197765-cuda-home-unset");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(mentions(found[0], "CUDA_HOME environment variable is not set"));
  }
  SUBCASE("the linker's specific error, not collect2's summary") {
    const std::string log =
        "/usr/bin/ld: /tmp/torchinductor_u/ab/cabc.o: in function `run': cabc.cpp:(.text+0x2a): undefined reference to `cuLaunchKernel'\n"
        "collect2: error: ld returned 1 exit status\n";
    const auto found = analyze_log(log);
    REQUIRE(found.size() == 1);
    CHECK(found[0].title == "Linking failed: undefined reference to `cuLaunchKernel`");
    CHECK(found[0].evidence[0].where.line == 1);
    check_quotes(found, log);
  }
}

TEST_CASE("load.library-failed") {
  SUBCASE("an extension built against another torch: the symbol demangled") {
    const auto found = analyze_wild("vllm-3147-ext-torch-version-mismatch");
    REQUIRE(found.size() == 1);
    CHECK(found[0].check == "load.library-failed");
    CHECK(found[0].title.find("undefined symbol `at::_ops::to_dtype_layout::call`") != std::string::npos);
    CHECK(mentions(found[0], "built against another torch version"));
    CHECK(mentions(found[0], "ldd -r /usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so"));
  }
  SUBCASE("a model built by a newer torch: a shim symbol") {
    const auto found = analyze_log("OSError: /tmp/m/model.so: undefined symbol: aoti_torch_cuda_new_op\n");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "load.library-failed");
    CHECK(mentions(found[0], "AOTI's C shim"));
  }
  SUBCASE("a custom op whose library was not loaded") {
    const auto found = analyze_wild("pytorch-143786-python-custom-op-cpp");
    REQUIRE(found.size() == 1);
    CHECK(found[0].title == "The custom op `mylib::custom_add` is not registered in the process: its library was not loaded");
    CHECK(mentions(found[0], "torch.library.custom_op"));
  }
  SUBCASE("kernel files missing beside a bare model .so") {
    const auto found = analyze_wild("pytorch-120194-cubin-file-not-found");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "load.library-failed");
    CHECK(mentions(found[0], ".cubin"));
  }
  SUBCASE("a symbol version the system library lacks, the requiring library from the next line") {
    const auto found = analyze_wild("mlverse-torch-866-glibcxx-too-old");
    REQUIRE(!found.empty());
    CHECK(found[0].title == "`liblantern.so` needs `GLIBCXX_3.4.20`, which `/lib64/libstdc++.so.6` does not provide");
    CHECK(mentions(found[0], "strings /lib64/libstdc++.so.6 | grep GLIBCXX_"));
  }
  SUBCASE("mmap of the model .so at an offset the page size refuses") {
    const auto found = analyze_wild("pytorch-145610-mmap-64k-pages");
    REQUIRE(!found.empty());
    CHECK(found[0].title == "Mapping `llama3.1.so` failed with EINVAL at file offset 0xd8000");
  }
}

TEST_CASE("export.failed") {
  SUBCASE("Dynamo's graph break, its hint and the model line from `from user code:`") {
    const std::string log =
        "Traceback (most recent call last):\n"
        "  File \"/home/me/export.py\", line 20, in <module>\n"
        "    ep = torch.export.export(m, (x,))\n"
        "  File \"/usr/lib/python3.12/site-packages/torch/_dynamo/symbolic_convert.py\", line 900, in step\n"
        "    raise Unsupported(msg)\n"
        "torch._dynamo.exc.Unsupported: Data-dependent branching\n"
        "  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`).\n"
        "  Hint: Use `torch.cond` to express dynamic control flow.\n"
        "\n"
        "from user code:\n"
        "   File \"/home/me/model.py\", line 12, in forward\n"
        "    if x.sum() > 0:\n";
    const auto found = analyze_log(log);
    REQUIRE(found.size() == 1);
    const Finding& f = found[0];
    CHECK(f.check == "export.failed");
    CHECK(f.title == "Export failed: `Unsupported: Data-dependent branching`");
    CHECK(mentions(f, "/home/me/model.py:12"));
    CHECK(mentions(f, "Hint: Use `torch.cond` to express dynamic control flow."));
    CHECK(mentions(f, "strict=False"));
    CHECK(mentions(f, "TORCHDYNAMO_VERBOSE=1 TORCH_LOGS=\"+dynamic\" python /home/me/export.py"));
    check_quotes(found, log);
  }
  SUBCASE("an exception whose type line the paste lost: the message and FX's node") {
    const auto found = analyze_wild("ao-1381-quant-bias-inplace-frozen");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "export.failed");
    CHECK(found[0].title == "Export failed: `cannot mutate tensors with frozen storage`");
    CHECK(mentions(found[0], "torch.ops.aten.add_.Tensor"));
  }
  SUBCASE("routed: a specialized dim is shape.dim-specialized's, a data-dependent guard shape.data-dependent-guard's") {
    auto found = analyze_wild("pytorch-133653-batch1-specialized");
    CHECK(!first_of(found, "export.failed"));
    REQUIRE(!found.empty());
    CHECK(found[0].check == "shape.dim-specialized");
    CHECK(mentions(found[0], "inferred to be a constant (1)"));
    found = analyze_wild("pytorch-135061-distributions-validate-dde");
    CHECK(!first_of(found, "export.failed"));
    REQUIRE(!found.empty());
    CHECK(found[0].check == "shape.data-dependent-guard");
    CHECK(mentions(found[0], "non_strict_utils.py"));
  }
  SUBCASE("routed: a custom op without a fake is customop.fake-missing's") {
    const auto found = analyze_wild("thunder-2530-custom-op-no-fake");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "customop.fake-missing");
    CHECK(found[0].title == "Custom op `mynamespace::func` has no fake (meta) kernel");
    CHECK(mentions(found[0], "register_fake(\"mynamespace::func\")"));
    CHECK(!first_of(found, "export.failed"));
  }
  SUBCASE("from the trace's compilation_metrics record") {
    Case c;
    TraceFacts trace;
    trace.artifact = "trace.log";
    TraceFailure failure;
    failure.where = {"trace.log", 41, "[0/0]", 0};
    failure.origin = "compilation_metrics";
    failure.fail_type = "Unsupported";
    failure.reason = "Dynamic control flow is not supported at the moment.";
    failure.user_file = "/home/me/model.py";
    failure.user_line = 12;
    trace.failures.push_back(failure);
    c.traces.push_back(trace);
    auto found = find_check("export.failed")->run(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "fail_user_frame = /home/me/model.py:12"));
    CHECK(found[0].evidence[0].where.line == 0);  // a fact read from the record, not a quoted line
    c.traces[0].failures[0].fail_type = "BackendCompilerFailed";
    CHECK(find_check("export.failed")->run(c).empty());
    CHECK(find_check("inductor.compile-failed")->run(c).size() == 1);
  }
}

TEST_CASE("inductor.compile-failed") {
  SUBCASE("a lowering that failed: the op, its arguments and the exception") {
    const std::string log =
        "Traceback (most recent call last):\n"
        "  File \"/home/me/aot.py\", line 9, in <module>\n"
        "    torch._inductor.aoti_compile_and_package(ep)\n"
        "  File \"/usr/lib/python3.12/site-packages/torch/_inductor/graph.py\", line 1100, in call_function\n"
        "    raise LoweringException(e, target, args, kwargs).with_traceback(\n"
        "torch._inductor.exc.InductorError: LoweringException: AssertionError: unsupported dtype\n"
        "  target: aten.cumsum.default\n"
        "  args[0]: TensorBox(StorageBox(InputBuffer(name='arg0_1', layout=FixedLayout('cuda:0', torch.bool, size=[8, 16]))))\n";
    const auto found = analyze_log(log);
    REQUIRE(found.size() == 1);
    CHECK(found[0].check == "inductor.compile-failed");
    CHECK(found[0].title == "Inductor failed to lower `aten.cumsum.default`: `LoweringException: AssertionError: unsupported dtype`");
    CHECK(mentions(found[0], "torch/_inductor/graph.py:1100"));
    check_quotes(found, log);
  }
  SUBCASE("an error raised inside torch/_inductor, named by its frame") {
    const auto found = analyze_wild("pytorch-129719-make-fx-non-tuple-output");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "inductor.compile-failed");
    CHECK(mentions(found[0], "compile_fx_aot"));
  }
  SUBCASE("a GPU too old for Triton") {
    const auto found = analyze_wild("nnunet-2188-gpu-too-old-for-triton");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "inductor.compile-failed");
  }
  SUBCASE("a C++ compile error wrapped by BackendCompilerFailed is the build's") {
    const auto found = analyze_log(
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        "CppCompileError: C++ compile error\n");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "build.compile-failed");
    CHECK(!first_of(found, "inductor.compile-failed"));
  }
}

TEST_CASE("runtime.runner-error") {
  SUBCASE("out of memory while the container loaded the weights, above the deprecation warning") {
    const auto found = analyze_wild("torchchat-1302-aot-load-cuda-oom");
    REQUIRE(found.size() == 2);
    CHECK(found[0].check == "runtime.runner-error");
    CHECK(found[0].title == "The AOTI runner call `create_func_` failed: `CUDA error: out of memory`");
    CHECK(mentions(found[0], "nvidia-smi"));
    CHECK(found[1].check == "api.deprecated");
  }
  SUBCASE("the wrong number of inputs") {
    const auto found = analyze_log(
        "Error: expected inputs vector size to be 2, but got 3\n"
        "RuntimeError: run_func_( container_handle_, input_handles.data(), input_handles.size(), "
        "output_handles.data(), output_handles.size(), reinterpret_cast<AOTInductorStreamHandle>(stream_handle), "
        "proxy_executor_handle_) API call failed at /pytorch/torch/csrc/inductor/aoti_runner/model_container_runner.cpp, line 144\n");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "runtime.runner-error");
    CHECK(found[0].title.find("wrong number of inputs") != std::string::npos);
  }
  SUBCASE("left to the checks that explain the cause: input checks, devices") {
    const auto found = analyze_log(
        "Error: input_handles[0]: unmatched device type, expected: 11(cuda), but got: 0\n"
        "RuntimeError: run_func_( container_handle_ ) API call failed at /pytorch/model_container_runner.cpp, line 144\n");
    CHECK(!first_of(found, "runtime.runner-error"));
  }
}

TEST_CASE("error.unclassified: the last resort") {
  SUBCASE("a crash with a debugger's backtrace: the crash and its innermost frame") {
    const auto found = analyze_wild("pytorch-124034-unaligned-constants-segv");
    REQUIRE(found.size() == 1);
    CHECK(found[0].check == "error.unclassified");
    CHECK(found[0].explains_failure);
    CHECK(mentions(found[0], "Segmentation fault"));
    CHECK(mentions(found[0], "tinygemm_kernel<1, 64>"));
  }
  SUBCASE("an exception no check knows, with the user's frame") {
    const std::string log =
        "Traceback (most recent call last):\n"
        "  File \"/srv/app/serve.py\", line 40, in <module>\n"
        "    load()\n"
        "  File \"/usr/lib/python3.12/site-packages/torch/__init__.py\", line 10, in load\n"
        "    raise ValueError(\"bad\")\n"
        "ValueError: bad\n";
    const auto found = analyze_log(log);
    REQUIRE(found.size() == 1);
    CHECK(found[0].check == "error.unclassified");
    CHECK(mentions(found[0], "/srv/app/serve.py:40"));
    CHECK(mentions(found[0], "TORCH_SHOW_CPP_STACKTRACES=1 python /srv/app/serve.py"));
    check_quotes(found, log);
  }
  SUBCASE("dropped where another check explains the failure") {
    const auto found = analyze_wild("vllm-3147-ext-torch-version-mismatch");
    CHECK(!first_of(found, "error.unclassified"));
  }
  SUBCASE("a log without an error has no finding") {
    CHECK(analyze_log("loading model\nok torch.Size([4, 8])\n").empty());
  }
}

TEST_CASE("every wild case that states an error gets a finding, and --fail-on note fails on it") {
  const auto dir = aoti::test::corpus_dir() / "wild" / "pytorch-166841-cpu-scatter-cuda-shim";
  const auto run = aoti::test::run_cli("--fail-on note " + aoti::test::shell_quote((dir / "stderr.txt").string()));
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
      "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode: Could not guard on data-dependent "
      "expression Eq(u0, 1) (unhinted: Eq(u0, 1)).  (Size-like symbols: none)\n");
  REQUIRE(found.size() == 2);
  CHECK(found[0].check == "shape.data-dependent-guard");
  CHECK(found[0].ends_run);
  CHECK(found[1].check == "load.library-failed");
  CHECK_FALSE(found[1].ends_run);
}

TEST_CASE("a trace's failure record: merged into the log's finding of the same run, a finding of its own alone") {
  const auto dir = aoti::test::corpus_dir() / "export-data-branch-strict";
  auto found = analyze_paths({dir.string()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "export.failed");
  CHECK(std::any_of(found[0].evidence.begin(), found[0].evidence.end(), [](const Evidence& e) {
    return e.where.line == 0 && e.excerpt.starts_with("compilation_metrics: fail_type = Unsupported");
  }));
  found = analyze_paths({(dir / "trace").string()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "export.failed");
  CHECK(mentions(found[0], "from user code: /tmp/fails/export-data-branch-strict/repro.py:4 (`if x.sum() > 0:`)"));
  // InductorError carrying InvalidCxxCompiler is the build's, from the trace alone too.
  found = analyze_paths({(aoti::test::corpus_dir() / "aoti-no-compiler" / "trace").string()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "build.compile-failed");
}

TEST_CASE("runtime.api-call-failed from the log alone: a CUDA shim call that got CPU tensors") {
  const auto found = analyze_wild("pytorch-166841-cpu-scatter-cuda-shim");
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "runtime.api-call-failed");
  CHECK(found[0].title == "A CUDA shim call of the generated wrapper got cpu tensors");
  CHECK(found[0].evidence[0].where.line == 1);
}

TEST_CASE("load.library-failed: the package loader's own errors") {
  const auto found = analyze_log(
      "Traceback (most recent call last):\n"
      "  File \"/srv/run.py\", line 3, in <module>\n"
      "    r = torch._inductor.aoti_load_package(\"/models/m.pt2\")\n"
      "RuntimeError: Failed to initialize zip archive: failed finding central directory\n");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "load.library-failed");
  CHECK(found[0].title == "The package could not be opened as a zip archive: `failed finding central directory`");
  CHECK(mentions(found[0], "unzip -l /models/m.pt2"));
}
