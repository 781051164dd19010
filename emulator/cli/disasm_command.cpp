// `lanai-emu disasm`: decode instruction words, or list a linked image's
// code with symbols, in the syntax llvm-objdump uses.
#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "emulator/cli/commands.hpp"
#include "emulator/profile/profile_search.hpp"
#include "emulator/iss/disassembler.hpp"
#include "emulator/machine/standalone_machine.hpp"

namespace lanai::cli {

namespace {

struct DisasmOptions {
  std::vector<std::string> words;
  std::vector<std::string> objects;
  std::string profile;
};

// Everything is read and checked before anything is printed: bad input
// gives its one-line error alone.
int run_disasm(const DisasmOptions& o) {
  std::vector<std::uint32_t> words;
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
    words.push_back(static_cast<std::uint32_t>(w));
  }
  std::optional<loader::LinkedImage> image;
  if (!o.objects.empty()) {
    std::vector<std::filesystem::path> paths(o.objects.begin(), o.objects.end());
    image = machine::link_program(paths, profile::find_profile(o.profile));
  }
  for (const std::uint32_t w : words)
    fmt::print("{:08x}\t{}\n", w, iss::disassemble(w));
  if (!image)
    return 0;
  for (std::uint32_t a = image->text_begin; a + 4 <= image->text_end; a += 4) {
    const auto it = image->functions.find(a);
    if (it != image->functions.end())
      fmt::print("\n{:08x} <{}>:\n", a, it->second.name);
    const std::size_t off = a - image->base;
    const std::uint32_t w = std::uint32_t(image->bytes[off]) << 24 |
                            std::uint32_t(image->bytes[off + 1]) << 16 |
                            std::uint32_t(image->bytes[off + 2]) << 8 | image->bytes[off + 3];
    fmt::print("{:8x}: {:08x}\t{}\n", a, w, iss::disassemble(w));
  }
  return 0;
}

} // namespace

void add_disasm_command(Command& app, int& exit_status) {
  auto opts = std::make_shared<DisasmOptions>();
  auto* cmd = app.add_subcommand("disasm", "Disassemble instruction words or linked Lanai objects");
  // One word per --word, so that objects may follow it (disasm --word W prog.o).
  cmd->add_option("--word,-w", opts->words,
                  "an instruction word in hexadecimal (e.g. 0x0290 0008 as 02900008); "
                  "repeat for more")
      ->repeatable();
  cmd->add_option("objects", opts->objects, "Lanai objects to link (with the runtime) and list");
  cmd->add_option("--profile", opts->profile, "hardware profile: shipped name or TOML file");
  cmd->callback([opts, &exit_status] { exit_status = run_disasm(*opts); });
}

} // namespace lanai::cli
