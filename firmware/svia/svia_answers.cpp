// Reliable Reception on SVIA: a send's completion waits, in a small table,
// until the receiving card acknowledges that the data is in host memory
// (the acknowledgement comes in like any packet, so nothing busy-waits
// for it), and the sends of its VI behind it wait their turn, so a VI's
// completions keep their posting order. Acknowledgements for the messages
// this card receives wait in a queue (a VI's newest absorbing the next)
// and leave from the main loop whenever the network send DMA is idle:
// never waited for, as a card that stopped taking packets until its
// acknowledgement left could wait for a peer stopped the same way.
#include <lanai/via_abi.h>

#include "common/arrival_checks.h"
#include "common/sram_placement.h"
#include "common/vi_table.h"
#include "common/flow_control.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

namespace {

constexpr uint32_t kHeld = kHeldCompletions;

struct Entry {
  HeldCompletion completion;
  uint32_t peer; // (node << 16) | VI the acknowledgement must come from
  uint8_t next;  // the VI's next entry (+1; 0: none)
  bool answered;
};

Entry entries[kHeld];
uint8_t free_entries[kHeld];
// Each VI's last entry (+1; 0: none); held_first has the first.
uint8_t tail[VIA_MAX_VI];

VIA_ZEROED_AT_LOAD via::AckBuffer ack_buffer{};

// Acknowledgements not yet sent, in order (free-running positions
// acks_head, acks_tail), and each VI's newest one's position (kNone: none
// queued).
constexpr uint32_t kAcks = kAcksQueued;
constexpr uint32_t kNone = 0xFFFFFFFFu;
via::Ack acks[kAcks];
uint32_t newest_ack[VIA_MAX_VI];

// Writes the completions at the front of the VI's list that may be
// written: an entry posted before the host last flushed the VI is let go,
// the host having completed its descriptor as flushed.
void complete_front(uint32_t vi) {
  const uint32_t epoch = via::vi_config(vi).epoch;
  while (held_first[vi] != 0u) {
    const uint32_t e = held_first[vi] - 1u;
    Entry& entry = entries[e];
    const HeldCompletion& held = entry.completion;
    if (held.posted.epoch == epoch && held.waits && !entry.answered)
      return;
    held_first[vi] = entry.next;
    if (held_first[vi] == 0u)
      tail[vi] = 0u;
    free_entries[held_free++] = static_cast<uint8_t>(e);
    if (held.posted.epoch != epoch) {
      count(via_stale_descriptors);
      continue;
    }
    via::trace_state("send:write_status");
    via::trace_tag(vi, held.sequence);
    prepare_completion(held.immediate, held.length, held.status);
    write_completion(vi, held.posted);
  }
}

} // namespace

uint8_t held_first[VIA_MAX_VI];
uint32_t held_free;
uint32_t acks_head;
uint32_t acks_tail;
uint32_t acks_queued;

void start_answers() {
  held_free = 0u;
  for (uint32_t e = kHeld; e-- > 0u;)
    free_entries[held_free++] = static_cast<uint8_t>(e);
  for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi)
    newest_ack[vi] = kNone;
}

void hold_completion(uint32_t vi, const HeldCompletion& held) {
  const uint32_t e = free_entries[--held_free];
  Entry& entry = entries[e];
  entry.completion = held;
  volatile via_vi_config& config = via::vi_config(vi);
  entry.peer = config.remote_node << 16 | config.remote_vi;
  entry.next = 0u;
  entry.answered = false;
  if (tail[vi] == 0u)
    held_first[vi] = static_cast<uint8_t>(e + 1u);
  else
    entries[tail[vi] - 1u].next = static_cast<uint8_t>(e + 1u);
  tail[vi] = static_cast<uint8_t>(e + 1u);
  complete_front(vi);
}

void fail_held(uint32_t vi, uint32_t errors) {
  for (uint32_t at = held_first[vi]; at != 0u; at = entries[at - 1u].next) {
    Entry& entry = entries[at - 1u];
    if (!entry.completion.waits || entry.answered)
      continue;
    entry.answered = true;
    entry.completion.status |= errors;
  }
  complete_front(vi);
}

