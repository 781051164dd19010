// `lanai-emu disasm`: decode instruction words, or list a linked image's
// code with symbols, in the syntax llvm-objdump uses.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "emulator/cli/commands.hpp"
#include "emulator/cli/profile_option.hpp"
#include "emulator/iss/disassembler.hpp"
#include "emulator/machine/standalone_machine.hpp"

namespace lanai::cli {

namespace {

struct DisasmOptions {
  std::vector<std::string> words;
  std::vector<std::string> objects;
  std::string profile;
};

int run_disasm(const DisasmOptions& o) {
  for (const auto& text : o.words) {
    std::size_t used = 0;
    unsigned long long w = 0;
    try {
      w = std::stoull(text, &used, 16);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || w > 0xFFFFFFFFull)
      throw std::runtime_error(fmt::format("'{}' is not a 32-bit hexadecimal word", text));
    fmt::print("{:08x}\t{}\n", w, iss::disassemble(static_cast<std::uint32_t>(w)));
  }
  if (o.objects.empty())
    return 0;
  const auto profile = resolve_profile(o.profile);
  std::vector<std::filesystem::path> paths(o.objects.begin(), o.objects.end());
  const auto image = machine::link_program(paths, profile);
  for (std::uint32_t a = image.text_begin; a + 4 <= image.text_end; a += 4) {
    const auto it = image.functions.find(a);
    if (it != image.functions.end())
      fmt::print("\n{:08x} <{}>:\n", a, it->second.name);
    const std::size_t off = a - image.base;
    const std::uint32_t w = std::uint32_t(image.bytes[off]) << 24 |
                            std::uint32_t(image.bytes[off + 1]) << 16 |
                            std::uint32_t(image.bytes[off + 2]) << 8 | image.bytes[off + 3];
    fmt::print("{:8x}: {:08x}\t{}\n", a, w, iss::disassemble(w));
  }
  return 0;
}

} // namespace

void add_disasm_command(Command& app, int& exit_status) {
  auto opts = std::make_shared<DisasmOptions>();
  auto* cmd = app.add_subcommand("disasm", "Disassemble instruction words or linked Lanai objects");
  cmd->add_option("--word,-w", opts->words,
                  "instruction words in hexadecimal (e.g. 0x0290 0008 as 02900008)");
  cmd->add_option("objects", opts->objects, "Lanai objects to link (with the runtime) and list");
  cmd->add_option("--profile", opts->profile, "hardware profile (TOML)");
  cmd->callback([opts, &exit_status] { exit_status = run_disasm(*opts); });
}

} // namespace lanai::cli
