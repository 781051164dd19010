// The send engine: each posted send is a record that moves through named
// states, one device operation each, and waits for that device's event
// instead of for the device:
//   fetch_descriptor -> stream -> write_status
// While it streams, the message leaves as fragments (one, unless the VI's
// fragmentation policy cuts it: common/fragment_plan.h), each carried by one
// of the record's two fragment slots through the slot's own states:
//   gather_data -> wait_turn -> wait_nsdma -> transmit -> free
// so that the host DMA fills one slot while the network send DMA empties
// the other; a freed slot takes the next fragment. Several records stream
// at once: one gathers while another leaves. A VI's sends enter the network
// send queue in posting order (a send ready early, say one with no data or
// an error, waits its turn), so its packets leave, and its completions are
// written, in posting order; even a send that fails, or whose descriptor
// cannot be read, takes its place in that queue without sending.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/fragment_plan.h"
#include "common/nic_config.h"
#include "common/send_check.h"
#include "common/sram_placement.h"
#include "common/stage_meter.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

enum class SendState : uint8_t {
  free,             // no message
  fetch_descriptor, // the descriptor is on its way from host memory
  stream,           // its fragments are on their way through the slots
  write_status,     // the completion is on its way to host memory
  count_,
};

enum class SlotState : uint8_t {
  free,        // no fragment
  gather_data, // the fragment's data is on its way into the slot's buffer
  wait_turn,   // ready, behind an earlier send of its VI not yet all queued
  wait_nsdma,  // the packet waits in the network send queue
  transmit,    // the network send DMA is sending it
  count_,
};

// Names of the states, for traces.
extern const char* const send_state_names[];
const char* const send_state_names[] = {"send:free", "send:fetch_descriptor", "send:stream",
                                        "send:write_status"};
static_assert(static_cast<uint32_t>(SendState::count_) == 4u, "one name per state");
extern const char* const send_slot_state_names[];
const char* const send_slot_state_names[] = {"send:slot_free", "send:gather_data",
                                             "send:wait_turn", "send:wait_nsdma",
                                             "send:transmit"};
static_assert(static_cast<uint32_t>(SlotState::count_) == 5u, "one name per state");

