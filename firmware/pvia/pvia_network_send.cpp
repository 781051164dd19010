// The network send DMA as PVIA drives it: a software FIFO of the send
// engine's packets (a record's fragment slot each) ready to frame and of
// acknowledgements (pvia_acks.cpp), and the one packet in flight. When the
// engine goes idle the packet in flight has left, and the head of the queue
// starts. Under a stamp-ordering scheduler the queue is kept in stamp
// order, a late but urgent packet passing those stamped after it.
#include <lanai/register_map.h>

#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

uint32_t nsdma_queue_head;
uint32_t nsdma_queue_tail;
uint32_t nsdma_in_flight = kNoPacket;

namespace {

constexpr uint32_t kQueue = 64u; // at least the fragment slots and acknowledgements
static_assert((kQueue & (kQueue - 1u)) == 0u, "indices wrap by masking");

uint8_t queue[kQueue];
via::Stamp stamps[kQueue];
bool stamp_ordered;

// The packet that has just left, until it is accounted for (kNoPacket:
// none, or done).
uint32_t just_left = kNoPacket;

uint32_t start_error(uint32_t result) {
  return result == LANAI_NSDMA_TOO_LARGE ? VIP_STATUS_LENGTH_ERROR : VIP_STATUS_TRANSPORT_ERROR;
}

} // namespace

void start_network_send() {
  nsdma_queue_head = nsdma_queue_tail = 0u;
  nsdma_in_flight = kNoPacket;
  stamp_ordered = via::scheduler_orders_queues();
}

void queue_packet(uint32_t packet, via::Stamp stamp) {
  uint32_t at = nsdma_queue_tail;
  if (stamp_ordered) {
    for (; at != nsdma_queue_head && stamps[(at - 1u) & (kQueue - 1u)] > stamp; --at) {
      queue[at & (kQueue - 1u)] = queue[(at - 1u) & (kQueue - 1u)];
      stamps[at & (kQueue - 1u)] = stamps[(at - 1u) & (kQueue - 1u)];
    }
  }
  queue[at & (kQueue - 1u)] = static_cast<uint8_t>(packet);
  stamps[at & (kQueue - 1u)] = stamp;
  ++nsdma_queue_tail;
}

namespace {

// A packet that has nothing to send leaves the queue; the one that has
// just left is accounted for first. Out of line: it is rare.
[[gnu::noinline]] void skip(uint32_t packet) {
  if (just_left != kNoPacket) {
    count(pvia_packets_sent);
    send_packet_left(just_left);
    just_left = kNoPacket;
  }
  send_packet_skipped(packet);
}

// Starts the packet at the head of the queue, passing over those that have
// nothing to send. A packet passed over is accounted for after the packet
// that has just left (just_left): the sends queued behind that one must
// complete after it.
void start_next_packet() {
  while (nsdma_queue_head != nsdma_queue_tail) {
    const uint32_t packet = queue[nsdma_queue_head & (kQueue - 1u)];
    // A failed send has no packet, but its completion waits its turn here
    // too, after the packet in flight.
    via::OutgoingPacket framed;
    if (!send_packet_ready(packet, framed)) {
      ++nsdma_queue_head;
      skip(packet);
      continue;
    }
    if (stamp_ordered)
      via::trace_stamp(stamps[nsdma_queue_head & (kQueue - 1u)]);
    const uint32_t result =
        via::nsdma_start(via::sram_address(framed.start), framed.length, framed.route_len);
    // Busy: a packet this firmware did not start is still leaving; try later.
    if (result == LANAI_NSDMA_BUSY)
      return;
    ++nsdma_queue_head;
    if (result == LANAI_NSDMA_ACCEPTED) {
      nsdma_in_flight = packet;
      send_packet_started(packet, 0u);
      return;
    }
    send_packet_started(packet, start_error(result));
  }
}

} // namespace

void poll_network_send() {
  // The wire first: the next packet starts before the one that left is
  // accounted for.
  const uint32_t left = nsdma_in_flight;
  nsdma_in_flight = kNoPacket;
  just_left = left;
  start_next_packet();
  if (just_left != kNoPacket) {
    count(pvia_packets_sent);
    send_packet_left(just_left);
  }
}

} // namespace pvia
