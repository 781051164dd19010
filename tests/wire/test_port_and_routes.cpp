// The network port's split-phase contract, routing errors, corruption in
// flight, and determinism of random traffic.
#include "tests/wire/wire_fixture.hpp"

#include "emulator/kernel/random_stream.hpp"

#include <doctest/doctest.h>

using namespace wire_test;
using lanai::kernel::microseconds;
using lanai::kernel::nanoseconds;
using lanai::wire::Packet;
using lanai::wire::SendResult;

TEST_CASE("start_send answers at once; an accepted send completes exactly once, later") {
  Fabric f(2);
  auto& port = f.net->port(0);
  bool inside_start = false;
  int completions = 0;
  port.set_on_send_complete([&](std::uint64_t id) {
    CHECK_FALSE(inside_start);
    CHECK(id == 5);
    ++completions;
  });
  inside_start = true;
  const auto first = port.start_send(f.packet(5, 0, 1, 64));
  const auto second = port.start_send(f.packet(6, 0, 1, 64));
  inside_start = false;
  CHECK(first == SendResult::accepted);
  CHECK(second == SendResult::busy);
  CHECK(port.send_busy());
  CHECK(completions == 0);
  CHECK(f.kernel.now() == SimTime::zero());
  f.kernel.run();
  CHECK(completions == 1);
  CHECK_FALSE(port.send_busy());
  REQUIRE(f.arrivals.size() == 1);
  CHECK(f.arrivals[0].id == 5);
  CHECK(f.counter("wire.node0.refused") == 1);
  CHECK(f.counter("wire.node0.sent") == 1);
}

TEST_CASE("sends with no route or an oversized payload are refused") {
  Fabric f(2);
  auto& port = f.net->port(0);
  CHECK(port.start_send(Packet(1, {}, std::vector<std::uint8_t>(16))) == SendResult::empty_route);
  const std::size_t max = f.profile.wire.max_payload_bytes;
  CHECK(port.start_send(f.packet(2, 0, 1, max + 1)) == SendResult::too_large);
  CHECK_FALSE(port.send_busy());
  CHECK(port.start_send(f.packet(3, 0, 1, max)) == SendResult::accepted);
  CHECK(lanai::wire::to_string(SendResult::too_large) == "too_large");
  f.kernel.run();
  CHECK(f.arrivals.size() == 1);
}

TEST_CASE("bad routes are dropped at the switch and counted, without wedging it") {
  Fabric f(2, 2); // sw0: nodes 0,1; port 3 leads to sw1 (nodes 2,3)
  SUBCASE("a port the switch does not have") {
    CHECK(f.net->port(0).start_send(Packet(1, {9}, std::vector<std::uint8_t>(32))) ==
          SendResult::accepted);
    f.kernel.run();
    CHECK(f.counter("wire.sw0.bad_route") == 1);
  }
  SUBCASE("an unconnected port at the end of the chain") {
    CHECK(f.net->port(0).start_send(Packet(1, {2}, std::vector<std::uint8_t>(32))) ==
          SendResult::accepted);
    f.kernel.run();
    CHECK(f.counter("wire.sw0.bad_route") == 1);
  }
  SUBCASE("a route exhausted before the last switch") {
    CHECK(f.net->port(0).start_send(Packet(1, {3}, std::vector<std::uint8_t>(32))) ==
          SendResult::accepted);
    f.kernel.run();
    CHECK(f.counter("wire.sw0.forwarded") == 1);
    CHECK(f.counter("wire.sw1.bad_route") == 1);
  }
  CHECK(f.arrivals.empty());
  // The sender still completes: the switch swallowed the packet at link rate.
  REQUIRE(f.completions.size() == 1);
  // And the fabric still works afterwards.
  REQUIRE(f.net->port(0).start_send(f.packet(2, 0, 3, 32)) == SendResult::accepted);
  f.kernel.run();
  REQUIRE(f.arrivals.size() == 1);
  CHECK(f.arrivals[0].id == 2);
}

TEST_CASE("a route longer than the path is caught at the receiving port") {
  Fabric f(2);
  REQUIRE(f.net->port(0).start_send(Packet(1, {1, 0}, std::vector<std::uint8_t>(32))) ==
          SendResult::accepted);
  f.kernel.run();
  CHECK(f.arrivals.empty());
  CHECK(f.counter("wire.node1.misrouted") == 1);
}

TEST_CASE("a byte flipped in flight is reported by the receiver's CRC check") {
  Fabric f(2);
  const std::size_t payload = 40;
  std::size_t offset = 0;
  SUBCASE("in the trailer") { offset = payload + 2; }
  SUBCASE("in the payload") { offset = 17; }
  f.net->link("wire.node1.rx").set_in_flight_hook([&](Packet& p) { p.corrupt_byte(offset, 0x10); });
  REQUIRE(f.net->port(0).start_send(f.packet(1, 0, 1, payload)) == SendResult::accepted);
  f.kernel.run();
  REQUIRE(f.arrivals.size() == 1);
  CHECK_FALSE(f.arrivals[0].checksum_ok);
  CHECK(f.counter("wire.node1.checksum_errors") == 1);
}

namespace {

// Every node sends packets of random size to random other nodes after
// random pauses, and every receiver randomly goes STOP for a while.
std::vector<Arrival> random_traffic(std::uint64_t seed) {
  Fabric f(3, 2);
  const std::size_t nodes = f.net->node_count();
  std::vector<lanai::kernel::RandomStream> rng;
  for (std::size_t n = 0; n < nodes; ++n)
    rng.emplace_back(seed, "wire_test.node" + std::to_string(n));
  std::vector<int> left(nodes, 30);
  std::uint64_t next_id = 1;
  std::function<void(std::size_t)> send = [&](std::size_t n) {
    if (left[n]-- <= 0)
      return;
    auto& r = rng[n];
    const SimTime pause = nanoseconds(r.uniform_u32(0, 3000));
    f.kernel.schedule_in(pause, [&, n] {
      auto& r2 = rng[n];
      std::size_t to = r2.uniform_u32(0, static_cast<std::uint32_t>(nodes - 2));
      if (to >= n)
        ++to;
      const std::size_t bytes = r2.uniform_u32(1, 2048);
      REQUIRE(f.net->port(n).start_send(f.packet(next_id++, n, to, bytes)) == SendResult::accepted);
    });
  };
  for (std::size_t n = 0; n < nodes; ++n) {
    f.net->port(n).set_on_send_complete([&, n](std::uint64_t) { send(n); });
    send(n);
    // Receivers blink: a few STOP periods each, ending at GO.
    for (int k = 0; k < 4; ++k) {
      const SimTime stop = nanoseconds(rng[n].uniform_u32(0, 200'000));
      const SimTime len = nanoseconds(rng[n].uniform_u32(100, 20'000));
      f.kernel.schedule_at(stop, [&, n] { f.net->port(n).set_receive_ready(false); });
      f.kernel.schedule_at(stop + len, [&, n] { f.net->port(n).set_receive_ready(true); });
    }
  }
  f.kernel.run_until(microseconds(300));
  for (std::size_t n = 0; n < nodes; ++n)
    f.net->port(n).set_receive_ready(true);
  f.kernel.run();
  CHECK(f.arrivals.size() == nodes * 30);
  for (const auto& a : f.arrivals)
    CHECK(a.checksum_ok);
  return f.arrivals;
}

} // namespace

TEST_CASE("random traffic gives identical arrival logs run after run") {
  const auto a = random_traffic(2024);
  const auto b = random_traffic(2024);
  CHECK(a == b);
  const auto c = random_traffic(7);
  CHECK_FALSE(a == c);
}
