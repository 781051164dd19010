// The clusters bench workloads run on: a hardware profile found by name or
// path, firmware linked once per name, and the cluster configuration built
// from them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/host/cluster.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/trace/trace_recorder.hpp"

namespace lanai::bench {

// `name_or_path`: a TOML file, or the name of a shipped profile (e.g.
// "myrinet-lanai7") looked up in $LANAI_EMU_PROFILE_DIR, then the installed
// share/lanai-emu/profiles beside the executable, then the source tree's
// bench/profiles. Empty: the built-in default. Throws std::runtime_error
// naming what was tried, or the profile loader's error.
profile::HardwareProfile find_profile(std::string_view name_or_path);
// The names of the shipped profiles found, sorted.
std::vector<std::string> shipped_profiles();

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
