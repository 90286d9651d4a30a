#include "model/facts/debug_run.hpp"

namespace aoti::model {

std::string_view to_string(PrintPhase phase) {
  switch (phase) {
    case PrintPhase::model_inputs:
      return "aoti_model_inputs";
    case PrintPhase::before_launch:
      return "before_launch";
    case PrintPhase::after_launch:
      return "after_launch";
  }
  return "before_launch";
}

}  // namespace aoti::model
