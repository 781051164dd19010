// The jitter experiment's host programs. The sender keeps a schedule of
// every channel's next injection and sleeps until the earliest; posts go
// through one send completion queue that it drains between injections
// where that delays none: reserved channels go out at exactly their
// times, best effort yielding to them. A
// channel whose send ring is full keeps what its source produces on the
// host, in order, and posts it as its sends complete (the host cannot
// inject faster than its NIC takes work, but one channel's backlog holds up
// no other). Each receiver keeps a ring of receives posted per channel,
// reposting as messages complete, and stamps each message when its
// completion reaches the host.
//
// Run control only (never a measurement) uses the memory all nodes share
// in this process: receivers end when every message sent is accounted for,
// or a drain time after the sender has sent everything.
#include "bench/workloads/stream_point.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <deque>
#include <queue>
#include <stdexcept>

#include "emulator/kernel/random_stream.hpp"
#include "hostlib/driver/session.hpp"
#include "vipl_emu.h"
#include "bench/workloads/bench_cluster.hpp"
#include "bench/workloads/device_utilisation.hpp"
#include "bench/workloads/fan_out_run.hpp"
#include "bench/workloads/pingpong.hpp"
#include "bench/workloads/message_pattern.hpp"
#include "bench/workloads/via_endpoint.hpp"

