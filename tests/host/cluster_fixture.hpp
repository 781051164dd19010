// Test firmware for cluster runs, linked from the object sets this folder
// builds: an idle VIA firmware (configuration block, no service), one that
// raises a host interrupt, one that faults.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "emulator/host/cluster.hpp"
#include "emulator/machine/standalone_machine.hpp"
#include "emulator/profile/hardware_profile.hpp"

namespace host_test {

inline lanai::loader::LinkedImage test_firmware(const std::string& name,
                                                const lanai::profile::HardwareProfile& profile) {
  const auto objects =
      lanai::machine::objects_in_manifest(std::filesystem::path(HOST_TEST_FIRMWARE_DIR) / name);
  REQUIRE_MESSAGE(!objects.empty(), "test firmware " << name << " not built");
  return lanai::machine::link_program(objects, profile);
}

// `nodes` nodes all running `firmware`, on the default profile.
inline lanai::host::ClusterConfig test_config(std::size_t nodes,
                                              const std::string& firmware = "host_idle_via") {
  lanai::host::ClusterConfig config;
  config.profile = lanai::profile::default_profile();
  config.nodes = nodes;
  const auto image = test_firmware(firmware, config.profile);
  config.firmware.assign(nodes, image);
  return config;
}

} // namespace host_test
