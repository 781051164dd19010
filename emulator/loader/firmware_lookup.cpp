// Where firmware folders are found and what their manifests list. Every
// problem is a LoadError of one line naming the firmware or the folder.
#include "emulator/loader/firmware_lookup.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>

#include <fmt/format.h>

#include "emulator/loader/diagnostics.hpp"
#include "emulator/loader/object_input.hpp"

namespace lanai::loader {

namespace {

namespace fs = std::filesystem;

// Where the object set `name` may live, most specific first: the
// environment, beside the running executable (an installed tree may have
// been moved or installed with --prefix), the build tree, the configured
// install prefix.
std::vector<fs::path> shipped_dirs(const std::string& name) {
  std::vector<fs::path> candidates;
  if (name == "runtime") {
    if (const char* env = std::getenv("LANAI_EMU_RUNTIME_DIR"))
      candidates.emplace_back(env);
  } else if (const char* env = std::getenv("LANAI_EMU_FIRMWARE_DIR")) {
    candidates.push_back(fs::path(env) / name);
  }
  std::error_code exe_ec;
  const auto exe = fs::read_symlink("/proc/self/exe", exe_ec);
  if (!exe_ec)
    candidates.push_back(exe.parent_path().parent_path() / "share/lanai-emu/firmware" / name);
  candidates.push_back(fs::path(LANAI_EMU_BUILD_FIRMWARE_ROOT) / name);
  candidates.push_back(fs::path(LANAI_EMU_INSTALL_FIRMWARE_ROOT) / name);
  return candidates;
}

// The first candidate folder whose manifest lists objects.
std::optional<fs::path> first_folder(const std::vector<fs::path>& dirs) {
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
      continue;
    if (!objects_in_manifest(dir).empty())
      return dir;
  }
  return std::nullopt;
}

bool valid_firmware_name(std::string_view name) {
  if (name.empty() || name == "runtime")
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

// A folder's own name, even when the path ends in '/' or is "." or "..".
std::string folder_label(const fs::path& folder) {
  fs::path p = folder;
  if (p.filename().empty())
    p = p.parent_path();
  const std::string name = p.filename().string();
  if (!name.empty() && name != "." && name != "..")
    return name;
  std::error_code ec;
  const fs::path full = fs::weakly_canonical(fs::absolute(folder, ec), ec);
  return ec ? name : full.filename().string();
}

[[noreturn]] void folder_error(const fs::path& folder, std::string_view what) {
  throw LoadError(fmt::format("firmware folder {}: {}", detail::printable(folder.string()), what));
}

// The folder at `path`, checked: it exists and lists objects that exist.
FirmwareSource checked_folder(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    folder_error(path, "no such folder");
  if (!fs::is_directory(path, ec))
    folder_error(path, "not a folder");
  if (!fs::is_regular_file(path / "objects.txt", ec))
    folder_error(path, "no objects.txt (a firmware folder lists its objects there, in link order)");
  const auto objects = objects_in_manifest(path);
  if (objects.empty())
    folder_error(path, "objects.txt lists no objects");
  for (const auto& object : objects)
    if (!fs::is_regular_file(object, ec))
      folder_error(path, fmt::format("objects.txt lists {}, which is not there",
                                     detail::printable(object.filename().string())));
  return {folder_label(path), path, false};
}

} // namespace

bool names_firmware_folder(std::string_view value) {
  return value.find('/') != std::string_view::npos;
}

std::vector<fs::path> objects_in_manifest(const fs::path& dir) {
  std::ifstream manifest(dir / "objects.txt");
  std::vector<fs::path> objects;
  std::string line;
  while (std::getline(manifest, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
      line.pop_back();
    if (!line.empty() && line.front() != '#')
      objects.push_back(dir / line);
  }
  return objects;
}

FirmwareSource find_firmware(std::string_view value, const fs::path& base_dir) {
  if (names_firmware_folder(value)) {
    fs::path path{std::string(value)};
    if (path.is_relative() && !base_dir.empty())
      path = base_dir / path;
    path = path.lexically_normal();
    if (path.filename().empty() && path.has_parent_path() && path.parent_path() != path.root_path())
      path = path.parent_path(); // "build/edf/" is the folder build/edf
    // "./edf" normalises to "edf", which would read as a name.
    if (!names_firmware_folder(path.string()))
      path = fs::path(".") / path;
    return checked_folder(path);
  }
  if (valid_firmware_name(value))
    if (auto folder = first_folder(shipped_dirs(std::string(value)))) {
      FirmwareSource source = checked_folder(*folder);
      source.label = std::string(value);
      source.shipped = true;
      return source;
    }
  std::string known;
  for (const auto& n : firmware_names())
    known += (known.empty() ? "" : ", ") + n;
  throw LoadError(fmt::format("unknown firmware '{}' (known: {}; or a path to a firmware folder, "
                              "containing '/')",
                              detail::printable(value), known.empty() ? "none built" : known));
}

std::vector<fs::path> firmware_objects(const FirmwareSource& firmware) {
  return objects_in_manifest(firmware.folder);
}

std::vector<fs::path> firmware_objects(std::string_view value) {
  return firmware_objects(find_firmware(value));
}

std::vector<std::string> firmware_names() {
  std::vector<std::string> names;
  std::vector<fs::path> roots{fs::path(LANAI_EMU_BUILD_FIRMWARE_ROOT),
                              fs::path(LANAI_EMU_INSTALL_FIRMWARE_ROOT)};
  std::error_code exe_ec;
  const auto exe = fs::read_symlink("/proc/self/exe", exe_ec);
  if (!exe_ec)
    roots.insert(roots.begin(), exe.parent_path().parent_path() / "share/lanai-emu/firmware");
  if (const char* env = std::getenv("LANAI_EMU_FIRMWARE_DIR"))
    roots.insert(roots.begin(), env);
  for (const auto& root : roots) {
    std::error_code ec;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!valid_firmware_name(name))
        continue;
      if (std::find(names.begin(), names.end(), name) != names.end())
        continue;
      if (first_folder(shipped_dirs(name)))
        names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<fs::path> runtime_objects() {
  const auto folder = first_folder(shipped_dirs("runtime"));
  if (!folder)
    throw LoadError(
        "firmware runtime objects not found (build the project or set LANAI_EMU_RUNTIME_DIR)");
  return objects_in_manifest(*folder);
}

} // namespace lanai::loader
