// Hardware profiles by name or path, for every command that takes one: a
// TOML file, or the name of a shipped profile (e.g. "myrinet-lanai7").
#pragma once

#include <string>
#include <string_view>

#include "emulator/profile/hardware_profile.hpp"

namespace lanai::profile {

// `name_or_path`: a file (a path that exists, has a folder in it or ends in
// .toml), or a shipped profile's name, looked up in $LANAI_EMU_PROFILE_DIR,
// then share/lanai-emu/profiles beside the executable, the source tree's
// bench/profiles and the configured install prefix. Empty: the built-in
// defaults. Throws std::runtime_error naming what was tried, or the
// loader's ProfileError.
HardwareProfile find_profile(std::string_view name_or_path);

} // namespace lanai::profile
