#include "emulator/profile/profile_search.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

namespace lanai::profile {

namespace {

namespace fs = std::filesystem;

// Most specific first, as for firmware folders: the environment, an
// installed tree beside the running executable (wherever it was moved),
// the source tree, the configured install prefix.
std::vector<fs::path> profile_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("LANAI_EMU_PROFILE_DIR"))
    dirs.emplace_back(env);
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    dirs.push_back(exe.parent_path().parent_path() / "share/lanai-emu/profiles");
  dirs.emplace_back(LANAI_EMU_SOURCE_PROFILE_DIR);
  dirs.emplace_back(LANAI_EMU_INSTALL_PROFILE_DIR);
  return dirs;
}

} // namespace

HardwareProfile find_profile(std::string_view name_or_path) {
  if (name_or_path.empty())
    return default_profile();
  const fs::path given{std::string(name_or_path)};
  std::error_code ec;
  if (fs::is_regular_file(given, ec) || given.has_parent_path() || given.extension() == ".toml")
    return load_profile(given);
  std::string tried;
  for (const auto& dir : profile_dirs()) {
    const fs::path file = dir / (std::string(name_or_path) + ".toml");
    if (fs::is_regular_file(file, ec))
      return load_profile(file);
    tried += fmt::format("{}{}", tried.empty() ? "" : ", ", dir.string());
  }
  throw std::runtime_error(
      fmt::format("profile '{}': no such file, and no shipped profile of that name (looked in {})",
                  name_or_path, tried));
}

} // namespace lanai::profile
