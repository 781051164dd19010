// What the per-node VIPL driver keeps behind the handles it gives out: open
// NICs, protection tags, VIs with their posted descriptor queues, completion
// queues, connection requests waiting for an answer, registered memory.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <utility>

#include "vipl.h"
#include "vipl_emu.h"

namespace lanai::vipl {

struct ConnectRequest;

// Handles are tokens, never addresses: a stale or foreign handle is looked
// up and refused rather than dereferenced. Tokens are unique in a run.
using Token = std::uintptr_t;

enum class HandleKind : std::uint8_t { nic = 1, ptag, vi, cq, conn };

inline Token token_of(const void* handle) { return reinterpret_cast<Token>(handle); }
inline void* handle_of(Token token) { return reinterpret_cast<void*>(token); }

// Provider limits beyond those of via_abi.h.
inline constexpr std::size_t max_discriminator_bytes = 16;
inline constexpr std::size_t max_ptags = 256;
inline constexpr std::size_t max_cqs = 64;
inline constexpr std::size_t max_cq_entries = 2 * VIA_MAX_VI * VIA_QUEUE_DEPTH;
inline constexpr std::size_t host_address_bytes = 2;

struct NicObject {
  Token token = 0;
  VIP_ERROR_HANDLER handler = nullptr; // nullptr: the default, which prints
  VIP_PVOID context = nullptr;
};

struct PtagObject {
  Token token = 0;
  Token nic = 0;
  std::uint32_t number = 0; // the tag the NIC compares, >= 1
};

struct PostedQueue {
  std::deque<VIP_DESCRIPTOR*> posted; // oldest first; leaves on Done/Wait
  Token cq = 0;                       // 0: no completion queue
  // A pending VipSendNotify/VipRecvNotify (one-shot), or none.
  VIP_DESCRIPTOR_NOTIFY notify = nullptr;
  VIP_PVOID notify_context = nullptr;
};

struct ViObject {
  Token token = 0;
  Token nic = 0;
  std::uint32_t slot = 0; // VI number on the NIC
  VIP_VI_ATTRIBUTES attributes{};
  VIP_QOS_REQUEST qos{}; // attributes.QoS points here when a rate was asked
  std::uint64_t vtick = ~std::uint64_t{0};
  LANAI_EMU_FRAGMENTATION fragmentation{}; // VIA_FRAG_NONE until set
  bool flow_control = false;               // lanai_emu_set_flow_control
  // Admission control: the rate (bytes/s) this VI holds on this node's
  // outgoing link (from creation) and, while connected, the peer's rate on
  // this node's incoming link. 0 when nothing is held.
  std::uint64_t tx_reserved = 0;
  std::uint64_t rx_reserved = 0;
  VIP_VI_STATE state = VIP_STATE_IDLE;
  std::uint32_t remote_node = 0;
  std::uint32_t remote_slot = 0;
  std::shared_ptr<ConnectRequest> pending; // while VIP_STATE_CONNECT_PENDING
  // Messages of this connection: sent (send descriptors completed without
  // error, RDMA writes that consume a receive at the peer) and received
  // (receive descriptors the NIC completed). A peer's disconnection takes
  // effect once as many have arrived as it sent.
  std::uint64_t messages_out = 0;
  std::uint64_t messages_in = 0;
  // The peer disconnected: VipDisconnect here tells it nothing more.
  bool peer_gone = false;
  PostedQueue send;
  PostedQueue recv;

  PostedQueue& queue(bool receive) { return receive ? recv : send; }
  const PostedQueue& queue(bool receive) const { return receive ? recv : send; }
};

struct CqObject {
  Token token = 0;
  Token nic = 0;
  std::size_t capacity = 0;
  std::deque<std::pair<Token, bool>> entries; // (VI, receive queue?) in completion order
  std::size_t attached = 0;                   // VI queues feeding it
  // A pending VipCQNotify (one-shot), or none.
  VIP_CQ_NOTIFY notify = nullptr;
  VIP_PVOID notify_context = nullptr;
};

struct ConnObject {
  Token token = 0;
  Token nic = 0;
  std::shared_ptr<ConnectRequest> request;
};

struct MemoryRegion {
  Token nic = 0;
  Token ptag = 0;
  std::uint64_t address = 0;
  std::uint64_t length = 0;
  bool rdma_write = false;
  bool rdma_read = false;
};

struct PendingError {
  Token nic = 0;
  Token vi = 0;
  Token cq = 0;
  VIP_RESOURCE_CODE resource = VIP_RESOURCE_NIC;
  VIP_ERROR_CODE code = VIP_ERROR_CATASTROPHIC;
};

// The node a token was minted on, or -1 for something that is no token.
inline long token_node(Token token) {
  const Token node_plus_one = token >> 40;
  return node_plus_one == 0 || node_plus_one > 0xFFFF ? -1 : static_cast<long>(node_plus_one - 1);
}

// Objects of one kind, by token. Iteration follows token order, which is
// creation order, so nothing depends on where the allocator put things.
template <class T>
class HandleTable {
public:
  // `foreign` remembers the node of the last handle of another node looked
  // up here (a program sharing its globals between nodes passes those).
  HandleTable(std::uint32_t node, long& foreign) : node_(node), foreign_(foreign) {}

  T* find(const void* handle) const {
    const auto it = items_.find(token_of(handle));
    if (it != items_.end())
      return it->second.get();
    const long owner = token_node(token_of(handle));
    if (owner >= 0 && owner != static_cast<long>(node_))
      foreign_ = owner;
    return nullptr;
  }
  T* find_token(Token token) const { return find(handle_of(token)); }
  T& add(Token token) {
    auto item = std::make_unique<T>();
    item->token = token;
    return *items_.emplace(token, std::move(item)).first->second;
  }
  void erase(Token token) { items_.erase(token); }
  std::size_t size() const { return items_.size(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

private:
  std::uint32_t node_;
  long& foreign_;
  std::map<Token, std::unique_ptr<T>> items_;
};

} // namespace lanai::vipl
