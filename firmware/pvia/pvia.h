// PVIA, the event-driven VIA firmware: every message is a small record with
// a named state, and the main loop visits each device in turn (doorbells,
// host DMA completions, network send, network receive), advancing whichever
// message an event concerns to its next stage without waiting for any.
#pragma once

#include <stdint.h>

#include <lanai/register_map.h>

#include "common/ack_packet.h"
#include "common/descriptor.h"
#include "common/devices.h"
#include "common/packet.h"
#include "common/ready_list.h"
#include "common/regulator.h"
#include "common/scheduler.h"
#include "common/vi_set.h"

namespace pvia {

// This card's node number, read from the hardware once at start-up.
extern uint32_t this_node;

// The cycle counter's low word: what deadlines and departures are timed by.
inline uint32_t now() { return lanai_mmio_read(LANAI_REG_CYCLE_LO); }

// --- Work posted by the host (pvia_doorbells.cpp) ---------------------------

void start_doorbells();
// Moves every waiting doorbell into its VI's send or receive ring; a
// receive doorbell wakes the receive engine (receive_posted).
void drain_doorbells(uint32_t events);
// A posted send as the send engine takes it: where its descriptor is, its
// stamp, and a card-wide number in posting order.
struct SendWork {
  via::PostedDescriptor posted;
  via::Stamping stamping;
  uint32_t serial;
  // Under a stamp-ordering scheduler: its VI reserved no rate, read once
  // when the send was chosen, for both the choice and the record's class.
  bool best_effort;
};
// The next send: in round-robin order over the VIs that have one waiting,
// or, under a stamp-ordering scheduler, the waiting send the scheduler
// serves first (stamped with the time its doorbell reached the card; ties
// in doorbell order; sends stamped last, in round-robin order over their
// VIs, once no other waits). False if none waits, or if the first is best
// effort (under a stamp-ordering scheduler: reserved no rate) and
// `best_effort_allowed` is false, or is not and `others_allowed` is false.
bool next_send(uint32_t& vi, SendWork& work, bool best_effort_allowed, bool others_allowed);
// Queues a peer's RDMA read (job `job` of pvia_rdma_read.cpp) on `vi` like
// a send posted at cycle `arrived` asking for `bytes`; false if the VI's
// send ring is full.
bool post_read_job(uint32_t vi, uint32_t job, uint64_t arrived, uint32_t bytes);
// The oldest receive posted on `vi` not yet taken by the receive engine.
bool next_receive(uint32_t vi, via::PostedDescriptor& posted);
// True if `vi` has receives posted that the receive engine has not taken.
bool receives_waiting(uint32_t vi);

// --- Host DMA (pvia_host_dma.cpp) -------------------------------------------

// Which engine record a host DMA request belongs to; its completion is
// handed back to that engine.
enum class Engine : uint8_t { send, receive };
struct HdmaOwner {
  Engine engine;
  uint8_t record;
};

void start_host_dma();
// Queues a request in the hardware queue (at the tail, or under a
// stamp-ordering scheduler behind every request with a stamp no larger),
// or keeps it in a software overflow list while the queue is full. False
// (and counted) if it can never be queued; the owner then hears nothing of it.
// The request keeps the trace label in force when it was submitted.
bool submit_host_dma(const via::HdmaRequest& request, HdmaOwner owner, via::Stamp stamp);
// Takes a finished request off the completion FIFO, if there is one, and
// hands it to its owner; retries the overflow list. True if a request was
// taken.
bool poll_host_dma();

// --- Network send DMA (pvia_network_send.cpp) -------------------------------

// A packet is the send engine's number for one fragment slot of a record,
// or from kAckPacketBase on an acknowledgement's (which the send engine's
// packet events hand on to pvia_acks.cpp).
void start_network_send();
// Queues a framed-to-be packet behind the others (behind those with a
// stamp no larger, under a stamp-ordering scheduler).
void queue_packet(uint32_t packet, via::Stamp stamp);
#if VIA_REGULATED
// The same, for a packet that may not start before cycle `release` (0: at
// once; common/regulator.h).
void queue_held_packet(uint32_t packet, via::Stamp stamp, uint64_t release);
#endif
// The packet in flight has left (the caller saw the engine idle), or none
// was in flight: starts the next queued one.
void poll_network_send();

// --- Network receive DMA (pvia_arrivals.cpp) --------------------------------

// A packet the receive DMA has finished, held in one of the receive buffers.
struct Arrival {
  const via::ReceiveBuffer* buffer;
  uint32_t index;         // which receive buffer
  uint32_t payload_bytes; // header and data as received, before truncation
  uint32_t source;        // sending node as the network reports it
  uint32_t damage;        // LANAI_NRDMA_STATUS_BAD_CRC / _TRUNCATED bits
  uint64_t arrived_at;    // LANai cycle its tail reached the card
};

void start_receiving();
// Takes a finished packet off the receive DMA, re-arms it with a free
// buffer, and offers the oldest waiting packet to the receive engine.
void poll_arrivals();
// The receive engine is done with a buffer's contents: it may be re-armed.
void release_arrival(uint32_t index);

// --- Completions (pvia_completion.cpp) --------------------------------------

// Queues the write-back of a descriptor's completion words from `staging`;
// false (and reported) if the write cannot be queued.
bool write_completion(uint32_t vi, const via::PostedDescriptor& posted, via::Completion& staging,
                      uint32_t immediate, uint32_t length, uint32_t status, HdmaOwner owner,
                      via::Stamp stamp);
// Queues the fetch of a posted descriptor into `copy`; false (and reported)
// if it cannot be queued.
bool fetch_descriptor(uint32_t vi, const via::PostedDescriptor& posted, via::DescriptorCopy& copy,
                      HdmaOwner owner, via::Stamp stamp);
// A descriptor that cannot be read (or written back) cannot carry an error
// status: the host hears of it by interrupt instead.
void report_unreachable_descriptor(uint32_t vi);

// --- The send engine (pvia_send.cpp) ----------------------------------------

void start_send_engine();
// Takes the next send from the VIs' rings if a record is free; true if one
// was taken.
bool start_sends();
// Gives a free send buffer to the send waiting for one that the scheduler
// serves first, and starts the gather of its next fragment: for when
// send_wanting is not empty, fewer than kGathersAhead gathers are under way
// and a buffer is free.
void start_gather();
// Events from the devices.
void send_host_dma_done(uint32_t record, uint32_t outcome);
// The packet is at the head of the network send queue: frames it (and
// labels the send in traces), or false if it has none to send (its send
// failed earlier).
bool send_packet_ready(uint32_t packet, via::OutgoingPacket& framed);
// A packet that had nothing to send left the head of the queue, behind
// every earlier packet of its VI.
void send_packet_skipped(uint32_t packet);
// The network send DMA answered the start: 0 (the packet is leaving) or
// VIP_STATUS_* error bits (it never will).
void send_packet_started(uint32_t packet, uint32_t errors);
void send_packet_left(uint32_t packet);

// --- Answers from the peer (pvia_send_answer.cpp) ----------------------------

// An acknowledgement (VIA_PACKET_ACK) arrived: the sends it settles
// complete, in their VI's order.
void ack_arrived(const via_packet_header& ack);
// The send record waiting for the data of `vi`'s RDMA read numbered
// `sequence` from `peer` ((node << 16) | VI), or kNoReader.
constexpr uint32_t kNoReader = 0xFFu;
uint32_t rdma_reader(uint32_t vi, uint32_t peer, uint32_t sequence);
// The read's descriptor: where its data goes.
const via::Descriptor& rdma_read_descriptor(uint32_t record);
// The data of the read numbered `sequence` is in place (or failed with
// `errors`): the read completes in its VI's order.
void rdma_read_done(uint32_t record, uint32_t sequence, uint32_t errors);

// --- Retransmission (pvia_resend.cpp) ---------------------------------------

// The packet number of the message the resend lane sends again, among the
// acknowledgements' (it is never one of theirs), whose packet events
// (pvia_acks.cpp) hand it on.
constexpr uint32_t kResendPacket = 0xFEu;
// The resend lane's packet is at the head of the network send queue (it
// goes even if its acknowledgement came meanwhile: the receiver drops it).
void resend_packet_ready(via::OutgoingPacket& framed);
// The packet left, or the network send DMA refused it.
void resend_packet_left();
// The countdown timer fired (LANAI_EV_TIMER): sends past their timeout go
// again, or their VI breaks.
void resend_timer();
// Brings the countdown timer round no later than `cycle` (low word of the
// cycle counter), for a timer of another part (credit requests); the
// retransmission timer shares it.
void wake_timer_by(uint32_t cycle);
// An acknowledgement of `vi`'s messages up to `acked` answered some, or
// (`gap`) says its receiver dropped one past a gap: the VI goes back at
// once, unless the message the receiver waits for went again already.
void resend_answered(uint32_t vi, bool gap, uint32_t acked);

// --- Acknowledgements sent (pvia_acks.cpp) ----------------------------------

// Packet numbers from here on are acknowledgements in the network send
// queue; below, the send engine's fragment slots.
constexpr uint32_t kAckPacketBase = 0x80u;
void start_acks();
// Queues an acknowledgement for the network, stamped `stamp`, or merges it
// into one for the same VI not yet sent; false if neither can be done now
// (no acknowledgement buffer is free).
bool send_ack(const via::Ack& ack, via::Stamp stamp);
// The acknowledgement is at the head of the network send queue.
void ack_packet_ready(uint32_t packet, via::OutgoingPacket& framed);
void ack_packet_left(uint32_t packet);

// --- RDMA reads served (pvia_rdma_read.cpp) ---------------------------------

// A peer's RDMA read request arrived on `vi`: queued on the VI like a send
// (pvia_doorbells.cpp) for the send engine, or refused; false if it must
// wait (no room for it now).
bool take_read_request(uint32_t vi, const Arrival& arrival);

// --- The receive engine (pvia_recv.cpp) -------------------------------------

void start_receive_engine();
// A receive doorbell rang for `vi`: its descriptors are to be fetched
// ahead of the data.
void receive_posted(uint32_t vi);
// Fetches one posted receive's descriptor ahead of its data.
void refill_receives();
// A packet arrived; false if it must wait for a free record (the arrival
// stays in its buffer and is offered again).
bool receive_arrival(const Arrival& arrival);
void receive_host_dma_done(uint32_t record, uint32_t outcome);
// How much of the data of the read the send record `reader` waits for has
// come, while it is coming (kNoReadData otherwise).
constexpr uint32_t kNoReadData = 0xFFFFFFFFu;
uint32_t read_data_taken(uint32_t reader);
// An acknowledgement buffer is free again: a completion that waited for
// one goes on.
void ack_buffer_freed();
// Sends the Reliable Delivery acknowledgements owed long enough
// (pvia_recv_owed_acks.cpp); true if some are still owed, the next due at
// cycle `due`.
bool send_owed_acks(uint32_t& due);

// --- What the main loop reads in place (pvia_main.cpp) ---------------------
// Each part's own record of the work it has beyond what the event-status
// word shows, so that a pass of the main loop with nothing to do calls
// nothing.

constexpr uint32_t kNoPacket = 0xFFFFFFFFu;
constexpr uint32_t kUnarmed = 0xFFFFFFFFu;
// pvia_doorbells.cpp: the VIs with sends waiting for a record that take
// turns (every VI under PVIA; under a stamp-ordering scheduler, those whose
// sends are stamped last), and the other VIs with sends in their rings.
extern via::ReadyList ready_to_send;
extern via::ViSet sends_waiting;
// pvia_host_dma.cpp: requests waiting for room in the hardware queue.
extern uint32_t hdma_overflow_head;
extern uint32_t hdma_overflow_tail;
// pvia_network_send.cpp: the packets queued for the network send DMA, and
// the one it is sending (kNoPacket if none).
extern uint32_t nsdma_queue_head;
extern uint32_t nsdma_queue_tail;
extern uint32_t nsdma_in_flight;
// pvia_arrivals.cpp: the buffer the receive DMA fills (kUnarmed if none),
// and the filled buffers waiting for the receive engine.
extern uint32_t receive_dma_armed;
extern uint32_t arrivals_head;
extern uint32_t arrivals_tail;
// pvia_recv.cpp: the VIs with receives posted but not yet fetched.
extern via::ViSet receive_backlog;
// pvia_send.cpp: the sends that would gather their next fragment given a
// buffer (one bit per record), and the fragments being gathered. At most
// kGathersAhead are: one in the host DMA's hands and the next queued behind
// it. More would commit buffers, and the host DMA's order, to sends chosen
// long before the engine gets to them; the scheduler chooses each next
// gather as the previous one starts.
extern uint32_t send_wanting;
extern uint32_t send_gathers;
constexpr uint32_t kGathersAhead = 2u;

} // namespace pvia
