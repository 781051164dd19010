// `lanai-emu firmware`: the firmware SDK's command line. Lists the shipped
// firmwares and their parts, shows which symbols each part defines (what a
// variant replacing it must define), assembles a variant folder from a
// base and the variant's objects, and checks that a firmware links.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>
#include <vector>

#include "emulator/cli/commands.hpp"
#include "emulator/profile/profile_search.hpp"
#include "emulator/loader/firmware_lookup.hpp"
#include "emulator/loader/firmware_parts.hpp"
#include "emulator/loader/firmware_variant.hpp"
#include "emulator/machine/standalone_machine.hpp"

namespace lanai::cli {

namespace {

struct FirmwareOptions {
  std::string firmware;             // show, check
  bool symbols = false;             // show
  std::string base, out;            // variant
  std::vector<std::string> objects; // variant
  std::string profile;              // check
};

std::vector<std::string> part_names(const std::vector<loader::FirmwarePart>& parts) {
  std::vector<std::string> names;
  for (const auto& p : parts)
    names.push_back(p.name);
  return names;
}

int run_list() {
  for (const std::string& name : loader::firmware_names()) {
    const loader::FirmwareSource f = loader::find_firmware(name);
    const auto parts = loader::read_parts(f.folder);
    fmt::print("{:<14} {}\n", name, f.folder.string());
    const std::string listed = parts.empty()
                                   ? std::string("(none: not a base)")
                                   : fmt::format("{}", fmt::join(part_names(parts), ", "));
    fmt::print("{:<14} parts: {}\n", "", listed);
  }
  return 0;
}

int run_show(const FirmwareOptions& o) {
  const loader::FirmwareSource f = loader::find_firmware(o.firmware);
  fmt::print("firmware {} in {}\n", f.label, f.folder.string());
  auto parts = loader::read_parts(f.folder);
  if (parts.empty()) {
    // A folder made by hand: one unnamed group of every object it lists.
    loader::FirmwarePart all{"(objects.txt)", {}};
    for (const auto& object : loader::firmware_objects(f))
      all.objects.push_back(object.filename().string());
    parts.push_back(std::move(all));
  }
  for (const loader::FirmwarePart& part : parts) {
    fmt::print("{:<14} {}\n", part.name, fmt::join(part.objects, " "));
    if (!o.symbols)
      continue;
    for (const std::string& object : part.objects)
      for (const std::string& symbol : loader::defined_symbols(f.folder / object))
        fmt::print("{:<14}   {}\n", "", loader::demangle(symbol));
  }
  return 0;
}

int run_variant(const FirmwareOptions& o) {
  const loader::FirmwareSource base = loader::find_firmware(o.base);
  const std::vector<std::filesystem::path> objects(o.objects.begin(), o.objects.end());
  const loader::VariantPlan plan = loader::assemble_variant(base, objects, o.out);
  if (plan.replaced.empty())
    fmt::print("{}: {} with part {} added\n", o.out, base.label, plan.own_part);
  else
    fmt::print("{}: {} with {} replaced\n", o.out, base.label, fmt::join(plan.replaced, ", "));
  return 0;
}

int run_check(const FirmwareOptions& o) {
  const loader::FirmwareSource f = loader::find_firmware(o.firmware);
  const auto profile = profile::find_profile(o.profile);
  const loader::LinkedImage image = machine::link_firmware(f, profile);
  fmt::print("{}: links, {} bytes of code and data in {} bytes of SRAM\n", f.label,
             image.image_end - image.base, profile.lanai.sram_bytes);
  return 0;
}

} // namespace

void add_firmware_command(Command& app, int& exit_status) {
  auto o = std::make_shared<FirmwareOptions>();
  auto* cmd = app.add_subcommand(
      "firmware", "The firmware SDK: list the shipped firmwares and their parts, show a part's "
                  "symbols, assemble a variant, check that a firmware links");
  cmd->require_subcommand();

  auto* list = cmd->add_subcommand("list", "The shipped firmwares, where they are and their parts");
  list->callback([&exit_status] { exit_status = run_list(); });

  auto* show = cmd->add_subcommand(
      "show", "A firmware's parts and their objects; with --symbols the global symbols each "
              "part defines (those a variant replacing the part defines)");
  show->add_option("firmware", o->firmware, "a shipped name or a firmware folder's path")
      ->required();
  show->add_flag("--symbols", o->symbols, "list each part's global symbols, demangled");
  show->callback([o, &exit_status] { exit_status = run_show(*o); });

  auto* variant = cmd->add_subcommand(
      "variant", "Write a variant folder: BASE's parts, less every part that defines a symbol "
                 "the objects also define, plus the objects (docs/firmware-variants.md)");
  variant
      ->add_option("--base", o->base, "the firmware it varies: a shipped name or a folder's path")
      ->required();
  variant->add_option("--out", o->out, "the variant's folder (made if missing)")->required();
  variant->add_option("objects", o->objects, "the variant's own LANai objects")->required();
  variant->callback([o, &exit_status] { exit_status = run_variant(*o); });

  auto* check = cmd->add_subcommand(
      "check", "Link a firmware with the runtime, as every run does at its start, and say so");
  check->add_option("firmware", o->firmware, "a shipped name or a firmware folder's path")
      ->required();
  check->add_option("--profile", o->profile,
                    "hardware profile: shipped name or TOML file; default: the built-in one");
  check->callback([o, &exit_status] { exit_status = run_check(*o); });
}

} // namespace lanai::cli
