// Sends that complete on their peer's answer: under Reliable Reception a
// send or RDMA write completes when the receiving card acknowledges that
// its data is in host memory, and an RDMA read completes once its data is
// in place here (or its target refused it). A VI's completions are written
// in posting order, so a send behind one that waits waits too: such sends
// queue per VI in the order their last fragments left, which is posting
// order, and complete from the front as answers come in.
#include <lanai/via_abi.h>

#include "common/ack_packet.h"
#include "common/vi_table.h"
#include "common/flow_control.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_send_kept.h"
#include "pvia_send_record.h"

namespace pvia {

namespace send_engine {

// Records numbered from 1 (0: none), so that the lists start empty.
uint8_t held_head[VIA_MAX_VI];

} // namespace send_engine

using namespace send_engine;

static_assert(kNoReader == kNoRecord, "no reader is no record");

namespace {

uint8_t held_tail[VIA_MAX_VI];

// The peer the VI's messages go to, whose answers its records wait for.
// It changes only when the host flushes the VI, which makes the records
// of before stale.
uint32_t peer_of(uint32_t vi) {
  volatile via_vi_config& config = via::vi_config(vi);
  return config.remote_node << 16 | config.remote_vi;
}

// True if the record's packet left and it still waits for its peer's word.
bool waits(const SendRecord& record) {
  return !record.answered && record.numbered &&
         (record.ack_wanted || record.kind == SendKind::read_request);
}

// Writes the completions at the front of the VI's list that may be written,
// in order, up to the first that still waits. A record posted before the
// host last flushed the VI is let go without one: the host has completed
// its descriptor as flushed.
void complete_held(uint32_t vi) {
  const uint32_t epoch = via::vi_config(vi).epoch;
  while (held_head[vi] != 0u) {
    const uint32_t r = held_head[vi] - 1u;
    SendRecord& record = records[r];
    const bool stale = record.work.posted.epoch != epoch;
    // The resend lane lets the record go when it is done with it.
    if (record.resending || (!stale && waits(record)))
      return;
    held_head[vi] = record.next_held;
    if (held_head[vi] == 0u)
      held_tail[vi] = 0u;
    trace(r, SendState::wait_peer);
    if (stale) {
      count(via_stale_descriptors);
      release_record(r);
      continue;
    }
    // The target refused the read: the host hears of it as VIA says.
    if (record.kind == SendKind::read_request && (record.errors & VIP_STATUS_RDMA_PROT_ERROR) != 0u)
      via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_RDMAR_PROT, vi));
    record.state = write_status(r);
  }
}

// The first record from `from` on waiting for its peer's word, or
// kNoRecord: a send or RDMA write of `vi` numbered up to `sequence`, or
// (`exact`) the one message numbered `sequence`, sent to `peer`.
uint32_t waiting_for(uint32_t vi, uint32_t peer, uint32_t sequence, bool exact, uint32_t from) {
  for (uint32_t r = from; r < kSendRecords; ++r) {
    const SendRecord& record = records[r];
    // A record still streaming (its answer came early) has its VI's peer.
    if (record.vi != vi || !waits(record) ||
        (record.state == SendState::wait_peer ? record.peer
         : record.state == SendState::stream  ? peer_of(vi)
                                              : ~peer) != peer)
      continue;
    if (exact ? record.sequence == sequence
              : record.kind != SendKind::read_request &&
                    via::sequence_at_most(record.sequence, sequence))
      return r;
  }
  return kNoRecord;
}

} // namespace

namespace send_engine {

void finish_marked(uint32_t r) {
  SendRecord& record = records[r];
  // No descriptor to complete: one that could not be read, and the data of
  // a peer's RDMA read.
  if (record.unreachable || record.kind == SendKind::read_data) {
    release_record(r);
    return;
  }
  const uint32_t vi = record.vi;
  record.peer = peer_of(vi);
  record.state = SendState::wait_peer;
  record.next_held = 0u;
  if (held_tail[vi] == 0u)
    held_head[vi] = static_cast<uint8_t>(r + 1u);
  else
    records[held_tail[vi] - 1u].next_held = static_cast<uint8_t>(r + 1u);
  held_tail[vi] = static_cast<uint8_t>(r + 1u);
  if (record.numbered && (record.ack_wanted || record.kind == SendKind::read_request))
    watch_answer(r);
  complete_held(vi);
}

void complete_waiting(uint32_t vi) { complete_held(vi); }

} // namespace send_engine

void ack_arrived(const via_packet_header& ack) {
  const uint32_t vi = ack.dst_vi;
  if (!via::vi_valid(vi)) {
    count(pvia_stray_acks);
    return;
  }
  if (via::flow::is_credit(ack)) {
    via::flow::credit_arrived(ack);
    return;
  }
  via::trace_tag(vi, ack.sequence);
  const uint32_t peer = uint32_t{ack.src_node} << 16 | ack.src_vi;
  const bool exact = (ack.flags & VIA_ACK_F_EXACT) != 0u;
  // A later acknowledgement stands for every earlier one; an exact one
  // (a refused read, a message no VI took) for its message alone.
  uint32_t answered = 0u;
  for (uint32_t r = answers_awaited != 0u ? waiting_for(vi, peer, ack.sequence, exact, 0u)
                                          : kNoRecord;
       r != kNoRecord; r = waiting_for(vi, peer, ack.sequence, exact, r + 1u)) {
    SendRecord& record = records[r];
    record.answered = true;
    // An earlier message's outcome is repeated by the later acknowledgement
    // (in case the one that reported it was lost).
    record.errors |= record.sequence == ack.sequence
                         ? ack.immediate
                         : via::acked_status(ack.sequence, ack.offset, record.sequence);
    ++answered;
  }
  // Reliable Delivery packets kept for it (their sends have completed).
  answered += release_kept(vi, peer, ack.sequence, exact);
  count(pvia_acks_received);
  if (answered == 0u)
    count(pvia_stray_acks);
  if (answered != 0u || (ack.flags & VIA_ACK_F_GAP) != 0u)
    resend_answered(vi, (ack.flags & VIA_ACK_F_GAP) != 0u, ack.sequence);
  complete_held(vi);
}

uint32_t rdma_reader(uint32_t vi, uint32_t peer, uint32_t sequence) {
  const uint32_t r = waiting_for(vi, peer, sequence, true, 0u);
  return r != kNoRecord && records[r].kind == SendKind::read_request ? r : kNoRecord;
}

const via::Descriptor& rdma_read_descriptor(uint32_t r) { return records[r].descriptor; }

void rdma_read_done(uint32_t r, uint32_t sequence, uint32_t errors) {
  SendRecord& record = records[r];
  // The record may have been let go (its VI flushed) while the data came.
  if (record.state == SendState::free || record.kind != SendKind::read_request ||
      record.sequence != sequence || record.answered)
    return;
  record.answered = true;
  record.errors |= errors;
  // The peer answers: the VI's run of timeouts ends.
  resend_answered(record.vi, false, 0u);
  if (record.state == SendState::wait_peer)
    complete_held(record.vi);
}

} // namespace pvia
