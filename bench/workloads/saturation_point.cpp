// The saturation experiment's host programs. The sender keeps a window of
// sends posted on every receiver's VI and posts the next on a VI as soon as
// one of its sends completes, until the measured stretch is over; each
// receiver reposts a receive as each message arrives and notes when it did.
// Run control only (never a measurement) uses the memory all nodes share in
// this process: receivers end once every message sent has arrived, or a
// drain time after the sender stopped.
#include "bench/workloads/saturation_point.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "hostlib/driver/session.hpp"
#include "bench/workloads/bench_cluster.hpp"
#include "bench/workloads/fan_out_run.hpp"
#include "bench/workloads/message_pattern.hpp"
#include "bench/workloads/pingpong.hpp"
#include "bench/workloads/via_endpoint.hpp"

namespace lanai::bench {

namespace {

constexpr std::uint32_t kReceiveDepth = 48; // receives kept posted per receiver
const kernel::SimTime kDrain = kernel::milliseconds(20);

struct SaturationRun {
  const SaturationSpec* spec = nullptr;
  const std::atomic<bool>* stop = nullptr;
  host::Cluster* cluster = nullptr;
  HostMemory memory;
  UtilisationWindow utilisation;
  kernel::SimTime from{}, to{}; // the measured stretch
  bool sender_done = false;
  kernel::SimTime sender_done_at{};
  bool stopped = false;
  std::vector<std::uint64_t> sent;     // per receiver
  std::vector<std::uint64_t> received; // per receiver
  std::vector<std::int64_t> receipts;  // receipt times (ps) in the measured stretch
  std::uint64_t corrupted = 0;
  bool stop_requested() const { return stop && stop->load(std::memory_order_relaxed); }
};

int saturating_sender(SaturationRun& sh) {
  const SaturationSpec& spec = *sh.spec;
  const std::uint32_t n = spec.receivers;
  const std::uint32_t window = saturation_window(n);
  const std::size_t slot = message_slot_bytes(spec.message_bytes);
  Endpoint ep(std::size_t{n} * window * slot, sh.memory);
  VIP_CQ_HANDLE cq = nullptr;
  check_vip(VipCreateCQ(ep.nic(), n * window, &cq), "VipCreateCQ");
  std::vector<VIP_VI_HANDLE> vis(n);
  for (std::uint32_t r = 0; r < n; ++r)
    vis[r] = ep.create_vi(0, spec.message_bytes, cq, nullptr, spec.reliability);
  for (std::uint32_t r = 0; r < n; ++r)
    ep.connect(vis[r], static_cast<int>(r + 1), 0, true);

  auto post = [&](std::uint32_t r) {
    const std::uint64_t unit = sh.sent[r]++;
    auto* d = reinterpret_cast<VIP_DESCRIPTOR*>(ep.memory() + (r * window + unit % window) * slot);
    auto* buf = reinterpret_cast<std::uint8_t*>(d) + 64;
    write_message(buf, spec.message_bytes, MessageStamp{r, static_cast<std::uint32_t>(unit), 0, 1});
    fill_descriptor(d, ep, buf, spec.message_bytes);
    check_vip(VipPostSend(vis[r], d, ep.memory_handle()), "VipPostSend");
  };
  const kernel::SimTime start = host_now();
  sh.from = start + spec.warmup;
  sh.to = sh.from + spec.duration;
  sh.utilisation.schedule(*sh.cluster, sh.from, sh.to);
  for (std::uint32_t i = 0; i < window; ++i)
    for (std::uint32_t r = 0; r < n; ++r)
      post(r);
  std::uint64_t outstanding = std::uint64_t{n} * window;
  while (outstanding > 0) {
    VIP_VI_HANDLE vi = nullptr;
    VIP_BOOLEAN recv = VIP_FALSE;
    if (VipCQWait(cq, 50, &vi, &recv) != VIP_SUCCESS)
      break; // the card gave up: reported below
    VIP_DESCRIPTOR* d = nullptr;
    check_vip(VipSendDone(vi, &d), "VipSendDone");
    if (d->CS.Status & VIP_STATUS_ERROR_MASK)
      throw std::runtime_error(fmt::format("send completed with status 0x{:x}", d->CS.Status));
    --outstanding;
    if (sh.stop_requested()) {
      sh.stopped = true;
      continue;
    }
    if (host_now() < sh.to) {
      const auto r =
          static_cast<std::uint32_t>(std::find(vis.begin(), vis.end(), vi) - vis.begin());
      post(r);
      ++outstanding;
    }
  }
  sh.sender_done = true;
  sh.sender_done_at = host_now();
  return 0;
}

int counting_receiver(SaturationRun& sh, std::uint32_t me) {
  const SaturationSpec& spec = *sh.spec;
  const std::uint32_t r = me - 1;
  const std::size_t slot = message_slot_bytes(spec.message_bytes);
  Endpoint ep(kReceiveDepth * slot, sh.memory);
  VIP_CQ_HANDLE cq = nullptr;
  check_vip(VipCreateCQ(ep.nic(), kReceiveDepth, &cq), "VipCreateCQ");
  VIP_VI_HANDLE vi = ep.create_vi(0, spec.message_bytes, nullptr, cq, spec.reliability);
  for (std::uint32_t i = 0; i < kReceiveDepth; ++i) {
    auto* d = reinterpret_cast<VIP_DESCRIPTOR*>(ep.memory() + i * slot);
    fill_descriptor(d, ep, reinterpret_cast<std::uint8_t*>(d) + 64, spec.message_bytes);
    check_vip(VipPostRecv(vi, d, ep.memory_handle()), "VipPostRecv");
  }
  ep.connect(vi, 0, 0, false);
  std::uint64_t expected = 0; // the next message number on this VI
  for (;;) {
    if (sh.stop_requested())
      return 0;
    if (sh.sender_done && (sh.received[r] >= sh.sent[r] || host_now() > sh.sender_done_at + kDrain))
      return 0;
    VIP_VI_HANDLE from = nullptr;
    VIP_BOOLEAN recv = VIP_FALSE;
    const VIP_RETURN w = VipCQWait(cq, 1, &from, &recv);
    if (w == VIP_TIMEOUT)
      continue;
    check_vip(w, "VipCQWait");
    VIP_DESCRIPTOR* d = nullptr;
    check_vip(VipRecvDone(vi, &d), "VipRecvDone");
    MessageStamp s{};
    const auto* buf = static_cast<const std::uint8_t*>(d->DS[0].Local.Data.Address);
    // A message numbered before the next expected, a duplicate or one out
    // of turn, counts as damaged: a VI delivers in order and once. One
    // numbered past it follows messages the fabric lost (counted as lost).
    const bool intact = (d->CS.Status & VIP_STATUS_ERROR_MASK) == 0 &&
                        d->CS.Length == spec.message_bytes && check_message(buf, d->CS.Length, s) &&
                        s.channel == r;
    if (!intact) {
      ++sh.corrupted;
      ++expected; // taken for the message expected
    } else if (s.unit < expected) {
      ++sh.corrupted;
    } else {
      ++sh.received[r];
      expected = std::uint64_t{s.unit} + 1;
      const kernel::SimTime now = host_now();
      if (now >= sh.from && now <= sh.to)
        sh.receipts.push_back(now.ps());
    }
    fill_descriptor(d, ep, d->DS[0].Local.Data.Address, spec.message_bytes);
    check_vip(VipPostRecv(vi, d, ep.memory_handle()), "VipPostRecv");
  }
}

} // namespace

std::uint32_t saturation_window(std::uint32_t receivers) {
  return std::max<std::uint32_t>(4, 24 / std::max<std::uint32_t>(1, receivers));
}

SaturationResult run_saturation_point(const SaturationSpec& spec, const std::atomic<bool>* stop) {
  if (spec.message_bytes < kStampedMessageBytes || spec.message_bytes > VIA_MAX_TRANSFER)
    throw std::invalid_argument(fmt::format("saturation point: message size {} outside {}..{}",
                                            spec.message_bytes, kStampedMessageBytes,
                                            VIA_MAX_TRANSFER));
  if (spec.receivers < 1 || spec.receivers > 64)
    throw std::invalid_argument("saturation point: receivers must be in 1..64");
  if (spec.duration <= kernel::SimTime::zero())
    throw std::invalid_argument("saturation point: duration must be positive");
  SaturationRun sh;
  sh.spec = &spec;
  sh.stop = stop;
  sh.sent.assign(spec.receivers, 0);
  sh.received.assign(spec.receivers, 0);

  ClusterSetup setup;
  setup.profile = spec.profile;
  setup.firmware = spec.firmware;
  setup.nodes = spec.receivers + 1;
  setup.seed = spec.seed;
  setup.trace = spec.trace;
  setup.profiler = spec.profiler;
  const FanOutOutcome run = run_fan_out(
      setup, [&](host::Cluster& cluster) { sh.cluster = &cluster; },
      [&] { return saturating_sender(sh); },
      [&](std::uint32_t r) { return counting_receiver(sh, r); });

  SaturationResult result;
  result.outcome = run.outcome;
  result.detail = run.detail;
  result.stopped = sh.stopped || (stop && stop->load());
  result.end_us = run.end_us;
  result.faults = run.faults;
  result.retransmissions = run.sender_retransmissions;
  std::sort(sh.receipts.begin(), sh.receipts.end());
  result.messages = sh.receipts.size();
  if (sh.receipts.size() >= 2) {
    const double span_us = static_cast<double>(sh.receipts.back() - sh.receipts.front()) / 1e6;
    result.throughput_mbytes_per_s =
        static_cast<double>(sh.receipts.size() - 1) * spec.message_bytes / span_us;
  }
  for (std::uint32_t r = 0; r < spec.receivers; ++r) {
    result.sent += sh.sent[r];
    result.lost += sh.sent[r] - std::min(sh.sent[r], sh.received[r]);
  }
  result.corrupted = sh.corrupted;
  if (!split_utilisation(sh.utilisation, result.sender, result.receivers) &&
      result.detail.empty() && !result.stopped) {
    result.detail = "the run ended before the measured stretch did";
  }
  return result;
}

} // namespace lanai::bench
