// The card's devices as VIA firmware drives them through the register map:
// system registers, doorbell queues, the host DMA request queue, and the
// network send and receive DMA. Split-phase wrappers: starting an operation
// answers at once, its completion is observed later by polling.
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include <lanai/register_map.h>
#include <lanai/via_abi.h>

namespace via {

// The DMA engines read and write SRAM behind the compiler's back. A fence
// keeps buffer stores ahead of the register write that starts a transfer,
// and buffer loads behind the register read that shows it finished.
inline void dma_fence() { asm volatile("" ::: "memory"); }

// The element at `p`, through a pointer the optimiser cannot trace back to
// its array. The LANai backend otherwise folds the array's address and each
// field's offset into a constant it builds afresh (two instructions) for
// every field accessed; through this pointer each access is one load or
// store off a base register.
template <class T>
inline T& in_register(T* p) {
  asm("" : "+r"(p));
  return *p;
}

// Device registers take SRAM addresses as plain words.
inline uint32_t sram_address(const volatile void* p) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p));
}

// Called while busy-waiting on a device, so that the waiting firmware can
// keep other devices moving.
using PollHook = void (*)();

// --- System ---------------------------------------------------------------

inline uint32_t event_status() { return lanai_mmio_read(LANAI_REG_EVENT_STATUS); }
inline uint32_t node_id() { return lanai_mmio_read(LANAI_REG_NODE_ID); }
inline void raise_host_interrupt(uint32_t word) {
  lanai_mmio_write(LANAI_REG_HOST_INTERRUPT, word);
}

// --- Doorbells ------------------------------------------------------------

// One rung doorbell: which VI queue, and where the posted descriptor lives.
struct Doorbell {
  uint32_t vi;
  bool receive;
  uint32_t epoch; // the VI's epoch when the host posted the descriptor
  uint32_t address_lo;
  uint32_t address_hi;
  uint32_t handle;
  uint64_t posted_at; // LANai cycle at which the host's write reached the queue (if read)
};

inline bool doorbells_per_vi() { return lanai_mmio_read(LANAI_REG_DB_MODE) == 1u; }
// In per-VI mode, makes DB_STATUS and DB_POP refer to this VI's queue.
inline void doorbell_select(uint32_t vi) { lanai_mmio_write(LANAI_REG_DB_SELECT, vi); }
inline uint32_t doorbell_status() { return lanai_mmio_read(LANAI_REG_DB_STATUS); }
inline void doorbell_clear_overflow() {
  lanai_mmio_write(LANAI_REG_DB_STATUS, LANAI_DB_STATUS_OVERFLOW);
}
// Reads the doorbell the queue's latch holds: the one popped last. The
// time it reached the card is read only if `timed`.
inline void read_latched_doorbell(Doorbell& out, bool timed) {
  const uint32_t queue = lanai_mmio_read(LANAI_REG_DB_ENTRY_VI);
  out.vi = queue & LANAI_DB_ENTRY_VI_MASK;
  out.receive = (queue & LANAI_DB_ENTRY_RECV) != 0u;
  out.epoch = VIA_DOORBELL_EPOCH(queue);
  out.address_lo = lanai_mmio_read(LANAI_REG_DB_ENTRY_ADDR_LO);
  out.address_hi = lanai_mmio_read(LANAI_REG_DB_ENTRY_ADDR_HI);
  out.handle = lanai_mmio_read(LANAI_REG_DB_ENTRY_HANDLE);
  if (timed) {
    const uint32_t lo = lanai_mmio_read(LANAI_REG_DB_ENTRY_TIME_LO);
    out.posted_at = static_cast<uint64_t>(lanai_mmio_read(LANAI_REG_DB_ENTRY_TIME_HI)) << 32 | lo;
  }
}
// Takes the head of the (selected) queue into `out`; false if it was empty.
inline bool doorbell_pop(Doorbell& out, bool timed) {
  if (lanai_mmio_read(LANAI_REG_DB_POP) == 0u)
    return false;
  read_latched_doorbell(out, timed);
  return true;
}

// --- Host DMA -------------------------------------------------------------

enum class HdmaDirection : uint32_t {
  to_sram = LANAI_HDMA_TO_SRAM,
  to_host = LANAI_HDMA_TO_HOST,
  to_sram_remote = LANAI_HDMA_TO_SRAM_REMOTE, // an RDMA read on a peer's behalf
  to_host_remote = LANAI_HDMA_TO_HOST_REMOTE, // an RDMA write on a peer's behalf
};

