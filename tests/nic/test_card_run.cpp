// The card with its core running hand-encoded firmware: console and exit,
// a fault report naming the instruction, and a timer wait that only ends on
// time if a register write ends the core's slice.
#include "tests/nic/nic_fixture.hpp"

#include <stdexcept>

using namespace nic_test;
namespace t = lanai::test;
using lanai::kernel::microseconds;

TEST_CASE("firmware writes the console and exits; the card reports how it stopped") {
  Fixture f(lanai::profile::default_profile(),
            {t::sli(t::r3, 'o'), t::sls(true, t::r3, sls_reg(LANAI_REG_CONSOLE)),
             t::sli(t::r3, 'k'), t::sls(true, t::r3, sls_reg(LANAI_REG_CONSOLE)), t::sli(t::r3, 3),
             t::exit_with(t::r3), t::br(0, 24), t::nop});
  auto& card = f.card(0);
  CHECK(card.has_symbol("_start"));
  CHECK(card.symbol("_start") == 0u);
  CHECK_FALSE(card.has_symbol("via_nic_config"));
  CHECK_THROWS_WITH_AS(card.symbol("via_nic_config"), doctest::Contains("via_nic_config"),
                       std::out_of_range);

  f.kernel.run_until(microseconds(1));
  card.start();
  CHECK(card.firmware_running());
  CHECK_THROWS_AS(card.start(), std::logic_error);
  f.kernel.run();
  CHECK(card.console() == "ok");
  CHECK_FALSE(card.firmware_running());
  CHECK(card.stop_report().find("node 0: firmware halted with exit code 3") == 0);
  // The other card never started.
  CHECK_FALSE(f.card(1).firmware_running());
  CHECK(f.card(1).stop_report().empty());
}

TEST_CASE("a firmware fault stops the card with a report naming the access") {
  Fixture f(lanai::profile::default_profile(),
            {t::nop, t::sls(false, t::r3, sls_reg(LANAI_REG(0x0050))), t::br(0, 8), t::nop});
  f.card(0).start();
  f.kernel.run();
  CHECK_FALSE(f.card(0).firmware_running());
  const std::string report = f.card(0).stop_report();
  CAPTURE(report);
  CHECK(report.find("node 0: firmware stopped") == 0);
  CHECK(report.find("unmapped device register") != std::string::npos);
  CHECK(report.find("0xffff0050") != std::string::npos);
  CHECK(report.find("<_start+0x4>") != std::string::npos);
}

TEST_CASE("a timer wait in firmware ends when the countdown does") {
  constexpr std::uint32_t wait = 500;
  Fixture f(lanai::profile::default_profile(),
            {
                t::sli(t::r3, wait),                                    // 0
                t::sls(true, t::r3, sls_reg(LANAI_REG_TIMER)),          // 4: start the timer
                t::sls(false, t::r6, sls_reg(LANAI_REG_EVENT_STATUS)),  // 8: poll
                t::ri(t::and_, t::r6, t::r6, LANAI_EV_TIMER, true),     // 12
                t::br(7, 8),                                            // 16: again while zero
                t::nop,                                                 // 20
                t::sls(false, t::r3, sls_reg(LANAI_REG_CYCLE_LO)),      // 24
                t::sls(true, t::r3, 0x1000),                            // 28: keep the cycle
                t::sls(true, t::r3, sls_reg(LANAI_REG_HOST_INTERRUPT)), // 32
                t::sli(t::r3, 0),                                       // 36
                t::exit_with(t::r3),                                    // 40
            });
  std::vector<std::uint32_t> interrupts;
  f.card(0).set_on_host_interrupt([&](std::uint32_t w) { interrupts.push_back(w); });
  f.card(0).start();
  f.kernel.run();
  REQUIRE_FALSE(f.card(0).firmware_running());
  CHECK(f.card(0).stop_report().find("exit code 0") != std::string::npos);
  // The timer was written at cycle 1 (after one ALU instruction); the loop
  // sees the bit on its first poll at or after cycle 501, a few cycles
  // later reads the cycle counter. Had the write not ended the core's
  // slice, the expiry would only be seen at the end of the slice.
  const std::uint32_t seen_at = f.card(0).read_sram_word(0x1000);
  CHECK(seen_at >= 1 + wait);
  CHECK(seen_at <= 1 + wait + 16);
  REQUIRE(interrupts.size() == 1);
  CHECK(interrupts[0] == seen_at);
  CHECK(f.card(0).activity() == 3); // the countdown, its expiry, the interrupt
}

TEST_CASE("the host reaches SRAM through PIO words and byte writes") {
  Fixture f;
  auto& card = f.card(1);
  card.write_sram_word(0x3000, 0x01020304);
  CHECK(card.read_sram_word(0x3000) == 0x01020304u);
  const std::vector<std::uint8_t> bytes{0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
  card.write_sram(0x3001, bytes);
  CHECK(card.read_sram_word(0x3000) == 0x01AABBCCu);
  CHECK(card.read_sram_word(0x3004) == 0xDDEE0000u);
  CHECK(f.card(0).read_sram_word(0x3000) == 0u);
}
