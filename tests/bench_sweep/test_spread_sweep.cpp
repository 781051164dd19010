// A sweep spread over ranks, without MPI: fake ranks that run every point
// in this process and lose some, as a failed rank would. Records come back
// through the byte encoding equal to the single-process run's, and lost
// points become failed records naming the rank. And one rank's pool of
// points (LocalPoints) with the failure test hook.
#include "bench/sweep/sweep_ranks.hpp"
#include "bench/mpi/local_points.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace lanai::bench;

namespace lanai::bench {

// A record type of the test's own, found by run_sweep as the real ones are.
struct Squares {
  std::size_t index = 0;
  std::uint64_t square = 0;
  std::string note;
  bool operator==(const Squares&) const = default;
};

std::string encode_record(const Squares& s) {
  return std::to_string(s.index) + " " + std::to_string(s.square) + " " + s.note;
}

void decode_record(std::string_view bytes, Squares& s) {
  const std::string text(bytes);
  const std::size_t a = text.find(' '), b = text.find(' ', a + 1);
  s.index = std::stoull(text.substr(0, a));
  s.square = std::stoull(text.substr(a + 1, b - a - 1));
  s.note = text.substr(b + 1);
}

} // namespace lanai::bench

namespace {

class FakeRanks final : public SweepRanks {
public:
  explicit FakeRanks(std::set<std::size_t> lost) : lost_(std::move(lost)) {}
  int rank() const override { return 0; }
  int size() const override { return 3; }
  SpreadSweep spread(std::size_t count,
                     const std::function<std::optional<std::string>(std::size_t)>& work,
                     const SweepOptions&) override {
    SpreadSweep out;
    out.records.resize(count);
    RankLoss loss{2, "rank 2 on here failed: gone", {}};
    for (std::size_t i = 0; i < count; ++i) {
      if (lost_.count(i))
        loss.points.push_back(i);
      else
        out.records[i] = work(i);
    }
    if (!loss.points.empty())
      out.losses.push_back(loss);
    return out;
  }

private:
  std::set<std::size_t> lost_;
};

std::optional<Squares> square(std::size_t i) {
  if (i == 4)
    return std::nullopt; // a point that discards its result
  return Squares{i, static_cast<std::uint64_t>(i) * i, "ok"};
}

} // namespace

TEST_CASE("spread over ranks, records come back as the single process has them") {
  const std::function<std::optional<Squares>(std::size_t)> point = square;
  SweepOptions alone;
  alone.jobs = 2;
  FakeRanks ranks({});
  SweepOptions spread = alone;
  spread.ranks = &ranks;
  CHECK(spread_over_ranks(spread));
  CHECK(run_sweep(12, point, spread) == run_sweep(12, point, alone));
}

TEST_CASE("points a rank lost become failed records naming it; without a rule they stay empty") {
  const std::function<std::optional<Squares>(std::size_t)> point = square;
  FakeRanks ranks({3, 7});
  SweepOptions options;
  options.ranks = &ranks;
  const auto failed = [](std::size_t i, const std::string& why) { return Squares{i, 0, why}; };
  const auto results = run_sweep(10, point, options, failed);
  CHECK(results[2] == square(2));
  CHECK(!results[4].has_value());
  CHECK(results[3] == Squares{3, 0, "rank 2 on here failed: gone"});
  CHECK(results[7] == Squares{7, 0, "rank 2 on here failed: gone"});
  const auto plain = run_sweep(10, point, options);
  CHECK(!plain[3].has_value());
  CHECK(!plain[7].has_value());
}

TEST_CASE("one rank's pool runs what it is given and gives back each record") {
  const LocalPoints::Work work = [](std::size_t i) -> std::optional<std::string> {
    if (i == 5)
      return std::nullopt;
    return std::to_string(i * 10);
  };
  LocalPoints local(2, work, nullptr, std::nullopt);
  for (std::size_t i = 0; i < 8; ++i)
    local.post(i);
  local.join();
  CHECK(local.in_flight() == 0);
  auto finished = local.take_finished();
  REQUIRE(finished.size() == 8);
  std::sort(finished.begin(), finished.end(),
            [](const auto& a, const auto& b) { return a.point < b.point; });
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK(!finished[i].failure);
    CHECK(finished[i].record ==
          (i == 5 ? std::nullopt : std::optional<std::string>(std::to_string(i * 10))));
  }
}

TEST_CASE("the failure hook makes a rank's first point throw, once; a raised stop skips points") {
  const LocalPoints::Work work = [](std::size_t i) -> std::optional<std::string> {
    return std::to_string(i);
  };
  {
    LocalPoints local(1, work, nullptr, RankFailureMode::error);
    local.post(0);
    local.post(1);
    local.join();
    const auto finished = local.take_finished();
    REQUIRE(finished.size() == 2);
    CHECK(finished[0].failure == "failure requested by LANAI_EMU_TEST_RANK_FAILURE");
    CHECK(finished[1].record == "1");
  }
  std::atomic<bool> stop{true};
  LocalPoints stopped(1, work, &stop, std::nullopt);
  stopped.post(3);
  stopped.join();
  const auto finished = stopped.take_finished();
  REQUIRE(finished.size() == 1);
  CHECK(!finished[0].record);
  CHECK(!finished[0].failure);
}
