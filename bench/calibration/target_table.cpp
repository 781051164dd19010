// Reading the calibration target table (CSV).
#include "bench/calibration/target_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <tuple>

#include "emulator/text/text_file.hpp"

namespace lanai::bench {

namespace {

struct QuantityAccess {
  const char* name;
  double (*get)(const Breakdown&);
};

// Same names and order as the JSON keys of `lanai-emu pingpong --breakdown`.
const std::vector<QuantityAccess>& breakdown_quantities() {
  static const std::vector<QuantityAccess> table = {
      {"send_hdma_prog_desc", [](const Breakdown& b) { return b.send.hdma_prog_desc; }},
      {"send_desc_down", [](const Breakdown& b) { return b.send.desc_down; }},
      {"send_hdma_prog_data", [](const Breakdown& b) { return b.send.hdma_prog_data; }},
      {"send_data_down", [](const Breakdown& b) { return b.send.data_down; }},
      {"send_nsdma_done", [](const Breakdown& b) { return b.send.nsdma_done; }},
      {"send_hdma_prog_status", [](const Breakdown& b) { return b.send.hdma_prog_status; }},
      {"send_status_done", [](const Breakdown& b) { return b.send.status_done; }},
      {"recv_hdma_prog_desc", [](const Breakdown& b) { return b.recv.hdma_prog_desc; }},
      {"recv_desc_down", [](const Breakdown& b) { return b.recv.desc_down; }},
      {"recv_hdma_prog_data", [](const Breakdown& b) { return b.recv.hdma_prog_data; }},
      {"recv_data_up", [](const Breakdown& b) { return b.recv.data_up; }},
      {"recv_hdma_prog_status", [](const Breakdown& b) { return b.recv.hdma_prog_status; }},
      {"recv_status_done", [](const Breakdown& b) { return b.recv.status_done; }},
  };
  return table;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  for (;;) {
    const auto comma = line.find(',');
    fields.push_back(trim(line.substr(0, comma)));
    if (comma == std::string_view::npos)
      return fields;
    line.remove_prefix(comma + 1);
  }
}

std::uint32_t parse_size(std::string_view text, const std::string& where) {
  std::uint64_t scale = 1;
  if (!text.empty() && (text.back() == 'K' || text.back() == 'k'))
    scale = 1024;
  if (!text.empty() && (text.back() == 'M' || text.back() == 'm'))
    scale = 1024 * 1024;
  if (scale != 1)
    text.remove_suffix(1);
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 ||
      value * scale > 0xffffffffull)
    throw CalibrationError(
        fmt::format("{}: size must be a positive byte count, got '{}'", where, text));
  return static_cast<std::uint32_t>(value * scale);
}

double parse_time(std::string_view text, const std::string& where) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value) || value < 0)
    throw CalibrationError(
        fmt::format("{}: target_us must be a time >= 0 in microseconds, got '{}'", where, text));
  return value;
}

} // namespace

const std::vector<std::string>& target_quantities() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const QuantityAccess& q : breakdown_quantities())
      n.emplace_back(q.name);
    n.emplace_back("one_way");
    return n;
  }();
  return names;
}

bool is_one_way(std::string_view quantity) { return quantity == "one_way"; }

double breakdown_value(const Breakdown& b, std::string_view quantity) {
  for (const QuantityAccess& q : breakdown_quantities())
    if (quantity == q.name)
      return q.get(b);
  throw std::invalid_argument(fmt::format("not a breakdown quantity: {}", quantity));
}

std::vector<TargetCell> parse_target_table(std::string_view text, std::string_view source) {
  std::vector<TargetCell> cells;
  std::set<std::tuple<std::string, std::uint32_t, std::string>> seen;
  bool header_seen = false;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    const std::string_view line = trim(text.substr(0, eol));
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    ++line_no;
    if (line.empty() || line.front() == '#')
      continue;
    const std::string where = fmt::format("{}:{}", source, line_no);
    const auto fields = split_fields(line);
    if (!header_seen) {
      if (fields.size() != 4 || fields[0] != "firmware" || fields[1] != "size" ||
          fields[2] != "quantity" || fields[3] != "target_us")
        throw CalibrationError(fmt::format(
            "{}: expected the header 'firmware,size,quantity,target_us', got '{}'", where, line));
      header_seen = true;
      continue;
    }
    if (fields.size() != 4)
      throw CalibrationError(
          fmt::format("{}: expected 4 fields (firmware,size,quantity,target_us), got {}", where,
                      fields.size()));
    TargetCell cell;
    cell.firmware = std::string(fields[0]);
    if (cell.firmware.empty())
      throw CalibrationError(fmt::format("{}: empty firmware name", where));
    cell.size = parse_size(fields[1], where);
    cell.quantity = std::string(fields[2]);
    const auto& names = target_quantities();
    if (std::find(names.begin(), names.end(), cell.quantity) == names.end())
      throw CalibrationError(fmt::format("{}: unknown quantity '{}'; valid: {}", where,
                                         cell.quantity, fmt::join(names, ", ")));
    cell.target_us = parse_time(fields[3], where);
    cell.line = line_no;
    if (!seen.emplace(cell.firmware, cell.size, cell.quantity).second)
      throw CalibrationError(fmt::format("{}: {} {} B {} given twice", where, cell.firmware,
                                         cell.size, cell.quantity));
    cells.push_back(std::move(cell));
  }
  if (!header_seen)
    throw CalibrationError(
        fmt::format("{}: no header line 'firmware,size,quantity,target_us'", source));
  if (cells.empty())
    throw CalibrationError(fmt::format("{}: no cells", source));
  return cells;
}

std::vector<TargetCell> read_target_table(const std::filesystem::path& file) {
  return parse_target_table(
      text::text_of_file<CalibrationError>(file, "cannot read the target table"), file.string());
}

} // namespace lanai::bench
