// Tests of virtual time and rate conversions: SimTime arithmetic, exact
// cycle/time conversion without drift, and rounding of transfer times.
#include "emulator/kernel/sim_time.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

using namespace lanai::kernel;

static_assert(nanoseconds(1) == picoseconds(1'000));
static_assert(microseconds(1) == nanoseconds(1'000));
static_assert(milliseconds(1) == microseconds(1'000));
static_assert(seconds(1) == milliseconds(1'000));
static_assert(seconds(1).ps() == 1'000'000'000'000);
static_assert(Frequency::megahertz(33).cycles_to_time(33) == microseconds(1));

TEST_CASE("SimTime arithmetic and comparison") {
  const SimTime a = nanoseconds(5);
  const SimTime b = picoseconds(1'500);
  CHECK((a + b).ps() == 6'500);
  CHECK((a - b).ps() == 3'500);
  CHECK((b - a).ps() == -3'500);
  CHECK((-a).ps() == -5'000);
  CHECK((a * 3) == nanoseconds(15));
  CHECK((3 * a) == nanoseconds(15));
  CHECK((a / 2).ps() == 2'500);
  CHECK(a / b == 3);
  CHECK(a % b == picoseconds(500));
  CHECK(b < a);
  CHECK(a >= a);
  CHECK(SimTime{} == SimTime::zero());
  CHECK(SimTime::max() > seconds(1'000'000));

  SimTime c = a;
  c += b;
  c -= nanoseconds(1);
  c *= 2;
  c /= 4;
  CHECK(c.ps() == 2'750);

  CHECK(microseconds(3).as_us() == doctest::Approx(3.0));
  CHECK(picoseconds(2'500).as_ns() == doctest::Approx(2.5));
}

TEST_CASE("Frequency: 33 MHz converts absolute cycle counts exactly") {
  const Frequency f = Frequency::megahertz(33);
  CHECK(f.hz() == 33'000'000);
  CHECK(f.period() == picoseconds(30'303));
  CHECK(f.cycles_to_time(0) == SimTime::zero());
  CHECK(f.cycles_to_time(1) == picoseconds(30'303));
  CHECK(f.cycles_to_time(3) == picoseconds(90'909));
  CHECK(f.cycles_to_time(33'000'000) == seconds(1));
  CHECK(f.time_to_cycles(seconds(1)) == 33'000'000);
  CHECK(f.time_to_cycles(seconds(1) - picoseconds(1)) == 32'999'999);

  // After 10^9 cycles the exact result is 30303030303030.3 ps; summing a
  // rounded period would be 30.3 us adrift by now.
  constexpr std::uint64_t billion = 1'000'000'000;
  CHECK(f.cycles_to_time(billion) == picoseconds(30'303'030'303'030));
  CHECK(f.cycles_to_time(billion) - f.period() * billion == picoseconds(30'303'030));
  CHECK(f.time_to_cycles(f.cycles_to_time_ceil(billion)) == billion);
}

TEST_CASE("Frequency: 66.666 MHz is represented and converted exactly") {
  const Frequency f = Frequency::megahertz(66.666);
  CHECK(f.hz() == 66'666'000);
  CHECK(f.as_mhz() == doctest::Approx(66.666));
  CHECK(f.cycles_to_time(66'666'000) == seconds(1));
  CHECK(f.cycles_to_time(1'000'000'000) == picoseconds(15'000'150'001'500));
  CHECK(f.cycles_to_time_ceil(1'000'000'000) == picoseconds(15'000'150'001'501));
  CHECK(f.time_to_cycles(picoseconds(15'000'150'001'500)) == 999'999'999);
  CHECK(f.time_to_cycles(picoseconds(15'000'150'001'501)) == 1'000'000'000);
}

TEST_CASE("Frequency: round trips between cycles and time") {
  for (const double mhz : {33.0, 66.666, 100.0, 132.0, 7.3728}) {
    const Frequency f = Frequency::megahertz(mhz);
    CAPTURE(mhz);
    for (std::uint64_t c : {0ULL, 1ULL, 2ULL, 7ULL, 999ULL, 123'456'789ULL, 1'000'000'000ULL,
                            1'000'000'007ULL, 50'000'000'000ULL}) {
      CAPTURE(c);
      const SimTime lo = f.cycles_to_time(c);
      const SimTime hi = f.cycles_to_time_ceil(c);
      // Floor and ceiling of the same exact value.
      CHECK(lo <= hi);
      CHECK(hi - lo <= picoseconds(1));
      // The ceiling is the first instant at which c cycles are complete.
      CHECK(f.time_to_cycles(hi) == c);
      if (c > 0)
        CHECK(f.time_to_cycles(hi - picoseconds(1)) == c - 1);
      // The floor never claims more cycles than were run.
      const std::uint64_t back = f.time_to_cycles(lo);
      CHECK((back == c || back + 1 == c));
    }
  }
  // A period that is a whole number of picoseconds round-trips exactly.
  const Frequency f100 = Frequency::megahertz(100);
  CHECK(f100.time_to_cycles(f100.cycles_to_time(1'000'000'000)) == 1'000'000'000);
}

TEST_CASE("Frequency: time_to_cycles is a monotone floor") {
  const Frequency f = Frequency::megahertz(66.666);
  std::uint64_t previous = 0;
  for (std::int64_t ps = 0; ps < 200'000; ps += 997) {
    const std::uint64_t c = f.time_to_cycles(picoseconds(ps));
    CHECK(c >= previous);
    CHECK(f.cycles_to_time(c) <= picoseconds(ps));
    CHECK(f.cycles_to_time_ceil(c + 1) > picoseconds(ps));
    previous = c;
  }
}

TEST_CASE("Frequency: conversions agree with 128-bit arithmetic, near overflow included") {
  __extension__ typedef unsigned __int128 Wide;
  const Wide second = 1'000'000'000'000;
  const std::uint64_t rates[] = {1,
                                 7,
                                 33'000'000,
                                 66'000'000,
                                 66'666'000,
                                 132'000'001,
                                 999'999'999'989,
                                 1'000'000'000'000,
                                 3'000'000'000'000};
  const std::uint64_t counts[] = {0,
                                  1,
                                  2,
                                  65,
                                  66'000'000,
                                  123'456'789'012,
                                  36'893'488'147'419,
                                  36'893'488'147'420,
                                  18'446'744'073'709,
                                  4'000'000'000'000'000'000};
  for (const std::uint64_t hz : rates) {
    const Frequency f = Frequency::hertz(hz);
    for (const std::uint64_t c : counts) {
      const Wide floor_ps = Wide(c) * second / hz;
      const Wide ceil_ps = (Wide(c) * second + hz - 1) / hz;
      if (ceil_ps <= Wide(std::numeric_limits<std::int64_t>::max())) {
        CHECK(f.cycles_to_time(c).ps() == static_cast<std::int64_t>(floor_ps));
        CHECK(f.cycles_to_time_ceil(c).ps() == static_cast<std::int64_t>(ceil_ps));
      } else {
        CHECK_THROWS_AS((void)f.cycles_to_time_ceil(c), std::overflow_error);
      }
      const auto ps = static_cast<std::int64_t>(
          c % static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
      CHECK(f.time_to_cycles(picoseconds(ps)) ==
            static_cast<std::uint64_t>(Wide(ps) * hz / second));
    }
  }
}

TEST_CASE("Frequency: invalid rates and overflow are reported") {
  CHECK_THROWS_AS(Frequency::hertz(0), std::invalid_argument);
  CHECK_THROWS_AS(Frequency::megahertz(0.0), std::invalid_argument);
  CHECK_THROWS_AS(Frequency::megahertz(-5.0), std::invalid_argument);
  CHECK_THROWS_AS(Frequency::hertz(1).cycles_to_time(std::numeric_limits<std::uint64_t>::max()),
                  std::overflow_error);
  CHECK_THROWS_AS(Frequency::hertz(1).time_to_cycles(picoseconds(-1)), std::domain_error);
}

TEST_CASE("Bandwidth: transfer times round up") {
  const Bandwidth bw = Bandwidth::megabytes_per_second(160);
  CHECK(bw.bytes_per_second() == 160'000'000);
  CHECK(bw.transfer_time(0) == SimTime::zero());
  CHECK(bw.transfer_time(1) == picoseconds(6'250));
  CHECK(bw.transfer_time(160) == microseconds(1));
  CHECK(bw.transfer_time(4096) == picoseconds(25'600'000));
  CHECK(bw.bytes_in(microseconds(1)) == 160);
  CHECK(bw.bytes_in(picoseconds(6'249)) == 0);

  const Bandwidth odd = Bandwidth::bytes_per_second(3);
  CHECK(odd.transfer_time(1) == picoseconds(333'333'333'334));
  CHECK(odd.transfer_time(3) == seconds(1));
  CHECK(odd.bytes_in(odd.transfer_time(1)) == 1);

  CHECK_THROWS_AS(Bandwidth::bytes_per_second(0), std::invalid_argument);
  CHECK_THROWS_AS(Bandwidth::megabytes_per_second(-1), std::invalid_argument);
}
