// The work the host has posted: doorbells drained from the card's doorbell
// queues into per-VI send and receive rings (a peer's RDMA read joins its
// VI's send ring too), the round-robin choice of which
// VI's send goes next, and the wake-up of the receive engine when receives
// are posted. Under a stamp-ordering scheduler each send is stamped with the
// time its doorbell reached the card, and the scheduler's first (due work,
// then the smallest stamp) goes next instead. Sends the scheduler stamps
// last (best effort under VirtualClock) are behind every other send and
// equal among themselves: their VIs take turns, as under PVIA, and go only
// when no other send waits, so they cost no ordering.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/doorbells.h"
#include "common/flow_control.h"
#include "common/regulator.h"
#include "common/sched_tick.h"
#include "common/sram_placement.h"
#include "common/vi_heap.h"
#include "common/vi_set.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

via::ReadyList ready_to_send;
via::ViSet sends_waiting;

namespace {

// A VI's posted sends in posting order (free-running counts, like
// DescriptorRing's): where each descriptor is, its stamp, and a card-wide
// doorbell number that breaks ties between equal stamps.
struct SendRing {
  static constexpr uint32_t kCapacity = VIA_QUEUE_DEPTH;
  static constexpr uint32_t kMask = kCapacity - 1u;
  struct Entry {
    via::PostedDescriptor posted;
    via::Stamping stamping;
    uint32_t serial;
  };
  bool empty() const { return head == tail; }
  Entry entries[kCapacity];
  uint32_t head;
  uint32_t tail;
};

struct ViQueuesParts {
  SendRing send;
  via::DescriptorRing receive;
};
// A power of two in size, so that finding a VI's queues is one shift.
struct ViQueues : ViQueuesParts {
  uint8_t padding[4096u - sizeof(ViQueuesParts)];
};
static_assert(sizeof(ViQueues) == 4096u, "a VI's queues are found by shifting its number");

// Doorbells taken per visit of the main loop: a burst of them (a host
// posting its receives) must not keep the devices waiting. But a visit
// after one that took its whole share takes every doorbell waiting, so
// that a burst rung faster than the visits take it (a VBR frame's sends)
// does not overflow the queue.
constexpr uint32_t kDoorbellsPerVisit = 2u;

VIA_ZEROED_AT_LOAD ViQueues queues[VIA_MAX_VI]{};
bool per_vi_doorbells;
bool stamp_ordered;
bool share_taken; // the last visit took kDoorbellsPerVisit: more may wait
uint32_t doorbell_serial;
// A send with a due time has been stamped (a rate-regulated policy): the
// choice among VIs must look at the clock.
bool dues_waiting;
// Under stamp ordering, while no send has had a due time, the waiting VIs
// keyed by the stamp and doorbell number of their oldest send. Once one has
// (a rate-regulated policy), the choice scans the waiting VIs instead and
// the heap is no longer kept.
via::ViHeap order;

// Work the scheduler stamped behind all other work, and never due later:
// best effort under VirtualClock. A VI's sends are all stamped alike, so
// its class is settled by the send that makes it wait.
bool stamped_last(const via::Stamping& stamping) {
  return stamping.stamp == via::kStampLast && stamping.due == 0u;
}

// A send joins its VI's ring, stamped under a stamp-ordering scheduler
// from cycle `posted_at` for `bytes` on the wire; false if the ring is full.
[[gnu::always_inline]] inline bool enqueue_send(uint32_t vi, const via::PostedDescriptor& posted,
                                                uint64_t posted_at, uint32_t bytes) {
  SendRing& ring = via::in_register(&queues[vi].send);
  const uint32_t tail = ring.tail;
  if (tail - ring.head == SendRing::kCapacity)
    return false;
  SendRing::Entry& entry = ring.entries[tail & SendRing::kMask];
  entry.posted = posted;
  entry.serial = doorbell_serial++;
  ring.tail = tail + 1u;
  if (stamp_ordered) {
    entry.stamping = via::stamp_send(vi, bytes, posted_at);
    if (entry.stamping.due != 0u)
      dues_waiting = true;
  }
  if (tail != ring.head)
    return true; // the VI was waiting already
  if (stamp_ordered && !stamped_last(entry.stamping)) {
    sends_waiting.add(vi);
    if (!dues_waiting)
      order.push(vi, entry.stamping.stamp, entry.serial);
  } else {
    ready_to_send.push(vi);
  }
  return true;
}

// A send doorbell: its descriptor joins the VI's ring (the message's size
// is not known yet: 0 asks for a whole Vtick); a full ring loses it like a
// dropped doorbell.
void accept_send(const via::Doorbell& doorbell) {
  const via::PostedDescriptor posted{doorbell.address_lo, doorbell.address_hi, doorbell.handle,
                                     doorbell.epoch};
  if (!enqueue_send(doorbell.vi, posted, doorbell.posted_at, 0u))
    via::report_ring_overflow(doorbell.vi);
}

// Inlined into the drain as it always was, whoever else files doorbells.
[[gnu::always_inline]] inline void accept(const via::Doorbell& doorbell) {
  if (!doorbell.receive)
    accept_send(doorbell);
  else if (via::push_posted(doorbell, queues[doorbell.vi].receive))
    receive_posted(doorbell.vi);
}

// Takes the oldest send of `vi` the host has not flushed since posting it
// into `work`; older ones (posted before a disconnect, say) are dropped.
// Keeps the VI listed while it has more.
bool pop_send(uint32_t vi, SendWork& work) {
  SendRing& ring = via::in_register(&queues[vi].send);
  const uint32_t epoch = via::vi_config(vi).epoch;
  bool found = false;
  while (!found && !ring.empty()) {
    const SendRing::Entry& entry = ring.entries[ring.head & SendRing::kMask];
    ++ring.head;
    found = entry.posted.epoch == epoch;
    if (found) {
      work.posted = entry.posted;
      work.stamping = entry.stamping;
      work.serial = entry.serial;
    } else {
      // A peer's read dropped this way frees its job by the same epoch.
      count(via_stale_descriptors);
    }
  }
  return found;
}

// first_of_many() when some waiting send has a due time: due work first.
[[gnu::noinline]] uint32_t first_of_many_due() {
  via::LazyClock clock;
  bool found = false;
  uint32_t chosen = 0u;
  const SendRing::Entry* best = nullptr;
  sends_waiting.for_each([&](uint32_t vi) {
    const SendRing& ring = queues[vi].send;
    const SendRing::Entry& entry = ring.entries[ring.head & SendRing::kMask];
    if (found && !via::serve_first(entry.stamping, best->stamping, clock) &&
        (via::serve_first(best->stamping, entry.stamping, clock) ||
         static_cast<int32_t>(entry.serial - best->serial) > 0))
      return;
    found = true;
    chosen = vi;
    best = &entry;
  });
  return chosen;
}

// The VI whose oldest waiting send the scheduler serves first, earliest
// doorbell first among equals.
uint32_t first_to_serve() { return dues_waiting ? first_of_many_due() : order.top(); }

SendRing& send_ring_of(uint32_t vi) { return queues[vi].send; }

} // namespace

