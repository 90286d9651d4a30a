// error.unclassified: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/error/unclassified.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

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

TEST_CASE("error.unclassified: a kernel the driver refused is not called a build failure") {
  // `Triton Error [CUDA]: device kernel image is invalid` from _init_handles -> load_binary: the
  // kernel compiled; no check explains why the driver refused it, so none claims it.
  const auto found = analyze_wild("pytorch-119054-ptxas-newer-than-driver");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "error.unclassified");
  CHECK(first_of(found, "build.compile-failed") == nullptr);
  CHECK(first_of(found, "inductor.compile-failed") == nullptr);
  CHECK(mentions(found[0], "device kernel image is invalid"));
  CHECK(mentions(found[0], "fn_load_binary"));
}

TEST_CASE("error.unclassified names the frames outside torch, and a package's frame that raised") {
  SUBCASE("a C++ program's frames under c10's error machinery") {
    const auto found = analyze_wild("libtorch-yolov3-12-set-data-on-non-variable-blob");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "error.unclassified");
    CHECK(found[0].message.find("`torch::autograd::Variable::Impl::set_data") != std::string::npos);
    CHECK(mentions(found[0], "Darknet::load_weights"));
  }
  SUBCASE("a notebook's traceback: the installed package's check that raised") {
    const auto found = analyze_wild("BMInf-29-cpm-kernels-need-sm61-on-p100");
    REQUIRE(!found.empty());
    CHECK(found[0].message.find("raised in `checkCUStatus`") != std::string::npos);
    CHECK(mentions(found[0], "cpm_kernels"));
  }
}

TEST_CASE("error.unclassified: a traceback's code line alone, with Python's carets under it") {
  const auto found = analyze_log(
      "    assert len(scale_a.get_size()) == len(scale_b.get_size())\n"
      "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "error.unclassified");
  CHECK(found[0].title == "The log shows a failure whose exception it does not include");
  REQUIRE(found[0].evidence.size() == 1);
  CHECK(found[0].evidence[0].where.line == 1);
}
