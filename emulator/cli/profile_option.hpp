// The --profile option shared by subcommands: a TOML hardware profile
// layered over the built-in defaults.
#pragma once

#include <string>

#include "emulator/profile/hardware_profile.hpp"

namespace lanai::cli {

inline profile::HardwareProfile resolve_profile(const std::string& path) {
  return path.empty() ? profile::default_profile() : profile::load_profile(path);
}

} // namespace lanai::cli
