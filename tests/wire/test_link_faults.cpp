// The profile's line faults: drops that still take their time on the wire
// and free the path behind them, single flipped bits the receiver's CRC
// check sees, links down for windows of time, per-link counts, the same
// faults on every run with the same seed, and a fabric without faults
// exactly as it was.
#include "tests/wire/wire_fixture.hpp"

#include <doctest/doctest.h>

using namespace wire_test;
using lanai::kernel::microseconds;
using lanai::profile::HardwareProfile;
using lanai::profile::ProfileError;

namespace {

HardwareProfile with_faults(double drop, double corrupt, std::uint32_t seed = 1) {
  HardwareProfile p = lanai::profile::default_profile();
  p.faults.drop_probability = drop;
  p.faults.corrupt_probability = corrupt;
  p.faults.seed = seed;
  return p;
}

// node0 sends `count` packets to node1 (2 hops), one after another.
void stream(Fabric& f, std::uint64_t count, std::size_t bytes = 200) {
  std::uint64_t next = 0;
  f.after_completion = [&f, &next, count, bytes](std::size_t node, std::uint64_t) {
    if (node == 0 && ++next < count)
      CHECK(f.net->port(0).start_send(f.packet(next, 0, 1, bytes)) ==
            lanai::wire::SendResult::accepted);
  };
  REQUIRE(f.net->port(0).start_send(f.packet(0, 0, 1, bytes)) == lanai::wire::SendResult::accepted);
  f.kernel.run();
}

std::uint64_t sum(const Fabric& f, const char* what) {
  return f.counter((std::string("wire.node0.tx.") + what).c_str()) +
         f.counter((std::string("wire.node1.rx.") + what).c_str());
}

} // namespace

TEST_CASE(
    "a link that drops everything still carries each packet for its time, and frees the path") {
  Fabric f(2, 1, with_faults(1.0, 0.0));
  stream(f, 5);
  CHECK(f.arrivals.empty());
  REQUIRE(f.completions.size() == 5);
  // Each send took the first link's time, as an undamaged one would.
  CHECK(f.completions[0].time == f.T(f.wire_bytes(0, 1, 200)));
  CHECK(f.counter("wire.node0.tx.dropped") == 5);
  CHECK(f.counter("wire.node1.rx.dropped") == 0); // never reached it
}

TEST_CASE("drops and flipped bits at the profile's rates, each counted on its link") {
  Fabric f(2, 1, with_faults(0.1, 0.1, 7));
  const std::uint64_t n = 2000;
  stream(f, n);
  const std::uint64_t dropped = sum(f, "dropped"), corrupted = sum(f, "corrupted");
  CHECK(f.completions.size() == n);
  CHECK(f.arrivals.size() == n - dropped);
  // Two links, each dropping 10% and damaging 10% of the rest.
  CHECK(dropped > 300);
  CHECK(dropped < 460);
  CHECK(corrupted > 260);
  CHECK(corrupted < 420);
  std::uint64_t bad = 0;
  for (const Arrival& a : f.arrivals) {
    const auto expected = f.packet(a.id, 0, 1, 200).payload();
    if (!a.checksum_ok) {
      ++bad;
    } else {
      CHECK(a.payload == expected); // a packet that passes its check is intact
    }
  }
  // A packet damaged on the first link may be dropped on the second.
  CHECK(bad <= corrupted);
  CHECK(bad >= f.counter("wire.node1.rx.corrupted"));
  CHECK(f.counter("wire.node1.checksum_errors") == bad);
}

TEST_CASE("the same seed gives the same faults; another seed other ones") {
  auto run = [](std::uint32_t seed) {
    Fabric f(2, 1, with_faults(0.05, 0.05, seed));
    stream(f, 400);
    return f.arrivals;
  };
  const auto a = run(3), b = run(3), c = run(4);
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("a link goes down for a window of time and back up") {
  HardwareProfile p = lanai::profile::default_profile();
  p.faults.link_down.push_back({"wire.node1.rx", 20.0, 60.0});
  Fabric f(2, 1, p);
  stream(f, 40, 400); // about 2.6 us a packet
  const std::uint64_t dropped = f.counter("wire.node1.rx.dropped");
  CHECK(dropped >= 14);
  CHECK(dropped <= 16);
  CHECK(f.arrivals.size() == 40 - dropped);
  for (const Arrival& a : f.arrivals) {
    // A packet on the link when it goes down still arrives; none that
    // entered while it was down does.
    const bool inside = a.time > microseconds(23) && a.time < microseconds(60);
    CHECK_FALSE(inside);
    CHECK(a.checksum_ok);
  }
}

TEST_CASE("a window naming no link of the fabric is refused, naming the link") {
  HardwareProfile p = lanai::profile::default_profile();
  p.faults.link_down.push_back({"wire.node9.rx", 0.0, 1.0});
  try {
    Fabric f(2, 1, p);
    FAIL("built");
  } catch (const ProfileError& e) {
    const std::string what = e.what();
    CHECK(what.find("faults.link_down[0]") != std::string::npos);
    CHECK(what.find("'wire.node9.rx'") != std::string::npos);
    CHECK(what.find("wire.node1.rx") != std::string::npos);
  }
}

TEST_CASE("without faults the fabric registers no fault counters and draws nothing") {
  Fabric f(2);
  stream(f, 10);
  CHECK(f.arrivals.size() == 10);
  CHECK(f.stats.find("wire.node0.tx.dropped") == nullptr);
}
