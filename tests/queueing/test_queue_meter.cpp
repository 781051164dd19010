// The queue meter's integrals, checked against sums worked out by hand:
// host DMA waits and services that lie within one cell, that cross cells,
// and that come right after one that crossed (the cell it ended in is
// where the next span is looked for first).
#include <doctest/doctest.h>

#include <string>

#include "bench/queueing/queue_meter.hpp"

namespace {

lanai::kernel::SimTime us(std::int64_t n) { return lanai::kernel::microseconds(n); }

// A host DMA request programmed at `programmed`, served from `begin` to `end`.
lanai::trace::Event hdma(std::int64_t programmed, std::int64_t begin, std::int64_t end) {
  lanai::trace::Event e;
  e.track = lanai::trace::Track::hdma;
  e.name = "to_sram";
  e.programmed = us(programmed);
  e.begin = us(begin);
  e.end = us(end);
  return e;
}

const lanai::bench::StationEstimate& station(const std::vector<lanai::bench::StationEstimate>& all,
                                             const std::string& name) {
  for (const auto& s : all)
    if (s.station == name)
      return s;
  FAIL("no station " << name);
  return all.front();
}

} // namespace

TEST_CASE("waits and services are integrated cell by cell, across cells and within one") {
  lanai::bench::QueueMeter meter(us(0), us(10), false);
  meter.consume(hdma(0, 5, 15));   // wait 0-5 in cell 0; service 5-15 crosses into cell 1
  meter.consume(hdma(12, 15, 18)); // both within cell 1, where the last one ended
  meter.consume(hdma(16, 18, 35)); // wait in cell 1; service 18-35 crosses cells 1 to 3
  meter.consume(hdma(36, 37, 39)); // both within cell 3
  // Two batches of two cells. Waits: 5 + (3 + 2) us, then 1 us; services:
  // 5 + (5 + 3 + 2) us, then 10 + (5 + 2) us.
  const auto estimate = meter.estimate(4, 2);
  const auto& h = station(estimate, "hdma");
  CHECK(h.mean_queue == doctest::Approx((10.0 / 20 + 1.0 / 20) / 2));
  CHECK(h.utilization == doctest::Approx((15.0 / 20 + 17.0 / 20) / 2));
  // One batch alone: the same sums over 40 us.
  lanai::bench::QueueMeter whole(us(0), us(20), false);
  for (const auto& e : {hdma(0, 5, 15), hdma(12, 15, 18), hdma(16, 18, 35), hdma(36, 37, 39)})
    whole.consume(e);
  const auto whole_estimate = whole.estimate(2, 2);
  const auto& w = station(whole_estimate, "hdma");
  CHECK(w.mean_queue == doctest::Approx(h.mean_queue));
  CHECK(w.utilization == doctest::Approx(h.utilization));
}

TEST_CASE("spans before the start of measurement count only from it") {
  lanai::bench::QueueMeter meter(us(100), us(10), false);
  meter.consume(hdma(90, 95, 105));   // wait before the start; service half in cell 0
  meter.consume(hdma(104, 105, 125)); // wait in cell 0, service in cells 0 to 2
  meter.consume(hdma(130, 131, 139)); // cell 3
  const auto estimate = meter.estimate(4, 2);
  const auto& h = station(estimate, "hdma");
  CHECK(h.mean_queue == doctest::Approx((1.0 / 20 + 1.0 / 20) / 2));
  CHECK(h.utilization == doctest::Approx((20.0 / 20 + 13.0 / 20) / 2));
}