struct HdmaRequest {
  uint64_t host;   // host virtual address
  uint32_t handle; // memory handle the address belongs to
  uint32_t ptag;   // protection tag the region must carry
  uint32_t sram;   // SRAM address
  uint32_t length; // bytes
  HdmaDirection direction;
};

// The queue's answer to a submission: the request id, or why it was refused
// (a LANAI_HDMA_REFUSED_* code).
struct HdmaTicket {
  bool accepted;
  uint32_t id;
  uint32_t refusal;
};

// Outcome of a transfer that never reached the engine; LANAI_HDMA_OK and
// the LANAI_HDMA_PROT_* codes are the engine's own outcomes.
constexpr uint32_t kHdmaRefused = 0x100u;

// Writes a request's six staging registers (the queue takes it on the
// APPEND or INSERT write that follows).
inline void hdma_stage(const HdmaRequest& request) {
  dma_fence();
  lanai_mmio_write(LANAI_REG_HDMA_HOST_LO, static_cast<uint32_t>(request.host));
  lanai_mmio_write(LANAI_REG_HDMA_HOST_HI, static_cast<uint32_t>(request.host >> 32));
  lanai_mmio_write(LANAI_REG_HDMA_HANDLE, request.handle);
  lanai_mmio_write(LANAI_REG_HDMA_PTAG, request.ptag);
  lanai_mmio_write(LANAI_REG_HDMA_SRAM, request.sram);
  lanai_mmio_write(LANAI_REG_HDMA_LENGTH, request.length);
}
// The ticket an HDMA_RESULT word stands for.
inline HdmaTicket hdma_ticket(uint32_t result) {
  if ((result & LANAI_HDMA_ACCEPTED) != 0u)
    return {true, result & LANAI_HDMA_ID_MASK, 0u};
  return {false, 0u, result};
}
// Stages a request and appends it to the queue.
inline HdmaTicket hdma_submit(const HdmaRequest& request) {
  hdma_stage(request);
  lanai_mmio_write(LANAI_REG_HDMA_APPEND, static_cast<uint32_t>(request.direction));
  return hdma_ticket(lanai_mmio_read(LANAI_REG_HDMA_RESULT));
}
// Stages a request and inserts it at `position` of the queue, counted from
// the oldest request whose completion has not been popped (0: ahead of all
// of them). The ticket's `position` says where it landed, counted the same
// way: never ahead of a request completed or in service, nor inside the
// waiting entries the engine may already have taken.
struct HdmaPlacement {
  HdmaTicket ticket;
  uint32_t position;
};
inline HdmaPlacement hdma_insert(const HdmaRequest& request, uint32_t position) {
  hdma_stage(request);
  lanai_mmio_write(LANAI_REG_HDMA_INSERT, position << LANAI_HDMA_POSITION_SHIFT |
                                              static_cast<uint32_t>(request.direction));
  const uint32_t result = lanai_mmio_read(LANAI_REG_HDMA_RESULT);
  if ((result & LANAI_HDMA_ACCEPTED) != 0u)
    return {{true, result & LANAI_HDMA_ID_MASK, 0u}, LANAI_HDMA_POSITION(result)};
  return {{false, 0u, result}, 0u};
}
// Requests in the queue, the one in service included.
inline uint32_t hdma_queued() { return lanai_mmio_read(LANAI_REG_HDMA_QUEUED); }
// One completion word (LANAI_HDMA_DONE_VALID set) or 0 if none waits.
inline uint32_t hdma_pop_done() { return lanai_mmio_read(LANAI_REG_HDMA_DONE_POP); }
// Busy-waits for request `id`, calling `while_waiting` between polls, and
// returns its outcome.
uint32_t hdma_wait_for(uint32_t id, PollHook while_waiting);

// --- Network send DMA -----------------------------------------------------

// Starts sending `length` bytes at `sram`, of which the first `route_len`
// are the source route; returns a LANAI_NSDMA_* answer.
inline uint32_t nsdma_start(uint32_t sram, uint32_t length, uint32_t route_len) {
  dma_fence();
  lanai_mmio_write(LANAI_REG_NSDMA_SRAM, sram);
  lanai_mmio_write(LANAI_REG_NSDMA_LENGTH, length);
  lanai_mmio_write(LANAI_REG_NSDMA_ROUTE_LEN, route_len);
  lanai_mmio_write(LANAI_REG_NSDMA_START, 1u);
  return lanai_mmio_read(LANAI_REG_NSDMA_RESULT);
}
inline bool nsdma_busy() {
  return (lanai_mmio_read(LANAI_REG_NSDMA_STATUS) & LANAI_NSDMA_STATUS_BUSY) != 0u;
}

