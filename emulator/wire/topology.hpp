// Ready-made fabrics built from the hardware profile: every node on one
// crossbar switch (the default), or a chain of switches for multi-hop routes,
// with the source route from any node to any other; or every node's port
// sending into a sink of its own, for a model of the send side alone.
#pragma once

#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/wire/crossbar_switch.hpp"
#include "emulator/wire/link.hpp"
#include "emulator/wire/network_port.hpp"
#include "emulator/wire/sink.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lanai::wire {

class Network {
public:
  std::size_t node_count() const { return ports_.size(); }
  NetworkPort& port(std::size_t node) { return *ports_.at(node); }
  std::size_t switch_count() const { return switches_.size(); }
  CrossbarSwitch& switch_at(std::size_t index) { return *switches_.at(index); }
  // Links in creation order; find one by its statistics name.
  const std::vector<std::unique_ptr<Link>>& links() const { return links_; }
  Link& link(std::string_view name);
  // A fabric of sinks has one per node, and no switch and no route.
  bool has_sinks() const { return !sinks_.empty(); }

  // Output-port bytes leading from node `from` to node `to`, first hop
  // first. Throws std::out_of_range for an unknown node, and
  // std::logic_error in a fabric of sinks.
  std::vector<std::uint8_t> route(std::size_t from, std::size_t to) const;

private:
  friend std::unique_ptr<Network> switch_chain(kernel::Kernel&, kernel::StatsRegistry&,
                                               const profile::HardwareProfile&, std::size_t,
                                               std::size_t);
  friend std::unique_ptr<Network> sinks(kernel::Kernel&, kernel::StatsRegistry&,
                                        const profile::HardwareProfile&, std::size_t);
  Network() = default;
  // A link, with the profile's line faults if it has any.
  Link& add_link(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                 const profile::HardwareProfile& profile, const std::string& name);
  // Node `node`'s port "wire.node<node>" with its links ".tx" and ".rx".
  struct PortLinks {
    Link& tx;
    Link& rx;
  };
  PortLinks add_port(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                     const profile::HardwareProfile& profile, std::size_t node);

  std::size_t nodes_per_switch_ = 0;
  std::vector<std::unique_ptr<Link>> links_;
  std::vector<std::unique_ptr<CrossbarSwitch>> switches_;
  std::vector<std::unique_ptr<NetworkPort>> ports_;
  std::vector<std::unique_ptr<Sink>> sinks_;
};

// `switches` switches in a line. Switch s has its nodes on ports
// 0..nodes_per_switch-1, then a port towards switch s-1 and one towards
// s+1 (left unconnected at the ends). Node n sits on switch n / nodes_per_switch.
// Names: node n's port "wire.node<n>", its links "wire.node<n>.tx" and
// ".rx", switches "wire.sw<s>", inter-switch links "wire.sw<a>_to_sw<b>".
std::unique_ptr<Network> switch_chain(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                                      const profile::HardwareProfile& profile,
                                      std::size_t nodes_per_switch, std::size_t switches);

// The default fabric: n_nodes nodes on one switch of n_nodes ports.
std::unique_ptr<Network> single_switch(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                                       const profile::HardwareProfile& profile,
                                       std::size_t n_nodes);

// n_nodes nodes, each sending into a sink of its own ("wire.sink<n>") that
// takes every packet as its head arrives: a packet sent leaves, and none
// ever arrives. Names: node n's port "wire.node<n>", its links
// "wire.node<n>.tx" and ".rx" (the latter never carries anything).
std::unique_ptr<Network> sinks(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                               const profile::HardwareProfile& profile, std::size_t n_nodes);

} // namespace lanai::wire
