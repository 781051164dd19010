// Cycles charged per instruction class, taken from the hardware profile.
#pragma once

#include <cstdint>

#include "profile/hardware_profile.hpp"

namespace lanai::iss {

struct CycleCosts {
  std::uint32_t alu = 1;
  std::uint32_t load = 1;
  std::uint32_t store = 1;
  std::uint32_t branch_taken = 2;
  std::uint32_t branch_untaken = 1;
  std::uint32_t mmio = 3;
  std::uint32_t load_use_stall = 1;

  static CycleCosts from_profile(const profile::LanaiParams& p) {
    return {p.alu_cycles,          p.load_cycles,           p.store_cycles, p.branch_taken_cycles,
            p.branch_untaken_cycles, p.mmio_cycles, p.load_use_stall_cycles};
  }
};

} // namespace lanai::iss
