// The out-of-band connection service that pairs VIs on two hosts: requests,
// acceptances, rejections and disconnections travel between the hosts as
// messages taking host.connect_ns of virtual time each. One per cluster.
// Two models: client-server (a request waits at the server for a
// VipConnectWait and an accept) and peer-to-peer (both ends ask for each
// other; the end that learns of both requests first accepts the other's,
// as a server would).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "hostlib/driver/driver_objects.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/sim_time.hpp"

namespace lanai::vipl {

class Session;

struct NetAddress {
  std::uint32_t node = 0;
  std::vector<std::uint8_t> discriminator;

  bool operator==(const NetAddress&) const = default;
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
  bool flow_control = false;
};

enum class RequestState : std::uint8_t {
  travelling, // on its way to the server
  arrived,    // at the server, until a VipConnectWait takes it
  claimed,    // a VipConnectWait has it; waiting for accept or reject
  accepting,  // the acceptance is on its way back
  connected,  // both VIs are connected
  rejected,
  cancelled, // the requester gave up (its timeout expired)
  failed,    // accepted, but the requester had given up meanwhile
  refused,   // admission control: a rate does not fit a receiver's link
};

struct ConnectRequest {
  std::uint64_t id = 0;
  NetAddress from; // the requester's local address
  NetAddress to;   // the address it asked for
  ViSummary client;
  ViSummary server; // valid from `accepting` on
  RequestState state = RequestState::travelling;
  std::string refusal; // why admission control refused it (state refused)
  // Peer-to-peer requests only.
  bool peer = false;
  // The other end's request, once this end has matched and accepted it:
  // this end's outcome is that request's.
  std::shared_ptr<ConnectRequest> accepted;
  // When the requester gives up, if it is not matched by then.
  std::optional<kernel::SimTime> deadline;
  // Why a matched request was turned down when its state is rejected
  // (VIP_INVALID_RELIABILITY_LEVEL, VIP_INVALID_MTU); VIP_REJECT otherwise.
  VIP_RETURN rejection = VIP_REJECT;
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
  // Rejects with a reason the requester's call returns.
  void reject(const std::shared_ptr<ConnectRequest>& request, VIP_RETURN why);
  // Admission control refused a claimed request at the server: the
  // requester learns `reason` when the answer arrives.
  void refuse(const std::shared_ptr<ConnectRequest>& request, std::string reason);
  // The requester gives up; an arrived request is withdrawn at once.
  void cancel(const std::shared_ptr<ConnectRequest>& request);
  // Peer-to-peer: `client` asks for the VI at `to`, which asks for `from`
  // in turn. The first end to know of both requests matches them (at once
  // if the other's request is already here, else when it arrives) through
  // its driver's peer_matched().
  // Made first, so that the VI can hold it before it is matched (which
  // may happen at once, in start_peer()).
  std::shared_ptr<ConnectRequest> peer_request(NetAddress from, NetAddress to, ViSummary client);
  void start_peer(const std::shared_ptr<ConnectRequest>& request);
  // Tells the peer VI that its connection is gone after `messages` sent on
  // it. The peer's driver takes it once that many have arrived, looking
  // again after each further exchange time, up to kDisconnectLooks times.
  void disconnect(std::uint32_t from_node, std::uint32_t from_slot, std::uint32_t to_node,
                  std::uint32_t to_slot, std::uint64_t messages);
  static constexpr int kDisconnectLooks = 100;

private:
  kernel::SimTime message_time() const;
  template <class Fn>
  void send(Fn&& deliver);
  void deliver_disconnect(std::uint32_t from_node, std::uint32_t from_slot, std::uint32_t to_node,
                          std::uint32_t to_slot, std::uint64_t messages, int looks);
  void notify(std::uint32_t node);

  Session& session_;
  std::shared_ptr<ConnectRequest> make_request(NetAddress from, NetAddress to, ViSummary client);
  void peer_match(const std::shared_ptr<ConnectRequest>& mine,
                  const std::shared_ptr<ConnectRequest>& theirs);

  std::deque<std::shared_ptr<ConnectRequest>> arrivals_;
  // Peer requests not yet matched (travelling, or arrived and waiting for
  // the other end to ask), in the order they were made.
  std::vector<std::shared_ptr<ConnectRequest>> peers_;
  // Messages under way, cancelled if the session ends first.
  std::set<kernel::EventId> in_flight_;
  std::uint64_t next_id_ = 1;
};

} // namespace lanai::vipl
