// The send window: a packet of a Reliable Delivery or Reliable Reception VI
// stays in the send buffer it left from until the receiving card
// acknowledges it, and a VI whose oldest kept packet has waited the
// profile's retransmission timeout sends all its kept packets again, oldest
// first (go-back-N: the receiver takes a VI's messages only in sequence).
// After the retry limit of unanswered resends in a row the VI breaks, as
// VIA says of a lost connection. Keeping the buffer, rather than reading
// the data again from host memory, is what lets a Reliable Delivery send
// complete when its packet has left: the host may reuse its buffer then.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/ack_packet.h"
#include "common/nic_config.h"
#include "common/sram_placement.h"
#include "common/vi_table.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

VIA_ZEROED_AT_LOAD via::SendBuffer window_buffers[kWindow]{};
uint32_t window_current;
uint32_t window_free;

namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;

// What a kept buffer holds besides the packet itself.
struct Kept {
  bool kept;
  uint8_t vi;
  uint32_t epoch;    // the VI's epoch when it left: a flushed VI's are let go
  uint32_t peer;     // (node << 16) | VI its acknowledgement comes from
  uint32_t sequence;
  uint32_t sent_at;  // LANai cycle it last left
  via::OutgoingPacket framed;
};

Kept kept[kWindow];
uint8_t free_buffers[kWindow];
uint32_t kept_count;
// Resends of each VI in a row with no acknowledgement between them.
uint32_t retries[VIA_MAX_VI];
// The cycle at which the oldest kept packet times out (while any is kept):
// until then the main loop's look costs one clock read.
uint32_t next_due;

uint32_t now() { return lanai_mmio_read(LANAI_REG_CYCLE_LO); }

// The next message is gathered into the buffer freed last (the top of the
// free stack); it changes only between sends.
void release(uint32_t b) {
  kept[b].kept = false;
  --kept_count;
  free_buffers[window_free++] = static_cast<uint8_t>(b);
  window_current = b;
}

// The VI's kept packet with the lowest number after `after` (kNone: any),
// or kNone.
// Out of line, as are the two below: inlined together they send clang-14's
// LANai back end into a loop, and they run only on a timeout.
[[gnu::noinline]] uint32_t oldest_of(uint32_t vi, uint32_t after) {
  uint32_t pick = kNone;
  for (uint32_t b = 0u; b < kWindow; ++b) {
    const Kept& entry = kept[b];
    if (!entry.kept || entry.vi != vi)
      continue;
    if (after != kNone && via::sequence_at_most(entry.sequence, kept[after].sequence))
      continue;
    if (pick == kNone || via::sequence_at_most(entry.sequence, kept[pick].sequence))
      pick = b;
  }
  return pick;
}

// The peer stayed silent past the retry limit: the VI breaks, its kept
// packets are let go, its sends waiting for an answer fail, and the host
// hears of it.
[[gnu::noinline]] void lose_connection(uint32_t vi) {
  count(svia_connections_lost);
  for (uint32_t b = 0u; b < kWindow; ++b)
    if (kept[b].kept && kept[b].vi == vi)
      release(b);
  retries[vi] = 0u;
  via::vi_break(vi);
  fail_held(vi, VIP_STATUS_TRANSPORT_ERROR);
  via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_CONN_LOST, vi));
}

// Sends every kept packet of the VI again, oldest first.
[[gnu::noinline]] void go_back(uint32_t vi) {
  count(svia_retransmit_timeouts);
  if (++retries[vi] > via::nic_config().retry_limit) {
    lose_connection(vi);
    return;
  }
  for (uint32_t b = oldest_of(vi, kNone); b != kNone; b = oldest_of(vi, b)) {
    Kept& entry = kept[b];
    via::trace_state("send:retransmit");
    via::trace_tag(vi, entry.sequence);
    if (start_packet(entry.framed) == 0u) {
      count(svia_retransmissions);
      finish_packet();
    }
    entry.sent_at = now();
  }
  via::trace_state(nullptr);
}

} // namespace

void start_window() {
  window_free = 0u;
  kept_count = 0u;
  for (uint32_t b = kWindow; b-- > 0u;) {
    kept[b].kept = false;
    free_buffers[window_free++] = static_cast<uint8_t>(b);
  }
  // The current buffer is the top of the free stack, counted as free.
  window_current = free_buffers[window_free - 1u];
}

void keep_sent(uint32_t vi, const via::OutgoingPacket& framed) {
  const uint32_t b = window_current;
  Kept& entry = kept[b];
  volatile via_vi_config& config = via::vi_config(vi);
  entry.kept = true;
  entry.vi = static_cast<uint8_t>(vi);
  entry.epoch = config.epoch;
  entry.peer = config.remote_node << 16 | config.remote_vi;
  entry.sequence = window_buffers[b].header.sequence;
  entry.sent_at = now();
  entry.framed = framed;
  if (kept_count == 0u)
    next_due = entry.sent_at + via::nic_config().retransmit_cycles;
  ++kept_count;
  --window_free;
  if (window_free != 0u)
    window_current = free_buffers[window_free - 1u];
}

bool settle_sent(uint32_t vi, uint32_t peer, uint32_t sequence, bool exact) {
  bool settled = false;
  for (uint32_t b = 0u; b < kWindow; ++b) {
    const Kept& entry = kept[b];
    if (!entry.kept || entry.vi != vi || entry.peer != peer)
      continue;
    if (exact ? entry.sequence != sequence : !via::sequence_at_most(entry.sequence, sequence))
      continue;
    release(b);
    settled = true;
  }
  if (settled)
    retries[vi] = 0u;
  return settled;
}

void check_retransmissions() {
  if (kept_count == 0u || static_cast<int32_t>(now() - next_due) < 0)
    return;
  const uint32_t timeout = via::nic_config().retransmit_cycles;
  for (uint32_t b = 0u; b < kWindow; ++b) {
    const Kept& entry = kept[b];
    if (!entry.kept)
      continue;
    const uint32_t vi = entry.vi;
    // Flushed by the host since (disconnected, destroyed): nobody waits.
    if (entry.epoch != via::vi_config(vi).epoch || !via::vi_connected(vi)) {
      release(b);
      continue;
    }
    if (now() - entry.sent_at >= timeout)
      go_back(vi);
  }
  const uint32_t at = now();
  uint32_t soonest = timeout;
  for (uint32_t b = 0u; b < kWindow; ++b) {
    if (!kept[b].kept)
      continue;
    const uint32_t waited = at - kept[b].sent_at;
    const uint32_t left = waited >= timeout ? 0u : timeout - waited;
    if (left < soonest)
      soonest = left;
  }
  next_due = at + soonest;
}

} // namespace svia
