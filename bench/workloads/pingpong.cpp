#include "workloads/pingpong.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "session.hpp"
#include "workloads/via_endpoint.hpp"

namespace lanai::bench {

namespace {

std::uint8_t pattern(std::uint32_t round, std::uint32_t k) {
  return static_cast<std::uint8_t>(round * 131u + k * 7u + 1u);
}

VIP_DESCRIPTOR* wait_done(VIP_VI_HANDLE vi, bool recv, std::uint32_t size) {
  VIP_DESCRIPTOR* d = nullptr;
  check_vip(recv ? VipRecvWait(vi, VIP_INFINITE, &d) : VipSendWait(vi, VIP_INFINITE, &d),
            recv ? "VipRecvWait" : "VipSendWait");
  const VIP_UINT32 want = VIP_STATUS_DONE | (recv ? VIP_STATUS_OP_RECEIVE : VIP_STATUS_OP_SEND);
  if (d->CS.Status != want || d->CS.Length != size)
    throw std::runtime_error(fmt::format("{} completed with status 0x{:x}, length {}",
                                         recv ? "receive" : "send", d->CS.Status, d->CS.Length));
  return d;
}

// One side's memory: send and receive descriptors, then the two buffers.
struct Side {
  Side(std::uint32_t size, HostMemory& memory)
      : ep(128 + 2 * (std::size_t{size} + 64), memory), size(size) {}
  Endpoint ep;
  std::uint32_t size;
  VIP_DESCRIPTOR* sd() const { return reinterpret_cast<VIP_DESCRIPTOR*>(ep.memory()); }
  VIP_DESCRIPTOR* rd() const { return reinterpret_cast<VIP_DESCRIPTOR*>(ep.memory() + 64); }
  std::uint8_t* sbuf() const { return ep.memory() + 128; }
  std::uint8_t* rbuf() const { return sbuf() + size + 64; }
  void post(VIP_VI_HANDLE vi, bool recv) {
    VIP_DESCRIPTOR* d = recv ? rd() : sd();
    fill_descriptor(d, ep, recv ? rbuf() : sbuf(), size);
    check_vip(recv ? VipPostRecv(vi, d, ep.memory_handle()) : VipPostSend(vi, d, ep.memory_handle()),
              recv ? "VipPostRecv" : "VipPostSend");
  }
  MessageBuffers sending() const {
    return {static_cast<std::uint32_t>(ep.node()), reinterpret_cast<std::uint64_t>(sd()),
            reinterpret_cast<std::uint64_t>(sbuf()), size};
  }
  MessageBuffers receiving() const {
    return {static_cast<std::uint32_t>(ep.node()), reinterpret_cast<std::uint64_t>(rd()),
            reinterpret_cast<std::uint64_t>(rbuf()), size};
  }
};

} // namespace

std::string describe_failure(host::Cluster& cluster, const host::RunReport& report) {
  switch (report.outcome) {
  case host::RunOutcome::deadlock: return "deadlock: " + report.detail;
  case host::RunOutcome::firmware_stop: return "firmware stopped: " + report.detail;
  case host::RunOutcome::time_limit: return "time limit reached";
  case host::RunOutcome::finished: break;
  }
  std::string out;
  for (std::size_t node = 0; node < report.exit_codes.size(); ++node) {
    const std::string& why = cluster.host(node).failure();
    if (report.exit_codes[node] == 0 && why.empty()) continue;
    out += fmt::format("{}node {}: {}", out.empty() ? "" : "; ", node,
                       why.empty() ? fmt::format("returned {}", report.exit_codes[node]) : why);
  }
  return out;
}

PingPongResult run_pingpong(const PingPongSpec& spec) {
  if (spec.size < 1 || spec.size > VIA_MAX_TRANSFER)
    throw std::invalid_argument(
        fmt::format("message size {} outside 1..{}", spec.size, VIA_MAX_TRANSFER));
  if (spec.iters == 0) throw std::invalid_argument("iterations must be at least 1");
  trace::Recorder own;
  trace::Recorder* recorder = spec.trace ? spec.trace : (spec.breakdown ? &own : nullptr);
  ClusterSetup setup = spec.setup;
  setup.nodes = 2;
  setup.trace = recorder;
  HostMemory memory; // outlives the cluster
  host::Cluster cluster(cluster_config(setup));

  PingPongResult result;
  MessageBuffers ping_sent, ping_received;
  const std::uint32_t rounds = spec.warmup + spec.iters;
  auto program = [&](int me) {
    Side side(spec.size, memory);
    VIP_VI_HANDLE vi = side.ep.create_vi(0, VIA_MAX_TRANSFER);
    side.post(vi, true); // receives may be posted before connecting
    side.ep.connect(vi, 1 - me, 0, me == 0);
    if (me == 0) ping_sent = side.sending();
    else ping_received = side.receiving();
    for (std::uint32_t round = 0; round < rounds; ++round) {
      if (me == 0) {
        for (std::uint32_t k = 0; k < spec.size; ++k) side.sbuf()[k] = pattern(round, k);
        const kernel::SimTime start = host_now();
        side.post(vi, false);
        wait_done(vi, true, spec.size);
        const kernel::SimTime back = host_now();
        if (std::memcmp(side.sbuf(), side.rbuf(), spec.size) != 0)
          throw std::runtime_error(fmt::format("round trip {}: the bytes came back changed", round));
        if (round >= spec.warmup)
          result.one_way_us.push_back(static_cast<double>((back - start).ps()) / 2e6);
        if (round + 1 < rounds) side.post(vi, true);
        wait_done(vi, false, spec.size);
      } else {
        wait_done(vi, true, spec.size);
        std::memcpy(side.sbuf(), side.rbuf(), spec.size);
        if (round + 1 < rounds) side.post(vi, true);
        side.post(vi, false);
        wait_done(vi, false, spec.size);
      }
    }
    return 0;
  };
  result.report = vipl::run_programs(cluster, {[&] { return program(0); }, [&] { return program(1); }});
  result.failure = describe_failure(cluster, result.report);
  if (result.ok() && spec.breakdown)
    result.breakdown = ping_breakdown(recorder->events(), ping_sent, ping_received, spec.warmup);
  return result;
}

} // namespace lanai::bench
