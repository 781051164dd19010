// `lanai-emu config`: print the resolved hardware profile with each
// parameter's meaning and unit.
#include <fmt/format.h>

#include <string>

#include "emulator/cli/commands.hpp"
#include "emulator/profile/profile_search.hpp"

namespace lanai::cli {

void add_config_command(Command& app, int& exit_status) {
  auto path = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "config", "Print the resolved hardware profile (defaults overlaid with --profile)");
  cmd->alias("dump-config");
  cmd->add_option("--profile", *path, "hardware profile: shipped name or TOML file");
  cmd->callback([path, &exit_status] {
    fmt::print("{}", profile::dump_profile(profile::find_profile(*path)));
    exit_status = 0;
  });
}

} // namespace lanai::cli
