// Shared scaffolding for the fabric tests: a kernel, a stats registry and a
// network built from a profile, with every arrival and send completion
// logged with its virtual time.
#pragma once

#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/wire/topology.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace wire_test {

using lanai::kernel::SimTime;

struct Arrival {
  SimTime time;
  std::size_t at; // receiving node
  std::uint32_t source;
  std::uint64_t id;
  bool checksum_ok;
  std::vector<std::uint8_t> payload;
  std::size_t route_consumed;

  friend bool operator==(const Arrival&, const Arrival&) = default;
};

struct Completion {
  SimTime time;
  std::size_t node;
  std::uint64_t id;

  friend bool operator==(const Completion&, const Completion&) = default;
};

struct Fabric {
  lanai::kernel::Kernel kernel;
  lanai::kernel::StatsRegistry stats;
  lanai::profile::HardwareProfile profile;
  std::unique_ptr<lanai::wire::Network> net;
  std::vector<Arrival> arrivals;
  std::vector<Completion> completions;
  // What a test does after a send completion has been logged.
  std::function<void(std::size_t node, std::uint64_t id)> after_completion;

  // nodes_per_switch nodes on each of `switches` chained switches; every
  // receiver starts armed.
  explicit Fabric(std::size_t nodes_per_switch, std::size_t switches = 1,
                  lanai::profile::HardwareProfile p = lanai::profile::default_profile())
      : profile(std::move(p)) {
    net = lanai::wire::switch_chain(kernel, stats, profile, nodes_per_switch, switches);
    for (std::size_t n = 0; n < net->node_count(); ++n) {
      auto& port = net->port(n);
      port.set_on_packet([this, n](lanai::wire::Packet packet, bool ok) {
        arrivals.push_back({kernel.now(), n, packet.source_node(), packet.id(), ok,
                            packet.payload(), packet.route_bytes_consumed()});
      });
      port.set_on_send_complete([this, n](std::uint64_t id) {
        completions.push_back({kernel.now(), n, id});
        if (after_completion)
          after_completion(n, id);
      });
      port.set_receive_ready(true);
    }
  }

  lanai::wire::Packet packet(std::uint64_t id, std::size_t from, std::size_t to,
                             std::size_t payload_bytes) const {
    std::vector<std::uint8_t> payload(payload_bytes);
    for (std::size_t i = 0; i < payload_bytes; ++i)
      payload[i] = static_cast<std::uint8_t>(id * 31 + i * 7);
    return lanai::wire::Packet(id, net->route(from, to), std::move(payload));
  }

  // Bytes on the first link of a from->to packet with this payload.
  std::size_t wire_bytes(std::size_t from, std::size_t to, std::size_t payload_bytes) const {
    return net->route(from, to).size() + payload_bytes + lanai::wire::Packet::trailer_bytes;
  }

  // Profile-derived timing.
  SimTime T(std::uint64_t bytes) const {
    return lanai::kernel::Bandwidth::megabytes_per_second(profile.wire.link_mbytes_per_s)
        .transfer_time(bytes);
  }
  SimTime L() const { return lanai::kernel::nanoseconds(profile.wire.link_latency_ns); }
  SimTime R() const { return lanai::kernel::nanoseconds(profile.wire.switch_latency_ns); }

  std::uint64_t counter(const char* name) const {
    const auto* s = stats.find(name);
    return s ? std::get<lanai::kernel::Counter>(*s).value() : ~0ull;
  }
};

} // namespace wire_test

// Failed checks print times in picoseconds.
namespace doctest {
template <>
struct StringMaker<lanai::kernel::SimTime> {
  static String convert(lanai::kernel::SimTime t) {
    return (std::to_string(t.ps()) + " ps").c_str();
  }
};
} // namespace doctest
