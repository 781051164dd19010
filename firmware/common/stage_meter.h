// What the adaptive fragmentation policy knows of the pipeline: the
// firmware times its own fragments through the two stages it drives on the
// sending side, the host DMA (from queueing the fragment's reads to their
// last completion) and the network send DMA (from its start until it is
// seen idle), and fits time = g + bytes * G to each by least squares over
// recent fragments. The pipeline it assumes is host DMA -> wire -> the
// receiving card's host DMA, which behaves like its own. Queueing behind
// other traffic counts too, so the figures follow contention.
#pragma once

#include <stdint.h>

#include "common/fragment_plan.h"

namespace via {

class StageMeter {
public:
  void add(uint32_t bytes, uint32_t cycles);
  // False until fragments of at least two sizes have been timed.
  bool fitted() const;
  // g in cycles and G in cycles per KB, from the fit (once fitted()).
  uint32_t overhead() const;
  uint32_t per_kb() const;

private:
  // Sums over the fragments timed, halved every kWindow of them so that
  // old traffic fades; sizes in units of 16 bytes keep them in range.
  static constexpr uint32_t kWindow = 64u;
  uint32_t samples_ = 0u;
  int64_t n_ = 0, x_ = 0, y_ = 0, xx_ = 0, xy_ = 0;
};

// The figures the fixed-size theorem wants from the two meters, or `seed`
// until both have fits.
PipelineFigures measured_figures(const StageMeter& host_dma, const StageMeter& wire,
                                 const PipelineFigures& seed);

// LANai cycles in nanoseconds, at the clock the driver reported.
uint32_t cycles_to_ns(uint64_t cycles);

} // namespace via
