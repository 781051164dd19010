#include "bench/workloads/bench_cluster.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "emulator/machine/standalone_machine.hpp"

namespace lanai::bench {

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> profile_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("LANAI_EMU_PROFILE_DIR"))
    dirs.emplace_back(env);
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    dirs.push_back(exe.parent_path().parent_path() / "share/lanai-emu/profiles");
  dirs.emplace_back(LANAI_EMU_SOURCE_PROFILE_DIR);
  return dirs;
}

} // namespace

profile::HardwareProfile find_profile(std::string_view name_or_path) {
  if (name_or_path.empty())
    return profile::default_profile();
  const fs::path given{std::string(name_or_path)};
  std::error_code ec;
  if (fs::is_regular_file(given, ec) || given.has_parent_path() || given.extension() == ".toml")
    return profile::load_profile(given);
  std::string tried;
  for (const auto& dir : profile_dirs()) {
    const fs::path file = dir / (std::string(name_or_path) + ".toml");
    if (fs::is_regular_file(file, ec))
      return profile::load_profile(file);
    tried += fmt::format("{}{}", tried.empty() ? "" : ", ", dir.string());
  }
  throw std::runtime_error(
      fmt::format("profile '{}': no such file, and no shipped profile of that name (looked in {})",
                  name_or_path, tried));
}

std::vector<std::string> shipped_profiles() {
  std::vector<std::string> names;
  for (const auto& dir : profile_dirs()) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".toml")
        names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

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
