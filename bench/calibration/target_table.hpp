// The calibration target: published latencies as a CSV table, one cell a
// line (firmware, message size, quantity, time in microseconds). The
// quantities are the rows of the ping-pong latency breakdown plus the
// host's 1-way latency.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench/workloads/breakdown.hpp"

namespace lanai::bench {

class CalibrationError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct TargetCell {
  std::string firmware;   // "svia", "pvia", "qosvia", ...
  std::uint32_t size = 0; // message bytes
  std::string quantity;   // one of target_quantities()
  double target_us = 0;
  std::size_t line = 0; // where it was read, for messages
};

// The quantity names in table order: send_<breakdown key>..., then
// recv_<breakdown key>..., then one_way.
const std::vector<std::string>& target_quantities();
bool is_one_way(std::string_view quantity);
// The value of a breakdown quantity (not one_way) in `b`.
double breakdown_value(const Breakdown& b, std::string_view quantity);

// Reads the CSV: a header line `firmware,size,quantity,target_us`; blank
// lines and lines starting with '#' are skipped. Sizes take K/M suffixes.
// Throws CalibrationError "FILE:LINE: what is wrong" for an unreadable file,
// a wrong header, a bad field, an unknown quantity or a repeated cell.
std::vector<TargetCell> read_target_table(const std::filesystem::path& file);
std::vector<TargetCell> parse_target_table(std::string_view text, std::string_view source);

} // namespace lanai::bench
