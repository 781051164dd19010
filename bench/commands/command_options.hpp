// Option parsing shared by the bench subcommands: size lists with K/M
// suffixes ("4,1K,16K"), output formats, and the profile and firmware a
// run uses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/workloads/bench_cluster.hpp"

namespace lanai::bench {

// "4,1K,4K,16K" -> {4, 1024, 4096, 16384}; K = 1024, M = 1024 * 1024.
// Throws std::invalid_argument naming the bad item.
std::vector<std::uint32_t> parse_sizes(const std::string& list);
// "1,2,4,8" -> {1, 2, 4, 8}; every item at least 1.
std::vector<std::uint32_t> parse_counts(const std::string& list, const std::string& what);

// "0,1e-4,1e-2" -> {0, 1e-4, 1e-2}: per-packet drop probabilities, each in
// 0..1, ascending. Throws std::invalid_argument naming the bad item.
std::vector<double> parse_probabilities(const std::string& list);

enum class OutputFormat { table, csv, json };
OutputFormat parse_format(const std::string& name);

// The VIs' reliability level a bench command takes (--reliability):
// "unreliable" (the default: the published firmwares' work per message),
// "delivery" or "reception", as VIP_SERVICE_*; the header suffix naming a
// level other than the default (", Reliable Delivery VIs"), or "".
inline const std::vector<std::string> reliability_names{"unreliable", "delivery", "reception"};
std::uint32_t parse_reliability(const std::string& name);
std::string reliability_suffix(const std::string& name);
// The JSON member naming a level other than the default (`"reliability":"delivery",`), or "".
std::string reliability_json(const std::string& name);
// The help text of --reliability.
inline constexpr const char* reliability_help =
    "the VIs' reliability level: unreliable (each message costs the firmware the work it cost the "
    "published firmwares), delivery (Reliable Delivery: the card keeps each message until the "
    "receiving card acknowledges it) or reception (Reliable Reception: each send completes on "
    "the receiving card's acknowledgement)";

// The profile a bench command runs with when none is given.
inline constexpr const char* default_bench_profile = "myrinet-lanai7";

// Writes `text` to `path` ("-" = stdout); throws naming the file on failure.
void write_text_file(const std::string& path, const std::string& text);
// Writes the profiler's per-function figures as CSV (host/firmware_profiler.hpp)
// to `path` ("-" = stdout); throws naming the file on failure.
void write_firmware_profile(const std::string& path, const host::FirmwareProfiler& profiler);

} // namespace lanai::bench
