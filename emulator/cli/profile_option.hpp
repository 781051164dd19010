// The --profile option shared by subcommands: a shipped profile's name or a
// TOML file, layered over the built-in defaults (none: the defaults).
#pragma once

#include <string>

#include "emulator/profile/profile_search.hpp"

namespace lanai::cli {

inline profile::HardwareProfile resolve_profile(const std::string& name_or_path) {
  return profile::find_profile(name_or_path);
}

} // namespace lanai::cli
