// `lanai-emu exec`: link firmware objects with the runtime, run main() on a
// bare LANai and report its return value, instructions and cycles.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "emulator/cli/commands.hpp"
#include "emulator/text/json_text.hpp"
#include "emulator/profile/profile_search.hpp"
#include "emulator/iss/disassembler.hpp"
#include "emulator/machine/standalone_machine.hpp"

namespace lanai::cli {

namespace {

struct ExecOptions {
  std::vector<std::string> objects;
  std::string profile;
  std::uint64_t max_cycles = 10'000'000'000ull;
  bool json = false;
  bool dump_config = false;
  bool no_runtime = false;
  std::string trace;                  // file for the instruction trace, "-" for stderr
  std::uint64_t trace_limit = 100000; // instructions traced at most
};

// One line per executed instruction: cycle before it, pc, function, word
// and disassembly, e.g. "      1234  000001a0  main+0x20  02900008  add %sp, 0x8, %fp".
class InstructionTrace {
public:
  InstructionTrace(const std::string& path, std::uint64_t limit, machine::StandaloneMachine& m)
      : limit_(limit), machine_(m) {
    if (path == "-") {
      out_ = stderr;
    } else {
      out_ = std::fopen(path.c_str(), "w");
      if (!out_)
        throw std::runtime_error(fmt::format("{}: cannot open trace file", path));
      owned_ = true;
    }
  }
  ~InstructionTrace() {
    if (owned_)
      std::fclose(out_);
  }
  InstructionTrace(const InstructionTrace&) = delete;
  InstructionTrace& operator=(const InstructionTrace&) = delete;

  void record(std::uint32_t pc, std::uint64_t cycle) {
    if (written_ >= limit_)
      return;
    ++written_;
    const std::uint32_t word = machine_.cpu().read_word(pc);
    fmt::print(out_, "{:>12}  {:08x}  {:<28}  {:08x}  {}\n", cycle, pc,
               machine_.image().symbol_at(pc).value_or("?"), word, iss::disassemble_inline(word));
  }

private:
  std::FILE* out_ = nullptr;
  bool owned_ = false;
  std::uint64_t limit_;
  std::uint64_t written_ = 0;
  machine::StandaloneMachine& machine_;
};

int run_exec(const ExecOptions& o) {
  const auto profile = profile::find_profile(o.profile);
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
      if (c == '\n')
        std::fflush(stdout);
    });
  std::unique_ptr<InstructionTrace> trace;
  if (!o.trace.empty())
    trace = std::make_unique<InstructionTrace>(o.trace, o.trace_limit, m);
  const auto r = trace ? m.run(o.max_cycles, [&](std::uint32_t pc,
                                                 std::uint64_t cycle) { trace->record(pc, cycle); })
                       : m.run(o.max_cycles);
  trace.reset();
  std::fflush(stdout);
  const double time_us = static_cast<double>(r.end_time_ps) / 1e6; // virtual time at exit
  const char* stop = r.stop == machine::ExecStop::exited  ? "exited"
                     : r.stop == machine::ExecStop::fault ? "fault"
                                                          : "cycle_limit";
  if (o.json) {
    fmt::print("{{\"exit_code\":{},\"instructions\":{},\"cycles\":{},\"time_us\":{},"
               "\"stop\":\"{}\",\"console\":{}}}\n",
               r.stop == machine::ExecStop::exited ? fmt::format("{}", r.exit_code) : "null",
               r.instructions, r.cycles, time_us, stop,
               text::json_string(m.system().console(), true));
  } else {
    if (!m.system().console().empty() && m.system().console().back() != '\n')
      fmt::print("\n");
    if (r.stop == machine::ExecStop::exited)
      fmt::print("exit code:    {}\n", r.exit_code);
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

void add_exec_command(Command& app, int& exit_status) {
  auto opts = std::make_shared<ExecOptions>();
  auto* cmd = app.add_subcommand(
      "exec", "Link Lanai objects with the firmware runtime and run main() on a bare LANai");
  cmd->add_option("objects", opts->objects,
                  "relocatable Lanai ELF objects (clang --target=lanai -c)");
  cmd->add_option("--profile", opts->profile, "hardware profile: shipped name or TOML file");
  cmd->add_option("--max-cycles", opts->max_cycles,
                  "stop with an error after this many LANai cycles");
  cmd->add_flag("--json", opts->json,
                "print one JSON object: exit_code, instructions, cycles, ...");
  cmd->add_flag("--dump-config", opts->dump_config, "print the resolved hardware profile and exit");
  cmd->add_option("--trace", opts->trace,
                  "write an instruction trace (cycle, pc, function, word, disassembly) to this "
                  "file, '-' for stderr; slows execution");
  cmd->add_option("--trace-limit", opts->trace_limit, "trace at most this many instructions");
  cmd->add_flag("--no-runtime", opts->no_runtime,
                "do not link the firmware runtime (the objects provide _start)");
  cmd->callback([opts, &exit_status] {
    if (opts->objects.empty() && !opts->dump_config)
      usage_error("exec needs at least one Lanai object file (.o) to run");
    exit_status = run_exec(*opts);
  });
}

} // namespace lanai::cli
