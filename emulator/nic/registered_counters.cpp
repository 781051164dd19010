// Reading the firmware's counter table from the card's SRAM. Entries are
// two big-endian words, the name's address and the counter's.
#include "emulator/nic/registered_counters.hpp"

#include "lanai/firmware_counters.h"

namespace lanai::nic {

namespace {

constexpr std::size_t kMaxName = 63;

bool name_char(std::uint8_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

} // namespace

std::vector<FirmwareCounter> firmware_counters(const Card& card) {
  std::vector<FirmwareCounter> counters;
  const std::string section = LANAI_COUNTER_SECTION;
  const auto begin = card.image().find_symbol("__start_" + section);
  const auto end = card.image().find_symbol("__stop_" + section);
  if (!begin || !end)
    return counters;
  const std::uint32_t sram = card.cpu().sram_bytes();
  auto inside = [&](std::uint32_t address, std::uint32_t bytes) {
    return address % 4 == 0 && address <= sram && bytes <= sram - address;
  };
  for (std::uint32_t entry = *begin; entry + 8 <= *end && inside(entry, 8); entry += 8) {
    const std::uint32_t name_at = card.sram_word(entry);
    const std::uint32_t value_at = card.sram_word(entry + 4);
    if (!inside(value_at, 4))
      continue;
    std::string name;
    bool ended = false;
    for (std::uint32_t a = name_at; a < sram && name.size() <= kMaxName; ++a) {
      const auto c = static_cast<std::uint8_t>(card.sram_word(a & ~3u) >> (24 - 8 * (a % 4)));
      if (c == 0) {
        ended = true;
        break;
      }
      if (!name_char(c))
        break;
      name += static_cast<char>(c);
    }
    if (!ended || name.empty())
      continue;
    counters.push_back({std::move(name), card.sram_word(value_at)});
  }
  return counters;
}

} // namespace lanai::nic
