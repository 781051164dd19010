// What the bus says of each register the core accesses in the first words
// of the device window (stable, a clock), asked once per register: both
// are properties of the address (MmioBus), and the core asks at every
// register access of the block executor and the idle watch.
#pragma once

#include <array>
#include <cstdint>

#include "emulator/iss/mmio_bus.hpp"
#include "lanai/register_map.h"

namespace lanai::iss {

class RegisterKinds {
public:
  explicit RegisterKinds(const MmioBus* bus) : bus_(bus) {}

  // MmioBus::stable_read and MmioBus::clock_read of `address` (false
  // without a bus).
  bool stable(std::uint32_t address) { return (kind(address) & stable_bit) != 0; }
  bool clock(std::uint32_t address) { return (kind(address) & clock_bit) != 0; }

private:
  static constexpr std::uint8_t known_bit = 1, stable_bit = 2, clock_bit = 4;
  static constexpr std::uint32_t words = 1024; // the card's registers lie well within

  std::uint8_t kind(std::uint32_t address) {
    const std::uint32_t word = (address - LANAI_MMIO_BASE) >> 2;
    if (address < LANAI_MMIO_BASE || word >= words)
      return ask(address);
    std::uint8_t& kind = kinds_[word];
    if (kind == 0)
      kind = ask(address);
    return kind;
  }
  std::uint8_t ask(std::uint32_t address) const {
    if (bus_ == nullptr)
      return known_bit;
    return static_cast<std::uint8_t>(known_bit | (bus_->stable_read(address) ? stable_bit : 0) |
                                     (bus_->clock_read(address) ? clock_bit : 0));
  }

  const MmioBus* bus_;
  std::array<std::uint8_t, words> kinds_{};
};

} // namespace lanai::iss
