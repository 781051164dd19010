// What the card's two network DMA engines share: the machine they work in
// (the kernel, SRAM through the LANai core, the network port, the node),
// their start-up time, the result of the last command, and the figures each
// keeps under node<N>.<name>: a busy meter and counters of packets and
// payload bytes, plus the card trace they record to.
#pragma once

#include <cstdint>
#include <string_view>

#include "emulator/iss/cpu.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/nic/busy_meter.hpp"
#include "emulator/wire/network_port.hpp"

namespace lanai::nic {

class CardTrace;

class NetworkDma {
public:
  NetworkDma(const NetworkDma&) = delete;
  NetworkDma& operator=(const NetworkDma&) = delete;

  // Where packets are recorded (the card's).
  void set_trace(CardTrace* trace) { trace_ = trace; }
  // What the engine's events may reach (its card's processor; see
  // kernel::EventReach). By default anything.
  void set_reach(kernel::EventReach reach) { reach_ = reach; }
  kernel::SimTime busy_time() const { return meter_.total(); }

protected:
  NetworkDma(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::uint32_t node,
             std::string_view name, kernel::SimTime setup, iss::Cpu& cpu, wire::NetworkPort& port);
  ~NetworkDma() = default;

  kernel::Kernel& kernel_;
  iss::Cpu& cpu_;
  wire::NetworkPort& port_;
  std::uint32_t node_;
  kernel::SimTime setup_;
  std::uint32_t result_ = 0;
  std::uint64_t activity_ = 0;
  CardTrace* trace_ = nullptr;
  kernel::EventReach reach_ = kernel::EventReach::anything;
  BusyMeter meter_;
  kernel::Counter& packets_;
  kernel::Counter& bytes_;
};

} // namespace lanai::nic
