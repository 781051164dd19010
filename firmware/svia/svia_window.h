// The send window's bookkeeping, shared by the files that keep packets
// (svia_send_window.cpp) and resend them (svia_retransmit.cpp): the
// packets of reliable VIs not yet acknowledged, oldest first, each where it
// was gathered in the window's SRAM.
#pragma once

#include <stdint.h>

#include "common/packet.h"

namespace svia::window {

struct Kept {
  uint32_t offset; // where its send buffer starts in the window's SRAM
  uint32_t length; // the framed packet's bytes, route included
  uint32_t sequence;
  uint32_t epoch;   // the VI's epoch when it left: a flushed VI's are let go
  uint32_t sent_at; // LANai cycle it last left
  uint8_t vi;
  uint8_t route_len;
  bool waiting; // not yet acknowledged (else its room awaits the older ones')
  uint8_t unused[9];
};
// A power of two, so that finding an entry costs a shift.
static_assert(sizeof(Kept) == 32u, "window entries are 32 bytes");

constexpr uint32_t kKept = 64u;
extern Kept kept[kKept];
// Free-running positions: the oldest kept, and one past the newest.
extern uint32_t oldest;
extern uint32_t newest_end;
inline Kept& at(uint32_t position) { return kept[position % kKept]; }

// The packet at `position` leaves the window: acknowledged, or its VI gone.
inline void let_go(uint32_t position) { at(position).waiting = false; }
// Takes back the room of the oldest packets no longer waiting; if the
// window was full, decides where the next message goes.
void reclaim();
// The retransmission deadline again, for the oldest packet kept (the
// first to time out unless it was resent; check_retransmissions() then
// finds the others), or none.
void time_oldest();
// The packet kept at `position`, framed as it first left.
via::OutgoingPacket framed(const Kept& entry);
// The VI's peer acknowledged something: its count of resends in a row
// starts again.
void peer_answered(uint32_t vi);

} // namespace svia::window
