// A card's host side and its sleeping core: a host program's events leave
// sleeping cores where they are, and a read or write through the card's
// host side brings the card's core up first, so the core sees a write at
// the cycle it would have without fast-forward, and a read sees SRAM as it
// would have stood. A change made behind the host side's back while the
// core sleeps cannot be placed exactly, and ends the run, also when a
// write through the host side follows it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/host/cluster_fixture.hpp"

using namespace lanai;
using host::Cluster;
using kernel::microseconds;
using kernel::nanoseconds;

namespace {

struct Seen {
  std::vector<std::uint32_t> values, cycles;
  std::uint64_t skipped = 0;
};

// Node 0's program writes the mailbox of `node`'s card at a few times
// (some cut inside a lap of its loop) and reads what the firmware saw.
Seen post_to_mailbox(bool fast_forward, std::size_t node) {
  auto config = host_test::test_config(2, "host_mailbox");
  config.fast_forward = fast_forward;
  Cluster cluster(config);
  nic::Card& card = cluster.card(node);
  Seen seen;
  const auto report = cluster.run({
      [&] {
        for (std::uint32_t i = 1; i <= 5; ++i) {
          cluster.host(0).compute(nanoseconds(3'000 + 137 * i));
          card.write_sram_word(card.symbol("mailbox"), i);
          cluster.host(0).compute(microseconds(2));
          seen.values.push_back(card.read_sram_word(card.symbol("seen_value")));
          seen.cycles.push_back(card.read_sram_word(card.symbol("seen_cycle")));
        }
        return 0;
      },
      [&] {
        cluster.host(1).compute(microseconds(30));
        return 0;
      },
  });
  REQUIRE(report.success());
  seen.skipped = cluster.skipped_cycles();
  return seen;
}

} // namespace

TEST_CASE("a write through a card's host side reaches its sleeping core at the exact cycle") {
  for (std::size_t node : {0u, 1u}) {
    CAPTURE(node);
    const Seen slept = post_to_mailbox(true, node), ran = post_to_mailbox(false, node);
    CHECK(slept.values == std::vector<std::uint32_t>{1, 2, 3, 4, 5});
    CHECK(slept.cycles == ran.cycles);
    CHECK(slept.skipped > 0); // the cores did sleep
    CHECK(ran.skipped == 0);
  }
}

TEST_CASE("a read through a card's host side sees SRAM as the core would have left it") {
  // The firmware's lap stores 1 and then 0 to `phase`: node 0 reads it at
  // times that fall in every part of node 1's lap.
  const auto reads = [](bool fast_forward) {
    auto config = host_test::test_config(2, "host_phase");
    config.fast_forward = fast_forward;
    Cluster cluster(config);
    nic::Card& card = cluster.card(1);
    std::vector<std::uint32_t> phases;
    const auto report = cluster.run({
        [&] {
          for (int i = 0; i < 60; ++i) {
            cluster.host(0).compute(nanoseconds(1'000 + 7 * i));
            phases.push_back(card.read_sram_word(card.symbol("phase")));
          }
          return 0;
        },
        [&] {
          cluster.host(1).compute(microseconds(100));
          return 0;
        },
    });
    REQUIRE(report.success());
    CHECK((cluster.skipped_cycles() > 0) == fast_forward);
    return phases;
  };
  const std::vector<std::uint32_t> slept = reads(true), ran = reads(false);
  CHECK(slept == ran);
  CHECK(std::count(ran.begin(), ran.end(), 1u) > 0); // some reads fall mid-lap
}

TEST_CASE("a change behind a card's host side while its core sleeps ends the run") {
  // Found after the event, the change ends the run; found as the host side
  // brings the core up, it fails the program that made it.
  for (const bool then_host_side : {false, true}) {
    CAPTURE(then_host_side);
    auto config = host_test::test_config(2, "host_mailbox");
    config.fast_forward = true;
    Cluster cluster(config);
    nic::Card& card = cluster.card(1);
    const auto run = [&] {
      return cluster.run({
          [&] {
            cluster.host(0).compute(microseconds(4));
            cluster.host(0).compute(microseconds(3));
            // Straight into the processor's memory, not through the card...
            card.cpu().write_word(card.symbol("mailbox"), 9);
            // ...which bringing the core up afterwards cannot undo.
            if (then_host_side)
              card.write_sram_word(card.symbol("mailbox"), 9);
            cluster.host(0).compute(microseconds(5));
            return 0;
          },
          [&] {
            cluster.host(1).compute(microseconds(2));
            return 0;
          },
      });
    };
    const std::string message = "without bringing the core up first";
    if (!then_host_side) {
      CHECK_THROWS_WITH_AS(run(), doctest::Contains(message.c_str()), std::logic_error);
      continue;
    }
    const auto report = run();
    CHECK(report.exit_codes == std::vector<int>{1, 0});
    CHECK(cluster.host(0).failure().find(message) != std::string::npos);
  }
}
