#include "bench/queueing/twin_point.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <iterator>
#include <cstddef>
#include <limits>
#include <optional>

#include "emulator/host/cluster.hpp"
#include "emulator/kernel/random_stream.hpp"
#include "lanai/queue_twin_abi.h"
#include "emulator/machine/standalone_machine.hpp"

namespace lanai::bench {

namespace {

// Words only, so the host's layout of the block is the LANai's.
static_assert(sizeof(twin_config_block) == 13 * sizeof(std::uint32_t));

// When to stop ringing: checked at each doorbell, decided at cell
// boundaries once the cells before the last two are settled (waits that
// cross a boundary are recorded when they end).
class StopRule {
public:
  StopRule(const TwinPointSpec& spec, const QueueMeter& meter)
      : spec_(spec), meter_(meter), min_cells_(spec.batches),
        max_cells_(static_cast<std::size_t>(spec.max_duration.ps() / meter.cell().ps()) /
                   spec.batches * spec.batches) {}

  static constexpr std::size_t kLagCells = 2;

  // True once doorbells should stop: the measured cells are then final().
  // `budget_spent`: the doorbells allowed have all been rung, so the whole
  // batches settled so far are final, however precise.
  bool done(kernel::SimTime now, bool budget_spent) {
    if (cells_)
      return now >= stop_at_;
    if (budget_spent) {
      cells_ = settled_cells(now);
      stop_at_ = now;
      return true;
    }
    if (now < meter_.start())
      return false;
    const auto elapsed = static_cast<std::size_t>((now - meter_.start()).ps() / meter_.cell().ps());
    if (elapsed == seen_)
      return false;
    seen_ = elapsed;
    if (elapsed < kLagCells)
      return false;
    const std::size_t cells = settled_cells(now);
    // Batches change only every `batches` cells: judge each count once.
    if (cells < min_cells_ || cells == judged_)
      return false;
    judged_ = cells;
    if (cells < max_cells_ && meter_.stop_precision(cells, spec_.batches) > spec_.target_precision)
      return false;
    cells_ = cells;
    stop_at_ = meter_.start() + meter_.cell() * static_cast<std::int64_t>(cells + kLagCells);
    return now >= stop_at_;
  }
  std::size_t final_cells() const { return cells_.value_or(0); }

private:
  // Whole batches of cells that ended at least kLagCells before `now`.
  std::size_t settled_cells(kernel::SimTime now) const {
    if (now < meter_.start())
      return 0;
    const auto elapsed = static_cast<std::size_t>((now - meter_.start()).ps() / meter_.cell().ps());
    if (elapsed < kLagCells)
      return 0;
    return (elapsed - kLagCells) / spec_.batches * spec_.batches;
  }

  const TwinPointSpec& spec_;
  const QueueMeter& meter_;
  std::size_t min_cells_, max_cells_;
  std::size_t seen_ = 0;
  std::size_t judged_ = 0;
  std::optional<std::size_t> cells_;
  kernel::SimTime stop_at_{};
};

// The block word by word, each in LANai order.
void write_config(nic::Card& card, const twin_config_block& block) {
  std::uint32_t words[sizeof block / sizeof(std::uint32_t)];
  std::memcpy(words, &block, sizeof block);
  const std::uint32_t at = card.symbol(TWIN_CONFIG_SYMBOL);
  for (std::uint32_t i = 0; i < std::size(words); ++i)
    card.write_sram_word(at + 4 * i, words[i]);
}

std::string failure_text(std::uint32_t code) {
  switch (code) {
  case TWIN_FAIL_HDMA_REFUSED:
    return "the host DMA queue refused a request";
  case TWIN_FAIL_QUEUE_FULL:
    return "a job queue in SRAM overflowed";
  case TWIN_FAIL_SEND_REFUSED:
    return "the send DMA refused a packet";
  case TWIN_FAIL_DMA_STATUS:
    return "a host DMA transfer failed its protection check";
  default:
    return fmt::format("unknown failure code {}", code);
  }
}

// The host memory the twin's doorbells point at: descriptors (all alike)
// then the data, one registered region.
struct TwinMemory {
  static constexpr std::uint32_t kPtag = 7;
  std::vector<std::uint8_t> bytes;
  std::uintptr_t base = 0;
  std::uint32_t handle = 0;
  std::uint64_t data_host = 0;
};

TwinMemory register_memory(host::Cluster& cluster, const TwinPointSpec& spec) {
  TwinMemory m;
  const std::uint32_t desc_bytes = spec.transfers.descriptor_bytes;
  m.bytes.assign(desc_bytes + spec.transfers.data_bytes + 64, 0x5A);
  m.base = reinterpret_cast<std::uintptr_t>(m.bytes.data());
  m.handle = cluster.protection(0).add({m.base, m.bytes.size(), TwinMemory::kPtag});
  m.data_host = m.base + desc_bytes;
  return m;
}

// The firmware's configuration block: the services' LANai times in cycles,
// the transfers and where they go.
twin_config_block config_block(const TwinPointSpec& spec, const profile::HardwareProfile& p,
                               const TwinMemory& m) {
  const TwinServices& s = spec.services;
  twin_config_block block{};
  block.pooled = spec.pooled ? 1u : 0u;
  block.lanai_only = s.lanai_only ? 1u : 0u;
  block.doorbell_cycles = twin_cycles(p, s.lanai_doorbell_us);
  block.descriptor_cycles = twin_cycles(p, s.lanai_descriptor_us);
  block.data_cycles = twin_cycles(p, s.lanai_data_us);
  block.descriptor_bytes = spec.transfers.descriptor_bytes;
  block.data_bytes = spec.transfers.data_bytes;
  block.handle = m.handle;
  block.ptag = TwinMemory::kPtag;
  block.data_host_lo = static_cast<std::uint32_t>(m.data_host);
  block.data_host_hi = static_cast<std::uint32_t>(m.data_host >> 32);
  block.route_byte = 0; // the sink takes the packet whatever its route
  return block;
}

// The host's side: Poisson doorbells until the stop rule (or a stop
// request) ends the run.
struct DoorbellSource {
  std::uint64_t dropped = 0;
  std::uint64_t rung = 0;
  bool interrupted = false;

