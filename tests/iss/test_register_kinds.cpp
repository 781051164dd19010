// The core's memory of what the bus says of each device register: the same
// answers as the bus, asked once per register of the window's first words.
#include "emulator/iss/register_kinds.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>

namespace {

// Stable: every register of the first block but the fourth; a clock: the
// eighth. Counts how often each address is asked about.
struct CountingBus : lanai::iss::MmioBus {
  mutable std::map<std::uint32_t, int> asked;
  lanai::iss::MmioStatus read(std::uint32_t, std::uint64_t, std::uint32_t& v) override {
    v = 0;
    return lanai::iss::MmioStatus::ok;
  }
  lanai::iss::MmioStatus write(std::uint32_t, std::uint64_t, std::uint32_t) override {
    return lanai::iss::MmioStatus::ok;
  }
  bool stable_read(std::uint32_t address) const override {
    ++asked[address];
    return address < LANAI_MMIO_BASE + 0x100 && address != LANAI_MMIO_BASE + 0xC;
  }
  bool clock_read(std::uint32_t address) const override {
    return address == LANAI_MMIO_BASE + 0x1C;
  }
  // A direct read offered for every register (only stable ones may use it)
  // and a staging word for the first block's non-stable register.
  std::map<std::uint32_t, int> asked_direct;
  std::uint32_t word = 0;
  static std::uint32_t read_seven(const void*) { return 7; }
  lanai::iss::DirectRegister direct_register(std::uint32_t address) override {
    ++asked_direct[address];
    lanai::iss::DirectRegister d;
    d.read = &read_seven;
    d.owner = this;
    if (address == LANAI_MMIO_BASE + 0xC)
      d.word = &word;
    return d;
  }
};

} // namespace

TEST_CASE("register kinds are the bus's answers, asked once per register") {
  CountingBus bus;
  lanai::iss::RegisterKinds kinds(&bus);
  const std::uint32_t addresses[] = {0x100u,
                                     LANAI_MMIO_BASE,
                                     LANAI_MMIO_BASE + 0xC,
                                     LANAI_MMIO_BASE + 0x1C,
                                     LANAI_MMIO_BASE + 0x200,
                                     LANAI_MMIO_BASE + 0xFFC,
                                     LANAI_MMIO_BASE + 0x1000,
                                     0xFFFFFFFCu};
  for (int round = 0; round < 3; ++round)
    for (const std::uint32_t a : addresses) {
      CHECK(kinds.stable(a) == bus.stable_read(a));
      CHECK(kinds.clock(a) == bus.clock_read(a));
    }
  // Inside the window's first 4 KB the core asked once (the test asked
  // three times itself); outside it, at every question.
  for (const std::uint32_t a : addresses) {
    const bool kept = a >= LANAI_MMIO_BASE && a < LANAI_MMIO_BASE + 0x1000;
    CHECK(bus.asked[a] == (kept ? 1 + 3 : 3 + 3 + 3));
  }
}

TEST_CASE("without a bus no register is stable or a clock") {
  lanai::iss::RegisterKinds kinds(nullptr);
  CHECK_FALSE(kinds.stable(LANAI_MMIO_BASE));
  CHECK_FALSE(kinds.clock(LANAI_MMIO_BASE + 0x1C));
}

TEST_CASE("direct forms are the bus's, asked once, and a direct read only for a stable register") {
  CountingBus bus;
  lanai::iss::RegisterKinds kinds(&bus);
  for (int round = 0; round < 3; ++round) {
    const auto& stable = kinds.entry(LANAI_MMIO_BASE + 0x4);
    REQUIRE((stable.direct.read != nullptr));
    CHECK(stable.direct.read(stable.direct.owner) == 7u);
    CHECK(stable.direct.word == nullptr);
    const auto& staging = kinds.entry(LANAI_MMIO_BASE + 0xC); // not stable
    CHECK((staging.direct.read == nullptr));
    CHECK(staging.direct.word == &bus.word);
    // Beyond the window's first words nothing direct is kept or asked for.
    const auto& far = kinds.entry(LANAI_MMIO_BASE + 0x1000);
    CHECK((far.direct.read == nullptr));
    CHECK(far.direct.word == nullptr);
  }
  CHECK(bus.asked_direct[LANAI_MMIO_BASE + 0x4] == 1);
  CHECK(bus.asked_direct[LANAI_MMIO_BASE + 0xC] == 1);
  CHECK(bus.asked_direct.count(LANAI_MMIO_BASE + 0x1000) == 0);
}
