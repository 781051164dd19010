// The host DMA as PVIA drives it: requests are appended to the hardware
// queue with a note of which engine record owns each; completions, popped
// in service order, are matched to those notes and handed to their owners.
// While the hardware queue is full, requests wait in a software overflow
// list, in order, and are retried on every visit.
// Under a stamp-ordering scheduler the notes are a shadow of the hardware
// queue kept in stamp order: a request is inserted behind every request
// with a stamp no larger, at the position the shadow gives, and recorded
// where the queue's answer says it landed. The queue counts positions as
// the notes do, from the oldest request whose completion is not yet
// popped, so the shadow stays exact: an insertion aimed at the head entries
// the engine has already taken lands just behind them, and is noted there.
// The overflow list is kept in stamp order too, and a completion is matched
// to its note by request id.
#include <lanai/register_map.h>

#include "common/sram_placement.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

uint32_t hdma_overflow_head;
uint32_t hdma_overflow_tail;

namespace {

// Requests in the hardware queue, in the order the engine serves them.
constexpr uint32_t kInService = 64u;
// Requests waiting for room in the hardware queue.
constexpr uint32_t kOverflow = 256u;
static_assert((kInService & (kInService - 1u)) == 0u && (kOverflow & (kOverflow - 1u)) == 0u,
              "indices wrap by masking");

struct InService {
  uint32_t id;
  HdmaOwner owner;
  via::Stamp stamp;
};

struct Waiting {
  via::HdmaRequest request;
  HdmaOwner owner;
  via::Stamp stamp;
  uint32_t trace_tag; // the label it was made under
};

InService in_service[kInService];
uint32_t service_head;
uint32_t service_tail;

VIA_ZEROED_AT_LOAD Waiting overflow[kOverflow]{};
bool stamp_ordered;

InService& note(uint32_t i) { return in_service[i & (kInService - 1u)]; }
Waiting& waiting_at(uint32_t i) { return overflow[i & (kOverflow - 1u)]; }

// Notes [service_head + index, tail) move one place back; the gap is filled.
void insert_note(uint32_t index, const InService& entry) {
  for (uint32_t i = service_tail; i != service_head + index; --i)
    note(i) = note(i - 1u);
  note(service_head + index) = entry;
  ++service_tail;
}

void remove_note(uint32_t at) {
  for (uint32_t i = at; i + 1u != service_tail; ++i)
    note(i) = note(i + 1u);
  --service_tail;
}

// Where a request stamped `stamp` belongs among the notes: behind every
// request with a stamp no larger.
uint32_t position_for(via::Stamp stamp) {
  uint32_t i = service_tail - service_head;
  while (i > 0u && note(service_head + i - 1u).stamp > stamp)
    --i;
  return i;
}

void deliver(HdmaOwner owner, uint32_t outcome) {
  if (owner.engine == Engine::send)
    send_host_dma_done(owner.record, outcome);
  else
    receive_host_dma_done(owner.record, outcome);
}

enum class Submitted : uint8_t { accepted, full, refused };

Submitted refused(uint32_t refusal) {
  if (refusal == LANAI_HDMA_REFUSED_FULL)
    return Submitted::full;
  count(pvia_hdma_refusals);
  return Submitted::refused;
}

// True if a stamped request goes at the tail of the hardware queue: unless
// a request queued before it has a larger stamp.
bool goes_last(via::Stamp stamp) {
  return service_tail == service_head || note(service_tail - 1u).stamp <= stamp;
}

Submitted append(const via::HdmaRequest& request, HdmaOwner owner, via::Stamp stamp) {
  const via::HdmaTicket ticket = via::hdma_submit(request);
  if (!ticket.accepted)
    return refused(ticket.refusal);
  note(service_tail) = {ticket.id, owner, stamp};
  ++service_tail;
  return Submitted::accepted;
}

// Inserts a request behind every request with a stamp no larger, at the
// position the notes give, and notes it where the queue's answer says it
// landed. Out of line: appending is the common case.
[[gnu::noinline]] Submitted insert(const via::HdmaRequest& request, HdmaOwner owner,
                                   via::Stamp stamp) {
  const uint32_t noted = service_tail - service_head;
  const uint32_t position = position_for(stamp);
  const via::HdmaPlacement placed = via::hdma_insert(request, position);
  if (!placed.ticket.accepted)
    return refused(placed.ticket.refusal);
  const uint32_t index = placed.position < noted ? placed.position : noted;
  if (placed.position != position)
    count(pvia_hdma_late_inserts);
  insert_note(index, {placed.ticket.id, owner, stamp});
  return Submitted::accepted;
}

// One attempt at the hardware queue.
Submitted try_hardware(const via::HdmaRequest& request, HdmaOwner owner, via::Stamp stamp) {
  // More requests in the hardware than notes to match them would lose owners.
  if (service_tail - service_head == kInService)
    return Submitted::full;
  if (!stamp_ordered)
    return append(request, owner, stamp);
  // Where it goes is settled before the stamp reaches the trace port (a
  // device write, after which the compiler reloads what it had). Work
  // stamped last goes last without a look.
  const bool last = stamp == via::kStampLast || goes_last(stamp);
  via::trace_stamp(stamp);
  return last ? append(request, owner, stamp) : insert(request, owner, stamp);
}

// Keeps a request the hardware queue has no room for in the software list,
// in stamp order behind the requests with a stamp no larger; false (and
// counted) if the list is full too.
[[gnu::noinline]] bool keep_waiting(const via::HdmaRequest& request, HdmaOwner owner,
                                    via::Stamp stamp) {
  if (hdma_overflow_tail - hdma_overflow_head == kOverflow) {
    count(pvia_hdma_refusals);
    return false;
  }
  uint32_t at = hdma_overflow_tail;
  if (stamp_ordered) {
    for (; at != hdma_overflow_head && waiting_at(at - 1u).stamp > stamp; --at)
      waiting_at(at) = waiting_at(at - 1u);
  }
  waiting_at(at) = {request, owner, stamp, via::trace_tag()};
  ++hdma_overflow_tail;
  count(pvia_hdma_overflows);
  return true;
}

// Moves overflowed requests into the hardware queue while it has room. A
// request refused outright by then completes to its owner as refused. Out
// of line: the list is seldom used, and every polling round checks it.
[[gnu::noinline]] void retry_overflow() {
  while (hdma_overflow_head != hdma_overflow_tail) {
    const Waiting& waiting = overflow[hdma_overflow_head & (kOverflow - 1u)];
    via::trace_tag(waiting.trace_tag);
    const Submitted result = try_hardware(waiting.request, waiting.owner, waiting.stamp);
    if (result == Submitted::full)
      return;
    const HdmaOwner owner = waiting.owner;
    ++hdma_overflow_head;
    if (result == Submitted::refused)
      deliver(owner, via::kHdmaRefused);
  }
}

} // namespace

