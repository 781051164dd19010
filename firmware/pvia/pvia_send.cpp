// The send engine: each posted send is a record that moves through named
// states, one device operation each, and waits for that device's event
// instead of for the device:
//   fetch_descriptor -> stream -> write_status
// While it streams, the message leaves as fragments (one, unless the VI's
// fragmentation policy cuts it: common/fragment_plan.h), each carried by one
// of the record's two fragment slots through the slot's own states:
//   gather_data -> wait_turn -> wait_nsdma -> transmit -> free
// so that the host DMA fills one slot while the network send DMA empties
// the other; a freed slot takes the next fragment. A fragment's data lands
// in one of the card's send buffers, which all records share
// (pvia_send_buffers.cpp): a record holds one only from its fragment's
// gather until the packet has left, so descriptors are fetched, and
// completions written, for many more sends than there are buffers, and the
// host DMA always has the next gather queued behind the one it serves. A
// freed buffer goes to the waiting send the scheduler serves first (the
// oldest, without stamps). A VI's sends take buffers, and enter the network
// send queue, in posting order (a send ready early, say one with no data or
// an error, waits its turn), so its packets leave, and its completions are
// written, in posting order; even a send that fails, or whose descriptor
// cannot be read, takes its place in that queue without sending.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/fragment_plan.h"
#include "common/nic_config.h"
#include "common/sched_tick.h"
#include "common/send_check.h"
#include "common/stage_meter.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_send_buffers.h"

namespace pvia {

// A record is wanting while streaming, its VI's turn to cut, with its next
// slot free.
uint32_t send_wanting;
uint32_t send_gathers;

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

// Sends in hand at once: enough that, with the descriptors of the next
// ones fetched and the completions of the last ones on their way, every
// send buffer can be busy.
constexpr uint32_t kSendRecords = 16u;
constexpr uint32_t kSlots = 2u;
// Under a stamp-ordering scheduler best effort may hold this many records
// at most: the rest are kept for reserved sends, which must never wait
// behind best effort for a record.
constexpr uint32_t kBestEffortRecords = kSendRecords / 2u;
// Sends taken ahead of their first gather (their descriptors fetched or on
// the way): enough to keep the gathers coming, few enough that the host
// DMA queue stays short and later, more urgent, sends find it so.
constexpr uint32_t kSendsAhead = 4u;
constexpr uint8_t kNoRecord = 0xFFu;
constexpr uint32_t kNoFailure = 0xFFFFFFFFu;
static_assert(kSendRecords * kSlots <= 0xFFu, "a packet names its record and slot in a byte");
static_assert(kSendRecords <= 32u, "records streaming fit a word");

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
  uint8_t buffer;      // the send buffer it fills (kNoBuffer: none)
  bool last;           // the message's last fragment
  uint32_t index;      // which fragment of the message
  uint32_t offset;     // where it starts in the message
  uint32_t bytes;
  uint32_t cut_at;     // cycle its reads were queued (adaptive policy)
  via::Stamp stamp;
  via::OutgoingPacket framed; // the packet, framed as it joins the network send queue
};

// A power of two in size, so that finding record r is one shift.
struct alignas(512) SendRecord {
  SendState state;
  uint8_t vi;
  bool unreachable; // the descriptor could not be read: no status to write
  bool numbered;    // a packet has left: the message has its sequence number
  bool has_turn;    // the VI's earlier sends are all in the network queue
  bool all_cut;     // every fragment has been handed to a slot
  bool measured;    // the VI's policy is adaptive: time the fragments
  bool best_effort; // counted among best effort's records
  bool ahead;       // taken, and no fragment cut yet
  uint8_t next_of_vi; // the VI's send taken after this one (kNoRecord: none yet)
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
  SendWork work;     // where its descriptor is, its stamp (carried by all its requests)
  via::FragmentPlan plan;
  via::Descriptor descriptor;
  via::DescriptorCopy copy;
  via::Completion completion;
  Slot slots[kSlots];
};

