// The reference firmware of the queueing-network twin: the NIC send path of
// the published model executed on the LANai. The core polls its doorbell,
// descriptor and data queues cyclically, one job per visit and FCFS within
// a queue (or, pooled, serves one FCFS queue of all its work); each job
// takes the model's service time for its class on the core's clock, then
// hands the message to the next device: the host DMA fetches the
// descriptor, then the data; the network send DMA, which has no waiting
// room, sends it, and it leaves (the bench sends the card's port into a
// sink).
#include <lanai/queue_twin_abi.h>

#include "common/devices.h"
#include "common/sram_placement.h"
#include "job_fifo.h"

extern "C" {
// Written by the bench before the core starts.
VIA_ZEROED_AT_LOAD volatile twin_config_block twin_config{};
}

namespace twin {
namespace {

constexpr uint32_t kQueueJobs = 8192;
constexpr uint32_t kBufferBytes = 65536 + 64;

// The configuration as the bench left it, copied where one instruction
// reaches each word (the block itself lies in large data).
twin_config_block config;

// Jobs waiting for the LANai: per class (cyclic) or all together (pooled).
VIA_ZEROED_AT_LOAD uint32_t descriptor_slots[kQueueJobs]{};
VIA_ZEROED_AT_LOAD uint32_t data_slots[kQueueJobs]{};
VIA_ZEROED_AT_LOAD uint32_t pooled_slots[kQueueJobs]{};
VIA_ZEROED_AT_LOAD uint32_t host_dma_slots[kQueueJobs]{};
JobFifo<kQueueJobs> descriptor_queue{descriptor_slots, 0, 0};
JobFifo<kQueueJobs> data_queue{data_slots, 0, 0};
JobFifo<kQueueJobs> pooled_queue{pooled_slots, 0, 0};
// Host DMA requests in flight, in the engine's (FCFS) order: the job each
// one becomes when it completes.
JobFifo<kQueueJobs> host_dma_jobs{host_dma_slots, 0, 0};

// Descriptors land in one scratch area; data in one send buffer whose
// route byte sits just in front of it.
alignas(8) VIA_ZEROED_AT_LOAD uint8_t descriptor_area[256]{};
alignas(8) VIA_ZEROED_AT_LOAD uint8_t send_buffer[kBufferBytes]{};
constexpr uint32_t kDataOffset = 4;

const char kStateDoorbell[] = TWIN_STATE_DOORBELL;
const char kStateDescriptor[] = TWIN_STATE_DESCRIPTOR;
const char kStateData[] = TWIN_STATE_DATA;

uint32_t doorbells_taken;

[[noreturn]] void fail(uint32_t code) {
  twin_config.failure = code;
  lanai_mmio_write(LANAI_REG_EXIT, code);
  for (;;) {
  }
}

uint32_t cycle_now() { return lanai_mmio_read(LANAI_REG_CYCLE_LO); }

// How the core picks its next job: cyclically from three queues, from one
// pooled FCFS queue, or (the single-station form) doorbells alone. Each
// discipline's loop is one function with the work inlined into it, so the
// core keeps its constants in registers instead of saving and rebuilding
// them around every call: the spans the trace shows are then nearer the
// model's times, and the emulator has fewer instructions to execute.
enum class Discipline { cyclic, pooled, doorbells_only };

// One job's service: the state and label go up at its start, and the core
// is this job's until the class's cycles have passed since then. The work
// that hands the message on (programming a DMA engine) comes after the
// wait, so each class's wait is shortened by how far its spans overran so
// far (a feedback on the core's own clock): the spans of LANai work last
// the model's time, give or take the polling loop's grain.
//
// Polling is free in the model: a job that was already waiting when the
// core finished its previous one is timed from that moment, so the lap of
// the loop that brings the core to it counts as the job's service, not as
// extra time.
struct Work {
  uint32_t started;
};
int32_t overrun_cycles[3];
uint32_t free_since;      // cycle the last job ended
uint32_t waiting_at_free; // 1 << class for each class with work waiting then

// The clock is read before the state goes up and after it comes down, so
// what the firmware measures covers the whole span the trace shows.
[[gnu::always_inline]] inline Work begin_work(JobClass c, const char* state, uint32_t visit,
                                              uint32_t message) {
  const uint32_t now = cycle_now();
  const Work work{(waiting_at_free >> c & 1u) != 0u ? free_since : now};
  waiting_at_free = 0;
  via::trace_state(state);
  via::trace_tag(visit, message);
  return work;
}
// The rest of the wait runs on the countdown timer, not on the cycle
// counter: the loop then polls only the event word, and a core that polls
// only registers that change at events sleeps until one comes. (A wait on
// the cycle counter is fast-forwarded too, but found again after every
// event, and the card has many: docs/fast-forward.md.)
[[gnu::always_inline]] inline void wait_out(const Work& work, JobClass c, uint32_t cycles) {
  const int32_t wait = static_cast<int32_t>(cycles) - overrun_cycles[c];
  const int32_t left = wait - static_cast<int32_t>(cycle_now() - work.started);
  if (left <= 0)
    return;
  // Arming the timer clears its expiry bit, so the bit the last wait left
  // set needs no write of its own (nothing else here looks at it).
  lanai_mmio_write(LANAI_REG_TIMER, static_cast<uint32_t>(left));
  while ((via::event_status() & LANAI_EV_TIMER) == 0u) {
  }
}
template <Discipline d>
uint32_t waiting_classes();
template <Discipline d>
[[gnu::always_inline]] inline void end_work(const Work& work, JobClass c, uint32_t cycles) {
  via::trace_state(nullptr);
  free_since = cycle_now();
  overrun_cycles[c] +=
      static_cast<int32_t>(free_since - work.started) - static_cast<int32_t>(cycles);
  waiting_at_free = waiting_classes<d>();
}

[[gnu::always_inline]] inline void fetch(uint32_t visit, uint32_t message, uint64_t host,
                                         uint32_t handle, uint32_t sram, uint32_t length,
                                         JobClass becomes) {
  via::trace_tag(visit, message);
  const via::HdmaTicket ticket =
      via::hdma_submit({host, handle, config.ptag, sram, length, via::HdmaDirection::to_sram});
  if (!ticket.accepted)
    fail(TWIN_FAIL_HDMA_REFUSED);
  if (!host_dma_jobs.push(job(becomes, message)))
    fail(TWIN_FAIL_QUEUE_FULL);
}

// --- The three classes of LANai work ----------------------------------------

// Takes the head of the doorbell FIFO (the caller saw one waiting).
template <Discipline d>
[[gnu::always_inline]] inline void serve_doorbell(uint32_t message) {
  Work work = begin_work(kDoorbell, kStateDoorbell, TWIN_VISIT_LANAI_DOORBELL, message);
  via::Doorbell doorbell;
  (void)via::doorbell_pop(doorbell, false);
  wait_out(work, kDoorbell, config.doorbell_cycles);
  if (d != Discipline::doorbells_only) {
    const uint64_t host = static_cast<uint64_t>(doorbell.address_hi) << 32 | doorbell.address_lo;
    fetch(TWIN_VISIT_HDMA_DESCRIPTOR, message, host, doorbell.handle,
          via::sram_address(descriptor_area), config.descriptor_bytes, kDescriptor);
  }
  end_work<d>(work, kDoorbell, config.doorbell_cycles);
}

template <Discipline d>
[[gnu::always_inline]] inline void serve_descriptor(uint32_t message) {
  Work work = begin_work(kDescriptor, kStateDescriptor, TWIN_VISIT_LANAI_DESCRIPTOR, message);
  wait_out(work, kDescriptor, config.descriptor_cycles);
  const uint64_t host = static_cast<uint64_t>(config.data_host_hi) << 32 | config.data_host_lo;
  fetch(TWIN_VISIT_HDMA_DATA, message, host, config.handle,
        via::sram_address(send_buffer + kDataOffset), config.data_bytes, kData);
  end_work<d>(work, kDescriptor, config.descriptor_cycles);
}

template <Discipline d>
[[gnu::always_inline]] inline void serve_data(uint32_t message) {
  Work work = begin_work(kData, kStateData, TWIN_VISIT_LANAI_DATA, message);
  wait_out(work, kData, config.data_cycles);
  via::trace_tag(TWIN_VISIT_NSDMA, message);
  send_buffer[kDataOffset - 1] = static_cast<uint8_t>(config.route_byte);
  if (via::nsdma_start(via::sram_address(send_buffer + kDataOffset - 1), config.data_bytes + 1u,
                       1u) != LANAI_NSDMA_ACCEPTED)
    fail(TWIN_FAIL_SEND_REFUSED);
  end_work<d>(work, kData, config.data_cycles);
}

// --- Arrivals -----------------------------------------------------------------

bool doorbell_waiting() { return (via::event_status() & LANAI_EV_DOORBELL) != 0u; }
bool send_dma_idle() { return (via::event_status() & LANAI_EV_NSDMA_IDLE) != 0u; }

// Host DMA completions turn into LANai work of the next class.
[[gnu::always_inline]] inline void collect_host_dma(JobFifo<kQueueJobs>& descriptors,
                                                    JobFifo<kQueueJobs>& data) {
  if ((via::event_status() & LANAI_EV_HDMA_DONE) == 0u)
    return;
  for (uint32_t word = via::hdma_pop_done(); word != 0u; word = via::hdma_pop_done()) {
    if (LANAI_HDMA_DONE_STATUS(word) != LANAI_HDMA_OK)
      fail(TWIN_FAIL_DMA_STATUS);
    const uint32_t j = host_dma_jobs.pop();
    if (!(job_class(j) == kDescriptor ? descriptors : data).push(j))
      fail(TWIN_FAIL_QUEUE_FULL);
  }
}

// --- The three disciplines ----------------------------------------------------

// What each discipline would serve next without waiting, per class.
template <>
uint32_t waiting_classes<Discipline::cyclic>() {
  collect_host_dma(descriptor_queue, data_queue);
  const uint32_t events = via::event_status();
  uint32_t classes = 0;
  if ((events & LANAI_EV_DOORBELL) != 0u)
    classes |= 1u << kDoorbell;
  if (!descriptor_queue.empty())
    classes |= 1u << kDescriptor;
  if (!data_queue.empty() && (events & LANAI_EV_NSDMA_IDLE) != 0u)
    classes |= 1u << kData;
  return classes;
}
template <>
uint32_t waiting_classes<Discipline::doorbells_only>() {
  return doorbell_waiting() ? 1u << kDoorbell : 0u;
}

// Polls the event word until one of the `wanted` events is up. The loop
// reads only that word, so a lap of it is a few instructions and an idle
// core is fast-forwarded after two of them. Work that arrives at the idle
// core starts its service as the core sees it: polling is free in the
// model, so the steps that bring the core from here to the job count as
// the job's time, as they do for a job that was waiting when the previous
// one ended. A host DMA completion brings a descriptor or data job; data
// can be served only while the send DMA is idle.
[[gnu::always_inline]] inline void idle_until(uint32_t wanted) {
  uint32_t events;
  while (((events = via::event_status()) & wanted) == 0u) {
  }
  free_since = cycle_now();
  uint32_t classes = 0;
  if ((events & LANAI_EV_DOORBELL) != 0u)
    classes |= 1u << kDoorbell;
  if ((events & LANAI_EV_HDMA_DONE) != 0u)
    classes |= 1u << kDescriptor;
  if ((events & LANAI_EV_NSDMA_IDLE) != 0u)
    classes |= 1u << kData;
  waiting_at_free = classes;
}

// Until one of the events that bring work has happened: a doorbell, a host
// DMA completion, or the send DMA going idle while data waits for it.
[[gnu::always_inline]] inline void wait_for_work() {
  if (!descriptor_queue.empty())
    return;
  const uint32_t wanted = LANAI_EV_DOORBELL | LANAI_EV_HDMA_DONE |
                          (data_queue.empty() ? 0u : static_cast<uint32_t>(LANAI_EV_NSDMA_IDLE));
  if ((via::event_status() & wanted) == 0u)
    idle_until(wanted);
}

// Cyclic polling: doorbell queue (the hardware FIFO), descriptor queue,
// data queue, one job per visit. Data waits while the send DMA is busy.
[[noreturn]] void poll_cyclically() {
  constexpr Discipline d = Discipline::cyclic;
  for (;;) {
    wait_for_work();
    if ((via::event_status() & LANAI_EV_DOORBELL) != 0u)
      serve_doorbell<d>(doorbells_taken++);
    collect_host_dma(descriptor_queue, data_queue);
    if (!descriptor_queue.empty()) {
      serve_descriptor<d>(job_message(descriptor_queue.pop()));
      collect_host_dma(descriptor_queue, data_queue);
    }
    if (!data_queue.empty() && send_dma_idle())
      serve_data<d>(job_message(data_queue.pop()));
  }
}

// The single-station form: doorbells are all there is.
[[noreturn]] void serve_doorbells_only() {
  for (;;)
    if (doorbell_waiting())
      serve_doorbell<Discipline::doorbells_only>(doorbells_taken++);
}

// One FCFS queue in the order the core sees the work arrive; data at the
// head waits for the send DMA (blocking) while later work queues behind it.
// Doorbells stay in the hardware FIFO; the queue holds a place for each.
uint32_t doorbells_queued; // places held for doorbells still in the FIFO

void collect_pooled() {
  const uint32_t in_fifo = via::doorbell_status() & LANAI_DB_STATUS_COUNT_MASK;
  for (; doorbells_queued < in_fifo; ++doorbells_queued)
    if (!pooled_queue.push(job(kDoorbell, 0u)))
      fail(TWIN_FAIL_QUEUE_FULL);
  collect_host_dma(pooled_queue, pooled_queue);
}

template <>
uint32_t waiting_classes<Discipline::pooled>() {
  collect_pooled();
  if (pooled_queue.empty())
    return 0u;
  const JobClass c = job_class(pooled_queue.front());
  return c == kData && !send_dma_idle() ? 0u : 1u << c;
}

[[noreturn]] void serve_pooled() {
  constexpr Discipline d = Discipline::pooled;
  for (;;) {
    collect_pooled();
    if (pooled_queue.empty()) {
      // Every doorbell in the FIFO holds a place and every completion was
      // taken, so nothing comes before one of them does: wait on the event
      // word alone, in laps as short as the cyclic discipline's.
      idle_until(LANAI_EV_DOORBELL | LANAI_EV_HDMA_DONE);
      continue;
    }
    // Data at the head waits for the send DMA. A job leaves the queue as its
    // service starts: what waits when it ends (waiting_classes) is the work
    // behind it, not the job itself.
    const uint32_t head = pooled_queue.front();
    if (job_class(head) == kData && !send_dma_idle())
      continue;
    pooled_queue.pop();
    switch (job_class(head)) {
    case kDoorbell:
      serve_doorbell<d>(doorbells_taken++);
      --doorbells_queued;
      break;
    case kDescriptor:
      serve_descriptor<d>(job_message(head));
      break;
    case kData:
      serve_data<d>(job_message(head));
      break;
    }
  }
}

// The bench wrote the block before the core started; nothing changes it
// after.
void read_config() {
  config.pooled = twin_config.pooled;
  config.lanai_only = twin_config.lanai_only;
  config.doorbell_cycles = twin_config.doorbell_cycles;
  config.descriptor_cycles = twin_config.descriptor_cycles;
  config.data_cycles = twin_config.data_cycles;
  config.descriptor_bytes = twin_config.descriptor_bytes;
  config.data_bytes = twin_config.data_bytes;
  config.handle = twin_config.handle;
  config.ptag = twin_config.ptag;
  config.data_host_lo = twin_config.data_host_lo;
  config.data_host_hi = twin_config.data_host_hi;
  config.route_byte = twin_config.route_byte;
}

} // namespace
} // namespace twin

extern "C" int main() {
  twin::read_config();
  if (twin::config.lanai_only != 0u)
    twin::serve_doorbells_only();
  if (twin::config.pooled != 0u)
    twin::serve_pooled();
  twin::poll_cyclically();
}
