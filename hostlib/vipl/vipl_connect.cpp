// Connection set-up and tear-down. In VIA's client-server model the server
// waits for a request to its discriminator and accepts it with a matching
// idle VI; both VIs are connected on their cards before the server's
// accept returns, so no data can reach a peer that is not ready for it.
// The peer-to-peer model (below) pairs two requests the same way.
#include <string>

#include <fmt/format.h>

#include "hostlib/vipl/net_address.hpp"
#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

std::string describe(const std::vector<std::uint8_t>& discriminator) {
  if (discriminator.empty())
    return "none";
  std::string hex;
  for (const std::uint8_t b : discriminator)
    hex += fmt::format("{:02x}", b);
  return hex;
}

VIP_VI_ATTRIBUTES remote_attributes(const ViSummary& vi) {
  VIP_VI_ATTRIBUTES a{};
  a.ReliabilityLevel = vi.reliability;
  a.MaxTransferSize = vi.mtu;
  a.QoS = nullptr;  // the peer's QoS is its own business
  a.Ptag = nullptr; // tags mean nothing on another node
  a.EnableRdmaWrite = vi.rdma_write;
  a.EnableRdmaRead = vi.rdma_read;
  return a;
}

ViSummary summary(const NodeDriver& d, const ViObject& vi) {
  ViSummary s;
  s.node = d.node();
  s.slot = vi.slot;
  s.vi = vi.token;
  s.reliability = vi.attributes.ReliabilityLevel;
  s.mtu = vi.attributes.MaxTransferSize;
  s.rdma_write = vi.attributes.EnableRdmaWrite;
  s.rdma_read = vi.attributes.EnableRdmaRead;
  s.rate = vi.attributes.QoS ? vi.attributes.QoS->BandwidthBytesPerSec : 0;
  s.flow_control = vi.flow_control;
  return s;
}

// What a connection request (either model) must be: a VI of this node,
// idle, asking from an address of this node for another node in the
// network.
VIP_RETURN check_request(NodeDriver& d, const ViObject* vi, VIP_NET_ADDRESS* local_address,
                         VIP_NET_ADDRESS* remote_address, NetAddress& local, NetAddress& remote) {
  if (!vi || !read_address(local_address, local) || local.node != d.node() ||
      !read_address(remote_address, remote))
    return VIP_INVALID_PARAMETER;
  // A card cannot send to itself (empty route), so neither can its VIs.
  if (remote.node >= d.nodes() || remote.node == d.node())
    return VIP_NOT_REACHABLE;
  if (vi->state != VIP_STATE_IDLE)
    return VIP_INVALID_STATE;
  return VIP_SUCCESS;
}

} // namespace

