// The command-line layer over CLI11: the one file that includes its header.
#include "emulator/cli/command_line.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>

namespace lanai::cli {

Option* Option::capture_default_str() {
  option_->capture_default_str();
  return this;
}
Option* Option::required() {
  option_->required();
  return this;
}
namespace {

// A whole number from `lo` to `hi`, written in decimal. What is wrong with
// anything else is said as such: a word or a fraction is not a number of
// the kind asked for, which "not in range" would not tell.
CLI::Validator whole_number_in(long long lo, unsigned long long hi) {
  const std::string range = fmt::format("{} to {}", lo, hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        const bool negative = text.starts_with('-');
        const std::string_view digits =
            std::string_view(text).substr(negative || text.starts_with('+') ? 1 : 0);
        if (digits.empty() ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
          return fmt::format("'{}' is not a whole number (expected {})", text, range);
        unsigned long long magnitude = 0;
        const std::errc error =
            std::from_chars(digits.data(), digits.data() + digits.size(), magnitude).ec;
        const __int128 value = negative ? -static_cast<__int128>(magnitude) : magnitude;
        if (error != std::errc{} || value < lo || value > hi)
          return fmt::format("{} is out of range (expected {})", text, range);
        return {};
      },
      fmt::format("INT in [{} - {}]", lo, hi));
}

} // namespace

Option* Option::check_range(unsigned lo, unsigned hi) {
  option_->check(whole_number_in(lo, hi));
  return this;
}
Option* Option::check_range(unsigned long lo, unsigned long hi) {
  option_->check(whole_number_in(static_cast<long long>(lo), hi));
  return this;
}
Option* Option::check_range(int lo, int hi) {
  option_->check(whole_number_in(lo, static_cast<unsigned long long>(hi)));
  return this;
}
Option* Option::check_member(const std::vector<std::string>& values) {
  option_->check(CLI::IsMember(values));
  return this;
}
Option* Option::check_existing_file() {
  option_->check(CLI::ExistingFile);
  return this;
}
Option* Option::excludes(Option* other) {
  option_->excludes(other->option_);
  return this;
}
Option* Option::excludes(const std::string& other_name) {
  option_->excludes(other_name);
  return this;
}
Option* Option::type_name(const std::string& name) {
  option_->type_name(name);
  return this;
}
Option* Option::repeatable() {
  option_->expected(1)->allow_extra_args(false)->multi_option_policy(
      CLI::MultiOptionPolicy::TakeAll);
  return this;
}
Option* Option::trigger_on_parse() {
  option_->trigger_on_parse();
  return this;
}
std::size_t Option::count() const { return option_->count(); }

Command::Command(const std::string& description, const std::string& name)
    : owned_(std::make_unique<CLI::App>(description, name)), app_(owned_.get()) {}
Command::Command(CLI::App* app) : app_(app) {}
Command::~Command() = default;

Command* Command::add_subcommand(const std::string& name, const std::string& description) {
  subcommands_.push_back(
      std::unique_ptr<Command>(new Command(app_->add_subcommand(name, description))));
  return subcommands_.back().get();
}
Command* Command::alias(const std::string& name) {
  app_->alias(name);
  return this;
}
Command* Command::require_subcommand() {
  app_->require_subcommand(1);
  return this;
}
Command* Command::callback(std::function<void()> action) {
  app_->callback(std::move(action));
  return this;
}

Option* Command::keep(CLI::Option* option) {
  options_.emplace_back(option);
  return &options_.back();
}
Option* Command::add_option(const std::string& name, std::string& value, const std::string& help) {
  return keep(app_->add_option(name, value, help));
}
Option* Command::add_option(const std::string& name, std::vector<std::string>& value,
                            const std::string& help) {
  return keep(app_->add_option(name, value, help));
}
Option* Command::add_option(const std::string& name, int& value, const std::string& help) {
  return keep(app_->add_option(name, value, help));
}
Option* Command::add_option(const std::string& name, unsigned& value, const std::string& help) {
  return keep(app_->add_option(name, value, help));
}
Option* Command::add_option(const std::string& name, long& value, const std::string& help) {
  return keep(app_->add_option(name, value, help));
}
Option* Command::add_option(const std::string& name, unsigned long& value,
                            const std::string& help) {
  return keep(app_->add_option(name, value, help));
}
Option* Command::add_option(const std::string& name, double& value, const std::string& help) {
  return keep(app_->add_option(name, value, help));
}
Option* Command::add_option(const std::string& name, std::optional<double>& value,
                            const std::string& help) {
  return keep(app_->add_option(name, value, help));
}
Option* Command::add_option(const std::string& name, std::optional<unsigned long>& value,
                            const std::string& help) {
  return keep(app_->add_option(name, value, help));
}
Option* Command::add_flag(const std::string& name, bool& value, const std::string& help) {
  return keep(app_->add_flag(name, value, help));
}
Option* Command::add_flag_callback(const std::string& name, std::function<void()> action,
                                   const std::string& help) {
  return keep(app_->add_flag_callback(name, std::move(action), help));
}

void Command::subcommands_take_parent_options() {
  for (const auto& sub : subcommands_)
    sub->app_->fallthrough();
}
std::vector<std::string> Command::subcommand_names() const {
  std::vector<std::string> names;
  for (const auto& sub : subcommands_)
    names.push_back(sub->app_->get_name());
  return names;
}
bool Command::has_subcommand(const std::string& word) const {
  for (const auto& sub : subcommands_)
    if (sub->app_->check_name(word))
      return true;
  return false;
}

std::optional<int> Command::parse(int argc, const char* const* argv, std::string_view program) {
  try {
    app_->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help (and anything else that ends well) is printed as CLI11 prints
    // it; usage errors get the same one-line form and status as bad input.
    if (e.get_exit_code() == 0)
      return app_->exit(e);
    fmt::print(stderr, "{}: {} (see --help)\n", program, e.what());
    return 1;
  }
  return std::nullopt;
}

void usage_error(const std::string& message) { throw CLI::ValidationError(message); }

} // namespace lanai::cli
