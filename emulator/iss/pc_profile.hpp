// Where a LANai spends its cycles: executed instructions and the cycles
// they took, per instruction address. The processor fills it while it is
// attached (Cpu::set_profile); host/firmware_profiler.hpp sums it per
// firmware function.
#pragma once

#include <cstdint>
#include <vector>

namespace lanai::iss {

struct PcProfile {
  // One entry per SRAM word: index = address / 4.
  std::vector<std::uint64_t> instructions;
  std::vector<std::uint64_t> cycles;

  explicit PcProfile(std::uint32_t sram_bytes)
      : instructions(sram_bytes / 4), cycles(sram_bytes / 4) {}

  // `pc` is word aligned and inside SRAM: the processor fetched from it.
  void add(std::uint32_t pc, std::uint64_t spent) {
    ++instructions[pc >> 2];
    cycles[pc >> 2] += spent;
  }
};

} // namespace lanai::iss
