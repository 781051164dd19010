// Building fabrics: creating ports, switches and links and wiring their ends.
#include "emulator/wire/topology.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace lanai::wire {

Link& Network::link(std::string_view name) {
  for (const auto& l : links_)
    if (l->name() == name)
      return *l;
  throw std::out_of_range(fmt::format("lanai::wire: no link named {}", name));
}

std::vector<std::uint8_t> Network::route(std::size_t from, std::size_t to) const {
  if (from >= ports_.size() || to >= ports_.size())
    throw std::out_of_range("lanai::wire: route between unknown nodes");
  if (has_sinks())
    throw std::logic_error("lanai::wire: a fabric of sinks has no routes");
  const std::size_t k = nodes_per_switch_;
  const std::size_t a = from / k;
  const std::size_t b = to / k;
  const auto towards = static_cast<std::uint8_t>(b > a ? k + 1 : k);
  std::vector<std::uint8_t> r(a > b ? a - b : b - a, towards);
  r.push_back(static_cast<std::uint8_t>(to % k));
  return r;
}

Link& Network::add_link(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                        const profile::HardwareProfile& profile, const std::string& name) {
  links_.push_back(
      std::make_unique<Link>(kernel, stats, name, LinkTiming::from_profile(profile.wire)));
  if (profile.faults.any())
    links_.back()->set_faults(std::make_unique<LinkFaults>(profile.faults, name, stats));
  return *links_.back();
}

Network::PortLinks Network::add_port(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                                     const profile::HardwareProfile& profile, std::size_t node) {
  const std::string name = fmt::format("wire.node{}", node);
  ports_.push_back(std::make_unique<NetworkPort>(
      kernel, stats, name, static_cast<std::uint32_t>(node), profile.wire.max_payload_bytes));
  Link& tx = add_link(kernel, stats, profile, name + ".tx");
  Link& rx = add_link(kernel, stats, profile, name + ".rx");
  ports_.back()->attach(tx, rx);
  return {tx, rx};
}

namespace {

// A window naming no link of the fabric is a mistake in the profile, not a
// fault that never happens.
void check_link_down(const Network& net, const profile::FaultParams& faults) {
  for (std::size_t i = 0; i < faults.link_down.size(); ++i) {
    const std::string& name = faults.link_down[i].link;
    bool found = false;
    std::string known;
    for (const auto& l : net.links()) {
      found = found || l->name() == name;
      known += (known.empty() ? "" : ", ") + l->name();
    }
    if (!found)
      throw profile::ProfileError(fmt::format(
          "faults.link_down[{}]: no link named '{}' in this fabric (links: {})", i, name, known));
  }
}

} // namespace

std::unique_ptr<Network> switch_chain(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                                      const profile::HardwareProfile& profile,
                                      std::size_t nodes_per_switch, std::size_t switches) {
  if (nodes_per_switch == 0 || switches == 0)
    throw std::invalid_argument("lanai::wire: a fabric needs at least one switch and node");
  const bool chained = switches > 1;
  const std::size_t ports = nodes_per_switch + (chained ? 2 : 0);
  if (ports > 256)
    throw std::invalid_argument("lanai::wire: too many nodes per switch");

  std::unique_ptr<Network> net(new Network);
  net->nodes_per_switch_ = nodes_per_switch;
  const kernel::SimTime routing = kernel::nanoseconds(profile.wire.switch_latency_ns);

  for (std::size_t s = 0; s < switches; ++s)
    net->switches_.push_back(std::make_unique<CrossbarSwitch>(
        kernel, stats, fmt::format("wire.sw{}", s), ports, routing));

  for (std::size_t n = 0; n < nodes_per_switch * switches; ++n) {
    const Network::PortLinks port = net->add_port(kernel, stats, profile, n);
    CrossbarSwitch& sw = *net->switches_[n / nodes_per_switch];
    sw.attach_input(n % nodes_per_switch, port.tx);
    sw.attach_output(n % nodes_per_switch, port.rx);
  }

  // Port k faces the previous switch, port k + 1 the next one.
  for (std::size_t s = 0; s + 1 < switches; ++s) {
    CrossbarSwitch& left = *net->switches_[s];
    CrossbarSwitch& right = *net->switches_[s + 1];
    Link& up = net->add_link(kernel, stats, profile, fmt::format("wire.sw{}_to_sw{}", s, s + 1));
    Link& down = net->add_link(kernel, stats, profile, fmt::format("wire.sw{}_to_sw{}", s + 1, s));
    left.attach_output(nodes_per_switch + 1, up);
    right.attach_input(nodes_per_switch, up);
    right.attach_output(nodes_per_switch, down);
    left.attach_input(nodes_per_switch + 1, down);
  }
  check_link_down(*net, profile.faults);
  return net;
}

std::unique_ptr<Network> single_switch(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                                       const profile::HardwareProfile& profile,
                                       std::size_t n_nodes) {
  return switch_chain(kernel, stats, profile, n_nodes, 1);
}

std::unique_ptr<Network> sinks(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                               const profile::HardwareProfile& profile, std::size_t n_nodes) {
  if (n_nodes == 0)
    throw std::invalid_argument("lanai::wire: a fabric needs at least one node");
  std::unique_ptr<Network> net(new Network);
  for (std::size_t n = 0; n < n_nodes; ++n) {
    const Network::PortLinks port = net->add_port(kernel, stats, profile, n);
    net->sinks_.push_back(std::make_unique<Sink>(kernel, stats, fmt::format("wire.sink{}", n)));
    port.tx.connect_receiver(*net->sinks_.back());
  }
  check_link_down(*net, profile.faults);
  return net;
}

} // namespace lanai::wire
