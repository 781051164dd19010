// Behaviour of the system register block.
#include "emulator/machine/system_registers.hpp"

#include "lanai/register_map.h"

namespace lanai::machine {

iss::MmioStatus SystemRegisters::read(std::uint32_t address, std::uint64_t cycle,
                                      std::uint32_t& value) {
  switch (address) {
  case LANAI_REG_CONSOLE:
  case LANAI_REG_EXIT:
    value = 0;
    return iss::MmioStatus::ok;
  case LANAI_REG_CYCLE_LO:
    // Latching the high half makes a LO-then-HI read pair consistent.
    value = read_cycle_lo(cycle);
    return iss::MmioStatus::ok;
  case LANAI_REG_CYCLE_HI:
    value = latched_cycle_hi_;
    return iss::MmioStatus::ok;
  case LANAI_REG_SRAM_SIZE:
    value = sram_bytes_;
    return iss::MmioStatus::ok;
  default:
    return iss::MmioStatus::unmapped;
  }
}

bool SystemRegisters::stable_read(std::uint32_t address) const {
  switch (address) {
  case LANAI_REG_CONSOLE:
  case LANAI_REG_EXIT:
  case LANAI_REG_CYCLE_HI:
  case LANAI_REG_SRAM_SIZE:
    return true;
  default:
    return false;
  }
}

bool SystemRegisters::clock_read(std::uint32_t address) const {
  return address == LANAI_REG_CYCLE_LO;
}

iss::DirectRegister SystemRegisters::direct_register(std::uint32_t address) {
  iss::DirectRegister direct;
  if (address == LANAI_REG_CYCLE_LO) {
    direct.read_clock = [](void* owner, std::uint64_t cycle) {
      return static_cast<SystemRegisters*>(owner)->read_cycle_lo(cycle);
    };
    direct.clock_owner = this;
  }
  return direct;
}

iss::MmioStatus SystemRegisters::write(std::uint32_t address, std::uint64_t, std::uint32_t value) {
  switch (address) {
  case LANAI_REG_CONSOLE: {
    const char c = static_cast<char>(value & 0xFFu);
    console_.push_back(c);
    if (sink_)
      sink_(c);
    return iss::MmioStatus::ok;
  }
  case LANAI_REG_EXIT:
    exit_code_ = static_cast<std::int32_t>(value);
    return iss::MmioStatus::halt;
  case LANAI_REG_CYCLE_LO:
  case LANAI_REG_CYCLE_HI:
  case LANAI_REG_SRAM_SIZE:
    return iss::MmioStatus::ok; // read-only: writes ignored
  default:
    return iss::MmioStatus::unmapped;
  }
}

} // namespace lanai::machine
