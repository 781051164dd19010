// Shared scaffolding for the NIC tests: two cards on one switch with their
// protection tables, a tiny firmware image, and helpers that drive a card's
// register window at the kernel's current time, as the core would.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "tests/iss/lanai_encoding.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "lanai/register_map.h"
#include "emulator/loader/firmware_linker.hpp"
#include "emulator/nic/card.hpp"
#include "emulator/nic/protection_table.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/wire/topology.hpp"

namespace nic_test {

using lanai::kernel::SimTime;

// An image holding `program` at address 0 (by default a branch-to-self
// loop), with `_start` at 0: what the linker would produce for it.
inline lanai::loader::LinkedImage tiny_image(std::vector<std::uint32_t> program,
                                             std::uint32_t sram_bytes) {
  if (program.empty())
    program = {lanai::test::br(0, 0), lanai::test::nop};
  lanai::loader::LinkedImage image;
  for (const std::uint32_t w : program)
    for (int shift = 24; shift >= 0; shift -= 8)
      image.bytes.push_back(static_cast<std::uint8_t>(w >> shift));
  const auto end = static_cast<std::uint32_t>(image.bytes.size());
  image.text_end = image.bss_begin = image.bss_end = image.image_end = end;
  image.stack_top = sram_bytes;
  image.symbols["_start"] = 0;
  image.functions[0] = {"_start", end};
  return image;
}

struct Fixture {
  lanai::kernel::Kernel kernel;
  lanai::kernel::StatsRegistry stats;
  lanai::profile::HardwareProfile profile;
  std::unique_ptr<lanai::wire::Network> net;
  std::vector<std::unique_ptr<lanai::nic::ProtectionTable>> tables;
  std::vector<std::unique_ptr<lanai::nic::Card>> cards;

  explicit Fixture(lanai::profile::HardwareProfile p = lanai::profile::default_profile(),
                   std::vector<std::uint32_t> program = {})
      : profile(std::move(p)) {
    net = lanai::wire::single_switch(kernel, stats, profile, 2);
    const auto image = tiny_image(std::move(program), profile.lanai.sram_bytes);
    for (std::uint32_t n = 0; n < 2; ++n) {
      tables.push_back(std::make_unique<lanai::nic::ProtectionTable>(n));
      cards.push_back(std::make_unique<lanai::nic::Card>(kernel, stats, profile, n, net->port(n),
                                                         *tables[n], image));
    }
  }

  lanai::nic::Card& card(std::size_t n) { return *cards.at(n); }

  // The core cycle that corresponds to the kernel's current time.
  std::uint64_t cycle(std::size_t n) { return card(n).core().cycle_at(kernel.now()); }

  std::uint32_t read(std::size_t n, std::uint32_t reg) {
    std::uint32_t value = 0xDEADBEEF;
    REQUIRE(card(n).bus().read(reg, cycle(n), value) == lanai::iss::MmioStatus::ok);
    return value;
  }
  void write(std::size_t n, std::uint32_t reg, std::uint32_t value) {
    REQUIRE(card(n).bus().write(reg, cycle(n), value) == lanai::iss::MmioStatus::ok);
  }

  // The first picosecond at which card n's core has reached cycle c.
  SimTime time_of_cycle(std::size_t n, std::uint64_t c) {
    const auto& core = card(n).core();
    SimTime t = core.time_at(c);
    if (core.cycle_at(t) < c)
      t += lanai::kernel::picoseconds(1);
    return t;
  }

  // Runs events up to `until`, calling `after_each` after every one.
  void advance(SimTime until, const std::function<void()>& after_each) {
    while (kernel.pending() > 0 && kernel.next_event_time() <= until) {
      kernel.step();
      after_each();
    }
    kernel.run_until(until);
  }

  std::uint64_t counter(const char* name) { return stats.counter(name).value(); }
};

// Register addresses as the 21-bit absolute form of SLS sees them.
constexpr std::uint32_t sls_reg(std::uint32_t reg) { return reg & 0x1FFFFFu; }

// Host address of a buffer of this process, as registrations carry it.
inline std::uint64_t host_address(const void* p) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
}

} // namespace nic_test
