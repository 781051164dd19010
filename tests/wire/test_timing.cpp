// Timing of the fabric against closed-form expectations from the profile:
// one packet through one switch, contention for one output, head-of-line
// blocking, multi-hop routes and sustained throughput.
#include "tests/wire/wire_fixture.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace wire_test;
using lanai::kernel::microseconds;
using lanai::kernel::nanoseconds;
using lanai::wire::SendResult;

TEST_CASE("one packet through one switch: tail at 2L + R + T(1) + T(wb - 1)") {
  auto profile = lanai::profile::default_profile();
  SUBCASE("default profile") {}
  SUBCASE("slower links, longer cables, slower switch") {
    profile.wire.link_mbytes_per_s = 133.0; // byte time not a whole ps
    profile.wire.link_latency_ns = 230;
    profile.wire.switch_latency_ns = 420;
  }
  Fabric f(2, 1, profile);
  const SimTime t0 = microseconds(3);
  f.kernel.run_until(t0);
  const std::size_t wb = f.wire_bytes(0, 1, 100);
  REQUIRE(wb == 105);
  REQUIRE(f.net->port(0).start_send(f.packet(42, 0, 1, 100)) == SendResult::accepted);
  f.kernel.run();

  REQUIRE(f.arrivals.size() == 1);
  const Arrival& a = f.arrivals[0];
  // The head pays one byte time and the latency per link plus the routing
  // delay; the body (one byte shorter after the switch) follows it.
  CHECK(a.time == t0 + 2 * f.L() + f.R() + f.T(1) + f.T(wb - 1));
  if (profile.wire.link_mbytes_per_s == 160.0)
    CHECK(a.time == t0 + nanoseconds(100 + 150) + f.T(105)); // 906.25 ns after t0
  CHECK(a.at == 1);
  CHECK(a.source == 0);
  CHECK(a.id == 42);
  CHECK(a.checksum_ok);
  CHECK(a.payload == f.packet(42, 0, 1, 100).payload());
  CHECK(a.route_consumed == 1);
  // The sender is done when its tail has left: wire bytes at link rate
  // (a picosecond more when byte times round unevenly, as the switch
  // re-sends head byte and body separately) but, at packet granularity,
  // not before the destination has taken the head.
  REQUIRE(f.completions.size() == 1);
  const SimTime head_taken = t0 + 2 * f.L() + 2 * f.T(1) + f.R();
  CHECK(f.completions[0].time ==
        std::max(t0 + std::max(f.T(wb), f.T(1) + f.T(wb - 1)), head_taken));
  if (profile.wire.link_mbytes_per_s == 160.0)
    CHECK(f.completions[0].time == t0 + f.T(wb));
  CHECK(f.completions[0].id == 42);

  CHECK(f.counter("wire.node0.tx.bytes") == wb);
  CHECK(f.counter("wire.node1.rx.bytes") == wb - 1);
  CHECK(f.counter("wire.sw0.forwarded") == 1);
  CHECK(f.counter("wire.sw0.blocked_ps") == 0);
  CHECK(f.counter("wire.node1.received") == 1);
}

TEST_CASE("two senders to one output are serialised in a fixed order") {
  Fabric f(3);
  const std::size_t payload = 1000;
  const std::size_t wb = f.wire_bytes(0, 2, payload);
  REQUIRE(f.net->port(0).start_send(f.packet(1, 0, 2, payload)) == SendResult::accepted);
  REQUIRE(f.net->port(1).start_send(f.packet(2, 1, 2, payload)) == SendResult::accepted);
  f.kernel.run();

  REQUIRE(f.arrivals.size() == 2);
  const SimTime first = 2 * f.L() + f.R() + f.T(wb);
  CHECK(f.arrivals[0].source == 0); // round-robin starts at input 0
  CHECK(f.arrivals[0].time == first);
  CHECK(f.arrivals[1].source == 1);
  // Delayed by exactly the first packet's time on the shared output link.
  CHECK(f.arrivals[1].time == first + f.T(wb - 1));
  // The loser's link stalled for as long as it waited at the switch.
  REQUIRE(f.completions.size() == 2);
  CHECK(f.completions[0].node == 0);
  CHECK(f.completions[0].time == f.T(wb));
  CHECK(f.completions[1].node == 1);
  CHECK(f.completions[1].time == f.T(wb) + f.T(wb - 1));
  CHECK(f.counter("wire.sw0.blocked_ps") == static_cast<std::uint64_t>(f.T(wb - 1).ps()));
}

