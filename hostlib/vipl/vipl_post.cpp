// Posting descriptors: the library checks what it can see without the NIC
// (handle, alignment, registration of the descriptor itself, its format,
// the VI's state, queue room), then rings the VI's doorbell with one PCI
// write. Everything else (data segments, lengths) the NIC checks and
// reports in the descriptor's status. The card's doorbell queue holds
// nic.doorbell_entries writes; the library, which knows how many the card
// has taken, waits for room rather than ring into a full queue, where the
// write would be lost.
#include <fmt/format.h>

#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

// Control bits this provider understands. An RDMA write or read goes on
// the send queue of a VI created with that operation enabled, its address
// segment first; a read carries no immediate data. VIP_CONTROL_IMMEDIATE
// means nothing on a receive and is let through: programs post one pool of
// descriptors on both queues. Whether immediate data arrived, the
// completion says (VIP_STATUS_IMMEDIATE).
bool well_formed(const VIP_DESCRIPTOR& descriptor, const ViObject& vi, bool receive) {
  const VIP_UINT16 control = descriptor.CS.Control;
  if (descriptor.CS.SegCount > VIA_MAX_SEGMENTS)
    return false;
  if (control & VIP_CONTROL_RESERVED)
    return false;
  const VIP_UINT16 op = control & VIP_CONTROL_OP_MASK;
  if (op == VIP_CONTROL_OP_RDMAWRITE)
    return !receive && vi.attributes.EnableRdmaWrite && descriptor.CS.SegCount >= 1;
  if (op == VIP_CONTROL_OP_RDMAREAD)
    return !receive && vi.attributes.EnableRdmaRead && descriptor.CS.SegCount >= 1 &&
           !(control & VIP_CONTROL_IMMEDIATE);
  return op == VIP_CONTROL_OP_SENDRECV;
}

// A flow-controlled VI's doorbells say so; a send that takes a receive at
// the peer (a send, an RDMA write with immediate data) also asks for a
// credit (via_abi.h).
std::uint32_t flow_bits(const ViObject& vi, const VIP_DESCRIPTOR& descriptor, bool receive) {
  if (!vi.flow_control)
    return 0u;
  const VIP_UINT16 control = descriptor.CS.Control;
  const VIP_UINT16 op = control & VIP_CONTROL_OP_MASK;
  const bool takes_receive = op == VIP_CONTROL_OP_SENDRECV ||
                             (op == VIP_CONTROL_OP_RDMAWRITE && (control & VIP_CONTROL_IMMEDIATE));
  return VIA_DOORBELL_FLOW | (!receive && takes_receive ? VIA_DOORBELL_CREDIT : 0u);
}

VIP_RETURN post(NodeDriver& d, VIP_VI_HANDLE handle, VIP_DESCRIPTOR* descriptor,
                VIP_MEM_HANDLE memory, bool receive) {
  ViObject* vi = d.vis.find(handle);
  const auto address = reinterpret_cast<std::uintptr_t>(descriptor);
  if (!vi || !descriptor || address % VIP_DESCRIPTOR_ALIGNMENT != 0)
    return VIP_INVALID_PARAMETER;
  const PtagObject* ptag = d.ptags.find(vi->attributes.Ptag);
  if (!ptag || d.protection().check(memory, ptag->number, address, VIA_DESC_BYTES) !=
                   lanai::nic::ProtectionCheck::ok)
    return VIP_INVALID_PARAMETER;
  // Posting one descriptor twice would make two completions of one status.
  if (d.tracked(descriptor))
    return VIP_INVALID_PARAMETER;
  if (!well_formed(*descriptor, *vi, receive))
    return VIP_DESCRIPTOR_ERROR;
  // The peer may disconnect while the descriptor is being built, so the
  // state is judged again once that time has passed.
  const auto refusal = [&]() -> VIP_RETURN {
    const bool usable = receive ? vi->state == VIP_STATE_IDLE || vi->state == VIP_STATE_CONNECTED ||
                                      vi->state == VIP_STATE_CONNECT_PENDING
                                : vi->state == VIP_STATE_CONNECTED;
    if (!usable)
      return VIP_INVALID_STATE;
    if (vi->queue(receive).posted.size() >= VIA_QUEUE_DEPTH)
      return VIP_ERROR_RESOURCE;
    return VIP_SUCCESS;
  };
  if (const VIP_RETURN r = refusal(); r != VIP_SUCCESS)
    return r;
  d.charge(d.costs().post_ns);
  const std::uint32_t slot = vi->slot;
  if (!d.card().doorbell_room(slot)) {
    // Each look at the card's count costs a poll; an error callback run
    // meanwhile may destroy the VI.
    const Token token = vi->token;
    d.block([&] { return d.card().doorbell_room(slot); }, std::nullopt,
            fmt::format("{}(vi {}, doorbell queue full)", receive ? "VipPostRecv" : "VipPostSend",
                        slot));
    vi = d.vis.find_token(token);
    if (!vi)
      return VIP_INVALID_STATE;
  }
  if (const VIP_RETURN r = refusal(); r != VIP_SUCCESS)
    return r;

  PostedQueue& queue = vi->queue(receive);
  descriptor->CS.Status = 0;
  queue.posted.push_back(descriptor);
  d.track(*vi, receive, descriptor);
  via_doorbell doorbell{};
  doorbell.vi_queue = vi->slot | (receive ? VIA_DOORBELL_RECV : 0u) |
                      d.config().epoch(vi->slot) << VIA_DOORBELL_EPOCH_SHIFT |
                      flow_bits(*vi, *descriptor, receive);
  doorbell.handle = memory;
  doorbell.descriptor = address;
  d.card().ring_doorbell(doorbell);
  d.charge(d.costs().pio_write_ns);
  return VIP_SUCCESS;
}

} // namespace

VIP_RETURN VipPostSend(VIP_VI_HANDLE ViHandle, VIP_DESCRIPTOR* DescriptorPtr,
                       VIP_MEM_HANDLE MemoryHandle) {
  return vipl_call(
      [&](NodeDriver& d) { return post(d, ViHandle, DescriptorPtr, MemoryHandle, false); });
}

VIP_RETURN VipPostRecv(VIP_VI_HANDLE ViHandle, VIP_DESCRIPTOR* DescriptorPtr,
                       VIP_MEM_HANDLE MemoryHandle) {
  return vipl_call(
      [&](NodeDriver& d) { return post(d, ViHandle, DescriptorPtr, MemoryHandle, true); });
}