SendRecord records[kSendRecords];
static_assert(sizeof(SendRecord) == 512, "a record is found by shifting its number");
uint8_t free_records[kSendRecords];
uint32_t free_record_count;
uint32_t best_effort_records;
// Records ahead of their first gather, best effort's and the others'
// counted apart: best effort waiting for the host DMA must not keep a
// reserved send from being taken.
uint32_t sends_ahead[2];
uint8_t latest_of_vi[VIA_MAX_VI]; // the VI's send taken last
uint32_t next_sequence[VIA_MAX_VI];
uint32_t tickets_issued[VIA_MAX_VI];
uint32_t tickets_cut[VIA_MAX_VI]; // the VI's send whose fragments are being cut
uint32_t tickets_queued[VIA_MAX_VI];
via::Stamp last_queued[VIA_MAX_VI]; // keeps a VI's packets in order in a stamp-ordered queue
bool stamp_ordered;
bool tracks_service; // the scheduler wants to hear of each send served
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

void release_record(uint32_t r) {
  SendRecord& record = records[r];
  record.state = SendState::free;
  if (record.best_effort)
    --best_effort_records;
  free_records[free_record_count++] = static_cast<uint8_t>(r);
}

// Queues the completion with whatever errors the record gathered.
SendState write_status(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  count(pvia_sends_completed);
  if (record.errors != 0u)
    count(pvia_sends_failed);
  const uint32_t status = VIP_STATUS_DONE | VIP_STATUS_OP_SEND | record.errors;
  if (!write_completion(record.vi, record.work.posted, record.completion,
                        record.descriptor.immediate, record.descriptor.length, status,
                        owner_of(r), record.work.stamping.stamp)) {
    release_record(r);
    return SendState::free;
  }
  return SendState::write_status;
}

void try_queue(uint32_t r);

// Writes the packet header (all but the sequence number, known only as the
// packet leaves) and the route in front of the slot's data, so that the
// network send DMA starts at once when the packet's turn comes. A
// fragment is framed as its data is read, and again should it fail.
inline void frame_fragment(const SendRecord& record, Slot& slot) {
  const via::Descriptor& descriptor = record.descriptor;
  const bool immediate = (descriptor.control & VIP_CONTROL_IMMEDIATE) != 0u;
  const uint32_t bytes = slot.carries == Carries::data ? slot.bytes : 0u;
  volatile via_vi_config& config = via::vi_config(record.vi);
  via::SendBuffer& buffer = via::in_register(&send_buffer(slot.buffer));
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
  header.offset = slot.offset;
  header.message = descriptor.length;
  slot.framed = via::frame_packet(buffer, via::route_to(config.remote_node), bytes);
}

// A fragment that failed while its data was read carries the news instead.
[[gnu::noinline]] void reframe(uint32_t r, Slot& slot) { frame_fragment(records[r], slot); }

// The VI's send taken after record r, if it is still in hand and has
// ticket `ticket`; kNoRecord otherwise.
uint32_t next_of_vi(uint32_t r, uint32_t ticket) {
  const uint32_t n = records[r].next_of_vi;
  if (n == kNoRecord)
    return kNoRecord;
  const SendRecord& next = records[n];
  if (next.state == SendState::free || next.vi != records[r].vi || next.ticket != ticket)
    return kNoRecord;
  return n;
}

// The VI's next send in posting order may queue what it has gathered.
void pass_turn(uint32_t r) {
  const uint32_t n = next_of_vi(r, tickets_queued[records[r].vi]);
  if (n != kNoRecord && records[n].state == SendState::stream)
    try_queue(n);
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
    if (slot.carries == Carries::aborted)
      reframe(r, slot);
    queue_packet(packet_of(r, s), slot.stamp);
    slot.state = SlotState::wait_nsdma;
    ++record.queued;
    if (slot.last) {
      ++tickets_queued[vi];
      pass_turn(r);
      return;
    }
  }
}

// The lowest record in a non-empty set of them.
uint32_t lowest_record(uint32_t set) {
  uint32_t r = 0u;
  if ((set & 0xFFu) == 0u) {
    set >>= 8u;
    r += 8u;
  }
  if ((set & 0xFu) == 0u) {
    set >>= 4u;
    r += 4u;
  }
  if ((set & 0x3u) == 0u) {
    set >>= 2u;
    r += 2u;
  }
  return (set & 1u) == 0u ? r + 1u : r;
}
static_assert(kSendRecords <= 16u, "lowest_record looks at 16 bits");

