// The NIC's attachment to the fabric, as the network send and receive DMA
// engines see it: one packet sent at a time with a completion when its tail
// has left, and arrivals taken only while the receiver is armed (GO).
#pragma once

#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/wire/link.hpp"
#include "emulator/wire/packet.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace lanai::wire {

enum class SendResult {
  accepted,
  busy,        // the previous packet's tail has not left yet
  empty_route, // an interface cannot deliver to itself
  too_large,   // payload beyond the port's packet buffer
};

std::string_view to_string(SendResult result);

class NetworkPort final : private LinkSender, private LinkReceiver {
public:
  // Stats: <name>.sent, <name>.received, <name>.checksum_errors,
  // <name>.misrouted (arrived with route bytes left; dropped),
  // <name>.refused.
  NetworkPort(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::string name,
              std::uint32_t node, std::size_t max_payload_bytes);
  NetworkPort(const NetworkPort&) = delete;
  NetworkPort& operator=(const NetworkPort&) = delete;

  // Wiring: `tx` leaves this port, `rx` arrives at it.
  void attach(Link& tx, Link& rx);

  const std::string& name() const { return name_; }
  std::uint32_t node() const { return node_; }

  // Answers at once. An accepted packet is stamped with this node, sealed
  // with its CRC and sent; on_send_complete follows exactly once, later,
  // when its tail has left. A refused one changes nothing.
  SendResult start_send(Packet packet);
  bool send_busy() const { return sending_; }
  void set_on_send_complete(std::function<void(std::uint64_t packet_id)> callback) {
    on_send_complete_ = std::move(callback);
  }

  // GO or STOP. While stopped, an arriving packet waits in the link and
  // holds back its senders. A packet already taken is delivered even if
  // the receiver stops while its body streams in: the data are committed.
  void set_receive_ready(bool ready);
  bool receive_ready() const { return ready_; }
  // Called when a packet's tail has arrived, in arrival order.
  void set_on_packet(std::function<void(Packet packet, bool checksum_ok)> callback) {
    on_packet_ = std::move(callback);
  }
  // What the port's events (a head arriving, a packet delivered, a link
  // released) may reach: by default anything; the card that owns the port
  // narrows it to its own processor, the only one they concern.
  void set_reach(kernel::EventReach reach) { reach_ = reach; }

private:
  void on_link_released(Link& link, const Worm& worm) override;
  void on_head_arrived(Link& link, std::shared_ptr<Worm> worm) override;
  kernel::EventReach reach() const override { return reach_; }
  void accept_waiting();
  void deliver(const std::shared_ptr<Worm>& worm);

  kernel::Kernel& kernel_;
  std::string name_;
  std::uint32_t node_;
  std::size_t max_payload_bytes_;
  Link* tx_ = nullptr;
  bool sending_ = false;
  bool ready_ = false;
  // The link serialises packets, so at most one head can be waiting.
  std::shared_ptr<Worm> waiting_;
  std::function<void(std::uint64_t)> on_send_complete_;
  std::function<void(Packet, bool)> on_packet_;
  kernel::EventReach reach_ = kernel::EventReach::anything;
  kernel::Counter& sent_;
  kernel::Counter& received_;
  kernel::Counter& checksum_errors_;
  kernel::Counter& misrouted_;
  kernel::Counter& refused_;
};

} // namespace lanai::wire
