// The queueing twin: the devices take the model's service times, the
// single-station twin converges to the M/D/1 queue, the cyclic and pooled
// disciplines conserve work, runs repeat bit for bit, fast-forward changes
// only the work the emulator does, and models the twin cannot execute are
// refused with the reason.
#include <doctest/doctest.h>

#include <cmath>

#include "lanai/queue_twin_abi.h"
#include "tools/analytic/qna_model_file.hpp"
#include "tools/analytic/qna_solver.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "bench/queueing/twin_point.hpp"
#include "emulator/iss/cpu.hpp"
#include "emulator/kernel/random_stream.hpp"

using namespace lanai;
using namespace lanai::bench;

namespace {

TwinPointSpec spec_for(const models::QnaNetwork& model, double rate, double min_ms, double max_ms) {
  TwinPointSpec spec;
  spec.profile = profile::load_profile(TWIN_PROFILE);
  spec.services = twin_services(model);
  spec.rate_per_us = rate;
  spec.seed = 3;
  spec.warmup = kernel::milliseconds(5);
  spec.min_duration = kernel::SimTime::from_ps(static_cast<std::int64_t>(min_ms * 1e9));
  spec.max_duration = kernel::SimTime::from_ps(static_cast<std::int64_t>(max_ms * 1e9));
  spec.batches = 20;
  return spec;
}

const StationEstimate& station(const TwinPointResult& r, std::string_view name) {
  for (const auto& s : r.stations)
    if (s.station == name)
      return s;
  FAIL("no station ", name);
  return r.stations.front();
}

} // namespace

TEST_CASE("the single-station twin converges to the M/D/1 queue length") {
  const auto model = models::load_qna_model(TWIN_MD1_MODEL);
  TwinPointSpec spec = spec_for(model, model.rate_per_us, 400, 4000);
  spec.target_precision = 0.04;
  const TwinPointResult r = run_twin_point(spec);
  REQUIRE_MESSAGE(r.status == TwinStatus::ok, r.detail);
  const double rho = 0.0125 * 40.0;
  const double md1 = rho * rho / (2 * (1 - rho));
  const auto& lanai = station(r, "lanai");
  INFO("Lq ", lanai.mean_queue, " +- ", lanai.mean_queue_ci95, " after ", r.measured_ms, " ms");
  CHECK(std::abs(lanai.mean_queue - md1) <= lanai.mean_queue_ci95);
  CHECK(lanai.mean_queue_ci95 <= 0.04 * lanai.mean_queue * 1.0001);
  CHECK(lanai.utilization == doctest::Approx(rho).epsilon(0.02));
  // The LANai's work is the model's 40 us, plus at most a lap of the polling
  // loop for a job that arrives at an idle core.
  CHECK(r.services[TWIN_VISIT_LANAI_DOORBELL].mean_us() >= 40.0 - 0.05);
  CHECK(r.services[TWIN_VISIT_LANAI_DOORBELL].mean_us() <= 40.0 + 0.5);
  // QNA is exact here too.
  auto m = model;
  const auto qna = models::solve_qna(m);
  CHECK(qna.stations[0].queue == doctest::Approx(md1));
}

TEST_CASE("the send-path twin's devices take the model's service times") {
  const auto model = models::load_qna_model(TWIN_NIC_SEND_MODEL);
  for (bool pooled : {false, true}) {
    CAPTURE(pooled);
    TwinPointSpec spec = spec_for(model, 0.00786, 100, 100);
    spec.pooled = pooled;
    const TwinPointResult r = run_twin_point(spec);
    REQUIRE_MESSAGE(r.status == TwinStatus::ok, r.detail);
    const auto& t = r.services;
    CHECK(t[TWIN_VISIT_HDMA_DESCRIPTOR].mean_us() == doctest::Approx(21.0).epsilon(5e-5));
    CHECK(t[TWIN_VISIT_HDMA_DATA].mean_us() == doctest::Approx(68.3154).epsilon(2e-5));
    CHECK(t[TWIN_VISIT_NSDMA].mean_us() == doctest::Approx(52.6887).epsilon(2e-5));
    // LANai work: the model's time, plus about a lap of the polling loop
    // when the work arrives at an idle core (the steps from the wait to
    // the job count as the job's). The descriptor's 0.12 us is less than
    // programming the host DMA takes the emulated core, so that class
    // costs what its instructions cost (about two microseconds).
    for (auto [visit, us] :
         {std::pair{TWIN_VISIT_LANAI_DOORBELL, 22.0}, std::pair{TWIN_VISIT_LANAI_DATA, 10.0}}) {
      const auto station = visit;
      CAPTURE(station);
      CHECK(t[visit].mean_us() >= us - 0.05);
      CHECK(t[visit].mean_us() <= us + 0.4);
    }
    // Every doorbell job keeps the core for its time, give or take what
    // the feedback on the core's clock corrects: none is cut short because
    // an earlier one was timed from before it began.
    CHECK(t[TWIN_VISIT_LANAI_DOORBELL].min_us >= 22.0 - 1.0);
    CHECK(t[TWIN_VISIT_LANAI_DESCRIPTOR].mean_us() >= 0.12);
    CHECK(t[TWIN_VISIT_LANAI_DESCRIPTOR].mean_us() <= 5.0);
    // Every message that rang went all the way through but the last few.
    CHECK(t[TWIN_VISIT_NSDMA].count + 8 >= r.messages);
    // Utilisations are rate times service time.
    CHECK(station(r, "hdma").utilization == doctest::Approx(0.00786 * 89.3154).epsilon(0.05));
    CHECK(station(r, "nsdma").utilization == doctest::Approx(0.00786 * 52.6887).epsilon(0.05));
    CHECK(station(r, "nsdma").mean_queue == 0.0);
  }
}

