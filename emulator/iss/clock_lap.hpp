// Exact fast-forward of loops that wait on the cycle counter. Such a loop
// reads a clock register (MmioBus::clock_read) once a lap and compares what
// it computes from the value with values that do not change: its state
// differs from lap to lap, so the idle watch's "same state again" never
// holds. But if every other input of the lap is the same each lap, the lap
// is a function of the value read alone, and the value grows by the lap's
// cycles each lap. The analysis (Cpu::skip_clock_laps) runs the lap's
// block once over values that are either the same every lap ("known") or
// the clock value v plus or minus a constant ("affine"); anything else it
// does with v (a mask, a shift, an address, a store) rules the loop out.
// What the lap decides then hangs on one flag-setting addition of an affine
// value X and a known one, whose flags stay the same while X moves within
// one interval between the points below.
#pragma once

#include <cstdint>

namespace lanai::iss {

// A value of the lap: sign 0, `constant` every lap; sign +1 or -1,
// sign * v + constant (mod 2^32), v the clock value read in the lap.
struct LapValue {
  std::int32_t sign = 0;
  std::uint32_t constant = 0;

  static LapValue known(std::uint32_t value) { return {0, value}; }
  static LapValue clock() { return {1, 0}; }
  bool is_known() const { return sign == 0; }
  std::uint32_t at(std::uint32_t v) const {
    return static_cast<std::uint32_t>(sign) * v + constant;
  }
};

// The flags of a + b + carry_in are those of the sum's sign, its zero, its
// carry out and its overflow; with b (and carry_in) fixed, each changes only
// where a or the sum crosses 0 or 2^31, so a moving a keeps all four while it
// stays between two of these values of a: 0, 2^31, -(b + carry_in) and
// 2^31 - (b + carry_in). Counting from a lap whose moving operand is `x1`
// and which moves by `step` a lap (up for direction +1, down for -1, step
// below 2^31), returns how many laps, that one included, have their operand
// strictly on this side of every such point: all of them have the flags of
// the first. 0 if x1 is one of the points.
inline std::uint64_t laps_with_same_flags(std::uint32_t x1, std::int32_t direction,
                                          std::uint32_t step, std::uint32_t other,
                                          std::uint32_t carry_in) {
  const std::uint32_t shift = other + carry_in;
  const std::uint32_t points[4] = {0u, 0x80000000u, 0u - shift, 0x80000000u - shift};
  std::uint64_t laps = ~std::uint64_t{0};
  for (const std::uint32_t p : points) {
    // How far the operand travels from x1 to reach p.
    const std::uint32_t distance = direction > 0 ? p - x1 : x1 - p;
    if (distance == 0)
      return 0;
    // Laps 1..k have travelled (k - 1) * step < distance.
    const std::uint64_t k = (std::uint64_t{distance} + step - 1) / step;
    if (k < laps)
      laps = k;
  }
  return laps;
}

} // namespace lanai::iss
