// The receive engine: each posted receive is a record whose descriptor is
// fetched as soon as its doorbell rings and then parked on its VI, in
// posting order, until a packet for that VI arrives:
//   fetch_descriptor -> parked -> scatter_data -> write_status
// A packet takes the oldest record of its VI, and a VI's completions are
// written in the order its packets arrived (a receive done early, say one
// with no data, waits its turn). When every record is busy, receives stay in the VI's ring
// and are fetched later (or on demand when their packet arrives).
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/arrival_checks.h"
#include "common/sram_placement.h"
#include "common/vi_set.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

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
constexpr uint8_t kNoBuffer = 0xFFu;
static_assert(kRecords < kNoRecord, "record numbers fit a byte");

struct ReceiveRecord {
  ReceiveState state;
  uint8_t vi;
  uint8_t next;        // the VI's next parked or fetching record
  uint8_t buffer;      // receive buffer of the packet it delivers, or kNoBuffer
  bool discard;        // flushed while its descriptor was being fetched
  bool silent;         // its descriptor could not be read: no status to write
  uint32_t ticket;     // its place among its VI's packets
  uint32_t label;      // VI and packet sequence, labelling its work in traces
  uint8_t outstanding; // host DMAs queued and not yet completed
  uint8_t pieces_done;
  uint32_t errors;
  uint32_t placed;     // bytes delivered
  uint32_t message;    // the packet's message length
  uint32_t flags;      // the packet's VIA_PACKET_F_* bits
  uint32_t immediate;  // the packet's immediate data
  via::Stamp stamp;    // the scheduler's stamp for the packet's delivery
  const uint8_t* data; // the packet's message in its receive buffer
  uint32_t sizes[VIA_MAX_SEGMENTS];
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
via::ViSet backlog; // the VIs with receives left in their rings
uint32_t tickets_issued[VIA_MAX_VI];    // packets matched to a receive
uint32_t tickets_completed[VIA_MAX_VI]; // ... whose completion is queued
uint32_t waiting_turn[VIA_MAX_VI];      // records of the VI in wait_turn

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
  ReceiveRecord& record = records[r];
  record.vi = static_cast<uint8_t>(vi);
  record.next = kNoRecord;
  record.buffer = kNoBuffer;
  record.discard = false;
  record.silent = false;
  record.label = via::trace_label(vi, via::kTraceNoMessage);
  record.outstanding = 0u;
  record.pieces_done = 0u;
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

void prefetch(uint32_t vi) {
  purge_stale(vi);
  via::PostedDescriptor posted;
  while (free_count > kReserved && next_receive(vi, posted)) {
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
    backlog.add(vi);
  else
    backlog.remove(vi);
}

bool intact(const Arrival& arrival) {
  return via::packet_intact(*arrival.buffer, arrival.payload_bytes, arrival.source,
                            arrival.damage);
}

ReceiveState submit_status(uint32_t r) {
  ReceiveRecord& record = records[r];
  if (record.silent) {
    release_record(r);
    return ReceiveState::free;
  }
  uint32_t status = VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE | record.errors;
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

// The packet's data is at the host (or never will be): its buffer is free.
ReceiveState scattered(uint32_t r) {
  release_arrival(records[r].buffer);
  records[r].buffer = kNoBuffer;
  return write_status(r);
}

// Queues the pieces of the message into the descriptor's segments, in
// order. A message longer than the buffers is not delivered at all.
ReceiveState scatter_data(uint32_t r) {
  ReceiveRecord& record = records[r];
  uint32_t capacity;
  record.errors = via::check_data_segments(record.descriptor, capacity);
  if (record.errors == 0u && record.message > capacity)
    record.errors = VIP_STATUS_LENGTH_ERROR;
  if (record.errors != 0u)
    return scattered(r);
  const uint32_t ptag = via::vi_ptag(record.vi);
  uint32_t offset = 0u;
  for (uint32_t i = 0u; i < record.descriptor.segment_count && offset < record.message; ++i) {
    const via::DataSegment& segment = record.descriptor.segments[i];
    const uint32_t left = record.message - offset;
    const uint32_t piece = segment.length < left ? segment.length : left;
    if (piece == 0u)
      continue;
    const via::HdmaRequest request{segment.address, segment.handle, ptag,
                                   via::sram_address(record.data + offset), piece,
                                   via::HdmaDirection::to_host};
    if (!submit_host_dma(request, owner_of(r), record.stamp)) {
      record.errors = VIP_STATUS_PROTECTION_ERROR;
      break;
    }
    record.sizes[record.outstanding] = piece;
    ++record.outstanding;
    offset += piece;
  }
  return record.outstanding == 0u ? scattered(r) : ReceiveState::scatter_data;
}

// Pieces complete in the order queued; bytes count as placed up to the
// first failure.
ReceiveState piece_done(uint32_t r, uint32_t outcome) {
  ReceiveRecord& record = records[r];
  if (outcome != LANAI_HDMA_OK)
    record.errors = VIP_STATUS_PROTECTION_ERROR;
  else if (record.errors == 0u)
    record.placed += record.sizes[record.pieces_done];
  ++record.pieces_done;
  --record.outstanding;
  return record.outstanding == 0u ? scattered(r) : ReceiveState::scatter_data;
}

ReceiveState descriptor_arrived(uint32_t r, uint32_t outcome) {
  ReceiveRecord& record = records[r];
  if (record.discard) {
    release_record(r);
    return ReceiveState::free;
  }
  if (outcome != LANAI_HDMA_OK) {
    report_unreachable_descriptor(record.vi);
    if (record.buffer == kNoBuffer) {
      unlink(record.vi, r);
      release_record(r);
      return ReceiveState::free;
    }
    // The packet is dropped, but its place in the VI's order is kept.
    record.silent = true;
    return scattered(r);
  }
  via::decode_descriptor(record.copy, record.descriptor);
  return record.buffer != kNoBuffer ? scatter_data(r) : ReceiveState::parked;
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

} // namespace

void start_receive_engine() {
  free_count = 0u;
  for (uint32_t r = kRecords; r-- > 0u;)
    release_record(r);
  for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi)
    lists[vi] = {kNoRecord, kNoRecord};
  backlog.clear();
}

void receive_posted(uint32_t vi) { prefetch(vi); }

void refill_receives() {
  if (backlog.empty() || free_count <= kReserved)
    return;
  backlog.for_each(prefetch);
}

namespace {

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
  // A descriptor fetched on demand is already this packet's.
  via::trace_tag(vi, packet.header.sequence);
  uint32_t r = kNoRecord;
  const Match match = match_receive(vi, r);
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
  ReceiveRecord& record = records[r];
  record.ticket = tickets_issued[vi]++;
  record.label = via::trace_label(vi, packet.header.sequence);
  record.buffer = static_cast<uint8_t>(arrival.index);
  record.data = packet.data;
  record.message = packet.header.length;
  record.flags = packet.header.flags;
  record.immediate = packet.header.immediate;
  // Stamped by the receiving VI's own reservation.
  record.stamp = via::stamp_receive(vi, packet.header.length);
  if (record.state == ReceiveState::parked)
    record.state = scatter_data(r);
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
  ReceiveRecord& record = records[r];
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
