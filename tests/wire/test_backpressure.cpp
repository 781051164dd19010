// Stop/go flow control: a receiver that is not ready holds packets in the
// fabric and delays their senders; nothing is lost or reordered.
#include "tests/wire/wire_fixture.hpp"

#include <doctest/doctest.h>

#include <map>

using namespace wire_test;
using lanai::kernel::microseconds;
using lanai::wire::SendResult;

TEST_CASE("a receiver stopped for 100 us delays both senders and loses nothing") {
  Fabric f(3);
  f.net->port(2).set_receive_ready(false);
  const std::size_t payload = 1024;
  const std::size_t wb = f.wire_bytes(0, 2, payload);
  const int per_sender = 3;
  std::map<std::size_t, int> sent;
  auto send = [&](std::size_t node) {
    if (sent[node] < per_sender) {
      const auto id = node * 100 + sent[node]++;
      REQUIRE(f.net->port(node).start_send(f.packet(id, node, 2, payload)) == SendResult::accepted);
    }
  };
  f.after_completion = [&](std::size_t n, std::uint64_t) { send(n); };
  send(0);
  send(1);
  const SimTime go = microseconds(100);
  f.kernel.schedule_at(go, [&] { f.net->port(2).set_receive_ready(true); });
  f.kernel.run_until(go - SimTime::from_ps(1));
  // While stopped: nothing delivered, nothing completed, both links held.
  CHECK(f.arrivals.empty());
  CHECK(f.completions.empty());
  CHECK(f.net->link("wire.node0.tx").busy());
  CHECK(f.net->link("wire.node1.tx").busy());
  f.kernel.run();

  REQUIRE(f.arrivals.size() == 2 * per_sender);
  REQUIRE(f.completions.size() == 2 * per_sender);
  // The held head is taken at GO; the rest of the packet streams in after.
  CHECK(f.arrivals[0].time == go + f.T(wb - 1) - f.T(1));
  // Node 0's tail leaves as far ahead of the receiver as the links and the
  // switch's routing slack allow.
  CHECK(f.completions[0].node == 0);
  CHECK(f.completions[0].time == go + f.T(wb - 1) - f.T(1) - 2 * f.L() - f.R());
  for (const auto& c : f.completions)
    CHECK(c.time > go);
  for (const auto& a : f.arrivals) {
    CHECK(a.time > go);
    CHECK(a.checksum_ok);
  }
  // Per sender, in send order; across senders, taking turns.
  std::map<std::uint32_t, std::uint64_t> next;
  for (std::size_t i = 0; i < f.arrivals.size(); ++i) {
    const auto& a = f.arrivals[i];
    CAPTURE(i);
    CHECK(a.source == i % 2);
    CHECK(a.id == a.source * 100 + next[a.source]++);
    if (i > 0)
      CHECK(a.time - f.arrivals[i - 1].time == f.T(wb - 1));
  }
  CHECK(f.counter("wire.node2.received") == 2 * per_sender);
  CHECK(f.counter("wire.sw0.bad_route") == 0);
}

TEST_CASE("STOP between packets holds the next one in the link until GO") {
  Fabric f(2);
  const std::size_t payload = 200;
  // The receiver disarms itself after each packet, as a receive DMA with
  // one buffer would, and is re-armed 10 us later.
  f.net->port(1).set_on_packet([&](lanai::wire::Packet p, bool ok) {
    f.arrivals.push_back(
        {f.kernel.now(), 1, p.source_node(), p.id(), ok, p.payload(), p.route_bytes_consumed()});
    f.net->port(1).set_receive_ready(false);
    f.kernel.schedule_in(microseconds(10), [&] { f.net->port(1).set_receive_ready(true); });
  });
  int sent = 0;
  auto send = [&] {
    if (sent < 4)
      f.net->port(0).start_send(f.packet(sent++, 0, 1, payload));
  };
  f.after_completion = [&](std::size_t, std::uint64_t) { send(); };
  send();
  f.kernel.run();
  REQUIRE(f.arrivals.size() == 4);
  const std::size_t wb = f.wire_bytes(0, 1, payload);
  for (std::size_t i = 1; i < 4; ++i) {
    CAPTURE(i);
    CHECK(f.arrivals[i].id == i);
    // Re-armed 10 us after the previous arrival; the waiting head is
    // taken then and the body follows.
    CHECK(f.arrivals[i].time == f.arrivals[i - 1].time + microseconds(10) + f.T(wb - 2));
  }
}
