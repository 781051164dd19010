// The network send DMA as PVIA drives it: a software FIFO of send records
// whose packets are framed and ready, and the one packet in flight. When the
// engine goes idle the packet in flight has left, and the head of the queue
// starts. Under a stamp-ordering scheduler the queue is kept in stamp
// order, a late but urgent packet passing those stamped after it.
#include <lanai/register_map.h>

#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

namespace {

constexpr uint32_t kQueue = 16u; // at least the number of send records
constexpr uint32_t kNone = 0xFFFFFFFFu;
static_assert((kQueue & (kQueue - 1u)) == 0u, "indices wrap by masking");

uint8_t queue[kQueue];
via::Stamp stamps[kQueue];
bool stamp_ordered;
uint32_t head;
uint32_t tail;
uint32_t in_flight = kNone;

uint32_t start_error(uint32_t result) {
  return result == LANAI_NSDMA_TOO_LARGE ? VIP_STATUS_LENGTH_ERROR : VIP_STATUS_TRANSPORT_ERROR;
}

} // namespace

void start_network_send() {
  head = tail = 0u;
  in_flight = kNone;
  stamp_ordered = via::scheduler_orders_queues();
}

void queue_packet(uint32_t record, via::Stamp stamp) {
  uint32_t at = tail;
  if (stamp_ordered) {
    for (; at != head && stamps[(at - 1u) & (kQueue - 1u)] > stamp; --at) {
      queue[at & (kQueue - 1u)] = queue[(at - 1u) & (kQueue - 1u)];
      stamps[at & (kQueue - 1u)] = stamps[(at - 1u) & (kQueue - 1u)];
    }
  }
  queue[at & (kQueue - 1u)] = static_cast<uint8_t>(record);
  stamps[at & (kQueue - 1u)] = stamp;
  ++tail;
}

void poll_network_send() {
  if (in_flight != kNone) {
    if (via::nsdma_busy())
      return;
    const uint32_t left = in_flight;
    in_flight = kNone;
    count(pvia_packets_sent);
    send_packet_left(left);
  }
  while (head != tail) {
    const uint32_t record = queue[head & (kQueue - 1u)];
    // A failed send has no packet, but its completion waits its turn here
    // too, after the packet in flight.
    via::OutgoingPacket packet;
    if (!send_packet_ready(record, packet)) {
      ++head;
      send_packet_skipped(record);
      continue;
    }
    const uint32_t result =
        via::nsdma_start(via::sram_address(packet.start), packet.length, packet.route_len);
    // Busy: a packet this firmware did not start is still leaving; try later.
    if (result == LANAI_NSDMA_BUSY)
      return;
    ++head;
    if (result == LANAI_NSDMA_ACCEPTED) {
      in_flight = record;
      send_packet_started(record, 0u);
      return;
    }
    send_packet_started(record, start_error(result));
  }
}

} // namespace pvia
