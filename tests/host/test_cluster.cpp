// Cluster run control with real cards running small firmware: programs that
// finish, a deadlock (reported once nothing moved for the window, naming
// what each node waits for), waits with deadlines that are not deadlocks,
// a faulting firmware, the time limit, and repeatability.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "tests/host/cluster_fixture.hpp"

using namespace lanai;
using host::Cluster;
using host::HostCpu;
using host::RunOutcome;
using kernel::microseconds;
using kernel::milliseconds;
using kernel::nanoseconds;

TEST_CASE("a run ends when every program has returned, with their exit codes") {
  Cluster cluster(host_test::test_config(3));
  auto& k = cluster.kernel();
  const auto report = cluster.run({
      [&] {
        cluster.host(0).compute(microseconds(40));
        return 0;
      },
      [&] {
        cluster.host(1).compute(microseconds(70));
        return 0;
      },
      [&] { return 0; },
  });
  CHECK(report.outcome == RunOutcome::finished);
  CHECK(report.success());
  CHECK(report.exit_codes == std::vector<int>{0, 0, 0});
  CHECK(report.end_time == microseconds(70));
  CHECK(k.now() == microseconds(70));
  for (std::size_t node = 0; node < cluster.size(); ++node)
    CHECK(cluster.card(node).firmware_running());
}

TEST_CASE("a program returning non-zero makes the run unsuccessful") {
  Cluster cluster(host_test::test_config(2));
  const auto report = cluster.run({[] { return 0; }, [] { return 5; }});
  CHECK(report.outcome == RunOutcome::finished);
  CHECK_FALSE(report.success());
  CHECK(report.exit_codes == std::vector<int>{0, 5});
}

TEST_CASE("programs blocked forever with idle cards are a deadlock, reported per node") {
  const auto run_once = [] {
    Cluster cluster(host_test::test_config(3));
    const auto forever = [&](std::size_t node, std::string what) {
      return [&cluster, node, what] {
        HostCpu& cpu = cluster.host(node);
        cpu.compute(microseconds(node + 1));
        cpu.wait([] { return false; }, std::nullopt, what, nanoseconds(100));
        return 0;
      };
    };
    auto report =
        cluster.run({forever(0, "the answer"), [] { return 0; }, forever(2, "a message")});
    return report;
  };
  const auto report = run_once();
  CHECK(report.outcome == RunOutcome::deadlock);
  CHECK(report.detail ==
        "node0: waits in the answer since 1.000 us\nnode2: waits in a message since 3.000 us");
  // Declared one quiet window after the last program blocked, give or take
  // the checking slice.
  const auto window = host::ClusterConfig{}.deadlock_window;
  CHECK(report.end_time >= microseconds(3) + window);
  CHECK(report.end_time <= microseconds(3) + window + window / 4);
  CHECK(report.exit_codes == std::vector<int>{-1, 0, -1});
  const auto again = run_once();
  CHECK(again.end_time == report.end_time);
  CHECK(again.detail == report.detail);
}

TEST_CASE("a wait with a deadline longer than the deadlock window is no deadlock") {
  Cluster cluster(host_test::test_config(2));
  bool timed_out = false;
  const auto report = cluster.run({
      [&] {
        timed_out = !cluster.host(0).wait([] { return false; }, milliseconds(5), "a timeout",
                                          nanoseconds(100));
        return 0;
      },
      [] { return 0; },
  });
  CHECK(report.outcome == RunOutcome::finished);
  CHECK(timed_out);
  CHECK(report.end_time == milliseconds(5) + nanoseconds(100));
}

TEST_CASE("a program woken by a device event before the window ends is no deadlock") {
  Cluster cluster(host_test::test_config(2));
  bool flag = false;
  cluster.kernel().schedule_at(milliseconds(1), [&] {
    flag = true;
    cluster.host(1).notify();
  });
  const auto report = cluster.run({
      [] { return 0; },
      [&] {
        return cluster.host(1).wait([&] { return flag; }, std::nullopt, "the flag",
                                    nanoseconds(100))
                   ? 0
                   : 1;
      },
  });
  CHECK(report.outcome == RunOutcome::finished);
  CHECK(report.success());
  CHECK(report.end_time == milliseconds(1) + nanoseconds(100));
}

TEST_CASE("a faulting firmware stops the run and is reported") {
  auto config = host_test::test_config(2);
  config.firmware[1] = host_test::test_firmware("host_faulting", config.profile);
  Cluster cluster(std::move(config));
  const auto report = cluster.run({
      [&] {
        cluster.host(0).wait([] { return false; }, std::nullopt, "forever", nanoseconds(100));
        return 0;
      },
      [&] {
        cluster.host(1).wait([] { return false; }, std::nullopt, "forever", nanoseconds(100));
        return 0;
      },
  });
  CHECK(report.outcome == RunOutcome::firmware_stop);
  CHECK(report.detail.find("node 1") != std::string::npos);
  CHECK(report.detail.find("bus error") != std::string::npos);
  CHECK(report.detail.back() != '\n');
  CHECK_FALSE(cluster.card(1).firmware_running());
  CHECK(cluster.card(0).firmware_running());
  CHECK(cluster.host(0).state() == host::HostState::finished);
}

TEST_CASE("the time limit ends a run that would go on") {
  auto config = host_test::test_config(1);
  config.time_limit = microseconds(100);
  Cluster cluster(std::move(config));
  const auto report = cluster.run({[&] {
    cluster.host(0).compute(milliseconds(1));
    return 0;
  }});
  CHECK(report.outcome == RunOutcome::time_limit);
  CHECK(report.end_time == microseconds(100));
  CHECK(report.detail == "node0: computing");
}

TEST_CASE("a cluster runs once, with one program per node") {
  Cluster cluster(host_test::test_config(2));
  CHECK_THROWS_AS(cluster.run({[] { return 0; }}), std::invalid_argument);
  cluster.run({[] { return 0; }, [] { return 0; }});
  CHECK_THROWS_AS(cluster.run({[] { return 0; }, [] { return 0; }}), std::logic_error);
}

TEST_CASE("a cluster needs one firmware image per node, or one for all") {
  auto config = host_test::test_config(3);
  config.firmware.pop_back();
  CHECK_THROWS_AS(Cluster(std::move(config)), std::invalid_argument);
  auto none = host_test::test_config(2);
  none.firmware.clear();
  CHECK_THROWS_AS(Cluster(std::move(none)), std::invalid_argument);
}

TEST_CASE("one image runs on every node") {
  auto config = host_test::test_config(3);
  config.firmware.resize(1);
  Cluster cluster(std::move(config));
  for (std::size_t n = 0; n < 3; ++n) {
    CHECK(cluster.card(n).image().entry == cluster.card(0).image().entry);
    // Each card holds its own copy in SRAM.
    CHECK(cluster.card(n).cpu().read_word(cluster.card(n).image().entry) ==
          cluster.card(0).cpu().read_word(cluster.card(0).image().entry));
  }
  const auto report = cluster.run({[] { return 0; }, [] { return 0; }, [] { return 0; }});
  CHECK(report.success());
}
