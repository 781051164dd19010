// The records of every sweep kind through the byte encoding MPI ranks send
// them in: each comes back equal member by member, with distinct values in
// every field so that a swapped or forgotten field shows; doubles keep
// their exact bits; a cut, padded or damaged record is an error.
#include "bench/sweep/record_codec.hpp"
#include "bench/sweep/sweep_record_codec.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>

using namespace lanai::bench;

namespace {

// Each call a different value, none of them round, and none so large that
// a count made of it would not fit.
double next_value() {
  static double v = 0.1;
  v = std::fmod(v * 1.37 + 0.713, 1e9);
  return v;
}
std::uint64_t next_count() { return static_cast<std::uint64_t>(next_value() * 1000); }

CardUtilisation card() { return {next_value(), next_value(), next_value(), next_value()}; }

template <class T>
T round_trip(const T& record) {
  T back;
  decode_record(encode_record(record), back);
  return back;
}

PointRecord jitter_record() {
  PointRecord r;
  r.index = 17, r.firmware = 2, r.load = 5, r.total_mbytes_per_s = next_value();
  r.status = PointStatus::failed, r.outcome = "deadlock",
  r.detail = "node 1: waits\nnode 2: \"waits\"";
  r.end_us = next_value();
  for (int c = 0; c < 3; ++c) {
    ClassMetrics m;
    m.channels = static_cast<std::uint32_t>(next_count());
    m.jitter = {next_count(), next_count(), next_count(), next_value(), next_value()};
    m.messages = next_count(), m.lost = next_count(), m.corrupted = next_count();
    r.classes.push_back(m);
  }
  BestEffortMetrics be;
  be.latency_us = {next_count(), next_value(), next_value(), next_value(),
                   next_value(), next_value(), next_value()};
  be.messages = next_count(), be.lost = next_count(), be.corrupted = next_count();
  r.best_effort = be;
  r.sender = card();
  r.receivers = {card(), card(), card()};
  r.faults = {{"node0-switch0", next_count(), next_count()},
              {"switch0-node1", next_count(), next_count()}};
  return r;
}

} // namespace

TEST_CASE("a jitter record comes back equal, with and without best effort") {
  PointRecord r = jitter_record();
  CHECK(round_trip(r) == r);
  r.best_effort.reset();
  r.classes.clear();
  r.faults.clear();
  CHECK(round_trip(r) == r);
}

TEST_CASE("a saturation record comes back equal") {
  SaturationRecord s;
  s.index = 9, s.firmware = 1, s.message_bytes = 4096, s.receivers = 3;
  s.bound_mbytes_per_s = next_value(), s.drop_probability = next_value();
  s.outcome = "failed", s.detail = "time limit";
  s.result.throughput_mbytes_per_s = next_value();
  s.result.messages = next_count(), s.result.sent = next_count(), s.result.lost = next_count();
  s.result.corrupted = next_count(), s.result.sender = card(),
  s.result.receivers = {card(), card()};
  s.result.outcome = lanai::host::RunOutcome::time_limit, s.result.detail = "limit";
  s.result.stopped = true, s.result.end_us = next_value();
  s.result.faults = {{"a", 1, 2}};
  s.result.retransmissions = next_count();
  CHECK(round_trip(s) == s);
}

TEST_CASE("a queueing point comes back equal") {
  QueueingPoint q;
  q.index = 3, q.variant = 1, q.rate = 1;
  q.twin.status = TwinStatus::failed, q.twin.detail = "x";
  q.twin.stations = {{"lanai", next_value(), next_value(), next_value()},
                     {"hdma", next_value(), next_value(), next_value()}};
  for (ServiceTally& s : q.twin.services)
    s = {next_count(), next_value(), next_value(), next_value()};
  q.twin.measured_ms = next_value(), q.twin.precision = next_value(), q.twin.precision_met = true;
  q.twin.messages = next_count(), q.twin.virtual_seconds = next_value();
  q.twin.wall_seconds = next_value(), q.twin.fast_forward = false,
  q.twin.skipped_cycles = next_count(), q.twin.executed_instructions = next_count();
  q.twin.kernel_events = next_count(), q.twin.core_slices = next_count();
  CHECK(round_trip(q) == q);
}

TEST_CASE("a pipeline outcome comes back equal, with a latency or a failure") {
  const PipelineOutcome ran{next_value(), ""};
  const PipelineOutcome failed{std::nullopt, "rank 2 on host failed: gone"};
  CHECK(round_trip(ran) == ran);
  CHECK(round_trip(failed) == failed);
}

TEST_CASE("doubles keep their bits: extremes, negative zero, infinities and NaN") {
  for (const double v : {0.0, -0.0, 1e-310, std::numeric_limits<double>::max(),
                         -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN(), 0.1 + 0.2}) {
    RecordWriter w;
    w.f64(v);
    const std::string bytes = w.take();
    RecordReader r(bytes);
    CHECK(std::bit_cast<std::uint64_t>(r.f64()) == std::bit_cast<std::uint64_t>(v));
  }
}

TEST_CASE("the encoding is little-endian whatever the machine") {
  RecordWriter w;
  w.u32(0x01020304u);
  w.u64(0x1122334455667788ull);
  CHECK(w.take() == std::string("\x04\x03\x02\x01\x88\x77\x66\x55\x44\x33\x22\x11", 12));
}

TEST_CASE("a record cut short, with bytes past its end, or with a bad value is refused") {
  const std::string bytes = encode_record(jitter_record());
  PointRecord back;
  for (const std::size_t cut : {std::size_t{0}, std::size_t{7}, bytes.size() / 2, bytes.size() - 1})
    CHECK_THROWS_AS(decode_record(std::string_view(bytes).substr(0, cut), back), RecordError);
  CHECK_THROWS_WITH_AS(decode_record(bytes + "x", back), "record has 1 bytes past its end",
                       RecordError);
  std::string bad_status = bytes;
  bad_status[32] = 7; // the status byte after index, firmware, load and the load's rate
  CHECK_THROWS_WITH_AS(decode_record(bad_status, back), "record holds 7 as a point status",
                       RecordError);
  // A count larger than the bytes left could hold is refused before any
  // allocation.
  RecordWriter w;
  w.u64(1ull << 60);
  const std::string huge = w.take();
  RecordReader r(huge);
  CHECK_THROWS_AS(r.text(), RecordError);
}
