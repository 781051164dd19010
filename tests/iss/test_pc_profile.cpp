// The processor's profile counts: every executed instruction once, with the
// cycles it took (taken branches, device-register wait states and load-use
// interlocks included), so that the counts sum to the processor's own
// totals; a profile of the wrong size is refused.
#include <doctest/doctest.h>

#include <numeric>
#include <stdexcept>

#include "lanai/register_map.h"
#include "tests/iss/lanai_encoding.hpp"
#include "tests/iss/program_runner.hpp"

using namespace lanai::test;

TEST_CASE("profile counts sum to the processor's cycles and instructions") {
  constexpr std::uint32_t data = 0x1000;
  lanai::iss::CycleCosts costs;
  costs.branch_taken_cycles = 3;
  costs.mmio_cycles = 5;
  costs.load_use_stall_cycles = 2;
  // Ten laps of: read a device register, load a word and use it at once.
  const std::vector<std::uint32_t> words = {
      ri(add, r6, r0, 10),                                         // 0x00 r6 = 10
      sls(false, r7, 0x1F0000u | (LANAI_REG_SRAM_SIZE & 0xFFFFu)), // 0x04 device read
      sls(false, r9, data),                                        // 0x08 load
      ri(add, r9, r9, 1),                                          // 0x0c use: interlock
      ri(sub, r6, r6, 1, true),                                    // 0x10
      br(6, 0x04),                                                 // 0x14 bne 0x04
      nop,                                                         // 0x18 delay slot
      exit_with(r6)};                                              // 0x1c
  ProgramRun p(words, costs);
  lanai::iss::PcProfile profile(ProgramRun::sram);
  p.cpu->set_profile(&profile);
  p.run();
  REQUIRE(p.stop == lanai::iss::StopReason::halted);
  const auto sum = [](const std::vector<std::uint64_t>& v) {
    return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
  };
  CHECK(sum(profile.instructions) == p.cpu->instructions());
  CHECK(sum(profile.cycles) == p.cpu->cycles());
  CHECK(profile.instructions[0x04 / 4] == 10);
  CHECK(profile.cycles[0x04 / 4] == 10 * 5);                      // device wait states
  CHECK(profile.cycles[0x0c / 4] == 10 * (costs.alu_cycles + 2)); // interlock after the load
  CHECK(profile.cycles[0x14 / 4] == 9 * 3 + costs.branch_untaken_cycles); // nine laps taken
  CHECK(profile.instructions[0x20 / 4] == 0);
}

TEST_CASE("a profile not sized for the SRAM is refused; none stops the counting") {
  ProgramRun p({nop, nop, exit_with(r0)});
  lanai::iss::PcProfile small(1024);
  CHECK_THROWS_AS(p.cpu->set_profile(&small), std::invalid_argument);
  lanai::iss::PcProfile profile(ProgramRun::sram);
  p.cpu->set_profile(&profile);
  p.cpu->set_profile(nullptr);
  p.run();
  CHECK(profile.instructions[0] == 0);
}