  int run(const TwinPointSpec& spec, const std::atomic<bool>* stop, host::HostCpu& cpu,
          nic::Card& card, const TwinMemory& m, StopRule& rule) {
    kernel::RandomStream gaps(spec.seed, "twin.doorbells");
    const double mean_gap_ps = 1e6 / spec.rate_per_us;
    double next_ps = static_cast<double>(cpu.kernel().now().ps());
    via_doorbell doorbell{};
    doorbell.handle = m.handle;
    doorbell.descriptor = m.base;
    for (;;) {
      next_ps += gaps.exponential(mean_gap_ps);
      const auto at = kernel::SimTime::from_ps(static_cast<std::int64_t>(next_ps));
      if (at > cpu.kernel().now())
        cpu.compute(at - cpu.kernel().now());
      if (rule.done(at, spec.max_doorbells != 0 && rung == spec.max_doorbells))
        return 0;
      if (stop && stop->load(std::memory_order_relaxed)) {
        interrupted = true;
        return 0;
      }
      if (!card.ring_doorbell(doorbell))
        ++dropped;
      ++rung;
    }
  }
};

} // namespace

TwinPointResult run_twin_point(const TwinPointSpec& spec, const std::atomic<bool>* stop) {
  const auto wall_start = std::chrono::steady_clock::now();
  TwinPointResult result;
  auto fail = [&](std::string detail) {
    result.status = TwinStatus::failed;
    result.detail = std::move(detail);
    return result;
  };
  if (spec.batches < 2)
    return fail("batches must be >= 2");
  if (!(spec.rate_per_us > 0))
    return fail("the doorbell rate must be > 0");

  host::ClusterConfig config;
  try {
    config.profile = twin_profile(spec.profile, spec.services, spec.transfers);
    config.firmware.assign(
        1, machine::link_firmware(loader::find_firmware(spec.firmware), config.profile));
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  config.nodes = 1;
  // The model's messages leave after the send DMA: the card's port sends
  // into a sink, and nothing comes back.
  config.send_into_sinks = true;
  config.seed = spec.seed;

  const kernel::SimTime cell = spec.min_duration / static_cast<std::int64_t>(spec.batches);
  if (cell.ps() <= 0)
    return fail("min_duration is too short for its batches");
  QueueMeter meter(spec.warmup, cell, spec.services.lanai_only);
  trace::Recorder recorder;
  recorder.set_consumer([&meter](const trace::Event& e) { meter.consume(e); });
  config.trace = &recorder;

  host::Cluster cluster(config);
  nic::Card& card = cluster.card(0);
  if (!card.has_symbol(TWIN_CONFIG_SYMBOL))
    return fail(fmt::format("firmware '{}' has no '{}': it is not a queueing twin firmware",
                            spec.firmware, TWIN_CONFIG_SYMBOL));
  const TwinMemory memory = register_memory(cluster, spec);
  write_config(card, config_block(spec, config.profile, memory));

  StopRule rule(spec, meter);
  DoorbellSource source;
  host::HostCpu& cpu = cluster.host(0);
  const host::RunReport report =
      cluster.run({[&]() -> int { return source.run(spec, stop, cpu, card, memory, rule); }});
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  result.virtual_seconds = cluster.kernel().now().as_ms() / 1e3;
  result.fast_forward = card.cpu().fast_forward();
  result.skipped_cycles = cluster.skipped_cycles();
  result.executed_instructions = card.cpu().instructions() - card.cpu().skipped_instructions();
  result.kernel_events = cluster.kernel().events_executed();
  result.core_slices = card.core().slices();
  if (source.interrupted) {
    result.status = TwinStatus::stopped;
    return result;
  }
  const auto failure =
      card.read_sram_word(card.symbol(TWIN_CONFIG_SYMBOL) +
                          static_cast<std::uint32_t>(offsetof(twin_config_block, failure)));
  if (failure != 0)
    return fail("the twin firmware stopped: " + failure_text(failure));
  if (!report.success())
    return fail(fmt::format("the run did not finish cleanly: {}", report.detail));
  if (source.dropped > 0)
    return fail(fmt::format("{} doorbells were dropped", source.dropped));
  if (meter.unmatched() > 0)
    return fail(fmt::format("{} jobs started without a matching arrival", meter.unmatched()));

  const std::size_t cells = rule.final_cells();
  if (cells == 0)
    return fail("no whole batch was measured: allow more doorbells");
  result.stations = meter.estimate(cells, spec.batches);
  result.services = meter.services();
  result.measured_ms = (cell * static_cast<std::int64_t>(cells)).as_ms();
  result.precision = meter.stop_precision(cells, spec.batches);
  result.precision_met = result.precision <= spec.target_precision;
  result.messages = meter.doorbells();
  return result;
}

} // namespace lanai::bench
