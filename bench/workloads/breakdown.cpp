#include "bench/workloads/breakdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace lanai::bench {

namespace {

using trace::Event;
using trace::Track;

double us(kernel::SimTime t) { return static_cast<double>(t.ps()) / 1e6; }
double since(kernel::SimTime t, kernel::SimTime origin) { return std::max(0.0, us(t - origin)); }

bool within(const Event& e, std::uint64_t base, std::uint64_t bytes) {
  return e.host_address >= base && e.host_address < base + std::max<std::uint64_t>(bytes, 1);
}

// The events of one node on one track, in time order.
std::vector<const Event*> on(std::span<const Event> events, std::uint32_t node, Track track) {
  std::vector<const Event*> out;
  for (const Event& e : events)
    if (e.node == node && e.track == track)
      out.push_back(&e);
  std::stable_sort(out.begin(), out.end(),
                   [](const Event* a, const Event* b) { return a->begin < b->begin; });
  return out;
}

// Host DMA requests programmed in [from, to) that `match` accepts.
std::vector<const Event*> requests(const std::vector<const Event*>& hdma, kernel::SimTime from,
                                   kernel::SimTime to,
                                   const std::function<bool(const Event&)>& match) {
  std::vector<const Event*> out;
  for (const Event* e : hdma)
    if (e->programmed >= from && e->programmed < to && match(*e))
      out.push_back(e);
  std::stable_sort(out.begin(), out.end(),
                   [](const Event* a, const Event* b) { return a->programmed < b->programmed; });
  return out;
}

[[noreturn]] void missing(std::string_view what, std::size_t message) {
  throw std::runtime_error(
      fmt::format("latency breakdown: message {} has no {} in the trace", message, what));
}

} // namespace

Breakdown ping_breakdown(std::span<const Event> events, const MessageBuffers& sender,
                         const MessageBuffers& receiver, std::size_t skip) {
  const auto doorbells = on(events, sender.node, Track::doorbell);
  std::vector<kernel::SimTime> rung;
  for (const Event* e : doorbells)
    if (e->name == "send" && e->host_address == sender.descriptor_of(rung.size()))
      rung.push_back(e->begin);
  const auto send_hdma = on(events, sender.node, Track::hdma);
  const auto nsdma = on(events, sender.node, Track::nsdma);
  const auto recv_hdma = on(events, receiver.node, Track::hdma);
  std::vector<kernel::SimTime> arrivals, in_sram;
  // Data packets only: acknowledgements (a reliable VI's, which the card
  // sends back, header only and unlabelled) are not messages.
  for (const Event* e : on(events, receiver.node, Track::nrdma))
    if (e->msg != trace::no_label && e->peer == sender.node) {
      arrivals.push_back(e->begin);
      in_sram.push_back(e->end);
    }

  Breakdown sum;
  const kernel::SimTime forever = kernel::SimTime::max();
  for (std::size_t k = skip; k < rung.size() && k < arrivals.size(); ++k) {
    // --- the sending node, from the doorbell
    const std::uint64_t sent_from = sender.descriptor_of(k);
    const kernel::SimTime d0 = rung[k];
    const kernel::SimTime d1 = k + 1 < rung.size() ? rung[k + 1] : forever;
    const auto desc = requests(send_hdma, d0, d1, [&](const Event& e) {
      return e.name == "to_sram" && e.host_address == sent_from;
    });
    const auto data = requests(send_hdma, d0, d1, [&](const Event& e) {
      return e.name == "to_sram" && within(e, sender.data, sender.bytes);
    });
    const auto status = requests(send_hdma, d0, d1, [&](const Event& e) {
      return e.name == "to_host" && within(e, sent_from, 64);
    });
    if (desc.empty())
      missing("send descriptor fetch", k);
    if (data.empty())
      missing("send data fetch", k);
    if (status.empty())
      missing("send status write", k);
    const Event* packet = nullptr;
    for (const Event* e : nsdma)
      if (e->begin >= d0 && e->begin < d1 && e->msg != trace::no_label) {
        packet = e;
        break;
      }
    if (!packet)
      missing("network send", k);
    SendBreakdown& s = sum.send;
    s.hdma_prog_desc += since(desc.front()->programmed, d0);
    s.desc_down += since(desc.front()->end, d0);
    s.hdma_prog_data += since(data.front()->programmed, d0);
    kernel::SimTime data_end{};
    for (const Event* e : data)
      data_end = std::max(data_end, e->end);
    s.data_down += since(data_end, d0);
    s.nsdma_done += since(packet->end, d0);
    s.hdma_prog_status += since(status.front()->programmed, d0);
    s.status_done += since(status.front()->end, d0);

    // --- the receiving node, from the arrival
    const std::uint64_t landed_in = receiver.descriptor_of(k);
    const kernel::SimTime a0 = arrivals[k];
    const kernel::SimTime a1 = k + 1 < arrivals.size() ? arrivals[k + 1] : forever;
    const auto up = requests(recv_hdma, a0, a1, [&](const Event& e) {
      return e.name == "to_host" && within(e, receiver.data, receiver.bytes);
    });
    const auto done = requests(recv_hdma, a0, a1, [&](const Event& e) {
      return e.name == "to_host" && within(e, landed_in, 64);
    });
    if (up.empty())
      missing("receive data write", k);
    if (done.empty())
      missing("receive status write", k);
    // The receive descriptor this message landed in: the last one fetched
    // before its data went up (possibly long before it arrived).
    const auto fetched =
        requests(recv_hdma, kernel::SimTime::zero(), up.front()->programmed, [&](const Event& e) {
          return e.name == "to_sram" && e.host_address == landed_in;
        });
    if (fetched.empty())
      missing("receive descriptor fetch", k);
    RecvBreakdown& r = sum.recv;
    sum.arrival += since(a0, d0);
    r.nrdma_done += since(in_sram[k], a0);
    r.hdma_prog_desc += since(fetched.back()->programmed, a0);
    r.desc_down += since(fetched.back()->end, a0);
    r.hdma_prog_data += since(up.front()->programmed, a0);
    kernel::SimTime up_end{};
    for (const Event* e : up)
      up_end = std::max(up_end, e->end);
    r.data_up += since(up_end, a0);
    r.hdma_prog_status += since(done.front()->programmed, a0);
    r.status_done += since(done.front()->end, a0);
    ++sum.messages;
  }
  if (sum.messages == 0)
    return sum;
  const double n = static_cast<double>(sum.messages);
  for (double* v : {&sum.send.hdma_prog_desc, &sum.send.desc_down, &sum.send.hdma_prog_data,
                    &sum.send.data_down, &sum.send.nsdma_done, &sum.send.hdma_prog_status,
                    &sum.send.status_done, &sum.arrival, &sum.recv.nrdma_done,
                    &sum.recv.hdma_prog_desc, &sum.recv.desc_down, &sum.recv.hdma_prog_data,
                    &sum.recv.data_up, &sum.recv.hdma_prog_status, &sum.recv.status_done})
    *v /= n;
  return sum;
}

} // namespace lanai::bench
