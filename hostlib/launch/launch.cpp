// Running a host program on an emulated cluster from the command line:
// profile and firmware first (their errors are the user's and get one
// line), then the run, then a report of how it ended.
#include "hostlib/launch/launch.hpp"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <unistd.h>

#include "emulator/host/cluster.hpp"
#include "emulator/host/fiber.hpp"
#include "hostlib/launch/launch_options.hpp"
#include "emulator/machine/standalone_machine.hpp"
#include "emulator/profile/profile_search.hpp"

#include "hostlib/launch/node_output.hpp"
#include "hostlib/driver/session.hpp"

namespace lanai::vipl {

namespace {

// A launched program's stack, as a Linux process's main thread gets by default.
constexpr std::size_t kLoadedStackKib = 8192;

host::ClusterConfig cluster_config(const LaunchOptions& options) {
  host::ClusterConfig config;
  config.profile = profile::find_profile(options.profile_file);
  if (options.admission)
    config.profile.host.admission_fraction = *options.admission;
  config.nodes = options.nodes;
  config.switches = options.switches;
  config.seed = options.seed;
  // Each distinct firmware is linked once; nodes that all run one firmware
  // share its image (an image is megabytes, mostly zeros).
  std::map<std::string, loader::LinkedImage> images;
  for (const std::string& name : options.firmware) {
    if (!images.contains(name)) {
      const std::vector<std::string> files = firmware_image_files(name);
      const std::vector<std::filesystem::path> objects(files.begin(), files.end());
      images.emplace(name, files.empty()
                               ? machine::link_firmware(loader::find_firmware(name), config.profile)
                               : machine::link_program(objects, config.profile));
    }
  }
  if (images.size() == 1) {
    config.firmware.push_back(std::move(images.begin()->second));
    return config;
  }
  config.firmware.reserve(options.firmware.size());
  for (const std::string& name : options.firmware)
    config.firmware.push_back(images.at(name));
  return config;
}

void print_consoles(host::Cluster& cluster) {
  for (std::size_t node = 0; node < cluster.size(); ++node) {
    std::string_view text = cluster.card(node).console();
    while (!text.empty()) {
      const auto end = text.find('\n');
      const std::string_view line = text.substr(0, end);
      fmt::print(stderr, "[node{} lanai] {}\n", node, line);
      if (end == std::string_view::npos)
        break;
      text.remove_prefix(end + 1);
    }
  }
}

int report(host::Cluster& cluster, const host::RunReport& run, const char* entry) {
  const double at_us = run.end_time.as_us();
  switch (run.outcome) {
  case host::RunOutcome::finished: {
    int status = 0;
    for (std::size_t node = 0; node < run.exit_codes.size(); ++node) {
      const host::HostCpu& host = cluster.host(node);
      if (!host.failure().empty())
        fmt::print(stderr, "node{}: {} failed: {}\n", node, entry, host.failure());
      if (run.exit_codes[node] != 0) {
        fmt::print(stderr, "node{}: {} returned {}\n", node, entry, run.exit_codes[node]);
        status = 2;
      }
    }
    return status;
  }
  case host::RunOutcome::deadlock:
    fmt::print(stderr, "lanai-emu: deadlock at {:.3f} us\n{}\n", at_us, run.detail);
    return 3;
  case host::RunOutcome::firmware_stop:
    fmt::print(stderr, "lanai-emu: NIC firmware stopped at {:.3f} us\n{}\n", at_us, run.detail);
    return 4;
  case host::RunOutcome::time_limit:
    fmt::print(stderr, "lanai-emu: time limit reached at {:.3f} us\n{}\n", at_us, run.detail);
    return 2;
  }
  return 2;
}

// The body of a node's program, given its own argv (the program name and
// the arguments after --).
using ProgramFactory = std::function<std::function<int()>(std::size_t node, int argc, char** argv)>;

int run(const LaunchOptions& options, const std::string& me, const ProgramFactory& factory,
        const char* entry, bool separate_output) {
  host::ClusterConfig config;
  try {
    config = cluster_config(options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n", me, e.what());
    return 1;
  }
  config.host_stack_bytes = options.stack_kib * 1024;

  try {
    std::optional<NodeOutput> output;
    const bool plain = options.output == "plain" || (options.output.empty() && !separate_output);
    if (!options.output_dir.empty() || !plain)
      output.emplace(options.nodes, options.output_dir);
    host::Cluster cluster(std::move(config));
    // Every node gets its own copy of the arguments: the program may edit them.
    std::vector<std::vector<std::string>> words(options.nodes);
    std::vector<std::vector<char*>> argvs(options.nodes);
    std::vector<std::function<int()>> programs;
    for (std::size_t node = 0; node < options.nodes; ++node) {
      words[node].push_back(options.program);
      words[node].insert(words[node].end(), options.arguments.begin(), options.arguments.end());
      for (std::string& word : words[node])
        argvs[node].push_back(word.data());
      argvs[node].push_back(nullptr);
      programs.push_back(
          factory(node, static_cast<int>(argvs[node].size() - 1), argvs[node].data()));
    }
    const host::RunReport run = run_programs(cluster, std::move(programs));
    output.reset();
    std::fflush(stdout);
    print_consoles(cluster);
    if (!options.stats_file.empty()) {
      std::ofstream out(options.stats_file);
      out << cluster.stats().to_json(cluster.kernel().now()) << '\n';
      if (!out)
        fmt::print(stderr, "{}: cannot write {}\n", me, options.stats_file);
    }
    return report(cluster, run, entry);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: {}\n", me, e.what());
    return 1;
  }
}

} // namespace

int launch(int argc, char** argv, ProgramEntry entry) {
  ParsedLaunch parsed = parse_launch_options(argc, argv);
  if (!parsed.options)
    return parsed.exit_status;
  LaunchOptions& options = *parsed.options;
  if (options.stack_kib == 0)
    options.stack_kib = host::Fiber::default_stack_bytes / 1024;
  return run(
      options, program_name(options.program.c_str()),
      [entry](std::size_t, int count, char** words) -> std::function<int()> {
        return [entry, count, words] { return entry(count, words); };
      },
      "via_main", false);
}

int launch_nodes(int argc, char** argv, const std::vector<NodeProgram>& programs,
                 const LaunchText& text) {
  ParsedLaunch parsed = parse_launch_options(argc, argv, text);
  if (!parsed.options)
    return parsed.exit_status;
  LaunchOptions& options = *parsed.options;
  const std::string me = text.name.empty() ? program_name(options.program.c_str()) : text.name;
  if (programs.size() != options.nodes) {
    fmt::print(stderr, "{}: {} program copies for {} nodes\n", me, programs.size(), options.nodes);
    return 1;
  }
  if (options.stack_kib == 0)
    options.stack_kib = kLoadedStackKib;
  return run(
      options, me,
      [&programs](std::size_t node, int count, char** words) -> std::function<int()> {
        const NodeProgram program = programs[node];
        return [program, count, words] {
          // getopt() keeps its place in the C library: every node
          // parses its arguments from the start.
          optind = 0;
          if (program.main)
            return program.main(count, words, environ);
          return program.via_main(count, words);
        };
      },
      programs.front().main ? "main" : "via_main", true);
}

} // namespace lanai::vipl
