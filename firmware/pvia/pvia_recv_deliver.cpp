// Delivering a received message (pvia_recv_record.h): each fragment's host
// DMAs into the posted receive's segments, or an RDMA write's to where its
// trailer says as a remote write, the buffers given back as they finish,
// and the completion written once the message has ended, in the order of
// the VI's messages.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_recv_record.h"

namespace pvia {

namespace receive_engine {

namespace {

ReceiveState submit_status(uint32_t r) {
  ReceiveRecord& record = via::in_register(&records[r]);
  // No descriptor to write to, or an RDMA write that completes nothing.
  if (record.silent || record.no_status) {
    release_record(r);
    return ReceiveState::free;
  }
  const uint32_t op = record.rdma ? VIP_STATUS_OP_REMOTE_RDMA_WRITE : VIP_STATUS_OP_RECEIVE;
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

// Queues the completion once the VI's earlier receives have queued theirs,
// then those of later ones that were waiting for it.
ReceiveState write_status(uint32_t r) {
  const uint32_t vi = records[r].vi;
  if (records[r].ticket != tickets_completed[vi]) {
    ++waiting_turn[vi];
    return ReceiveState::wait_turn;
  }
  ++tickets_completed[vi];
  const ReceiveState next = submit_status(r);
  for (uint32_t w = 0u; w < kRecords && waiting_turn[vi] != 0u; ++w) {
    ReceiveRecord& waiting = records[w];
    if (waiting.state != ReceiveState::wait_turn || waiting.vi != vi ||
        waiting.ticket != tickets_completed[vi])
      continue;
    --waiting_turn[vi];
    ++tickets_completed[vi];
    via::trace_tag(waiting.label);
    waiting.state = submit_status(w);
    w = static_cast<uint32_t>(-1); // a later one may be waiting too
  }
  return next;
}

} // namespace

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

namespace {

// Queues an RDMA write's fragment to where its trailer says, as a remote
// write the host DMA checks against the memory's registration.
void scatter_remote(uint32_t r, Fragment& fragment) {
  if (fragment.bytes == 0u)
    return;
  ReceiveRecord& record = via::in_register(&records[r]);
  const via::HdmaRequest request{fragment.target.address,       fragment.target.handle,
                                 via::vi_ptag(record.vi),       via::sram_address(fragment.data),
                                 fragment.bytes,                via::HdmaDirection::to_host_remote};
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
  if (record.rdma) {
    scatter_remote(r, fragment);
    return;
  }
  via::DataSegment pieces[VIA_MAX_SEGMENTS];
  const uint32_t count =
      via::segment_pieces(record.descriptor, fragment.offset, fragment.bytes, pieces);
  const uint32_t ptag = via::vi_ptag(record.vi);
  uint32_t at = 0u;
  for (uint32_t i = 0u; i < count; ++i) {
    const via::HdmaRequest request{pieces[i].address, pieces[i].handle, ptag,
                                   via::sram_address(fragment.data + at), pieces[i].length,
                                   via::HdmaDirection::to_host};
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
  if (!record.silent && !record.rdma) {
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
  if (outcome != LANAI_HDMA_OK && record.rdma)
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