void ack_arrived(const via_packet_header& ack) {
  const uint32_t vi = ack.dst_vi;
  count(svia_acks_received);
  if (!via::vi_valid(vi)) {
    count(svia_stray_acks);
    return;
  }
  if (via::flow::is_credit(ack)) {
    via::flow::credit_arrived(ack);
    return;
  }
  via::trace_tag(vi, ack.sequence);
  const uint32_t peer = uint32_t{ack.src_node} << 16 | ack.src_vi;
  const bool exact = (ack.flags & VIA_ACK_F_EXACT) != 0u;
  // A later acknowledgement stands for every earlier one; an exact one for
  // its message alone.
  // The packets it settles no longer need keeping.
  volatile via_vi_config& config = via::vi_config(vi);
  bool matched =
      peer == (config.remote_node << 16 | config.remote_vi) && settle_sent(vi, ack.sequence, exact);
  for (uint32_t at = held_first[vi]; at != 0u; at = entries[at - 1u].next) {
    Entry& entry = entries[at - 1u];
    HeldCompletion& held = entry.completion;
    if (!held.waits || entry.answered || entry.peer != peer)
      continue;
    if (exact ? held.sequence != ack.sequence : !via::sequence_at_most(held.sequence, ack.sequence))
      continue;
    entry.answered = true;
    // A cumulative acknowledgement repeats the outcomes of the messages
    // before its own, in case theirs was lost.
    if (held.sequence == ack.sequence)
      held.status |= ack.immediate;
    else if (!exact)
      held.status |= via::acked_status(ack.sequence, ack.offset, held.sequence);
    matched = true;
  }
  if (!matched && (ack.flags & VIA_ACK_F_GAP) == 0u)
    count(svia_stray_acks);
  // The message after the acknowledged one was lost: resend from it now.
  if ((ack.flags & VIA_ACK_F_GAP) != 0u && peer == (config.remote_node << 16 | config.remote_vi))
    go_back_now(vi);
  complete_front(vi);
}

bool take_waiting_ack() {
  const Arrival* arrival = pending_arrival();
  if (arrival == nullptr)
    return false;
  const via_packet_header& ack = arrival->buffer->header;
  if (ack.kind != VIA_PACKET_ACK || !via::vi_valid(ack.dst_vi) || completions_held(ack.dst_vi) ||
      via::check_packet(*arrival->buffer, arrival->payload_bytes, arrival->source,
                        arrival->damage) != via::PacketCheck::ack)
    return false;
  via::trace_state("ack:arrival");
  ack_arrived(ack);
  release_arrival();
  return true;
}

void take_acknowledgement(uint32_t vi, uint32_t sequence) {
  if (!take_waiting_ack())
    return;
  via::trace_state("send:gather_data");
  via::trace_tag(vi, sequence);
}

void send_ack(const via::Ack& ack) {
  // A cumulative acknowledgement absorbs into its VI's newest one not yet
  // sent, unless either says more (a failure, a gap).
  if (ack.flags == 0u) {
    const uint32_t at = newest_ack[ack.from_vi];
    if (at != kNone && at - acks_head < acks_tail - acks_head) {
      via::Ack& queued = acks[at % kAcks];
      if (queued.status == 0u && queued.flags == 0u && queued.node == ack.node &&
          queued.vi == ack.vi) {
        queued.sequence = ack.sequence;
        queued.status = ack.status;
        queued.outcomes = ack.outcomes;
        return;
      }
    }
  }
  // The main loop delivers a packet only with room for its answer.
  if (!ack_room())
    return;
  acks[acks_tail % kAcks] = ack;
  newest_ack[ack.from_vi] = (ack.flags & VIA_ACK_F_EXACT) == 0u ? acks_tail : kNone;
  ++acks_tail;
  ++acks_queued;
}

bool send_credit(const via::Ack& ack) {
  const uint32_t at = newest_ack[ack.from_vi];
  if (at != kNone && at - acks_head < acks_tail - acks_head) {
    via::Ack& queued = acks[at % kAcks];
    if (queued.flags == ack.flags && queued.node == ack.node && queued.vi == ack.vi) {
      queued.sequence = ack.sequence;
      return true;
    }
  }
  if (!ack_room())
    return false;
  send_ack(ack);
  return true;
}

void send_next_ack() {
  if (via::nsdma_busy())
    return; // the packet before it (and so the buffer) is still leaving
  const via::Ack& ack = acks[acks_head % kAcks];
  via::trace_state("ack:transmit");
  via::trace_tag(ack.from_vi, ack.sequence);
  via::OutgoingPacket framed;
  if (!via::frame_ack(ack_buffer, this_node, ack, framed))
    count(svia_acks_unroutable);
  else if (start_packet(framed) == 0u)
    count(svia_acks_sent);
  ++acks_head;
  --acks_queued;
  via::trace_state(nullptr);
}

} // namespace svia
