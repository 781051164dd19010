// What the bus says of each register the core accesses in the first words
// of the device window (stable, a clock, its direct forms), asked once per
// register: all are properties of the address (MmioBus), and the core asks
// at every register access of the block executor and the idle watch.
#pragma once

#include <cstdint>
#include <memory>

#include "emulator/iss/mmio_bus.hpp"
#include "lanai/register_map.h"

namespace lanai::iss {

class RegisterKinds {
  static constexpr std::uint8_t known_bit = 1, stable_bit = 2, clock_bit = 4;

public:
  explicit RegisterKinds(MmioBus* bus) : bus_(bus), entries_(std::make_unique<Entry[]>(words)) {}

  // What the bus says of one register.
  struct Entry {
    std::uint8_t kind = 0;
    // MmioBus::direct_register; its read only for a stable register.
    DirectRegister direct;

    // MmioBus::stable_read and MmioBus::clock_read (false without a bus).
    bool stable() const { return (kind & stable_bit) != 0; }
    bool clock() const { return (kind & clock_bit) != 0; }
  };

  // Outside the first words of the window the bus is asked each time, and
  // no direct form is kept. The reference stays valid until the next call.
  const Entry& entry(std::uint32_t address) {
    // Below the window the difference wraps round past `words`.
    const std::uint32_t word = (address - LANAI_MMIO_BASE) >> 2;
    if (word < words && entries_[word].kind != 0)
      return entries_[word];
    return ask_bus(address);
  }
  bool stable(std::uint32_t address) { return entry(address).stable(); }
  bool clock(std::uint32_t address) { return entry(address).clock(); }

private:
  static constexpr std::uint32_t words = 1024; // the card's registers lie well within

  [[gnu::noinline]] const Entry& ask_bus(std::uint32_t address) {
    const std::uint32_t word = (address - LANAI_MMIO_BASE) >> 2;
    if (address < LANAI_MMIO_BASE || word >= words) {
      outside_ = {ask(address), {}};
      return outside_;
    }
    Entry& entry = entries_[word];
    entry = {ask(address), bus_ != nullptr ? bus_->direct_register(address) : DirectRegister{}};
    if (!entry.stable()) // a direct read stands in for a stable one only
      entry.direct.read = nullptr;
    if (!entry.clock()) // and a direct clock read for a clock
      entry.direct.read_clock = nullptr;
    return entry;
  }
  std::uint8_t ask(std::uint32_t address) const {
    if (bus_ == nullptr)
      return known_bit;
    return static_cast<std::uint8_t>(known_bit | (bus_->stable_read(address) ? stable_bit : 0) |
                                     (bus_->clock_read(address) ? clock_bit : 0));
  }

  MmioBus* bus_;
  std::unique_ptr<Entry[]> entries_; // on the heap: the core's own state stays compact
  Entry outside_;
};

} // namespace lanai::iss
