#include "bench/workloads/bench_cluster.hpp"

#include "emulator/machine/standalone_machine.hpp"

namespace lanai::bench {

host::ClusterConfig cluster_config(const ClusterSetup& setup) {
  host::ClusterConfig config;
  config.profile = setup.profile;
  config.nodes = setup.nodes;
  config.seed = setup.seed;
  config.trace = setup.trace;
  config.profiler = setup.profiler;
  // One image every node runs.
  config.firmware.push_back(
      machine::link_firmware(loader::find_firmware(setup.firmware), config.profile));
  return config;
}

} // namespace lanai::bench
