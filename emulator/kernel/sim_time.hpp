// Virtual time and the rates that convert between work and time: SimTime is
// an exact count of picoseconds, Frequency turns clock cycles into time and
// back, Bandwidth turns byte counts into transfer durations.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "emulator/kernel/invariant_divider.hpp"

namespace lanai::kernel {

// A point in (or span of) virtual time. Picoseconds in a signed 64-bit count
// cover about 106 days of simulated time, which no experiment approaches, and
// integer arithmetic keeps every run bit-for-bit reproducible.
class SimTime {
public:
  constexpr SimTime() = default;

  static constexpr SimTime from_ps(std::int64_t ps) { return SimTime(ps); }
  static constexpr SimTime zero() { return SimTime(0); }
  static constexpr SimTime max() { return SimTime(std::numeric_limits<std::int64_t>::max()); }

  constexpr std::int64_t ps() const { return ps_; }
  // Floating-point views lose precision; they exist for printing and plots.
  constexpr double as_ns() const { return static_cast<double>(ps_) / 1e3; }
  constexpr double as_us() const { return static_cast<double>(ps_) / 1e6; }
  constexpr double as_ms() const { return static_cast<double>(ps_) / 1e9; }
  constexpr double as_seconds() const { return static_cast<double>(ps_) / 1e12; }

  constexpr SimTime& operator+=(SimTime other) {
    ps_ += other.ps_;
    return *this;
  }
  constexpr SimTime& operator-=(SimTime other) {
    ps_ -= other.ps_;
    return *this;
  }
  constexpr SimTime& operator*=(std::int64_t k) {
    ps_ *= k;
    return *this;
  }
  constexpr SimTime& operator/=(std::int64_t k) {
    ps_ /= k;
    return *this;
  }

  friend constexpr SimTime operator+(SimTime a, SimTime b) { return SimTime(a.ps_ + b.ps_); }
  friend constexpr SimTime operator-(SimTime a, SimTime b) { return SimTime(a.ps_ - b.ps_); }
  friend constexpr SimTime operator-(SimTime a) { return SimTime(-a.ps_); }
  friend constexpr SimTime operator*(SimTime a, std::int64_t k) { return SimTime(a.ps_ * k); }
  friend constexpr SimTime operator*(std::int64_t k, SimTime a) { return SimTime(a.ps_ * k); }
  // Integer division truncates toward zero, like the underlying int64.
  friend constexpr SimTime operator/(SimTime a, std::int64_t k) { return SimTime(a.ps_ / k); }
  // How many whole spans of b fit into a.
  friend constexpr std::int64_t operator/(SimTime a, SimTime b) { return a.ps_ / b.ps_; }
  friend constexpr SimTime operator%(SimTime a, SimTime b) { return SimTime(a.ps_ % b.ps_); }

  friend constexpr auto operator<=>(SimTime a, SimTime b) = default;
  friend constexpr bool operator==(SimTime a, SimTime b) = default;

private:
  constexpr explicit SimTime(std::int64_t ps) : ps_(ps) {}

