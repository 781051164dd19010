// The per-node driver's bookkeeping: handle tokens, the configuration
// block, host time charged for library work, and matching the NIC's writes
// into host memory against the descriptors still posted, so completion
// queues fill in the order the NIC completed descriptors.
#include "hostlib/driver/node_driver.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include <fmt/format.h>

#include "hostlib/driver/connection_manager.hpp"
#include "hostlib/driver/session.hpp"

namespace lanai::vipl {

std::uint64_t status_address(const VIP_DESCRIPTOR* descriptor) {
  return reinterpret_cast<std::uintptr_t>(&descriptor->CS.Status);
}

std::uint32_t read_status(const VIP_DESCRIPTOR* descriptor) {
  // The NIC writes host memory behind the program's back.
  return *reinterpret_cast<const volatile VIP_UINT32*>(&descriptor->CS.Status);
}

namespace {

void write_status(VIP_DESCRIPTOR* descriptor, std::uint32_t status) {
  *reinterpret_cast<volatile VIP_UINT32*>(&descriptor->CS.Status) = status;
}

} // namespace

NodeDriver::NodeDriver(Session& session, std::uint32_t node)
    : nics(node, foreign_handle_), ptags(node, foreign_handle_), vis(node, foreign_handle_),
      cqs(node, foreign_handle_), conns(node, foreign_handle_), session_(session), node_(node),
      host_(session.cluster().host(node)), card_(session.cluster().card(node)),
      protection_(session.cluster().protection(node)), profile_(session.cluster().profile()) {
  address_ = {static_cast<std::uint8_t>(node >> 8), static_cast<std::uint8_t>(node)};
  card_.set_on_host_write(
      [this](std::uint64_t address, std::uint32_t length) { on_host_write(address, length); });
  card_.set_on_host_interrupt([this](std::uint32_t word) { on_interrupt(word); });
}

NodeDriver::~NodeDriver() {
  host::HostCpu* host = &host_;
  card_.set_on_host_write([host](std::uint64_t, std::uint32_t) { host->notify(); });
  card_.set_on_host_interrupt(nullptr);
}

std::size_t NodeDriver::nodes() const { return session_.cluster().size(); }

Token NodeDriver::mint(HandleKind kind) {
  // Node in the high bits keeps tokens of different nodes apart; the low
  // bits say the kind, which helps when one shows up in a debugger.
  return (Token{node_ + 1} << 40) | (Token{next_serial_++} << 4) | static_cast<Token>(kind);
}

long NodeDriver::take_foreign_handle() { return std::exchange(foreign_handle_, -1); }

bool NodeDriver::configure_nic() {
  if (config_)
    return true;
  if (!card_.has_symbol(VIA_CONFIG_SYMBOL))
    return false;
  std::vector<std::vector<std::uint8_t>> routes;
  for (std::size_t n = 0; n < nodes(); ++n) {
    if (n == node_)
      routes.emplace_back();
    else
      routes.push_back(session_.cluster().network().route(node_, n));
  }
  charge(NicConfig::network_words * costs().pio_write_ns);
  config_.emplace(card_);
  const auto clock_khz =
      static_cast<std::uint32_t>(std::llround(profile().lanai.clock_mhz * 1000.0));
  const auto retransmit_cycles = static_cast<std::uint32_t>(std::min<double>(
      0xFFFFFFFFu, std::llround(profile().nic.retransmit_timeout_us * profile().lanai.clock_mhz)));
  config_->write_network(node_, clock_khz, routes, retransmit_cycles, profile().nic.retry_limit);
  return true;
}

std::uint32_t NodeDriver::firmware_features() const {
  if (!card_.has_symbol(VIA_FEATURES_SYMBOL))
    return 0;
  return card_.read_sram_word(card_.symbol(VIA_FEATURES_SYMBOL));
}

void NodeDriver::fill_fragmentation(const ViObject& vi, via_vi_config& entry) {
  entry.frag_policy = vi.fragmentation.policy;
  // Unfragmented, every message is within the smallest fragment.
  entry.frag_bytes =
      vi.fragmentation.policy == VIA_FRAG_NONE ? 0xFFFFFFFFu : vi.fragmentation.bytes;
  for (std::size_t i = 0; i < 4; ++i)
    entry.frag_param[i] = vi.fragmentation.param[i];
}

void NodeDriver::write_fragmentation(const ViObject& vi) {
  via_vi_config entry{};
  fill_fragmentation(vi, entry);
  charge(NicConfig::fragmentation_words * costs().pio_write_ns);
  config_->write_vi_fragmentation(vi.slot, entry);
}

void NodeDriver::write_vi(const ViObject& vi, std::uint32_t state) {
  via_vi_config entry{};
  entry.state = state;
  entry.ptag = 0;
  if (const PtagObject* ptag = ptags.find(vi.attributes.Ptag))
    entry.ptag = ptag->number;
  entry.reliability = static_cast<std::uint32_t>(vi.attributes.ReliabilityLevel);
  entry.access = (vi.attributes.EnableRdmaWrite ? VIA_ACCESS_RDMA_WRITE : 0u) |
                 (vi.attributes.EnableRdmaRead ? VIA_ACCESS_RDMA_READ : 0u);
  entry.mtu = static_cast<std::uint32_t>(vi.attributes.MaxTransferSize);
  entry.remote_node = vi.remote_node;
  entry.remote_vi = vi.remote_slot;
  entry.vtick_lo = static_cast<std::uint32_t>(vi.vtick);
  entry.vtick_hi = static_cast<std::uint32_t>(vi.vtick >> 32);
  fill_fragmentation(vi, entry);
  charge(NicConfig::vi_words * costs().pio_write_ns);
  config_->write_vi(vi.slot, entry);
}

void NodeDriver::charge(std::uint32_t ns) {
  if (host::HostCpu::current() != &host_)
    return;
  // Even a call that costs nothing pays what the program's polls owe
  // (HostCpu::look) before it acts at the kernel's time.
  host_.compute(kernel::nanoseconds(ns));
}

void NodeDriver::charge_look(std::uint32_t ns) {
  if (ns == 0 || host::HostCpu::current() != &host_)
    return;
  host_.look(kernel::nanoseconds(ns));
}

std::optional<kernel::SimTime> NodeDriver::deadline_after(VIP_ULONG timeout_ms) const {
  constexpr VIP_ULONG longest_ms = 1'000'000'000;
  if (timeout_ms == VIP_INFINITE || timeout_ms >= longest_ms)
    return std::nullopt;
  return session_.cluster().kernel().now() +
         kernel::milliseconds(static_cast<std::int64_t>(timeout_ms));
}

bool NodeDriver::block(const std::function<bool()>& ready, std::optional<kernel::SimTime> deadline,
                       const std::string& what) {
  const kernel::SimTime poll = kernel::nanoseconds(costs().poll_ns);
  for (;;) {
    // Inside an error callback, further errors wait for the next call.
    const bool woke = host_.wait(
        [&] { return (!delivering_ && (!errors_.empty() || notification_ready())) || ready(); },
        deadline, what, poll);
    // What the wait was for comes first: an error raised after it (the
    // peer disconnecting once its last message is here) goes to the
    // program at its next call, after it has taken that message.
    if (ready())
      return true;
    deliver_errors();
    deliver_notifications();
    if (ready())
      return true;
    if (!woke)
      return false;
  }
}

void NodeDriver::track(const ViObject& vi, bool receive, VIP_DESCRIPTOR* descriptor) {
  tracked_[status_address(descriptor)] = Tracked{vi.token, receive, false};
}

bool NodeDriver::tracked(const VIP_DESCRIPTOR* descriptor) const {
  return tracked_.contains(status_address(descriptor));
}

void NodeDriver::untrack(const VIP_DESCRIPTOR* descriptor) {
  tracked_.erase(status_address(descriptor));
}

void NodeDriver::on_host_write(std::uint64_t address, std::uint32_t length) {
  // A write touching any byte of a Status word may complete its descriptor.
  const std::uint64_t first = address >= 3 ? address - 3 : 0;
  const std::uint64_t end = address + length;
  for (auto it = tracked_.lower_bound(first); it != tracked_.end() && it->first < end; ++it) {
    if (it->second.reported)
      continue;
    const auto* status = reinterpret_cast<const volatile VIP_UINT32*>(it->first);
    if (*status & VIP_STATUS_DONE)
      completed(it->second, *reinterpret_cast<const VIP_DESCRIPTOR*>(
                                it->first - offsetof(VIP_DESCRIPTOR, CS.Status)));
  }
  host_.notify();
}

void NodeDriver::completed(Tracked& entry, const VIP_DESCRIPTOR& descriptor) {
  entry.reported = true;
  ViObject* vi = vis.find_token(entry.vi);
  if (!vi)
    return;
  count_message(*vi, entry.receive, descriptor);
  const Token cq_token = vi->queue(entry.receive).cq;
  CqObject* cq = cqs.find_token(cq_token);
  if (!cq)
    return;
  if (cq->entries.size() >= cq->capacity) {
    raise(PendingError{cq->nic, vi->token, cq->token, VIP_RESOURCE_CQ, VIP_ERROR_CATASTROPHIC});
    return;
  }
  cq->entries.emplace_back(vi->token, entry.receive);
}

void NodeDriver::count_message(ViObject& vi, bool receive, const VIP_DESCRIPTOR& descriptor) {
  const VIP_UINT32 status = read_status(&descriptor);
  if (receive) {
    if (!(status & VIP_STATUS_DESC_FLUSHED_ERROR))
      ++vi.messages_in;
    return;
  }
  // A send that failed may have put nothing on the wire; an RDMA write
  // without immediate data, and an RDMA read, consume no receive at the peer.
  const VIP_UINT16 op = descriptor.CS.Control & VIP_CONTROL_OP_MASK;
  const bool rdma_silent =
      op == VIP_CONTROL_OP_RDMAREAD ||
      (op == VIP_CONTROL_OP_RDMAWRITE && !(descriptor.CS.Control & VIP_CONTROL_IMMEDIATE));
  if (!(status & VIP_STATUS_ERROR_MASK) && !rdma_silent)
    ++vi.messages_out;
}

void NodeDriver::flush(ViObject& vi, std::uint32_t error) {
  config_->advance_epoch(vi.slot);
  for (const bool receive : {false, true}) {
    for (VIP_DESCRIPTOR* descriptor : vi.queue(receive).posted) {
      const auto it = tracked_.find(status_address(descriptor));
      if (it == tracked_.end() || it->second.reported)
        continue;
      if (read_status(descriptor) & VIP_STATUS_DONE) {
        completed(it->second, *descriptor);
        continue;
      }
      write_status(descriptor, VIP_STATUS_DONE | error |
                                   (receive ? VIP_STATUS_OP_RECEIVE : VIP_STATUS_OP_SEND));
      completed(it->second, *descriptor);
    }
  }
  host_.notify();
}

bool NodeDriver::reserve(bool incoming, std::uint64_t rate) {
  if (rate == 0)
    return true;
  std::uint64_t& held = incoming ? rx_reserved_ : tx_reserved_;
  const double fraction = profile_.host.admission_fraction;
  const double link = profile_.wire.link_mbytes_per_s * 1e6;
  if (fraction > 0.0 && static_cast<double>(held) + static_cast<double>(rate) > fraction * link) {
    last_error_ =
        fmt::format("node{} {} link: {} B/s reserved + {} B/s requested > {:g} x {:.0f} B/s", node_,
                    incoming ? "incoming" : "outgoing", held, rate, fraction, link);
    return false;
  }
  held += rate;
  return true;
}

void NodeDriver::unreserve(bool incoming, std::uint64_t rate) {
  std::uint64_t& held = incoming ? rx_reserved_ : tx_reserved_;
  held -= std::min(held, rate);
}

void NodeDriver::release_incoming(ViObject& vi) {
  unreserve(true, vi.rx_reserved);
  vi.rx_reserved = 0;
}

void NodeDriver::release(ViObject& vi) {
  release_incoming(vi);
  unreserve(false, vi.tx_reserved);
  vi.tx_reserved = 0;
  for (const bool receive : {false, true}) {
    PostedQueue& queue = vi.queue(receive);
    for (VIP_DESCRIPTOR* descriptor : queue.posted)
      untrack(descriptor);
    queue.posted.clear();
    if (CqObject* cq = cqs.find_token(queue.cq))
      --cq->attached;
    queue.cq = 0;
  }
}

bool NodeDriver::accept_delivered(ConnectRequest& request) {
  ViObject* vi = vis.find_token(request.client.vi);
  if (!vi || vi->state != VIP_STATE_CONNECT_PENDING || !vi->pending ||
      vi->pending->id != request.id)
    return false;
  // The server's sends will arrive on this node's incoming link.
  if (admission_on()) {
    if (!reserve(true, request.server.rate)) {
      request.refusal = last_error_;
      return false;
    }
    vi->rx_reserved = request.server.rate;
  }
  // Delivered by the driver's message handler, not the program: no CPU
  // time is charged to the program for these PCI writes.
  set_peer(*vi, request.server.node, request.server.slot);
  return true;
}

void NodeDriver::peer_matched(const std::shared_ptr<ConnectRequest>& mine,
                              const std::shared_ptr<ConnectRequest>& theirs) {
  ConnectionManager& manager = session_.connections();
  ViObject* vi = vis.find_token(mine->client.vi);
  if (!vi || vi->state != VIP_STATE_CONNECT_PENDING || vi->pending != mine) {
    mine->state = RequestState::cancelled;
    manager.reject(theirs);
    return;
  }
  VIP_RETURN mismatch = VIP_SUCCESS;
  if (vi->attributes.ReliabilityLevel != theirs->client.reliability)
    mismatch = VIP_INVALID_RELIABILITY_LEVEL;
  else if (vi->attributes.MaxTransferSize != theirs->client.mtu)
    mismatch = VIP_INVALID_MTU;
  else if (vi->flow_control != theirs->client.flow_control) {
    mismatch = VIP_INVALID_PARAMETER;
    set_last_error(flow_control_mismatch(node()));
  }
  if (mismatch != VIP_SUCCESS) {
    mine->state = RequestState::rejected;
    mine->rejection = mismatch;
    manager.reject(theirs, mismatch);
    return;
  }
  // The other end's sends will arrive on this node's incoming link.
  if (admission_on()) {
    if (!reserve(true, theirs->client.rate)) {
      mine->state = RequestState::refused;
      mine->refusal = last_error_;
      manager.refuse(theirs, last_error_);
      return;
    }
    vi->rx_reserved = theirs->client.rate;
  }
  charge(3 * costs().pio_write_ns);
  set_peer(*vi, theirs->client.node, theirs->client.slot);
  mine->server = theirs->client;
  mine->state = RequestState::accepting;
  manager.accept(theirs, mine->client);
}

bool NodeDriver::remote_disconnect(std::uint32_t slot, std::uint32_t from_node,
                                   std::uint32_t from_slot, std::uint64_t messages) {
  ViObject* vi = slot < VIA_MAX_VI ? vis.find_token(slots[slot]) : nullptr;
  if (!vi || (vi->state != VIP_STATE_CONNECTED && vi->state != VIP_STATE_ERROR) ||
      vi->remote_node != from_node || vi->remote_slot != from_slot || vi->peer_gone)
    return true;
  if (vi->messages_in < messages)
    return false;
  vi->state = VIP_STATE_ERROR;
  vi->peer_gone = true;
  release_incoming(*vi);
  config_->write_vi_state(vi->slot, VIA_VI_ERROR);
  flush(*vi);
  raise(PendingError{vi->nic, vi->token, 0, VIP_RESOURCE_VI, VIP_ERROR_CONN_LOST});
  return true;
}

void NodeDriver::disconnect(ViObject& vi) {
  const std::uint32_t peer_node = vi.remote_node;
  const std::uint32_t peer_slot = vi.remote_slot;
  const bool tell_peer = !vi.peer_gone;
  vi.state = VIP_STATE_IDLE;
  vi.peer_gone = false;
  release_incoming(vi);
  charge(costs().pio_write_ns);
  config_->write_vi_state(vi.slot, VIA_VI_IDLE);
  flush(vi);
  if (tell_peer)
    session_.connections().disconnect(node_, vi.slot, peer_node, peer_slot, vi.messages_out);
}

void NodeDriver::set_peer(ViObject& vi, std::uint32_t remote_node, std::uint32_t remote_slot) {
  vi.state = VIP_STATE_CONNECTED;
  vi.remote_node = remote_node;
  vi.remote_slot = remote_slot;
  vi.messages_out = vi.messages_in = 0;
  vi.peer_gone = false;
  config_->write_vi_peer(vi.slot, remote_node, remote_slot);
  config_->write_vi_state(vi.slot, VIA_VI_CONNECTED);
}

std::string flow_control_mismatch(std::uint32_t node) {
  return fmt::format("node{}: flow control is on at one end of the connection only "
                     "(lanai_emu_set_flow_control on both or neither)",
                     node);
}

} // namespace lanai::vipl