namespace {

// Flow control's way in (common/flow_control.h): a doorbell of a
// flow-controlled VI, filed when it may go.
[[gnu::noinline]] void file_flow_doorbell(const via::Doorbell& doorbell) { accept(doorbell); }

// Credits go first under a stamp-ordering scheduler: they hold up no data.
bool send_credit(const via::Ack& ack) { return send_ack(ack, 0u); }

} // namespace

} // namespace pvia

extern "C" constinit const via::flow::Hooks via_flow_hooks{
    &pvia::file_flow_doorbell, &pvia::send_credit, &pvia::wake_timer_by};

namespace pvia {

void start_doorbells() {
  per_vi_doorbells = via::doorbells_per_vi();
  stamp_ordered = via::scheduler_orders_queues();
  share_taken = false;
  order.clear();
}

namespace {

// The rare events the visit to the doorbells also takes: an overflow, and
// the countdown timer of the resend lane (pvia_resend.cpp).
[[gnu::noinline]] void rare_events(uint32_t events, const via::DoorbellDrain& how) {
  if ((events & LANAI_EV_TIMER) != 0u) {
    resend_timer();
    via::flow::timer();
  }
  if ((events & LANAI_EV_DOORBELL_OVERFLOW) != 0u)
    via::report_doorbell_overflow(events, how);
}

} // namespace

void drain_doorbells(uint32_t events) {
  share_taken = via::drain_doorbell_queues<LANAI_EV_DOORBELL_OVERFLOW | LANAI_EV_TIMER>(
      events, {per_vi_doorbells, stamp_ordered, share_taken ? 0u : kDoorbellsPerVisit},
      [](const via::Doorbell& doorbell) { accept(doorbell); }, &rare_events);
}

namespace {

enum class Taken : uint8_t { send, stale, refused };

#if VIA_REGULATED
// Built regulated: the send the scheduler serves first is not to be taken
// yet (nor, stamped no earlier, any other but those stamped last).
[[gnu::noinline]] bool first_held() {
  const uint32_t vi = first_to_serve();
  const SendRing& ring = send_ring_of(vi);
  const uint64_t take =
      via::take_cycle(vi, ring.entries[ring.head & SendRing::kMask].stamping.stamp);
  return take != 0u && take > via::cycle_now();
}
#endif

// One try at the scheduler's first send: taken, dropped as posted before
// the VI was flushed (try again), or refused (its class has all it may
// hold). No loop of its own: in one, the compiler would set up every
// address it uses before the first pass.
[[gnu::noinline]] Taken take_stamped(uint32_t& vi, SendWork& work, bool best_effort_allowed,
                                     bool others_allowed) {
  vi = first_to_serve();
  const bool best_effort = via::vi_best_effort(vi);
  if (!(best_effort ? best_effort_allowed : others_allowed))
    return Taken::refused;
  const bool found = pop_send(vi, work);
  work.best_effort = best_effort;
  const SendRing& ring = send_ring_of(vi);
  if (ring.empty())
    sends_waiting.remove(vi);
  if (!dues_waiting) {
    // The VI was on top: it leaves, or its key grows to its next send's.
    if (ring.empty()) {
      order.pop();
    } else {
      const SendRing::Entry& next = ring.entries[ring.head & SendRing::kMask];
      order.top_grew(next.stamping.stamp, next.serial);
    }
  }
  return found ? Taken::send : Taken::stale;
}

// The oldest send of the next VI taking turns; false if none has one left.
bool take_turn(uint32_t& vi, SendWork& work) {
  while (!ready_to_send.empty()) {
    vi = ready_to_send.pop();
    const bool found = pop_send(vi, work);
    if (!send_ring_of(vi).empty())
      ready_to_send.push(vi);
    if (found)
      return true;
  }
  return false;
}

} // namespace

bool next_send(uint32_t& vi, SendWork& work, bool best_effort_allowed, bool others_allowed) {
  if (stamp_ordered) {
    while (!sends_waiting.empty()) {
#if VIA_REGULATED
      if (first_held())
        break;
#endif
      const Taken taken = take_stamped(vi, work, best_effort_allowed, others_allowed);
      if (taken != Taken::stale)
        return taken == Taken::send;
    }
    // Sends stamped last go once no other waits.
    if (!best_effort_allowed || !take_turn(vi, work))
      return false;
    work.best_effort = true;
    return true;
  }
  if (!others_allowed || !take_turn(vi, work))
    return false;
  work.stamping = {0u, 0u};
  work.best_effort = false;
  return true;
}

bool post_read_job(uint32_t vi, uint32_t job, uint64_t arrived, uint32_t bytes) {
  // Handle 0, which no registration has, marks a read job (numbered in the
  // address) among descriptors; the epoch drops it with them on a flush.
  const via::PostedDescriptor posted{job, 0u, 0u, via::vi_config(vi).epoch};
  return enqueue_send(vi, posted, arrived, bytes);
}

bool next_receive(uint32_t vi, via::PostedDescriptor& posted) {
  return via::pop_current(vi, queues[vi].receive, posted);
}

bool receives_waiting(uint32_t vi) { return !queues[vi].receive.empty(); }

} // namespace pvia
