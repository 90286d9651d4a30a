// What an NVIDIA GPU core dump tells (CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1): the devices, the loaded
// modules (cubins), the grids that were running, and every warp that stopped on an exception, with
// its error PC symbolized to the kernel and the source line of that kernel's cubin line table.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aoti::model {

using Dim3 = std::array<std::uint32_t, 3>;

struct GpuDevice {
  std::uint32_t index = 0;  // row in the device table: the `dev<N>` of section names
  std::string name;         // "NVIDIA H200"
  std::string type;         // "GH100GL-A"
  std::string sm_type;      // "sm_90"
  std::uint32_t sm_count = 0;
};

struct GpuContext {
  std::uint32_t device = 0;
  std::uint32_t index = 0;  // `ctx<N>`
  std::uint64_t id = 0;
  std::uint32_t host_tid = 0;  // the host thread that owns the context
};

struct GpuModule {
  std::uint32_t device = 0;
  std::uint32_t context = 0;
  std::uint32_t index = 0;  // row in the context's module table
  std::uint64_t handle = 0;
  std::uint32_t table_section = 0;  // the ELF section of its module table (cubins link to it)
  // The non-relocated cubin, which is the file the package holds; the relocated one when the dump
  // kept only that (a lightweight dump).
  std::uint64_t image_size = 0;
  // Of the same image; computed only for the modules a grid or a faulting warp ran code of, so a
  // dump costs what its tables and those cubins cost.
  std::optional<std::uint32_t> image_crc32;
  bool image_relocated = false;
  bool has_relocated_image = false;
};

// Where a GPU address is: the kernel (the FUNC symbol of the module's cubin that holds it) and,
// when the cubin carries a line table, the source line (Triton writes one for the kernel's .py
// file).
struct GpuCodeLocation {
  std::uint64_t pc = 0;
  std::optional<std::uint32_t> module;  // index into GpuCoreFacts::modules
  std::string kernel;                   // "triton_poi_fused_embedding_0"; "" when unknown
  // The symbol demangled, for people ("scatter_rows_kernel(float const*, long*)" for
  // "_Z19scatter_rows_kernelPKfPl"); the same as `kernel` when it is not mangled.
  std::string kernel_name;
  std::uint64_t kernel_offset = 0;  // pc - the kernel's entry
  std::string file;                 // as the line table names it (a full path)
  int line = 0;                     // 0: no line table row holds the pc
  // The lowest line of `file` that the line table gives for any address of the kernel: where
  // its code begins in the file as it was built (near its definition), the anchor to match a
  // source given by the user against, whose lines may be numbered otherwise. 0 when unknown.
  int kernel_first_line = 0;
  std::string problem;  // why symbolization stopped short, "" when it did not
};

struct GpuGrid {
  std::uint32_t device = 0;
  std::uint64_t id = 0;  // cuda-gdb's "grid N"
  std::uint64_t module_handle = 0;
  GpuCodeLocation entry;  // the kernel's entry address, symbolized
  Dim3 grid_dim{};
  Dim3 block_dim{};
  std::uint32_t host_tid = 0;  // the host thread that launched it
};

struct GpuLane {
  std::uint32_t lane = 0;
  Dim3 thread{};
  std::uint32_t exception = 0;  // CUDBGException_t
  std::uint64_t pc = 0;         // where the lane stopped
};

struct GpuWarp {
  std::uint32_t device = 0;
  std::uint32_t sm = 0;    // the SM's id
  std::uint32_t warp = 0;  // the warp's id on its SM
  // Only the SM's row recorded the exception (its faulting warps had exited): no warp, block or
  // lanes are known.
  bool from_sm_table = false;
  std::uint64_t grid = 0;  // grid id
  Dim3 block{};
  std::uint32_t exception = 0;           // the first faulting lane's (or the SM's) CUDBGException_t
  std::string exception_name;            // "Warp Illegal Address"
  std::optional<GpuCodeLocation> error;  // the error PC, when the warp recorded a valid one
  std::optional<GpuCodeLocation> stop;   // where the warp's first faulting lane stopped
  std::vector<GpuLane> faulting_lanes;   // lanes whose exception is set
  std::uint32_t valid_lanes = 0;         // masks
  std::uint32_t active_lanes = 0;
};

struct GpuCoreFacts {
  std::string artifact;             // as the user named it
  std::string compression;          // "", "xz", "zstd"
  std::vector<std::string> health;  // what is missing or malformed in the dump
  std::optional<int> pid;           // from the file name CUDA_COREDUMP_FILE's %p wrote, if any
  std::string generator;            // the metadata's generator name, "" when absent
  std::string driver_version;       // "580.159", "" when absent
  std::string cuda_version;         // "13.0", "" when absent
  // CUDBGCoredumpGenerationFlags the dump was written with (since driver r565).
  std::optional<std::uint32_t> generation_flags;
  bool lightweight = false;  // CUDA_ENABLE_LIGHTWEIGHT_COREDUMP: no memory, no non-relocated cubins
  std::vector<GpuDevice> devices;
  std::vector<GpuContext> contexts;
  std::vector<GpuModule> modules;
  std::vector<GpuGrid> grids;
  std::vector<GpuWarp> faulting_warps;  // warps with an exception, in table order
};

// cuda-gdb's name of a CUDBGException_t ("Warp Illegal Address"); "exception N" when unknown.
std::string gpu_exception_name(std::uint32_t code);

}  // namespace aoti::model