namespace lanai::bench {

namespace {

constexpr std::uint32_t send_ring = 32;      // send descriptors per channel
constexpr std::uint32_t recv_ring = 48;      // receives posted per channel
constexpr std::uint32_t vbr_fragment = 4096; // VBR frames go as messages of at most this
const kernel::SimTime drain = kernel::milliseconds(20);
// Between batches of receives posted at start-up: the slowest firmware takes
// a batch of doorbell_budget receive doorbells in well under this.
const kernel::SimTime kBatchPause = kernel::milliseconds(1);

// What one channel sends: its units (messages or frames) and their sizes.
struct ChannelPlan {
  std::uint32_t max_transfer = 0; // bytes per message at most
  double request_bytes_per_s = 0; // QoS request (0: best effort)
  double interval_ps = 0;         // I, or the mean gap for best effort
};

ChannelPlan plan_of(const ChannelSpec& c) {
  ChannelPlan p;
  switch (c.traffic) {
  case Traffic::cbr:
    p.max_transfer = c.message_bytes;
    p.request_bytes_per_s = c.rate_mbytes_per_s * 1e6;
    p.interval_ps = static_cast<double>(c.message_bytes) * 1e6 / c.rate_mbytes_per_s;
    break;
  case Traffic::vbr:
    p.max_transfer = c.message_bytes ? c.message_bytes : vbr_fragment;
    p.request_bytes_per_s = c.rate_mbytes_per_s * 1e6;
    p.interval_ps = 1e12 / c.frame_rate;
    break;
  case Traffic::best_effort:
    p.max_transfer = c.message_bytes;
    p.interval_ps = static_cast<double>(c.message_bytes) * 1e6 / c.rate_mbytes_per_s;
    break;
  }
  return p;
}

void validate(const StreamPointSpec& spec) {
  if (spec.channels.empty())
    throw std::invalid_argument("stream point: no channels");
  if (spec.channels.size() > 255)
    throw std::invalid_argument("stream point: more than 255 channels");
  if (spec.receivers < 1)
    throw std::invalid_argument("stream point: no receivers");
  if (spec.duration <= kernel::SimTime::zero())
    throw std::invalid_argument("stream point: duration must be positive");
  for (std::size_t i = 0; i < spec.channels.size(); ++i) {
    const ChannelSpec& c = spec.channels[i];
    auto bad = [&](std::string_view what) {
      throw std::invalid_argument(
          fmt::format("stream point: channel {} ({}): {}", i, c.class_name, what));
    };
    if (c.receiver < 1 || c.receiver > spec.receivers)
      bad("receiver outside 1..receivers");
    if (!(c.rate_mbytes_per_s > 0))
      bad("rate must be positive");
    if (c.traffic == Traffic::vbr) {
      if (c.frames.empty() || !(c.frame_rate > 0))
        bad("VBR needs frames and a frame rate");
      if (c.message_bytes > VIA_MAX_TRANSFER)
        bad("fragment size above 65536");
    } else if (c.message_bytes < kStampedMessageBytes || c.message_bytes > VIA_MAX_TRANSFER) {
      bad(fmt::format("message size outside {}..65536", kStampedMessageBytes));
    }
  }
}

// What the nodes share for run control (and results).
struct Shared {
  const StreamPointSpec* spec = nullptr;
  const std::atomic<bool>* stop = nullptr;
  std::vector<ChannelPlan> plans;
  kernel::SimTime start{}; // first injection time (set by the sender)
  bool sender_done = false;
  kernel::SimTime sender_done_at{};
  host::Cluster* cluster = nullptr;
  UtilisationWindow utilisation;             // the engines' work over the measured stretch
  std::vector<std::uint64_t> units_sent;     // per channel, all (incl. warm-up)
  std::vector<std::uint64_t> units_received; // per channel
  // Per channel and unit: send and receipt time (ps); -1 not received.
  std::vector<std::vector<std::int64_t>> sent_at, received_at;
  std::vector<std::uint64_t> corrupted;
  bool stopped = false;
  HostMemory memory;                  // every node's buffers; outlives the cluster
  std::uint32_t doorbell_budget = 48; // receives a node posts at once at most
  bool stop_requested() const { return stop && stop->load(std::memory_order_relaxed); }
};

// The sender's channels on the card: one VI and one ring of send
// descriptors each, all completing through one queue. A channel whose ring
// is full keeps its messages in order on the host: the others go on at
// their own rates (the host does not stall every channel for one).
class SendChannels {
public:
  explicit SendChannels(Shared& sh)
      : sh_(sh), n_(sh.spec->channels.size()), ep_(ring_bytes(sh), sh.memory) {
    check_vip(VipCreateCQ(ep_.nic(), static_cast<VIP_ULONG>(n_ * send_ring), &cq_), "VipCreateCQ");
    vis_.resize(n_);
    ring_.resize(n_);
    std::uint8_t* p = ep_.memory();
    for (std::size_t c = 0; c < n_; ++c) {
      vis_[c] = ep_.create_vi(sh.plans[c].request_bytes_per_s, sh.plans[c].max_transfer, cq_,
                              nullptr, sh.spec->reliability);
      ring_[c] = p;
      p += send_ring * message_slot_bytes(sh.plans[c].max_transfer);
    }
    for (std::size_t c = 0; c < n_; ++c)
      ep_.connect(vis_[c], static_cast<int>(sh.spec->channels[c].receiver),
                  static_cast<std::uint8_t>(c), true);
    waiting_.resize(n_);
    posted_.assign(n_, 0);
    completed_.assign(n_, 0);
    for (std::size_t c = 0; c < n_; ++c)
      channel_of_[vis_[c]] = c;
  }

  // Posts the message now, or keeps it behind the channel's waiting ones.
  void post(std::size_t c, std::uint32_t length, const MessageStamp& s) {
    if (waiting_[c].empty() && posted_[c] - completed_[c] < send_ring) {
      post_now(c, length, s);
      return;
    }
    if (waiting_[c].empty())
      ++channels_waiting_;
    waiting_[c].push_back({length, s});
  }

  // Takes the send completions already there, one at a time while taking
  // one (`cost` of host time, with the post of a message it lets go) still
  // ends by `limit`: the host's next injection is never late for it.
  void reap_before(kernel::SimTime limit, kernel::SimTime cost) {
    VIP_VI_HANDLE vi;
    VIP_BOOLEAN recv;
    while (host_now() + cost <= limit && VipCQDone(cq_, &vi, &recv) == VIP_SUCCESS)
      completed_one(vi);
  }

