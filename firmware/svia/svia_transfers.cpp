// Device operations the sequential way: start one, then busy-wait until it
// is done, taking packets off the network and doorbells off the card
// meanwhile. Also the last step of every descriptor, writing its completion
// back to host memory: that write is queued and not waited for (the host
// DMA serves its queue in order, so it is done before anything queued
// after it), and its outcome is collected by a later wait.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/vi_table.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

namespace {

via::Completion completion;
// The completion write queued and not yet seen done: its request id (0:
// none) and VI.
uint32_t status_id;
uint32_t status_vi;

// What the core does while it busy-waits on a data transfer or a packet:
// it takes a finished packet off the receive DMA, and a doorbell, if one
// waits, into its ring, as the event word `events` shows them. A lap that
// finds nothing is short, so the end of the wait is seen soon after it
// comes.
void take_in(uint32_t events) {
  if (receive_dma_armed == kNoBuffer || (events & LANAI_EV_NRDMA_DONE) != 0u)
    poll_arrivals();
  if ((events & (LANAI_EV_DOORBELL | LANAI_EV_DOORBELL_OVERFLOW)) != 0u) {
    via::trace_working();
    take_doorbell(events);
    via::trace_waiting();
  }
}

// A short wait (a descriptor or a completion) only polls its device: it
// would end while the doorbell is being filed.
void while_waiting(bool long_wait) {
  if (long_wait)
    take_in(via::event_status());
}

// A completion write finished: the host hears by interrupt if it failed.
void status_written(uint32_t outcome) {
  status_id = 0u;
  if (outcome != LANAI_HDMA_OK)
    report_unreachable_descriptor(status_vi);
}

} // namespace

bool start_host_dma(const via::HdmaRequest& request, uint32_t& id) {
  for (;;) {
    const via::HdmaTicket ticket = via::hdma_submit(request);
    if (ticket.accepted) {
      id = ticket.id;
      return true;
    }
    // A full queue empties on its own; an SRAM range refusal never will.
    if (ticket.refusal != LANAI_HDMA_REFUSED_FULL) {
      count(svia_hdma_refusals);
      return false;
    }
    poll_arrivals();
  }
}

uint32_t finish_host_dma(uint32_t id, bool long_wait) {
  via::trace_waiting();
  for (;;) {
    const uint32_t done = via::hdma_pop_done();
    if ((done & LANAI_HDMA_DONE_VALID) == 0u) {
      while_waiting(long_wait);
      continue;
    }
    via::dma_fence();
    const uint32_t popped = done & LANAI_HDMA_ID_MASK;
    if (popped == id) {
      via::trace_working();
      return LANAI_HDMA_DONE_STATUS(done);
    }
    if (popped == status_id)
      status_written(LANAI_HDMA_DONE_STATUS(done));
    else
      via_hdma_stray_completions = via_hdma_stray_completions + 1u;
  }
}

uint32_t host_dma(const via::HdmaRequest& request) {
  uint32_t id;
  if (!start_host_dma(request, id))
    return via::kHdmaRefused;
  return finish_host_dma(id, false);
}

uint32_t start_packet(const via::OutgoingPacket& packet) {
  for (;;) {
    const uint32_t result =
        via::nsdma_start(via::sram_address(packet.start), packet.length, packet.route_len);
    if (result == LANAI_NSDMA_ACCEPTED) {
      count(svia_packets_sent);
      return 0u;
    }
    if (result != LANAI_NSDMA_BUSY)
      return result == LANAI_NSDMA_TOO_LARGE ? VIP_STATUS_LENGTH_ERROR : VIP_STATUS_TRANSPORT_ERROR;
    // An earlier packet is still leaving.
    finish_packet();
  }
}

void finish_packet() {
  via::trace_waiting();
  // One read of the event word a lap tells both whether the packet has
  // left and what else there is to take in.
  for (uint32_t events = via::event_status(); (events & LANAI_EV_NSDMA_IDLE) == 0u;
       events = via::event_status())
    take_in(events);
  via::trace_working();
}

void prepare_completion(uint32_t immediate, uint32_t length, uint32_t status) {
  // The staging words are reused: the previous write must be done (it
  // almost always is: everything since was queued behind it).
  if (status_id != 0u)
    status_written(finish_host_dma(status_id, false));
  via::encode_completion(completion, immediate, length, status);
}

void complete_descriptor(uint32_t vi, const via::PostedDescriptor& posted, uint32_t immediate,
                         uint32_t length, uint32_t status) {
  prepare_completion(immediate, length, status);
  write_completion(vi, posted);
}

void write_completion(uint32_t vi, const via::PostedDescriptor& posted) {
  const via::HdmaRequest write{via::completion_address(posted),
                               posted.handle,
                               via::vi_ptag(vi),
                               via::sram_address(&completion),
                               VIA_DESC_WRITEBACK_BYTES,
                               via::HdmaDirection::to_host};
  uint32_t id;
  if (!start_host_dma(write, id)) {
    report_unreachable_descriptor(vi);
    return;
  }
  status_id = id;
  status_vi = vi;
}

namespace {

// One message at a time: one SRAM copy serves sends and receives alike.
via::DescriptorCopy copy;

} // namespace

uint32_t start_descriptor_fetch(uint32_t vi, const via::PostedDescriptor& posted) {
  const via::HdmaRequest fetch{posted.address(), posted.handle,
                               via::vi_ptag(vi), via::sram_address(&copy),
                               VIA_DESC_BYTES,   via::HdmaDirection::to_sram};
  uint32_t id;
  return start_host_dma(fetch, id) ? id : 0u;
}

bool finish_descriptor_fetch(uint32_t id, uint32_t vi, via::Descriptor& descriptor) {
  if (id == 0u || finish_host_dma(id, false) != LANAI_HDMA_OK) {
    report_unreachable_descriptor(vi);
    return false;
  }
  via::decode_descriptor(copy, descriptor);
  return true;
}

bool fetch_descriptor(uint32_t vi, const via::PostedDescriptor& posted,
                      via::Descriptor& descriptor) {
  return finish_descriptor_fetch(start_descriptor_fetch(vi, posted), vi, descriptor);
}

void report_unreachable_descriptor(uint32_t vi) {
  count(svia_descriptor_faults);
  // The ABI has no code of its own for this; the descriptor's VI is named
  // so the host can tell which queue is affected.
  via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_BAD_PACKET, vi));
}

void collect_completions() {
  if (status_id == 0u) {
    if (acks_queued != 0u)
      send_next_ack();
    return;
  }
  const uint32_t done = via::hdma_pop_done();
  if ((done & LANAI_HDMA_DONE_VALID) == 0u)
    return;
  if ((done & LANAI_HDMA_ID_MASK) == status_id)
    status_written(LANAI_HDMA_DONE_STATUS(done));
  else
    via_hdma_stray_completions = via_hdma_stray_completions + 1u;
}

} // namespace svia
