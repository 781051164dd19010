// Taking completed descriptors: the oldest posted descriptor of a queue
// leaves it once the NIC (or a flush) has set VIP_STATUS_DONE in its status
// word. Done looks once; Wait blocks in virtual time until it happens;
// Notify hands it to a handler (node_notify.cpp).
#include <fmt/format.h>

#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

bool head_done(const PostedQueue& queue) {
  return !queue.posted.empty() && (read_status(queue.posted.front()) & VIP_STATUS_DONE);
}

VIP_DESCRIPTOR* take_head(NodeDriver& d, PostedQueue& queue) {
  VIP_DESCRIPTOR* descriptor = queue.posted.front();
  queue.posted.pop_front();
  d.untrack(descriptor);
  return descriptor;
}

VIP_RETURN done(NodeDriver& d, VIP_VI_HANDLE handle, VIP_DESCRIPTOR** out, bool receive) {
  ViObject* vi = d.vis.find(handle);
  if (!vi || !out)
    return VIP_INVALID_PARAMETER;
  d.charge_look(d.costs().poll_ns);
  PostedQueue& queue = vi->queue(receive);
  if (!head_done(queue))
    return VIP_NOT_DONE;
  *out = take_head(d, queue);
  return VIP_SUCCESS;
}

VIP_RETURN wait(NodeDriver& d, VIP_VI_HANDLE handle, VIP_ULONG timeout, VIP_DESCRIPTOR** out,
                bool receive) {
  ViObject* vi = d.vis.find(handle);
  if (!vi || !out)
    return VIP_INVALID_PARAMETER;
  const Token token = vi->token;
  const auto ready = [&] {
    const ViObject* now = d.vis.find_token(token);
    return now && head_done(now->queue(receive));
  };
  d.charge(d.costs().poll_ns);
  const bool completed =
      d.block(ready, d.deadline_after(timeout),
              fmt::format("{}(vi {}, {} queue)", receive ? "VipRecvWait" : "VipSendWait", vi->slot,
                          receive ? "recv" : "send"));
  // An error callback may have destroyed the VI while this call blocked.
  vi = d.vis.find_token(token);
  if (!vi)
    return VIP_INVALID_STATE;
  if (!completed)
    return VIP_TIMEOUT;
  *out = take_head(d, vi->queue(receive));
  return VIP_SUCCESS;
}

} // namespace

VIP_RETURN VipSendDone(VIP_VI_HANDLE ViHandle, VIP_DESCRIPTOR** DescriptorPtr) {
  return vipl_call([&](NodeDriver& d) { return done(d, ViHandle, DescriptorPtr, false); },
                   CallKind::looks);
}

VIP_RETURN VipRecvDone(VIP_VI_HANDLE ViHandle, VIP_DESCRIPTOR** DescriptorPtr) {
  return vipl_call([&](NodeDriver& d) { return done(d, ViHandle, DescriptorPtr, true); },
                   CallKind::looks);
}

VIP_RETURN VipSendWait(VIP_VI_HANDLE ViHandle, VIP_ULONG Timeout, VIP_DESCRIPTOR** DescriptorPtr) {
  return vipl_call([&](NodeDriver& d) { return wait(d, ViHandle, Timeout, DescriptorPtr, false); });
}

VIP_RETURN VipRecvWait(VIP_VI_HANDLE ViHandle, VIP_ULONG Timeout, VIP_DESCRIPTOR** DescriptorPtr) {
  return vipl_call([&](NodeDriver& d) { return wait(d, ViHandle, Timeout, DescriptorPtr, true); });
}

namespace {

VIP_RETURN notify(NodeDriver& d, VIP_VI_HANDLE handle, VIP_PVOID context,
                  VIP_DESCRIPTOR_NOTIFY handler, bool receive) {
  ViObject* vi = d.vis.find(handle);
  if (!vi || !handler)
    return VIP_INVALID_PARAMETER;
  PostedQueue& queue = vi->queue(receive);
  if (queue.notify)
    return VIP_ERROR_RESOURCE;
  queue.notify = handler;
  queue.notify_context = context;
  d.notification_armed();
  return VIP_SUCCESS;
}

} // namespace

VIP_RETURN VipSendNotify(VIP_VI_HANDLE ViHandle, VIP_PVOID Context, VIP_DESCRIPTOR_NOTIFY Handler) {
  return vipl_call([&](NodeDriver& d) { return notify(d, ViHandle, Context, Handler, false); });
}

VIP_RETURN VipRecvNotify(VIP_VI_HANDLE ViHandle, VIP_PVOID Context, VIP_DESCRIPTOR_NOTIFY Handler) {
  return vipl_call([&](NodeDriver& d) { return notify(d, ViHandle, Context, Handler, true); });
}
