// Completion notifications (VipSendNotify, VipRecvNotify, VipCQNotify):
// one-shot handlers that take the next completion of a work queue or a
// completion queue. Like error callbacks they run on the program's own
// stack when the library has control (a VIPL call, a blocking wait, the end
// of lanai_emu_compute_ns), never inside a card's event, so a handler may
// call the VIPL. Queues are visited in handle order, so runs repeat exactly.
#include "hostlib/driver/node_driver.hpp"

namespace lanai::vipl {

namespace {

bool head_done(const PostedQueue& queue) {
  return !queue.posted.empty() && (read_status(queue.posted.front()) & VIP_STATUS_DONE) != 0;
}

} // namespace

bool NodeDriver::notification_ready() const {
  if (!notifications_armed_)
    return false;
  for (const auto& [token, vi] : vis)
    for (const bool receive : {false, true}) {
      const PostedQueue& queue = vi->queue(receive);
      if (queue.notify && head_done(queue))
        return true;
    }
  for (const auto& [token, cq] : cqs)
    if (cq->notify && !cq->entries.empty())
      return true;
  return false;
}

void NodeDriver::deliver_notifications() {
  if (!notifications_armed_ || !may_deliver())
    return;
  const Delivering guard(delivering_);
  // A handler may create, destroy or re-arm anything: after each one the
  // search starts over.
  for (bool ran = true; ran;) {
    ran = false;
    bool armed = false;
    for (const auto& [token, vi] : vis) {
      for (const bool receive : {false, true}) {
        PostedQueue& queue = vi->queue(receive);
        armed = armed || queue.notify;
        if (!queue.notify || !head_done(queue))
          continue;
        const VIP_DESCRIPTOR_NOTIFY handler = queue.notify;
        VIP_PVOID context = queue.notify_context;
        queue.notify = nullptr;
        queue.notify_context = nullptr;
        VIP_DESCRIPTOR* descriptor = queue.posted.front();
        queue.posted.pop_front();
        untrack(descriptor);
        handler(context, handle_of(vi->nic), descriptor);
        ran = true;
        break;
      }
      if (ran)
        break;
    }
    if (ran)
      continue;
    for (const auto& [token, cq] : cqs) {
      armed = armed || cq->notify;
      if (!cq->notify || cq->entries.empty())
        continue;
      const VIP_CQ_NOTIFY handler = cq->notify;
      VIP_PVOID context = cq->notify_context;
      cq->notify = nullptr;
      cq->notify_context = nullptr;
      const auto [vi, receive] = cq->entries.front();
      cq->entries.pop_front();
      handler(context, handle_of(cq->nic), handle_of(vi), receive ? VIP_TRUE : VIP_FALSE);
      ran = true;
      break;
    }
    if (!ran && !armed)
      notifications_armed_ = false;
  }
}

} // namespace lanai::vipl
