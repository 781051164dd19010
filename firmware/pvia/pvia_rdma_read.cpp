// RDMA reads at the target's card. A peer's read request is checked (the
// VI lets its peer read, the length fits the VI) and kept as a job queued
// on the VI's send ring like a send posted when the request arrived, so
// that the scheduler serves it as it serves sends; the send engine takes
// a job like a send and streams the data back as a message of the VI,
// read from host memory by remote reads, which the host DMA checks against
// the region's handle, the VI's protection tag, the bounds and the
// region's EnableRdmaRead. A refused request is answered by an exact
// acknowledgement carrying its VIP_STATUS_* bits.
#include <lanai/via_abi.h>

#include "common/ack_packet.h"
#include "common/nic_config.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_send_record.h"

namespace pvia {

namespace {

// What a request asks for: the memory to read and the request's number,
// and the VI and its epoch when the job was queued.
struct ReadJob {
  uint64_t address;
  uint32_t handle;
  uint32_t length;
  uint32_t sequence;
  uint32_t epoch;
  uint8_t vi;
  bool used;
};

// An initiator has at most as many reads outstanding as it has send
// records; this many serve several initiators at once.
constexpr uint32_t kJobs = 64u;
ReadJob jobs[kJobs];

// A job is free once taken by the send engine, or once its VI has been
// flushed since it was queued: its ring entry is then dropped unread (by
// the epoch), so the send rings need not give it back.
uint32_t take_job() {
  for (uint32_t job = 0u; job < kJobs; ++job)
    if (!jobs[job].used || jobs[job].epoch != via::vi_config(jobs[job].vi).epoch)
      return job;
  return kJobs;
}

} // namespace

bool take_read_request(uint32_t vi, const Arrival& arrival) {
  const via_packet_header& header = arrival.buffer->header;
  uint32_t refusal = 0u;
  if (!via::vi_takes_rdma_read(vi))
    refusal = VIP_STATUS_RDMA_PROT_ERROR;
  else if (header.message > via::vi_max_message(vi))
    refusal = VIP_STATUS_LENGTH_ERROR;
  if (refusal != 0u) {
    const via::Ack ack{header.src_node, header.src_vi,   vi, header.sequence,
                       refusal,         VIA_ACK_F_EXACT, 0u};
    if (!send_ack(ack, via::stamp_now()))
      return false;
    count(pvia_rdma_reads_refused);
    return true;
  }
  // A request that comes again while it is still queued here is the same
  // read: served once.
  const uint32_t epoch = via::vi_config(vi).epoch;
  for (uint32_t j = 0u; j < kJobs; ++j)
    if (jobs[j].used && jobs[j].vi == vi && jobs[j].sequence == header.sequence &&
        jobs[j].epoch == epoch)
      return true;
  const uint32_t job = take_job();
  if (job == kJobs)
    return false;
  if (!post_read_job(vi, job, arrival.arrived_at, header.message))
    return false;
  const via::RdmaTarget target = via::rdma_target(*arrival.buffer);
  jobs[job] = {target.address,
               target.handle,
               header.message,
               header.sequence,
               via::vi_config(vi).epoch,
               static_cast<uint8_t>(vi),
               true};
  count(pvia_rdma_reads_served);
  return true;
}

namespace send_engine {

SendState take_read_job(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  const uint32_t job = record.work.posted.address_lo;
  const ReadJob read = jobs[job];
  jobs[job].used = false;
  record.kind = SendKind::read_data;
  record.marked = true;
  record.gather = static_cast<uint8_t>(via::HdmaDirection::to_sram_remote);
  via::Descriptor& descriptor = record.descriptor;
  descriptor.control = VIP_CONTROL_OP_SENDRECV;
  descriptor.segment_count = 1u;
  descriptor.segments[0] = {read.address, read.handle, read.length};
  descriptor.remote.length = 0u;
  descriptor.immediate = read.sequence; // the request it answers
  descriptor.length = read.length;
  // Numbered as the request it answers, not among this VI's messages: a
  // request that comes again (its data lost) is served again under the
  // same number, and data the fabric loses leaves no gap among the
  // messages this VI sends.
  record.numbered = true;
  record.sequence = read.sequence;
  // The VI lost its connection since the request came: nothing can go back.
  if (!via::vi_connected(record.vi) ||
      via::route_to(via::vi_config(record.vi).remote_node).length == 0u) {
    record.errors = VIP_STATUS_TRANSPORT_ERROR;
    return stream_nothing(r);
  }
  return start_streaming(r);
}

} // namespace send_engine

} // namespace pvia
