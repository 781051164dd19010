// The card's path as a pipeline of store-and-forward stages, measured by
// the direct method: whole (unfragmented) messages of several sizes are
// bounced, a device trace times each stage of node 0's messages, and a
// line fitted to each stage's times against the size gives its overhead g
// and per-byte time G. The stages, from the sender's doorbell:
//   send HDMA     the data's read queued -> the data in SRAM (host DMA)
//   network       data in SRAM -> the packet's tail in the receiver's SRAM
//                 (network send DMA, wire and switch, network receive DMA:
//                 cut-through makes them one step)
//   receive HDMA  packet in SRAM -> the data in host memory
// and around them what the 1-way latency adds once per message: `post`
// (doorbell -> the descriptor fetched and planned, the first read queued;
// the card cuts further fragments while earlier ones are read) before, and
// `completion` (the status
// write, the receiving host noticing it, and the sending host's call up to
// its doorbell) after.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tools/analytic/pipeline_model.hpp"
#include "bench/workloads/pingpong.hpp"

namespace lanai::bench {

struct MeasuredStage {
  std::string name;
  models::PipelineStage fit;    // g and G from the line fit
  bool per_message = false;     // paid once per message the card sees, not per fragment it cuts
  std::vector<double> times_us; // per fitted size
  double max_residual_us = 0.0; // the fit's worst miss
};

struct CardStages {
  std::vector<std::uint32_t> sizes; // the unfragmented sizes timed
  MeasuredStage post;
  std::vector<MeasuredStage> stages; // send HDMA, network, receive HDMA
  MeasuredStage completion;
  // The stages a fragment the card cuts goes through.
  std::vector<models::PipelineStage> pipeline() const;
  // post(B) + completion(B) + the pipeline's latency for these fragments
  // (sizes, in order): a message the card cuts.
  double predict_us(std::span<const double> fragments) const;
  // post, the stages and completion: the path of a fragment the host cuts,
  // which the card sees as a message of its own.
  std::vector<MeasuredStage> message_path() const;
};

// Bounces one message of each size (at least two distinct sizes, each
// 1..64 KB) `iters` times after one warm-up on `setup`, unfragmented, and
// fits the stages. Throws std::invalid_argument for bad sizes and
// std::runtime_error if a run fails (naming the size and why). A fitted g
// or G below 0 (noise around a stage that costs nothing) is taken as 0.
CardStages measure_card_stages(const ClusterSetup& setup, std::span<const std::uint32_t> sizes,
                               std::uint32_t iters);

// The stages' fitted g and G, in order.
std::vector<models::PipelineStage> stage_fits(std::span<const MeasuredStage> stages);
// {"name":..,"per":"message"|"fragment","g_us":..,"G_us_per_kb":..,"max_residual_us":..}
std::string stage_json(const MeasuredStage& stage);

// Sizes for the fit when the largest message is `largest`: 256 B, then
// every fourth power of two up to it, and `largest` itself.
std::vector<std::uint32_t> default_fit_sizes(std::uint32_t largest);

// The card's static cut of `bytes` into fragments of `fragment` bytes: all
// full but the last.
std::vector<double> static_fragments(std::uint32_t bytes, std::uint32_t fragment);

} // namespace lanai::bench
