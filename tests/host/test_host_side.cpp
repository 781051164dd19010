// A card's host side and its sleeping core: a host program's events leave
// sleeping cores where they are, and a write through the card's host side
// brings the card's core up first, so the core sees it at the cycle it
// would have without fast-forward. A change made behind the host side's
// back while the core sleeps cannot be placed exactly, and ends the run.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
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

TEST_CASE("a change behind a card's host side while its core sleeps ends the run") {
  auto config = host_test::test_config(2, "host_mailbox");
  config.fast_forward = true;
  Cluster cluster(config);
  nic::Card& card = cluster.card(1);
  const auto run = [&] {
    return cluster.run({
        [&] {
          cluster.host(0).compute(microseconds(5));
          // Straight into the processor's memory, not through the card.
          card.cpu().write_word(card.symbol("mailbox"), 9);
          cluster.host(0).compute(microseconds(5));
          return 0;
        },
        [] { return 0; },
    });
  };
  CHECK_THROWS_WITH_AS(run(), doctest::Contains("without bringing the core up first"),
                       std::logic_error);
}