// Record r would cut a fragment if given a buffer (or no longer would).
void note_wanting(uint32_t r) {
  const SendRecord& record = records[r];
  if (record.state == SendState::stream && !record.all_cut &&
      record.ticket == tickets_cut[record.vi] &&
      record.slots[record.cut % kSlots].state == SlotState::free)
    send_wanting |= 1u << r;
  else
    send_wanting &= ~(1u << r);
}

// Every fragment of the record is in a slot (or none will be sent). Once
// it, and every send of its VI before it, is done cutting, the VI's next
// send may cut.
void finish_cutting(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  record.all_cut = true;
  send_wanting &= ~(1u << r);
  const uint32_t vi = record.vi;
  if (record.ticket != tickets_cut[vi])
    return; // a send that failed while an earlier one still cuts
  for (uint32_t at = r;;) {
    ++tickets_cut[vi];
    const uint32_t n = next_of_vi(at, tickets_cut[vi]);
    if (n == kNoRecord)
      return;
    if (!records[n].all_cut) {
      note_wanting(n);
      return;
    }
    at = n;
  }
}

// Fragment `index` of the record failed: it carries the news of the
// message's end if earlier fragments may have left, and none after it is cut.
void fail_fragment(uint32_t r, Slot& slot, uint32_t errors) {
  SendRecord& record = via::in_register(&records[r]);
  record.errors |= errors;
  slot.carries = slot.index == 0u ? Carries::nothing : Carries::aborted;
  slot.last = true;
  if (!record.all_cut)
    finish_cutting(r);
  if (slot.index < record.failed_at)
    record.failed_at = slot.index;
}

void fragment_gathered(uint32_t r, uint32_t s) {
  SendRecord& record = via::in_register(&records[r]);
  Slot& slot = record.slots[s];
  ++record.gathered;
  --send_gathers;
  slot.state = SlotState::wait_turn;
  try_queue(r);
}

// Queues the reads of a fragment's data into its buffer, piece by piece
// (a fragment may straddle the descriptor's segments); the number queued.
// A read the host DMA refuses fails the fragment.
[[gnu::noinline]] uint32_t read_pieces(uint32_t r, Slot& slot, uint8_t* data) {
  SendRecord& record = via::in_register(&records[r]);
  via::DataSegment pieces[VIA_MAX_SEGMENTS];
  const uint32_t count = via::segment_pieces(record.descriptor, slot.offset, slot.bytes, pieces);
  const uint32_t ptag = via::vi_ptag(record.vi);
  uint32_t queued = 0u;
  for (uint32_t i = 0u; i < count; ++i) {
    const via::HdmaRequest request{pieces[i].address, pieces[i].handle, ptag,
                                   via::sram_address(data), pieces[i].length,
                                   via::HdmaDirection::to_sram};
    if (!submit_host_dma(request, owner_of(r), slot.stamp)) {
      fail_fragment(r, slot, VIP_STATUS_PROTECTION_ERROR);
      break;
    }
    ++queued;
    data += pieces[i].length;
  }
  return queued;
}

