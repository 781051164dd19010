// The two host DMA steps every descriptor takes whatever its engine: the
// fetch of the posted descriptor and the write-back of its completion
// words. Both are queued here and finish as events to their owner.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

bool write_completion(uint32_t vi, const via::PostedDescriptor& posted, via::Completion& staging,
                      uint32_t immediate, uint32_t length, uint32_t status, HdmaOwner owner,
                      via::Stamp stamp) {
  via::encode_completion(staging, immediate, length, status);
  const via::HdmaRequest request{via::completion_address(posted),
                                 posted.handle,
                                 via::vi_ptag(vi),
                                 via::sram_address(&staging),
                                 VIA_DESC_WRITEBACK_BYTES,
                                 via::HdmaDirection::to_host};
  if (submit_host_dma(request, owner, stamp))
    return true;
  report_unreachable_descriptor(vi);
  return false;
}

bool fetch_descriptor(uint32_t vi, const via::PostedDescriptor& posted, via::DescriptorCopy& copy,
                      HdmaOwner owner, via::Stamp stamp) {
  const via::HdmaRequest request{posted.address(), posted.handle,
                                 via::vi_ptag(vi), via::sram_address(&copy),
                                 VIA_DESC_BYTES,   via::HdmaDirection::to_sram};
  if (submit_host_dma(request, owner, stamp))
    return true;
  report_unreachable_descriptor(vi);
  return false;
}

void report_unreachable_descriptor(uint32_t vi) {
  count(pvia_descriptor_faults);
  via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_BAD_PACKET, vi));
}

} // namespace pvia
