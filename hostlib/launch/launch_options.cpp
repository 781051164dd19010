// Parsing the launcher's options (emulator/cli/command_line.hpp); every usage error becomes one
// line on stderr and exit status 1.
#include "hostlib/launch/launch_options.hpp"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "emulator/cli/command_line.hpp"
#include "emulator/iss/cpu.hpp"
#include "lanai/via_abi.h"

namespace lanai::vipl {

std::string program_name(const char* argv0) {
  if (!argv0 || !*argv0)
    return "via-program";
  return std::filesystem::path(argv0).filename().string();
}

namespace {

// Splits "A,B,,C" into its non-empty parts.
std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const auto comma = text.find(',', begin);
    const auto end = comma == std::string::npos ? text.size() : comma;
    if (end > begin)
      parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

// "I=NAME" for node I; false if malformed.
bool parse_node_firmware(const std::string& text, std::size_t& node, std::string& name) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
    return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + equals, node);
  if (error != std::errc{} || end != text.data() + equals)
    return false;
  name = text.substr(equals + 1);
  return true;
}

} // namespace

std::vector<std::string> firmware_image_files(const std::string& entry) {
  if (entry.empty() || entry.front() != '@')
    return {};
  return split_commas(entry.substr(1));
}

ParsedLaunch parse_launch_options(int argc, char** argv, const LaunchText& text) {
  ParsedLaunch parsed;
  LaunchOptions options;
  options.program = argc > 0 && argv[0] ? argv[0] : "via-program";
  const std::string me = text.name.empty() ? program_name(options.program.c_str()) : text.name;

  std::string firmware = "svia";
  std::vector<std::string> per_node;
  std::vector<std::string> images;
  double admission = 0.0;
  const std::string description =
      text.description.empty()
          ? "Runs this VIA host program (its via_main) on every node of an emulated "
            "Myrinet cluster, in deterministic virtual time.\n"
            "Exit status: 0 all nodes returned 0, 1 bad options, 2 a node returned "
            "non-zero, 3 deadlock, 4 NIC firmware stopped."
          : text.description;
  cli::Command app{description, me};
  app.add_option("--nodes", options.nodes, "Nodes in the cluster")->capture_default_str();
  app.add_option("--profile", options.profile_file,
                 "Hardware profile: a shipped name (e.g. myrinet-lanai7) or a TOML file");
  auto* named = app.add_option("--firmware", firmware,
                               "Firmware of every node: a shipped name, or a firmware folder's "
                               "path (containing '/')")
                    ->capture_default_str();
  app.add_option("--firmware-image", images,
                 "Firmware of every node from your own LANai objects, linked with the runtime: "
                 "A.o,B.o (comma list, or repeated)")
      ->excludes(named);
  app.add_option("--firmware-node", per_node,
                 "Firmware of one node, as I=NAME, I=PATH (a firmware folder) or I=@A.o,B.o for "
                 "objects (repeatable)");
  auto* admission_option = app.add_option(
      "--admission", admission,
      "QoS admission control: reserved rates may take this fraction of a link, 0 = off "
      "(overrides the profile's host.admission_fraction)");
  app.add_option("--switches", options.switches,
                 "Crossbar switches in a chain, nodes spread evenly over them")
      ->capture_default_str();
  app.add_option("--seed", options.seed, "Seed, given to the programs (lanai_emu_seed)")
      ->capture_default_str();
  app.add_option("--stats", options.stats_file,
                 "Write the run's device and wire statistics as JSON to this file");
  app.add_option("--output", options.output,
                 "Each node's stdout and stderr: prefix (lines marked [node<i>]) or plain")
      ->check_member({"prefix", "plain"});
  app.add_option("--output-dir", options.output_dir,
                 "Write each node's stdout and stderr to DIR/node<i>.out and DIR/node<i>.err");
  app.add_option("--stack-kib", options.stack_kib,
                 "Stack of each node's program in KiB (default 256, 8192 under lanai-emu launch)")
      ->check_range(std::size_t{64}, std::size_t{1} << 20);
  app.add_flag_callback(
      "--no-fast-forward", [] { iss::set_default_fast_forward(false); },
      "execute every idle polling cycle of the LANai instead of skipping idle loops exactly, "
      "keep the cards' cores in strict lockstep, and make every completion poll of the host "
      "programs a kernel event (results are the same; for comparison and debugging)");
  app.add_option("args", options.arguments, "Arguments for via_main (after --)");
  if (const std::optional<int> status = app.parse(argc, argv, me)) {
    parsed.exit_status = *status;
    return parsed;
  }

  if (options.nodes < 1 || options.nodes > VIA_MAX_NODES) {
    fmt::print(stderr, "{}: --nodes must be between 1 and {}, got {}\n", me, VIA_MAX_NODES,
               options.nodes);
    parsed.exit_status = 1;
    return parsed;
  }
  if (options.switches < 1 || options.switches > options.nodes) {
    fmt::print(stderr, "{}: --switches must be between 1 and the number of nodes ({}), got {}\n",
               me, options.nodes, options.switches);
    parsed.exit_status = 1;
    return parsed;
  }
  if (admission_option->count() > 0) {
    if (!(admission >= 0.0 && admission <= 1.0)) {
      fmt::print(stderr, "{}: --admission must be 0 (off) or in (0, 1], got {}\n", me, admission);
      parsed.exit_status = 1;
      return parsed;
    }
    options.admission = admission;
  }
  if (!images.empty()) {
    std::string joined;
    for (const std::string& list : images)
      joined += list + ",";
    if (split_commas(joined).empty()) {
      fmt::print(stderr, "{}: --firmware-image expects A.o[,B.o...]\n", me);
      parsed.exit_status = 1;
      return parsed;
    }
    firmware = "@" + joined;
  }
  options.firmware.assign(options.nodes, firmware);
  for (const std::string& entry : per_node) {
    std::size_t node = 0;
    std::string name;
    if (!parse_node_firmware(entry, node, name) ||
        (name.front() == '@' && firmware_image_files(name).empty())) {
      fmt::print(stderr,
                 "{}: --firmware-node expects I=NAME, I=PATH or I=@A.o[,B.o...], got '{}'\n", me,
                 entry);
      parsed.exit_status = 1;
      return parsed;
    }
    if (node >= options.nodes) {
      fmt::print(stderr, "{}: --firmware-node {}: no node {} among {}\n", me, entry, node,
                 options.nodes);
      parsed.exit_status = 1;
      return parsed;
    }
    options.firmware[node] = name;
  }
  parsed.options = std::move(options);
  return parsed;
}

} // namespace lanai::vipl
