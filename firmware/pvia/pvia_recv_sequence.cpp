// The receive engine's numbering of the messages a sender waits to have
// answered (kAnswered: Reliable Reception, SVIA's reliable messages): taken
// strictly in sequence as the sender goes back to the first one the fabric
// lost, and the record that waits for its message sent again whole when it
// lost a fragment (pvia_recv.cpp takes that message when it comes).
#include <lanai/via_abi.h>

#include "common/arrival_checks.h"
#include "common/sram_placement.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_recv_record.h"

namespace pvia {

namespace receive_engine {

namespace {

// Each VI's next number expected + 1 when a message past a gap was last
// reported to its sender.
VIA_ZEROED_AT_LOAD uint32_t gap_reported[VIA_MAX_VI]{};

// Each VI's record waiting for its message sent again, + 1 (0: none).
VIA_ZEROED_AT_LOAD uint8_t waiting_resend[VIA_MAX_VI]{};

} // namespace

bool taken_before(uint32_t vi, uint32_t sequence) {
  return via::sequence_table::sequence_epoch[vi] == via::vi_config(vi).epoch + 1u &&
         static_cast<int32_t>(sequence - via::sequence_table::expected_sequence[vi]) < 0;
}

bool in_sequence(uint32_t vi, const via_packet_header& header) {
  const via::InSequence verdict = via::judge_sequence(vi, header.sequence);
  if (verdict == via::InSequence::next)
    return true;
  if (verdict == via::InSequence::duplicate) {
    (void)acknowledge_again(vi, header, false);
  } else if (gap_reported[vi] != via::last_sequence(vi) + 2u &&
             acknowledge_again(vi, header, true)) {
    gap_reported[vi] = via::last_sequence(vi) + 2u;
  }
  return false;
}

void wait_for_resend(uint32_t r) {
  ReceiveRecord& record = via::in_register(&records[r]);
  if (record.awaiting)
    return;
  record.awaiting = true;
  const uint32_t vi = record.vi;
  waiting_resend[vi] = static_cast<uint8_t>(r + 1u);
  via::sequence_table::expected_sequence[vi] = record.sequence;
  gap_reported[vi] = record.sequence + 1u;
  via_packet_header from{};
  from.src_node = record.src_node;
  from.src_vi = record.src_vi;
  (void)acknowledge_again(vi, from, true);
}

uint32_t waiting_for_resend(uint32_t vi) {
  return waiting_resend[vi] != 0u ? waiting_resend[vi] - 1u : kNoRecord;
}

void stop_waiting(uint32_t r) {
  ReceiveRecord& record = records[r];
  record.awaiting = false;
  if (waiting_resend[record.vi] == r + 1u)
    waiting_resend[record.vi] = 0u;
}

void end_wait(uint32_t r) {
  ReceiveRecord& record = records[r];
  if (!record.awaiting)
    return;
  stop_waiting(r);
  uint32_t& expected = via::sequence_table::expected_sequence[record.vi];
  if (expected == record.sequence)
    expected = record.sequence + 1u;
}

} // namespace receive_engine

} // namespace pvia
