// Finding firmware: a shipped firmware by name, or any firmware folder by
// path, and the objects the folder's objects.txt lists. A value that
// contains '/' is a path; anything else is a shipped name.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace lanai::loader {

// True if `value` names a firmware folder by path rather than a shipped
// firmware by name: it contains '/'.
bool names_firmware_folder(std::string_view value);

// A firmware to load. Results label it with `label`: a shipped firmware's
// name, or a folder's own name (the last component of its path).
struct FirmwareSource {
  std::string label;
  std::filesystem::path folder; // holds objects.txt (and parts.txt, if made in parts)
  bool shipped = false;

  // What find_firmware takes to find this firmware again: the shipped name,
  // or the folder's path (always with a '/').
  std::string value() const { return shipped ? label : folder.string(); }
};

// Finds `value`: the shipped firmware of that name (looked for in
// $LANAI_EMU_FIRMWARE_DIR/NAME, share/lanai-emu/firmware/NAME beside the
// running executable's prefix, the build tree, the configured install
// prefix), or the folder at that path, relative to `base_dir` when relative
// and `base_dir` is not empty. Throws LoadError, one line: an unknown name
// (listing the known ones), a missing folder, a folder without objects.txt
// or with nothing in it, a listed object that is missing.
FirmwareSource find_firmware(std::string_view value, const std::filesystem::path& base_dir = {});

// The objects listed, in order, in DIR/objects.txt (written by the firmware
// build for each object set); empty if there is no manifest. Blank lines
// and lines starting with '#' are not objects.
std::vector<std::filesystem::path> objects_in_manifest(const std::filesystem::path& dir);

// The objects of a firmware that find_firmware found, in link order.
std::vector<std::filesystem::path> firmware_objects(const FirmwareSource& firmware);
// The objects of a firmware named by name or path (find_firmware's rules).
std::vector<std::filesystem::path> firmware_objects(std::string_view value);

// Names of every shipped firmware that can be found, sorted.
std::vector<std::string> firmware_names();

// The firmware runtime objects (startup, string and integer helpers):
// $LANAI_EMU_RUNTIME_DIR if set, else share/lanai-emu/firmware/runtime beside
// the running executable's prefix, else the build tree, else the configured
// install prefix.
std::vector<std::filesystem::path> runtime_objects();

} // namespace lanai::loader