  // Lets virtual time reach `t`, posting waiting messages as sends
  // complete while handling one (`handling` of host time) still ends by `t`.
  void wait_until(kernel::SimTime t, kernel::SimTime handling) {
    const kernel::SimTime limit = t - handling;
    while (channels_waiting_ > 0 && host_now() < limit) {
      VIP_VI_HANDLE vi;
      VIP_BOOLEAN recv;
      const auto deadline_ns = static_cast<std::uint64_t>(limit.ps() / 1000);
      if (lanai_emu_cq_wait_until(cq_, deadline_ns, &vi, &recv) != VIP_SUCCESS)
        break;
      completed_one(vi);
    }
    host_wait_until(t);
  }

  // Everything the sources produced goes out, however long it waited; the
  // posted sends finish before the program (and its memory) ends. A card
  // that stops completing ends the wait: what it lost is counted.
  void drain_all() {
    for (std::size_t c = 0; c < n_; ++c)
      while (completed_[c] < posted_[c] || !waiting_[c].empty()) {
        VIP_VI_HANDLE vi;
        VIP_BOOLEAN recv;
        if (VipCQWait(cq_, 50, &vi, &recv) != VIP_SUCCESS)
          break;
        completed_one(vi);
      }
  }

private:
  // A message waiting on the host for room in its channel's send ring.
  struct Waiting {
    std::uint32_t length;
    MessageStamp stamp;
  };

  static std::size_t ring_bytes(const Shared& sh) {
    std::size_t bytes = 0;
    for (const ChannelPlan& p : sh.plans)
      bytes += send_ring * message_slot_bytes(p.max_transfer);
    return bytes;
  }

  void post_now(std::size_t c, std::uint32_t length, const MessageStamp& s) {
    const std::size_t slot = posted_[c] % send_ring;
    auto* d = reinterpret_cast<VIP_DESCRIPTOR*>(
        ring_[c] + slot * message_slot_bytes(sh_.plans[c].max_transfer));
    std::uint8_t* buf = reinterpret_cast<std::uint8_t*>(d) + 64;
    write_message(buf, length, s);
    fill_descriptor(d, ep_, buf, length);
    check_vip(VipPostSend(vis_[c], d, ep_.memory_handle()), "VipPostSend");
    ++posted_[c];
  }

  void completed_one(VIP_VI_HANDLE vi) {
    VIP_DESCRIPTOR* d = nullptr;
    check_vip(VipSendDone(vi, &d), "VipSendDone");
    if (d->CS.Status & VIP_STATUS_ERROR_MASK)
      throw std::runtime_error(fmt::format("send completed with status 0x{:x}", d->CS.Status));
    const std::size_t c = channel_of_.at(vi);
    ++completed_[c];
    if (waiting_[c].empty())
      return;
    post_now(c, waiting_[c].front().length, waiting_[c].front().stamp);
    waiting_[c].pop_front();
    if (waiting_[c].empty())
      --channels_waiting_;
  }

  Shared& sh_;
  std::size_t n_;
  Endpoint ep_;
  VIP_CQ_HANDLE cq_ = nullptr;
  std::vector<VIP_VI_HANDLE> vis_;
  std::vector<std::uint8_t*> ring_;
  std::vector<std::deque<Waiting>> waiting_;
  std::vector<std::uint32_t> posted_, completed_;
  std::size_t channels_waiting_ = 0; // channels with messages waiting on the host
  std::map<VIP_VI_HANDLE, std::size_t> channel_of_;
};

// Posts unit `u` of channel `c`: one message, or a VBR frame's fragments.
void send_unit(SendChannels& channels, const ChannelSpec& ch, const ChannelPlan& plan,
               std::size_t c, std::uint32_t u) {
  if (ch.traffic == Traffic::vbr) {
    const std::uint32_t frame = ch.frames[u % ch.frames.size()];
    const std::uint32_t frag = plan.max_transfer;
    const std::uint32_t count = std::max<std::uint32_t>(1, (frame + frag - 1) / frag);
    for (std::uint32_t f = 0; f < count; ++f) {
      const std::uint32_t length = std::max<std::uint32_t>(
          kStampedMessageBytes, f + 1 < count ? frag : frame - frag * (count - 1));
      channels.post(c, length, MessageStamp{static_cast<std::uint32_t>(c), u, f, count});
    }
  } else {
    channels.post(c, ch.message_bytes, MessageStamp{static_cast<std::uint32_t>(c), u, 0, 1});
  }
}

// Every channel's next injection, earliest first: CBR and VBR channels at
// their interval from a random phase (unsynchronised channels), best
// effort at exponential gaps.
class InjectionSchedule {
public:
  InjectionSchedule(const Shared& sh, kernel::RandomStream& rng)
      : sh_(sh), rng_(rng), phase_(sh.plans.size()), unit_(sh.plans.size(), 0),
        be_clock_(sh.plans.size(), 0) {
    for (std::size_t c = 0; c < sh.plans.size(); ++c) {
      phase_[c] = rng_.uniform_double() * sh.plans[c].interval_ps;
      next_.emplace(sh.start.ps() + static_cast<std::int64_t>(phase_[c]), c);
    }
  }

