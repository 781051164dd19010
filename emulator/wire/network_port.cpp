// Network port behaviour: split-phase sends, and stop/go reception that
// leaves unaccepted packets in the link instead of dropping them.
#include "emulator/wire/network_port.hpp"

#include <stdexcept>

namespace lanai::wire {

std::string_view to_string(SendResult result) {
  switch (result) {
  case SendResult::accepted:
    return "accepted";
  case SendResult::busy:
    return "busy";
  case SendResult::empty_route:
    return "empty_route";
  case SendResult::too_large:
    return "too_large";
  }
  return "unknown";
}

NetworkPort::NetworkPort(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::string name,
                         std::uint32_t node, std::size_t max_payload_bytes)
    : kernel_(kernel), name_(std::move(name)), node_(node), max_payload_bytes_(max_payload_bytes),
      sent_(stats.counter(name_ + ".sent")), received_(stats.counter(name_ + ".received")),
      checksum_errors_(stats.counter(name_ + ".checksum_errors")),
      misrouted_(stats.counter(name_ + ".misrouted")), refused_(stats.counter(name_ + ".refused")) {
}

void NetworkPort::attach(Link& tx, Link& rx) {
  tx_ = &tx;
  tx.connect_sender(*this);
  rx.connect_receiver(*this);
}

SendResult NetworkPort::start_send(Packet packet) {
  if (!tx_)
    throw std::logic_error("lanai::wire: port " + name_ + " is not attached");
  SendResult result = SendResult::accepted;
  if (sending_)
    result = SendResult::busy;
  else if (packet.route_exhausted())
    result = SendResult::empty_route;
  else if (packet.payload().size() > max_payload_bytes_)
    result = SendResult::too_large;
  if (result != SendResult::accepted) {
    refused_.add();
    return result;
  }
  sending_ = true;
  packet.set_source_node(node_);
  packet.seal();
  // The link answers only through later events, so the completion cannot
  // run inside this call.
  tx_->transmit(std::make_shared<Worm>(std::move(packet)));
  return result;
}

void NetworkPort::on_link_released(Link&, const Worm& worm) {
  sending_ = false;
  sent_.add();
  if (on_send_complete_)
    on_send_complete_(worm.packet().id());
}

void NetworkPort::on_head_arrived(Link&, std::shared_ptr<Worm> worm) {
  if (waiting_)
    throw std::logic_error("lanai::wire: two heads waiting at port " + name_);
  waiting_ = std::move(worm);
  if (ready_)
    accept_waiting();
}

void NetworkPort::set_receive_ready(bool ready) {
  ready_ = ready;
  if (ready_ && waiting_)
    accept_waiting();
}

void NetworkPort::accept_waiting() {
  auto worm = std::move(waiting_);
  waiting_.reset();
  const kernel::SimTime tail = finish_worm(worm, kernel_.now());
  kernel_.schedule_at(
      tail, [this, worm] { deliver(worm); }, "wire.port_deliver", reach_);
}

void NetworkPort::deliver(const std::shared_ptr<Worm>& worm) {
  Packet& packet = worm->packet();
  if (!packet.route_exhausted()) {
    misrouted_.add();
    return;
  }
  const bool ok = packet.checksum_ok();
  if (!ok)
    checksum_errors_.add();
  received_.add();
  if (on_packet_)
    on_packet_(std::move(packet), ok);
}

} // namespace lanai::wire
