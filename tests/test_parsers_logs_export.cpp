// The log scanner on torch.export's messages and Python's exceptions: deprecated APIs, shapes
// export specialized, tracebacks and exception lines, and warnings that are not errors.
#include <doctest/doctest.h>

#include "tests/parsers_logs_support.hpp"

using namespace aoti::test::logs;

TEST_CASE("deprecated APIs") {
  const auto scan = scan_log_text(
      "/x/torch/_export/__init__.py:120: FutureWarning: torch._export.aot_compile is deprecated, "
      "use "
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
      "  File \"/opt/venv/lib/python3.12/site-packages/torch/_export/__init__.py\", line 301, in "
      "aot_load");
  CHECK(frame.subject == "torch._export.aot_load");
}

TEST_CASE("export specialization") {
  SUBCASE("inferred to be a constant") {
    const auto e = only_event(
        "- Not all values of batch = L['x'].size()[0] in the specified range batch <= 1024 are "
        "valid because batch "
        "was inferred to be a constant (8).");
    CHECK(e.kind == LogEventKind::export_specialized);
    CHECK(e.subject == "batch");
    CHECK(e.value == "8");
  }
  SUBCASE("a generated guard") {
    const auto e = only_event(
        "Not all values of height = L['x'].size()[2] in the specified range 320 <= height <= 7680 "
        "satisfy the "
        "generated guard Ne(Mod(((L['x'].size()[2] - 1)//2), 2), 0).");
    CHECK(e.subject == "height");
    CHECK(e.value.empty());
    CHECK(e.problem == "violates the guard Ne(Mod(((L['x'].size()[2] - 1)//2), 2), 0)");
  }
  SUBCASE("two symbols, values from the suggested fixes") {
    const auto scan = scan_log_text(
        "Constraints violated (batch, seq)! For more information, run with "
        "TORCH_LOGS=\"+dynamic\".\n"
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
        "RuntimeError: run_func_( container_handle_ ) API call failed at "
        "/pytorch/model_container_runner.cpp, line 144\n",
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
        "[rank0]: torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode: Could not "
        "guard on "
        "data-dependent expression Eq(u2, -1) (unhinted: Eq(u2, -1)).  (Size-like symbols: none)\n"
        "Could not guard on data-dependent expression Eq(u2, -1)\n",
        "log");
    REQUIRE(scan.events.size() == 1);
    CHECK(scan.events[0].subject ==
          "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode");
    CHECK(scan.events[0].problem == "data-dependent guard");
  }
  SUBCASE("a data-dependent guard outside a traceback") {
    const auto e = only_event(
        "GuardOnDataDependentSymNode: Could not extract specialized integer from data-dependent "
        "expression u0");
    CHECK(e.kind == LogEventKind::python_exception);
    CHECK(e.problem == "data-dependent guard");
    CHECK(e.value == "Could not extract specialized integer from data-dependent expression u0");
  }
  SUBCASE("a bare exception name") {
    const auto e = only_event(
        "Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyboardInterrupt\n");
    CHECK(e.subject == "KeyboardInterrupt");
    CHECK(e.value.empty());
  }
  SUBCASE(
      "an exception line outside a traceback is an exception event: a paste of its last line "
      "states the failure") {
    const auto e = only_event("RuntimeError: method->execute() failed with error 0x12");
    CHECK(e.kind == LogEventKind::python_exception);
    CHECK(e.subject == "RuntimeError");
    CHECK(e.value == "method->execute() failed with error 0x12");
    CHECK(e.final);
  }
  SUBCASE("nor is a warning, nor the AOTI runtime's `Error:` prefix, an exception") {
    CHECK(of_kind(scan_log_text("UserWarning: x\nError: something\n", "log"),
                  LogEventKind::python_exception)
              .empty());
  }
  SUBCASE("an exception a program printed after its own words") {
    const auto e = only_event("aot_compile failed: InductorError: OSError: no compiler");
    CHECK(e.subject == "InductorError");
    CHECK(e.value == "OSError: no compiler");
  }
}

TEST_CASE("harmless warnings give no events") {
  CHECK(scan_log_text("/usr/lib/python3.12/copyreg.py:99: FutureWarning: `isinstance(treespec, "
                      "LeafSpec)` is deprecated\n"
                      "/x/compile_fx.py:322: UserWarning: TensorFloat32 tensor cores for float32 "
                      "matrix multiplication\n"
                      "  warnings.warn(\n",
                      "log")
            .events.empty());
}

TEST_CASE("draft_export's report: a guard that fixes a dim, a mismatched fake kernel") {
  // The items as torch/export/_draft_export.py's FailureReport.print writes them.
  const auto scan = scan_log_text(
      "1. Mismatched fake kernel.\n"
      "    torch.ops.mylib.foo.default has a fake kernel implementation, but it has incorrect "
      "behavior, based on the real kernel.\n"
      "    The reason for the mismatch is: Shapes torch.Size([4]) and torch.Size([8]) are not "
      "equal!.\n"
      "\n"
      "2. Guard Added.\n"
      "    Specifically, this guard was added: Eq(s0, 8), where {s0: [\"L['x'].size()[0]\"]}.\n"
      "3. Guard Added.\n"
      "    Specifically, this guard was added: s0 <= 1024, where {s0: [\"L['x'].size()[0]\"]}.\n"
      "4. Guard Added.\n"
      "    Specifically, this guard was added: Eq(Mod(s21*s5, 2560), 0), where {'s5': "
      "\"L['t'].size()[0]\", 's21': \"L['t'].size()[1]\"}.\n",
      "log");
  const auto mismatch = of_kind(scan, LogEventKind::python_exception);
  REQUIRE(mismatch.size() == 1);
  CHECK(mismatch[0].problem == "fake mismatch");
  CHECK(mismatch[0].value == "torch.ops.mylib.foo.default");
  REQUIRE(mismatch[0].detail.size() == 1);
  CHECK(mismatch[0].detail[0].starts_with("The reason for the mismatch is: Shapes"));
  // Only the guard that fixes the dim to a value is a specialization; a bound is left out; a
  // divisibility over a product of dims is kept as a guard (its sides split at the top level).
  const auto specialized = of_kind(scan, LogEventKind::export_specialized);
  REQUIRE(specialized.size() == 2);
  CHECK(specialized[0].subject == "L['x'].size()[0]");
  CHECK(specialized[0].value == "8");
  CHECK(specialized[1].problem == "guard added");
  CHECK(specialized[1].subject == "Eq(Mod(s21*s5, 2560), 0)");
}
