#include "bench/workloads/pingbulk.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include "hostlib/driver/session.hpp"
#include "bench/workloads/pingpong.hpp"
#include "bench/workloads/via_endpoint.hpp"

namespace lanai::bench {

namespace {

std::uint8_t pattern(std::uint32_t round, std::uint32_t i, std::uint32_t k) {
  return static_cast<std::uint8_t>(round * 13u + i * 101u + k * 7u + 3u);
}

// One node's slots: W send and W receive descriptors with their buffers.
struct Slots {
  Slots(std::uint32_t window, std::uint32_t size, HostMemory& memory)
      : stride(64 + (std::size_t{size} + 63) / 64 * 64), window(window), size(size),
        ep(2 * window * stride, memory) {}
  std::size_t stride;
  std::uint32_t window, size;
  Endpoint ep;
  VIP_DESCRIPTOR* desc(bool recv, std::uint32_t i) const {
    return reinterpret_cast<VIP_DESCRIPTOR*>(ep.memory() + ((recv ? window : 0) + i) * stride);
  }
  std::uint8_t* buf(bool recv, std::uint32_t i) const {
    return reinterpret_cast<std::uint8_t*>(desc(recv, i)) + 64;
  }
  void post(VIP_VI_HANDLE vi, bool recv, std::uint32_t i) {
    VIP_DESCRIPTOR* d = desc(recv, i);
    fill_descriptor(d, ep, buf(recv, i), size);
    check_vip(recv ? VipPostRecv(vi, d, ep.memory_handle())
                   : VipPostSend(vi, d, ep.memory_handle()),
              recv ? "VipPostRecv" : "VipPostSend");
  }
  // Waits for the queue's oldest descriptor; returns it.
  VIP_DESCRIPTOR* wait(VIP_VI_HANDLE vi, bool recv) const {
    VIP_DESCRIPTOR* d = nullptr;
    check_vip(recv ? VipRecvWait(vi, VIP_INFINITE, &d) : VipSendWait(vi, VIP_INFINITE, &d),
              recv ? "VipRecvWait" : "VipSendWait");
    if ((d->CS.Status & VIP_STATUS_ERROR_MASK) || d->CS.Length != size)
      throw std::runtime_error(fmt::format("{} completed with status 0x{:x}, length {}",
                                           recv ? "receive" : "send", d->CS.Status, d->CS.Length));
    return d;
  }
};

// Node 1 under flow control: `depth` receives stay posted, each posted
// again as it is taken (its bytes copied to the send that echoes them)
// while more messages are to come than are posted.
struct Reposting {
  std::uint32_t depth;
  std::uint64_t to_come; // messages of the whole run not yet received
  std::uint64_t posted;  // receives posted and not yet taken
  std::uint32_t next = 0;
  void take(Slots& s, VIP_VI_HANDLE in, std::uint32_t i) {
    const std::uint32_t slot = next;
    if (s.wait(in, true) != s.desc(true, slot))
      throw std::runtime_error("a receive completed out of order");
    next = (next + 1) % depth;
    std::memcpy(s.buf(false, i), s.buf(true, slot), s.size);
    --to_come;
    --posted;
    if (to_come > posted) {
      s.post(in, true, slot);
      ++posted;
    }
  }
};

} // namespace

PingBulkResult run_pingbulk(const PingBulkSpec& spec) {
  if (spec.size < 1 || spec.size > VIA_MAX_TRANSFER)
    throw std::invalid_argument(
        fmt::format("message size {} outside 1..{}", spec.size, VIA_MAX_TRANSFER));
  if (spec.window < 1 || spec.window > VIA_QUEUE_DEPTH)
    throw std::invalid_argument(
        fmt::format("window {} outside 1..{}", spec.window, VIA_QUEUE_DEPTH));
  if (spec.recv_depth > VIA_QUEUE_DEPTH)
    throw std::invalid_argument(
        fmt::format("receive depth {} above {}", spec.recv_depth, VIA_QUEUE_DEPTH));
  if (spec.rounds == 0)
    throw std::invalid_argument("rounds must be at least 1");
  const std::uint32_t depth =
      spec.recv_depth ? std::min(spec.recv_depth, spec.window) : spec.window;
  ClusterSetup setup = spec.setup;
  setup.nodes = 2;
  HostMemory memory; // outlives the cluster
  host::Cluster cluster(cluster_config(setup));
  const std::uint32_t rounds = spec.warmup + spec.rounds;
  const std::uint32_t w = spec.window;
  kernel::SimTime timed{};
  auto program = [&](int me) {
    Slots s(w, spec.size, memory);
    // VI 0 carries node 0's windows, VI 1 node 1's.
    VIP_VI_HANDLE out = s.ep.create_vi(0, VIA_MAX_TRANSFER, nullptr, nullptr, spec.reliability);
    VIP_VI_HANDLE in = s.ep.create_vi(0, VIA_MAX_TRANSFER, nullptr, nullptr, spec.reliability);
    if (spec.flow_control)
      for (VIP_VI_HANDLE vi : {out, in})
        if (lanai_emu_set_flow_control(vi, VIP_TRUE) != VIP_SUCCESS)
          throw std::runtime_error(
              fmt::format("lanai_emu_set_flow_control: {}", lanai_emu_last_error()));
    const std::uint32_t posted = me == 0 ? w : depth;
    Reposting reposting{depth, std::uint64_t{rounds} * w, posted};
    for (std::uint32_t i = 0; i < posted; ++i)
      s.post(in, true, i);
    if (me == 0) {
      s.ep.connect(out, 1, 0, true);
      s.ep.connect(in, 1, 1, false);
    } else {
      s.ep.connect(in, 0, 0, false);
      s.ep.connect(out, 0, 1, true);
    }
    for (std::uint32_t round = 0; round < rounds; ++round) {
      const kernel::SimTime start = host_now();
      if (me == 0) {
        for (std::uint32_t i = 0; i < w; ++i) {
          for (std::uint32_t k = 0; k < spec.size; ++k)
            s.buf(false, i)[k] = pattern(round, i, k);
          s.post(out, false, i);
        }
        for (std::uint32_t i = 0; i < w; ++i)
          s.wait(in, true);
        if (round >= spec.warmup)
          timed += host_now() - start;
        for (std::uint32_t i = 0; i < w; ++i) {
          if (std::memcmp(s.buf(true, i), s.buf(false, i), spec.size) != 0)
            throw std::runtime_error(fmt::format("round {} message {}: bytes changed", round, i));
          s.wait(out, false);
          if (round + 1 < rounds)
            s.post(in, true, i);
        }
      } else if (spec.flow_control) {
        for (std::uint32_t i = 0; i < w; ++i)
          reposting.take(s, in, i);
        for (std::uint32_t i = 0; i < w; ++i)
          s.post(out, false, i);
        for (std::uint32_t i = 0; i < w; ++i)
          s.wait(out, false);
      } else {
        for (std::uint32_t i = 0; i < w; ++i)
          s.wait(in, true);
        for (std::uint32_t i = 0; i < w; ++i) {
          std::memcpy(s.buf(false, i), s.buf(true, i), spec.size);
          s.post(out, false, i);
        }
        // The receives for the next window go up only now: no flow control.
        for (std::uint32_t i = 0; i < depth && round + 1 < rounds; ++i)
          s.post(in, true, i);
        for (std::uint32_t i = 0; i < w; ++i)
          s.wait(out, false);
      }
    }
    return 0;
  };
  const host::RunReport report =
      vipl::run_programs(cluster, {[&] { return program(0); }, [&] { return program(1); }});
  PingBulkResult result;
  result.failure = describe_failure(cluster, report);
  result.overrun = !result.ok() && depth < w;
  if (result.ok())
    result.one_way_us = static_cast<double>(timed.ps()) / 1e6 / spec.rounds / (2.0 * w);
  return result;
}

} // namespace lanai::bench
