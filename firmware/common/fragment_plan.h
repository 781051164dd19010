// How a send is cut into fragments, by the policy its VI's configuration
// names (VIA_FRAG_* in via_abi.h). A plan is made once per message, from
// the message's length, and then hands out the fragments' sizes in order.
// Sizes other than the last are multiples of VIA_FRAG_ALIGN.
// Firmware SDK: stable; the interface a fragmentation part implements.
#pragma once

#include <stdint.h>

namespace via {

struct FragmentPlan {
  uint32_t remaining; // bytes not yet handed out
  uint32_t fixed;     // the size of every fragment but the last; 0: ramp-up
  uint32_t smallest;  // no fragment but the last is smaller
  uint64_t next_q16;  // ramp-up: the next fragment's size, 16 fraction bits
  uint64_t ratio_q16; // ramp-up: G_1 / G_0
  int64_t step_q16;   // ramp-up: (g_1 - g_0) / G_0 in bytes
};

// Pipeline figures for the fixed-size theorem: the bottleneck's overhead
// and the other stages' summed per-byte cost.
struct PipelineFigures {
  uint32_t bottleneck_ns;
  uint32_t others_ns_per_kb;
};

// The number of equal fragments the fixed-size theorem picks for `bytes`:
// sqrt(bytes * others / g_b), its floor or its ceiling, whichever gives the
// lower latency, within [1, bytes / smallest].
uint32_t fixed_optimal_count(uint32_t bytes, const PipelineFigures& figures, uint32_t smallest);

// Plans `length` bytes for VI `vi`; `measured` stands for the VI's figures
// under the adaptive policy.
void plan_fragments(uint32_t vi, uint32_t length, const PipelineFigures& measured,
                    FragmentPlan& plan);
// The plan of a message sent whole (VIA_FRAG_NONE): quick, for the common case.
inline void plan_whole(uint32_t length, FragmentPlan& plan) {
  plan.remaining = length;
  plan.fixed = length == 0u ? 1u : length; // 0 would mean ramp-up
  plan.smallest = 0u;
}

// The size of a ramp-up plan's next fragment.
uint32_t next_ramp_fragment(FragmentPlan& plan);

// The next fragment's size (the whole remainder for the last); a message
// of no bytes is one empty fragment.
inline uint32_t next_fragment(FragmentPlan& plan) {
  if (plan.fixed == 0u)
    return next_ramp_fragment(plan);
  const uint32_t bytes = plan.fixed < plan.remaining ? plan.fixed : plan.remaining;
  plan.remaining -= bytes;
  return bytes;
}

} // namespace via
