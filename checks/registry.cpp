#include "checks/registry.hpp"

#include "checks/checks.hpp"

namespace aoti::checks {

const std::vector<std::unique_ptr<Check>>& all_checks() {
  static const std::vector<std::unique_ptr<Check>> checks = [] {
    std::vector<std::unique_ptr<Check>> list;
    list.push_back(checks::make_device_load_mismatch());
    list.push_back(checks::make_device_input_mismatch());
    list.push_back(checks::make_device_constant_placement());
    list.push_back(checks::make_shape_input_checks_off());
    list.push_back(checks::make_shape_input_contract_violation());
    list.push_back(checks::make_shape_dim_specialized());
    list.push_back(checks::make_shape_data_dependent_guard());
    list.push_back(checks::make_shape_lower_bound_missing());
    list.push_back(checks::make_shape_unguarded_range());
    list.push_back(checks::make_customop_fake_static_shape());
    list.push_back(checks::make_customop_kernel_crash());
    list.push_back(checks::make_customop_meta_not_symint());
    list.push_back(checks::make_customop_fake_not_symint());
    list.push_back(checks::make_customop_fake_missing());
    list.push_back(checks::make_customop_fake_mismatch());
    list.push_back(checks::make_triton_index_out_of_bounds());
    list.push_back(checks::make_cuda_illegal_memory_access());
    list.push_back(checks::make_runtime_cxx_runtime_conflict());
    list.push_back(checks::make_runtime_api_call_failed());
    list.push_back(checks::make_api_deprecated());
    list.push_back(checks::make_build_compile_failed());
    list.push_back(checks::make_load_library_failed());
    list.push_back(checks::make_export_failed());
    list.push_back(checks::make_inductor_compile_failed());
    list.push_back(checks::make_runtime_runner_error());
    list.push_back(checks::make_error_unclassified());
    return list;
  }();
  return checks;
}

const Check* find_check(std::string_view id) {
  for (const auto& check : all_checks())
    if (check->id() == id) return check.get();
  return nullptr;
}

}  // namespace aoti::checks
