// Fuzzing the hardware-profile reader: any text is a profile or one
// ProfileError, and a profile that loads prints as text that loads back to
// the same profile.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "emulator/profile/hardware_profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lanai::profile;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  HardwareProfile profile;
  try {
    profile = parse_profile(text, "fuzz.toml");
  } catch (const ProfileError&) {
    return 0;
  }
  const std::string printed = dump_profile(profile);
  if (dump_profile(parse_profile(printed, "dump.toml")) != printed)
    __builtin_trap();
  return 0;
}