  std::int64_t ps_ = 0;
};

constexpr SimTime picoseconds(std::int64_t n) { return SimTime::from_ps(n); }
constexpr SimTime nanoseconds(std::int64_t n) { return SimTime::from_ps(n * 1'000); }
constexpr SimTime microseconds(std::int64_t n) { return SimTime::from_ps(n * 1'000'000); }
constexpr SimTime milliseconds(std::int64_t n) { return SimTime::from_ps(n * 1'000'000'000); }
constexpr SimTime seconds(std::int64_t n) { return SimTime::from_ps(n * 1'000'000'000'000); }

namespace detail {

// The extension keyword keeps -Wpedantic consumers of this header quiet.
__extension__ typedef unsigned __int128 Uint128;

inline constexpr Uint128 ps_per_second = 1'000'000'000'000;

// Results that do not fit SimTime mean a configuration error (an absurd rate
// or duration), so they are reported rather than silently wrapped.
constexpr std::int64_t checked_ps(Uint128 ps) {
  if (ps > static_cast<Uint128>(std::numeric_limits<std::int64_t>::max()))
    throw std::overflow_error("lanai::kernel: duration does not fit in SimTime");
  return static_cast<std::int64_t>(ps);
}

constexpr std::uint64_t rate_from_double(double value, double scale, const char* what) {
  const double scaled = value * scale;
  if (!(scaled >= 1.0) || scaled > 1.8e19)
    throw std::invalid_argument(what);
  // Rounding absorbs binary representation error, so that 66.666 MHz is
  // exactly 66'666'000 Hz rather than one hertz less.
  return static_cast<std::uint64_t>(scaled + 0.5);
}

} // namespace detail

// A clock rate in whole hertz. Clocked components count cycles and convert
// the count to time only when they need to schedule or synchronise, which is
// why the conversions work on absolute cycle counts: converting a running
// total never accumulates the rounding error a per-cycle period would.
class Frequency {
public:
  static constexpr Frequency hertz(std::uint64_t hz) {
    if (hz == 0)
      throw std::invalid_argument("lanai::kernel: frequency must be positive");
    return Frequency(hz);
  }
  static constexpr Frequency megahertz(double mhz) {
    return Frequency(
        detail::rate_from_double(mhz, 1e6, "lanai::kernel: frequency must be positive"));
  }

  constexpr std::uint64_t hz() const { return hz_; }
  constexpr double as_mhz() const { return static_cast<double>(hz_) / 1e6; }

  // Time taken by `cycles` cycles: floor(cycles * 1e12 / hz) picoseconds.
  constexpr SimTime cycles_to_time(std::uint64_t cycles) const {
    std::uint64_t num = 0;
    if (!__builtin_mul_overflow(cycles, ps_num_.divisor(), &num))
      return SimTime::from_ps(detail::checked_ps(hz_den_.divide(num)));
    const auto wide = static_cast<detail::Uint128>(cycles) * detail::ps_per_second;
    return SimTime::from_ps(detail::checked_ps(wide / hz_));
  }

  // Earliest whole picosecond by which `cycles` cycles have completed:
  // ceil(cycles * 1e12 / hz). Unlike cycles_to_time, time_to_cycles of the
  // result gives back exactly `cycles`, which matters when an event is
  // scheduled for a cycle and the handler then reads the cycle counter.
  constexpr SimTime cycles_to_time_ceil(std::uint64_t cycles) const {
    std::uint64_t num = 0;
    if (!__builtin_mul_overflow(cycles, ps_num_.divisor(), &num) &&
        num <= ~std::uint64_t{0} - hz_den_.divisor())
      return SimTime::from_ps(detail::checked_ps(hz_den_.divide(num + hz_den_.divisor() - 1)));
    const auto wide = static_cast<detail::Uint128>(cycles) * detail::ps_per_second;
    return SimTime::from_ps(detail::checked_ps((wide + hz_ - 1) / hz_));
  }

  // Whole cycles completed by time t: floor(t.ps * hz / 1e12).
  constexpr std::uint64_t time_to_cycles(SimTime t) const {
    if (t.ps() < 0)
      throw std::domain_error("lanai::kernel: negative time has no cycle count");
    std::uint64_t num = 0;
    if (!__builtin_mul_overflow(static_cast<std::uint64_t>(t.ps()), hz_den_.divisor(), &num))
      return ps_num_.divide(num);
    const auto wide = static_cast<detail::Uint128>(t.ps()) * hz_;
    return static_cast<std::uint64_t>(wide / detail::ps_per_second);
  }

  // One period, rounded down; for display, not for accumulating.
  constexpr SimTime period() const { return cycles_to_time(1); }

  friend constexpr bool operator==(Frequency a, Frequency b) = default;

private:
  constexpr explicit Frequency(std::uint64_t hz)
      : hz_(hz), ps_num_(1'000'000'000'000 / gcd_with_second(hz)),
        hz_den_(hz / gcd_with_second(hz)) {}

  static constexpr std::uint64_t gcd_with_second(std::uint64_t hz) {
    std::uint64_t a = 1'000'000'000'000, b = hz;
    while (b != 0) {
      const std::uint64_t r = a % b;
      a = b;
      b = r;
    }
    return a;
  }

  std::uint64_t hz_;
  // hz / 1e12 in lowest terms: the conversions stay in 64 bits (one
  // division, by multiplication, instead of a 128-bit one) whenever the
  // product fits.
  InvariantDivider ps_num_; // 1e12 / gcd
  InvariantDivider hz_den_; // hz / gcd
};

// A transfer rate in bytes per second. Megabytes are decimal (10^6 bytes),
// matching how link and bus rates are quoted in hardware data sheets.
class Bandwidth {
public:
  static constexpr Bandwidth bytes_per_second(std::uint64_t bps) {
    if (bps == 0)
      throw std::invalid_argument("lanai::kernel: bandwidth must be positive");
    return Bandwidth(bps);
  }
  static constexpr Bandwidth megabytes_per_second(double mbps) {
    return Bandwidth(
        detail::rate_from_double(mbps, 1e6, "lanai::kernel: bandwidth must be positive"));
  }

  constexpr std::uint64_t bytes_per_second() const { return bps_; }
  constexpr double as_megabytes_per_second() const { return static_cast<double>(bps_) / 1e6; }

  // Time to move `bytes`, rounded up: a transfer is not done until its last
  // byte is, so rounding down would let a consumer see data early.
  constexpr SimTime transfer_time(std::uint64_t bytes) const {
    const auto num = static_cast<detail::Uint128>(bytes) * detail::ps_per_second;
    return SimTime::from_ps(detail::checked_ps((num + bps_ - 1) / bps_));
  }

  // Whole bytes that can be moved within `t`.
  constexpr std::uint64_t bytes_in(SimTime t) const {
    if (t.ps() < 0)
      throw std::domain_error("lanai::kernel: negative time has no byte count");
    const auto num = static_cast<detail::Uint128>(t.ps()) * bps_;
    return static_cast<std::uint64_t>(num / detail::ps_per_second);
  }

  friend constexpr bool operator==(Bandwidth a, Bandwidth b) = default;

private:
  constexpr explicit Bandwidth(std::uint64_t bps) : bps_(bps) {}

  std::uint64_t bps_;
};

} // namespace lanai::kernel