TEST_CASE("models the twin cannot execute are refused with the reason") {
  const auto nic = models::load_qna_model(TWIN_NIC_SEND_MODEL);
  auto error = [](const models::QnaNetwork& n) -> std::string {
    try {
      (void)twin_services(n);
    } catch (const TwinModelError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error(nic).empty());
  auto two_servers = nic;
  two_servers.stations[1].servers = 2;
  CHECK(error(two_servers) == "station hdma: the card has one of each; servers must be 1");
  auto random_service = nic;
  random_service.visits[0].scov = 1.0;
  CHECK(error(random_service) ==
        "service lanai.doorbell: the twin's services are deterministic (scov 0), not scov 1");
  auto bursty = nic;
  bursty.arrivals[0].scov = 2.0;
  CHECK(error(bursty).starts_with("arrival at lanai.doorbell: the twin's doorbells are Poisson"));
  auto branching = nic;
  branching.routes[0].probability = 0.5;
  CHECK(error(branching).starts_with("visit lanai.doorbell: the twin executes one path"));
  auto short_path = nic;
  short_path.routes.erase(short_path.routes.begin() + 2, short_path.routes.end());
  CHECK(
      error(short_path).starts_with("route from lanai.descriptor: the path stops after 3 visits"));

  const TwinServices s = twin_services(nic);
  TwinTransfers t;
  t.data_bytes = 64 * 1024;
  CHECK_THROWS_WITH_AS(twin_profile(profile::default_profile(), s, t),
                       doctest::Contains("choose a smaller data_bytes"), TwinModelError);

  // Services too long for the card's 32-bit settings or the firmware's
  // waits are refused, not wrapped round.
  TwinServices slow_dma = s;
  slow_dma.hdma_descriptor_us = 5e6;
  slow_dma.hdma_data_us = 6e6;
  CHECK_THROWS_WITH_AS(twin_profile(profile::default_profile(), slow_dma, TwinTransfers{}),
                       doctest::Contains("host DMA: the services need a setup of"), TwinModelError);
  TwinServices slow_lanai = s;
  slow_lanai.lanai_data_us = 1e8;
  CHECK_THROWS_WITH_AS(twin_profile(profile::default_profile(), slow_lanai, TwinTransfers{}),
                       doctest::Contains("a LANai service of 100000000 us is 6600000000 cycles"),
                       TwinModelError);
  CHECK(twin_cycles(profile::default_profile(), 1.0) ==
        static_cast<std::uint32_t>(profile::default_profile().lanai.clock_mhz));
}

TEST_CASE("a firmware that is not the twin's is refused") {
  const auto model = models::load_qna_model(TWIN_MD1_MODEL);
  TwinPointSpec spec = spec_for(model, 0.01, 10, 10);
  spec.firmware = "pvia";
  const TwinPointResult r = run_twin_point(spec);
  CHECK(r.status == TwinStatus::failed);
  CHECK(r.detail == "firmware 'pvia' has no 'twin_config': it is not a queueing twin firmware");
}

TEST_CASE("the twin's work figures count what the emulator executed, the same results either way") {
  const auto model = models::load_qna_model(TWIN_NIC_SEND_MODEL);
  const TwinPointSpec spec = spec_for(model, 0.00786, 20, 20);
  struct Restore {
    bool was = iss::default_fast_forward();
    ~Restore() { iss::set_default_fast_forward(was); }
  } restore;
  TwinPointResult run[2];
  for (bool fast_forward : {false, true}) {
    iss::set_default_fast_forward(fast_forward);
    run[fast_forward] = run_twin_point(spec);
    REQUIRE_MESSAGE(run[fast_forward].status == TwinStatus::ok, run[fast_forward].detail);
    CHECK(run[fast_forward].fast_forward == fast_forward);
  }
  const TwinPointResult &off = run[0], &on = run[1];
  // The same doorbells, queues and services both ways.
  CHECK(on.messages == off.messages);
  REQUIRE(on.stations.size() == off.stations.size());
  for (std::size_t i = 0; i < on.stations.size(); ++i) {
    CAPTURE(on.stations[i].station);
    CHECK(on.stations[i].mean_queue == off.stations[i].mean_queue);
    CHECK(on.stations[i].utilization == off.stations[i].utilization);
  }
  for (std::size_t v = 0; v < on.services.size(); ++v)
    CHECK(on.services[v].total_us == off.services[v].total_us);
  // Without fast-forward every cycle is executed, in more slices; with it,
  // most of the polling is not.
  CHECK(off.skipped_cycles == 0);
  CHECK(on.skipped_cycles > 0);
  CHECK(on.executed_instructions > 0);
  CHECK(on.executed_instructions * 4 < off.executed_instructions);
  CHECK(on.core_slices < off.core_slices);
  // The core's slices are among the kernel's task runs.
  CHECK(on.kernel_events > on.core_slices);
  CHECK(off.kernel_events > off.core_slices);
}
