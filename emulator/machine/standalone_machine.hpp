// A LANai with its SRAM and system registers and nothing else: runs a
// linked firmware image from `_start` to its exit on the event kernel, as
// `lanai-emu exec` and the simulator tests do.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "emulator/iss/cpu.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/loader/firmware_linker.hpp"
#include "emulator/loader/firmware_lookup.hpp"
#include "emulator/machine/clocked_core.hpp"
#include "emulator/machine/system_registers.hpp"
#include "emulator/profile/hardware_profile.hpp"

namespace lanai::machine {

enum class ExecStop { exited, fault, cycle_limit };

struct ExecResult {
  ExecStop stop = ExecStop::cycle_limit;
  std::int32_t exit_code = 0;
  std::uint64_t instructions = 0;
  std::uint64_t cycles = 0;
  std::string fault_report;        // set when stop == fault
  std::int64_t end_time_ps = 0;    // virtual time when the core stopped
  std::uint64_t kernel_events = 0; // events the kernel executed for the run
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

// Firmware is found by the loader (loader/firmware_lookup.hpp); these are
// named here too for the callers that link programs on a bare LANai.
using loader::objects_in_manifest;
using loader::runtime_objects;

// Reads the objects, adds the runtime and links for the profile's SRAM.
loader::LinkedImage link_program(std::span<const std::filesystem::path> objects,
                                 const profile::HardwareProfile& profile, bool with_runtime = true);

// Links a firmware found by loader::find_firmware with the runtime for the
// profile's SRAM. Throws loader::LoadError, one line naming the file (and
// the symbol, for an unresolved one).
loader::LinkedImage link_firmware(const loader::FirmwareSource& firmware,
                                  const profile::HardwareProfile& profile);

} // namespace lanai::machine
