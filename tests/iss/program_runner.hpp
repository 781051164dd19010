// Runs a list of hand-encoded instruction words on a bare LANai and exposes
// the CPU for inspection; shared by the directed simulator tests.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "emulator/iss/cpu.hpp"
#include "emulator/machine/system_registers.hpp"

namespace lanai::test {

struct ProgramRun {
  static constexpr std::uint32_t sram = 64 * 1024;
  std::unique_ptr<machine::SystemRegisters> system =
      std::make_unique<machine::SystemRegisters>(sram);
  std::unique_ptr<iss::Cpu> cpu;
  iss::StopReason stop = iss::StopReason::cycle_limit;

  explicit ProgramRun(const std::vector<std::uint32_t>& words, iss::CycleCosts costs = {},
                      std::uint32_t origin = 0) {
    cpu = std::make_unique<iss::Cpu>(sram, costs, system.get());
    for (std::size_t i = 0; i < words.size(); ++i)
      cpu->write_word(origin + static_cast<std::uint32_t>(4 * i), words[i]);
    cpu->reset(origin);
  }
  ProgramRun& run(std::uint64_t limit = 100000) {
    stop = cpu->run(limit);
    return *this;
  }
  std::int32_t exit_code() const { return system->exit_code().value_or(-9999); }
};

} // namespace lanai::test
