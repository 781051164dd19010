// Delivering a received message (pvia_recv_record.h): each fragment's host
// DMAs into the posted receive's segments (an RDMA read's data: the read's),
// or an RDMA write's to where its trailer says as a remote write, the
// buffers given back as they finish, and, once the message has ended, in
// the order of the VI's messages, the acknowledgement its Reliable
// Reception sender asked for and the completion.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/arrival_checks.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_recv_record.h"

namespace pvia {

namespace receive_engine {

namespace {

ReceiveState submit_status(uint32_t r) {
  ReceiveRecord& record = via::in_register(&records[r]);
  // No descriptor to write to, or an RDMA write that completes nothing. A
  // read's data is in place: the read completes on the send queue.
  if (record.silent || record.no_status) {
    // A read's data that lost a fragment (awaiting) is not the read's: its
    // request is served again.
    if (record.kind == ReceiveKind::read_data) {
      if (!record.awaiting)
        rdma_read_done(record.reader, record.immediate, record.errors);
      record.awaiting = false;
    }
    release_record(r);
    return ReceiveState::free;
  }
  const uint32_t op = record.kind == ReceiveKind::rdma_write ? VIP_STATUS_OP_REMOTE_RDMA_WRITE
                                                             : VIP_STATUS_OP_RECEIVE;
  uint32_t status = VIP_STATUS_DONE | op | record.errors;
  uint32_t immediate = record.descriptor.immediate;
  if ((record.flags & VIA_PACKET_F_IMMEDIATE) != 0u) {
    immediate = record.immediate;
    status |= VIP_STATUS_IMMEDIATE;
  }
  count(pvia_receives_completed);
  if (record.errors != 0u)
    count(pvia_receives_failed);
  if (!write_completion(record.vi, record.posted, record.completion, immediate, record.placed,
                        status, owner_of(r), record.stamp)) {
    release_record(r);
    return ReceiveState::free;
  }
  return ReceiveState::write_status;
}

// Records whose turn came while no acknowledgement buffer was free, in
// that order (a VI has at most one: the others wait for its turn).
uint8_t blocked[kRecords];
uint32_t blocked_head;
uint32_t blocked_tail;

// Each VI's last message acknowledged, + 1 (0: none), and the VI's epoch
// + 1 it counts in: what a duplicate is answered with.
VIA_ZEROED_AT_LOAD uint32_t settled_next[VIA_MAX_VI]{};
VIA_ZEROED_AT_LOAD uint32_t settled_epoch[VIA_MAX_VI]{};

// The acknowledgement a sender waits for (kAnswered): the message's data
// is in host memory, or it failed here, with the outcomes of the
// messages before it (an acknowledgement that reported a failure may have
// been lost). False if it cannot be queued now.
bool acknowledge(uint32_t r) {
  ReceiveRecord& record = records[r];
  // A Reliable Delivery message was acknowledged as it arrived.
  if ((record.flags & VIA_PACKET_F_ACK_WANTED) == 0u)
    return true;
  // It waited for its message sent again but got its fragments after all
  // (what made it wait was an older message's duplicate).
  end_wait(r);
  // A receive whose descriptor could not be read dropped the message.
  const uint32_t errors = record.errors | (record.silent ? VIP_STATUS_REMOTE_DESC_ERROR : 0u);
  const uint32_t status = via::sender_status(errors);
  const uint32_t epoch = via::vi_config(record.vi).epoch + 1u;
  const uint32_t outcomes =
      settled_epoch[record.vi] == epoch ? via::outcomes_as_of(record.vi, record.sequence) : 0u;
  const via::Ack ack{record.src_node,
                     record.src_vi,
                     record.vi,
                     record.sequence,
                     status,
                     0u,
                     (outcomes & ~3u) | via::outcome_code(status)};
  if (!send_ack(ack, record.stamp))
    return false;
  (void)via::note_outcome(record.vi, record.sequence, status);
  settled_next[record.vi] = record.sequence + 1u;
  settled_epoch[record.vi] = epoch;
  ack_paid(record.vi);
  return true;
}

// Record r has its VI's turn: its acknowledgement and completion are
// queued, then those of the VI's later records that were waiting for it;
// r's next state. A record whose acknowledgement finds no buffer keeps the
// turn and waits.
[[gnu::noinline]] ReceiveState take_turn(uint32_t r) {
  const uint32_t vi = records[r].vi;
  ReceiveState result = ReceiveState::free;
  for (uint32_t current = r;;) {
    ReceiveState next;
    if (acknowledge(current)) {
      ++tickets_completed[vi];
      next = submit_status(current);
    } else {
      count(pvia_ack_waits);
      blocked[blocked_tail++ & (kRecords - 1u)] = static_cast<uint8_t>(current);
      next = ReceiveState::wait_ack;
    }
    if (current == r)
      result = next;
    else
      records[current].state = next;
    if (next == ReceiveState::wait_ack || waiting_turn[vi] == 0u)
      return result;
    uint32_t w = 0u;
    while (w < kRecords && (records[w].state != ReceiveState::wait_turn || records[w].vi != vi ||
                            records[w].ticket != tickets_completed[vi]))
      ++w;
    if (w == kRecords)
      return result;
    --waiting_turn[vi];
    via::trace_tag(records[w].label);
    current = w;
  }
}

// Queues the completion once the VI's earlier receives have queued theirs,
// then those of later ones that were waiting for it. A receive with no
// acknowledgement to send and none waiting behind it, the common case,
// takes the short way.
ReceiveState write_status(uint32_t r) {
  const uint32_t vi = records[r].vi;
  if (records[r].ticket != tickets_completed[vi]) {
    ++waiting_turn[vi];
    return ReceiveState::wait_turn;
  }
  if ((records[r].flags & VIA_PACKET_F_ACK_WANTED) != 0u || waiting_turn[vi] != 0u)
    return take_turn(r);
  ++tickets_completed[vi];
  return submit_status(r);
}

} // namespace

void settle_on_arrival(uint32_t vi, const via_packet_header& header) {
  (void)via::note_outcome(vi, header.sequence, 0u);
  settled_next[vi] = header.sequence + 1u;
  settled_epoch[vi] = via::vi_config(vi).epoch + 1u;
  if ((header.flags & VIA_PACKET_F_ACK_NOW) != 0u && acknowledge_again(vi, header, false))
    return;
  owe_ack(vi, header.src_node, header.src_vi);
}

bool acknowledge_again(uint32_t vi, const via_packet_header& header, bool gap) {
  via::Ack ack{header.src_node, header.src_vi, vi, ~0u, 0u, gap ? VIA_ACK_F_GAP : 0u, 0u};
  if (settled_epoch[vi] == via::vi_config(vi).epoch + 1u && settled_next[vi] != 0u) {
    ack.sequence = settled_next[vi] - 1u;
    ack.outcomes = via::outcomes_as_of(vi, ack.sequence);
    ack.status = via::outcome_status(ack.outcomes);
  } else if (!gap) {
    // Nothing acknowledged yet (in this connection): its acknowledgement
    // is still to come, and nothing of before is owed.
    ack_paid(vi);
    return true;
  }
  if (!send_ack(ack, via::stamp_now()))
    return false;
  ack_paid(vi);
  return true;
}

// An RDMA write went wrong at this card: the receive it consumed (if any)
// completes with the RDMA protection status, and the host hears of it once.
void fail_rdma(uint32_t r) {
  ReceiveRecord& record = via::in_register(&records[r]);
  record.errors |= VIP_STATUS_RDMA_PROT_ERROR;
  if (!record.reported) {
    record.reported = true;
    count(pvia_rdma_refused);
    via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_RDMAW_PROT, record.vi));
  }
}

} // namespace receive_engine

