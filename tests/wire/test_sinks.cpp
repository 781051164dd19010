// A fabric of sinks: every packet a port sends leaves at link rate, taken
// by its sink as the head arrives; nothing ever arrives at a port, and the
// fabric has no routes.
#include "emulator/wire/topology.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using lanai::kernel::SimTime;
using lanai::wire::Packet;
using lanai::wire::SendResult;

struct SinkFabric {
  lanai::kernel::Kernel kernel;
  lanai::kernel::StatsRegistry stats;
  lanai::profile::HardwareProfile profile = lanai::profile::default_profile();
  std::unique_ptr<lanai::wire::Network> net;
  std::vector<std::pair<SimTime, std::uint64_t>> completions; // node 0's
  std::size_t arrivals = 0;

  explicit SinkFabric(std::size_t nodes) {
    net = lanai::wire::sinks(kernel, stats, profile, nodes);
    for (std::size_t n = 0; n < nodes; ++n) {
      net->port(n).set_on_packet([this](Packet, bool) { ++arrivals; });
      net->port(n).set_receive_ready(true);
    }
    net->port(0).set_on_send_complete(
        [this](std::uint64_t id) { completions.emplace_back(kernel.now(), id); });
  }

  SimTime T(std::uint64_t bytes) const {
    return lanai::kernel::Bandwidth::megabytes_per_second(profile.wire.link_mbytes_per_s)
        .transfer_time(bytes);
  }
  std::uint64_t counter(const std::string& name) const {
    const auto* s = stats.find(name);
    return s ? std::get<lanai::kernel::Counter>(*s).value() : ~0ull;
  }
  // One route byte, which the sink ignores, and `bytes` of payload.
  static Packet packet(std::uint64_t id, std::size_t bytes) {
    return Packet(id, {0}, std::vector<std::uint8_t>(bytes, 0xA5));
  }
};

} // namespace

TEST_CASE("a port sending into a sink is done when its packet's wire bytes have left") {
  SinkFabric f(2);
  const SimTime t0 = lanai::kernel::microseconds(3);
  f.kernel.run_until(t0);
  REQUIRE(f.net->port(0).start_send(SinkFabric::packet(7, 4096)) == SendResult::accepted);
  CHECK(f.net->port(0).send_busy());
  f.kernel.run();
  const std::uint64_t wb = 1 + 4096 + Packet::trailer_bytes;
  REQUIRE(f.completions.size() == 1);
  CHECK(f.completions[0].first == t0 + f.T(wb));
  CHECK(f.completions[0].second == 7);
  CHECK_FALSE(f.net->port(0).send_busy());
  CHECK(f.arrivals == 0);
  CHECK(f.counter("wire.sink0.packets") == 1);
  CHECK(f.counter("wire.sink0.bytes") == wb);
  CHECK(f.counter("wire.node0.tx.bytes") == wb);
  CHECK(f.counter("wire.sink1.packets") == 0);
}

TEST_CASE("back-to-back packets into a sink leave at the link rate") {
  SinkFabric f(1);
  const std::uint64_t wb = 1 + 1000 + Packet::trailer_bytes;
  std::uint64_t next = 1;
  f.net->port(0).set_on_send_complete([&](std::uint64_t id) {
    f.completions.emplace_back(f.kernel.now(), id);
    if (next <= 10)
      REQUIRE(f.net->port(0).start_send(SinkFabric::packet(next++, 1000)) == SendResult::accepted);
  });
  REQUIRE(f.net->port(0).start_send(SinkFabric::packet(0, 1000)) == SendResult::accepted);
  REQUIRE(f.net->port(0).start_send(SinkFabric::packet(99, 1000)) == SendResult::busy);
  f.kernel.run();
  REQUIRE(f.completions.size() == 11);
  for (std::size_t i = 0; i < f.completions.size(); ++i) {
    CHECK(f.completions[i].second == i);
    CHECK(f.completions[i].first == f.T(wb) * static_cast<std::int64_t>(i + 1));
  }
  CHECK(f.counter("wire.sink0.packets") == 11);
  CHECK(f.counter("wire.sink0.bytes") == 11 * wb);
}

TEST_CASE("a fabric of sinks has no routes and needs a node") {
  SinkFabric f(2);
  CHECK(f.net->has_sinks());
  CHECK_THROWS_AS((void)f.net->route(0, 1), std::logic_error);
  CHECK_THROWS_AS((void)f.net->route(0, 2), std::out_of_range);
  lanai::kernel::Kernel kernel;
  lanai::kernel::StatsRegistry stats;
  CHECK_THROWS_AS(lanai::wire::sinks(kernel, stats, lanai::profile::default_profile(), 0),
                  std::invalid_argument);
  CHECK_FALSE(
      lanai::wire::single_switch(kernel, stats, lanai::profile::default_profile(), 2)->has_sinks());
}
