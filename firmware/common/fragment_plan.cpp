// The fragmentation policies. Integer arithmetic only (the LANai has no
// floating point): times in ns, per-byte costs in ns per KB, ramp-up sizes
// and ratios in fixed point with 16 fraction bits.
#include "common/fragment_plan.h"

#include <lanai/via_abi.h>

#include "common/sram_placement.h"
#include "common/vi_table.h"

namespace via {

namespace {

constexpr uint32_t kFraction = 16u;
constexpr uint64_t kOne = uint64_t{1} << kFraction;
// Ramp-up plans have at most this many fragments.
constexpr uint32_t kMaxRampFragments = 64u;

uint32_t align_down(uint32_t bytes) { return bytes & ~(VIA_FRAG_ALIGN - 1u); }
uint32_t align_up(uint32_t bytes) { return align_down(bytes + VIA_FRAG_ALIGN - 1u); }

uint32_t isqrt(uint32_t n) {
  uint32_t root = 0u;
  for (uint32_t bit = uint32_t{1} << 30; bit != 0u; bit >>= 2) {
    if (n >= root + bit) {
      n -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
  }
  return root;
}

uint32_t largest_count(uint32_t bytes, uint32_t smallest) {
  const uint32_t most = bytes / (smallest == 0u ? 1u : smallest);
  return most == 0u ? 1u : most;
}

// The part of the fixed-size latency that depends on k, times 1024 k.
uint64_t fixed_cost(uint64_t k, uint32_t bytes, const PipelineFigures& f) {
  return k * k * f.bottleneck_ns * 1024u + uint64_t{bytes} * f.others_ns_per_kb;
}

void plan_equal(uint32_t length, uint32_t count, FragmentPlan& plan) {
  plan.fixed = align_up((length + count - 1u) / count);
  if (plan.fixed == 0u)
    plan.fixed = VIA_FRAG_ALIGN;
}

int64_t scale(int64_t a, uint64_t b_q16) {
  return a < 0 ? -static_cast<int64_t>((static_cast<uint64_t>(-a) * b_q16) >> kFraction)
               : static_cast<int64_t>((static_cast<uint64_t>(a) * b_q16) >> kFraction);
}

// The two-stage recurrence x_{i+1} = step + ratio * x_i: for each count k,
// the first size that makes the sizes sum to `length`; the k whose plan has
// no fragment below `smallest` and the lowest two-stage latency
// g_0 + x_0 G_0 + k g_1 (+ length G_1, the same for every k) wins.
void plan_ramp_up(uint32_t length, const uint32_t* p, FragmentPlan& plan) {
  const uint32_t g0 = p[0], G0 = p[1] == 0u ? 1u : p[1], g1 = p[2], G1 = p[3];
  plan.ratio_q16 = (uint64_t{G1} << kFraction) / G0;
  plan.step_q16 =
      ((static_cast<int64_t>(g1) - static_cast<int64_t>(g0)) * 1024 * static_cast<int64_t>(kOne)) /
      G0;
  const uint64_t least = uint64_t{plan.smallest} << kFraction;
  uint64_t power = kOne; // ratio^i
  uint64_t sum = 0u;     // sum of ratio^m, m < k
  uint64_t partial = 0u; // D_i: sum of ratio^m, m < i
  uint64_t nested = 0u;  // sum of D_m, m < k
  uint64_t best_cost = ~uint64_t{0};
  plan.next_q16 = uint64_t{length} << kFraction;
  const uint32_t most = largest_count(length, plan.smallest);
  for (uint32_t k = 1u; k <= kMaxRampFragments && k <= most; ++k) {
    sum += power;
    nested += partial;
    const int64_t rest = (static_cast<int64_t>(length) << kFraction) - scale(plan.step_q16, nested);
    if (rest <= 0)
      break;
    const uint64_t first = (static_cast<uint64_t>(rest) << kFraction) / sum;
    const int64_t last =
        static_cast<int64_t>((first * power) >> kFraction) + scale(plan.step_q16, partial);
    if (first >= least && last >= static_cast<int64_t>(least)) {
      const uint64_t cost = ((first * G0) >> (kFraction + 10u)) + uint64_t{k} * g1;
      if (cost < best_cost) {
        best_cost = cost;
        plan.next_q16 = first;
      }
    }
    partial += power;
    power = (power * plan.ratio_q16) >> kFraction;
    if (sum > (uint64_t{1} << 40) || power == 0u)
      break;
  }
}

} // namespace

uint32_t fixed_optimal_count(uint32_t bytes, const PipelineFigures& f, uint32_t smallest) {
  const uint32_t most = largest_count(bytes, smallest);
  if (f.bottleneck_ns == 0u)
    return most;
  const uint64_t square =
      uint64_t{bytes} * f.others_ns_per_kb / (uint64_t{f.bottleneck_ns} * 1024u);
  uint64_t k = isqrt(square > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<uint32_t>(square));
  if (k == 0u)
    k = 1u;
  if (k + 1u <= most && fixed_cost(k + 1u, bytes, f) * k < fixed_cost(k, bytes, f) * (k + 1u))
    ++k;
  return k > most ? most : static_cast<uint32_t>(k);
}

namespace {

// The last plan made for each VI: a VI sending one size over and over
// (the common case) plans once. Any change of inputs plans afresh.
struct Remembered {
  uint32_t length, policy, smallest, figures[4];
  FragmentPlan plan;
};
VIA_ZEROED_AT_LOAD Remembered remembered[VIA_MAX_VI]{};

bool same_inputs(const Remembered& r, uint32_t length, uint32_t policy, uint32_t smallest,
                 const uint32_t figures[4]) {
  return r.length == length && r.policy == policy && r.smallest == smallest &&
         r.figures[0] == figures[0] && r.figures[1] == figures[1] && r.figures[2] == figures[2] &&
         r.figures[3] == figures[3];
}

void plan_afresh(uint32_t length, uint32_t policy, const uint32_t figures[4], FragmentPlan& plan) {
  plan.fixed = length == 0u ? 1u : length; // 0 would mean ramp-up
  switch (policy) {
  case VIA_FRAG_STATIC:
    plan.fixed = plan.smallest;
    break;
  case VIA_FRAG_FIXED_OPTIMAL:
  case VIA_FRAG_ADAPTIVE: {
    const PipelineFigures given{figures[0], figures[1]};
    plan_equal(length, fixed_optimal_count(length, given, plan.smallest), plan);
    break;
  }
  case VIA_FRAG_RAMP_UP:
    plan.fixed = 0u;
    plan_ramp_up(length, figures, plan);
    break;
  default: // VIA_FRAG_NONE
    break;
  }
}

} // namespace

void plan_fragments(uint32_t vi, uint32_t length, const PipelineFigures& measured,
                    FragmentPlan& plan) {
  volatile via_vi_config& config = vi_config(vi);
  const uint32_t policy = config.frag_policy;
  const uint32_t smallest =
      config.frag_bytes < VIA_FRAG_ALIGN ? VIA_FRAG_ALIGN : align_up(config.frag_bytes);
  uint32_t figures[4] = {config.frag_param[0], config.frag_param[1], config.frag_param[2],
                         config.frag_param[3]};
  if (policy == VIA_FRAG_ADAPTIVE) {
    figures[0] = measured.bottleneck_ns;
    figures[1] = measured.others_ns_per_kb;
  }
  Remembered& last = remembered[vi];
  if (!same_inputs(last, length, policy, smallest, figures)) {
    last.length = length;
    last.policy = policy;
    last.smallest = smallest;
    for (uint32_t i = 0u; i < 4u; ++i)
      last.figures[i] = figures[i];
    last.plan.smallest = smallest;
    plan_afresh(length, policy, figures, last.plan);
  }
  plan = last.plan;
  plan.remaining = length;
}

uint32_t next_ramp_fragment(FragmentPlan& plan) {
  const uint64_t ideal = plan.next_q16 >> kFraction;
  uint32_t bytes =
      ideal > plan.remaining ? plan.remaining : align_down(static_cast<uint32_t>(ideal));
  if (bytes < plan.smallest)
    bytes = plan.smallest;
  const int64_t next =
      static_cast<int64_t>((plan.next_q16 * plan.ratio_q16) >> kFraction) + plan.step_q16;
  plan.next_q16 = next < 0 ? 0u : static_cast<uint64_t>(next);
  // The last takes the rest, and so does a size that would leave a sliver.
  if (bytes >= plan.remaining || plan.remaining - bytes < plan.smallest)
    bytes = plan.remaining;
  plan.remaining -= bytes;
  return bytes;
}

} // namespace via
