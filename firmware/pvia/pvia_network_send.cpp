// The network send DMA as PVIA drives it: a software FIFO of the send
// engine's packets (a record's fragment slot each) ready to frame and of
// acknowledgements (pvia_acks.cpp), and the one packet in flight. When the
// engine goes idle the packet in flight has left, and the head of the queue
// starts. Under a stamp-ordering scheduler the queue is kept in stamp
// order, a late but urgent packet passing those stamped after it. Built
// regulated (common/regulator.h), a reserved packet waits in the queue
// until its release cycle, and packets that are not held pass it.
#include <lanai/register_map.h>

#include "common/nic_config.h"
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
#if VIA_REGULATED
uint64_t releases[kQueue]; // 0, or the cycle before which the packet may not start
uint64_t held_until;       // 0, or the earliest release while every packet is held
uint64_t next_release;     // the release of the packet being queued
#endif
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

namespace {

// Moves the entry at `from` to `to`.
inline void move_entry(uint32_t from, uint32_t to) {
  queue[to & (kQueue - 1u)] = queue[from & (kQueue - 1u)];
  stamps[to & (kQueue - 1u)] = stamps[from & (kQueue - 1u)];
#if VIA_REGULATED
  releases[to & (kQueue - 1u)] = releases[from & (kQueue - 1u)];
#endif
}

} // namespace

void queue_packet(uint32_t packet, via::Stamp stamp) {
  uint32_t at = nsdma_queue_tail;
  if (stamp_ordered) {
    for (; at != nsdma_queue_head && stamps[(at - 1u) & (kQueue - 1u)] > stamp; --at)
      move_entry(at - 1u, at);
  }
  queue[at & (kQueue - 1u)] = static_cast<uint8_t>(packet);
  stamps[at & (kQueue - 1u)] = stamp;
#if VIA_REGULATED
  releases[at & (kQueue - 1u)] = next_release;
  next_release = 0u;
  held_until = 0u;
#endif
  ++nsdma_queue_tail;
}

#if VIA_REGULATED
void queue_held_packet(uint32_t packet, via::Stamp stamp, uint64_t release) {
  next_release = release;
  queue_packet(packet, stamp);
}
#endif

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

#if VIA_REGULATED
// Moves the entry at `at`, due now, to the head of the queue.
void to_head(uint32_t at) {
  const uint8_t packet = queue[at & (kQueue - 1u)];
  const via::Stamp stamp = stamps[at & (kQueue - 1u)];
  const uint64_t release = releases[at & (kQueue - 1u)];
  for (; at != nsdma_queue_head; --at)
    move_entry(at - 1u, at);
  queue[at & (kQueue - 1u)] = packet;
  stamps[at & (kQueue - 1u)] = stamp;
  releases[at & (kQueue - 1u)] = release;
}

// How close to a release the processor stops for it: the longest it may be
// kept by one of its other events, so that a release is met to the cycle
// rather than whenever the main loop comes round.
constexpr uint32_t kWaitMicroseconds = 8u;
uint32_t wait_cycles;

// Chooses the packet to start now, under the regulator: a held packet
// (one with a release cycle) goes at its release, and the first packet
// that is not held (best effort, an acknowledgement, a reserved packet
// already released) passes the held ones. Within kWaitMicroseconds of the
// earliest release the processor waits for it, rather than start another
// packet or go back to its other events, so that the release is met to the
// cycle, not whenever the main loop comes round. A VI's later packets are
// released no earlier than its earlier ones, so its packets keep their
// order. False if none may start now. Out of line: only a regulated
// firmware calls it.
[[gnu::noinline]] bool choose_head() {
  uint64_t now = via::cycle_now();
  if (held_until > now + wait_cycles)
    return false;
  const uint64_t head_release = releases[nsdma_queue_head & (kQueue - 1u)];
  if (head_release <= now)
    return true;
  uint64_t earliest = ~uint64_t{0};
  uint32_t first = nsdma_queue_tail;
  for (uint32_t at = nsdma_queue_head; at != nsdma_queue_tail; ++at) {
    const uint64_t release = releases[at & (kQueue - 1u)];
    if (release > now && release < earliest) {
      earliest = release;
      first = at;
    }
  }
  if (wait_cycles == 0u)
    wait_cycles = via::nic_config().clock_khz * kWaitMicroseconds / 1000u;
  if (first != nsdma_queue_tail && earliest <= now + wait_cycles) {
    while (now < earliest)
      now = via::cycle_now();
    to_head(first);
    return true;
  }
  for (uint32_t at = nsdma_queue_head + 1u; at != nsdma_queue_tail; ++at) {
    if (releases[at & (kQueue - 1u)] <= now) {
      to_head(at);
      return true;
    }
  }
  held_until = earliest;
  return false;
}
#endif

// Starts the packet at the head of the queue, passing over those that have
// nothing to send. A packet passed over is accounted for after the packet
// that has just left (just_left): the sends queued behind that one must
// complete after it.
void start_next_packet() {
  while (nsdma_queue_head != nsdma_queue_tail) {
#if VIA_REGULATED
    if (!choose_head())
      return;
#endif
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
