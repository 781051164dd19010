// The send engine: each posted send is a record that moves through named
// states, one device operation each, and waits for that device's event
// instead of for the device:
//   fetch_descriptor -> gather_data -> wait_nsdma -> transmit -> write_status
// Each record owns a send buffer, so several sends are in flight at once:
// one gathers while another leaves. A VI's sends enter the network send
// queue in posting order (a send ready early, say one with no data or an
// error, waits its turn), so its packets leave, and its completions are
// written, in posting order; even a send that fails, or whose descriptor
// cannot be read, takes its place in that queue without sending.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/nic_config.h"
#include "common/sram_placement.h"
#include "common/send_check.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

enum class SendState : uint8_t {
  free,             // no message
  fetch_descriptor, // the descriptor is on its way from host memory
  gather_data,      // the data segments are on their way into the send buffer
  wait_turn,        // ready, behind an earlier send of its VI not yet queued
  wait_nsdma,       // the packet waits in the network send queue
  transmit,         // the network send DMA is sending it
  write_status,     // the completion is on its way to host memory
  count_,
};

// Names of the states, for traces.
extern const char* const send_state_names[];
const char* const send_state_names[] = {
    "send:free",       "send:fetch_descriptor", "send:gather_data", "send:wait_turn",
    "send:wait_nsdma", "send:transmit",         "send:write_status"};
static_assert(static_cast<uint32_t>(SendState::count_) == 7u, "one name per state");

namespace {

constexpr uint32_t kSendRecords = 4u;

struct SendRecord {
  SendState state;
  uint8_t vi;
  uint8_t outstanding; // host DMAs queued and not yet completed
  bool unreachable;    // the descriptor could not be read: no status to write
  uint32_t ticket;     // its place among its VI's sends
  uint32_t label;      // VI and ticket, labelling its work in traces
  uint32_t errors;     // VIP_STATUS_* bits found so far
  via::Stamp stamp;    // the scheduler's stamp, carried by all its requests
  via::PostedDescriptor posted;
  via::Descriptor descriptor;
  via::DescriptorCopy copy;
  via::Completion completion;
};

VIA_ZEROED_AT_LOAD via::SendBuffer buffers[kSendRecords]{};
SendRecord records[kSendRecords];
uint32_t next_sequence[VIA_MAX_VI];
uint32_t tickets_issued[VIA_MAX_VI];
uint32_t tickets_queued[VIA_MAX_VI];

HdmaOwner owner_of(uint32_t r) { return {Engine::send, static_cast<uint8_t>(r)}; }

// The core takes up record r in `state` (a constant, so that the name's
// address is too); the device operations it starts are labelled with the
// record's VI and its place among the VI's sends, which is the packet's
// sequence number while none of the VI's sends fails.
void trace(uint32_t r, SendState state) {
  via::trace_state(send_state_names[static_cast<uint32_t>(state)]);
  via::trace_tag(records[r].label);
}

// Queues the completion with whatever errors the record gathered.
SendState write_status(uint32_t r) {
  SendRecord& record = records[r];
  count(pvia_sends_completed);
  if (record.errors != 0u)
    count(pvia_sends_failed);
  const uint32_t status = VIP_STATUS_DONE | VIP_STATUS_OP_SEND | record.errors;
  if (!write_completion(record.vi, record.posted, record.completion,
                        record.descriptor.immediate, record.descriptor.length, status,
                        owner_of(r), record.stamp))
    return SendState::free;
  return SendState::write_status;
}

// Puts the record in the network send queue once the VI's earlier sends
// are there, then any later ones that were waiting for it.
SendState enter_queue(uint32_t r) {
  const uint32_t vi = records[r].vi;
  if (records[r].ticket != tickets_queued[vi])
    return SendState::wait_turn;
  queue_packet(r, records[r].stamp);
  ++tickets_queued[vi];
  for (uint32_t w = 0u; w < kSendRecords; ++w) {
    SendRecord& waiting = records[w];
    if (waiting.state != SendState::wait_turn || waiting.vi != vi ||
        waiting.ticket != tickets_queued[vi])
      continue;
    queue_packet(w, waiting.stamp);
    waiting.state = SendState::wait_nsdma;
    ++tickets_queued[vi];
    w = static_cast<uint32_t>(-1); // a later one may be waiting too
  }
  return SendState::wait_nsdma;
}

void write_header(uint32_t r) {
  const SendRecord& record = records[r];
  const via::Descriptor& descriptor = record.descriptor;
  const bool immediate = (descriptor.control & VIP_CONTROL_IMMEDIATE) != 0u;
  via_packet_header& header = buffers[r].header;
  header.kind = VIA_PACKET_DATA;
  header.src_node = static_cast<uint16_t>(this_node);
  header.src_vi = static_cast<uint16_t>(record.vi);
  header.dst_vi = static_cast<uint16_t>(via::vi_config(record.vi).remote_vi);
  header.flags = immediate ? VIA_PACKET_F_IMMEDIATE : 0u;
  header.length = descriptor.length;
  header.immediate = immediate ? descriptor.immediate : 0u;
}

// Every segment has arrived (or failed): queue the packet, or report.
SendState gathered(uint32_t r) {
  if (records[r].errors == 0u)
    write_header(r);
  return enter_queue(r);
}

// Queues every segment, in order, into the send buffer behind the header.
SendState gather_data(uint32_t r) {
  SendRecord& record = records[r];
  const uint32_t ptag = via::vi_ptag(record.vi);
  uint32_t offset = 0u;
  record.outstanding = 0u;
  for (uint32_t i = 0u; i < record.descriptor.segment_count; ++i) {
    const via::DataSegment& segment = record.descriptor.segments[i];
    if (segment.length == 0u)
      continue;
    const via::HdmaRequest request{segment.address, segment.handle, ptag,
                                   via::sram_address(buffers[r].data + offset), segment.length,
                                   via::HdmaDirection::to_sram};
    if (!submit_host_dma(request, owner_of(r), record.stamp)) {
      record.errors = VIP_STATUS_PROTECTION_ERROR;
      break;
    }
    ++record.outstanding;
    offset += segment.length;
  }
  return record.outstanding == 0u ? gathered(r) : SendState::gather_data;
}

// The descriptor is in SRAM: check it and start on the data.
SendState descriptor_arrived(uint32_t r, uint32_t outcome) {
  SendRecord& record = records[r];
  if (outcome != LANAI_HDMA_OK) {
    report_unreachable_descriptor(record.vi);
    record.unreachable = true;
    return enter_queue(r);
  }
  via::decode_descriptor(record.copy, record.descriptor);
  record.errors = via::check_send(record.vi, record.descriptor);
  if (record.errors == 0u && via::route_to(via::vi_config(record.vi).remote_node).length == 0u)
    record.errors = VIP_STATUS_TRANSPORT_ERROR;
  if (record.errors != 0u)
    return enter_queue(r);
  return gather_data(r);
}

SendState segment_arrived(uint32_t r, uint32_t outcome) {
  SendRecord& record = records[r];
  if (outcome != LANAI_HDMA_OK)
    record.errors = VIP_STATUS_PROTECTION_ERROR;
  --record.outstanding;
  return record.outstanding == 0u ? gathered(r) : SendState::gather_data;
}

SendState status_written(uint32_t r, uint32_t outcome) {
  if (outcome != LANAI_HDMA_OK)
    report_unreachable_descriptor(records[r].vi);
  return SendState::free;
}

// Takes the next waiting send into free record r; false if none waits.
// Out of line, so that the loop every polling round runs stays short.
[[gnu::noinline]] bool start_send(uint32_t r) {
  SendRecord& record = records[r];
  uint32_t vi;
  if (!next_send(vi, record.posted, record.stamp))
    return false;
  record.vi = static_cast<uint8_t>(vi);
  record.unreachable = false;
  record.ticket = tickets_issued[vi]++;
  record.label = via::trace_label(vi, record.ticket);
  record.errors = 0u;
  record.outstanding = 0u;
  record.descriptor.immediate = 0u;
  record.descriptor.length = 0u;
  trace(r, SendState::fetch_descriptor);
  if (fetch_descriptor(vi, record.posted, record.copy, owner_of(r), record.stamp)) {
    record.state = SendState::fetch_descriptor;
  } else {
    record.unreachable = true;
    record.state = enter_queue(r);
  }
  via::trace_state(nullptr);
  return true;
}

} // namespace

