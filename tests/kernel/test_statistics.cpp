// Tests of the statistics registry: percentiles and moments on known data, a
// hand-computed time-weighted average, naming rules and report formats.
#include "emulator/kernel/statistics.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace lanai::kernel;

TEST_CASE("counter accumulates") {
  StatsRegistry stats;
  Counter& c = stats.counter("node0.rx.packets");
  c.add();
  c.add(41);
  CHECK(c.value() == 42);
  CHECK(&stats.counter("node0.rx.packets") == &c);
  c.reset();
  CHECK(c.value() == 0);
}

TEST_CASE("histogram moments and interpolated percentiles") {
  Histogram h;
  // 1..10 recorded out of order; percentiles must not depend on that.
  for (const double x : {7.0, 3.0, 10.0, 1.0, 5.0, 9.0, 2.0, 8.0, 4.0, 6.0})
    h.record(x);
  CHECK(h.count() == 10);
  CHECK(h.min() == 1.0);
  CHECK(h.max() == 10.0);
  CHECK(h.sum() == 55.0);
  CHECK(h.mean() == doctest::Approx(5.5));
  CHECK(h.stddev() == doctest::Approx(std::sqrt(8.25)));
  CHECK(h.percentile(0) == 1.0);
  CHECK(h.percentile(100) == 10.0);
  CHECK(h.percentile(50) == doctest::Approx(5.5));
  CHECK(h.percentile(25) == doctest::Approx(3.25));
  CHECK(h.percentile(90) == doctest::Approx(9.1));
  CHECK(h.percentile(99) == doctest::Approx(9.91));

  h.record(100.0); // new samples after a query re-sort the data
  CHECK(h.percentile(100) == 100.0);
  CHECK(h.percentile(50) == 6.0);

  CHECK_THROWS_AS(h.percentile(-0.1), std::invalid_argument);
  CHECK_THROWS_AS(h.percentile(100.1), std::invalid_argument);
}

TEST_CASE("histogram edge cases") {
  Histogram h;
  CHECK(h.count() == 0);
  CHECK(std::isnan(h.mean()));
  CHECK(std::isnan(h.min()));
  CHECK(std::isnan(h.percentile(50)));
  h.record(-3.5);
  CHECK(h.percentile(0) == -3.5);
  CHECK(h.percentile(73) == -3.5);
  CHECK(h.stddev() == 0.0);
  h.reset();
  CHECK(h.count() == 0);
}

TEST_CASE("time-weighted average over a hand-computed example") {
  TimeWeighted busy;
  // 0 on [0,10), 2 on [10,30), 5 on [30,40), 1 from 40 on.
  busy.set(nanoseconds(10), 2.0);
  busy.set(nanoseconds(30), 5.0);
  busy.add(nanoseconds(40), -4.0);
  CHECK(busy.current() == 1.0);
  CHECK(busy.min() == 0.0);
  CHECK(busy.max() == 5.0);
  // Area 0*10 + 2*20 + 5*10 + 1*10 = 100 over 50 ns.
  CHECK(busy.average(nanoseconds(50)) == doctest::Approx(2.0));
  // Area 90 over 40 ns, ending exactly at the last change.
  CHECK(busy.average(nanoseconds(40)) == doctest::Approx(2.25));
  CHECK_THROWS_AS(busy.average(nanoseconds(39)), std::logic_error);
  CHECK_THROWS_AS(busy.set(nanoseconds(39), 0.0), std::logic_error);

  // Dropping the warm-up: 1 on [50,60), 4 on [60,70).
  busy.reset(nanoseconds(50));
  CHECK(busy.start() == nanoseconds(50));
  CHECK(busy.average(nanoseconds(50)) == 1.0);
  busy.set(nanoseconds(60), 4.0);
  CHECK(busy.average(nanoseconds(70)) == doctest::Approx(2.5));
  CHECK(busy.min() == 1.0);
  CHECK(busy.max() == 4.0);
}

