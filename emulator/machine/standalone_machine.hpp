// A LANai with its SRAM and system registers and nothing else: runs a
// linked firmware image from `_start` to its exit on the event kernel, as
// `lanai-emu exec` and the simulator tests do.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "iss/cpu.hpp"
#include "kernel/event_queue.hpp"
#include "loader/firmware_linker.hpp"
#include "machine/clocked_core.hpp"
#include "machine/system_registers.hpp"
#include "profile/hardware_profile.hpp"

namespace lanai::machine {

enum class ExecStop { exited, fault, cycle_limit };

struct ExecResult {
  ExecStop stop = ExecStop::cycle_limit;
  std::int32_t exit_code = 0;
  std::uint64_t instructions = 0;
  std::uint64_t cycles = 0;
  std::string fault_report; // set when stop == fault
  std::int64_t end_time_ps = 0;     // virtual time when the core stopped
  std::uint64_t kernel_events = 0;  // events the kernel executed for the run
};

class StandaloneMachine {
public:
  StandaloneMachine(const profile::HardwareProfile& profile, const loader::LinkedImage& image);

  ExecResult run(std::uint64_t max_cycles);
  // As run(), calling `observer` after each instruction (see ClockedCore).
  ExecResult run(std::uint64_t max_cycles, ClockedCore::StepObserver observer);

  iss::Cpu& cpu() { return cpu_; }
  kernel::Kernel& kernel() { return kernel_; }
  SystemRegisters& system() { return system_; }
  const loader::LinkedImage& image() const { return image_; }

  // Address of a symbol of the image; throws std::out_of_range naming it.
  std::uint32_t symbol(std::string_view name) const;
  std::uint64_t read_u64(std::uint32_t addr) const; // big-endian, high word first
  void write_u64(std::uint32_t addr, std::uint64_t value);

private:
  loader::LinkedImage image_;
  double clock_mhz_;
  kernel::Kernel kernel_;
  SystemRegisters system_;
  iss::Cpu cpu_;
};

// The objects listed, in order, in DIR/objects.txt (written by the firmware
// build for each object set); empty if there is no manifest.
std::vector<std::filesystem::path> objects_in_manifest(const std::filesystem::path& dir);

// The firmware runtime objects (startup, string and integer helpers):
// $LANAI_EMU_RUNTIME_DIR if set, else share/lanai-emu/firmware/runtime beside
// the running executable's prefix, else the build tree, else the configured
// install prefix.
std::vector<std::filesystem::path> runtime_objects();

// The objects of a named firmware (e.g. "svia"), found like the runtime:
// beside the executable, in the build tree, at the install prefix. Throws
// std::runtime_error naming the known firmwares for an unknown name.
std::vector<std::filesystem::path> firmware_objects(std::string_view name);
// Names of every firmware that can be found.
std::vector<std::string> firmware_names();

// Reads the objects, adds the runtime and links for the profile's SRAM.
loader::LinkedImage link_program(std::span<const std::filesystem::path> objects,
                                 const profile::HardwareProfile& profile,
                                 bool with_runtime = true);

} // namespace lanai::machine
