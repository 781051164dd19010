// Loading, validating and printing hardware profiles (TOML via toml++).
#include "profile/hardware_profile.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <toml++/toml.h>

namespace lanai::profile {

const std::vector<ParamInfo>& parameter_table() {
  static const std::vector<ParamInfo> table = {
      {"lanai.clock_mhz", "MHz", "LANai processor clock", &LanaiParams::clock_mhz, nullptr},
      {"lanai.sram_bytes", "bytes", "card SRAM size (firmware, buffers and stack)", nullptr,
       &LanaiParams::sram_bytes},
      {"lanai.alu_cycles", "cycles", "ALU, shift, select, set-condition and bit-count instructions",
       nullptr, &LanaiParams::alu_cycles},
      {"lanai.load_cycles", "cycles", "SRAM load (any width) and load-immediate", nullptr,
       &LanaiParams::load_cycles},
      {"lanai.store_cycles", "cycles", "SRAM store (any width)", nullptr, &LanaiParams::store_cycles},
      {"lanai.branch_taken_cycles", "cycles",
       "taken branch or register jump, including the delay-slot refill", nullptr,
       &LanaiParams::branch_taken_cycles},
      {"lanai.branch_untaken_cycles", "cycles", "conditional branch not taken", nullptr,
       &LanaiParams::branch_untaken_cycles},
      {"lanai.mmio_cycles", "cycles", "load or store to a memory-mapped device register", nullptr,
       &LanaiParams::mmio_cycles},
      {"lanai.load_use_stall_cycles", "cycles",
       "interlock when an instruction reads the register loaded by the one before", nullptr,
       &LanaiParams::load_use_stall_cycles},
  };
  return table;
}

HardwareProfile default_profile() { return HardwareProfile{}; }

namespace {

void validate(const HardwareProfile& p, std::string_view source) {
  const auto& l = p.lanai;
  if (!(l.clock_mhz > 0.0 && l.clock_mhz <= 10000.0))
    throw ProfileError(fmt::format("{}: lanai.clock_mhz must be in (0, 10000], got {}", source,
                                   l.clock_mhz));
  if (l.sram_bytes < 4096 || l.sram_bytes > (1u << 25) || l.sram_bytes % 4 != 0)
    throw ProfileError(fmt::format(
        "{}: lanai.sram_bytes must be a multiple of 4 in [4096, 33554432], got {}", source,
        l.sram_bytes));
  for (const auto& info : parameter_table()) {
    if (!info.integer || info.key == "lanai.sram_bytes") continue;
    const std::uint32_t v = l.*(info.integer);
    // Every instruction must take time, or a program could run forever in
    // zero virtual time; only the interlock penalty may be zero.
    const std::uint32_t lowest = info.key == "lanai.load_use_stall_cycles" ? 0 : 1;
    if (v < lowest || v > 1000)
      throw ProfileError(fmt::format("{}: {} must be in [{}, 1000] cycles, got {}", source,
                                     info.key, lowest, v));
  }
}

const ParamInfo* find_param(std::string_view key) {
  for (const auto& info : parameter_table())
    if (info.key == key) return &info;
  return nullptr;
}

void apply_value(HardwareProfile& p, const ParamInfo& info, const toml::node& node,
                 std::string_view source) {
  if (info.real) {
    auto v = node.value<double>();
    if (!v || !std::isfinite(*v))
      throw ProfileError(fmt::format("{}: {} must be a number", source, info.key));
    p.lanai.*(info.real) = *v;
    return;
  }
  auto v = node.value<std::int64_t>();
  if (!node.is_integer() || !v || *v < 0 || *v > std::numeric_limits<std::uint32_t>::max())
    throw ProfileError(fmt::format("{}: {} must be a non-negative integer", source, info.key));
  p.lanai.*(info.integer) = static_cast<std::uint32_t>(*v);
}

void walk(HardwareProfile& p, const toml::table& table, const std::string& prefix,
          std::string_view source) {
  for (const auto& [k, node] : table) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (prefix.empty() && key == "name") {
      auto v = node.value<std::string>();
      if (!v) throw ProfileError(fmt::format("{}: name must be a string", source));
      p.name = *v;
      continue;
    }
    if (const auto* sub = node.as_table()) {
      walk(p, *sub, key, source);
      continue;
    }
    const ParamInfo* info = find_param(key);
    if (!info) throw ProfileError(fmt::format("{}: unknown key '{}'", source, key));
    apply_value(p, *info, node, source);
  }
}

} // namespace

HardwareProfile parse_profile(std::string_view text, std::string_view source) {
  toml::table table;
  try {
    table = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw ProfileError(fmt::format("{}:{}:{}: {}", source, b.line, b.column, e.description()));
  }
  HardwareProfile p = default_profile();
  walk(p, table, "", source);
  validate(p, source);
  return p;
}

HardwareProfile load_profile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ProfileError(fmt::format("{}: cannot open profile", file.string()));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_profile(ss.str(), file.string());
}

// A TOML basic string, escaped so any name survives a dump and reload.
static std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7F) {
      out += fmt::format("\\u{:04X}", c);
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string dump_profile(const HardwareProfile& p) {
  std::string out = fmt::format("# resolved hardware profile\nname = {}\n", toml_string(p.name));
  std::string section;
  for (const auto& info : parameter_table()) {
    const auto dot = info.key.find('.');
    const std::string_view sec = info.key.substr(0, dot);
    if (sec != section) {
      section = std::string(sec);
      out += fmt::format("\n[{}]\n", section);
    }
    const std::string value = info.real ? fmt::format("{}", p.lanai.*(info.real))
                                        : fmt::format("{}", p.lanai.*(info.integer));
    std::string shown = value;
    if (info.real && shown.find_first_of(".e") == std::string::npos) shown += ".0";
    out += fmt::format("{} = {}  # {} ({})\n", info.key.substr(dot + 1), shown, info.description,
                       info.unit);
  }
  return out;
}

} // namespace lanai::profile