  bool empty() const { return next_.empty(); }
  // The earliest injection: its time (ps) and channel.
  std::pair<std::int64_t, std::size_t> take() {
    const auto top = next_.top();
    next_.pop();
    return top;
  }
  // The earliest injection, left in place (the schedule must not be empty).
  std::pair<std::int64_t, std::size_t> peek() const { return next_.top(); }
  // Numbers channel c's next unit.
  std::uint32_t next_unit(std::size_t c) { return unit_[c]++; }
  std::uint32_t units(std::size_t c) const { return unit_[c]; }
  // Schedules channel c's next unit after the one just numbered.
  void schedule_next(std::size_t c) {
    const ChannelSpec& ch = sh_.spec->channels[c];
    double gap = sh_.plans[c].interval_ps;
    if (ch.traffic == Traffic::best_effort)
      gap = rng_.exponential(sh_.plans[c].interval_ps);
    if (ch.traffic == Traffic::best_effort) {
      be_clock_[c] += gap;
      next_.emplace(sh_.start.ps() + static_cast<std::int64_t>(phase_[c] + be_clock_[c]), c);
    } else {
      next_.emplace(
          sh_.start.ps() + static_cast<std::int64_t>(std::llround(phase_[c] + unit_[c] * gap)), c);
    }
  }

private:
  using Next = std::pair<std::int64_t, std::size_t>;
  const Shared& sh_;
  kernel::RandomStream& rng_;
  std::priority_queue<Next, std::vector<Next>, std::greater<>> next_;
  std::vector<double> phase_;
  std::vector<std::uint32_t> unit_;
  std::vector<double> be_clock_;
};

int sender(Shared& sh) {
  const StreamPointSpec& spec = *sh.spec;
  SendChannels channels(sh);
  kernel::RandomStream rng(spec.seed, "stream_point.sender");
  sh.start = host_now() + kernel::microseconds(100);
  InjectionSchedule schedule(sh, rng);
  const std::int64_t measure_from = (sh.start + spec.warmup).ps();
  const std::int64_t end = (sh.start + spec.warmup + spec.duration).ps();
  sh.utilisation.schedule(*sh.cluster, kernel::SimTime::from_ps(measure_from),
                          kernel::SimTime::from_ps(end));
  // Reserved channels are injected at exactly their times: a best-effort
  // post that would still hold the CPU when a reserved one is due goes
  // after it, and completions are taken only where they delay no
  // injection. Best effort loses at most a post's time, and its messages
  // count from when the source produced them.
  const profile::HostParams& host = spec.profile.host;
  const kernel::SimTime post_cost =
      kernel::nanoseconds(host.call_ns + host.post_ns + host.pio_write_ns);
  const kernel::SimTime reap_cost = kernel::nanoseconds(2 * (host.call_ns + host.poll_ns));
  auto reserved = [&](std::size_t c) { return spec.channels[c].traffic != Traffic::best_effort; };
  auto inject = [&](std::int64_t at, std::size_t c) {
    channels.wait_until(kernel::SimTime::from_ps(at), reap_cost + post_cost);
    const std::uint32_t u = schedule.next_unit(c);
    sh.sent_at[c].push_back(at >= measure_from ? at : -2);
    sh.received_at[c].push_back(-1);
    send_unit(channels, spec.channels[c], sh.plans[c], c, u);
    sh.units_sent[c] = schedule.units(c);
    schedule.schedule_next(c);
  };
  while (!schedule.empty()) {
    const auto [at, c] = schedule.take();
    if (at >= end)
      continue;
    if (sh.stop_requested()) {
      sh.stopped = true;
      break;
    }
    if (!reserved(c) && !schedule.empty()) {
      const auto [next_at, next_c] = schedule.peek();
      if (reserved(next_c) && next_at < end && next_at < at + post_cost.ps()) {
        schedule.take();
        inject(next_at, next_c);
      }
    }
    inject(at, c);
    if (!schedule.empty())
      channels.reap_before(kernel::SimTime::from_ps(schedule.peek().first), reap_cost + post_cost);
  }
  channels.drain_all();
  sh.sender_done = true;
  sh.sender_done_at = host_now();
  return 0;
}

int receiver(Shared& sh, std::uint32_t me) {
  const StreamPointSpec& spec = *sh.spec;
  std::vector<std::size_t> mine;
  for (std::size_t c = 0; c < spec.channels.size(); ++c)
    if (spec.channels[c].receiver == me)
      mine.push_back(c);
  if (mine.empty())
    return 0;
  std::size_t bytes = 0;
  for (std::size_t c : mine)
    bytes += recv_ring * message_slot_bytes(sh.plans[c].max_transfer);
  Endpoint ep(bytes, sh.memory);
  VIP_CQ_HANDLE cq = nullptr;
  check_vip(VipCreateCQ(ep.nic(), static_cast<VIP_ULONG>(mine.size() * recv_ring), &cq),
            "VipCreateCQ");
  // Receives posted per channel. A CBR or best-effort channel has one
  // message per unit: within the node's doorbell budget, but at least two.
  // A VBR frame goes as dozens of messages back to back, so a VBR channel
  // keeps recv_ring posted: more than the sender ever has in flight on it
  // (send_ring), with room for the time a completed receive takes to be
  // posted again. VIA drops a message that finds no receive waiting and
  // reports an error. With many channels that is more doorbells than the
  // FIFO holds, so they go in batches of the budget with a pause between,
  // long enough for the slowest firmware to drain a batch (VIA has no flow
  // control to ask).
  static_assert(recv_ring >= send_ring + 16, "receives outnumber the sends in flight");
  const std::uint32_t shared_depth = std::clamp<std::uint32_t>(
      sh.doorbell_budget / static_cast<std::uint32_t>(mine.size()), 2, recv_ring);
  auto depth_of = [&](std::size_t c) {
    return spec.channels[c].traffic == Traffic::vbr ? recv_ring : shared_depth;
  };
  std::uint32_t batch = 0;
  std::map<VIP_VI_HANDLE, std::size_t> channel_of;
  std::vector<VIP_VI_HANDLE> vis;
  std::uint8_t* p = ep.memory();
  for (std::size_t c : mine) {
    VIP_VI_HANDLE vi = ep.create_vi(sh.plans[c].request_bytes_per_s, sh.plans[c].max_transfer,
                                    nullptr, cq, spec.reliability);
    for (std::uint32_t i = 0, depth = depth_of(c); i < depth; ++i) {
      auto* d =
          reinterpret_cast<VIP_DESCRIPTOR*>(p + i * message_slot_bytes(sh.plans[c].max_transfer));
      fill_descriptor(d, ep, reinterpret_cast<std::uint8_t*>(d) + 64, sh.plans[c].max_transfer);
      check_vip(VipPostRecv(vi, d, ep.memory_handle()), "VipPostRecv");
      if (++batch == sh.doorbell_budget) {
        host_wait_until(host_now() + kBatchPause);
        batch = 0;
      }
    }
    p += recv_ring * message_slot_bytes(sh.plans[c].max_transfer);
    channel_of[vi] = c;
    vis.push_back(vi);
  }
  for (std::size_t i = 0; i < mine.size(); ++i)
    ep.connect(vis[i], 0, static_cast<std::uint8_t>(mine[i]), false);

  auto all_in = [&] {
    for (std::size_t c : mine)
      if (sh.units_received[c] < sh.units_sent[c])
        return false;
    return true;
  };
  for (;;) {
    if (sh.stop_requested())
      return 0;
    if (sh.sender_done && (all_in() || host_now() > sh.sender_done_at + drain))
      return 0;
    VIP_VI_HANDLE vi;
    VIP_BOOLEAN recv;
    const VIP_RETURN r = VipCQWait(cq, 1, &vi, &recv);
    if (r == VIP_TIMEOUT)
      continue;
    check_vip(r, "VipCQWait");
    VIP_DESCRIPTOR* d = nullptr;
    check_vip(VipRecvDone(vi, &d), "VipRecvDone");
    const std::size_t c = channel_of.at(vi);
    MessageStamp s{};
    const auto* buf = static_cast<const std::uint8_t*>(d->DS[0].Local.Data.Address);
    if ((d->CS.Status & VIP_STATUS_ERROR_MASK) || !check_message(buf, d->CS.Length, s) ||
        s.channel != c || s.unit >= sh.received_at[c].size()) {
      ++sh.corrupted[c];
    } else if (s.fragment + 1 == s.fragments) {
      // A unit is received when its last fragment is.
      sh.received_at[c][s.unit] = host_now().ps();
      sh.units_received[c] = std::max<std::uint64_t>(sh.units_received[c], s.unit + 1);
    }
    fill_descriptor(d, ep, d->DS[0].Local.Data.Address, sh.plans[c].max_transfer);
    check_vip(VipPostRecv(vi, d, ep.memory_handle()), "VipPostRecv");
  }
}

} // namespace

StreamPointResult run_stream_point(const StreamPointSpec& spec, const std::atomic<bool>* stop) {
  validate(spec);
  Shared sh;
  sh.spec = &spec;
  sh.stop = stop;
  const std::size_t n = spec.channels.size();
  for (const ChannelSpec& c : spec.channels)
    sh.plans.push_back(plan_of(c));
  sh.units_sent.assign(n, 0);
  sh.units_received.assign(n, 0);
  sh.sent_at.assign(n, {});
  sh.received_at.assign(n, {});
  sh.corrupted.assign(n, 0);
  // A node never has more posts outstanding than three quarters of the
  // doorbell queue: a post finding it full waits for room (vipl_post.cpp),
  // which would make the host's timing the card's rather than the traffic's.
  sh.doorbell_budget = std::max<std::uint32_t>(4, spec.profile.nic.doorbell_entries * 3 / 4);

  ClusterSetup setup;
  setup.profile = spec.profile;
  setup.firmware = spec.firmware;
  setup.nodes = spec.receivers + 1;
  setup.seed = spec.seed;
  setup.trace = spec.trace;
  setup.profiler = spec.profiler;
  // Receivers wake every millisecond, so an idle stretch is not a deadlock.
  const FanOutOutcome run = run_fan_out(
      setup, [&](host::Cluster& cluster) { sh.cluster = &cluster; }, [&] { return sender(sh); },
      [&](std::uint32_t r) { return receiver(sh, r); });

  StreamPointResult result;
  result.outcome = run.outcome;
  result.detail = run.detail;
  result.stopped = sh.stopped || (stop && stop->load());
  result.end_us = run.end_us;
  result.faults = run.faults;
  split_utilisation(sh.utilisation, result.sender, result.receivers);
  for (std::size_t c = 0; c < n; ++c) {
    ChannelResult cr;
    cr.interval_ps = spec.channels[c].traffic == Traffic::best_effort ? 0 : sh.plans[c].interval_ps;
    for (std::size_t u = 0; u < sh.sent_at[c].size(); ++u) {
      if (sh.sent_at[c][u] < 0)
        continue; // warm-up
      cr.sent_ps.push_back(sh.sent_at[c][u]);
      cr.received_ps.push_back(sh.received_at[c][u]);
      if (sh.received_at[c][u] < 0)
        ++cr.lost;
    }
    cr.corrupted = sh.corrupted[c];
    result.channels.push_back(std::move(cr));
  }
  return result;
}

} // namespace lanai::bench
