// The counters a card's firmware registered (lanai/firmware_counters.h):
// read from SRAM through the table the loader brackets with
// __start_lanai_counters and __stop_lanai_counters, so a run's statistics
// can report them. A malformed entry (a name or counter outside SRAM, an
// unterminated or unprintable name) is skipped, never trusted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emulator/nic/card.hpp"

namespace lanai::nic {

struct FirmwareCounter {
  std::string name;
  std::uint32_t value = 0;
};

// The card's registered counters now, in table order (empty if its firmware
// registered none).
std::vector<FirmwareCounter> firmware_counters(const Card& card);

} // namespace lanai::nic