namespace {

constexpr uint32_t kSendRecords = 4u;
constexpr uint32_t kSlots = 2u;
constexpr uint32_t kNoFailure = 0xFFFFFFFFu;
static_assert(kSendRecords * kSlots <= 0xFFu, "a packet names its record and slot in a byte");

// What a slot's packet carries.
enum class Carries : uint8_t {
  data,    // the fragment
  aborted, // nothing: the message was given up after earlier fragments left
  nothing, // no packet at all (the send failed before any left)
};

struct Slot {
  SlotState state;
  Carries carries;
  uint8_t outstanding; // host DMAs queued and not yet completed
  bool last;           // the message's last fragment
  uint32_t index;      // which fragment of the message
  uint32_t offset;     // where it starts in the message
  uint32_t bytes;
  uint32_t cut_at;     // cycle its reads were queued (adaptive policy)
  via::Stamp stamp;
};

struct SendRecord {
  SendState state;
  uint8_t vi;
  bool unreachable; // the descriptor could not be read: no status to write
  bool numbered;    // a packet has left: the message has its sequence number
  bool has_turn;    // the VI's earlier sends are all in the network queue
  bool all_cut;     // every fragment has been handed to a slot
  bool measured;    // the VI's policy is adaptive: time the fragments
  uint32_t ticket;  // its place among its VI's sends
  uint32_t label;   // VI and ticket, labelling its work in traces
  uint32_t errors;  // VIP_STATUS_* bits found so far
  uint32_t failed_at; // first fragment that failed; later ones are not sent
  uint32_t sequence;  // the message's number on the wire, once numbered
  uint32_t cut;       // fragments handed to slots
  uint32_t gathered;  // ... whose data is in (or failed to reach) SRAM
  uint32_t queued;    // ... in the network send queue
  uint32_t finished;  // ... that left or were passed over
  uint32_t offset;    // message bytes handed to slots
  via::Stamp stamp;   // the scheduler's stamp, carried by all its requests
  via::FragmentPlan plan;
  via::PostedDescriptor posted;
  via::Descriptor descriptor;
  via::DescriptorCopy copy;
  via::Completion completion;
  Slot slots[kSlots];
};

VIA_ZEROED_AT_LOAD via::SendBuffer buffers[kSendRecords][kSlots]{};
SendRecord records[kSendRecords];
uint32_t next_sequence[VIA_MAX_VI];
uint32_t tickets_issued[VIA_MAX_VI];
uint32_t tickets_queued[VIA_MAX_VI];
via::Stamp last_queued[VIA_MAX_VI]; // keeps a VI's packets in order in a stamp-ordered queue
bool stamp_ordered;
// The adaptive policy's meters (stage_meter.h): first fragments, which
// cross the card with nothing of their message ahead of them, and
// fragments leaving back to back.
via::StageMeter alone_meter;
via::StageMeter back_to_back_meter;
uint32_t probes; // measured messages planned
uint32_t left_at[kSendRecords]; // cycle each record's previous fragment left (adaptive policy)
via::FigureCache figure_cache;

HdmaOwner owner_of(uint32_t r) { return {Engine::send, static_cast<uint8_t>(r)}; }
uint32_t packet_of(uint32_t r, uint32_t s) { return r * kSlots + s; }
uint32_t now() { return lanai_mmio_read(LANAI_REG_CYCLE_LO); }

// The core takes up record r in `state` (a constant, so that the name's
// address is too); the device operations it starts are labelled with the
// record's VI and its place among the VI's sends, which is the message's
// sequence number while none of the VI's sends fails.
void trace(uint32_t r, SendState state) {
  via::trace_state(send_state_names[static_cast<uint32_t>(state)]);
  via::trace_tag(records[r].label);
}
void trace(uint32_t r, SlotState state) {
  via::trace_state(send_slot_state_names[static_cast<uint32_t>(state)]);
  via::trace_tag(records[r].label);
}

// Queues the completion with whatever errors the record gathered.
SendState write_status(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
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

void try_queue(uint32_t r);

// The VI's next send in posting order may queue what it has gathered. Out
// of line, so that try_queue does not set up every record's address first.
[[gnu::noinline]] void pass_turn(uint32_t vi) {
  for (uint32_t w = 0u; w < kSendRecords; ++w) {
    const SendRecord& waiting = via::in_register(&records[w]);
    if (waiting.state == SendState::stream && waiting.vi == vi && !waiting.has_turn &&
        waiting.ticket == tickets_queued[vi]) {
      try_queue(w);
      return;
    }
  }
}

// Puts the record's gathered fragments, in order, in the network send
// queue once the VI's earlier sends are all there; after its last, the
// VI's next send may follow.
void try_queue(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  const uint32_t vi = record.vi;
  if (!record.has_turn) {
    if (record.ticket != tickets_queued[vi])
      return;
    record.has_turn = true;
  }
  while (record.queued != record.gathered) {
    const uint32_t s = record.queued % kSlots;
    Slot& slot = record.slots[s];
    if (stamp_ordered) {
      if (slot.stamp < last_queued[vi])
        slot.stamp = last_queued[vi];
      last_queued[vi] = slot.stamp;
    }
    queue_packet(packet_of(r, s), slot.stamp);
    slot.state = SlotState::wait_nsdma;
    ++record.queued;
    if (slot.last) {
      ++tickets_queued[vi];
      pass_turn(vi);
      return;
    }
  }
}

// Fragment `index` of the record failed: it carries the news of the
// message's end if earlier fragments may have left, and none after it is cut.
void fail_fragment(uint32_t r, Slot& slot, uint32_t errors) {
  SendRecord& record = via::in_register(&records[r]);
  record.errors |= errors;
  slot.carries = slot.index == 0u ? Carries::nothing : Carries::aborted;
  slot.last = true;
  record.all_cut = true;
  if (slot.index < record.failed_at)
    record.failed_at = slot.index;
}

void fragment_gathered(uint32_t r, uint32_t s) {
  SendRecord& record = via::in_register(&records[r]);
  Slot& slot = record.slots[s];
  ++record.gathered;
  slot.state = SlotState::wait_turn;
  try_queue(r);
}

// Hands the next fragment to the free slot it belongs in and queues the
// reads of its data, piece by piece, into the slot's buffer. Out of line:
// inlined in fill_slots' loop it has the compiler set up every address it
// might use before the first pass, which costs more than the call.
[[gnu::noinline]] void cut_fragment(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  const uint32_t s = record.cut % kSlots;
  Slot& slot = record.slots[s];
  const uint32_t length = record.descriptor.length;
  slot.index = record.cut++;
  slot.offset = record.offset;
  slot.bytes = via::next_fragment(record.plan);
  slot.carries = Carries::data;
  record.offset += slot.bytes;
  record.all_cut = record.offset == length;
  slot.last = record.all_cut;
  if (slot.index != 0u && stamp_ordered) {
    const via::Stamp stamp = via::stamp_send(record.vi, slot.bytes);
    if (stamp > record.stamp)
      record.stamp = stamp;
  }
  slot.stamp = record.stamp;
  slot.state = SlotState::gather_data;
  trace(r, SlotState::gather_data);
  if (record.measured)
    slot.cut_at = now();
  via::DataSegment pieces[VIA_MAX_SEGMENTS];
  const uint32_t count = via::segment_pieces(record.descriptor, slot.offset, slot.bytes, pieces);
  uint8_t* const data = via::in_register(&buffers[r][s]).data;
  const uint32_t ptag = via::vi_ptag(record.vi);
  uint32_t at = 0u;
  slot.outstanding = 0u;
  for (uint32_t i = 0u; i < count; ++i) {
    const via::HdmaRequest request{pieces[i].address, pieces[i].handle, ptag,
                                   via::sram_address(data + at), pieces[i].length,
                                   via::HdmaDirection::to_sram};
    if (!submit_host_dma(request, owner_of(r), slot.stamp)) {
      fail_fragment(r, slot, VIP_STATUS_PROTECTION_ERROR);
      break;
    }
    ++slot.outstanding;
    at += pieces[i].length;
  }
  if (slot.outstanding == 0u)
    fragment_gathered(r, s);
}

// Cuts fragments into the free slots while the message has more.
void fill_slots(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  while (!record.all_cut && record.slots[record.cut % kSlots].state == SlotState::free)
    cut_fragment(r);
}

// A send that fails before its data: one empty slot keeps its place.
SendState stream_nothing(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  Slot& slot = record.slots[0];
  slot.index = 0u;
  slot.carries = Carries::nothing;
  slot.last = true;
  slot.stamp = record.stamp;
  record.cut = 1u;
  record.all_cut = true;
  ++record.gathered;
  slot.state = SlotState::wait_turn;
  record.state = SendState::stream;
  try_queue(r);
  return record.state;
}

// The descriptor is in SRAM: check it and start on the data.
SendState descriptor_arrived(uint32_t r, uint32_t outcome) {
  SendRecord& record = via::in_register(&records[r]);
  if (outcome != LANAI_HDMA_OK) {
    report_unreachable_descriptor(record.vi);
    record.unreachable = true;
    return stream_nothing(r);
  }
  via::decode_descriptor(record.copy, record.descriptor);
  record.errors = via::check_send(record.vi, record.descriptor);
  if (record.errors == 0u && via::route_to(via::vi_config(record.vi).remote_node).length == 0u)
    record.errors = VIP_STATUS_TRANSPORT_ERROR;
  if (record.errors != 0u)
    return stream_nothing(r);
  volatile via_vi_config& config = via::vi_config(record.vi);
  // A message no larger than the VI's smallest fragment is one fragment
  // under any policy: it takes the path of an unfragmented VI (whose
  // smallest fragment the driver sets to the largest message), so that
  // fragmentation costs it nothing.
  if (record.descriptor.length <= config.frag_bytes) {
    via::plan_whole(record.descriptor.length, record.plan);
  } else {
    record.measured = config.frag_policy == VIA_FRAG_ADAPTIVE;
    // Of every sixteen measured messages the second is cut in fragments of
    // half the planned size and the third of a quarter, so that both meters
    // always have two sizes to fit a line to, even when the plan is to send
    // messages whole.
    const uint32_t probe = record.measured ? probes++ & 15u : 0u;
    const via::PipelineFigures figures =
        record.measured
            ? via::measured_figures(alone_meter, back_to_back_meter,
                                    {config.frag_param[0], config.frag_param[1]}, figure_cache)
            : via::PipelineFigures{0u, 0u};
    via::plan_fragments(record.vi, record.descriptor.length, figures, record.plan);
    if ((probe == 1u || probe == 2u) && record.plan.fixed >= 4u * VIA_FRAG_ALIGN)
      record.plan.fixed = (record.plan.fixed >> probe) & ~(VIA_FRAG_ALIGN - 1u);
  }
  record.state = SendState::stream;
  fill_slots(r);
  return record.state;
}

void data_arrived(uint32_t r, uint32_t outcome) {
  SendRecord& record = via::in_register(&records[r]);
  const uint32_t s = record.gathered % kSlots;
  Slot& slot = record.slots[s];
  if (outcome != LANAI_HDMA_OK && slot.carries == Carries::data)
    fail_fragment(r, slot, VIP_STATUS_PROTECTION_ERROR);
  if (--slot.outstanding == 0u)
    fragment_gathered(r, s);
}

SendState status_written(uint32_t r, uint32_t outcome) {
  if (outcome != LANAI_HDMA_OK)
    report_unreachable_descriptor(records[r].vi);
  return SendState::free;
}

// The slot's packet has left (or was passed over): the slot takes the next
// fragment, or the send is over.
void fragment_done(uint32_t r, uint32_t s) {
  SendRecord& record = via::in_register(&records[r]);
  record.slots[s].state = SlotState::free;
  ++record.finished;
  if (record.all_cut && record.finished == record.cut) {
    record.state = record.unreachable ? SendState::free : write_status(r);
    return;
  }
  fill_slots(r);
}

// Takes the next waiting send into free record r; false if none waits.
// Out of line, so that the loop every polling round runs stays short.
[[gnu::noinline]] bool start_send(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  uint32_t vi;
  if (!next_send(vi, record.posted, record.stamp))
    return false;
  record.vi = static_cast<uint8_t>(vi);
  record.unreachable = false;
  record.numbered = false;
  record.has_turn = false;
  record.all_cut = false;
  record.measured = false;
  record.ticket = tickets_issued[vi]++;
  record.label = via::trace_label(vi, record.ticket);
  record.errors = 0u;
  record.failed_at = kNoFailure;
  record.cut = record.gathered = record.queued = record.finished = 0u;
  record.offset = 0u;
  record.descriptor.immediate = 0u;
  record.descriptor.length = 0u;
  trace(r, SendState::fetch_descriptor);
  if (fetch_descriptor(vi, record.posted, record.copy, owner_of(r), record.stamp)) {
    record.state = SendState::fetch_descriptor;
  } else {
    record.unreachable = true;
    stream_nothing(r);
  }
  via::trace_state(nullptr);
  return true;
}

} // namespace

void start_send_engine() {
  stamp_ordered = via::scheduler_orders_queues();
  for (uint32_t r = 0u; r < kSendRecords; ++r) {
    records[r].state = SendState::free;
    for (uint32_t s = 0u; s < kSlots; ++s)
      records[r].slots[s].state = SlotState::free;
  }
}

void start_sends() {
  for (uint32_t r = 0u; r < kSendRecords; ++r)
    if (records[r].state == SendState::free && !start_send(r))
      return;
}

void send_host_dma_done(uint32_t r, uint32_t outcome) {
  SendRecord& record = via::in_register(&records[r]);
  switch (record.state) {
  case SendState::fetch_descriptor:
    trace(r, SendState::fetch_descriptor);
    record.state = descriptor_arrived(r, outcome);
    break;
  case SendState::stream:
    trace(r, SlotState::gather_data);
    data_arrived(r, outcome);
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

bool send_packet_ready(uint32_t packet, via::OutgoingPacket& out) {
  const uint32_t r = packet / kSlots, s = packet % kSlots;
  SendRecord& record = via::in_register(&records[r]);
  const Slot& slot = record.slots[s];
  trace(r, SlotState::wait_nsdma);
  if (slot.carries == Carries::nothing || slot.index > record.failed_at ||
      (slot.carries == Carries::aborted && !record.numbered))
    return false;
  const via::Descriptor& descriptor = record.descriptor;
  const bool immediate = (descriptor.control & VIP_CONTROL_IMMEDIATE) != 0u;
  const uint32_t bytes = slot.carries == Carries::data ? slot.bytes : 0u;
  volatile via_vi_config& config = via::vi_config(record.vi);
  via::SendBuffer& buffer = via::in_register(&buffers[r][s]);
  via_packet_header& header = buffer.header;
  header.kind = VIA_PACKET_DATA;
  header.src_node = static_cast<uint16_t>(this_node);
  header.src_vi = static_cast<uint16_t>(record.vi);
  header.dst_vi = static_cast<uint16_t>(config.remote_vi);
  header.flags = static_cast<uint16_t>((immediate ? VIA_PACKET_F_IMMEDIATE : 0u) |
                                       (slot.last ? VIA_PACKET_F_LAST : 0u) |
                                       (slot.carries == Carries::aborted ? VIA_PACKET_F_ABORTED
                                                                         : 0u));
  header.length = bytes;
  header.immediate = immediate ? descriptor.immediate : 0u;
  header.sequence = record.numbered ? record.sequence : next_sequence[record.vi];
  header.offset = slot.offset;
  header.message = descriptor.length;
  const via::Route route = via::route_to(config.remote_node);
  out = via::frame_packet(buffer, route, bytes);
  return true;
}

void send_packet_skipped(uint32_t packet) {
  fragment_done(packet / kSlots, packet % kSlots);
  via::trace_state(nullptr);
}

void send_packet_started(uint32_t packet, uint32_t errors) {
  const uint32_t r = packet / kSlots, s = packet % kSlots;
  SendRecord& record = via::in_register(&records[r]);
  Slot& slot = record.slots[s];
  if (errors != 0u) {
    record.errors |= errors;
    if (slot.index < record.failed_at)
      record.failed_at = slot.index;
    record.all_cut = true;
    fragment_done(r, s);
  } else {
    if (!record.numbered) {
      record.numbered = true;
      record.sequence = next_sequence[record.vi]++;
    }
    slot.state = SlotState::transmit;
  }
  via::trace_state(nullptr);
}

// Times a measured fragment that has left: a first fragment from its
// reads being queued, a later one queued before the previous one left
// from that departure.
[[gnu::noinline]] void time_departure(uint32_t r, const Slot& slot) {
  const uint32_t t = now();
  if (slot.index == 0u)
    alone_meter.add(slot.bytes, t - slot.cut_at);
  else if (static_cast<int32_t>(left_at[r] - slot.cut_at) > 0)
    back_to_back_meter.add(slot.bytes, t - left_at[r]);
  left_at[r] = t;
}

void send_packet_left(uint32_t packet) {
  const uint32_t r = packet / kSlots, s = packet % kSlots;
  trace(r, SlotState::transmit);
  const Slot& slot = records[r].slots[s];
  if (records[r].measured && slot.carries == Carries::data)
    time_departure(r, slot);
  fragment_done(r, s);
  via::trace_state(nullptr);
}

} // namespace pvia
