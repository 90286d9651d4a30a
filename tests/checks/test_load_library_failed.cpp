// load.library-failed: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/load/library_failed.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

TEST_CASE("load.library-failed") {
  SUBCASE("an extension built against another torch: the symbol demangled") {
    const auto found = analyze_wild("vllm-3147-ext-torch-version-mismatch");
    REQUIRE(found.size() == 1);
    CHECK(found[0].check == "load.library-failed");
    CHECK(found[0].title.find("undefined symbol `at::_ops::to_dtype_layout::call`") !=
          std::string::npos);
    CHECK(mentions(found[0], "built against another torch version"));
    CHECK(mentions(
        found[0],
        "ldd -r /usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so"));
  }
  SUBCASE("a model built by a newer torch: a shim symbol") {
    const auto found =
        analyze_log("OSError: /tmp/m/model.so: undefined symbol: aoti_torch_cuda_new_op\n");
    REQUIRE(!found.empty());
    CHECK(found[0].check == "load.library-failed");
    CHECK(mentions(found[0], "AOTI's C shim"));
  }
  SUBCASE("a custom op whose library was not loaded") {
    const auto found = analyze_wild("pytorch-143786-python-custom-op-cpp");
    REQUIRE(found.size() == 1);
    CHECK(found[0].title ==
          "The custom op `mylib::custom_add` is not registered in the process: its library was not "
          "loaded");
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
    CHECK(found[0].title ==
          "`liblantern.so` needs `GLIBCXX_3.4.20`, which `/lib64/libstdc++.so.6` does not provide");
    CHECK(mentions(found[0], "strings /lib64/libstdc++.so.6 | grep GLIBCXX_"));
  }
  SUBCASE("mmap of the model .so at an offset the page size refuses") {
    const auto found = analyze_wild("pytorch-145610-mmap-64k-pages");
    REQUIRE(!found.empty());
    CHECK(found[0].title == "Mapping `llama3.1.so` failed with EINVAL at file offset 0xd8000");
  }
}

TEST_CASE("load.library-failed: the package loader's own errors") {
  const auto found = analyze_log(
      "Traceback (most recent call last):\n"
      "  File \"/srv/run.py\", line 3, in <module>\n"
      "    r = torch._inductor.aoti_load_package(\"/models/m.pt2\")\n"
      "RuntimeError: Failed to initialize zip archive: failed finding central directory\n");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "load.library-failed");
  CHECK(found[0].title ==
        "The package could not be opened as a zip archive: `failed finding central directory`");
  CHECK(mentions(found[0], "unzip -l /models/m.pt2"));
}

TEST_CASE("load.library-failed: a process that died inside a native library's load") {
  // `python -X faulthandler -c "import torchao"`: SIGABRT, the Python stack ends in
  // torch.ops.load_library -> ctypes.CDLL.
  const auto found = analyze_wild("ao-2901-so-abi-abort-on-import");
  REQUIRE(!found.empty());
  const Finding& f = found[0];
  CHECK(f.check == "load.library-failed");
  CHECK(f.title.find("torch.ops.load_library") != std::string::npos);
  CHECK(mentions(f, "SIGABRT"));
  check_no_holes(f);
  check_quotes(found, read_file(corpus_dir() / "wild/ao-2901-so-abi-abort-on-import/stderr.txt"));
}

TEST_CASE("load.library-failed: an ImportError about a compiled library it names") {
  const auto found = analyze_wild("sglang-17460-kernel-cpu-torch-too-new");
  REQUIRE(!found.empty());
  const Finding& f = found[0];
  CHECK(f.check == "load.library-failed");
  CHECK(f.title.find("common_ops.cpython-312-x86_64-linux-gnu.so") != std::string::npos);
  // The command loads that very file.
  CHECK(mentions(f,
                 "ctypes.CDLL('/opt/.venv/lib/python3.12/site-packages/sgl_kernel/"
                 "common_ops.cpython-312-x86_64-linux-gnu.so')"));
  check_quotes(found,
               read_file(corpus_dir() / "wild/sglang-17460-kernel-cpu-torch-too-new/stderr.txt"));
}

TEST_CASE("load.library-failed: an op the dispatcher does not know, its library not loaded") {
  const auto found = analyze_log(
      "/venv/lib/python3.10/site-packages/torchvision/_meta_registrations.py:164: in <module>\n"
      "    def meta_nms(dets, scores, iou_threshold):\n"
      "/venv/lib/python3.10/site-packages/torch/_library/abstract_impl.py:30: in register\n"
      "    if torch._C._dispatch_has_kernel_for_dispatch_key(self.qualname, \"Meta\"):\n"
      "E   RuntimeError: operator torchvision::nms does not exist\n");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "load.library-failed");
  CHECK(found[0].title.find("`torchvision::nms` is not registered") != std::string::npos);
  CHECK(mentions(found[0], "_meta_registrations.py"));
  CHECK(mentions(found[0], "find_spec('torchvision')"));
}

TEST_CASE("load.library-failed: an installed package's own import of a part of itself fails") {
  // ao#2932: torchao's kernels.py imports its compiled `mxfp8_cuda`, which the wheel lacks.
  const auto found = analyze_wild("ao-2932-mxfp8-ext-not-built-for-sm100");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "load.library-failed");
  CHECK(found[0].title ==
        "The installed `torchao` lacks its own module `mxfp8_cuda` (`torchao.prototype`)");
  CHECK(mentions(found[0], "from torchao.prototype import mxfp8_cuda"));
  // The user's own code importing a package's missing name is not the package's own import.
  for (const auto& f : analyze_log("Traceback (most recent call last):\n"
                                   "  File \"/home/me/run.py\", line 3, in <module>\n"
                                   "    from torchao.prototype import mxfp8_cuda\n"
                                   "ImportError: cannot import name 'mxfp8_cuda' from "
                                   "'torchao.prototype'\n"))
    CHECK(f.title.find("lacks its own module") == std::string::npos);
}
