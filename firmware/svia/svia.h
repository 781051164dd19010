// SVIA, the sequential VIA firmware: it carries one message at a time
// through all its device operations, starting each and busy-waiting for it
// before the next. Its only overlaps: while waiting on a DMA it takes
// packets off the network into a spare buffer, so arrivals are not held up,
// and doorbells into their rings; and it does not wait for a completion to
// reach the host (the host DMA's queue keeps it ahead of what follows).
#pragma once

#include <stdint.h>

#include "common/ack_packet.h"
#include "common/descriptor.h"
#include "common/devices.h"
#include "common/packet.h"
#include "common/ready_list.h"
#include "common/sram_placement.h"

namespace svia {

constexpr uint32_t kNoBuffer = 0xFFFFFFFFu;

// This card's node number, read from the hardware once at start-up.
extern uint32_t this_node;

// --- Work posted by the host (svia_queues.cpp) ------------------------------

// Reads the doorbell mode; called once the configuration is valid.
void start_doorbells();
// Moves every waiting doorbell into its VI's send or receive ring;
// `events` is the event-status word that showed doorbells waiting.
void drain_doorbells(uint32_t events);
// Moves one waiting doorbell: cheap enough to call from every busy-wait.
void take_doorbell(uint32_t events);
// The next send in round-robin order over the VIs that have one waiting.
bool next_send(uint32_t& vi, via::PostedDescriptor& posted);
// Chooses the next send ahead of time (while a packet leaves), so that
// next_send() then only hands it over; chosen_send() tells which it is.
void choose_next_send();
bool chosen_send(uint32_t& vi, via::PostedDescriptor& posted);
// The oldest receive posted on `vi`, which the next message for it fills.
bool next_receive(uint32_t vi, via::PostedDescriptor& posted);

// --- Packets from the network (svia_arrivals.cpp) ---------------------------

// A packet the receive DMA has finished and the firmware has yet to deliver.
struct Arrival {
  const via::ReceiveBuffer* buffer;
  uint32_t payload_bytes; // header and data as received, before truncation
  uint32_t source;        // sending node as the network reports it
  uint32_t damage;        // LANAI_NRDMA_STATUS_BAD_CRC / _TRUNCATED bits
};

void start_receiving();
// Takes a finished packet off the receive DMA if a spare buffer can replace
// it. Cheap enough to call from every busy-wait.
void poll_arrivals();
// The packet to deliver next, or null.
const Arrival* pending_arrival();
// The pending packet has been dealt with: its buffer is free again.
void release_arrival();

// --- Waiting on devices (svia_transfers.cpp) --------------------------------

// Queues a host DMA; false (and counted) if the engine refused it.
bool start_host_dma(const via::HdmaRequest& request, uint32_t& id);
// Waits for a queued host DMA; returns LANAI_HDMA_OK or a LANAI_HDMA_PROT_* code.
// A `long_wait` (a data transfer) also files doorbells meanwhile.
uint32_t finish_host_dma(uint32_t id, bool long_wait);
// Both: one transfer, start to finish; via::kHdmaRefused if never queued.
uint32_t host_dma(const via::HdmaRequest& request);
// Starts sending a framed packet: 0, or VIP_STATUS_* error bits if it
// never will be; finish_packet() then waits until it has left.
uint32_t start_packet(const via::OutgoingPacket& packet);
void finish_packet();
// Queues the write of a descriptor's completion to host memory; its
// outcome is collected by a later wait (or collect_completions()).
void complete_descriptor(uint32_t vi, const via::PostedDescriptor& posted, uint32_t immediate,
                         uint32_t length, uint32_t status);
// complete_descriptor() in two steps: the completion words are staged
// first (while a packet leaves, say), and written once it has.
void prepare_completion(uint32_t immediate, uint32_t length, uint32_t status);
void write_completion(uint32_t vi, const via::PostedDescriptor& posted);
// Brings a posted descriptor from host memory and decodes it; false (and
// reported) if the host DMA could not read it.
bool fetch_descriptor(uint32_t vi, const via::PostedDescriptor& posted,
                      via::Descriptor& descriptor);
// The same in two steps: the read queued (its id, 0 if refused), then
// waited for and decoded.
uint32_t start_descriptor_fetch(uint32_t vi, const via::PostedDescriptor& posted);
bool finish_descriptor_fetch(uint32_t id, uint32_t vi, via::Descriptor& descriptor);
// A descriptor that cannot be read (or written back) cannot carry an error
// status: the host hears of it by interrupt instead.
void report_unreachable_descriptor(uint32_t vi);
// Takes the queued completion write's outcome, if it is done, and starts
// a waiting acknowledgement if the network send DMA is idle.
void collect_completions();

// --- Reliable Reception (svia_answers.cpp) -----------------------------------

// A send's completion that cannot be written yet: on a Reliable Reception
// VI it waits for the receiving card's acknowledgement (`waits`), and a
// send behind one that waits keeps its place. `status` is its completion
// status so far, `sequence` its packet's number.
struct HeldCompletion {
  via::PostedDescriptor posted;
  uint32_t immediate;
  uint32_t length;
  uint32_t status;
  uint32_t sequence;
  bool waits;
};
void start_answers();
// What the main loop and the send engine read in place: each VI's first
// held completion (+1; 0: none), the room left to hold completions, and
// the acknowledgements queued (free-running positions).
extern uint8_t held_first[VIA_MAX_VI];
extern uint32_t held_free; // kHeldCompletions while none is held
constexpr uint32_t kHeldCompletions = 16u;
extern uint32_t acks_head;
extern uint32_t acks_tail;
extern uint32_t acks_queued; // acks_tail - acks_head, read in one load
constexpr uint32_t kAcksQueued = 16u;
// True while `vi` has completions held: a later send's waits behind them.
inline bool completions_held(uint32_t vi) { return held_first[vi] != 0u; }
// Room to hold a completion: the main loop starts a send only then (and
// chooses the next ahead of time only with room for two).
inline uint32_t held_room() { return held_free; }
void hold_completion(uint32_t vi, const HeldCompletion& held);
// An acknowledgement arrived: the completions it settles are written, in
// their VI's order.
void ack_arrived(const via_packet_header& ack);
// Takes the packet waiting for delivery if it is an acknowledgement that
// settles no held completion (that needs no host DMA), while the send of
// message `sequence` of `vi` gathers its data.
void take_acknowledgement(uint32_t vi, uint32_t sequence);
// The same, anywhere the host DMA is not being waited for; true if it did.
bool take_waiting_ack();
// Queues an acknowledgement (needs ack_room()); send_next_ack() starts the
// oldest when the network send DMA is idle.
void send_ack(const via::Ack& ack);
inline bool ack_room() { return acks_queued < kAcksQueued; }
// Queues a credit of flow control (common/flow_control.h), or merges it
// into its VI's credit not yet sent; false if there is no room.
bool send_credit(const via::Ack& ack);
inline bool acks_waiting() { return acks_queued != 0u; }
void send_next_ack();

// --- The send window (svia_send_window.cpp, svia_retransmit.cpp) ----------

// A reliable VI's packets stay in the window's SRAM until acknowledged, and
// are sent again, oldest first, when the oldest has waited the profile's
// retransmission timeout. The next message is gathered at window_at
// (kNoBuffer: no room until acknowledgements come).
VIA_LARGE_DATA extern uint8_t window_ring[];
extern uint32_t window_at;
inline via::SendBuffer& send_buffer() {
  return *reinterpret_cast<via::SendBuffer*>(window_ring + window_at);
}
void start_window();
// Room to start a send: a completion to hold and room in the window.
inline bool send_room() { return held_free != 0u && window_at != kNoBuffer; }
// VIA_PACKET_F_ACK_NOW for the next reliable packet if the window is half
// full and no packet has asked for an acknowledgement since the last
// came; else 0. Set while the next should ask, until one does; and while
// one has, until an acknowledgement comes.
extern bool ack_wanted;
extern bool ack_asked;
inline uint32_t ack_now_mark() {
  if (!ack_wanted)
    return 0u;
  ack_wanted = false;
  ack_asked = true;
  return VIA_PACKET_F_ACK_NOW;
}
// The reliable packet framed at window_at, message `sequence` of VI `vi`
// in its `epoch`, is leaving: it is kept, and the next message goes behind
// it.
void keep_sent(uint32_t vi, uint32_t epoch, uint32_t sequence, const via::OutgoingPacket& framed);
// An acknowledgement for `vi` from its peer: the VI's kept packets
// numbered up to `sequence` (`exact`: that one alone) are let go; true if
// any was.
bool settle_sent(uint32_t vi, uint32_t sequence, bool exact);
// Finds the VIs whose oldest kept packet has waited too long: each goes
// back to resend them (or breaks past the retry limit); lets go of packets
// of VIs the host has flushed since.
void check_retransmissions();
// While a VI goes back: resend_next() sends its next kept packet if the
// network send DMA is idle, without waiting for it to leave.
extern bool resending_;
inline bool resending() { return resending_; }
void resend_next();
// The VI's peer reported a gap (VIA_ACK_F_GAP): it goes back at once, if
// no VI is going back already (the timeout then sees to it).
void go_back_now(uint32_t vi);
// The VI broke: its sends waiting for an answer complete with `errors`.
void fail_held(uint32_t vi, uint32_t errors);

// --- Deadlines (svia_deadlines.cpp) -----------------------------------------

uint32_t cycle_now();
enum class Deadline : uint8_t { retransmit, ack };
// The countdown timer fires at LANai cycle `cycle` for `which` (or earlier,
// for the other), until cleared.
void set_deadline(Deadline which, uint32_t cycle);
void clear_deadline(Deadline which);
// The timer fired (LANAI_EV_TIMER): retransmissions and delayed
// acknowledgements that are due go, and the timer is armed again for the
// next.
void deadline_reached();
// Flow control's timer (common/flow_control.h): its deadline, no later
// than `cycle`.
void wake_timer_by(uint32_t cycle);

// --- Reliable Delivery's acknowledgements (svia_delayed_acks.cpp) ----------

// A Reliable Delivery message was taken: its acknowledgement waits until the
// sender asks for one (VIA_PACKET_F_ACK_NOW: its window is filling), or the
// first message waiting has waited a quarter of the retransmission timeout, and
// then goes as one cumulative acknowledgement per VI (send_ack). Without
// faults a ping-pong or a light stream pays for an acknowledgement about
// once per quarter timeout, a stream once per half window.
void delay_ack(uint32_t vi, const via_packet_header& header);
// The VI's waiting acknowledgement is answered otherwise (a duplicate's
// acknowledgement covers it).
void settle_delayed(uint32_t vi);
// Queues the acknowledgements that have waited long enough.
void send_delayed_acks();

// --- The two engines --------------------------------------------------------

// svia_send.cpp: fetch, check, gather, send, complete one send descriptor.
// With `fetch_id`, the descriptor's fetch is queued already.
void send_message(uint32_t vi, const via::PostedDescriptor& posted, uint32_t fetch_id = 0u);
// svia_recv.cpp: check, match, fetch a receive descriptor, scatter, complete.
// False if the packet must wait: its acknowledgement finds no room yet.
bool deliver_arrival(const Arrival& arrival);
// The acknowledgement a Reliable Reception sender asked for (if it did) of
// the message `header` starts, settled here with `errors`.
void send_acknowledgement(const via_packet_header& header, uint32_t errors);
[[gnu::always_inline]] inline void acknowledge(const via_packet_header& header, uint32_t errors) {
  if ((header.flags & VIA_PACKET_F_ACK_WANTED) != 0u)
    send_acknowledgement(header, errors);
}
// svia_rdma_write.cpp: a peer's RDMA write to `vi`, checked and placed.
void deliver_rdma_write(uint32_t vi, const via::ReceiveBuffer& packet);

// --- What the main loop reads in place (svia_main.cpp) ---------------------
// So that a pass of the main loop with nothing to do calls nothing.

// svia_queues.cpp: the VIs with sends waiting, in round-robin order, and
// whether the next send is chosen already.
extern via::ReadyList ready_to_send;
extern bool next_chosen;
// svia_send.cpp: the fetch of the chosen send's descriptor, if queued (0: not).
extern uint32_t next_fetch;
// svia_arrivals.cpp: the buffer the receive DMA fills, and the one holding
// the packet to deliver next (kNoBuffer if none).
extern uint32_t receive_dma_armed;
extern uint32_t arrival_filled;

} // namespace svia
