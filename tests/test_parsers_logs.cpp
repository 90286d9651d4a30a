#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "parsers/logs/log_scanner.hpp"
#include "tests/support.hpp"

using aoti::model::LogEvent;
using aoti::model::LogEventKind;
using aoti::parsers::logs::LogScan;
using aoti::parsers::logs::scan_log_file;
using aoti::parsers::logs::scan_log_text;
namespace fs = std::filesystem;

namespace {
using namespace aoti::test;

std::vector<LogEvent> of_kind(const LogScan& scan, LogEventKind kind) {
  std::vector<LogEvent> out;
  std::copy_if(scan.events.begin(), scan.events.end(), std::back_inserter(out),
               [&](const LogEvent& e) { return e.kind == kind; });
  return out;
}

LogScan scan_corpus(const std::string& name, const std::string& file) {
  return scan_log_text(aoti::test::read_file(aoti::test::corpus_case(name) / file), name + "/" + file);
}

// The one event a single line gives, failing the test when it gives none or several.
LogEvent only_event(std::string_view text) {
  const auto scan = scan_log_text(text, "log.txt");
  REQUIRE_MESSAGE(scan.events.size() == 1, text);
  return scan.events.front();
}

long max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

// ---- the real corpus --------------------------------------------------------------------------

TEST_CASE("input-check-errors: the four AOTI input-check errors") {
  const auto scan = scan_corpus("input-check-errors", "stderr.txt");
  const auto checks = of_kind(scan, LogEventKind::input_check_error);
  REQUIRE(checks.size() == 4);
  CHECK(scan.events.size() == 4);  // the FutureWarning / UserWarning lines are not events

  CHECK(checks[0].problem == "unmatched device type");
  CHECK(checks[0].input_index == 0);
  CHECK(checks[0].dim == -1);
  CHECK(checks[0].expected == "11(cuda)");
  CHECK(checks[0].value == "cuda");
  CHECK(checks[0].actual == "0");
  CHECK(checks[0].where.artifact == "input-check-errors/stderr.txt");
  CHECK(checks[0].where.line == 5);
  CHECK(checks[0].text == "Error: input_handles[0]: unmatched device type, expected: 11(cuda), but got: 0");

  CHECK(checks[1].problem == "dim value is too large");
  CHECK(checks[1].dim == 0);
  CHECK(checks[1].expected == "1024");
  CHECK(checks[1].actual == "4096");

  CHECK(checks[2].problem == "unmatched dtype");
  CHECK(checks[2].expected == "6(at::kFloat)");
  CHECK(checks[2].value == "at::kFloat");
  CHECK(checks[2].actual == "5");

  CHECK(checks[3].problem == "unmatched stride value");
  CHECK(checks[3].dim == 0);
  CHECK(checks[3].expected == "16");
  CHECK(checks[3].actual == "1");
}

TEST_CASE("input-check-errors: the runner's API call failures in stdout fold into one event") {
  const auto scan = scan_corpus("input-check-errors", "stdout.txt");
  const auto failed = of_kind(scan, LogEventKind::api_call_failed);
  REQUIRE(failed.size() == 1);
  const auto& e = failed.front();
  CHECK(e.kind == LogEventKind::api_call_failed);
  CHECK(e.repeats == 4);
  CHECK(e.where.line == 2);
  CHECK(e.source_file == "/pytorch/torch/csrc/inductor/aoti_runner/model_container_runner.cpp");
  CHECK(e.source_line == 144);
  CHECK(e.value == "144");
  CHECK(e.subject.starts_with("run_func_( container_handle_, input_handles.data()"));
  CHECK(e.subject.ends_with("proxy_executor_handle_)"));
}

TEST_CASE("embedding-device-assert: Triton assert, CUDA error, terminate, Python exception") {
  const auto scan = scan_corpus("embedding-device-assert", "stderr.txt");

  const auto asserts = of_kind(scan, LogEventKind::triton_assert);
  REQUIRE(asserts.size() == 1);
  CHECK(asserts[0].subject == "index out of bounds: 0 <= tmp4 < 1000");
  CHECK(asserts[0].repeats == 8);
  CHECK(asserts[0].where.line == 5);
  CHECK(asserts[0].source_file ==
        "/tmp/aoti4/embedding_oob/inductor_cache/d3/cd3okwxvqua6grd5jkdkkefdmhojjp54tdrdzwugize4oqluxxm3.py");
  CHECK(asserts[0].source_line == 33);

  const auto cuda = of_kind(scan, LogEventKind::cuda_error);
  REQUIRE(cuda.size() == 1);
  CHECK(cuda[0].value == "device-side assert triggered");
  // The exception line, `Search for cudaErrorAssert`, and terminate's what().
  CHECK(cuda[0].repeats == 3);

  const auto terminate = of_kind(scan, LogEventKind::terminate);
  REQUIRE(terminate.size() == 1);
  CHECK(terminate[0].subject == "std::runtime_error");
  CHECK(terminate[0].value == "CUDA error: device-side assert triggered");

  const auto exceptions = of_kind(scan, LogEventKind::python_exception);
  REQUIRE(exceptions.size() == 1);
  CHECK(exceptions[0].subject == "torch.AcceleratorError");
  CHECK(exceptions[0].value == "CUDA error: device-side assert triggered");

  CHECK(scan.events.size() == 4);
  CHECK(scan.diagnostics.empty());
}

TEST_CASE("cpp-meta-sizes: export specialized batch to 8, merged from three lines") {
  const auto scan = scan_corpus("cpp-meta-sizes", "stdout.txt");
  REQUIRE(scan.events.size() == 1);
  const auto& e = scan.events.front();
  CHECK(e.kind == LogEventKind::export_specialized);
  CHECK(e.subject == "batch");
  CHECK(e.value == "8");
  CHECK(e.problem == "specialized to a constant");
  CHECK(e.where.line == 1);
  CHECK(e.repeats == 1);
}

TEST_CASE("cases without an error in their logs give no events") {
  for (const std::string name : {"healthy-cuda-dynamic", "const-cpu-buffer", "custom-op-fake-static-rows",
                                 "cpu-package-cuda-input-segv", "load-crash-static-libstdcxx"}) {
    for (const std::string file : {"stderr.txt", "stdout.txt"}) {
      CAPTURE(name);
      CAPTURE(file);
      const auto scan = scan_corpus(name, file);
      // What the run printed of its results is not an error (healthy-cuda-dynamic prints torch.Size).
      CHECK(std::all_of(scan.events.begin(), scan.events.end(),
                        [](const LogEvent& e) { return e.kind == LogEventKind::observed_shape; }));
      CHECK(scan.diagnostics.empty());
    }
  }
}

TEST_CASE("scanning a file gives what scanning its text gives") {
  const auto path = aoti::test::corpus_case("embedding-device-assert") / "stderr.txt";
  const auto from_file = scan_log_file(path, "stderr.txt");
  REQUIRE(from_file.has_value());
  const auto from_text = scan_log_text(aoti::test::read_file(path), "stderr.txt");
  CHECK(from_file->lines == from_text.lines);
  REQUIRE(from_file->events.size() == from_text.events.size());
  for (std::size_t i = 0; i < from_text.events.size(); ++i) {
    CHECK(from_file->events[i].text == from_text.events[i].text);
    CHECK(from_file->events[i].repeats == from_text.events[i].repeats);
  }
}

// ---- one line per pattern, as the debugging guide and the failure-mode catalogue quote them ----

TEST_CASE("input-check error forms") {
  SUBCASE("dim value is too small") {
    const auto e = only_event("Error: input_handles[0]: dim value is too small at 0, expected it to be >= 2, but got: 1");
    CHECK(e.kind == LogEventKind::input_check_error);
    CHECK(e.problem == "dim value is too small");
    CHECK(e.dim == 0);
    CHECK(e.expected == "2");
    CHECK(e.actual == "1");
  }
  SUBCASE("unmatched dim value, on another input") {
    const auto e = only_event("Error: input_handles[2]: unmatched dim value at 1, expected: 16, but got: 8");
    CHECK(e.problem == "unmatched dim value");
    CHECK(e.input_index == 2);
    CHECK(e.dim == 1);
    CHECK(e.expected == "16");
    CHECK(e.actual == "8");
  }
  SUBCASE("the guide's older device-type form") {
    const auto e = only_event("Error: input_handles[0]: unmatched device type, expected: 0(cpu), but got: 1(cuda)");
    CHECK(e.problem == "unmatched device type");
    CHECK(e.expected == "0(cpu)");
    CHECK(e.value == "cpu");
    CHECK(e.actual == "1(cuda)");
  }
  SUBCASE("without the Error: prefix, with a CRLF ending") {
    const auto e = only_event("input_handles[1]: unmatched stride value at 0, expected: 16, but got: 1\r\n");
    CHECK(e.input_index == 1);
    CHECK(e.actual == "1");
  }
  SUBCASE("a mention without expected/got is not an input-check error") {
    CHECK(scan_log_text("input_handles[0]: something else", "log").events.empty());
  }
}

TEST_CASE("device placement errors") {
  SUBCASE("mixed-device constants") {
    const auto e = only_event(
        "Error: Mixed-device constants are only supported when the secondary device is CPU. Constant "
        "'linear_weight' was compiled for a non-CPU device.");
    CHECK(e.kind == LogEventKind::mixed_device_constants);
    CHECK(e.subject == "linear_weight");
  }
  SUBCASE("tensors on two devices") {
    const auto e = only_event(
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
    CHECK(e.kind == LogEventKind::tensors_on_different_devices);
    CHECK(e.value == "cuda:0 and cpu");
  }
  SUBCASE("tensors on two devices, older wording") {
    const auto e = only_event(
        "Expected all tensors to be on the same device, but got index is on cpu, different from other tensors on "
        "cuda:0 (when checking argument in method wrapper_CUDA__index_select)");
    CHECK(e.value == "cpu and cuda:0");
  }
  SUBCASE("pointer on host") {
    const auto e = only_event(
        "The specified pointer resides on host memory and is not registered with any CUDA device.");
    CHECK(e.kind == LogEventKind::pointer_on_host);
  }
  SUBCASE("out tensor device") {
    const auto e = only_event("Expected out tensor to have device cuda:0, but got cpu instead");
    CHECK(e.kind == LogEventKind::out_tensor_device);
    CHECK(e.expected == "cuda:0");
    CHECK(e.actual == "cpu");
  }
}

TEST_CASE("API call failed in the generated wrapper") {
  const auto e = only_event(
      "RuntimeError: aoti_torch_cuda_mm_out(buf0, arg0_1, _frozen_param0) API call failed at "
      "/tmp/torchinductor_root/ab/cabcdef.wrapper.cpp, line 512");
  CHECK(e.kind == LogEventKind::api_call_failed);
  CHECK(e.subject == "aoti_torch_cuda_mm_out(buf0, arg0_1, _frozen_param0)");
  CHECK(e.source_file == "/tmp/torchinductor_root/ab/cabcdef.wrapper.cpp");
  CHECK(e.source_line == 512);
}

TEST_CASE("device-side asserts") {
  SUBCASE("Triton, with the guide's quotes and a dynamic bound") {
    const auto e = only_event(
        "/var/tmp/torchinductor_u/xy/cxyz.py:87: unknown: block: [12,0,0], thread: [3,0,0] Assertion 'index out of "
        "bounds: 0 <= tmp7 < ks0' failed.");
    CHECK(e.kind == LogEventKind::triton_assert);
    CHECK(e.subject == "index out of bounds: 0 <= tmp7 < ks0");
    CHECK(e.source_file == "/var/tmp/torchinductor_u/xy/cxyz.py");
    CHECK(e.source_line == 87);
  }
  SUBCASE("behind a service log's timestamp") {
    const auto e = only_event(
        "2025-01-01 12:00:00.123 [worker] /k/cabc.py:33: unknown: block: [0,0,0], thread: [1,0,0] Assertion `index "
        "out of bounds: 0 <= tmp4 < 1000` failed.");
    CHECK(e.source_file == "/k/cabc.py");
    CHECK(e.source_line == 33);
  }
  SUBCASE("identical asserts fold, different lines do not") {
    const std::string a = "/k.py:33: unknown: block: [0,0,0], thread: [1,0,0] Assertion `index out of bounds: 0 <= tmp4 < 1000` failed.\n";
    const std::string b = "/k.py:33: unknown: block: [1,0,0], thread: [2,0,0] Assertion `index out of bounds: 0 <= tmp4 < 1000` failed.\n";
    const std::string c = "/k.py:40: unknown: block: [0,0,0], thread: [1,0,0] Assertion `index out of bounds: 0 <= tmp9 < 64` failed.\n";
    const auto scan = scan_log_text(a + b + c + a, "log");
    REQUIRE(scan.events.size() == 2);
    CHECK(scan.events[0].repeats == 3);
    CHECK(scan.events[0].where.line == 1);
    CHECK(scan.events[1].repeats == 1);
    CHECK(scan.events[1].where.line == 3);
  }
  SUBCASE("ATen's index kernel, out of bounds") {
    const auto e = only_event(
        "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [0,0,0] Assertion "
        "`-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.");
    CHECK(e.kind == LogEventKind::triton_assert);
    CHECK(e.subject == "-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"");
    CHECK(e.source_file == "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu");
    CHECK(e.source_line == 92);
  }
  SUBCASE("another device assert is a CUDA error") {
    const auto e = only_event(
        "/pytorch/aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
        "thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.");
    CHECK(e.kind == LogEventKind::cuda_error);
    CHECK(e.subject == "t >= 0 && t < n_classes");
    CHECK(e.value == "device-side assert triggered");
    CHECK(e.source_line == 242);
  }
  SUBCASE("a host assert alone is not an event") {
    CHECK(scan_log_text("python3: /src/foo.cpp:12: void f(): Assertion `x > 0' failed.", "log").events.empty());
  }
}

TEST_CASE("CUDA errors") {
  SUBCASE("illegal memory access, seen three ways, is one event") {
    const auto scan = scan_log_text(
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
        "Search for `cudaErrorIllegalAddress' in https://docs.nvidia.com/cuda/ for more information.\n"
        "  what():  CUDA error: an illegal memory access was encountered\n",
        "log");
    const auto cuda = of_kind(scan, LogEventKind::cuda_error);
    REQUIRE(cuda.size() == 1);
    CHECK(cuda[0].value == "an illegal memory access was encountered");
    CHECK(cuda[0].subject == "CUDA error");
    CHECK(cuda[0].repeats == 3);
  }
  SUBCASE("the enum name alone") {
    const auto e = only_event("failed with cudaErrorIllegalAddress");
    CHECK(e.kind == LogEventKind::cuda_error);
    CHECK(e.subject == "cudaErrorIllegalAddress");
    CHECK(e.value == "an illegal memory access was encountered");
  }
  SUBCASE("the enum type is not an error") {
    CHECK(scan_log_text("cudaError_t err = cudaGetLastError();", "log").events.empty());
  }
  SUBCASE("driver error") {
    const auto e = only_event("Error: CUDA driver error: file not found");
    CHECK(e.subject == "CUDA driver error");
    CHECK(e.value == "file not found");
  }
  SUBCASE("cuBLAS") {
    const auto e = only_event("cublas call failed: CUBLAS_STATUS_EXECUTION_FAILED");
    CHECK(e.kind == LogEventKind::cuda_error);
    CHECK(e.value == "CUBLAS_STATUS_EXECUTION_FAILED");
  }
  SUBCASE("Triton's launcher") {
    const auto e = only_event("RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered");
    CHECK(e.value == "an illegal memory access was encountered");
  }
}

TEST_CASE("terminate, with and without what()") {
  SUBCASE("what() on the next line") {
    const auto scan = scan_log_text(
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  run_func_(...) API call failed at x.cpp, line 1\n",
        "log");
    const auto terminate = of_kind(scan, LogEventKind::terminate);
    REQUIRE(terminate.size() == 1);
    CHECK(terminate[0].subject == "std::runtime_error");
    CHECK(terminate[0].value == "run_func_(...) API call failed at x.cpp, line 1");
    CHECK(terminate[0].where.line == 1);
    CHECK(of_kind(scan, LogEventKind::api_call_failed).size() == 1);
  }
  SUBCASE("at the end of the log") {
    const auto e = only_event("terminate called after throwing an instance of 'c10::Error'");
    CHECK(e.subject == "c10::Error");
    CHECK(e.value.empty());
  }
  SUBCASE("without an exception") {
    const auto e = only_event("terminate called without an active exception\nsomething else\n");
    CHECK(e.kind == LogEventKind::terminate);
    CHECK(e.subject.empty());
  }
}

TEST_CASE("crashes") {
  CHECK(only_event("Segmentation fault (core dumped)").subject == "SIGSEGV");
  CHECK(only_event("Fatal Python error: Segmentation fault").value == "Fatal Python error: Segmentation fault");
  CHECK(only_event("Caught signal 11 (SIGSEGV)").subject == "SIGSEGV");
  CHECK(only_event("Aborted (core dumped)").subject == "SIGABRT");
  CHECK(only_event("Bus error (core dumped)").subject == "SIGBUS");
  CHECK(scan_log_text("no Bus error here, just words", "log").events.empty());
  // faulthandler's report and the shell's are one crash.
  const auto scan = scan_log_text(
      "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f (most recent call first):\n"
      "  File \"run.py\", line 3 in <module>\nSegmentation fault (core dumped)\n",
      "log");
  REQUIRE(scan.events.size() == 1);
  CHECK(scan.events[0].kind == LogEventKind::segfault);
  CHECK(scan.events[0].repeats == 2);
}

TEST_CASE("deprecated APIs") {
  const auto scan = scan_log_text(
      "/x/torch/_export/__init__.py:120: FutureWarning: torch._export.aot_compile is deprecated, use "
      "torch._inductor.aoti_compile_and_package instead\n"
      "so = torch._export.aot_compile(model, args)\n"
      "runner = torch._export.aot_load(so, 'cuda')\n",
      "log");
  REQUIRE(scan.events.size() == 2);
  CHECK(scan.events[0].kind == LogEventKind::deprecated_api);
  CHECK(scan.events[0].subject == "torch._export.aot_compile");
  CHECK(scan.events[0].repeats == 2);
  CHECK(scan.events[1].subject == "torch._export.aot_load");

  const auto frame = only_event(
      "  File \"/opt/venv/lib/python3.12/site-packages/torch/_export/__init__.py\", line 301, in aot_load");
  CHECK(frame.subject == "torch._export.aot_load");
}

TEST_CASE("export specialization") {
  SUBCASE("inferred to be a constant") {
    const auto e = only_event(
        "- Not all values of batch = L['x'].size()[0] in the specified range batch <= 1024 are valid because batch "
        "was inferred to be a constant (8).");
    CHECK(e.kind == LogEventKind::export_specialized);
    CHECK(e.subject == "batch");
    CHECK(e.value == "8");
  }
  SUBCASE("a generated guard") {
    const auto e = only_event(
        "Not all values of height = L['x'].size()[2] in the specified range 320 <= height <= 7680 satisfy the "
        "generated guard Ne(Mod(((L['x'].size()[2] - 1)//2), 2), 0).");
    CHECK(e.subject == "height");
    CHECK(e.value.empty());
    CHECK(e.problem == "violates the guard Ne(Mod(((L['x'].size()[2] - 1)//2), 2), 0)");
  }
  SUBCASE("two symbols, values from the suggested fixes") {
    const auto scan = scan_log_text(
        "Constraints violated (batch, seq)! For more information, run with TORCH_LOGS=\"+dynamic\".\n"
        "Suggested fixes:\n  batch = 1\n  seq = Dim('seq', max=512)\n",
        "log");
    REQUIRE(scan.events.size() == 2);
    CHECK(scan.events[0].subject == "batch");
    CHECK(scan.events[0].value == "1");
    CHECK(scan.events[1].subject == "seq");
    CHECK(scan.events[1].value.empty());
  }
}

TEST_CASE("Python exceptions") {
  SUBCASE("the last line of a traceback") {
    const auto scan = scan_log_text(
        "Traceback (most recent call last):\n"
        "  File \"run.py\", line 3, in <module>\n"
        "    out = runner(x)\n"
        "          ^^^^^^^^^\n"
        "RuntimeError: run_func_( container_handle_ ) API call failed at /pytorch/model_container_runner.cpp, line 144\n",
        "log");
    const auto exceptions = of_kind(scan, LogEventKind::python_exception);
    REQUIRE(exceptions.size() == 1);
    CHECK(exceptions[0].subject == "RuntimeError");
    CHECK(exceptions[0].value.starts_with("run_func_("));
    CHECK(exceptions[0].where.line == 5);
    CHECK(of_kind(scan, LogEventKind::api_call_failed).size() == 1);
  }
  SUBCASE("a prefixed traceback, data-dependent guard") {
    const auto scan = scan_log_text(
        "[rank0]: Traceback (most recent call last):\n"
        "[rank0]:   File \"x.py\", line 1, in f\n"
        "[rank0]: torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode: Could not guard on "
        "data-dependent expression Eq(u2, -1) (unhinted: Eq(u2, -1)).  (Size-like symbols: none)\n"
        "Could not guard on data-dependent expression Eq(u2, -1)\n",
        "log");
    REQUIRE(scan.events.size() == 1);
    CHECK(scan.events[0].subject == "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode");
    CHECK(scan.events[0].problem == "data-dependent guard");
  }
  SUBCASE("a data-dependent guard outside a traceback") {
    const auto e = only_event(
        "GuardOnDataDependentSymNode: Could not extract specialized integer from data-dependent expression u0");
    CHECK(e.kind == LogEventKind::python_exception);
    CHECK(e.problem == "data-dependent guard");
    CHECK(e.value == "Could not extract specialized integer from data-dependent expression u0");
  }
  SUBCASE("a bare exception name") {
    const auto e = only_event("Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyboardInterrupt\n");
    CHECK(e.subject == "KeyboardInterrupt");
    CHECK(e.value.empty());
  }
  SUBCASE("an exception line outside a traceback is an exception event: a paste of its last line states the failure") {
    const auto e = only_event("RuntimeError: method->execute() failed with error 0x12");
    CHECK(e.kind == LogEventKind::python_exception);
    CHECK(e.subject == "RuntimeError");
    CHECK(e.value == "method->execute() failed with error 0x12");
    CHECK(e.final);
  }
  SUBCASE("nor is a warning, nor the AOTI runtime's `Error:` prefix, an exception") {
    CHECK(of_kind(scan_log_text("UserWarning: x\nError: something\n", "log"), LogEventKind::python_exception).empty());
  }
  SUBCASE("an exception a program printed after its own words") {
    const auto e = only_event("aot_compile failed: InductorError: OSError: no compiler");
    CHECK(e.subject == "InductorError");
    CHECK(e.value == "OSError: no compiler");
  }
}

TEST_CASE("harmless warnings give no events") {
  CHECK(scan_log_text(
            "/usr/lib/python3.12/copyreg.py:99: FutureWarning: `isinstance(treespec, LeafSpec)` is deprecated\n"
            "/x/compile_fx.py:322: UserWarning: TensorFloat32 tensor cores for float32 matrix multiplication\n"
            "  warnings.warn(\n",
            "log")
            .events.empty());
}

// ---- hostile and broken inputs ----------------------------------------------------------------

TEST_CASE("a huge line without newline costs bounded memory and one diagnostic") {
  // 256 MiB keeps the test quick; the scan streams 1 MiB chunks and keeps 64 KiB of a line, so a
  // 1 GiB file behaves the same (measured by hand: see the report).
  constexpr off_t k_size = 256 * 1024 * 1024;
  TempDir dir;
  const auto path = dir.path / "huge.log";
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(fd >= 0);
    const std::string head = "start of a line that never ends ";
    REQUIRE(::write(fd, head.data(), head.size()) == static_cast<ssize_t>(head.size()));
    REQUIRE(::ftruncate(fd, k_size) == 0);
    REQUIRE(::lseek(fd, k_size, SEEK_SET) == k_size);
    const std::string tail = "\nSegmentation fault (core dumped)\n";
    REQUIRE(::write(fd, tail.data(), tail.size()) == static_cast<ssize_t>(tail.size()));
    ::close(fd);
  }
  const long rss_before = max_rss_kib();
  const auto start = std::chrono::steady_clock::now();
  const auto scan = scan_log_file(path, "huge.log");
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("scanned 256 MiB in " << seconds << " s");
  REQUIRE(scan.has_value());
  CHECK(scan->lines == 2);
  REQUIRE(scan->events.size() == 1);
  CHECK(scan->events[0].kind == LogEventKind::segfault);
  CHECK(scan->events[0].where.line == 2);
  REQUIRE(scan->diagnostics.size() == 1);
  CHECK(scan->diagnostics[0].artifact == "huge.log");
  CHECK(scan->diagnostics[0].message ==
        "line 1 is longer than 65536 bytes (268435456 bytes); only its first 65536 bytes were scanned");
  CHECK(max_rss_kib() - rss_before < 32 * 1024);
  CHECK(seconds < 10);
}

TEST_CASE("a line split across read chunks is scanned whole") {
  TempDir dir;
  const auto path = dir.path / "split.log";
  const std::string line = "Error: input_handles[0]: unmatched dim value at 1, expected: 16, but got: 8";
  std::string content(1024 * 1024 - 20, 'x');
  content += "\n" + line + "\n";
  write_file(path, content);
  const auto scan = scan_log_file(path, "split.log");
  REQUIRE(scan.has_value());
  REQUIRE(scan->events.size() == 1);
  CHECK(scan->events[0].where.line == 2);
  CHECK(scan->events[0].text == line);
  CHECK(scan->diagnostics.size() == 1);  // the padding line is over 64 KiB
}

TEST_CASE("NUL bytes and invalid UTF-8 are scanned past and never reach the event text") {
  using namespace std::string_literals;
  std::string text = "junk\0\0\xff\xfe junk\n"s;
  text += "\0\0Segmentation fault (core dumped) \xc3\x28\n"s;
  text.append(std::string(1000, '\0'));
  const auto scan = scan_log_text(text, "log");
  REQUIRE(scan.events.size() == 1);
  CHECK(scan.events[0].where.line == 2);
  CHECK(scan.events[0].text.find('\0') == std::string::npos);
  CHECK(scan.events[0].text == "??Segmentation fault (core dumped) ?(");
  CHECK(scan.lines == 3);
}

TEST_CASE("event text is cut at 1000 bytes on a character boundary") {
  std::string text = "CUDA error: device-side assert triggered ";
  for (int i = 0; i < 600; ++i) text += "\xc3\xa9";  // é
  const auto e = only_event(text);
  CHECK(e.text.size() <= 1000);
  CHECK(e.text.size() == 1000 - (1000 - 41) % 2);
}

TEST_CASE("unreadable paths fail with the path and the reason") {
  TempDir dir;
  const auto missing = scan_log_file(dir.path / "missing.log", "missing.log");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message.find((dir.path / "missing.log").string()) != std::string::npos);
  CHECK(missing.error().message.find("No such file or directory") != std::string::npos);

  const auto folder = scan_log_file(dir.path, "folder");
  REQUIRE_FALSE(folder.has_value());
  CHECK(folder.error().message.find(dir.path.string()) != std::string::npos);
  CHECK(folder.error().message.find("Is a directory") != std::string::npos);
}

TEST_CASE("an empty file has no lines and no events") {
  TempDir dir;
  write_file(dir.path / "empty.log", "");
  const auto scan = scan_log_file(dir.path / "empty.log", "empty.log");
  REQUIRE(scan.has_value());
  CHECK(scan->lines == 0);
  CHECK(scan->events.empty());
  CHECK(scan->diagnostics.empty());
  CHECK(scan_log_text("", "x").lines == 0);
  CHECK(scan_log_text("no newline at the end", "x").lines == 1);
}

TEST_CASE("distinct events are capped, with a diagnostic") {
  std::string text;
  for (int i = 0; i < 10005; ++i)
    text += "/k.py:" + std::to_string(i + 1) + ": unknown: block: [0,0,0], thread: [0,0,0] Assertion `index out of bounds: 0 <= tmp0 < 4` failed.\n";
  const auto scan = scan_log_text(text, "log");
  CHECK(scan.events.size() == 10000);
  REQUIRE(scan.diagnostics.size() == 1);
  CHECK(scan.diagnostics[0].message == "more than 10000 distinct log events; 5 more were not kept");
}

TEST_CASE("index asserts in every form, from Triton and from C++ kernels") {
  SUBCASE("cpu-index-check: AOTI's `Error:` line, then the kernel and line the exception names") {
    const auto scan = scan_corpus("cpu-index-check", "output.txt");
    const auto asserts = of_kind(scan, LogEventKind::triton_assert);
    REQUIRE(asserts.size() == 1);
    const auto& e = asserts[0];
    CHECK(e.subject == "index out of bounds: 0 <= tmp7 < 1000L");
    CHECK(e.text == "Error: index out of bounds: 0 <= tmp7 < 1000L");
    CHECK(e.where.line == 2);
    CHECK(e.kernel == "cpp_fused_embedding_mul_0");
    CHECK(e.source_file.ends_with("/ceyvpne66rufofnrfdiv6iv4b2bojgtpawe75dedzerzvgaxtziq.kernel.cpp"));
    CHECK(e.source_line == 26);
    // The failing run is reported by the runner too.
    CHECK(of_kind(scan, LogEventKind::api_call_failed).size() == 1);
  }
  SUBCASE("a vectorized check, and an expression bound (assert_forms.py `product` on CPU)") {
    const auto scan = scan_log_text(
        "Error: index out of bounds: 0 <= tmp10 < ks1*ks2\n"
        "Exception raised from cpp_fused_index_mul_view_0 at /tmp/assert_forms/product-cpu/cache/"
        "c3iw6l4artjbpzo3uebjmjtbnam7q5kdfklpw5evtgh5s7d2lt6g/cw4hq2wz7b4knh35ljm7eq7dmutbnpmhp2yvs4gfwvgizjrmaogk."
        "kernel.cpp:100 (most recent call first):\n",
        "log");
    REQUIRE(scan.events.size() == 1);
    CHECK(scan.events[0].subject == "index out of bounds: 0 <= tmp10 < ks1*ks2");
    CHECK(scan.events[0].kernel == "cpp_fused_index_mul_view_0");
    CHECK(scan.events[0].source_line == 100);
  }
  SUBCASE("torch.compile's C++ kernel: `RuntimeError: kernel, <file>:<line>, <message>`") {
    const auto scan = scan_log_text(
        "    cpp_fused_embedding_mul_0(primals_3, primals_1, buf0, s23)\n"
        "RuntimeError: kernel, /tmp/assert_forms/jitcache/u3/cu3qdqvfvenavgecyxvwbsejgeyyvywj3sjviabeycyiz7gb57qc.main.cpp:25, "
        "index out of bounds: 0 <= tmp7 < 1000L\n",
        "log");
    const auto asserts = of_kind(scan, LogEventKind::triton_assert);
    REQUIRE(asserts.size() == 1);
    CHECK(asserts[0].subject == "index out of bounds: 0 <= tmp7 < 1000L");
    CHECK(asserts[0].source_file ==
          "/tmp/assert_forms/jitcache/u3/cu3qdqvfvenavgecyxvwbsejgeyyvywj3sjviabeycyiz7gb57qc.main.cpp");
    CHECK(asserts[0].source_line == 25);
    CHECK(asserts[0].kernel.empty());
  }
  SUBCASE("Triton asserts with expression bounds are one event each, not two") {
    // flat-index-product-bound, and a line posted in pytorch/torchtitan#1640 (rank-prefixed).
    const auto product = only_event(
        "/tmp/assert_forms/product-cuda/cache/cc/cccbpr2a2ohskttvdu64kofwr7dczzagqh3htuiprmob2e6ixm32.py:28: unknown: "
        "block: [0,0,0], thread: [1,0,0] Assertion `index out of bounds: 0 <= tmp4 < ks0*ks1` failed.");
    CHECK(product.kind == LogEventKind::triton_assert);
    CHECK(product.subject == "index out of bounds: 0 <= tmp4 < ks0*ks1");
    CHECK(product.source_line == 28);
    const auto posted = only_event(
        "[rank0]:/tmp/torchinductor_danvm/k4/ck46uf2tjbfns332dtzd3q3m2mgw2hoguozdpq5bvqyjhntqiu23.py:30: unknown: block: "
        "[24127,0,0], thread: [23,0,0] Assertion `index out of bounds: 0 <= tmp4 < 1 + ks0` failed.");
    CHECK(posted.subject == "index out of bounds: 0 <= tmp4 < 1 + ks0");
    CHECK(posted.source_line == 30);
    // One side only (common.py's `cond_print = cond`).
    CHECK(only_event("/k/c.py:35: unknown: block: [0,0,0], thread: [9,0,0] Assertion `index out of bounds: tmp6 < "
                     "1000` failed.").subject == "index out of bounds: tmp6 < 1000");
    CHECK(only_event("/k/c.py:35: unknown: block: [0,0,0], thread: [9,0,0] Assertion `index out of bounds: 0 <= "
                     "tmp6` failed.").subject == "index out of bounds: 0 <= tmp6");
  }
  SUBCASE("a C++ runner's terminate prints the message as what()") {
    const auto scan = scan_log_text(
        "terminate called after throwing an instance of 'c10::Error'\n"
        "  what():  index out of bounds: 0 <= tmp7 < ks0\n"
        "Exception raised from cpp_fused_index_put_0 at /tmp/x/cnfg.kernel.cpp:46 (most recent call first):\n",
        "log");
    const auto asserts = of_kind(scan, LogEventKind::triton_assert);
    REQUIRE(asserts.size() == 1);
    CHECK(asserts[0].kernel == "cpp_fused_index_put_0");
    CHECK(asserts[0].source_line == 46);
  }
  SUBCASE("texts that are not Inductor's index asserts") {
    CHECK(scan_log_text("thread 'main' panicked at src/lib.rs:9:5:\nindex out of bounds: the len is 3 but the index is 4\n",
                        "log").events.empty());
    // `Exception raised from` with no index check before it names nothing.
    CHECK(scan_log_text("Exception raised from f at /a.cpp:3 (most recent call first):\n", "log").events.empty());
  }
}

TEST_CASE("sizes a run used: a printed torch.Size and ATen's resize warning") {
  // healthy-cuda-dynamic's stdout: the program printed the result of a batch of 4096.
  const auto printed = of_kind(scan_corpus("healthy-cuda-dynamic", "stdout.txt"), LogEventKind::observed_shape);
  REQUIRE(printed.size() == 1);
  CHECK(printed[0].problem == "printed");
  CHECK(printed[0].value == "4096, 8");
  CHECK(printed[0].where.line == 4);
  // A resize warning as a user posted it (a torch.nn.Linear output resized at run time).
  const LogEvent resized = only_event(
      "/site-packages/torch/nn/modules/linear.py:114: UserWarning: An output with one or more elements was resized "
      "since it had shape [210459, 256], which does not match the required output shape [256]. This behavior is "
      "deprecated, and in a future PyTorch release outputs will not be resized unless they have zero elements.");
  CHECK(resized.kind == LogEventKind::observed_shape);
  CHECK(resized.problem == "resized");
  CHECK(resized.expected == "210459, 256");
  CHECK(resized.value == "256");
}