void start_send_engine() {
  for (uint32_t r = 0u; r < kSendRecords; ++r)
    records[r].state = SendState::free;
}

void start_sends() {
  for (uint32_t r = 0u; r < kSendRecords; ++r)
    if (records[r].state == SendState::free && !start_send(r))
      return;
}

void send_host_dma_done(uint32_t r, uint32_t outcome) {
  SendRecord& record = records[r];
  switch (record.state) {
  case SendState::fetch_descriptor:
    trace(r, SendState::fetch_descriptor);
    record.state = descriptor_arrived(r, outcome);
    break;
  case SendState::gather_data:
    trace(r, SendState::gather_data);
    record.state = segment_arrived(r, outcome);
    break;
  case SendState::write_status:
    trace(r, SendState::write_status);
    record.state = status_written(r, outcome);
    break;
  default:
    count(pvia_hdma_strays);
    break;
  }
  via::trace_state(nullptr);
}

bool send_packet_ready(uint32_t r, via::OutgoingPacket& packet) {
  const SendRecord& record = records[r];
  trace(r, SendState::wait_nsdma);
  if (record.unreachable || record.errors != 0u)
    return false;
  buffers[r].header.sequence = next_sequence[record.vi];
  const via::Route route = via::route_to(via::vi_config(record.vi).remote_node);
  packet = via::frame_packet(buffers[r], route, record.descriptor.length);
  return true;
}

void send_packet_skipped(uint32_t r) {
  SendRecord& record = records[r];
  record.state = record.unreachable ? SendState::free : write_status(r);
  via::trace_state(nullptr);
}

void send_packet_started(uint32_t r, uint32_t errors) {
  SendRecord& record = records[r];
  if (errors == 0u) {
    ++next_sequence[record.vi];
    record.state = SendState::transmit;
  } else {
    record.errors = errors;
    record.state = write_status(r);
  }
  via::trace_state(nullptr);
}

void send_packet_left(uint32_t r) {
  trace(r, SendState::transmit);
  records[r].state = write_status(r);
  via::trace_state(nullptr);
}

} // namespace pvia
