// Loading, validating and printing hardware profiles (TOML via toml++).
#include "emulator/profile/hardware_profile.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <set>
#include <toml++/toml.h>

#include "emulator/text/text_file.hpp"

namespace lanai::profile {

namespace {

// Shorthands for the table below; each field gets an accessor function.
#define LANAI_REAL(field) [](HardwareProfile& p) -> double* { return &p.field; }, nullptr
#define LANAI_INT(field) nullptr, [](HardwareProfile& p) -> std::uint32_t* { return &p.field; }

} // namespace

const std::vector<ParamInfo>& parameter_table() {
  // Every instruction class takes at least one cycle, or a program could
  // run forever in zero virtual time; only the interlock may be free.
  static const std::vector<ParamInfo> table = {
      {"lanai.clock_mhz", "MHz", "LANai processor clock", LANAI_REAL(lanai.clock_mhz), 0.0,
       10000.0},
      {"lanai.sram_bytes", "bytes", "card SRAM size (firmware, buffers and stack)",
       LANAI_INT(lanai.sram_bytes), 4096, 33554432, 4},
      {"lanai.alu_cycles", "cycles", "ALU, shift, select, set-condition and bit-count instructions",
       LANAI_INT(lanai.alu_cycles), 1, 1000},
      {"lanai.load_cycles", "cycles", "SRAM load (any width) and load-immediate",
       LANAI_INT(lanai.load_cycles), 1, 1000},
      {"lanai.store_cycles", "cycles", "SRAM store (any width)", LANAI_INT(lanai.store_cycles), 1,
       1000},
      {"lanai.branch_taken_cycles", "cycles",
       "taken branch or register jump, including the delay-slot refill",
       LANAI_INT(lanai.branch_taken_cycles), 1, 1000},
      {"lanai.branch_untaken_cycles", "cycles", "conditional branch not taken",
       LANAI_INT(lanai.branch_untaken_cycles), 1, 1000},
      {"lanai.mmio_cycles", "cycles", "load or store to a memory-mapped device register",
       LANAI_INT(lanai.mmio_cycles), 1, 1000},
      {"lanai.load_use_stall_cycles", "cycles",
       "interlock when an instruction reads the register loaded by the one before",
       LANAI_INT(lanai.load_use_stall_cycles), 0, 1000},
      {"wire.link_mbytes_per_s", "MB/s", "bandwidth of one link, each way",
       LANAI_REAL(wire.link_mbytes_per_s), 0.0, 100000.0},
      {"wire.link_latency_ns", "ns", "propagation delay of a link: cable plus link interfaces",
       LANAI_INT(wire.link_latency_ns), 0, 1000000},
      {"wire.switch_latency_ns", "ns", "switch routing delay from head arrival to forwarding",
       LANAI_INT(wire.switch_latency_ns), 0, 1000000},
      {"wire.max_payload_bytes", "bytes", "largest packet payload a network port sends",
       LANAI_INT(wire.max_payload_bytes), 1, 16777216},
      {"nic.doorbell_entries", "entries", "doorbell FIFO capacity (per VI queue in per-VI mode)",
       LANAI_INT(nic.doorbell_entries), 1, 65535},
      {"nic.per_vi_doorbells", "0/1",
       "0: doorbells merged into one FIFO (LANai 7); 1: per-VI queues",
       LANAI_INT(nic.per_vi_doorbells), 0, 1},
      {"nic.hdma_queue_entries", "entries", "host DMA hardware request queue capacity",
       LANAI_INT(nic.hdma_queue_entries), 1, 4096},
      {"nic.hdma_race_entries", "entries",
       "queue head entries the host DMA engine may already have taken (insertions land behind)",
       LANAI_INT(nic.hdma_race_entries), 0, 4096},
      {"nic.hdma_setup_ns", "ns", "host DMA per-request setup on the PCI bus",
       LANAI_INT(nic.hdma_setup_ns), 0, 1000000},
      {"nic.pci_mbytes_per_s", "MB/s", "host DMA data rate; both directions share the PCI bus",
       LANAI_REAL(nic.pci_mbytes_per_s), 0.0, 100000.0},
      {"nic.nsdma_setup_ns", "ns", "network send DMA start-up before the head leaves",
       LANAI_INT(nic.nsdma_setup_ns), 0, 1000000},
      {"nic.nrdma_setup_ns", "ns", "network receive DMA: from a packet's tail to done in SRAM",
       LANAI_INT(nic.nrdma_setup_ns), 0, 1000000},
      {"nic.retransmit_timeout_us", "us",
       "firmware that retransmits: wait for a reliable packet's acknowledgement before resending",
       LANAI_INT(nic.retransmit_timeout_us), 1, 10000000},
      {"nic.retry_limit", "resends",
       "firmware that retransmits: unanswered resends in a row before the VI breaks",
       LANAI_INT(nic.retry_limit), 0, 1000},
      {"host.call_ns", "ns", "host CPU time to enter any VIPL call", LANAI_INT(host.call_ns), 0,
       100000000},
      {"host.post_ns", "ns", "host CPU time to check and post one descriptor",
       LANAI_INT(host.post_ns), 0, 100000000},
      {"host.pio_write_ns", "ns", "one posted PCI write from the host to the card (a doorbell)",
       LANAI_INT(host.pio_write_ns), 0, 100000000},
      {"host.poll_ns", "ns", "host CPU time for one look at a descriptor status or queue",
       LANAI_INT(host.poll_ns), 1, 100000000},
      {"host.clock_read_ns", "ns",
       "host CPU time for one clock read (gettimeofday, clock_gettime, time) by a launched program",
       LANAI_INT(host.clock_read_ns), 1, 100000000},
      {"host.register_ns", "ns", "registering or deregistering one memory region",
       LANAI_INT(host.register_ns), 0, 100000000},
      {"host.connect_ns", "ns", "one connection-manager message between two hosts",
       LANAI_INT(host.connect_ns), 0, 1000000000},
      {"host.admission_fraction", "fraction",
       "QoS admission control: share of a link's bandwidth the reserved rates may take "
       "(0 = off)",
       LANAI_REAL(host.admission_fraction), 0.0, 1.0, 1, true},
      {"faults.drop_probability", "fraction",
       "chance that a link drops a packet entering it (0 = never)",
       LANAI_REAL(faults.drop_probability), 0.0, 1.0, 1, false, true},
      {"faults.corrupt_probability", "fraction",
       "chance that a link flips one bit of a packet it carries (0 = never)",
       LANAI_REAL(faults.corrupt_probability), 0.0, 1.0, 1, false, true},
      {"faults.seed", "seed", "seed of the links' fault streams", LANAI_INT(faults.seed), 0,
       4294967295.0},
  };
  return table;
}

#undef LANAI_REAL
#undef LANAI_INT

HardwareProfile default_profile() { return HardwareProfile{}; }

namespace {

void validate(const HardwareProfile& p, std::string_view source) {
  for (const auto& info : parameter_table()) {
    if (info.real) {
      const double v = info.real_value(p);
      if (info.zero_means_off && v == 0.0)
        continue;
      const bool above_min = info.inclusive_min ? v >= info.min : v > info.min;
      if (!(above_min && v <= info.max))
        throw ProfileError(fmt::format("{}: {} must be {}in {}{}, {}], got {}", source, info.key,
                                       info.zero_means_off ? "0 (off) or " : "",
                                       info.inclusive_min ? "[" : "(", info.min, info.max, v));
      continue;
    }
    const std::uint32_t v = info.integer_value(p);
    if (v < info.min || v > info.max || v % info.multiple_of != 0) {
      const std::string multiple =
          info.multiple_of > 1 ? fmt::format("a multiple of {} ", info.multiple_of) : "";
      throw ProfileError(fmt::format("{}: {} must be {}in [{}, {}] {}, got {}", source, info.key,
                                     multiple, info.min, info.max, info.unit, v));
    }
  }
}

// faults.link_down: an array of {link, from_us, until_us} tables.
void read_link_down(HardwareProfile& p, const toml::node& node, std::string_view source) {
  const auto* windows = node.as_array();
  if (!windows)
    throw ProfileError(fmt::format(
        "{}: faults.link_down must be an array of {{link, from_us, until_us}} tables", source));
  p.faults.link_down.clear();
  for (std::size_t i = 0; i < windows->size(); ++i) {
    const std::string where = fmt::format("{}: faults.link_down[{}]", source, i);
    const auto* t = (*windows)[i].as_table();
    if (!t)
      throw ProfileError(where + " must be a table {link, from_us, until_us}");
    for (const auto& [k, v] : *t)
      if (k.str() != "link" && k.str() != "from_us" && k.str() != "until_us")
        throw ProfileError(fmt::format("{}: unknown key '{}'", where, k.str()));
    LinkDownWindow w;
    const auto link = (*t)["link"].value<std::string>();
    const auto from = (*t)["from_us"].value<double>();
    const auto until = (*t)["until_us"].value<double>();
    if (!link || link->empty())
      throw ProfileError(where + ".link must be a link's name");
    if (!from || !until || !std::isfinite(*from) || !std::isfinite(*until))
      throw ProfileError(where + " needs numbers from_us and until_us");
    if (*from < 0.0 || *until <= *from)
      throw ProfileError(
          fmt::format("{} must have 0 <= from_us < until_us, got {} and {}", where, *from, *until));
    w.link = *link;
    w.from_us = *from;
    w.until_us = *until;
    p.faults.link_down.push_back(std::move(w));
  }
}

const ParamInfo* find_param(std::string_view key) {
  for (const auto& info : parameter_table())
    if (info.key == key)
      return &info;
  return nullptr;
}

void apply_value(HardwareProfile& p, const ParamInfo& info, const toml::node& node,
                 std::string_view source) {
  if (info.real) {
    auto v = node.value<double>();
    if (!v || !std::isfinite(*v))
      throw ProfileError(fmt::format("{}: {} must be a number", source, info.key));
    *info.real(p) = *v;
    return;
  }
  // Only an integer node is read as one: toml++ would convert a float out
  // of range of the type first, which is undefined.
  const auto v = node.is_integer() ? node.value<std::int64_t>() : std::nullopt;
  if (!v || *v < 0 || *v > std::numeric_limits<std::uint32_t>::max())
    throw ProfileError(fmt::format("{}: {} must be a non-negative integer", source, info.key));
  *info.integer(p) = static_cast<std::uint32_t>(*v);
}

void walk(HardwareProfile& p, const toml::table& table, const std::string& prefix,
          std::string_view source) {
  for (const auto& [k, node] : table) {
    const std::string key =
        prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (prefix.empty() && key == "name") {
      auto v = node.value<std::string>();
      if (!v)
        throw ProfileError(fmt::format("{}: name must be a string", source));
      p.name = *v;
      continue;
    }
    if (key == "faults.link_down") {
      read_link_down(p, node, source);
      continue;
    }
    if (const auto* sub = node.as_table()) {
      walk(p, *sub, key, source);
      continue;
    }
    const ParamInfo* info = find_param(key);
    if (!info)
      throw ProfileError(fmt::format("{}: unknown key '{}'", source, key));
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
  return parse_profile(text::text_of_file<ProfileError>(file, "cannot open profile"),
                       file.string());
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
    const std::string value = info.real ? fmt::format("{}", info.real_value(p))
                                        : fmt::format("{}", info.integer_value(p));
    std::string shown = value;
    if (info.real && shown.find_first_of(".e") == std::string::npos)
      shown += ".0";
    out += fmt::format("{} = {}  # {} ({})\n", info.key.substr(dot + 1), shown, info.description,
                       info.unit);
  }
  if (!p.faults.link_down.empty()) {
    out += "# windows of virtual time during which a link drops everything\nlink_down = [\n";
    for (const LinkDownWindow& w : p.faults.link_down)
      out += fmt::format("  {{link = {}, from_us = {}, until_us = {}}},\n", toml_string(w.link),
                         w.from_us, w.until_us);
    out += "]\n";
  }
  return out;
}

} // namespace lanai::profile
