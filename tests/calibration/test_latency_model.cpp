// The emulator as calibration model: cell values come from real ping-pong
// runs and do not depend on the number of worker threads.
#include <doctest/doctest.h>

#include "bench/calibration/latency_model.hpp"

using namespace lanai::bench;

TEST_CASE("model values are the same with one thread or several") {
  const std::vector<TargetCell> cells = {{"svia", 4, "one_way", 30},
                                         {"svia", 4, "send_desc_down", 6},
                                         {"pvia", 1024, "recv_data_up", 19},
                                         {"pvia", 1024, "one_way", 90},
                                         {"qosvia", 4, "send_nsdma_done", 32}};
  const auto profile = lanai::profile::default_profile();
  LatencyModel one(cells, {3, 1, 1, 1});
  LatencyModel three(cells, {3, 1, 1, 3});
  const auto a = one.evaluate(profile);
  const auto b = three.evaluate(profile);
  CHECK(a == b);
  for (const double v : a)
    CHECK(v > 0);
  CHECK(a[0] > a[1]); // the 1-way latency includes the descriptor fetch
}
