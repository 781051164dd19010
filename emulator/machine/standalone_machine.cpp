// Loading an image into the LANai and running it to completion.
#include "machine/standalone_machine.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <fmt/format.h>
#include <stdexcept>

namespace lanai::machine {

StandaloneMachine::StandaloneMachine(const profile::HardwareProfile& profile,
                                     const loader::LinkedImage& image)
    : image_(image), clock_mhz_(profile.lanai.clock_mhz), system_(profile.lanai.sram_bytes),
      cpu_(profile.lanai.sram_bytes, iss::CycleCosts::from_profile(profile.lanai), &system_) {
  cpu_.write_sram(image_.base, image_.bytes);
  cpu_.reset(image_.entry);
}

ExecResult StandaloneMachine::run(std::uint64_t max_cycles) { return run(max_cycles, nullptr); }

ExecResult StandaloneMachine::run(std::uint64_t max_cycles, ClockedCore::StepObserver observer) {
  ClockedCore core(kernel_, cpu_, kernel::Frequency::megahertz(clock_mhz_));
  core.set_step_observer(std::move(observer));
  iss::StopReason reason = iss::StopReason::cycle_limit;
  const std::uint64_t events_before = kernel_.events_executed();
  core.start(max_cycles, [&](iss::StopReason r) {
    reason = r;
    kernel_.stop();
  });
  kernel_.run();
  ExecResult r;
  r.end_time_ps = kernel_.now().ps();
  r.kernel_events = kernel_.events_executed() - events_before;
  r.instructions = cpu_.instructions();
  r.cycles = cpu_.cycles();
  switch (reason) {
  case iss::StopReason::halted:
    r.stop = ExecStop::exited;
    r.exit_code = system_.exit_code().value_or(0);
    break;
  case iss::StopReason::fault: {
    r.stop = ExecStop::fault;
    const auto where = image_.symbol_at(cpu_.fault().pc);
    r.fault_report = iss::format_fault(cpu_.fault(), where.value_or(""));
    break;
  }
  case iss::StopReason::cycle_limit: r.stop = ExecStop::cycle_limit; break;
  }
  return r;
}

std::uint32_t StandaloneMachine::symbol(std::string_view name) const {
  const auto addr = image_.find_symbol(name);
  if (!addr) throw std::out_of_range(fmt::format("no symbol '{}' in the firmware image", name));
  return *addr;
}

std::uint64_t StandaloneMachine::read_u64(std::uint32_t addr) const {
  return std::uint64_t(cpu_.read_word(addr)) << 32 | cpu_.read_word(addr + 4);
}

void StandaloneMachine::write_u64(std::uint32_t addr, std::uint64_t value) {
  cpu_.write_word(addr, static_cast<std::uint32_t>(value >> 32));
  cpu_.write_word(addr + 4, static_cast<std::uint32_t>(value));
}

std::vector<std::filesystem::path> objects_in_manifest(const std::filesystem::path& dir) {
  std::ifstream manifest(dir / "objects.txt");
  std::vector<std::filesystem::path> objects;
  std::string name;
  while (std::getline(manifest, name))
    if (!name.empty()) objects.push_back(dir / name);
  return objects;
}

namespace {

// Where the object set `name` may live, most specific first: the
// environment, beside the running executable, the build tree, the
// configured install prefix.
std::vector<std::filesystem::path> firmware_dirs(const std::string& name) {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (name == "runtime") {
    if (const char* env = std::getenv("LANAI_EMU_RUNTIME_DIR")) candidates.emplace_back(env);
  } else if (const char* env = std::getenv("LANAI_EMU_FIRMWARE_DIR")) {
    candidates.push_back(fs::path(env) / name);
  }
  // An installed tree may have been moved or installed with --prefix: look
  // beside the running executable first, then at the configured prefix.
  std::error_code exe_ec;
  const auto exe = fs::read_symlink("/proc/self/exe", exe_ec);
  if (!exe_ec) candidates.push_back(exe.parent_path().parent_path() / "share/lanai-emu/firmware" / name);
  candidates.push_back(fs::path(LANAI_EMU_BUILD_FIRMWARE_ROOT) / name / ("lanai_" + name));
  candidates.push_back(fs::path(LANAI_EMU_INSTALL_FIRMWARE_ROOT) / name);
  return candidates;
}

std::vector<std::filesystem::path> first_manifest(const std::vector<std::filesystem::path>& dirs) {
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    auto objects = objects_in_manifest(dir);
    if (!objects.empty()) return objects;
  }
  return {};
}

bool valid_firmware_name(std::string_view name) {
  if (name.empty() || name == "runtime") return false;
  for (const char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
  return true;
}

} // namespace

std::vector<std::filesystem::path> runtime_objects() {
  auto objects = first_manifest(firmware_dirs("runtime"));
  if (objects.empty())
    throw std::runtime_error(
        "firmware runtime objects not found (build the project or set LANAI_EMU_RUNTIME_DIR)");
  return objects;
}

std::vector<std::string> firmware_names() {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  std::vector<fs::path> roots{fs::path(LANAI_EMU_BUILD_FIRMWARE_ROOT),
                              fs::path(LANAI_EMU_INSTALL_FIRMWARE_ROOT)};
  std::error_code exe_ec;
  const auto exe = fs::read_symlink("/proc/self/exe", exe_ec);
  if (!exe_ec) roots.insert(roots.begin(), exe.parent_path().parent_path() / "share/lanai-emu/firmware");
  for (const auto& root : roots) {
    std::error_code ec;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!valid_firmware_name(name)) continue;
      if (std::find(names.begin(), names.end(), name) != names.end()) continue;
      if (!first_manifest(firmware_dirs(name)).empty())
        names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::filesystem::path> firmware_objects(std::string_view name) {
  std::vector<std::filesystem::path> objects;
  if (valid_firmware_name(name))
    objects = first_manifest(firmware_dirs(std::string(name)));
  if (objects.empty()) {
    std::string known;
    for (const auto& n : firmware_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::runtime_error(fmt::format("unknown firmware '{}' (known: {})", name,
                                         known.empty() ? "none built" : known));
  }
  return objects;
}

loader::LinkedImage link_program(std::span<const std::filesystem::path> objects,
                                 const profile::HardwareProfile& profile, bool with_runtime) {
  std::vector<loader::ObjectInput> inputs;
  for (const auto& p : objects) inputs.push_back(loader::read_object_file(p));
  if (with_runtime)
    for (const auto& p : runtime_objects()) inputs.push_back(loader::read_object_file(p));
  loader::LinkOptions options;
  options.sram_bytes = profile.lanai.sram_bytes;
  return loader::link(inputs, options);
}

} // namespace lanai::machine