TEST_CASE("streams contending for one output take turns") {
  Fabric f(3);
  const std::size_t payload = 500;
  int left[2] = {4, 4};
  std::uint64_t next_id = 100;
  auto send = [&](std::size_t node) {
    if (left[node]-- > 0)
      REQUIRE(f.net->port(node).start_send(f.packet(next_id++, node, 2, payload)) ==
              SendResult::accepted);
  };
  f.after_completion = [&](std::size_t n, std::uint64_t) { send(n); };
  send(0);
  send(1);
  f.kernel.run();
  REQUIRE(f.arrivals.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(f.arrivals[i].source == i % 2);
    // Back to back on the output: one packet time apart.
    if (i > 0)
      CHECK(f.arrivals[i].time - f.arrivals[i - 1].time == f.T(f.wire_bytes(0, 2, payload) - 1));
  }
}

TEST_CASE("a packet behind a blocked one waits though its own output is idle") {
  const std::size_t big = 2000;
  const std::size_t small = 64;
  auto run = [&](bool contend) {
    Fabric f(4);
    if (contend)
      f.net->port(0).start_send(f.packet(1, 0, 2, big)); // takes output 2
    f.net->port(1).start_send(f.packet(2, 1, 2, big));
    // Node 1's next packet goes to the idle node 3, but must queue behind
    // packet 2 in node 1's link and switch input.
    f.after_completion = [&f](std::size_t, std::uint64_t id) {
      if (id == 2)
        f.net->port(1).start_send(f.packet(3, 1, 3, small));
    };
    f.kernel.run();
    for (const auto& a : f.arrivals)
      if (a.id == 3)
        return a.time;
    FAIL("packet 3 never arrived");
    return SimTime::zero();
  };
  Fabric shape(4);
  const std::size_t wb = shape.wire_bytes(1, 2, big);
  const std::size_t wb3 = shape.wire_bytes(1, 3, small);
  const SimTime alone = run(false);
  const SimTime blocked = run(true);
  CHECK(alone == shape.T(wb) + 2 * shape.L() + shape.R() + shape.T(wb3));
  CHECK(blocked - alone == shape.T(wb - 1));
}

TEST_CASE("three switches: the route's three bytes are consumed and each hop adds L + R") {
  Fabric f(2, 3); // nodes 0,1 on sw0; 2,3 on sw1; 4,5 on sw2
  CHECK(f.net->route(0, 5) == std::vector<std::uint8_t>{3, 3, 1});
  CHECK(f.net->route(5, 0) == std::vector<std::uint8_t>{2, 2, 0});
  CHECK(f.net->route(2, 3) == std::vector<std::uint8_t>{1});
  const std::size_t payload = 256;
  const std::size_t wb = f.wire_bytes(0, 5, payload);
  REQUIRE(f.net->port(0).start_send(f.packet(9, 0, 5, payload)) == SendResult::accepted);
  REQUIRE(f.net->port(5).start_send(f.packet(10, 5, 0, payload)) == SendResult::accepted);
  f.kernel.run();
  REQUIRE(f.arrivals.size() == 2);
  for (const auto& a : f.arrivals) {
    CAPTURE(a.id);
    CHECK(a.route_consumed == 3);
    CHECK(a.checksum_ok);
    CHECK(a.time == 4 * f.L() + 3 * f.R() + f.T(wb));
    CHECK(a.payload == f.packet(a.id, 0, 5, payload).payload());
  }
  CHECK(f.counter("wire.sw0_to_sw1.bytes") == wb - 1);
  CHECK(f.counter("wire.sw1_to_sw2.bytes") == wb - 2);
  CHECK(f.counter("wire.node5.rx.bytes") == wb - 3);
  CHECK(f.counter("wire.sw1.forwarded") == 2);
}

TEST_CASE("a stream of 4 KB packets reaches the link rate at the receiver") {
  Fabric f(2);
  const std::size_t payload = 4096;
  const int count = 400;
  int sent = 0;
  auto send = [&] {
    if (sent < count)
      REQUIRE(f.net->port(0).start_send(f.packet(sent++, 0, 1, payload)) == SendResult::accepted);
  };
  f.after_completion = [&](std::size_t, std::uint64_t) { send(); };
  send();
  f.kernel.run();
  REQUIRE(f.arrivals.size() == count);
  const SimTime span = f.arrivals.back().time - f.arrivals.front().time;
  const double mb_per_s = (count - 1) * double(payload) / span.as_seconds() / 1e6;
  CAPTURE(mb_per_s);
  CHECK(mb_per_s == doctest::Approx(160.0).epsilon(0.01));
  // Exactly the wire rate once route and trailer bytes are counted.
  CHECK(span == (count - 1) * f.T(f.wire_bytes(0, 1, payload)));
  const auto& busy = std::get<lanai::kernel::TimeWeighted>(*f.stats.find("wire.node0.tx.busy"));
  CHECK(busy.average(f.completions.back().time) == doctest::Approx(1.0));
}
