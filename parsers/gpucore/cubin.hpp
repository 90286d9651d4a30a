// One cubin of a GPU core (an NVIDIA ELF, e_machine 190): its kernels (FUNC symbols) and its line
// table, to turn a GPU address into a kernel and a source line without CUDA tools. The relocated
// image a GPU core keeps has its sections, symbols and line rows at the addresses it ran at, so a
// PC from the warp table is looked up as it is.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/facts/gpu_core.hpp"
#include "parsers/parse_error.hpp"

namespace aoti::parsers::gpucore {

class Cubin {
 public:
  // Copies `image` (libelf and libdw need it writable and alive); fails when it is not an ELF
  // file of NVIDIA's machine.
  static Parsed<Cubin> open(std::span<const std::byte> image);

  Cubin(Cubin&&) noexcept;
  Cubin& operator=(Cubin&&) noexcept;
  ~Cubin();

  // Whether an executable section of the image holds `pc`.
  bool holds(std::uint64_t pc) const;
  // The kernel, its offset and (with a line table) the file and line of `pc`; `problem` says what
  // could not be found.
  model::GpuCodeLocation locate(std::uint64_t pc) const;

 private:
  struct State;
  explicit Cubin(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

}  // namespace aoti::parsers::gpucore
