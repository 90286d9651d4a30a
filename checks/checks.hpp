// Factories for every check; registry.cpp lists them explicitly, in this order.
#pragma once

#include <memory>

#include "checks/check.hpp"

namespace aoti::checks {

std::unique_ptr<checks::Check> make_device_load_mismatch();
std::unique_ptr<checks::Check> make_device_input_mismatch();
std::unique_ptr<checks::Check> make_device_constant_placement();
std::unique_ptr<checks::Check> make_shape_input_checks_off();
std::unique_ptr<checks::Check> make_shape_input_contract_violation();
std::unique_ptr<checks::Check> make_shape_dim_specialized();
std::unique_ptr<checks::Check> make_customop_fake_static_shape();
std::unique_ptr<checks::Check> make_customop_kernel_crash();
std::unique_ptr<checks::Check> make_customop_meta_not_symint();
std::unique_ptr<checks::Check> make_customop_fake_not_symint();
std::unique_ptr<checks::Check> make_customop_fake_missing();
std::unique_ptr<checks::Check> make_customop_fake_mismatch();
std::unique_ptr<checks::Check> make_shape_data_dependent_guard();
std::unique_ptr<checks::Check> make_shape_lower_bound_missing();
std::unique_ptr<checks::Check> make_shape_unguarded_range();
std::unique_ptr<checks::Check> make_triton_index_out_of_bounds();
std::unique_ptr<checks::Check> make_cuda_illegal_memory_access();
std::unique_ptr<checks::Check> make_runtime_cxx_runtime_conflict();
std::unique_ptr<checks::Check> make_runtime_api_call_failed();
std::unique_ptr<checks::Check> make_api_deprecated();
std::unique_ptr<checks::Check> make_build_compile_failed();
std::unique_ptr<checks::Check> make_load_library_failed();
std::unique_ptr<checks::Check> make_export_failed();
std::unique_ptr<checks::Check> make_inductor_compile_failed();
std::unique_ptr<checks::Check> make_runtime_runner_error();
std::unique_ptr<checks::Check> make_error_unclassified();

}  // namespace aoti::checks
