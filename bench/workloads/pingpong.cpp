#include "bench/workloads/pingpong.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "bench/metrics/latency_summary.hpp"
#include "hostlib/driver/session.hpp"
#include "bench/workloads/via_endpoint.hpp"

namespace lanai::bench {

namespace {

std::uint8_t pattern(std::uint32_t round, std::uint32_t k) {
  return static_cast<std::uint8_t>(round * 131u + k * 7u + 1u);
}

VIP_DESCRIPTOR* wait_done(VIP_VI_HANDLE vi, bool recv, std::uint32_t bytes) {
  VIP_DESCRIPTOR* d = nullptr;
  check_vip(recv ? VipRecvWait(vi, VIP_INFINITE, &d) : VipSendWait(vi, VIP_INFINITE, &d),
            recv ? "VipRecvWait" : "VipSendWait");
  const VIP_UINT32 want = VIP_STATUS_DONE | (recv ? VIP_STATUS_OP_RECEIVE : VIP_STATUS_OP_SEND);
  if (d->CS.Status != want || d->CS.Length != bytes)
    throw std::runtime_error(fmt::format("{} completed with status 0x{:x}, length {}",
                                         recv ? "receive" : "send", d->CS.Status, d->CS.Length));
  return d;
}

void charge(const HostCopy& copy, std::uint32_t bytes) {
  const double us = copy.g_us + copy.G_us_per_kb * bytes / 1024.0;
  const auto ns = static_cast<std::uint64_t>(std::llround(us * 1000.0));
  if (ns > 0)
    lanai_emu_compute_ns(ns);
}

// Sets of receive descriptors in use at once: a round's and up to two later
// rounds' posted ahead.
constexpr std::uint32_t kReceiveSets = 3;

// One side's memory: a send descriptor per fragment, kReceiveSets sets of
// receive descriptors, then the two message buffers.
struct Side {
  Side(const PingPongSpec& spec, HostMemory& memory)
      : fragments(host_fragment_sizes(spec.size, spec.host_fragments)),
        ep(descriptor_bytes() + 2 * (std::size_t{spec.size} + 64), memory), size(spec.size) {
    for (std::uint32_t bytes : fragments)
      offsets.push_back(offsets.back() + bytes);
  }
  std::vector<std::uint32_t> fragments;
  std::vector<std::uint32_t> offsets{0};
  std::size_t descriptor_bytes() const { return 64 * (1 + kReceiveSets) * fragments.size(); }
  Endpoint ep;
  std::uint32_t size;
  VIP_DESCRIPTOR* sd(std::size_t i = 0) const {
    return reinterpret_cast<VIP_DESCRIPTOR*>(ep.memory() + 64 * i);
  }
  // Receive descriptor i of `round`: rounds take the sets in turn.
  VIP_DESCRIPTOR* rd(std::size_t i = 0, std::uint32_t round = 0) const {
    return reinterpret_cast<VIP_DESCRIPTOR*>(
        ep.memory() + 64 * ((1 + round % kReceiveSets) * fragments.size() + i));
  }
  std::uint8_t* sbuf() const { return ep.memory() + descriptor_bytes(); }
  std::uint8_t* rbuf() const { return sbuf() + size + 64; }
  void post(VIP_VI_HANDLE vi, bool recv, std::size_t i, std::uint32_t round = 0) {
    VIP_DESCRIPTOR* d = recv ? rd(i, round) : sd(i);
    fill_descriptor(d, ep, (recv ? rbuf() : sbuf()) + offsets[i], fragments[i]);
    check_vip(recv ? VipPostRecv(vi, d, ep.memory_handle())
                   : VipPostSend(vi, d, ep.memory_handle()),
              recv ? "VipPostRecv" : "VipPostSend");
  }
  void post_receives(VIP_VI_HANDLE vi, std::uint32_t round) {
    for (std::size_t i = 0; i < fragments.size(); ++i)
      post(vi, true, i, round);
  }
  // Each fragment's host work, then its send.
  void send(VIP_VI_HANDLE vi, const HostCopy& copy) {
    for (std::size_t i = 0; i < fragments.size(); ++i) {
      charge(copy, fragments[i]);
      post(vi, false, i);
    }
  }
  // Each fragment's arrival, then its host work; `arrivals`, if given, gets
  // when each was done, in us from `start`.
  void receive(VIP_VI_HANDLE vi, const HostCopy& copy, std::vector<double>* arrivals = nullptr,
               kernel::SimTime start = {}) {
    for (std::uint32_t bytes : fragments) {
      wait_done(vi, true, bytes);
      charge(copy, bytes);
      if (arrivals)
        arrivals->push_back(static_cast<double>((host_now() - start).ps()) / 1e6);
    }
  }
  void sends_done(VIP_VI_HANDLE vi) {
    for (std::uint32_t bytes : fragments)
      wait_done(vi, false, bytes);
  }
  MessageBuffers sending() const {
    return {static_cast<std::uint32_t>(ep.node()),
            {reinterpret_cast<std::uint64_t>(sd())},
            reinterpret_cast<std::uint64_t>(sbuf()),
            size};
  }
  MessageBuffers receiving() const {
    std::vector<std::uint64_t> descriptors;
    for (std::uint32_t round = 0; round < kReceiveSets; ++round)
      descriptors.push_back(reinterpret_cast<std::uint64_t>(rd(0, round)));
    return {static_cast<std::uint32_t>(ep.node()), descriptors,
            reinterpret_cast<std::uint64_t>(rbuf()), size};
  }
};

} // namespace

const char* receive_posting_name(ReceivePosting posting) {
  return posting == ReceivePosting::ahead ? "ahead" : "on-arrival";
}

ReceivePosting parse_receive_posting(std::string_view name) {
  for (const ReceivePosting p : {ReceivePosting::on_arrival, ReceivePosting::ahead})
    if (name == receive_posting_name(p))
      return p;
  throw std::invalid_argument(
      fmt::format("receive posting '{}': expected on-arrival or ahead", name));
}

std::string describe_failure(host::Cluster& cluster, const host::RunReport& report) {
  switch (report.outcome) {
  case host::RunOutcome::deadlock:
    return "deadlock: " + report.detail;
  case host::RunOutcome::firmware_stop:
    return "firmware stopped: " + report.detail;
  case host::RunOutcome::time_limit:
    return "time limit reached";
  case host::RunOutcome::finished:
    break;
  }
  std::string out;
  for (std::size_t node = 0; node < report.exit_codes.size(); ++node) {
    const std::string& why = cluster.host(node).failure();
    if (report.exit_codes[node] == 0 && why.empty())
      continue;
    out += fmt::format("{}node {}: {}", out.empty() ? "" : "; ", node,
                       why.empty() ? fmt::format("returned {}", report.exit_codes[node]) : why);
  }
  return out;
}

std::vector<std::uint32_t> host_fragment_sizes(std::uint32_t bytes, std::uint32_t k) {
  if (k < 1 || k > bytes || k > kMaxHostFragments)
    throw std::invalid_argument(fmt::format("{} host fragments of a {}-byte message: outside 1..{}",
                                            k, bytes, std::min(bytes, kMaxHostFragments)));
  std::vector<std::uint32_t> out(k, bytes / k);
  for (std::uint32_t i = 0; i < bytes % k; ++i)
    ++out[i];
  return out;
}

PingPongResult run_pingpong(const PingPongSpec& spec) {
  if (spec.size < 1 || spec.size > VIA_MAX_TRANSFER)
    throw std::invalid_argument(
        fmt::format("message size {} outside 1..{}", spec.size, VIA_MAX_TRANSFER));
  if (spec.iters == 0)
    throw std::invalid_argument("iterations must be at least 1");
  host_fragment_sizes(spec.size, spec.host_fragments); // checks the count
  const std::uint32_t posted_at_once =
      (spec.receives == ReceivePosting::ahead ? kReceiveSets : 1) * spec.host_fragments;
  if (posted_at_once > VIA_QUEUE_DEPTH)
    throw std::invalid_argument(fmt::format(
        "{} host fragments with receives posted {} need {} receives posted at once; a VI holds {}",
        spec.host_fragments, receive_posting_name(spec.receives), posted_at_once, VIA_QUEUE_DEPTH));
  if (spec.breakdown && spec.host_fragments > 1)
    throw std::invalid_argument("the latency breakdown follows whole messages: one host fragment");
  trace::Recorder own;
  trace::Recorder* recorder = spec.trace ? spec.trace : (spec.breakdown ? &own : nullptr);
  // A shared recorder may hold earlier runs, whose clocks also started at 0.
  const std::size_t first_event = recorder ? recorder->events().size() : 0;
  ClusterSetup setup = spec.setup;
  setup.nodes = 2;
  setup.trace = recorder;
  setup.profiler = spec.profiler;
  HostMemory memory; // outlives the cluster
  host::Cluster cluster(cluster_config(setup));

  PingPongResult result;
  MessageBuffers ping_sent, ping_received;
  const std::uint32_t rounds = spec.warmup + spec.iters;
  auto program = [&](int me) {
    Side side(spec, memory);
    VIP_VI_HANDLE vi = side.ep.create_vi(0, VIA_MAX_TRANSFER, nullptr, nullptr, spec.reliability);
    if (lanai_emu_set_fragmentation(vi, &spec.fragmentation) != VIP_SUCCESS)
      throw std::runtime_error(
          fmt::format("lanai_emu_set_fragmentation: {}", lanai_emu_last_error()));
    // Receives may be posted before connecting.
    const bool ahead = spec.receives == ReceivePosting::ahead;
    side.post_receives(vi, 0);
    if (ahead && rounds > 1)
      side.post_receives(vi, 1);
    // The receive of round r + 2 (ahead) or r + 1 (on arrival), if any.
    auto post_next = [&](std::uint32_t round) {
      const std::uint32_t next = round + (ahead ? 2 : 1);
      if (next < rounds)
        side.post_receives(vi, next);
    };
    side.ep.connect(vi, 1 - me, 0, me == 0);
    if (me == 0)
      ping_sent = side.sending();
    else
      ping_received = side.receiving();
    for (std::uint32_t round = 0; round < rounds; ++round) {
      if (me == 0) {
        for (std::uint32_t k = 0; k < spec.size; ++k)
          side.sbuf()[k] = pattern(round, k);
        const kernel::SimTime start = host_now();
        side.send(vi, spec.send_copy);
        if (ahead) {
          side.sends_done(vi);
          post_next(round);
        }
        side.receive(vi, spec.recv_copy, round + 1 < rounds ? nullptr : &result.pong_arrivals_us,
                     start);
        const kernel::SimTime back = host_now();
        if (std::memcmp(side.sbuf(), side.rbuf(), spec.size) != 0)
          throw std::runtime_error(
              fmt::format("round trip {}: the bytes came back changed", round));
        if (round >= spec.warmup)
          result.one_way_us.push_back(static_cast<double>((back - start).ps()) / 2e6);
        if (!ahead) {
          post_next(round);
          side.sends_done(vi);
        }
      } else {
        side.receive(vi, spec.recv_copy);
        std::memcpy(side.sbuf(), side.rbuf(), spec.size);
        if (!ahead)
          post_next(round);
        side.send(vi, spec.send_copy);
        side.sends_done(vi);
        if (ahead)
          post_next(round);
      }
    }
    return 0;
  };
  result.report =
      vipl::run_programs(cluster, {[&] { return program(0); }, [&] { return program(1); }});
  result.failure = describe_failure(cluster, result.report);
  if (result.ok() && spec.breakdown)
    result.breakdown = ping_breakdown(std::span(recorder->events()).subspan(first_event), ping_sent,
                                      ping_received, spec.warmup);
  return result;
}

std::optional<double> median_one_way_us(const PingPongSpec& spec, std::string& failure) {
  try {
    const PingPongResult r = run_pingpong(spec);
    if (r.ok())
      return summarize(r.one_way_us).median;
    failure = r.failure;
  } catch (const std::exception& e) {
    failure = e.what();
  }
  return std::nullopt;
}

} // namespace lanai::bench
