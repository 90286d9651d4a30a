// runtime.api-call-failed: unit tests on hand-built Cases and the corpus cases it is about.
#include <doctest/doctest.h>

#include "checks/runtime/api_call_failed.hpp"
#include "tests/checks/check_test.hpp"

using namespace aoti::test;

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
    std::istringstream text(
        aoti::test::corpus_entry_text("embedding-device-assert", ".wrapper.cpp"));
    std::string line;
    for (int number = 1; std::getline(text, line) && addmm_line == 0; ++number)
      if (line.find("aoti_torch_cuda_addmm_out(") != std::string::npos) addmm_line = number;
  }
  REQUIRE(addmm_line > 0);
  {
    std::ofstream log(dir / "stderr.txt");
    log << "RuntimeError: aoti_torch_cuda_addmm_out(buf2, buf1, ...) API call failed at /tmp/cache/"
        << wrapper_name << ", line " << addmm_line << "\n";
  }
  const auto found = run_check<RuntimeApiCallFailedCheck>(
      load_case({package.string(), (dir / "stderr.txt").string()}));
  fs::remove_all(dir);
  REQUIRE(found.size() == 1);
  CHECK(found[0].explains_failure);
  CHECK(mentions(found[0], "aoti_torch_cuda_addmm_out(buf2, buf1"));
  CHECK(mentions(found[0], "linear"));
  // Errors that name torch's own runner are left to the error before them.
  CHECK(run_check<RuntimeApiCallFailedCheck>(corpus("input-check-errors")).empty());
}

TEST_CASE("runtime.api-call-failed from the log alone: a CUDA shim call that got CPU tensors") {
  const auto found = analyze_wild("pytorch-166841-cpu-scatter-cuda-shim");
  REQUIRE(found.size() == 1);
  CHECK(found[0].check == "runtime.api-call-failed");
  CHECK(found[0].title == "A CUDA shim call of the generated wrapper got cpu tensors");
  CHECK(found[0].evidence[0].where.line == 1);
}

TEST_CASE("runtime.api-call-failed from the log alone: an allocation of the generated code") {
  // SimpleTuner#3176 as posted: a cpp_wrapper module's buffer allocation failed (the GPU was out
  // of memory); the generated .main.cpp is not among the inputs.
  const auto found = analyze_log(
      "RuntimeError: aoti_torch_empty_strided(3, int_array_74, int_array_75, "
      "cached_torch_dtype_bfloat16, cached_torch_device_type_cuda, 0, &buf80_handle) API call "
      "failed at /tmp/torchinductor_root/3s/"
      "c3s5nzq5wml3qmnxnrzxcocica22lya7dpc5itngrdphwnqdrhnr.main.cpp, line 3311\n");
  REQUIRE(!found.empty());
  CHECK(found[0].check == "runtime.api-call-failed");
  CHECK(found[0].title.find("`aoti_torch_empty_strided` failed at line 3311") != std::string::npos);
  CHECK(found[0].message.find("allocates a buffer") != std::string::npos);
  REQUIRE(!found[0].next_steps.empty());
  CHECK(found[0].next_steps[0].command ==
        "sed -n '3296,3316p' "
        "/tmp/torchinductor_root/3s/c3s5nzq5wml3qmnxnrzxcocica22lya7dpc5itngrdphwnqdrhnr.main.cpp");
  for (const auto& f : found) CHECK(f.check != "runtime.runner-error");
}