// The oldest record waiting for an acknowledgement buffer takes its turn.
void ack_buffer_freed() {
  using namespace receive_engine;
  if (blocked_head == blocked_tail)
    return;
  const uint32_t r = blocked[blocked_head++ & (kRecords - 1u)];
  trace(r, ReceiveState::wait_ack);
  records[r].state = take_turn(r);
}

namespace receive_engine {

namespace {

// Queues an RDMA write's fragment to where its trailer says, as a remote
// write the host DMA checks against the memory's registration.
void scatter_remote(uint32_t r, Fragment& fragment) {
  if (fragment.bytes == 0u)
    return;
  ReceiveRecord& record = via::in_register(&records[r]);
  const via::HdmaRequest request{fragment.target.address, fragment.target.handle,
                                 via::vi_ptag(record.vi), via::sram_address(fragment.data),
                                 fragment.bytes,          via::HdmaDirection::to_host_remote};
  if (!submit_host_dma(request, owner_of(r), record.stamp)) {
    fail_rdma(r);
    return;
  }
  fragment.sizes[fragment.pieces++] = fragment.bytes;
  ++fragment.outstanding;
}

// Queues the pieces of a fragment into the descriptor's segments, in
// order; none if the receive has failed (the fragment is just dropped).
// Out of line, like the send engine's cut_fragment, for the same reason.
[[gnu::noinline]] void scatter_fragment(uint32_t r, Fragment& fragment) {
  ReceiveRecord& record = via::in_register(&records[r]);
  fragment.outstanding = fragment.pieces = fragment.done = 0u;
  if (record.errors != 0u || record.silent)
    return;
  if (record.kind == ReceiveKind::rdma_write) {
    scatter_remote(r, fragment);
    return;
  }
  via::DataSegment pieces[VIA_MAX_SEGMENTS];
  const uint32_t count =
      via::segment_pieces(record.descriptor, fragment.offset, fragment.bytes, pieces);
  const uint32_t ptag = via::vi_ptag(record.vi);
  uint32_t at = 0u;
  for (uint32_t i = 0u; i < count; ++i) {
    const via::HdmaRequest request{
        pieces[i].address, pieces[i].handle,           ptag, via::sram_address(fragment.data + at),
        pieces[i].length,  via::HdmaDirection::to_host};
    if (!submit_host_dma(request, owner_of(r), record.stamp)) {
      record.errors = VIP_STATUS_PROTECTION_ERROR;
      break;
    }
    fragment.sizes[fragment.pieces++] = pieces[i].length;
    ++fragment.outstanding;
    at += pieces[i].length;
  }
}

} // namespace

// Scatters the fragments taken so far, frees the buffers of those at the
// host (or dropped), and once the message has ended and all are through,
// writes the completion.
ReceiveState advance(uint32_t r) {
  ReceiveRecord& record = via::in_register(&records[r]);
  while (record.scattered != record.taken)
    scatter_fragment(r, fragment_at(record, record.scattered++));
  while (record.first != record.scattered && fragment_at(record, record.first).outstanding == 0u) {
    release_arrival(fragment_at(record, record.first).buffer);
    ++record.first;
  }
  if (!record.ended || record.first != record.taken)
    return ReceiveState::scatter_data;
  return write_status(r);
}

// The descriptor is known and a message has taken the record: check the
// buffers hold it, then deliver what has come.
ReceiveState start_scatter(uint32_t r) {
  ReceiveRecord& record = via::in_register(&records[r]);
  if (!record.silent && record.kind == ReceiveKind::receive) {
    uint32_t capacity;
    const uint32_t format = via::check_data_segments(record.descriptor, capacity);
    if (format != 0u)
      record.errors |= format;
    else if (record.message > capacity)
      record.errors |= VIP_STATUS_LENGTH_ERROR;
  }
  return advance(r);
}

// A host DMA of the oldest fragment with some outstanding finished; bytes
// count as placed up to the first failure.
ReceiveState piece_done(uint32_t r, uint32_t outcome) {
  ReceiveRecord& record = via::in_register(&records[r]);
  uint32_t i = record.first;
  while (i != record.scattered && fragment_at(record, i).outstanding == 0u)
    ++i;
  if (i == record.scattered) {
    count(pvia_hdma_strays);
    return record.state;
  }
  Fragment& fragment = fragment_at(record, i);
  if (outcome != LANAI_HDMA_OK && record.kind == ReceiveKind::rdma_write)
    fail_rdma(r);
  else if (outcome != LANAI_HDMA_OK)
    record.errors = VIP_STATUS_PROTECTION_ERROR;
  else if (record.errors == 0u)
    record.placed += fragment.sizes[fragment.done];
  ++fragment.done;
  --fragment.outstanding;
  return advance(r);
}

} // namespace receive_engine

} // namespace pvia
