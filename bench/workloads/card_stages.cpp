#include "bench/workloads/card_stages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "emulator/text/json_text.hpp"
#include "bench/metrics/latency_summary.hpp"
#include "tools/numeric/line_fit.hpp"

namespace lanai::bench {

namespace {

MeasuredStage fitted(std::string name, std::span<const std::uint32_t> sizes,
                     std::vector<double> times_us) {
  std::vector<double> x(sizes.begin(), sizes.end());
  const numeric::LineFit line = numeric::fit_line(x, times_us);
  MeasuredStage s;
  s.name = std::move(name);
  // A stage cannot cost less than nothing: a slightly negative fit is noise.
  s.fit = {std::max(0.0, line.intercept), std::max(0.0, line.slope * models::kPipelineBytesPerKb)};
  s.times_us = std::move(times_us);
  s.max_residual_us = line.max_residual;
  return s;
}

} // namespace

std::vector<models::PipelineStage> stage_fits(std::span<const MeasuredStage> stages) {
  std::vector<models::PipelineStage> out;
  for (const MeasuredStage& s : stages)
    out.push_back(s.fit);
  return out;
}

std::string stage_json(const MeasuredStage& s) {
  return fmt::format("{{\"name\":{},\"per\":\"{}\",\"g_us\":{:.4f},\"G_us_per_kb\":{:.4f},"
                     "\"max_residual_us\":{:.4f}}}",
                     text::json_string(s.name), s.per_message ? "message" : "fragment", s.fit.g_us,
                     s.fit.G_us_per_kb, s.max_residual_us);
}

std::vector<models::PipelineStage> CardStages::pipeline() const { return stage_fits(stages); }

double CardStages::predict_us(std::span<const double> fragments) const {
  double bytes = 0;
  for (double x : fragments)
    bytes += x;
  const std::vector<models::PipelineStage> path = pipeline();
  return models::stage_time_us(post.fit, bytes) + models::stage_time_us(completion.fit, bytes) +
         models::pipeline_latency_us(path, fragments);
}

std::vector<MeasuredStage> CardStages::message_path() const {
  std::vector<MeasuredStage> out{post};
  out.insert(out.end(), stages.begin(), stages.end());
  out.push_back(completion);
  return out;
}

CardStages measure_card_stages(const ClusterSetup& setup, std::span<const std::uint32_t> sizes,
                               std::uint32_t iters) {
  const std::set<std::uint32_t> distinct(sizes.begin(), sizes.end());
  if (distinct.size() < 2)
    throw std::invalid_argument("the direct method needs at least two different message sizes");
  std::vector<double> post, hdma_s, network, hdma_r, completion;
  for (const std::uint32_t size : sizes) {
    PingPongSpec spec;
    spec.setup = setup;
    spec.size = size;
    spec.iters = iters;
    spec.breakdown = true;
    // The stages of the loop the fragmented runs use: each receive reposted
    // as its message arrives, so "post" includes taking that doorbell.
    spec.receives = ReceivePosting::on_arrival;
    const PingPongResult r = run_pingpong(spec);
    if (!r.ok())
      throw std::runtime_error(
          fmt::format("timing the stages at {} bytes unfragmented: {}", size, r.failure));
    const Breakdown& b = *r.breakdown;
    const double in_sram = b.arrival + b.recv.nrdma_done;
    const double in_host = b.arrival + b.recv.data_up;
    // The firmware reads the descriptor and plans the message once; the
    // cut of each further fragment overlaps the reads of earlier ones.
    post.push_back(b.send.hdma_prog_data);
    hdma_s.push_back(b.send.data_down - b.send.hdma_prog_data);
    network.push_back(in_sram - b.send.data_down);
    hdma_r.push_back(in_host - in_sram);
    completion.push_back(summarize(r.one_way_us).median - in_host);
  }
  CardStages out;
  out.sizes.assign(sizes.begin(), sizes.end());
  out.post = fitted("post", sizes, std::move(post));
  out.post.per_message = true;
  out.stages.push_back(fitted("send HDMA", sizes, std::move(hdma_s)));
  out.stages.push_back(fitted("network", sizes, std::move(network)));
  out.stages.push_back(fitted("receive HDMA", sizes, std::move(hdma_r)));
  out.completion = fitted("completion", sizes, std::move(completion));
  out.completion.per_message = true;
  return out;
}

std::vector<std::uint32_t> default_fit_sizes(std::uint32_t largest) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t s = 256; s < largest; s *= 4)
    out.push_back(s);
  out.push_back(std::max<std::uint32_t>(largest, 1024));
  return out;
}

std::vector<double> static_fragments(std::uint32_t bytes, std::uint32_t fragment) {
  if (fragment == 0)
    throw std::invalid_argument("a fragment size of 0 bytes");
  std::vector<double> out(bytes / fragment, static_cast<double>(fragment));
  if (bytes % fragment != 0)
    out.push_back(static_cast<double>(bytes % fragment));
  return out;
}

} // namespace lanai::bench
