// The clusters bench workloads run on: a hardware profile
// (profile::find_profile), firmware linked once per name, and the cluster
// configuration built from them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/host/cluster.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/profile/profile_search.hpp"
#include "emulator/trace/trace_recorder.hpp"

namespace lanai::bench {

struct ClusterSetup {
  profile::HardwareProfile profile;
  // Every node runs it: a shipped name or a firmware folder's path
  // (loader::find_firmware; relative to the working directory).
  std::string firmware = "svia";
  std::size_t nodes = 2;
  std::uint64_t seed = 1;
  trace::Recorder* trace = nullptr;
  host::FirmwareProfiler* profiler = nullptr; // cycles per firmware function, if set
};

// Links the firmware for the profile and fills the configuration. Throws
// loader::LoadError (one line) for a firmware that cannot be found or linked.
host::ClusterConfig cluster_config(const ClusterSetup& setup);

} // namespace lanai::bench
