// The checks every firmware makes on an arrived packet (see
// arrival_checks.h), and the per-VI sequence numbers they keep.
#include "common/arrival_checks.h"

#include <lanai/via_abi.h>

#include "common/ack_packet.h"
#include "common/devices.h"
#include "common/vi_table.h"
#include "common/via_counters.h"

namespace via {

namespace sequence_table {

uint32_t expected_sequence[VIA_MAX_VI];
uint32_t sequence_epoch[VIA_MAX_VI];

} // namespace sequence_table

namespace {

using sequence_table::expected_sequence;
using sequence_table::sequence_epoch;

// A VI the host has flushed since its last message starts from 0 again.
[[gnu::always_inline]] inline void restart_on_new_epoch(uint32_t vi) {
  const uint32_t epoch = vi_config(vi).epoch + 1u;
  if (sequence_epoch[vi] != epoch) {
    sequence_epoch[vi] = epoch;
    expected_sequence[vi] = 0u;
  }
}

// Each VI's outcome codes (VIA_ACK_OUTCOME_*, the newest in the low bits)
// and the message the newest is of.
uint32_t outcomes[VIA_MAX_VI];
uint32_t outcome_sequence[VIA_MAX_VI];

} // namespace

uint32_t outcomes_as_of(uint32_t vi, uint32_t sequence) {
  const uint32_t ahead = sequence - outcome_sequence[vi];
  return ahead < VIA_ACK_OUTCOMES ? outcomes[vi] << (2u * ahead) : 0u;
}

uint32_t note_outcome(uint32_t vi, uint32_t sequence, uint32_t status) {
  // Earlier messages not noted (a new connection's, say) count as taken.
  const uint32_t word = outcomes_as_of(vi, sequence) & ~3u;
  outcomes[vi] = word | outcome_code(status);
  outcome_sequence[vi] = sequence;
  return outcomes[vi];
}

PacketCheck check_packet(const ReceiveBuffer& buffer, uint32_t payload_bytes, uint32_t source,
                         uint32_t damage) {
  if (damage != 0u)
    return PacketCheck::damaged;
  PacketCheck kind = PacketCheck::data;
  if (!packet_well_formed(buffer, payload_bytes)) {
    if (!ack_well_formed(buffer, payload_bytes))
      return PacketCheck::damaged;
    kind = PacketCheck::ack;
  }
  // The network stamps the true sender; a header naming another is not
  // to be trusted with a VI's data (nor with settling its sends).
  return buffer.header.src_node == source ? kind : PacketCheck::damaged;
}

// One path and one receive DMA keep a VI's packets in order, so a gap means
// a message was lost before this card took it (or the peer VI restarted).
void note_sequence(uint32_t vi, uint32_t sequence) {
  if (sequence != expected_sequence[vi])
    count(via_sequence_gaps);
  expected_sequence[vi] = sequence + 1u;
}

void note_sequence_in_epoch(uint32_t vi, uint32_t sequence) {
  restart_on_new_epoch(vi);
  note_sequence(vi, sequence);
}

InSequence judge_sequence(uint32_t vi, uint32_t sequence) {
  restart_on_new_epoch(vi);
  const uint32_t expected = expected_sequence[vi];
  if (sequence == expected)
    return InSequence::next;
  if (static_cast<int32_t>(sequence - expected) < 0) {
    count(via_duplicates_dropped);
    return InSequence::duplicate;
  }
  count(via_out_of_sequence_dropped);
  return InSequence::ahead;
}

void take_sequence(uint32_t vi, uint32_t sequence) { expected_sequence[vi] = sequence + 1u; }

uint32_t last_sequence(uint32_t vi) { return expected_sequence[vi] - 1u; }

bool take_unreliable(uint32_t vi, uint32_t sequence) {
  restart_on_new_epoch(vi);
  const uint32_t expected = expected_sequence[vi];
  if (static_cast<int32_t>(sequence - expected) < 0) {
    count(via_duplicates_dropped);
    return false;
  }
  if (sequence != expected)
    count(via_sequence_gaps);
  expected_sequence[vi] = sequence + 1u;
  return true;
}

void no_receive_posted(uint32_t vi) {
  if (!vi_reliable(vi)) {
    count(via_unreliable_drops);
    return;
  }
  // Reliable levels promise every message or a broken connection.
  count(via_recvq_empty_errors);
  vi_break(vi);
  raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_RECVQ_EMPTY, vi));
}

} // namespace via
