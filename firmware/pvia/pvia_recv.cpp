// The receive engine: each posted receive is a record whose descriptor is
// fetched as soon as its doorbell rings and then parked on its VI, in
// posting order, until a message for that VI arrives:
//   fetch_descriptor -> parked -> scatter_data -> write_status
// A message's first fragment (the whole message, if its sender did not cut
// it) takes the oldest record of its VI; the rest follow it in order and are
// placed where they belong in the posted buffers as each arrives, so the
// host DMA of one fragment overlaps the network's delivery of the next. The
// receive completes after the last. A VI's completions are written in the
// order its messages arrived (a receive done early, say one with no data,
// waits its turn). A fragment out of place ends the message it interrupts
// with a transport error. When every record is busy, receives stay in the VI's ring
// and are fetched later (or on demand when their packet arrives).
// An RDMA write takes a record too, for its place in the VI's order: one
// with a posted receive if it carries immediate data (that receive
// completes once the data is in place), else a bare one that completes
// nothing. Its fragments go where their trailers say, if the VI lets its
// peer write and the host DMA finds the memory open to remote writes;
// otherwise nothing is written and the host hears of it.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/arrival_checks.h"
#include "common/packet.h"
#include "common/sram_placement.h"
#include "common/vi_set.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

via::ViSet receive_backlog;

enum class ReceiveState : uint8_t {
  free,             // no receive
  fetch_descriptor, // the descriptor is on its way from host memory
  parked,           // the descriptor waits on its VI for a packet
  scatter_data,     // the packet's data is on its way to the host buffers
  wait_turn,        // done, behind an earlier receive of its VI not yet completed
  write_status,     // the completion is on its way to host memory
  count_,
};

// Names of the states, for traces.
extern const char* const receive_state_names[];
const char* const receive_state_names[] = {
    "recv:free",      "recv:fetch_descriptor", "recv:parked",
    "recv:scatter_data", "recv:wait_turn",     "recv:write_status"};
static_assert(static_cast<uint32_t>(ReceiveState::count_) == 6u, "one name per state");
// Checking an arrived packet and matching it to a record, for traces.
const char* const receive_arrival_name = "recv:arrival";

