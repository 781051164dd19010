// Least squares over running sums, in integers: x is a fragment's size in
// units of 16 bytes (64 to the KB), y its time in ns.
#include "common/stage_meter.h"

#include "common/nic_config.h"

namespace via {

namespace {
constexpr int64_t kUnitsPerKb = 64;
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
  const int64_t x = bytes / 16u;
  const int64_t y = cycles;
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

PipelineFigures measured_figures(const StageMeter& host_dma, const StageMeter& wire,
                                 const PipelineFigures& seed) {
  if (!host_dma.fitted() || !wire.fitted())
    return seed;
  // Stages: host DMA, wire, the receiver's host DMA. The bottleneck is the
  // one with the larger per-byte cost (the later host DMA on a tie).
  const uint32_t dma_G = host_dma.per_kb(), wire_G = wire.per_kb();
  if (wire_G > dma_G)
    return {cycles_to_ns(wire.overhead()), cycles_to_ns(2u * dma_G)};
  return {cycles_to_ns(host_dma.overhead()), cycles_to_ns(dma_G + wire_G)};
}

uint32_t cycles_to_ns(uint64_t cycles) {
  const uint32_t khz = nic_config().clock_khz;
  return khz == 0u ? static_cast<uint32_t>(cycles)
                   : static_cast<uint32_t>(cycles * 1000000u / khz);
}

} // namespace via
