// Commands, options and flags of every program in the tree (lanai-emu, the
// VIPL launcher, the benchmarks): a narrow layer over CLI11 whose one source
// file is the only one that reads CLI11's header. Help, usage errors and
// parsing are CLI11's; the layer only keeps its header (long to compile and
// large in every object that includes it) out of the commands' sources.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace lanai::cli {

// One option, positional argument or flag of a command. Each modifier
// returns the option, so they chain as CLI11's do.
class Option {
public:
  explicit Option(CLI::Option* option) : option_(option) {}

  Option* capture_default_str(); // help shows the value it starts with
  Option* required();
  Option* check_range(unsigned lo, unsigned hi);
  Option* check_range(unsigned long lo, unsigned long hi);
  Option* check_range(int lo, int hi);
  Option* check_member(const std::vector<std::string>& values);
  Option* check_existing_file();
  Option* excludes(Option* other);
  Option* excludes(const std::string& other_name);
  Option* type_name(const std::string& name);
  Option* repeatable();       // one value each time it is given, every one kept
  Option* trigger_on_parse(); // a flag's action runs as it is read
  std::size_t count() const;  // times given on the command line

private:
  CLI::Option* option_;
};

// A program's command line or one of its subcommands.
class Command {
public:
  // The program itself; `name` empty takes the name it is run by.
  explicit Command(const std::string& description, const std::string& name = {});
  ~Command();
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;

  Command* add_subcommand(const std::string& name, const std::string& description);
  Command* alias(const std::string& name);
  Command* require_subcommand(); // exactly one
  Command* callback(std::function<void()> action);

  Option* add_option(const std::string& name, std::string& value, const std::string& help = {});
  Option* add_option(const std::string& name, std::vector<std::string>& value,
                     const std::string& help = {});
  Option* add_option(const std::string& name, int& value, const std::string& help = {});
  Option* add_option(const std::string& name, unsigned& value, const std::string& help = {});
  Option* add_option(const std::string& name, long& value, const std::string& help = {});
  Option* add_option(const std::string& name, unsigned long& value, const std::string& help = {});
  Option* add_option(const std::string& name, double& value, const std::string& help = {});
  Option* add_option(const std::string& name, std::optional<double>& value,
                     const std::string& help = {});
  Option* add_option(const std::string& name, std::optional<unsigned long>& value,
                     const std::string& help = {});
  Option* add_flag(const std::string& name, bool& value, const std::string& help = {});
  Option* add_flag_callback(const std::string& name, std::function<void()> action,
                            const std::string& help = {});

  // Every subcommand also takes the options of the command above it.
  void subcommands_take_parent_options();
  std::vector<std::string> subcommand_names() const;
  bool has_subcommand(const std::string& word) const; // by name or alias

  // Parses the command line and runs the actions of the commands it names
  // (their exceptions pass through). Returns nothing when that went
  // through, or the exit status once help was printed (0) or a usage error
  // was said in one line, "<program>: <problem> (see --help)" (1).
  std::optional<int> parse(int argc, const char* const* argv, std::string_view program);

private:
  explicit Command(CLI::App* app);
  Option* keep(CLI::Option* option);

  std::unique_ptr<CLI::App> owned_;
  CLI::App* app_;
  std::vector<std::unique_ptr<Command>> subcommands_;
  std::deque<Option> options_;
};

// A usage error an action finds after parsing (a missing argument that
// options alone cannot say): reported as parse() reports its own.
[[noreturn]] void usage_error(const std::string& message);

} // namespace lanai::cli
