// The scheduling policy a VIA firmware is built with: it stamps each piece
// of work (a posted send, a received packet) and says whether the queues it
// feeds (VI selection, send buffers, the host DMA queue, the network send
// queue) are kept in stamp order or simply first come, first served. One
// implementation is linked per firmware: sched_fcfs.cpp (PVIA, no stamps),
// sched_arrival.cpp (stamped FCFS), sched_virtual_clock.cpp,
// sched_sfq.cpp.
//
// Work is stamped with the time the host posted it (the doorbell queue's
// arrival time) or the time its packet reached the card, never with the
// time the firmware got round to it: a busy card notices doorbells late and
// in bursts, and that must not reorder them.
//
// Firmware SDK: stable. This is the interface a scheduler part implements:
// a variant replacing part "scheduler" of pvia or qosvia defines all six
// functions below (docs/firmware-variants.md); the helpers after them are
// inline and come with the header.
#pragma once

#include <stdint.h>

#include <lanai/register_map.h>

namespace via {

// Smaller stamps are served first; equal stamps keep their arrival order.
using Stamp = uint64_t;
// Best effort under VirtualClock: behind every reserved request.
constexpr Stamp kStampLast = ~Stamp{0};

// A stamp, and the cycle from which the work may go ahead of work that is
// not yet due (0: always due). Only rate-regulated policies hold work back.
struct Stamping {
  Stamp stamp;
  uint64_t due;
};

// True if queues are kept in stamp order; false: plain FIFO order and
// round robin across VIs, with every stamp 0.
bool scheduler_orders_queues();
// A send of `vi` posted at cycle `posted` asks for `bytes` on the wire (0:
// not known yet, a whole message's worth); a packet of `bytes` for
// receiving VI `vi` reached the card at cycle `arrived`. Each fragment of a
// message after its first is stamped again with `posted` 0 (the VI's clock
// goes on from where the message left it); the fragment keeps the larger of
// that stamp and the message's.
Stamping stamp_send(uint32_t vi, uint32_t bytes, uint64_t posted);
Stamp stamp_receive(uint32_t vi, uint32_t bytes, uint64_t arrived);
// Work that belongs to no one flow (a receive descriptor prefetch): urgent.
Stamp stamp_now();
// The send stamped `stamp` was chosen for service (SFQ's virtual time):
// called as each of its fragments starts, and only when
// scheduler_tracks_service() is true (the call costs the engine time).
void stamp_served(Stamp stamp);
bool scheduler_tracks_service();

// The LANai cycle counter: the low word latches the high one.
inline uint64_t cycle_now() {
  const uint32_t lo = lanai_mmio_read(LANAI_REG_CYCLE_LO);
  const uint32_t hi = lanai_mmio_read(LANAI_REG_CYCLE_HI);
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

// The cycle counter, read the first time it is asked for (work that is
// always due needs no clock).
class LazyClock {
public:
  uint64_t now() {
    if (!read_) {
      now_ = cycle_now();
      read_ = true;
    }
    return now_;
  }

private:
  uint64_t now_ = 0u;
  bool read_ = false;
};

// True if work `a` goes before work `b`, in stamp order then arrival order
// (`a_serial`, `b_serial`: card-wide numbers in arrival order), when
// neither has a due time.
// The words are compared one at a time, high first: a 32-bit core then
// decides on the high words alone when they differ, and loads the low words
// only when they do not, where the plain 64-bit comparison loads and
// compares both always.
inline bool stamped_first(Stamp a, uint32_t a_serial, Stamp b, uint32_t b_serial) {
  const uint32_t a_high = static_cast<uint32_t>(a >> 32), b_high = static_cast<uint32_t>(b >> 32);
  if (a_high != b_high)
    return a_high < b_high;
  const uint32_t a_low = static_cast<uint32_t>(a), b_low = static_cast<uint32_t>(b);
  if (a_low != b_low)
    return a_low < b_low;
  return static_cast<int32_t>(a_serial - b_serial) < 0;
}

// True if work `a` goes before work `b` now: due work before work not yet
// due, then the smaller stamp. Ties are the caller's to break (arrival
// order).
inline bool serve_first(const Stamping& a, const Stamping& b, LazyClock& clock) {
  if ((a.due | b.due) != 0u) {
    const uint64_t now = clock.now();
    const bool a_due = a.due <= now, b_due = b.due <= now;
    if (a_due != b_due)
      return a_due;
  }
  return a.stamp < b.stamp;
}

} // namespace via