namespace {

constexpr uint32_t kRecords = 64u;
// Records only a packet's on-demand fetch may take, so that prefetching
// can never leave an arrival without one.
constexpr uint32_t kReserved = 4u;
constexpr uint8_t kNoRecord = 0xFFu;
// Fragments a record holds at once: at most every receive buffer.
constexpr uint32_t kFragments = 4u;
static_assert(kRecords < kNoRecord, "record numbers fit a byte");
static_assert((kFragments & (kFragments - 1u)) == 0u, "indices wrap by masking");

// A fragment in a receive buffer, on its way to the host.
struct Fragment {
  uint8_t buffer;      // the receive buffer holding it
  uint8_t outstanding; // host DMAs queued and not yet completed
  uint8_t pieces;      // host DMAs queued in all
  uint8_t done;        // ... of which completed
  uint32_t offset;     // where it goes in the message
  uint32_t bytes;
  const uint8_t* data; // its payload in the receive buffer
  uint32_t sizes[VIA_MAX_SEGMENTS];
  via::RdmaTarget target; // an RDMA write's: where it goes
};

struct ReceiveRecord {
  ReceiveState state;
  uint8_t vi;
  uint8_t next;        // the VI's next parked or fetching record
  bool matched;        // a message has taken it
  bool discard;        // flushed while its descriptor was being fetched
  bool silent;         // its descriptor could not be read: no status to write
  bool ended;          // the message's last fragment is in (or it broke off)
  bool rdma;           // an RDMA write's data
  bool no_status;      // an RDMA write without immediate data: nothing to complete
  bool reported;       // the host has heard of its RDMA protection failure
  uint8_t first;       // oldest fragment not yet delivered
  uint8_t scattered;   // fragments whose host DMAs are queued (or skipped)
  uint8_t taken;       // fragments taken
  uint32_t ticket;     // its place among its VI's messages
  uint32_t label;      // VI and message sequence, labelling its work in traces
  uint32_t errors;
  uint32_t placed;     // bytes delivered
  uint32_t message;    // the message's length
  uint32_t expected;   // where its next fragment must start
  uint32_t sequence;   // the message's number
  uint32_t flags;      // its first fragment's VIA_PACKET_F_* bits
  uint32_t immediate;  // the message's immediate data
  via::Stamp stamp;    // the scheduler's stamp for its delivery
  Fragment fragments[kFragments];
  via::PostedDescriptor posted;
  via::Descriptor descriptor;
  via::DescriptorCopy copy;
  via::Completion completion;
};

struct ViList {
  uint8_t head;
  uint8_t tail;
};

VIA_ZEROED_AT_LOAD ReceiveRecord records[kRecords]{};
uint8_t free_records[kRecords];
uint32_t free_count;
ViList lists[VIA_MAX_VI];
uint32_t tickets_issued[VIA_MAX_VI];    // packets matched to a receive
uint32_t tickets_completed[VIA_MAX_VI]; // ... whose completion is queued
uint32_t waiting_turn[VIA_MAX_VI];      // records of the VI in wait_turn
uint8_t assembling[VIA_MAX_VI];         // the record awaiting more of the VI's message

HdmaOwner owner_of(uint32_t r) { return {Engine::receive, static_cast<uint8_t>(r)}; }

// The core takes up record r in `state` (a constant, so that the name's
// address is too); the device operations it starts are labelled with the
// record's VI and its packet's sequence number (none before the packet).
void trace(uint32_t r, ReceiveState state) {
  via::trace_state(receive_state_names[static_cast<uint32_t>(state)]);
  via::trace_tag(records[r].label);
}

void release_record(uint32_t r) {
  records[r].state = ReceiveState::free;
  free_records[free_count++] = static_cast<uint8_t>(r);
}

void link(uint32_t vi, uint32_t r) {
  records[r].next = kNoRecord;
  if (lists[vi].head == kNoRecord)
    lists[vi].head = static_cast<uint8_t>(r);
  else
    records[lists[vi].tail].next = static_cast<uint8_t>(r);
  lists[vi].tail = static_cast<uint8_t>(r);
}

void unlink(uint32_t vi, uint32_t r) {
  uint8_t* at = &lists[vi].head;
  uint32_t previous = kNoRecord;
  while (*at != kNoRecord && *at != r) {
    previous = *at;
    at = &records[*at].next;
  }
  if (*at == kNoRecord)
    return;
  *at = records[r].next;
  if (lists[vi].tail == r)
    lists[vi].tail = static_cast<uint8_t>(previous);
}

// Takes a record and queues the fetch of `posted` into it; kNoRecord if
// none is free or the fetch cannot be queued (reported).
uint32_t fetch_into_record(uint32_t vi, const via::PostedDescriptor& posted) {
  const uint32_t r = free_records[--free_count];
  ReceiveRecord& record = via::in_register(&records[r]);
  record.vi = static_cast<uint8_t>(vi);
  record.next = kNoRecord;
  record.matched = false;
  record.discard = false;
  record.silent = false;
  record.ended = false;
  record.rdma = record.no_status = record.reported = false;
  record.first = record.scattered = record.taken = 0u;
  record.label = via::trace_label(vi, via::kTraceNoMessage);
  record.errors = 0u;
  record.placed = 0u;
  record.posted = posted;
  record.stamp = via::stamp_now();
  if (!fetch_descriptor(vi, posted, record.copy, owner_of(r), record.stamp)) {
    release_record(r);
    return kNoRecord;
  }
  record.state = ReceiveState::fetch_descriptor;
  return r;
}

// Drops the VI's records posted before the host last flushed it.
void purge_stale(uint32_t vi) {
  const uint32_t epoch = via::vi_config(vi).epoch;
  while (lists[vi].head != kNoRecord && records[lists[vi].head].posted.epoch != epoch) {
    const uint32_t r = lists[vi].head;
    unlink(vi, r);
    count(via_stale_descriptors);
    if (records[r].state == ReceiveState::fetch_descriptor)
      records[r].discard = true;
    else
      release_record(r);
  }
}

// Fetches one of the VI's posted receives ahead of its data, if a record
// is free for it.
void prefetch(uint32_t vi) {
  purge_stale(vi);
  via::PostedDescriptor posted;
  if (free_count > kReserved && next_receive(vi, posted)) {
    via::trace_state(receive_state_names[static_cast<uint32_t>(ReceiveState::fetch_descriptor)]);
    via::trace_tag(vi, via::kTraceNoMessage);
    const uint32_t r = fetch_into_record(vi, posted);
    if (r != kNoRecord) {
      link(vi, r);
      count(pvia_receive_prefetches);
    }
    via::trace_state(nullptr);
  }
  if (receives_waiting(vi))
    receive_backlog.add(vi);
  else
    receive_backlog.remove(vi);
}

bool intact(const Arrival& arrival) {
  return via::packet_intact(*arrival.buffer, arrival.payload_bytes, arrival.source,
                            arrival.damage);
}

ReceiveState submit_status(uint32_t r) {
  ReceiveRecord& record = via::in_register(&records[r]);
  if (record.silent) {
    release_record(r);
    return ReceiveState::free;
  }
  if (record.no_status) {
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

Fragment& fragment_at(ReceiveRecord& record, uint32_t i) {
  return record.fragments[i & (kFragments - 1u)];
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

ReceiveState descriptor_arrived(uint32_t r, uint32_t outcome) {
  ReceiveRecord& record = via::in_register(&records[r]);
  if (record.discard) {
    release_record(r);
    return ReceiveState::free;
  }
  if (outcome != LANAI_HDMA_OK) {
    report_unreachable_descriptor(record.vi);
    if (!record.matched) {
      unlink(record.vi, r);
      release_record(r);
      return ReceiveState::free;
    }
    // The message is dropped, but its place in the VI's order is kept.
    record.silent = true;
    return start_scatter(r);
  }
  via::decode_descriptor(record.copy, record.descriptor);
  return record.matched ? start_scatter(r) : ReceiveState::parked;
}

ReceiveState status_written(uint32_t r, uint32_t outcome) {
  if (outcome != LANAI_HDMA_OK)
    report_unreachable_descriptor(records[r].vi);
  release_record(r);
  return ReceiveState::free;
}

enum class Match : uint8_t { record, none, wait, dropped };

// The record the next packet for `vi` fills: its oldest parked or fetching
// one, or one fetched on demand from the VI's ring.
Match match_receive(uint32_t vi, uint32_t& r) {
  purge_stale(vi);
  if (lists[vi].head != kNoRecord) {
    r = lists[vi].head;
    unlink(vi, r);
    return Match::record;
  }
  // Doorbells still in the FIFO may hold this VI's receives: the host
  // posted them before the packet came, so they count.
  for (uint32_t events = via::event_status();
       !receives_waiting(vi) && (events & LANAI_EV_DOORBELL) != 0u;
       events = via::event_status())
    drain_doorbells(events);
  if (!receives_waiting(vi))
    return Match::none;
  if (free_count == 0u)
    return Match::wait;
  via::PostedDescriptor posted;
  if (!next_receive(vi, posted))
    return Match::none;
  r = fetch_into_record(vi, posted);
  return r == kNoRecord ? Match::dropped : Match::record;
}

// A record for an RDMA write that completes no receive, in the VI's order
// like any other; wait if none is free.
Match bare_record(uint32_t vi, uint32_t& r) {
  if (free_count == 0u)
    return Match::wait;
  r = free_records[--free_count];
  ReceiveRecord& record = via::in_register(&records[r]);
  record.vi = static_cast<uint8_t>(vi);
  record.next = kNoRecord;
  record.discard = record.silent = record.ended = false;
  record.rdma = record.reported = false;
  record.no_status = true;
  record.first = record.scattered = record.taken = 0u;
  record.errors = 0u;
  record.placed = 0u;
  record.state = ReceiveState::parked;
  return Match::record;
}

} // namespace

void start_receive_engine() {
  free_count = 0u;
  for (uint32_t r = kRecords; r-- > 0u;)
    release_record(r);
  for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi) {
    lists[vi] = {kNoRecord, kNoRecord};
    assembling[vi] = kNoRecord;
  }
  receive_backlog.clear();
}

void receive_posted(uint32_t vi) { receive_backlog.add(vi); }

void refill_receives() {
  if (free_count <= kReserved)
    return;
  // One per visit: a prefetch is never urgent, and the devices must not
  // wait behind a host posting many receives at once.
  bool done = false;
  receive_backlog.for_each([&](uint32_t vi) {
    if (!done) {
      prefetch(vi);
      done = true;
    }
  });
}

namespace {

// Adds the arrival's fragment to record r's message, stamped by the
// receiving VI's reservation from the time the packet reached the card.
void take_fragment(uint32_t r, const Arrival& arrival) {
  ReceiveRecord& record = via::in_register(&records[r]);
  const via_packet_header& header = arrival.buffer->header;
  Fragment& fragment = fragment_at(record, record.taken++);
  fragment.buffer = static_cast<uint8_t>(arrival.index);
  fragment.offset = header.offset;
  fragment.bytes = header.length;
  fragment.data = arrival.buffer->data;
  fragment.outstanding = 0u;
  if (record.rdma)
    fragment.target = via::rdma_target(*arrival.buffer);
  record.expected = header.offset + header.length;
  const via::Stamp stamp = via::stamp_receive(record.vi, header.length, arrival.arrived_at);
  if (stamp > record.stamp)
    record.stamp = stamp;
  if ((header.flags & VIA_PACKET_F_ABORTED) != 0u)
    record.errors |= VIP_STATUS_TRANSPORT_ERROR;
  if ((header.flags & (VIA_PACKET_F_LAST | VIA_PACKET_F_ABORTED)) != 0u ||
      record.expected == record.message)
    record.ended = true;
  if (record.ended && assembling[record.vi] == r)
    assembling[record.vi] = kNoRecord;
}

// The message record r was assembling will get no more fragments: what
// came is delivered, and the receive completes with a transport error.
void break_off(uint32_t r) {
  ReceiveRecord& record = via::in_register(&records[r]);
  count(pvia_broken_messages);
  assembling[record.vi] = kNoRecord;
  record.ended = true;
  record.errors |= VIP_STATUS_TRANSPORT_ERROR;
  if (record.state == ReceiveState::scatter_data)
    record.state = advance(r);
}

// A fragment after a message's first: it must be the next of the message
// its VI is assembling.
bool take_continuation(uint32_t vi, const Arrival& arrival) {
  const via_packet_header& header = arrival.buffer->header;
  const uint32_t r = assembling[vi];
  const bool rdma = (header.flags & VIA_PACKET_F_RDMA_WRITE) != 0u;
  if (r == kNoRecord || header.sequence != records[r].sequence ||
      header.offset != records[r].expected || rdma != records[r].rdma) {
    count(pvia_stray_fragments);
    if (r != kNoRecord)
      break_off(r);
    release_arrival(arrival.index);
    return true;
  }
  take_fragment(r, arrival);
  ReceiveRecord& record = via::in_register(&records[r]);
  if (record.state == ReceiveState::scatter_data)
    record.state = advance(r);
  return true;
}

bool take_arrival(const Arrival& arrival) {
  if (!intact(arrival)) {
    count(pvia_bad_packets);
    via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_BAD_PACKET, 0xFFFFu));
    release_arrival(arrival.index);
    return true;
  }
  const via::ReceiveBuffer& packet = *arrival.buffer;
  const uint32_t vi = packet.header.dst_vi;
  if (!via::vi_valid(vi) ||
      !via::vi_accepts_from(vi, packet.header.src_node, packet.header.src_vi)) {
    count(pvia_unmatched_packets);
    release_arrival(arrival.index);
    return true;
  }
  via::trace_tag(vi, packet.header.sequence);
  if (packet.header.offset != 0u)
    return take_continuation(vi, arrival);
  // A first fragment: the message before it on this VI has lost its tail.
  if (assembling[vi] != kNoRecord)
    break_off(assembling[vi]);
  // A descriptor fetched on demand is already this message's. An RDMA write
  // without immediate data completes no receive: it takes a bare record.
  const bool rdma = (packet.header.flags & VIA_PACKET_F_RDMA_WRITE) != 0u;
  uint32_t r = kNoRecord;
  const Match match = rdma && (packet.header.flags & VIA_PACKET_F_IMMEDIATE) == 0u
                          ? bare_record(vi, r)
                          : match_receive(vi, r);
  if (match == Match::wait) {
    count(pvia_arrival_stalls);
    return false;
  }
  via::note_sequence(vi, packet.header.sequence);
  if (match != Match::record) {
    if (match == Match::none)
      via::no_receive_posted(vi);
    release_arrival(arrival.index);
    return true;
  }
  ReceiveRecord& record = via::in_register(&records[r]);
  record.matched = true;
  record.ticket = tickets_issued[vi]++;
  record.label = via::trace_label(vi, packet.header.sequence);
  record.message = packet.header.message;
  record.expected = 0u;
  record.sequence = packet.header.sequence;
  record.flags = packet.header.flags;
  record.immediate = packet.header.immediate;
  // Stamped by the receiving VI's own reservation, fragment by fragment.
  record.stamp = 0u;
  record.rdma = rdma;
  if (rdma && !via::vi_takes_rdma_write(vi))
    fail_rdma(r);
  take_fragment(r, arrival);
  if (!record.ended)
    assembling[vi] = static_cast<uint8_t>(r);
  if (record.state == ReceiveState::parked)
    record.state = start_scatter(r);
  return true;
}

} // namespace

bool receive_arrival(const Arrival& arrival) {
  via::trace_state(receive_arrival_name);
  const bool taken = take_arrival(arrival);
  via::trace_state(nullptr);
  return taken;
}

void receive_host_dma_done(uint32_t r, uint32_t outcome) {
  ReceiveRecord& record = via::in_register(&records[r]);
  switch (record.state) {
  case ReceiveState::fetch_descriptor:
    trace(r, ReceiveState::fetch_descriptor);
    record.state = descriptor_arrived(r, outcome);
    break;
  case ReceiveState::scatter_data:
    trace(r, ReceiveState::scatter_data);
    record.state = piece_done(r, outcome);
    break;
  case ReceiveState::write_status:
    trace(r, ReceiveState::write_status);
    record.state = status_written(r, outcome);
    break;
  default:
    count(pvia_hdma_strays);
    break;
  }
  via::trace_state(nullptr);
}

} // namespace pvia
