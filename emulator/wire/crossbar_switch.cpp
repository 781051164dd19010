// Crossbar switch behaviour: route decoding, output arbitration in a fixed
// round-robin order, cut-through forwarding and dropping of bad routes.
#include "emulator/wire/crossbar_switch.hpp"

#include <stdexcept>

namespace lanai::wire {

using kernel::SimTime;

CrossbarSwitch::CrossbarSwitch(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
                               std::string name, std::size_t ports, SimTime routing_latency)
    : kernel_(kernel), name_(std::move(name)), routing_latency_(routing_latency), inputs_(ports),
      outputs_(ports), forwarded_(stats.counter(name_ + ".forwarded")),
      bad_route_(stats.counter(name_ + ".bad_route")),
      blocked_ps_(stats.counter(name_ + ".blocked_ps")),
      blocked_inputs_(stats.time_weighted(name_ + ".blocked_inputs")) {
  if (ports == 0 || ports > 256)
    throw std::invalid_argument("lanai::wire: a switch has 1 to 256 ports");
  for (std::size_t p = 0; p < ports; ++p) {
    inputs_[p].owner = this;
    inputs_[p].index = p;
    outputs_[p].owner = this;
    outputs_[p].index = p;
    // So that the first grant goes to input 0.
    outputs_[p].last_granted = ports - 1;
  }
}

void CrossbarSwitch::attach_input(std::size_t port, Link& link) {
  link.connect_receiver(inputs_.at(port));
}

void CrossbarSwitch::attach_output(std::size_t port, Link& link) {
  link.connect_sender(outputs_.at(port));
  outputs_.at(port).link = &link;
}

void CrossbarSwitch::Input::on_head_arrived(Link& link, std::shared_ptr<Worm> worm) {
  if (state != InputState::idle)
    throw std::logic_error("lanai::wire: two heads at once in " + link.name());
  current = std::move(worm);
  owner->start_routing(*this);
}

void CrossbarSwitch::start_routing(Input& in) {
  Packet& packet = in.current->packet();
  const bool exhausted = packet.route_exhausted();
  const std::size_t port = exhausted ? 0 : packet.consume_route_byte();
  if (exhausted || port >= outputs_.size() || outputs_[port].link == nullptr) {
    // A wiring or routing-table mistake, not congestion: the packet is
    // swallowed here so that it cannot wedge the fabric.
    bad_route_.add();
    finish_worm(in.current, kernel_.now());
    in.current.reset();
    in.state = InputState::idle;
    return;
  }
  in.state = InputState::routing;
  in.wanted = port;
  kernel_.schedule_in(
      routing_latency_, [this, &in] { route_decided(in); }, "wire.switch_route",
      kernel::EventReach::not_processors);
}

void CrossbarSwitch::route_decided(Input& in) {
  in.state = InputState::waiting;
  in.waiting_since = kernel_.now();
  blocked_inputs_.add(kernel_.now(), 1.0);
  request_arbitration(outputs_[in.wanted]);
}

// Deciding in a separate event lets every request made at the same instant
// compete, so the winner comes from the round-robin order and not from
// which request happened to be scheduled first.
void CrossbarSwitch::request_arbitration(Output& out) {
  if (out.arbitration_pending || out.busy)
    return;
  out.arbitration_pending = true;
  kernel_.schedule_in(
      SimTime::zero(), [this, &out] { arbitrate(out); }, "wire.switch_arbitrate",
      kernel::EventReach::not_processors);
}

void CrossbarSwitch::arbitrate(Output& out) {
  out.arbitration_pending = false;
  if (out.busy)
    return;
  const std::size_t n = inputs_.size();
  for (std::size_t k = 1; k <= n; ++k) {
    Input& in = inputs_[(out.last_granted + k) % n];
    if (in.state != InputState::waiting || in.wanted != out.index)
      continue;
    out.busy = true;
    out.last_granted = in.index;
    in.state = InputState::idle;
    const SimTime now = kernel_.now();
    blocked_ps_.add(static_cast<std::uint64_t>((now - in.waiting_since).ps()));
    blocked_inputs_.add(now, -1.0);
    // The routing delay was spent in the input's slack buffer; only the
    // wait beyond it stalled the incoming link.
    in.current->last_hop().accepted = now - routing_latency_;
    forwarded_.add();
    out.link->transmit(std::move(in.current));
    return;
  }
}

void CrossbarSwitch::Output::on_link_released(Link&, const Worm&) {
  busy = false;
  owner->request_arbitration(*this);
}

} // namespace lanai::wire
