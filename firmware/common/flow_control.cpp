// Credit flow control (see flow_control.h): each flow-controlled VI's
// counts, the sends it holds, and the credits and credit requests it sends.
#include "common/flow_control.h"

#include <lanai/register_map.h>

#include "common/doorbells.h"
#include "common/sram_placement.h"
#include "common/via_counters.h"
#include "common/vi_table.h"

// The counters (via_counters.h); zero at load, so that a firmware's
// start-up does not grow with them.
VIA_ZEROED_AT_LOAD volatile uint32_t via_flow_credit_waits{};
VIA_ZEROED_AT_LOAD volatile uint32_t via_flow_credits_sent{};
VIA_ZEROED_AT_LOAD volatile uint32_t via_flow_credit_requests{};

namespace via::flow {

namespace {

constexpr uint8_t kNoSlot = 0xFFu;
constexpr uint32_t kHeldMax = VIA_QUEUE_DEPTH; // the library posts no more per queue

// A send waiting on the card: its doorbell, less what the VI says.
struct HeldSend {
  uint32_t address_lo;
  uint32_t address_hi;
  uint32_t handle;
  uint32_t epoch;
  bool credit; // it takes a receive at the peer
  uint64_t posted_at;
};

// The sends one VI holds, oldest first; a VI has one only while it holds
// some.
struct HeldSends {
  uint32_t head;
  uint32_t count;
  HeldSend sends[kHeldMax];
};

struct FlowVi {
  uint32_t epoch_seen; // the epoch the counts are of, + 1 (0: none yet)
  uint32_t posted;     // receiving: receives posted this epoch
  uint32_t limit;      // sending: the peer's latest credit
  uint32_t sent;       // sending: credit-taking sends passed on
  uint32_t request_at; // sending, while waiting: when to ask again
  uint8_t slot;        // its held sends (kNoSlot: none)
  bool waiting;        // sending: the oldest held send waits for a credit
};

// Undefined (address 0) in a firmware without flow control.
extern "C" [[gnu::weak]] const Hooks via_flow_hooks;
VIA_ZEROED_AT_LOAD FlowVi vis[VIA_MAX_VI]{};
VIA_ZEROED_AT_LOAD HeldSends slots[VIA_MAX_FLOW_VI]{};
VIA_ZEROED_AT_LOAD uint8_t slot_owner[VIA_MAX_FLOW_VI]{}; // VI + 1 (0: free)
VIA_ZEROED_AT_LOAD uint32_t waiting_count{};

uint32_t now() { return lanai_mmio_read(LANAI_REG_CYCLE_LO); }

void set_waiting(FlowVi& f, bool waiting) {
  if (f.waiting != waiting)
    waiting_count = waiting ? waiting_count + 1u : waiting_count - 1u;
  f.waiting = waiting;
}

void free_slot(FlowVi& f) {
  if (f.slot == kNoSlot)
    return;
  slot_owner[f.slot] = 0u;
  f.slot = kNoSlot;
}

// A VI's counts start again with each epoch (a flush, a new connection):
// what it held was posted before the flush, which completed it already.
void sync(uint32_t vi) {
  FlowVi& f = vis[vi];
  const uint32_t epoch = vi_config(vi).epoch + 1u;
  if (f.epoch_seen == epoch)
    return;
  if (f.epoch_seen == 0u)
    f.slot = kNoSlot;
  if (f.slot != kNoSlot)
    for (uint32_t i = 0u; i < slots[f.slot].count; ++i)
      count(via_stale_descriptors);
  free_slot(f);
  f.epoch_seen = epoch;
  f.posted = f.limit = f.sent = 0u;
  set_waiting(f, false);
}

// Tells `node`'s VI `remote_vi` how many receives `vi` has had posted.
// Without an acknowledgement buffer free the credit is not sent: the
// waiting sender's next request brings it.
void grant(uint32_t vi, uint32_t node, uint32_t remote_vi) {
  const Ack ack{node, remote_vi, vi, vis[vi].posted, 0u, VIA_ACK_F_CREDIT, 0u};
  if (via_flow_hooks.send_ack(ack))
    count(via_flow_credits_sent);
}

// The same, to the VI's peer, if it has one yet (else the peer's request
// brings the credit).
void grant(uint32_t vi) {
  if (!vi_connected(vi))
    return;
  volatile via_vi_config& config = vi_config(vi);
  grant(vi, config.remote_node, config.remote_vi);
}

void request(uint32_t vi) {
  FlowVi& f = vis[vi];
  volatile via_vi_config& config = vi_config(vi);
  const Ack ack{
      config.remote_node, config.remote_vi, vi, f.limit, 0u, VIA_ACK_F_CREDIT_REQUEST, 0u};
  if (vi_connected(vi) && via_flow_hooks.send_ack(ack))
    count(via_flow_credit_requests);
  // Asked or not (no peer yet, no buffer), the timer brings it round.
  f.request_at = now() + nic_config().retransmit_cycles;
  via_flow_hooks.wake_at(f.request_at);
}

Doorbell doorbell_of(uint32_t vi, const HeldSend& held) {
  Doorbell doorbell;
  doorbell.vi = vi;
  doorbell.receive = false;
  doorbell.epoch = held.epoch;
  doorbell.address_lo = held.address_lo;
  doorbell.address_hi = held.address_hi;
  doorbell.handle = held.handle;
  doorbell.posted_at = held.posted_at;
  return doorbell;
}

// Passes the VI's held sends on in order while each may go; the first that
// needs a credit the VI lacks stops them, and the VI waits (asking its
// peer when it starts to).
void release(uint32_t vi) {
  FlowVi& f = vis[vi];
  const uint32_t epoch = vi_config(vi).epoch;
  while (f.slot != kNoSlot) {
    HeldSends& held = slots[f.slot];
    const HeldSend& first = held.sends[held.head];
    const bool current = first.epoch == epoch;
    // Counts wrap; a credit never stands below what was sent on it.
    if (current && first.credit && static_cast<int32_t>(f.limit - f.sent) <= 0) {
      if (!f.waiting) {
        set_waiting(f, true);
        count(via_flow_credit_waits);
        request(vi);
      }
      return;
    }
    if (current && first.credit)
      ++f.sent;
    const Doorbell doorbell = doorbell_of(vi, first);
    held.head = (held.head + 1u) % kHeldMax;
    if (--held.count == 0u)
      free_slot(f);
    if (current)
      via_flow_hooks.file(doorbell);
    else
      count(via_stale_descriptors);
  }
  set_waiting(f, false);
}

// Holds a send behind the VI's others; false if no room is left (the
// library posts no more than a queue holds on no more VIs than there are
// slots, so this is a lost doorbell).
uint32_t free_slot_index() {
  uint32_t s = 0u;
  while (s < VIA_MAX_FLOW_VI && slot_owner[s] != 0u)
    ++s;
  return s;
}

bool hold(uint32_t vi, const Doorbell& doorbell, bool credit) {
  FlowVi& f = vis[vi];
  if (f.slot == kNoSlot) {
    uint32_t s = free_slot_index();
    // Sends held by a VI flushed since (disconnected, destroyed) are
    // stale: their slot is free.
    for (uint32_t t = 0u; s == VIA_MAX_FLOW_VI && t < VIA_MAX_FLOW_VI; ++t) {
      sync(slot_owner[t] - 1u);
      s = free_slot_index();
    }
    if (s == VIA_MAX_FLOW_VI)
      return false;
    slot_owner[s] = static_cast<uint8_t>(vi + 1u);
    slots[s].head = slots[s].count = 0u;
    f.slot = static_cast<uint8_t>(s);
  }
  HeldSends& held = slots[f.slot];
  if (held.count == kHeldMax)
    return false;
  HeldSend& entry = held.sends[(held.head + held.count) % kHeldMax];
  entry = {doorbell.address_lo, doorbell.address_hi, doorbell.handle, doorbell.epoch, credit,
           doorbell.posted_at};
  ++held.count;
  return true;
}

} // namespace

bool started() { return &via_flow_hooks != nullptr; }

bool take_doorbell(const Doorbell& given) {
  const uint32_t vi = VIA_DOORBELL_VI(given.vi);
  if ((given.vi & VIA_DOORBELL_FLOW) == 0u || !started() || !vi_valid(vi))
    return false;
  Doorbell doorbell = given;
  doorbell.vi = vi;
  sync(vi);
  FlowVi& f = vis[vi];
  if (doorbell.receive) {
    via_flow_hooks.file(doorbell);
    if (doorbell.epoch == vi_config(vi).epoch) {
      ++f.posted;
      grant(vi);
    }
    return true;
  }
  const bool credit = (given.vi & VIA_DOORBELL_CREDIT) != 0u;
  if (!hold(vi, doorbell, credit)) {
    report_ring_overflow(vi);
    return true;
  }
  release(vi);
  return true;
}

void credit_arrived(const via_packet_header& header) {
  const uint32_t vi = header.dst_vi;
  if (!started() || !vi_valid(vi))
    return;
  // A request is answered to whoever asks, connected here yet or not (the
  // asking end may learn of the connection first): a count of receives
  // tells nothing the VI's own peer would not learn anyway.
  if ((header.flags & VIA_ACK_F_CREDIT_REQUEST) != 0u) {
    const uint32_t state = vi_config(vi).state;
    if (state == VIA_VI_CONNECTED ? vi_accepts_from(vi, header.src_node, header.src_vi)
                                  : state == VIA_VI_IDLE) {
      sync(vi);
      grant(vi, header.src_node, header.src_vi);
    }
    return;
  }
  if (!vi_accepts_from(vi, header.src_node, header.src_vi))
    return;
  sync(vi);
  FlowVi& f = vis[vi];
  // Credits count up; one overtaken by a later one says nothing new.
  if (sequence_at_most(header.sequence, f.limit))
    return;
  f.limit = header.sequence;
  release(vi);
  // Credits are coming: the next request is a whole timeout away again.
  if (f.waiting)
    f.request_at = now() + nic_config().retransmit_cycles;
}

namespace {

// timer() with some VI waiting, out of line so that the common case costs
// a call and a test.
[[gnu::noinline]] void ask_again() {
  const uint32_t t = now();
  bool any = false;
  uint32_t first = 0u;
  for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi) {
    FlowVi& f = vis[vi];
    if (!f.waiting)
      continue;
    // Flushed since (disconnected, destroyed): it waits no more.
    sync(vi);
    if (!f.waiting)
      continue;
    if (static_cast<int32_t>(t - f.request_at) >= 0)
      request(vi);
    if (!any || static_cast<int32_t>(f.request_at - first) < 0)
      first = f.request_at;
    any = true;
  }
  if (any)
    via_flow_hooks.wake_at(first);
}

} // namespace

void timer() {
  if (waiting_count != 0u)
    ask_again();
}

} // namespace via::flow
