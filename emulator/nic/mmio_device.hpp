// What every device of the card is to the register window: a block of
// memory-mapped registers the LANai reads and writes (each write at the
// access's time, for the writes that start work), and the bits of the event
// status word it drives. The card's register decoding talks to its devices
// through this shape alone; each device states that it has it.
#pragma once

#include <concepts>
#include <cstdint>

#include "emulator/iss/mmio_bus.hpp"
#include "emulator/kernel/sim_time.hpp"
#include "emulator/nic/event_word.hpp"

namespace lanai::nic {

template <class Device>
concept MmioDevice = requires(Device& device, const Device& observed, std::uint32_t address,
                              kernel::SimTime when, std::uint32_t value, std::uint32_t& read_value,
                              EventWord* word) {
  // A register of the device's block: ok, or unmapped for an address it lacks.
  { device.read(address, read_value) } -> std::same_as<iss::MmioStatus>;
  { device.write(address, when, value) } -> std::same_as<iss::MmioStatus>;
  // Whether a write to `address` uses its time (one that starts or changes
  // work does; a staging register just keeps what was written): the card
  // works the access time out only for those.
  { Device::write_uses_time(address) } -> std::same_as<bool>;
  // The word of the device a staging register's write stores to, if that
  // is all the write does (null otherwise): the core may store there
  // directly (iss::MmioBus::direct_register).
  { device.staging_word(address) } -> std::same_as<std::uint32_t*>;
  // The LANAI_EV_* bits the device raises now.
  { observed.event_bits() } -> std::same_as<std::uint32_t>;
  // The card's event word, which the device keeps equal to its
  // event_bits() in the bits that are its own from now on.
  { device.set_event_word(word) } -> std::same_as<void>;
};

} // namespace lanai::nic
