// Tests of the sweep runner with a fake point function: results by index
// whatever the number of threads, and a raised stop flag keeping finished
// points and skipping the rest.
#include "bench/sweep/sweep_runner.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using namespace lanai::bench;

namespace {

// Uneven work so that points finish out of order on several threads.
std::optional<std::uint64_t> fake_point(std::size_t i) {
  std::this_thread::sleep_for(std::chrono::milliseconds((i * 7) % 5));
  std::uint64_t x = i * 0x9E3779B97F4A7C15ull;
  return x ^ (x >> 29);
}

} // namespace

TEST_CASE("results are stored by index, the same with one thread or two") {
  SweepOptions one, two;
  one.jobs = 1;
  two.jobs = 2;
  std::size_t last_done = 0;
  two.progress = [&](std::size_t done, std::size_t total) {
    CHECK(total == 40);
    CHECK(done >= last_done);
    last_done = done;
  };
  const std::function<std::optional<std::uint64_t>(std::size_t)> point = fake_point;
  const auto a = run_sweep(40, point, one);
  const auto b = run_sweep(40, point, two);
  CHECK(a == b);
  CHECK(last_done == 40);
  for (std::size_t i = 0; i < a.size(); ++i)
    CHECK(a[i] == fake_point(i));
}

TEST_CASE("a raised stop flag keeps the finished points and skips the queued ones") {
  std::atomic<bool> stop{false};
  SweepOptions options;
  options.jobs = 1;
  options.stop = &stop;
  const std::function<std::optional<int>(std::size_t)> point = [&](std::size_t i) {
    if (i == 3)
      stop.store(true); // as if Ctrl-C came during point 3
    // A running point that sees the flag discards its result.
    if (stop.load())
      return std::optional<int>{};
    return std::optional<int>(static_cast<int>(i));
  };
  const auto results = run_sweep(10, point, options);
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(results[i] == static_cast<int>(i));
  for (std::size_t i = 3; i < 10; ++i)
    CHECK(!results[i].has_value());
}

TEST_CASE("an exception from a point reaches the caller after the others finish") {
  SweepOptions options;
  options.jobs = 2;
  std::atomic<int> ran{0};
  const std::function<std::optional<int>(std::size_t)> point = [&](std::size_t i) {
    ++ran;
    if (i == 1)
      throw std::runtime_error("bad point");
    return std::optional<int>(1);
  };
  CHECK_THROWS_WITH(run_sweep(6, point, options), "bad point");
  CHECK(ran == 6);
}
