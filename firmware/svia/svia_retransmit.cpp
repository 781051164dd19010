// Retransmission: when a reliable VI's oldest packet kept in the send
// window has waited the profile's retransmission timeout for its
// acknowledgement, or its receiver reports a gap (VIA_ACK_F_GAP), the VI
// goes back and sends all its kept packets again, oldest first (go-back-N:
// the receiving card takes a VI's messages only in sequence), each asking
// to be acknowledged at once. After the retry limit of go-backs on a
// timeout in a row, unanswered, the VI breaks, as VIA says of a lost
// connection. The timeout is noticed when the countdown timer fires
// (svia_deadlines.cpp); the resends go one at a time, each when the
// network send DMA is idle, from the main loop, which takes arrivals in
// between: a card that sent a burst without taking packets in could wait
// forever on a peer doing the same.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/nic_config.h"
#include "common/sram_placement.h"
#include "common/vi_table.h"
#include "svia.h"
#include "svia_counters.h"
#include "svia_window.h"

namespace svia {

namespace {

using window::at;

enum class Resend : uint8_t {
  idle,    // nothing to send again
  sending, // the VI's kept packets go again, one per pass of the main loop
};
Resend state = Resend::idle;

// The engine's state as the main loop reads it, in one load.
void enter(Resend next) {
  state = next;
  resending_ = next == Resend::sending;
}
uint32_t resend_vi;
uint32_t resend_at; // the window position the next resend looks from

// Go-backs of each VI in a row with no acknowledgement between them.
uint32_t retries[VIA_MAX_VI];

// The packet's header, where it waits in the window's SRAM.
via_packet_header& header_of(const window::Kept& entry) {
  return reinterpret_cast<via::SendBuffer*>(window_ring + entry.offset)->header;
}

// The peer stayed silent past the retry limit: the VI breaks, its kept
// packets are let go, its sends waiting for an answer fail, and the host
// hears of it.
void lose_connection(uint32_t vi) {
  count(svia_connections_lost);
  for (uint32_t p = window::oldest; p != window::newest_end; ++p)
    if (at(p).waiting && at(p).vi == vi)
      window::let_go(p);
  retries[vi] = 0u;
  via::vi_break(vi);
  fail_held(vi, VIP_STATUS_TRANSPORT_ERROR);
  via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_CONN_LOST, vi));
}

// The VI's oldest kept packet timed out: it goes back to it, or breaks.
void go_back(uint32_t vi) {
  count(svia_retransmit_timeouts);
  if (++retries[vi] > via::nic_config().retry_limit) {
    if (state == Resend::sending && resend_vi == vi)
      enter(Resend::idle);
    lose_connection(vi);
    return;
  }
  enter(Resend::sending);
  resend_vi = vi;
  resend_at = window::oldest;
}

} // namespace

bool resending_;

void window::peer_answered(uint32_t vi) { retries[vi] = 0u; }

void go_back_now(uint32_t vi) {
  if (state != Resend::idle)
    return;
  const uint32_t epoch = via::vi_config(vi).epoch;
  for (uint32_t p = window::oldest; p != window::newest_end; ++p) {
    if (at(p).waiting && at(p).vi == vi && at(p).epoch == epoch) {
      enter(Resend::sending);
      resend_vi = vi;
      resend_at = p;
      return;
    }
  }
}

void resend_next() {
  if (via::nsdma_busy())
    return;
  if (static_cast<int32_t>(resend_at - window::oldest) < 0)
    resend_at = window::oldest;
  const uint32_t epoch = via::vi_config(resend_vi).epoch;
  for (; resend_at != window::newest_end; ++resend_at) {
    window::Kept& entry = at(resend_at);
    if (!entry.waiting || entry.vi != resend_vi)
      continue;
    // Left from an earlier connection of the VI: its peer must not see it.
    if (entry.epoch != epoch) {
      window::let_go(resend_at);
      continue;
    }
    via::trace_state("send:retransmit");
    via::trace_tag(resend_vi, entry.sequence);
    header_of(entry).flags |= VIA_PACKET_F_ACK_NOW;
    if (start_packet(window::framed(entry)) == 0u)
      count(svia_retransmissions);
    entry.sent_at = cycle_now();
    ++resend_at;
    via::trace_state(nullptr);
    return;
  }
  // Done: another VI that timed out meanwhile goes back next.
  enter(Resend::idle);
  set_deadline(Deadline::retransmit, cycle_now());
}

void check_retransmissions() {
  const uint32_t timeout = via::nic_config().retransmit_cycles;
  const uint32_t now = cycle_now();
  for (uint32_t p = window::oldest; p != window::newest_end; ++p) {
    window::Kept& entry = at(p);
    if (!entry.waiting)
      continue;
    // Flushed by the host since (disconnected, destroyed): nobody waits.
    if (entry.epoch != via::vi_config(entry.vi).epoch || !via::vi_connected(entry.vi)) {
      window::let_go(p);
      continue;
    }
    // One VI goes back at a time, from its oldest packet (a VI's come
    // first in the window in the order of their numbers); the others
    // that are due wait for it to finish.
    if (state == Resend::idle && now - entry.sent_at >= timeout)
      go_back(entry.vi);
  }
  window::reclaim();
  // The timer again for the packet due first, but for those that wait
  // for the VI going back to finish (it sets the timer when it has).
  bool any = false;
  uint32_t first = 0u;
  for (uint32_t p = window::oldest; p != window::newest_end; ++p) {
    const window::Kept& entry = at(p);
    if (!entry.waiting || (state != Resend::idle && now - entry.sent_at >= timeout))
      continue;
    if (!any || static_cast<int32_t>(entry.sent_at - first) < 0)
      first = entry.sent_at;
    any = true;
  }
  if (any)
    set_deadline(Deadline::retransmit, first + timeout);
}

} // namespace svia
