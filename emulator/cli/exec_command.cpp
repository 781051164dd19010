// `lanai-emu exec`: link firmware objects with the runtime, run main() on a
// bare LANai and report its return value, instructions and cycles.
#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/json_text.hpp"
#include "cli/profile_option.hpp"
#include "machine/standalone_machine.hpp"

namespace lanai::cli {

namespace {

struct ExecOptions {
  std::vector<std::string> objects;
  std::string profile;
  std::uint64_t max_cycles = 10'000'000'000ull;
  bool json = false;
  bool dump_config = false;
  bool no_runtime = false;
};

int run_exec(const ExecOptions& o) {
  const auto profile = resolve_profile(o.profile);
  if (o.dump_config) {
    fmt::print("{}", profile::dump_profile(profile));
    return 0;
  }
  std::vector<std::filesystem::path> paths(o.objects.begin(), o.objects.end());
  const auto image = machine::link_program(paths, profile, !o.no_runtime);
  machine::StandaloneMachine m(profile, image);
  if (!o.json)
    m.system().set_console_sink([](char c) {
      std::fputc(c, stdout);
      if (c == '\n') std::fflush(stdout);
    });
  const auto r = m.run(o.max_cycles);
  std::fflush(stdout);
  const double time_us = static_cast<double>(r.end_time_ps) / 1e6; // virtual time at exit
  const char* stop = r.stop == machine::ExecStop::exited  ? "exited"
                     : r.stop == machine::ExecStop::fault ? "fault"
                                                          : "cycle_limit";
  if (o.json) {
    fmt::print("{{\"exit_code\":{},\"instructions\":{},\"cycles\":{},\"time_us\":{},"
               "\"stop\":\"{}\",\"console\":{}}}\n",
               r.stop == machine::ExecStop::exited ? fmt::format("{}", r.exit_code) : "null",
               r.instructions, r.cycles, time_us, stop, json_string(m.system().console()));
  } else {
    if (!m.system().console().empty() && m.system().console().back() != '\n') fmt::print("\n");
    if (r.stop == machine::ExecStop::exited) fmt::print("exit code:    {}\n", r.exit_code);
    fmt::print("instructions: {}\ncycles:       {}\ntime:         {:.3f} us at {} MHz\n",
               r.instructions, r.cycles, time_us, profile.lanai.clock_mhz);
  }
  if (r.stop == machine::ExecStop::fault) {
    fmt::print(stderr, "{}", r.fault_report);
    return 2;
  }
  if (r.stop == machine::ExecStop::cycle_limit) {
    fmt::print(stderr, "lanai-emu: cycle limit of {} reached before the program exited\n",
               o.max_cycles);
    return 3;
  }
  return 0;
}

} // namespace

void add_exec_command(CLI::App& app, int& exit_status) {
  auto opts = std::make_shared<ExecOptions>();
  auto* cmd = app.add_subcommand(
      "exec", "Link Lanai objects with the firmware runtime and run main() on a bare LANai");
  cmd->add_option("objects", opts->objects, "relocatable Lanai ELF objects (clang --target=lanai -c)");
  cmd->add_option("--profile", opts->profile, "hardware profile (TOML)");
  cmd->add_option("--max-cycles", opts->max_cycles, "stop with an error after this many LANai cycles");
  cmd->add_flag("--json", opts->json, "print one JSON object: exit_code, instructions, cycles, ...");
  cmd->add_flag("--dump-config", opts->dump_config, "print the resolved hardware profile and exit");
  cmd->add_flag("--no-runtime", opts->no_runtime,
                "do not link the firmware runtime (the objects provide _start)");
  cmd->callback([opts, cmd, &exit_status] {
    if (opts->objects.empty() && !opts->dump_config)
      throw CLI::RequiredError("objects");
    exit_status = run_exec(*opts);
  });
}

} // namespace lanai::cli
