#include "bench/commands/command_options.hpp"

#include <fmt/format.h>
#include <lanai/via_abi.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace lanai::bench {

namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::string item;
  for (char c : list + ",") {
    if (c == ',') {
      if (!item.empty())
        items.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  return items;
}

std::uint64_t parse_number(const std::string& item, const std::string& what) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(item, &used);
  } catch (const std::exception&) {
    throw std::invalid_argument(fmt::format("{} '{}' is not a number", what, item));
  }
  std::uint64_t scale = 1;
  const std::string suffix = item.substr(used);
  if (suffix == "K" || suffix == "k")
    scale = 1024;
  else if (suffix == "M" || suffix == "m")
    scale = 1024 * 1024;
  else if (!suffix.empty())
    throw std::invalid_argument(fmt::format("{} '{}': unknown suffix '{}'", what, item, suffix));
  if (item[0] == '-')
    throw std::invalid_argument(fmt::format("{} '{}' is negative", what, item));
  return v * scale;
}

} // namespace

std::vector<std::uint32_t> parse_sizes(const std::string& list) {
  std::vector<std::uint32_t> out;
  for (const std::string& item : split(list)) {
    const std::uint64_t v = parse_number(item, "size");
    if (v < 1 || v > 65536)
      throw std::invalid_argument(fmt::format("size '{}' outside 1..65536 bytes", item));
    out.push_back(static_cast<std::uint32_t>(v));
  }
  if (out.empty())
    throw std::invalid_argument("no sizes given");
  return out;
}

std::vector<std::uint32_t> parse_counts(const std::string& list, const std::string& what) {
  std::vector<std::uint32_t> out;
  for (const std::string& item : split(list)) {
    const std::uint64_t v = parse_number(item, what);
    if (v < 1 || v > 1'000'000)
      throw std::invalid_argument(fmt::format("{} '{}' outside 1..1000000", what, item));
    out.push_back(static_cast<std::uint32_t>(v));
  }
  if (out.empty())
    throw std::invalid_argument(fmt::format("no {}s given", what));
  return out;
}

OutputFormat parse_format(const std::string& name) {
  if (name == "table")
    return OutputFormat::table;
  if (name == "csv")
    return OutputFormat::csv;
  if (name == "json")
    return OutputFormat::json;
  throw std::invalid_argument(fmt::format("unknown format '{}' (table, csv or json)", name));
}

void write_firmware_profile(const std::string& path, const host::FirmwareProfiler& profiler) {
  std::ostringstream csv;
  host::write_profile_csv(csv, profiler.report());
  write_text_file(path, csv.str());
}

std::vector<double> parse_probabilities(const std::string& list) {
  std::vector<double> out;
  for (const std::string& item : split(list)) {
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size())
      throw std::invalid_argument(fmt::format("drop probability '{}' is not a number", item));
    if (!(v >= 0 && v <= 1))
      throw std::invalid_argument(fmt::format("drop probability '{}' outside 0..1", item));
    if (!out.empty() && v <= out.back())
      throw std::invalid_argument(
          fmt::format("drop probability '{}': list them in ascending order, once each", item));
    out.push_back(v);
  }
  if (out.empty())
    throw std::invalid_argument("no drop probabilities given");
  return out;
}

std::uint32_t parse_reliability(const std::string& name) {
  if (name == "reception")
    return VIP_SERVICE_RELIABLE_RECEPTION;
  if (name == "delivery")
    return VIP_SERVICE_RELIABLE_DELIVERY;
  if (name == "unreliable")
    return VIP_SERVICE_UNRELIABLE;
  throw std::invalid_argument("unknown reliability level \"" + name + "\"");
}

std::string reliability_suffix(const std::string& name) {
  if (name == "delivery")
    return ", Reliable Delivery VIs";
  if (name == "reception")
    return ", Reliable Reception VIs";
  return "";
}

std::string reliability_json(const std::string& name) {
  return name == "unreliable" ? "" : fmt::format("\"reliability\":\"{}\",", name);
}

void write_text_file(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out)
    throw std::runtime_error(fmt::format("{}: cannot write", path));
}

} // namespace lanai::bench
