// The host DMA as PVIA drives it: requests are appended to the hardware
// queue with a note of which engine record owns each; completions, popped
// in service order, are matched to those notes and handed to their owners.
// While the hardware queue is full, requests wait in a software overflow
// list, in order, and are retried on every visit.
#include <lanai/register_map.h>

#include "common/sram_placement.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

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
};

struct Waiting {
  via::HdmaRequest request;
  HdmaOwner owner;
};

InService in_service[kInService];
uint32_t service_head;
uint32_t service_tail;

VIA_ZEROED_AT_LOAD Waiting overflow[kOverflow];
uint32_t overflow_head;
uint32_t overflow_tail;

void deliver(HdmaOwner owner, uint32_t outcome) {
  if (owner.engine == Engine::send)
    send_host_dma_done(owner.record, outcome);
  else
    receive_host_dma_done(owner.record, outcome);
}

enum class Submitted : uint8_t { accepted, full, refused };

// One attempt at the hardware queue.
Submitted try_hardware(const via::HdmaRequest& request, HdmaOwner owner) {
  // More requests in the hardware than notes to match them would lose owners.
  if (service_tail - service_head == kInService)
    return Submitted::full;
  const via::HdmaTicket ticket = via::hdma_submit(request);
  if (ticket.accepted) {
    in_service[service_tail & (kInService - 1u)] = {ticket.id, owner};
    ++service_tail;
    return Submitted::accepted;
  }
  if (ticket.refusal == LANAI_HDMA_REFUSED_FULL)
    return Submitted::full;
  count(pvia_hdma_refusals);
  return Submitted::refused;
}

// Moves overflowed requests into the hardware queue while it has room. A
// request refused outright by then completes to its owner as refused.
void retry_overflow() {
  while (overflow_head != overflow_tail) {
    const Waiting& waiting = overflow[overflow_head & (kOverflow - 1u)];
    const Submitted result = try_hardware(waiting.request, waiting.owner);
    if (result == Submitted::full)
      return;
    const HdmaOwner owner = waiting.owner;
    ++overflow_head;
    if (result == Submitted::refused)
      deliver(owner, via::kHdmaRefused);
  }
}

} // namespace

void start_host_dma() {
  service_head = service_tail = 0u;
  overflow_head = overflow_tail = 0u;
}

bool submit_host_dma(const via::HdmaRequest& request, HdmaOwner owner) {
  // Behind earlier overflowed requests, so that the queue keeps their order.
  if (overflow_head == overflow_tail) {
    const Submitted result = try_hardware(request, owner);
    if (result != Submitted::full)
      return result == Submitted::accepted;
  }
  if (overflow_tail - overflow_head == kOverflow) {
    count(pvia_hdma_refusals);
    return false;
  }
  overflow[overflow_tail & (kOverflow - 1u)] = {request, owner};
  ++overflow_tail;
  count(pvia_hdma_overflows);
  return true;
}

void poll_host_dma() {
  for (;;) {
    const uint32_t done = via::hdma_pop_done();
    if ((done & LANAI_HDMA_DONE_VALID) == 0u)
      break;
    via::dma_fence();
    if (service_head == service_tail ||
        in_service[service_head & (kInService - 1u)].id != (done & LANAI_HDMA_ID_MASK)) {
      count(pvia_hdma_strays);
      continue;
    }
    const HdmaOwner owner = in_service[service_head & (kInService - 1u)].owner;
    ++service_head;
    deliver(owner, LANAI_HDMA_DONE_STATUS(done));
  }
  retry_overflow();
}

} // namespace pvia