// Hands the next fragment to the record's free slot, with `buffer` to
// land in, and queues the reads of its data. Out of line: inlined in its
// callers' loops it has the compiler set up every address it might use
// before the first pass, which costs more than the call.
[[gnu::noinline]] void cut_fragment(uint32_t r, uint32_t buffer) {
  SendRecord& record = via::in_register(&records[r]);
  const uint32_t index = record.cut++;
  const uint32_t s = index % kSlots;
  Slot& slot = via::in_register(&record.slots[s]);
  if (record.ahead) {
    record.ahead = false;
    --sends_ahead[record.best_effort];
  }
  const uint32_t offset = record.offset;
  const uint32_t bytes = via::next_fragment(record.plan);
  record.offset = offset + bytes;
  slot.index = index;
  slot.offset = offset;
  slot.bytes = bytes;
  slot.carries = Carries::data;
  slot.buffer = static_cast<uint8_t>(buffer);
  slot.last = offset + bytes == record.descriptor.length;
  if (stamp_ordered) {
    if (index != 0u) {
      // The VI's clock is already past the message's posting: stamping
      // from time 0 goes on from it.
      const via::Stamp stamp = via::stamp_send(record.vi, bytes, 0u).stamp;
      if (stamp > record.work.stamping.stamp)
        record.work.stamping.stamp = stamp;
    }
    if (tracks_service)
      via::stamp_served(record.work.stamping.stamp);
  }
  slot.stamp = record.work.stamping.stamp;
  slot.state = SlotState::gather_data;
  ++send_gathers;
  trace(r, SlotState::gather_data);
  if (record.measured)
    slot.cut_at = now();
  uint8_t* const data = send_buffer(buffer).data;
  // The common case, a fragment within the first segment, is one read.
  const via::Descriptor& descriptor = record.descriptor;
  uint32_t queued;
  if (descriptor.segment_count == 1u && offset + bytes <= descriptor.segments[0].length) {
    const via::DataSegment& segment = descriptor.segments[0];
    const via::HdmaRequest request{segment.address + offset, segment.handle,
                                   via::vi_ptag(record.vi), via::sram_address(data), bytes,
                                   via::HdmaDirection::to_sram};
    queued = bytes == 0u ? 0u : submit_host_dma(request, owner_of(r), slot.stamp) ? 1u : 0u;
    if (bytes != 0u && queued == 0u)
      fail_fragment(r, slot, VIP_STATUS_PROTECTION_ERROR);
  } else {
    queued = read_pieces(r, slot, data);
  }
  slot.outstanding = static_cast<uint8_t>(queued);
  if (slot.carries == Carries::data)
    frame_fragment(record, slot);
  if (slot.last && !record.all_cut)
    finish_cutting(r);
  note_wanting(r);
  if (queued == 0u)
    fragment_gathered(r, s);
}

// The record wanting a buffer that the scheduler serves first (the oldest
// send without stamps); kSendRecords if none wants one.
[[gnu::noinline]] uint32_t first_wanting_due();

[[gnu::noinline]] uint32_t first_wanting() {
  if ((send_wanting & (send_wanting - 1u)) == 0u)
    return lowest_record(send_wanting);
  uint32_t best = kSendRecords;
  uint64_t dues = 0u;
  uint32_t mask = send_wanting;
  for (uint32_t r = 0u; mask != 0u; ++r, mask >>= 1u) {
    if ((mask & 1u) == 0u)
      continue;
    const SendWork& work = records[r].work;
    dues |= work.stamping.due;
    if (best == kSendRecords) {
      best = r;
      continue;
    }
    const SendWork& chosen = records[best].work;
    if (stamp_ordered ? via::stamped_first(work.stamping.stamp, work.serial, chosen.stamping.stamp,
                                           chosen.serial)
                      : static_cast<int32_t>(work.serial - chosen.serial) < 0)
      best = r;
  }
  return dues == 0u ? best : first_wanting_due();
}

// first_wanting() when some send has a due time: due work first.
uint32_t first_wanting_due() {
  uint32_t best = kSendRecords;
  via::LazyClock clock;
  uint32_t mask = send_wanting;
  for (uint32_t r = 0u; mask != 0u; ++r, mask >>= 1u) {
    if ((mask & 1u) == 0u)
      continue;
    if (best != kSendRecords) {
      const SendRecord& record = records[r];
      const SendRecord& chosen = records[best];
      if (stamp_ordered) {
        if (via::serve_first(chosen.work.stamping, record.work.stamping, clock))
          continue;
        if (!via::serve_first(record.work.stamping, chosen.work.stamping, clock) &&
            static_cast<int32_t>(record.work.serial - chosen.work.serial) > 0)
          continue;
      } else if (static_cast<int32_t>(record.work.serial - chosen.work.serial) > 0) {
        continue;
      }
    }
    best = r;
  }
  return best;
}

