// The firmwares an experiment compares, as its `firmwares` array names
// them: a shipped name ("pvia"), a firmware folder's path ("./build/edf",
// relative to the experiment file), or a table giving either one a label
// ({path = "./build/edf", label = "edf"}, {name = "qosvia", label = "vc"}).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "emulator/profile/hardware_profile.hpp"
#include "emulator/text/table_reader.hpp"

namespace lanai::bench {

struct ExperimentFirmware {
  // What results, tables, plots and plot file names call it: the shipped
  // name, the folder's own name, or the label given.
  std::string label;
  // What loader::find_firmware finds it by: a shipped name, or the folder's
  // absolute path.
  std::string source;
  bool shipped = true;
};

// Reads top-level `firmwares` (required, at least one): every entry found,
// labels plain (letters, digits, '-', '_', '.') and distinct. A shipped
// name must be in `known` (empty: every shipped firmware found). Throws
// text::InputError naming the file and the entry, e.g. firmwares[3].
std::vector<ExperimentFirmware> read_firmwares(const text::TableReader& top,
                                               const std::filesystem::path& base_dir,
                                               const std::vector<std::string>& known);

// Links each firmware for the profile, so a run never starts on one that
// would fail at its first point: an unresolved symbol, an object that is
// not a LANai object. Shipped names are linked only if `names_too`.
void check_firmware_links(const text::TableReader& top,
                          const std::vector<ExperimentFirmware>& firmwares,
                          const profile::HardwareProfile& profile, bool names_too);

// An entry of `firmwares` that finds the same firmware under the same label
// from anywhere: "pvia", or {path = "/abs/build/edf", label = "edf"}.
std::string firmware_toml(const ExperimentFirmware& firmware);

} // namespace lanai::bench
