// Least squares over running sums, in integers: x is a fragment's size in
// units of 16 bytes (64 to the KB), y its time in LANai cycles.
#include "common/stage_meter.h"

#include "common/nic_config.h"

namespace via {

namespace {
constexpr int64_t kUnitsPerKb = 64;
constexpr uint32_t kMaxCycles = (1u << 19) - 1u;
} // namespace

void StageMeter::add(uint32_t bytes, uint32_t cycles) {
  if (samples_ == kWindow) {
    n_ /= 2;
    x_ /= 2;
    y_ /= 2;
    xx_ /= 2;
    xy_ /= 2;
    samples_ = 0u;
  }
  ++samples_;
  ++added_;
  // 32-bit products, which the LANai's software multiply does in one short
  // loop per bit of x: x fits 13 bits (64 KB / 16) and y is held under
  // 2^19 cycles (8 ms at 66 MHz), so neither product overflows.
  const uint32_t x = bytes / 16u;
  const uint32_t y = cycles < kMaxCycles ? cycles : kMaxCycles;
  n_ += 1;
  x_ += x;
  y_ += y;
  xx_ += x * x;
  xy_ += x * y;
}

bool StageMeter::fitted() const { return n_ >= 2 && n_ * xx_ - x_ * x_ > 0; }

uint32_t StageMeter::per_kb() const {
  const int64_t slope = (n_ * xy_ - x_ * y_) * kUnitsPerKb / (n_ * xx_ - x_ * x_);
  return slope < 0 ? 0u : static_cast<uint32_t>(slope);
}

uint32_t StageMeter::overhead() const {
  const int64_t g = (y_ - static_cast<int64_t>(per_kb()) * x_ / kUnitsPerKb) / n_;
  return g < 0 ? 0u : static_cast<uint32_t>(g);
}

PipelineFigures measured_figures(const StageMeter& alone, const StageMeter& back_to_back,
                                 const PipelineFigures& seed, FigureCache& cache) {
  if (cache.fitted && alone.added() - cache.alone_at < kRefit &&
      back_to_back.added() - cache.back_to_back_at < kRefit)
    return cache.figures;
  if (!alone.fitted() || !back_to_back.fitted())
    return seed;
  cache.fitted = true;
  cache.alone_at = alone.added();
  cache.back_to_back_at = back_to_back.added();
  cache.figures = {cycles_to_ns(back_to_back.overhead()), cycles_to_ns(alone.per_kb())};
  return cache.figures;
}

uint32_t cycles_to_ns(uint64_t cycles) {
  const uint32_t khz = nic_config().clock_khz;
  return khz == 0u ? static_cast<uint32_t>(cycles) : static_cast<uint32_t>(cycles * 1000000u / khz);
}

} // namespace via