VIP_RETURN VipConnectWait(VIP_NIC_HANDLE NicHandle, VIP_NET_ADDRESS* LocalAddr, VIP_ULONG Timeout,
                          VIP_NET_ADDRESS* RemoteAddr, VIP_VI_ATTRIBUTES* RemoteViAttribs,
                          VIP_CONN_HANDLE* ConnHandle) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    NetAddress local;
    if (!nic || !RemoteAddr || !RemoteViAttribs || !ConnHandle || !read_address(LocalAddr, local) ||
        local.node != d.node())
      return VIP_INVALID_PARAMETER;
    const Token nic_token = nic->token;
    ConnectionManager& manager = d.session().connections();
    const bool arrived =
        d.block([&] { return manager.has_arrival(local.node, local.discriminator); },
                d.deadline_after(Timeout),
                fmt::format("VipConnectWait(discriminator {})", describe(local.discriminator)));
    if (!arrived)
      return VIP_TIMEOUT;
    // An error callback run during the wait may have closed the NIC.
    if (!d.nics.find_token(nic_token))
      return VIP_INVALID_PARAMETER;
    ConnObject& conn = d.conns.add(d.mint(HandleKind::conn));
    conn.nic = nic_token;
    conn.request = manager.claim(local.node, local.discriminator);
    write_address(RemoteAddr, conn.request->from);
    *RemoteViAttribs = remote_attributes(conn.request->client);
    *ConnHandle = handle_of(conn.token);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipConnectAccept(VIP_CONN_HANDLE ConnHandle, VIP_VI_HANDLE ViHandle) {
  return vipl_call([&](NodeDriver& d) {
    ConnObject* conn = d.conns.find(ConnHandle);
    ViObject* vi = d.vis.find(ViHandle);
    if (!conn || !vi || vi->nic != conn->nic)
      return VIP_INVALID_PARAMETER;
    const std::shared_ptr<ConnectRequest> request = conn->request;
    if (request->state == RequestState::cancelled) {
      d.conns.erase(conn->token);
      return VIP_TIMEOUT;
    }
    if (vi->state != VIP_STATE_IDLE)
      return VIP_INVALID_STATE;
    if (vi->attributes.ReliabilityLevel != request->client.reliability)
      return VIP_INVALID_RELIABILITY_LEVEL;
    if (vi->attributes.MaxTransferSize != request->client.mtu)
      return VIP_INVALID_MTU;
    if (vi->flow_control != request->client.flow_control) {
      d.set_last_error(flow_control_mismatch(d.node()));
      return VIP_INVALID_PARAMETER;
    }
    d.conns.erase(conn->token);
    // Admission control, this side's half: the client's sends arrive on
    // this node's incoming link. A refusal answers the request (the client
    // gets VIP_INVALID_QOS too) and leaves this VI idle.
    if (d.admission_on()) {
      if (!d.reserve(true, request->client.rate)) {
        d.session().connections().refuse(request, d.last_error());
        return VIP_INVALID_QOS;
      }
      vi->rx_reserved = request->client.rate;
    }

    const Token vi_token = vi->token;
    d.charge(3 * d.costs().pio_write_ns);
    d.set_peer(*vi, request->client.node, request->client.slot);
    d.session().connections().accept(request, summary(d, *vi));

    const auto decided = [&] {
      return request->state == RequestState::connected || request->state == RequestState::failed ||
             request->state == RequestState::refused;
    };
    const auto delivered_by =
        d.session().cluster().kernel().now() + lanai::kernel::nanoseconds(d.costs().connect_ns);
    d.block(decided, delivered_by, fmt::format("VipConnectAccept(vi {})", vi->slot));
    if (request->state == RequestState::connected)
      return VIP_SUCCESS;
    // The requester gave up before the acceptance reached it, or its
    // incoming link has no room for this VI's rate.
    if (ViObject* again = d.vis.find_token(vi_token);
        again && again->state == VIP_STATE_CONNECTED) {
      again->state = VIP_STATE_IDLE;
      d.release_incoming(*again);
      d.charge(d.costs().pio_write_ns);
      d.config().write_vi_state(again->slot, VIA_VI_IDLE);
    }
    if (request->state == RequestState::refused) {
      d.set_last_error(request->refusal);
      return VIP_INVALID_QOS;
    }
    return VIP_TIMEOUT;
  });
}

