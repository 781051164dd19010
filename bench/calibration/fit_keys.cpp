// Binding fitted parameters to the hardware profile's keys.
#include "bench/calibration/fit_keys.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "bench/calibration/target_table.hpp"

namespace lanai::bench {

namespace {

const profile::ParamInfo* find_key(std::string_view key) {
  for (const profile::ParamInfo& info : profile::parameter_table())
    if (info.key == key)
      return &info;
  return nullptr;
}

std::string valid_keys() {
  std::vector<std::string_view> keys;
  for (const profile::ParamInfo& info : profile::parameter_table())
    keys.push_back(info.key);
  return fmt::format("{}", fmt::join(keys, ", "));
}

double parse_bound(std::string_view text, std::string_view item) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw CalibrationError(fmt::format("--fit: bad range in '{}' (expected KEY=LO:HI)", item));
  return v;
}

} // namespace

std::vector<FitParameter> parse_fit_keys(std::string_view list,
                                         const profile::HardwareProfile& base) {
  std::vector<FitParameter> keys;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    list.remove_prefix(comma == std::string_view::npos ? list.size() : comma + 1);
    if (item.empty())
      continue;
    const auto eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    const profile::ParamInfo* info = find_key(key);
    if (!info)
      throw CalibrationError(
          fmt::format("--fit: unknown key '{}'; valid keys: {}", key, valid_keys()));
    for (const FitParameter& k : keys)
      if (k.name == key)
        throw CalibrationError(fmt::format("--fit: key '{}' given twice", key));
    FitParameter p;
    p.name = std::string(key);
    p.integer = info->integer != nullptr;
    p.initial = p.integer ? info->integer_value(base) : info->real_value(base);
    p.upper = info->max;
    // Real ranges exclude their minimum (a clock or rate of 0 means nothing).
    p.lower = p.integer ? info->min : info->min + 1e-6 * (info->max - info->min);
    if (eq != std::string_view::npos) {
      const std::string_view range = item.substr(eq + 1);
      const auto colon = range.find(':');
      if (colon == std::string_view::npos)
        throw CalibrationError(fmt::format("--fit: bad range in '{}' (expected KEY=LO:HI)", item));
      p.lower = std::max(p.lower, parse_bound(range.substr(0, colon), item));
      p.upper = std::min(p.upper, parse_bound(range.substr(colon + 1), item));
      if (!(p.lower <= p.upper))
        throw CalibrationError(fmt::format(
            "--fit: empty range for {} (the profile allows {} to {})", key, info->min, info->max));
    }
    if (p.integer && info->multiple_of != 1)
      throw CalibrationError(fmt::format("--fit: {} must be a multiple of {} and cannot be fitted",
                                         key, info->multiple_of));
    keys.push_back(std::move(p));
  }
  return keys;
}

profile::HardwareProfile apply_fit(const profile::HardwareProfile& base,
                                   const std::vector<FitParameter>& keys,
                                   const std::vector<double>& values) {
  profile::HardwareProfile p = base;
  for (std::size_t j = 0; j < keys.size(); ++j) {
    const profile::ParamInfo* info = find_key(keys[j].name);
    const double v = std::clamp(values.at(j), keys[j].lower, keys[j].upper);
    if (info->integer)
      *info->integer(p) = static_cast<std::uint32_t>(std::llround(v));
    else
      *info->real(p) = v;
  }
  return p;
}

} // namespace lanai::bench
