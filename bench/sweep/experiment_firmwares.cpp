// Reading an experiment's `firmwares`: each entry found on disk (a shipped
// name or a folder relative to the file) and labelled, labels checked
// because they become CSV cells, plot titles and file names.
#include "bench/sweep/experiment_firmwares.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "emulator/text/json_text.hpp"
#include "emulator/loader/firmware_lookup.hpp"
#include "emulator/loader/object_input.hpp"
#include "emulator/machine/standalone_machine.hpp"

namespace lanai::bench {

namespace {

namespace fs = std::filesystem;

bool plain_label(std::string_view s) {
  if (s.empty() || s.size() > 64)
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  });
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// A shipped firmware by name, checked against the names accepted.
ExperimentFirmware shipped_entry(const text::TableReader& t, std::string_view key,
                                 const std::string& name, const std::vector<std::string>& known) {
  if (loader::names_firmware_folder(name))
    t.fail(key, fmt::format("\"{}\" is a path: give it as path = \"...\"", name));
  if (std::find(known.begin(), known.end(), name) == known.end())
    t.fail(key, fmt::format("unknown firmware \"{}\" (known: {}; or a firmware folder's path, "
                            "containing '/')",
                            name, listed(known)));
  return {name, name, true};
}

// A firmware folder by path, relative to the experiment file.
ExperimentFirmware folder_entry(const text::TableReader& t, std::string_view key,
                                const std::string& path, const fs::path& base_dir) {
  try {
    const loader::FirmwareSource found = loader::find_firmware(path, base_dir);
    return {found.label, fs::absolute(found.folder).lexically_normal().string(), false};
  } catch (const loader::LoadError& e) {
    t.fail(key, e.what());
  }
}

ExperimentFirmware firmware_entry(const text::TableReader& top, std::size_t i,
                                  const toml::node& node, const fs::path& base_dir,
                                  const std::vector<std::string>& known) {
  const std::string key = fmt::format("firmwares[{}]", i + 1);
  if (const auto value = node.value<std::string>()) {
    if (loader::names_firmware_folder(*value))
      return folder_entry(top, key, *value, base_dir);
    return shipped_entry(top, key, *value, known);
  }
  const toml::table* table = node.as_table();
  if (!table)
    top.fail(key, "must be a firmware name, a firmware folder's path, or a table "
                  "{path = \"...\", label = \"...\"}");
  const text::TableReader t(*table, top.source(), key);
  t.allow_only({"name", "path", "label"});
  if (t.has("name") == t.has("path"))
    t.fail("path", "give exactly one of name and path");
  ExperimentFirmware f = t.has("name")
                             ? shipped_entry(t, "name", t.required_string("name"), known)
                             : folder_entry(t, "path", t.required_string("path"), base_dir);
  if (const auto label = t.string("label")) {
    if (!plain_label(*label))
      t.fail("label",
             fmt::format("must be 1-64 letters, digits, '-', '_' or '.' (got \"{}\")", *label));
    f.label = *label;
  }
  if (!plain_label(f.label))
    t.fail("label", fmt::format("missing: the folder's name \"{}\" cannot label results "
                                "(letters, digits, '-', '_' or '.')",
                                f.label));
  return f;
}

} // namespace

std::vector<ExperimentFirmware> read_firmwares(const text::TableReader& top,
                                               const fs::path& base_dir,
                                               const std::vector<std::string>& known) {
  const toml::array* entries = top.array("firmwares");
  if (!entries)
    top.fail("firmwares", "missing (an array of firmware names or folders is required)");
  if (entries->empty())
    top.fail("firmwares", "must name at least one firmware");
  std::vector<ExperimentFirmware> firmwares;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    ExperimentFirmware f = firmware_entry(top, i, *entries->get(i), base_dir, known);
    const std::string key = fmt::format("firmwares[{}]", i + 1);
    if (!plain_label(f.label))
      top.fail(key, fmt::format("the folder's name \"{}\" cannot label results: give it a label, "
                                "{{path = \"...\", label = \"...\"}}",
                                f.label));
    for (const ExperimentFirmware& other : firmwares) {
      if (other.source == f.source && other.label == f.label)
        top.fail(key, fmt::format("\"{}\" is listed twice", f.label));
      if (other.label == f.label)
        top.fail(key, fmt::format("the label \"{}\" is taken by an earlier firmware: give this "
                                  "one a label, {{path = \"...\", label = \"...\"}}",
                                  f.label));
    }
    firmwares.push_back(std::move(f));
  }
  return firmwares;
}

void check_firmware_links(const text::TableReader& top,
                          const std::vector<ExperimentFirmware>& firmwares,
                          const profile::HardwareProfile& profile, bool names_too) {
  for (std::size_t i = 0; i < firmwares.size(); ++i) {
    if (firmwares[i].shipped && !names_too)
      continue;
    try {
      (void)machine::link_firmware(loader::find_firmware(firmwares[i].source), profile);
    } catch (const loader::LoadError& e) {
      top.fail(fmt::format("firmwares[{}]", i + 1), e.what());
    }
  }
}

std::string firmware_toml(const ExperimentFirmware& firmware) {
  if (firmware.shipped && firmware.label == firmware.source)
    return text::json_string(firmware.source);
  return fmt::format("{{{} = {}, label = {}}}", firmware.shipped ? "name" : "path",
                     text::json_string(firmware.source), text::json_string(firmware.label));
}

} // namespace lanai::bench
