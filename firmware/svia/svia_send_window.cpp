// The send window: a packet of a Reliable Delivery or Reliable Reception VI
// stays where it was gathered until the receiving card acknowledges it, so
// that it can be sent again (svia_retransmit.cpp). Messages are gathered
// one behind the other into a ring of SRAM as large as four of the largest
// packets, so that a stream of small messages can keep many in flight (up
// to kKept) and large ones a few. A send starts only with room for the
// largest packet, as its size is known only once its descriptor is read,
// and the place chosen for it stays put until it is kept, whatever
// acknowledgements come meanwhile. Keeping the packet, rather than reading
// its data again from host memory, is what lets a Reliable Delivery send
// complete when its packet has left: the host may reuse its buffer then.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/nic_config.h"
#include "common/sram_placement.h"
#include "common/vi_table.h"
#include "svia.h"
#include "svia_window.h"

namespace svia {

namespace {

constexpr uint32_t kSlot = sizeof(via::SendBuffer); // the largest packet's room
constexpr uint32_t kRing = 4u * kSlot;
static_assert(kSlot % 8u == 0u, "send buffers stay 8-byte aligned one behind the other");

// Where a largest packet goes if the packets kept end at `end` and the
// oldest starts at `start`: right behind, or at the start of the ring if
// the oldest has left room there; kNoBuffer if neither has room.
uint32_t place(uint32_t end, uint32_t start) {
  if (end > start) {
    if (kRing - end >= kSlot)
      return end;
    return start >= kSlot ? 0u : kNoBuffer;
  }
  return start - end >= kSlot ? end : kNoBuffer;
}

// The end of the newest packet kept.
uint32_t kept_end;

} // namespace

bool ack_wanted;
bool ack_asked;

alignas(8) VIA_ZEROED_AT_LOAD uint8_t window_ring[kRing]{};
uint32_t window_at;

namespace window {

Kept kept[kKept];
uint32_t oldest;
uint32_t newest_end;

via::OutgoingPacket framed(const Kept& entry) {
  return {window_ring + entry.offset + VIA_MAX_ROUTE - entry.route_len, entry.length,
          entry.route_len};
}

void reclaim() {
  while (oldest != newest_end && !at(oldest).waiting)
    ++oldest;
  if (window_at != kNoBuffer)
    return;
  if (oldest == newest_end)
    window_at = kRing - kept_end >= kSlot ? kept_end : 0u;
  else if (newest_end - oldest < kKept)
    window_at = place(kept_end, at(oldest).offset);
}

void time_oldest() {
  if (oldest == newest_end)
    clear_deadline(Deadline::retransmit);
  else
    set_deadline(Deadline::retransmit, at(oldest).sent_at + via::nic_config().retransmit_cycles);
}

} // namespace window

using window::at;

void start_window() {
  window::oldest = window::newest_end = 0u;
  window_at = 0u;
  kept_end = 0u;
}

void keep_sent(uint32_t vi, uint32_t epoch, uint32_t sequence, const via::OutgoingPacket& framed) {
  window::Kept& entry = at(window::newest_end);
  entry.offset = window_at;
  entry.length = framed.length;
  entry.sequence = sequence;
  entry.epoch = epoch;
  entry.sent_at = cycle_now();
  entry.vi = static_cast<uint8_t>(vi);
  entry.route_len = static_cast<uint8_t>(framed.route_len);
  entry.waiting = true;
  ++window::newest_end;
  kept_end = (window_at + VIA_MAX_ROUTE - framed.route_len + framed.length + 7u) & ~7u;
  const uint32_t count = window::newest_end - window::oldest;
  const uint32_t start = at(window::oldest).offset;
  window_at = count < window::kKept ? place(kept_end, start) : kNoBuffer;
  const uint32_t used = kept_end > start ? kept_end - start : kRing - start + kept_end;
  ack_wanted = !ack_asked && (2u * count >= window::kKept || used + 3u * kSlot > kRing);
  if (count == 1u)
    set_deadline(Deadline::retransmit, entry.sent_at + via::nic_config().retransmit_cycles);
}

bool settle_sent(uint32_t vi, uint32_t sequence, bool exact) {
  bool settled = false;
  const uint32_t epoch = via::vi_config(vi).epoch;
  for (uint32_t p = window::oldest; p != window::newest_end; ++p) {
    window::Kept& entry = at(p);
    if (!entry.waiting || entry.vi != vi)
      continue;
    // Left from an earlier connection of the VI: nobody waits for it.
    if (entry.epoch != epoch) {
      entry.waiting = false;
      continue;
    }
    // A VI's packets are kept in the order of their numbers.
    if (!via::sequence_at_most(entry.sequence, sequence))
      break;
    if (exact && entry.sequence != sequence)
      continue;
    entry.waiting = false;
    settled = true;
  }
  if (settled) {
    ack_asked = false;
    window::peer_answered(vi);
    window::reclaim();
    window::time_oldest();
  }
  return settled;
}

} // namespace svia
