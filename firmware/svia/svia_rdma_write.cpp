// A peer's RDMA write at SVIA's card, in sequence like everything else: a
// write with immediate data first takes the VI's next posted receive (none
// posted: as for a send); the data goes where the trailer says by one host
// DMA checked as a remote write (handle, the VI's protection tag, bounds,
// the region's EnableRdmaWrite), if the VI lets its peer write. A refusal
// writes nothing and raises VIA_INTR_RDMAW_PROT; the consumed receive
// completes with VIP_STATUS_RDMA_PROT_ERROR. The same wire format and
// checks as PVIA's.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/arrival_checks.h"
#include "common/vi_table.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

namespace {

// Places the write's data; 0, or VIP_STATUS_RDMA_PROT_ERROR if the VI or
// the host DMA refused it.
uint32_t place(uint32_t vi, const via::ReceiveBuffer& packet) {
  if (!via::vi_takes_rdma_write(vi))
    return VIP_STATUS_RDMA_PROT_ERROR;
  const uint32_t length = packet.header.length;
  if (length == 0u)
    return 0u;
  via::trace_state("recv:scatter_data");
  const via::RdmaTarget target = via::rdma_target(packet);
  const via::HdmaRequest request{target.address,   target.handle,
                                 via::vi_ptag(vi), via::sram_address(packet.data),
                                 length,           via::HdmaDirection::to_host_remote};
  uint32_t id;
  if (!start_host_dma(request, id) || finish_host_dma(id, true) != LANAI_HDMA_OK)
    return VIP_STATUS_RDMA_PROT_ERROR;
  return 0u;
}

} // namespace

void deliver_rdma_write(uint32_t vi, const via::ReceiveBuffer& packet) {
  const via_packet_header& header = packet.header;
  const bool immediate = (header.flags & VIA_PACKET_F_IMMEDIATE) != 0u;
  via::PostedDescriptor posted;
  via::Descriptor descriptor;
  if (immediate) {
    if (!next_receive(vi, posted)) {
      via::no_receive_posted(vi);
      acknowledge(header, VIP_STATUS_REMOTE_DESC_ERROR);
      return;
    }
    via::trace_state("recv:fetch_descriptor");
    if (!fetch_descriptor(vi, posted, descriptor)) {
      acknowledge(header, VIP_STATUS_REMOTE_DESC_ERROR);
      return;
    }
  }
  const uint32_t errors = place(vi, packet);
  if (errors != 0u) {
    count(svia_rdma_refused);
    via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_RDMAW_PROT, vi));
  }
  acknowledge(header, errors);
  if (!immediate)
    return;
  count(svia_receives_completed);
  if (errors != 0u)
    count(svia_receives_failed);
  via::trace_state("recv:write_status");
  complete_descriptor(vi, posted, header.immediate, errors == 0u ? header.length : 0u,
                      VIP_STATUS_DONE | VIP_STATUS_OP_REMOTE_RDMA_WRITE | VIP_STATUS_IMMEDIATE |
                          errors);
}

} // namespace svia
