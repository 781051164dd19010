// An emulated cluster: N hosts, each with its NIC (card + firmware), the
// network joining the cards, and the hosts' registration tables, all on one
// virtual-time kernel. Runs one host program per node to completion and
// tells apart success, program failure, firmware faults and deadlock.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "emulator/host/firmware_profiler.hpp"
#include "emulator/host/host_cpu.hpp"
#include "emulator/iss/cpu.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/sim_time.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/loader/firmware_linker.hpp"
#include "emulator/nic/card.hpp"
#include "emulator/nic/protection_table.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/trace/trace_recorder.hpp"
#include "emulator/wire/topology.hpp"

namespace lanai::host {

struct ClusterConfig {
  profile::HardwareProfile profile;
  std::size_t nodes = 2;
  // Crossbar switches in a chain, nodes spread evenly over them (node n on
  // switch n / ceil(nodes / switches)); 1 is the default single switch.
  std::size_t switches = 1;
  // No switches: every node's port sends into a sink of its own
  // (wire::sinks), for a model of the send side alone. No node reaches
  // another, and `switches` is not used.
  bool send_into_sinks = false;
  // Firmware of each node (size == nodes), or one image every node runs
  // (size 1).
  std::vector<loader::LinkedImage> firmware;
  std::uint64_t seed = 1;
  // All programs blocked with no deadline, no card's countdown timer
  // running and no device activity for this long: the run is declared
  // deadlocked.
  kernel::SimTime deadlock_window = kernel::milliseconds(2);
  // Stop (as a failure) when virtual time passes this; 0 means no limit.
  kernel::SimTime time_limit{};
  // Records every card's device work and firmware states when set; must
  // outlive the cluster.
  trace::Recorder* trace = nullptr;
  // Exact fast-forward of the cards' idle polling loops (results do not
  // depend on it); off is for comparison and debugging.
  bool fast_forward = iss::default_fast_forward();
  // Counts every card's executed cycles per firmware function when set
  // (those cores then run without fast-forward); must outlive the cluster.
  FirmwareProfiler* profiler = nullptr;
  // Each host program's stack (0: the fibers' default, 256 KiB).
  std::size_t host_stack_bytes = 0;
};

enum class RunOutcome : std::uint8_t {
  finished,      // every program returned (exit codes may be non-zero)
  deadlock,      // every unfinished program blocked forever
  firmware_stop, // a NIC's core faulted or halted
  time_limit,
};

struct RunReport {
  RunOutcome outcome = RunOutcome::finished;
  std::vector<int> exit_codes; // per node; meaningful for finished nodes
  std::string detail;          // deadlock: one line per waiting node; fault: the report
  kernel::SimTime end_time{};
  bool success() const; // finished and all exit codes 0
};

class Cluster {
public:
  explicit Cluster(ClusterConfig config);
  ~Cluster();

  std::size_t size() const { return cards_.size(); }
  const profile::HardwareProfile& profile() const { return config_.profile; }
  std::uint64_t seed() const { return config_.seed; }
  kernel::Kernel& kernel() { return kernel_; }
  kernel::StatsRegistry& stats() { return stats_; }
  // LANai cycles all cards' fast-forward accounted without executing them.
  std::uint64_t skipped_cycles() const;
  wire::Network& network() { return *network_; }
  nic::Card& card(std::size_t node) { return *cards_.at(node); }
  HostCpu& host(std::size_t node) { return *hosts_.at(node); }
  nic::ProtectionTable& protection(std::size_t node) { return *tables_.at(node); }

  // Starts every card's firmware and program i on host i, and runs until
  // all programs finish or the run fails (see RunOutcome). Programs still
  // unfinished when it returns have been stopped (HostCpu::stop_program), so
  // nothing they hold outlives the call. One run per cluster.
  RunReport run(std::vector<std::function<int()>> programs);

private:
  // Grows whenever a card or a host makes progress.
  std::uint64_t progress() const;
  std::string waiting_report() const;
  std::string firmware_report() const;

  ClusterConfig config_;
  kernel::Kernel kernel_;
  kernel::StatsRegistry stats_;
  std::unique_ptr<wire::Network> network_;
  std::vector<std::unique_ptr<nic::ProtectionTable>> tables_;
  std::vector<std::unique_ptr<nic::Card>> cards_;
  std::vector<std::unique_ptr<HostCpu>> hosts_;
  bool ran_ = false;
};

} // namespace lanai::host
