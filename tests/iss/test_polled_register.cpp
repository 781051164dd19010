// What a polling lap does with the register it polls: the bits that decide
// its way, the registers that keep the word as read at each point of the
// lap, and the laps the analysis must refuse (it then leaves every bit
// relevant, so a sleeping core wakes at any change, as before).
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "emulator/iss/block_builder.hpp"
#include "emulator/iss/polled_register.hpp"
#include "lanai/register_map.h"
#include "tests/iss/lanai_encoding.hpp"

using namespace lanai::test;
using lanai::iss::PolledRegister;

namespace {

// The status register as an SLS instruction encodes it.
constexpr std::uint32_t polled_status = 0x1F0000u | (LANAI_REG_EVENT_STATUS & 0xFFFFu);
constexpr std::uint32_t polled_data = 0x1000; // a word of memory a lap may load

// The lap block `words` placed at 0x100 (its backward branch must target
// 0x100), analysed with the registers `regs` for the status register.
PolledRegister analyse(const std::vector<std::uint32_t>& words,
                       const std::array<std::uint32_t, 33>& regs = {}) {
  std::vector<std::uint8_t> sram(0x2000);
  for (std::size_t i = 0; i < words.size(); ++i)
    for (int b = 0; b < 4; ++b)
      sram[0x100 + 4 * i + b] = static_cast<std::uint8_t>(words[i] >> (24 - 8 * b));
  std::vector<lanai::iss::BlockOp> ops;
  const lanai::iss::Block block = lanai::iss::build_block(
      0x100, sram.data(), static_cast<std::uint32_t>(sram.size()), lanai::iss::CycleCosts{}, ops);
  REQUIRE(block.count == words.size());
  return lanai::iss::analyse_polled_register(ops.data(), block.count, 0x100, LANAI_REG_EVENT_STATUS,
                                             static_cast<std::uint32_t>(sram.size()), regs.data())
      .with_masks(regs.data());
}

std::array<std::uint32_t, 33> registers(std::uint32_t r9) {
  std::array<std::uint32_t, 33> regs{};
  regs[1] = ~0u;
  regs[9] = r9;
  return regs;
}

constexpr std::uint32_t bit(unsigned r) { return 1u << r; }

} // namespace

TEST_CASE("a lap that masks the word with a register decides on the mask's bits alone") {
  // while ((polled_status & r9) == 0) {}, the word kept in r3.
  const PolledRegister lap = analyse({sls(false, r3, polled_status), // 0x100
                                      rr(and_, r6, r3, r9),          // 0x104
                                      ri(sub, r0, r6, 0, true),      // 0x108
                                      br(7, 0x100),                  // 0x10c beq
                                      nop},                          // 0x110
                                     registers(0x15));
  REQUIRE(lap.known);
  CHECK(lap.relevant == 0x15u);
  CHECK_FALSE(lap.reads_memory);
  CHECK(lap.positions == 5);
  // r3 holds the word everywhere in the lap (before the load, the last
  // lap's); r6 holds only the masked bits.
  for (std::uint32_t pc = 0x100; pc <= 0x110; pc += 4) {
    std::uint32_t holding = 0;
    REQUIRE(lap.holding_at(pc, holding));
    CHECK(holding == bit(r3));
  }
  std::uint32_t holding = 0;
  CHECK_FALSE(lap.holding_at(0x114, holding));
  CHECK_FALSE(lap.holding_at(0xFC, holding));
}

TEST_CASE("a lap that masks the word in place holds it only between the load and the mask") {
  // ld [polled_status], r6; and r6, 0x40, r6: the raw word lives one instruction.
  const PolledRegister lap = analyse({sls(false, r6, polled_status), ri(and_, r6, r6, 0x40),
                                      ri(sub, r0, r6, 0, true), br(7, 0x100), nop});
  REQUIRE(lap.known);
  // An AND with a low immediate keeps the high half (its immediate is
  // 0xFFFF0040): those bits decide too.
  CHECK(lap.relevant == 0xFFFF0040u);
  const std::uint32_t expected[] = {0, bit(r6), 0, 0, 0};
  for (std::uint32_t i = 0; i < 5; ++i) {
    std::uint32_t holding = ~0u;
    REQUIRE(lap.holding_at(0x100 + 4 * i, holding));
    CHECK(holding == expected[i]);
  }
}

TEST_CASE("every bit of the word decides when the lap computes with it") {
  SUBCASE("compared whole") {
    // while (polled_status == r9) {}
    const PolledRegister lap =
        analyse({sls(false, r3, polled_status), rr(sub, r0, r3, r9, true), br(7, 0x100), nop},
                registers(5));
    REQUIRE(lap.known);
    CHECK(lap.relevant == ~0u);
  }
  SUBCASE("shifted before the mask") {
    const PolledRegister lap =
        analyse({sls(false, r3, polled_status), ri(add, r6, r3, 1), ri(and_, r6, r6, 4),
                 ri(sub, r0, r6, 0, true), br(7, 0x100), nop});
    REQUIRE(lap.known);
    CHECK(lap.relevant == ~0u);
  }
  SUBCASE("masked with a register the lap writes") {
    const PolledRegister lap =
        analyse({sls(false, r3, polled_status), ri(add, r9, r9, 0), rr(and_, r6, r3, r9),
                 ri(sub, r0, r6, 0, true), br(7, 0x100), nop},
                registers(1));
    REQUIRE(lap.known);
    CHECK(lap.relevant == ~0u);
  }
}

TEST_CASE("a lap that also loads memory says so") {
  const PolledRegister lap =
      analyse({sls(false, r3, polled_status), sls(false, r7, polled_data), rr(and_, r6, r3, r7),
               ri(sub, r0, r6, 0, true), br(7, 0x100), nop});
  REQUIRE(lap.known);
  CHECK(lap.reads_memory);
  CHECK(lap.relevant == ~0u); // the mask comes from memory, not from a register it keeps
}

TEST_CASE("laps the analysis cannot follow are refused") {
  SUBCASE("a store") {
    const PolledRegister lap =
        analyse({sls(false, r3, polled_status), sls(true, r3, polled_data), ri(and_, r6, r3, 1),
                 ri(sub, r0, r6, 0, true), br(7, 0x100), nop});
    CHECK_FALSE(lap.known);
    CHECK(lap.relevant == ~0u);
  }
  SUBCASE("another device register") {
    const std::uint32_t size = 0x1F0000u | (LANAI_REG_SRAM_SIZE & 0xFFFFu);
    const PolledRegister lap =
        analyse({sls(false, r3, polled_status), sls(false, r7, size), ri(and_, r6, r3, 1),
                 ri(sub, r0, r6, 0, true), br(7, 0x100), nop});
    CHECK_FALSE(lap.known);
  }
  SUBCASE("a branch elsewhere than to the lap's start") {
    const PolledRegister lap = analyse({sls(false, r3, polled_status), ri(and_, r6, r3, 1),
                                        ri(sub, r0, r6, 0, true), br(7, 0x200), nop});
    CHECK_FALSE(lap.known);
  }
}
