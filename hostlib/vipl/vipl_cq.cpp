// Completion queues: one place to learn which VI queue has a completed
// descriptor, filled in the order the NIC completed them (the driver sees
// the NIC's status writes). The descriptor itself is then taken with
// VipSendDone/VipRecvDone on the VI the entry names.
#include <fmt/format.h>

#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

VIP_RETURN take(CqObject& cq, VIP_VI_HANDLE* vi, VIP_BOOLEAN* receive) {
  if (cq.entries.empty())
    return VIP_NOT_DONE;
  const auto [token, is_receive] = cq.entries.front();
  cq.entries.pop_front();
  *vi = handle_of(token);
  *receive = is_receive ? VIP_TRUE : VIP_FALSE;
  return VIP_SUCCESS;
}

} // namespace

VIP_RETURN VipCreateCQ(VIP_NIC_HANDLE NicHandle, VIP_ULONG EntryCount, VIP_CQ_HANDLE* CQHandle) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    if (!nic || EntryCount == 0 || !CQHandle)
      return VIP_INVALID_PARAMETER;
    if (EntryCount > max_cq_entries || d.cqs.size() >= max_cqs)
      return VIP_ERROR_RESOURCE;
    CqObject& cq = d.cqs.add(d.mint(HandleKind::cq));
    cq.nic = nic->token;
    cq.capacity = EntryCount;
    *CQHandle = handle_of(cq.token);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipDestroyCQ(VIP_CQ_HANDLE CQHandle) {
  return vipl_call([&](NodeDriver& d) {
    const CqObject* cq = d.cqs.find(CQHandle);
    if (!cq)
      return VIP_INVALID_PARAMETER;
    if (cq->attached > 0)
      return VIP_INVALID_STATE;
    d.cqs.erase(cq->token);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipResizeCQ(VIP_CQ_HANDLE CQHandle, VIP_ULONG EntryCount) {
  return vipl_call([&](NodeDriver& d) {
    CqObject* cq = d.cqs.find(CQHandle);
    if (!cq || EntryCount == 0)
      return VIP_INVALID_PARAMETER;
    // Shrinking below what is queued would lose completions.
    if (EntryCount > max_cq_entries || EntryCount < cq->entries.size())
      return VIP_ERROR_RESOURCE;
    cq->capacity = EntryCount;
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipCQDone(VIP_CQ_HANDLE CQHandle, VIP_VI_HANDLE* ViHandle, VIP_BOOLEAN* RecvQueue) {
  return vipl_call(
      [&](NodeDriver& d) {
        CqObject* cq = d.cqs.find(CQHandle);
        if (!cq || !ViHandle || !RecvQueue)
          return VIP_INVALID_PARAMETER;
        d.charge_look(d.costs().poll_ns);
        return take(*cq, ViHandle, RecvQueue);
      },
      CallKind::looks);
}

namespace {

// Waits for a completion on the queue until `deadline` (none: for ever).
VIP_RETURN wait_on(NodeDriver& d, VIP_CQ_HANDLE handle,
                   std::optional<lanai::kernel::SimTime> deadline, VIP_VI_HANDLE* vi,
                   VIP_BOOLEAN* recv_queue, const char* what) {
  CqObject* cq = d.cqs.find(handle);
  if (!cq || !vi || !recv_queue)
    return VIP_INVALID_PARAMETER;
  const Token token = cq->token;
  d.charge(d.costs().poll_ns);
  const bool completed = d.block(
      [&] {
        const CqObject* now = d.cqs.find_token(token);
        return now && !now->entries.empty();
      },
      deadline, what);
  cq = d.cqs.find_token(token);
  if (!cq)
    return VIP_INVALID_STATE;
  if (!completed)
    return VIP_TIMEOUT;
  return take(*cq, vi, recv_queue);
}

} // namespace

VIP_RETURN VipCQWait(VIP_CQ_HANDLE CQHandle, VIP_ULONG Timeout, VIP_VI_HANDLE* ViHandle,
                     VIP_BOOLEAN* RecvQueue) {
  return vipl_call([&](NodeDriver& d) {
    return wait_on(d, CQHandle, d.deadline_after(Timeout), ViHandle, RecvQueue, "VipCQWait");
  });
}

VIP_RETURN lanai_emu_cq_wait_until(VIP_CQ_HANDLE cq, uint64_t deadline_ns, VIP_VI_HANDLE* vi,
                                   VIP_BOOLEAN* recv_queue) {
  return vipl_call([&](NodeDriver& d) {
    const auto deadline =
        lanai::kernel::SimTime::from_ps(static_cast<std::int64_t>(deadline_ns) * 1000);
    return wait_on(d, cq, deadline, vi, recv_queue, "lanai_emu_cq_wait_until");
  });
}

VIP_RETURN VipCQNotify(VIP_CQ_HANDLE CqHandle, VIP_PVOID Context, VIP_CQ_NOTIFY Handler) {
  return vipl_call([&](NodeDriver& d) {
    CqObject* cq = d.cqs.find(CqHandle);
    if (!cq || !Handler)
      return VIP_INVALID_PARAMETER;
    if (cq->notify)
      return VIP_ERROR_RESOURCE;
    cq->notify = Handler;
    cq->notify_context = Context;
    d.notification_armed();
    return VIP_SUCCESS;
  });
}