void start_host_dma() {
  service_head = service_tail = 0u;
  hdma_overflow_head = hdma_overflow_tail = 0u;
  stamp_ordered = via::scheduler_orders_queues();
}

bool submit_host_dma(const via::HdmaRequest& request, HdmaOwner owner, via::Stamp stamp) {
  // Behind earlier overflowed requests, so that the queue keeps their order.
  if (hdma_overflow_head == hdma_overflow_tail) {
    const Submitted result = try_hardware(request, owner, stamp);
    if (result != Submitted::full)
      return result == Submitted::accepted;
  }
  return keep_waiting(request, owner, stamp);
}

namespace {

// Hands a completion that is not for the oldest note to its owner. Out of
// line: it happens only when the shadow lost a race with the engine.
[[gnu::noinline]] void complete_out_of_turn(uint32_t done) {
  const uint32_t id = done & LANAI_HDMA_ID_MASK;
  if (stamp_ordered && service_head != service_tail) {
    // The shadow lost a race with the engine: find the note by its id.
    uint32_t at = service_head + 1u;
    while (at != service_tail && note(at).id != id)
      ++at;
    if (at != service_tail) {
      const InService found = note(at);
      remove_note(at);
      count(pvia_hdma_reordered);
      deliver(found.owner, LANAI_HDMA_DONE_STATUS(done));
      return;
    }
  }
  count(pvia_hdma_strays);
}

} // namespace

bool poll_host_dma() {
  const uint32_t done = via::hdma_pop_done();
  const bool taken = (done & LANAI_HDMA_DONE_VALID) != 0u;
  if (taken) {
    via::dma_fence();
    const InService& oldest = note(service_head);
    if (service_head != service_tail && oldest.id == (done & LANAI_HDMA_ID_MASK)) {
      const HdmaOwner owner = oldest.owner;
      ++service_head;
      deliver(owner, LANAI_HDMA_DONE_STATUS(done));
    } else {
      complete_out_of_turn(done);
    }
  }
  if (hdma_overflow_head != hdma_overflow_tail)
    retry_overflow();
  return taken;
}

} // namespace pvia