VIP_RETURN VipConnectReject(VIP_CONN_HANDLE ConnHandle) {
  return vipl_call([&](NodeDriver& d) {
    ConnObject* conn = d.conns.find(ConnHandle);
    if (!conn)
      return VIP_INVALID_PARAMETER;
    d.session().connections().reject(conn->request);
    d.conns.erase(conn->token);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipConnectRequest(VIP_VI_HANDLE ViHandle, VIP_NET_ADDRESS* LocalAddr,
                             VIP_NET_ADDRESS* RemoteAddr, VIP_ULONG Timeout,
                             VIP_VI_ATTRIBUTES* RemoteViAttribs) {
  return vipl_call([&](NodeDriver& d) {
    ViObject* vi = d.vis.find(ViHandle);
    NetAddress local;
    NetAddress remote;
    if (const VIP_RETURN r = check_request(d, vi, LocalAddr, RemoteAddr, local, remote);
        r != VIP_SUCCESS)
      return r;

    const Token vi_token = vi->token;
    const std::uint32_t slot = vi->slot;
    ConnectionManager& manager = d.session().connections();
    const std::shared_ptr<ConnectRequest> request = manager.request(local, remote, summary(d, *vi));
    vi->state = VIP_STATE_CONNECT_PENDING;
    vi->pending = request;
    d.block(
        [&] {
          return request->state == RequestState::connected ||
                 request->state == RequestState::rejected ||
                 request->state == RequestState::refused;
        },
        d.deadline_after(Timeout),
        fmt::format("VipConnectRequest(vi {}, node {})", slot, remote.node));

    vi = d.vis.find_token(vi_token);
    if (!vi) {
      // The NIC was closed from an error callback meanwhile.
      manager.cancel(request);
      return VIP_INVALID_STATE;
    }
    vi->pending.reset();
    switch (request->state) {
    case RequestState::connected:
      if (RemoteViAttribs)
        *RemoteViAttribs = remote_attributes(request->server);
      return VIP_SUCCESS;
    case RequestState::rejected:
      vi->state = VIP_STATE_IDLE;
      return VIP_REJECT;
    case RequestState::refused:
      vi->state = VIP_STATE_IDLE;
      d.set_last_error(request->refusal);
      return VIP_INVALID_QOS;
    default:
      manager.cancel(request);
      vi->state = VIP_STATE_IDLE;
      return VIP_TIMEOUT;
    }
  });
}

namespace {
// How long VipDisconnect waits for the card to send what is posted (virtual ms).
constexpr VIP_ULONG kDisconnectDrainMs = 10;
} // namespace

VIP_RETURN VipDisconnect(VIP_VI_HANDLE ViHandle) {
  return vipl_call([&](NodeDriver& d) {
    ViObject* vi = d.vis.find(ViHandle);
    if (!vi)
      return VIP_INVALID_PARAMETER;
    if (vi->state != VIP_STATE_CONNECTED && vi->state != VIP_STATE_ERROR)
      return VIP_INVALID_STATE;
    // Ordered after what is posted: a connected VI's sends leave the card
    // (and complete) before the connection goes, unless it breaks first or
    // the card has not sent them within kDisconnectDrainMs (they are then
    // flushed).
    if (vi->state == VIP_STATE_CONNECTED) {
      const Token token = vi->token;
      const auto sent = [&] {
        const ViObject* now = d.vis.find_token(token);
        if (!now || now->state != VIP_STATE_CONNECTED)
          return true;
        for (const VIP_DESCRIPTOR* descriptor : now->send.posted)
          if (!(read_status(descriptor) & VIP_STATUS_DONE))
            return false;
        return true;
      };
      d.block(sent, d.deadline_after(kDisconnectDrainMs),
              fmt::format("VipDisconnect(vi {})", vi->slot));
      vi = d.vis.find_token(token);
      if (!vi || (vi->state != VIP_STATE_CONNECTED && vi->state != VIP_STATE_ERROR))
        return VIP_INVALID_STATE;
    }
    d.disconnect(*vi);
    return VIP_SUCCESS;
  });
}

// --- Peer-to-peer connections ------------------------------------------------
// Both ends ask for each other with VipConnectPeerRequest (it returns at
// once) and learn the outcome with VipConnectPeerDone (a look) or
// VipConnectPeerWait (blocks). The end that learns of both requests first
// accepts the other's as a server would (attributes, admission control);
// the request's timeout bounds the wait for the other end to ask.

namespace {

// This side's VI goes back to idle after a peer connection failed: a side
// that had matched and connected its VI undoes that.
void peer_failed(NodeDriver& d, ViObject& vi) {
  if (vi.state == VIP_STATE_CONNECTED) {
    d.release_incoming(vi);
    d.charge(d.costs().pio_write_ns);
    d.config().write_vi_state(vi.slot, VIA_VI_IDLE);
  }
  vi.state = VIP_STATE_IDLE;
  vi.pending.reset();
}

// Where a peer request stands on this side: a side that matched waits for
// its acceptance to be delivered, the other side for its own request to be
// answered.
RequestState peer_state(const ConnectRequest& request) {
  if (request.accepted && request.state == RequestState::accepting)
    return request.accepted->state;
  return request.state;
}

bool peer_decided(const ConnectRequest& request) {
  switch (peer_state(request)) {
  case RequestState::connected:
  case RequestState::rejected:
  case RequestState::refused:
  case RequestState::failed:
  case RequestState::cancelled:
    return true;
  default:
    return false;
  }
}

// The outcome of the VI's peer request so far: VIP_NOT_DONE while it is
// undecided, else what VipConnectPeerDone returns (the VI is connected, or
// idle again).
VIP_RETURN peer_outcome(NodeDriver& d, ViObject& vi, VIP_VI_ATTRIBUTES* remote) {
  const std::shared_ptr<ConnectRequest> request = vi.pending;
  switch (peer_state(*request)) {
  case RequestState::connected:
    if (remote)
      *remote = remote_attributes(request->server);
    request->state = RequestState::connected;
    vi.pending.reset();
    return VIP_SUCCESS;
  case RequestState::rejected:
    peer_failed(d, vi);
    return request->rejection;
  case RequestState::refused: {
    const std::string& why = request->refusal.empty() && request->accepted
                                 ? request->accepted->refusal
                                 : request->refusal;
    d.set_last_error(why);
    peer_failed(d, vi);
    return VIP_INVALID_QOS;
  }
  case RequestState::failed:
  case RequestState::cancelled:
    peer_failed(d, vi);
    return VIP_TIMEOUT;
  default:
    break;
  }
  // Not matched yet and out of time: the request is withdrawn.
  const bool unmatched =
      request->state == RequestState::travelling || request->state == RequestState::arrived;
  if (unmatched && request->deadline &&
      d.session().cluster().kernel().now() >= *request->deadline) {
    d.session().connections().cancel(request);
    peer_failed(d, vi);
    return VIP_TIMEOUT;
  }
  return VIP_NOT_DONE;
}

// The VI of a pending peer request, or nullptr.
ViObject* peer_pending(NodeDriver& d, VIP_VI_HANDLE handle) {
  ViObject* vi = d.vis.find(handle);
  return vi && vi->pending && vi->pending->peer ? vi : nullptr;
}

} // namespace

VIP_RETURN VipConnectPeerRequest(VIP_VI_HANDLE ViHandle, VIP_NET_ADDRESS* LocalAddr,
                                 VIP_NET_ADDRESS* RemoteAddr, VIP_ULONG Timeout) {
  return vipl_call([&](NodeDriver& d) {
    ViObject* vi = d.vis.find(ViHandle);
    NetAddress local;
    NetAddress remote;
    if (const VIP_RETURN r = check_request(d, vi, LocalAddr, RemoteAddr, local, remote);
        r != VIP_SUCCESS)
      return r;
    ConnectionManager& manager = d.session().connections();
    const std::shared_ptr<ConnectRequest> request =
        manager.peer_request(local, remote, summary(d, *vi));
    request->deadline = d.deadline_after(Timeout);
    vi->state = VIP_STATE_CONNECT_PENDING;
    vi->pending = request;
    manager.start_peer(request);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipConnectPeerDone(VIP_VI_HANDLE ViHandle, VIP_VI_ATTRIBUTES* RemoteViAttribs) {
  return vipl_call([&](NodeDriver& d) {
    ViObject* vi = peer_pending(d, ViHandle);
    if (!vi)
      return d.vis.find(ViHandle) ? VIP_INVALID_STATE : VIP_INVALID_PARAMETER;
    d.charge(d.costs().poll_ns);
    return peer_outcome(d, *vi, RemoteViAttribs);
  });
}

VIP_RETURN VipConnectPeerWait(VIP_VI_HANDLE ViHandle, VIP_VI_ATTRIBUTES* RemoteViAttribs) {
  return vipl_call([&](NodeDriver& d) {
    ViObject* vi = peer_pending(d, ViHandle);
    if (!vi)
      return d.vis.find(ViHandle) ? VIP_INVALID_STATE : VIP_INVALID_PARAMETER;
    const Token token = vi->token;
    const std::uint32_t slot = vi->slot;
    for (;;) {
      const std::shared_ptr<ConnectRequest> request = vi->pending;
      // Until decided, or until the deadline while nobody has matched.
      d.block(
          [&] {
            ViObject* now = d.vis.find_token(token);
            return !now || !now->pending || peer_decided(*now->pending);
          },
          request->state == RequestState::travelling || request->state == RequestState::arrived
              ? request->deadline
              : std::nullopt,
          fmt::format("VipConnectPeerWait(vi {}, node {})", slot, request->to.node));
      vi = d.vis.find_token(token);
      // An error callback may have closed the NIC meanwhile.
      if (!vi || !vi->pending)
        return VIP_INVALID_STATE;
      const VIP_RETURN result = peer_outcome(d, *vi, RemoteViAttribs);
      if (result != VIP_NOT_DONE)
        return result;
    }
  });
}