TEST_CASE("a name keeps its kind") {
  StatsRegistry stats;
  stats.counter("node0.hdma.busy");
  CHECK_THROWS_AS(stats.histogram("node0.hdma.busy"), std::logic_error);
  CHECK_THROWS_WITH(stats.time_weighted("node0.hdma.busy"), doctest::Contains("is a counter"));
  TimeWeighted& tw = stats.time_weighted("node0.queue");
  CHECK(&stats.time_weighted("node0.queue") == &tw);
  CHECK_THROWS_AS(stats.counter("node0.queue"), std::logic_error);
  CHECK(stats.size() == 2);
}

TEST_CASE("malformed names are rejected") {
  StatsRegistry stats;
  for (const char* bad : {"", ".a", "a.", "a..b", "a b", "a\"b", "node0/x"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(stats.counter(bad), std::invalid_argument);
  }
  CHECK(stats.size() == 0);
  CHECK_NOTHROW(stats.counter("Node_0.tx-dma.bytes"));
}

TEST_CASE("for_each visits names in sorted order") {
  StatsRegistry stats;
  stats.counter("z");
  stats.histogram("a.b");
  stats.time_weighted("m");
  stats.counter("a.a");
  std::vector<std::string> names;
  std::vector<std::string> kinds;
  stats.for_each([&](const std::string& name, const Stat& stat) {
    names.push_back(name);
    kinds.emplace_back(kind_name(stat));
  });
  CHECK(names == std::vector<std::string>{"a.a", "a.b", "m", "z"});
  CHECK(kinds == std::vector<std::string>{"counter", "histogram", "time_weighted", "counter"});
  CHECK(stats.find("m") != nullptr);
  CHECK(stats.find("q") == nullptr);
}

TEST_CASE("JSON and text reports are deterministic") {
  StatsRegistry stats;
  CHECK(stats.to_json() == "{}\n");

  stats.counter("node1.tx.packets").add(3);
  Histogram& lat = stats.histogram("node0.latency_ns");
  lat.record(2.0);
  lat.record(4.0);
  TimeWeighted& q = stats.time_weighted("node0.queue");
  q.set(nanoseconds(1), 2.0);
  stats.histogram("empty");

  const std::string expected =
      "{\n"
      "  \"empty\": {\"count\": 0, \"kind\": \"histogram\", \"max\": null, \"mean\": null, "
      "\"min\": null, \"p50\": null, \"p90\": null, \"p99\": null, \"stddev\": null, \"sum\": 0},\n"
      "  \"node0.latency_ns\": {\"count\": 2, \"kind\": \"histogram\", \"max\": 4, \"mean\": 3, "
      "\"min\": 2, \"p50\": 3, \"p90\": 3.8, \"p99\": 3.98, \"stddev\": 1, \"sum\": 6},\n"
      "  \"node0.queue\": {\"average\": 1.5, \"current\": 2, \"end_ps\": 4000, \"kind\": "
      "\"time_weighted\", \"max\": 2, \"min\": 0, \"start_ps\": 0},\n"
      "  \"node1.tx.packets\": {\"kind\": \"counter\", \"value\": 3}\n"
      "}\n";
  CHECK(stats.to_json(nanoseconds(4)) == expected);

  // Without an end time a series is averaged up to its last change.
  CHECK(stats.to_json().find("\"average\": 0, \"current\": 2, \"end_ps\": 1000") !=
        std::string::npos);

  const std::string text = stats.to_text(nanoseconds(4));
  CHECK(text.find("node1.tx.packets  counter") != std::string::npos);
  CHECK(text.find("value=3") != std::string::npos);
  CHECK(text.find("avg=1.5") != std::string::npos);
  CHECK(text.find("empty") < text.find("node0.latency_ns"));
  CHECK(text == stats.to_text(nanoseconds(4)));
}