// --- Network receive DMA --------------------------------------------------

// Arms the receiver with a buffer; returns a LANAI_NRDMA_* answer.
inline uint32_t nrdma_arm(uint32_t sram, uint32_t capacity) {
  dma_fence();
  lanai_mmio_write(LANAI_REG_NRDMA_SRAM, sram);
  lanai_mmio_write(LANAI_REG_NRDMA_CAPACITY, capacity);
  lanai_mmio_write(LANAI_REG_NRDMA_ARM, 1u);
  return lanai_mmio_read(LANAI_REG_NRDMA_RESULT);
}
// LANAI_NRDMA_STATUS_* bits. Once DONE shows, the packet's bytes are in SRAM.
inline uint32_t nrdma_status() {
  const uint32_t status = lanai_mmio_read(LANAI_REG_NRDMA_STATUS);
  dma_fence();
  return status;
}
// Payload length (before truncation) and sender of the packet in the buffer.
inline uint32_t nrdma_length() { return lanai_mmio_read(LANAI_REG_NRDMA_LENGTH); }
inline uint32_t nrdma_source() { return lanai_mmio_read(LANAI_REG_NRDMA_SOURCE); }
// The LANai cycle at which the packet in the buffer reached the card.
inline uint64_t nrdma_arrived_at() {
  const uint32_t lo = lanai_mmio_read(LANAI_REG_NRDMA_TIME_LO);
  return static_cast<uint64_t>(lanai_mmio_read(LANAI_REG_NRDMA_TIME_HI)) << 32 | lo;
}
// Hands the received packet over to the firmware; the receiver can be armed again.
inline void nrdma_acknowledge() {
  lanai_mmio_write(LANAI_REG_NRDMA_STATUS, LANAI_NRDMA_STATUS_DONE);
}

// --- Trace marks -----------------------------------------------------------

// The emulator's instrumentation port: each mark is one store, costs what
// an SRAM store costs and changes nothing on the card. A step of work
// writes its state, then its label, and ends with trace_state(nullptr)
// when the core goes back to polling, so each LANai span keeps the label
// of the work it covered.

// One store with the port's address in the instruction itself (the top of
// the address space is within reach of the absolute form), so a mark never
// takes a register for the address nor changes how the code around it is
// allocated.
template <uint32_t kRegister>
inline void trace_port_write(uint32_t word) {
  static_assert((kRegister | 0x001FFFFFu) == 0xFFFFFFFFu, "reachable by an absolute store");
  asm volatile("st %0, [%1]" ::"r"(word), "i"(kRegister & 0x001FFFFFu));
}

// Message number of work whose message is not known yet.
constexpr uint32_t kTraceNoMessage = 0xFFFFu;

// The label of work on message `message` (its low 16 bits) of VI `vi`.
constexpr uint32_t trace_label(uint32_t vi, uint32_t message) {
  return vi << 16 | (message & 0xFFFFu);
}
// Labels the host DMA requests and network sends started from now on.
inline void trace_tag(uint32_t label) { trace_port_write<LANAI_REG_TRACE_TAG>(label); }
inline void trace_tag(uint32_t vi, uint32_t message) { trace_tag(trace_label(vi, message)); }
// The label in force: a request that waits in software before reaching
// the device keeps the label it was made under.
inline uint32_t trace_tag() { return lanai_mmio_read(LANAI_REG_TRACE_TAG); }

// The core starts working in the state called `name` ("engine:state", in
// SRAM); null: back to polling.
inline void trace_state(const char* name) {
  trace_port_write<LANAI_REG_TRACE_STATE>(sram_address(name));
}

// The core busy-waits on a device, in its state, until trace_working():
// waiting is not work.
inline void trace_waiting() { trace_port_write<LANAI_REG_TRACE_WAIT>(1u); }
inline void trace_working() { trace_port_write<LANAI_REG_TRACE_WAIT>(0u); }

// The scheduler stamp the device operations started next carry in traces.
inline void trace_stamp(uint64_t stamp) {
  trace_port_write<LANAI_REG_TRACE_STAMP_LO>(static_cast<uint32_t>(stamp));
  trace_port_write<LANAI_REG_TRACE_STAMP_HI>(static_cast<uint32_t>(stamp >> 32));
}

} // namespace via

// Completions popped while waiting for another request: none are expected
// by firmware that waits for each request in turn.
extern "C" volatile uint32_t via_hdma_stray_completions;
