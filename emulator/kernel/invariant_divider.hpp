// Unsigned 64-bit division by a divisor fixed at construction, exact for
// every dividend, with a multiply and shifts instead of a division
// instruction (Granlund and Montgomery, "Division by invariant integers
// using multiplication", 1994, figure 4.1). The clock conversions divide by
// the same few numbers on every register access and event, where a
// hardware division costs tens of cycles.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace lanai::kernel {

class InvariantDivider {
public:
  constexpr explicit InvariantDivider(std::uint64_t divisor) : divisor_(divisor) {
    if (divisor == 0)
      throw std::invalid_argument("lanai::kernel: division by zero");
    // l = ceil(log2(divisor)); multiplier = floor(2^64 (2^l - d) / d) + 1.
    unsigned l = 0;
    while (l < 64 && (std::uint64_t{1} << l) < divisor)
      ++l;
    const std::uint64_t excess =
        l == 64 ? std::uint64_t{0} - divisor : (std::uint64_t{1} << l) - divisor; // 2^l - d
    multiplier_ = static_cast<std::uint64_t>((static_cast<Wide>(excess) << 64) / divisor) + 1;
    shift1_ = l < 1 ? l : 1;
    shift2_ = l > 1 ? l - 1 : 0;
  }

  constexpr std::uint64_t divisor() const { return divisor_; }

  // floor(n / divisor), for every n.
  constexpr std::uint64_t divide(std::uint64_t n) const {
    const auto t = static_cast<std::uint64_t>((static_cast<Wide>(multiplier_) * n) >> 64);
    return (t + ((n - t) >> shift1_)) >> shift2_;
  }

  friend constexpr bool operator==(const InvariantDivider& a, const InvariantDivider& b) {
    return a.divisor_ == b.divisor_;
  }

private:
  // The extension keyword keeps -Wpedantic consumers of this header quiet.
  __extension__ typedef unsigned __int128 Wide;
  std::uint64_t divisor_;
  std::uint64_t multiplier_ = 0;
  unsigned shift1_ = 0;
  unsigned shift2_ = 0;
};

} // namespace lanai::kernel
