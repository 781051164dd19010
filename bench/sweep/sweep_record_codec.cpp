// Field order here is the wire format: encoder and decoder of a record sit
// side by side and read the fields in the same order.
#include "bench/sweep/sweep_record_codec.hpp"

#include "bench/sweep/record_codec.hpp"

namespace lanai::bench {

namespace {

using W = RecordWriter;
using R = RecordReader;

// An enumeration's value, refused past its last.
template <class Enum>
Enum enum_value(R& r, Enum last, const char* what) {
  const std::uint8_t v = r.u8();
  if (v > static_cast<std::uint8_t>(last))
    throw RecordError(std::string("record holds ") + std::to_string(v) + " as a " + what);
  return static_cast<Enum>(v);
}

void put(W& w, const CardUtilisation& u) {
  w.f64(u.lanai), w.f64(u.hdma), w.f64(u.nsdma), w.f64(u.nrdma);
}
void get(R& r, CardUtilisation& u) {
  u.lanai = r.f64(), u.hdma = r.f64(), u.nsdma = r.f64(), u.nrdma = r.f64();
}

void put(W& w, const std::vector<CardUtilisation>& cards) {
  w.u64(cards.size());
  for (const CardUtilisation& u : cards)
    put(w, u);
}
void get(R& r, std::vector<CardUtilisation>& cards) {
  cards.resize(r.count(32));
  for (CardUtilisation& u : cards)
    get(r, u);
}

void put(W& w, const std::vector<LinkFaultCount>& faults) {
  w.u64(faults.size());
  for (const LinkFaultCount& f : faults)
    w.text(f.link), w.u64(f.dropped), w.u64(f.corrupted);
}
void get(R& r, std::vector<LinkFaultCount>& faults) {
  faults.resize(r.count(24));
  for (LinkFaultCount& f : faults)
    f.link = r.text(), f.dropped = r.u64(), f.corrupted = r.u64();
}

void put(W& w, const JitterResult& j) {
  w.u64(j.messages), w.u64(j.intervals), w.u64(j.jittered), w.f64(j.sum_jitter_ps);
  w.f64(j.interval_ps);
}
void get(R& r, JitterResult& j) {
  j.messages = r.u64(), j.intervals = r.u64(), j.jittered = r.u64(), j.sum_jitter_ps = r.f64();
  j.interval_ps = r.f64();
}

void put(W& w, const LatencySummary& s) {
  w.u64(s.count), w.f64(s.min), w.f64(s.median), w.f64(s.avg), w.f64(s.stdev), w.f64(s.p99);
  w.f64(s.p999);
}
void get(R& r, LatencySummary& s) {
  s.count = r.u64(), s.min = r.f64(), s.median = r.f64(), s.avg = r.f64(), s.stdev = r.f64();
  s.p99 = r.f64(), s.p999 = r.f64();
}

} // namespace

std::string encode_record(const PointRecord& p) {
  W w;
  w.u64(p.index), w.u64(p.firmware), w.u64(p.load), w.f64(p.total_mbytes_per_s);
  w.u8(static_cast<std::uint8_t>(p.status)), w.text(p.outcome), w.text(p.detail), w.f64(p.end_us);
  w.u64(p.classes.size());
  for (const ClassMetrics& c : p.classes) {
    w.u32(c.channels), put(w, c.jitter), w.u64(c.messages), w.u64(c.lost), w.u64(c.corrupted);
  }
  w.boolean(p.best_effort.has_value());
  if (p.best_effort) {
    put(w, p.best_effort->latency_us);
    w.u64(p.best_effort->messages), w.u64(p.best_effort->lost), w.u64(p.best_effort->corrupted);
  }
  put(w, p.sender), put(w, p.receivers), put(w, p.faults);
  return w.take();
}

void decode_record(std::string_view bytes, PointRecord& p) {
  R r(bytes);
  p = PointRecord{};
  p.index = r.u64(), p.firmware = r.u64(), p.load = r.u64(), p.total_mbytes_per_s = r.f64();
  p.status = enum_value(r, PointStatus::failed, "point status");
  p.outcome = r.text(), p.detail = r.text(), p.end_us = r.f64();
  p.classes.resize(r.count(68));
  for (ClassMetrics& c : p.classes) {
    c.channels = r.u32(), get(r, c.jitter), c.messages = r.u64(), c.lost = r.u64();
    c.corrupted = r.u64();
  }
  if (r.boolean()) {
    BestEffortMetrics be;
    get(r, be.latency_us);
    be.messages = r.u64(), be.lost = r.u64(), be.corrupted = r.u64();
    p.best_effort = be;
  }
  get(r, p.sender), get(r, p.receivers), get(r, p.faults);
  r.finish();
}

std::string encode_record(const SaturationRecord& s) {
  W w;
  w.u64(s.index), w.u64(s.firmware), w.u32(s.message_bytes), w.u32(s.receivers);
  w.f64(s.bound_mbytes_per_s), w.f64(s.drop_probability), w.text(s.outcome), w.text(s.detail);
  const SaturationResult& x = s.result;
  w.f64(x.throughput_mbytes_per_s), w.u64(x.messages), w.u64(x.sent), w.u64(x.lost);
  w.u64(x.corrupted), put(w, x.sender), put(w, x.receivers);
  w.u8(static_cast<std::uint8_t>(x.outcome)), w.text(x.detail), w.boolean(x.stopped);
  w.f64(x.end_us), put(w, x.faults), w.u64(x.retransmissions);
  return w.take();
}

void decode_record(std::string_view bytes, SaturationRecord& s) {
  R r(bytes);
  s = SaturationRecord{};
  s.index = r.u64(), s.firmware = r.u64(), s.message_bytes = r.u32(), s.receivers = r.u32();
  s.bound_mbytes_per_s = r.f64(), s.drop_probability = r.f64();
  s.outcome = r.text(), s.detail = r.text();
  SaturationResult& x = s.result;
  x.throughput_mbytes_per_s = r.f64(), x.messages = r.u64(), x.sent = r.u64(), x.lost = r.u64();
  x.corrupted = r.u64(), get(r, x.sender), get(r, x.receivers);
  x.outcome = enum_value(r, host::RunOutcome::time_limit, "run outcome");
  x.detail = r.text(), x.stopped = r.boolean(), x.end_us = r.f64(), get(r, x.faults);
  x.retransmissions = r.u64();
  r.finish();
}

std::string encode_record(const QueueingPoint& q) {
  W w;
  w.u64(q.index), w.u64(q.variant), w.u64(q.rate);
  const TwinPointResult& t = q.twin;
  w.u8(static_cast<std::uint8_t>(t.status)), w.text(t.detail);
  w.u64(t.stations.size());
  for (const StationEstimate& s : t.stations)
    w.text(s.station), w.f64(s.utilization), w.f64(s.mean_queue), w.f64(s.mean_queue_ci95);
  for (const ServiceTally& s : t.services)
    w.u64(s.count), w.f64(s.total_us), w.f64(s.min_us), w.f64(s.max_us);
  w.f64(t.measured_ms), w.f64(t.precision), w.boolean(t.precision_met), w.u64(t.messages);
  w.f64(t.virtual_seconds), w.f64(t.wall_seconds), w.boolean(t.fast_forward);
  w.u64(t.skipped_cycles), w.u64(t.executed_instructions), w.u64(t.kernel_events);
  w.u64(t.core_slices);
  return w.take();
}

void decode_record(std::string_view bytes, QueueingPoint& q) {
  R r(bytes);
  q = QueueingPoint{};
  q.index = r.u64(), q.variant = r.u64(), q.rate = r.u64();
  TwinPointResult& t = q.twin;
  t.status = enum_value(r, TwinStatus::stopped, "twin status");
  t.detail = r.text();
  t.stations.resize(r.count(32));
  for (StationEstimate& s : t.stations) {
    s.station = r.text(), s.utilization = r.f64(), s.mean_queue = r.f64();
    s.mean_queue_ci95 = r.f64();
  }
  for (ServiceTally& s : t.services)
    s.count = r.u64(), s.total_us = r.f64(), s.min_us = r.f64(), s.max_us = r.f64();
  t.measured_ms = r.f64(), t.precision = r.f64(), t.precision_met = r.boolean();
  t.messages = r.u64(), t.virtual_seconds = r.f64(), t.wall_seconds = r.f64();
  t.fast_forward = r.boolean(), t.skipped_cycles = r.u64();
  t.executed_instructions = r.u64(), t.kernel_events = r.u64(), t.core_slices = r.u64();
  r.finish();
}

std::string encode_record(const PipelineOutcome& p) {
  W w;
  w.boolean(p.emulated_us.has_value());
  if (p.emulated_us)
    w.f64(*p.emulated_us);
  w.text(p.failure);
  return w.take();
}

void decode_record(std::string_view bytes, PipelineOutcome& p) {
  R r(bytes);
  p = PipelineOutcome{};
  if (r.boolean())
    p.emulated_us = r.f64();
  p.failure = r.text();
  r.finish();
}

} // namespace lanai::bench