// A send that fails before its data: one empty slot keeps its place.
SendState stream_nothing(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  if (record.ahead) {
    record.ahead = false;
    --sends_ahead[record.best_effort];
  }
  Slot& slot = record.slots[0];
  slot.index = 0u;
  slot.carries = Carries::nothing;
  slot.buffer = kNoBuffer;
  slot.last = true;
  slot.stamp = record.work.stamping.stamp;
  record.cut = 1u;
  finish_cutting(r);
  ++record.gathered;
  slot.state = SlotState::wait_turn;
  record.state = SendState::stream;
  try_queue(r);
  return record.state;
}

// The descriptor is in SRAM: check it and start on the data. Out of line:
// the dispatch of every host DMA completion would otherwise pay for its
// registers.
[[gnu::noinline]] SendState descriptor_arrived(uint32_t r, uint32_t outcome) {
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
  note_wanting(r);
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
  release_record(r);
  return SendState::free;
}

// The slot's packet has left (or was passed over): its buffer goes to the
// next send that wants one, and the send is over after its last fragment.
void fragment_done(uint32_t r, uint32_t s) {
  SendRecord& record = via::in_register(&records[r]);
  Slot& slot = record.slots[s];
  slot.state = SlotState::free;
  if (slot.buffer != kNoBuffer) {
    give_back_send_buffer(slot.buffer);
    slot.buffer = kNoBuffer;
  }
  ++record.finished;
  note_wanting(r);
  if (record.all_cut && record.finished == record.cut) {
    if (record.unreachable)
      release_record(r);
    else
      record.state = write_status(r);
  }
}

// Takes the next waiting send into free record r; false if none waits (or
// only best effort, which has all the records it may hold). Out of line,
// so that the loop every polling round runs stays short.
[[gnu::noinline]] bool start_send(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  uint32_t vi;
  const bool best_effort_allowed =
      best_effort_records < kBestEffortRecords && sends_ahead[1] < 2u;
  if (!next_send(vi, record.work, best_effort_allowed, sends_ahead[0] < kSendsAhead))
    return false;
  record.vi = static_cast<uint8_t>(vi);
  record.best_effort = stamp_ordered && via::vi_best_effort(vi);
  record.ahead = true;
  ++sends_ahead[record.best_effort];
  record.next_of_vi = kNoRecord;
  const uint32_t previous = latest_of_vi[vi];
  if (previous != kNoRecord && records[previous].state != SendState::free &&
      records[previous].vi == vi && records[previous].ticket + 1u == tickets_issued[vi])
    records[previous].next_of_vi = static_cast<uint8_t>(r);
  latest_of_vi[vi] = static_cast<uint8_t>(r);
  if (record.best_effort)
    ++best_effort_records;
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
  for (uint32_t s = 0u; s < kSlots; ++s)
    record.slots[s].buffer = kNoBuffer;
  trace(r, SendState::fetch_descriptor);
  if (fetch_descriptor(vi, record.work.posted, record.copy, owner_of(r), record.work.stamping.stamp)) {
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
  tracks_service = via::scheduler_tracks_service();
  start_send_buffers();
  free_record_count = 0u;
  best_effort_records = 0u;
  sends_ahead[0] = sends_ahead[1] = 0u;
  send_wanting = 0u;
  send_gathers = 0u;
  for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi)
    latest_of_vi[vi] = kNoRecord;
  for (uint32_t r = kSendRecords; r-- > 0u;) {
    records[r].state = SendState::free;
    records[r].best_effort = false;
    records[r].ahead = false;
    records[r].next_of_vi = kNoRecord;
    for (uint32_t s = 0u; s < kSlots; ++s) {
      records[r].slots[s].state = SlotState::free;
      records[r].slots[s].buffer = kNoBuffer;
    }
    free_records[free_record_count++] = static_cast<uint8_t>(r);
  }
}

void start_gather() { cut_fragment(first_wanting(), take_send_buffer()); }

bool start_sends() {
  if (free_record_count == 0u)
    return false;
  // A record is released only by a device event, never inside start_send.
  const uint32_t r = free_records[--free_record_count];
  if (start_send(r))
    return true;
  free_records[free_record_count++] = static_cast<uint8_t>(r);
  return false;
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
  send_buffer(slot.buffer).header.sequence =
      record.numbered ? record.sequence : next_sequence[record.vi];
  out = slot.framed;
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
    if (!record.all_cut)
      finish_cutting(r);
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
