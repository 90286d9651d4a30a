// export.failed: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/export/failed.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("export.failed") {
  SUBCASE("Dynamo's graph break, its hint and the model line from `from user code:`") {
    const std::string log =
        "Traceback (most recent call last):\n"
        "  File \"/home/me/export.py\", line 20, in <module>\n"
        "    ep = torch.export.export(m, (x,))\n"
        "  File \"/usr/lib/python3.12/site-packages/torch/_dynamo/symbolic_convert.py\", line 900, "
        "in step\n"
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
    // The paste shows no sign of torch.export (no frame, no exception class): it says tracing.
    CHECK(found[0].title ==
          "Tracing the model failed: `cannot mutate tensors with frozen storage`");
    CHECK(mentions(found[0], "torch.ops.aten.add_.Tensor"));
  }
  SUBCASE(
      "routed: a specialized dim is shape.dim-specialized's, a data-dependent guard "
      "shape.data-dependent-guard's") {
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

TEST_CASE("export.failed from what a paste kept of a Dynamo error") {
  SUBCASE("only the end of Dynamo's message: its footer and the user frame") {
    const auto found = analyze_wild("diffusers-10290-np-ceil-fullgraph-break");
    REQUIRE(!found.empty());
    const Finding& f = found[0];
    CHECK(f.check == "export.failed");
    CHECK(f.title.find("Dynamo") != std::string::npos);
    CHECK(f.title.find("does not show the exception") != std::string::npos);
    CHECK(mentions(f, "interval_control = int(np.ceil(interval_control))"));
    check_no_holes(f);
  }
  SUBCASE("a bare `Unsupported:` line") {
    const auto found = analyze_wild("pytorch-112670-bound-method-graph-break");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "export.failed");
    CHECK(mentions(found[0], "UserDefinedObjectVariable(some_method)"));
  }
}

TEST_CASE("export.failed: the end of torch 2.0's Dynamo message, without its exception line") {
  // diffusers#3933 as posted: the message's last line, `from user code:` and the 2.0 footer.
  const std::string log =
      "in skipfiles: Logger.info  | info /usr/lib/python3.9/logging/__init__.py\n"
      "\n"
      "from user code:\n"
      "   File \"/x/.venv/lib/python3.9/site-packages/diffusers/models/unet_2d_condition.py\", "
      "line 730, in forward\n"
      "    logger.info(\"Forward upsample size to force interpolation output size.\")\n"
      "\n"
      "Set torch._dynamo.config.verbose=True for more information\n";
  const auto found = analyze_log(log);
  REQUIRE(!found.empty());
  const Finding& f = found[0];
  CHECK(f.check == "export.failed");
  CHECK(f.title ==
        "Tracing the model failed: `in skipfiles: Logger.info  | info "
        "/usr/lib/python3.9/logging/__init__.py`");
  REQUIRE(!f.evidence.empty());
  CHECK(f.evidence[0].where.line == 1);
  CHECK(f.evidence[0].note == "the error's message (the log does not show its exception line)");
  CHECK(mentions(f, "unet_2d_condition.py"));
  check_quotes(found, log);
}

TEST_CASE("export.failed: saving the program, the error quoted inside the serializer's own") {
  // pytorch#142167: SerializeError's message holds the original traceback (`Original exception
  // Traceback`); the AssertionError is its cause, raised in torch/_export/serde.
  const auto found = analyze_wild("pytorch-142167-serialize-symint-subgraph-input");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "export.failed");
  CHECK(found[0].title.starts_with("Saving the exported program failed"));
  CHECK(mentions(found[0], "wrap_with_set_grad_enabled"));
  for (const auto& step : found[0].next_steps)
    CHECK(step.command.find("draft_export") == std::string::npos);
}

TEST_CASE("export.failed: Dynamo's graph-break log with the user's frame, an .item() read") {
  const std::string prefix =
      "[rank1]:W0906 20:38:55.305000 5696 torch/_dynamo/variables/tensor.py:1047] [7/0] ";
  const std::string log =
      prefix + "Graph break: from user code at:\n" + prefix +
      "  File \"/x/site-packages/specforge/core/eagle3.py\", line 789, in _compute_metric_acc\n" +
      prefix + "    ).sum().item() / (loss_mask.sum().item() + 1e-6)\n";
  const auto found = analyze_log(log);
  REQUIRE(!found.empty());
  CHECK(found[0].check == "export.failed");
  CHECK(
      found[0].title.starts_with("Dynamo broke the graph at /x/site-packages/specforge/core/"
                                 "eagle3.py:789"));
  CHECK(found[0].why.find("capture_scalar_outputs") != std::string::npos);
  check_quotes(found, log);
}
