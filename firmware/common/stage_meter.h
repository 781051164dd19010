// What the adaptive fragmentation policy knows of the pipeline, found by
// the indirect (black-box) method from the sending card's own view: the
// firmware times (1) fragments that cross the card alone, from queueing
// their host reads to their packet's tail leaving, which fitted to
// time = g + bytes * G gives the sums of the stages' g and G on the way,
// and (2) fragments sent back to back, from the previous fragment of the
// message leaving to this one leaving, which fitted the same way gives the
// bottleneck's g_b and G_b. Fits are least squares over recent fragments,
// so queueing behind other traffic counts too and the figures follow
// contention.
// Firmware SDK: internal (the shipped engines' own; may change).
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
  // Fragments timed so far (wraps).
  uint32_t added() const { return added_; }

private:
  // Sums over the fragments timed, halved every kWindow of them so that
  // old traffic fades; sizes in units of 16 bytes keep them in range.
  static constexpr uint32_t kWindow = 64u;
  uint32_t samples_ = 0u;
  uint32_t added_ = 0u;
  int64_t n_ = 0, x_ = 0, y_ = 0, xx_ = 0, xy_ = 0;
};

// The figures the fixed-size theorem wants, or `seed` until both meters
// have fits: g_b from the back-to-back fit, and the other stages' summed G
// as the path's sum G less G_b. The path's sum is the sending side's plus
// the receiving card's host DMA, which the sender cannot see and takes to
// be the bottleneck (the receiving card must keep pace with it): so the
// other stages' G is the sending side's sum G.
// Fitting costs 64-bit divisions, which the LANai does in software: the
// figures are refitted only once either meter has timed kRefit fragments
// more, and `cache` keeps them in between.
struct FigureCache {
  bool fitted;
  uint32_t alone_at, back_to_back_at; // the meters' added() at the last fit
  PipelineFigures figures;
};
inline constexpr uint32_t kRefit = 16u;
PipelineFigures measured_figures(const StageMeter& alone, const StageMeter& back_to_back,
                                 const PipelineFigures& seed, FigureCache& cache);

// LANai cycles in nanoseconds, at the clock the driver reported.
uint32_t cycles_to_ns(uint64_t cycles);

} // namespace via
