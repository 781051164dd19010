// The out-of-band connection service that pairs VIs on two hosts: requests,
// acceptances, rejections and disconnections travel between the hosts as
// messages taking host.connect_ns of virtual time each. One per cluster.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "driver_objects.hpp"
#include "kernel/event_queue.hpp"
#include "kernel/sim_time.hpp"

namespace lanai::vipl {

class Session;

struct NetAddress {
  std::uint32_t node = 0;
  std::vector<std::uint8_t> discriminator;
};

// One end of a connection as the other end learns it.
struct ViSummary {
  std::uint32_t node = 0;
  std::uint32_t slot = 0;
  Token vi = 0;
  VIP_RELIABILITY_LEVEL reliability = 0;
  VIP_ULONG mtu = 0;
  VIP_BOOLEAN rdma_write = VIP_FALSE;
  VIP_BOOLEAN rdma_read = VIP_FALSE;
  std::uint64_t rate = 0; // bytes/s asked for with QoS; 0: best effort
};

enum class RequestState : std::uint8_t {
  travelling, // on its way to the server
  arrived,    // at the server, until a VipConnectWait takes it
  claimed,    // a VipConnectWait has it; waiting for accept or reject
  accepting,  // the acceptance is on its way back
  connected,  // both VIs are connected
  rejected,
  cancelled,  // the requester gave up (its timeout expired)
  failed,     // accepted, but the requester had given up meanwhile
  refused,    // admission control: a rate does not fit a receiver's link
};

struct ConnectRequest {
  std::uint64_t id = 0;
  NetAddress from; // the requester's local address
  NetAddress to;   // the address it asked for
  ViSummary client;
  ViSummary server; // valid from `accepting` on
  RequestState state = RequestState::travelling;
  std::string refusal; // why admission control refused it (state refused)
};

class ConnectionManager {
public:
  explicit ConnectionManager(Session& session);
  ~ConnectionManager();
  ConnectionManager(const ConnectionManager&) = delete;
  ConnectionManager& operator=(const ConnectionManager&) = delete;

  // Sends a request; it arrives at `to.node` after one message time.
  std::shared_ptr<ConnectRequest> request(NetAddress from, NetAddress to, ViSummary client);
  // The oldest arrived request for (node, discriminator), now claimed.
  std::shared_ptr<ConnectRequest> claim(std::uint32_t node,
                                        const std::vector<std::uint8_t>& discriminator);
  bool has_arrival(std::uint32_t node, const std::vector<std::uint8_t>& discriminator) const;
  // Answers a claimed request. On delivery of an acceptance the requester's
  // VI is connected (or the request fails if it was cancelled first).
  void accept(const std::shared_ptr<ConnectRequest>& request, ViSummary server);
  void reject(const std::shared_ptr<ConnectRequest>& request);
  // Admission control refused a claimed request at the server: the
  // requester learns `reason` when the answer arrives.
  void refuse(const std::shared_ptr<ConnectRequest>& request, std::string reason);
  // The requester gives up; an arrived request is withdrawn at once.
  void cancel(const std::shared_ptr<ConnectRequest>& request);
  // Tells the peer VI that its connection is gone.
  void disconnect(std::uint32_t from_node, std::uint32_t from_slot, std::uint32_t to_node,
                  std::uint32_t to_slot);

private:
  kernel::SimTime message_time() const;
  template <class Fn>
  void send(Fn&& deliver);
  void notify(std::uint32_t node);

  Session& session_;
  std::deque<std::shared_ptr<ConnectRequest>> arrivals_;
  // Messages under way, cancelled if the session ends first.
  std::set<std::uint64_t> in_flight_;
  std::uint64_t next_id_ = 1;
};

} // namespace lanai::vipl
