#include "tools/analytic/model_commands.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/analytic/pipeline_analysis.hpp"
#include "tools/analytic/pipeline_report.hpp"
#include "tools/analytic/qna_model_file.hpp"
#include "tools/analytic/qna_report.hpp"

namespace lanai::models {

namespace {

struct QnaOptions {
  std::string model;
  std::optional<double> rate;
  bool json = false;
};

void add_qna(cli::Command& model, int& exit_status) {
  auto opts = std::make_shared<QnaOptions>();
  cli::Command* qna = model.add_subcommand(
      "qna", "Whitt's QNA for an open multi-class queueing network: per station, visit and "
             "class utilisation, mean queue (Lq), mean number present (L) and mean time (W)");
  qna->add_option("model", opts->model, "model file (TOML), e.g. bench/models/nic-send.toml")
      ->required();
  qna->add_option("--rate", opts->rate, "external arrival rate per us (overrides the file's)");
  qna->add_flag("--json", opts->json, "print JSON instead of tables");
  qna->callback([opts, &exit_status] {
    QnaNetwork net = load_qna_model(opts->model);
    if (opts->rate) {
      if (!std::isfinite(*opts->rate) || *opts->rate <= 0.0)
        throw std::invalid_argument(fmt::format("--rate must be > 0 (got {})", *opts->rate));
      net.rate_per_us = *opts->rate;
    }
    const QnaResult result = solve_qna(net);
    fmt::print("{}", opts->json ? qna_json(result) : qna_table(result));
    exit_status = 0;
  });
}

struct PipelineOptions {
  std::vector<std::string> stages;
  std::string bytes;
  std::int64_t max_k = PipelineParams{}.max_k;
  std::optional<unsigned long> ramp_split;
  bool json = false;
};

// Packets up to 1 GiB: beyond that the fragment counts the theorem may pick
// stop being cheap to time.
constexpr std::int64_t kMaxPipelineBytes = std::int64_t{1} << 30;

bool parse_real(std::string_view text, double& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

PipelineStage parse_stage(const std::string& text) {
  const std::size_t comma = text.find(',');
  PipelineStage stage;
  if (comma == std::string::npos ||
      !parse_real(std::string_view(text).substr(0, comma), stage.g_us) ||
      !parse_real(std::string_view(text).substr(comma + 1), stage.G_us_per_kb) ||
      !std::isfinite(stage.g_us) || !std::isfinite(stage.G_us_per_kb))
    throw std::invalid_argument(fmt::format(
        "--stage '{}' is not G,GPERKB (two numbers: us per fragment, us per KB)", text));
  if (stage.g_us < 0.0 || stage.G_us_per_kb < 0.0)
    throw std::invalid_argument(fmt::format("--stage '{}': both numbers must be >= 0", text));
  return stage;
}

double parse_bytes(const std::string& text) {
  std::int64_t bytes = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, bytes);
  if (ec != std::errc() || ptr != end || bytes < 1 || bytes > kMaxPipelineBytes)
    throw std::invalid_argument(fmt::format(
        "--bytes must be a whole number of bytes in 1..{} (got '{}')", kMaxPipelineBytes, text));
  return static_cast<double>(bytes);
}

void add_pipeline(cli::Command& model, int& exit_status) {
  auto opts = std::make_shared<PipelineOptions>();
  cli::Command* pipeline = model.add_subcommand(
      "pipeline", "a packet fragmented through store-and-forward stages: latency by fragment "
                  "count for equal and optimal (LP) fragments, the bottleneck, the fixed-size "
                  "theorem's choice, the ramp-up and hierarchical plans");
  pipeline
      ->add_option("--stage", opts->stages,
                   "one stage, in path order (repeat): overhead g in us per fragment and time G "
                   "in us per KB (1024 bytes), e.g. --stage 7.5,24.9")
      ->type_name("G,GPERKB")
      ->repeatable()
      ->required();
  pipeline->add_option("--bytes", opts->bytes, "packet size B in bytes")
      ->type_name("B")
      ->required();
  pipeline->add_option("--max-k", opts->max_k, "largest fragment count searched (at most B)")
      ->capture_default_str();
  pipeline
      ->add_option("--ramp-split", opts->ramp_split,
                   "where the ramp-up plan cuts the path in two: stages before S make its "
                   "first compound stage (1..stages-1; default: at the bottleneck)")
      ->type_name("S");
  pipeline->add_flag("--json", opts->json, "print JSON instead of tables");
  pipeline->callback([opts, &exit_status] {
    PipelineParams params;
    for (const std::string& text : opts->stages)
      params.stages.push_back(parse_stage(text));
    params.bytes = parse_bytes(opts->bytes);
    if (opts->max_k < 1)
      throw std::invalid_argument(fmt::format("--max-k must be >= 1 (got {})", opts->max_k));
    params.max_k = opts->max_k;
    if (opts->ramp_split) {
      if (*opts->ramp_split == 0)
        throw std::invalid_argument("--ramp-split must be >= 1 (got 0)");
      params.ramp_split = *opts->ramp_split;
    }
    const PipelineAnalysis analysis = analyse_pipeline(params);
    fmt::print("{}", opts->json ? pipeline_json(analysis) : pipeline_table(analysis));
    exit_status = 0;
  });
}

} // namespace

void add_model_commands(cli::Command& app, int& exit_status) {
  cli::Command* model =
      app.add_subcommand("model", "analytic models to check the emulator against");
  model->require_subcommand();
  add_qna(*model, exit_status);
  add_pipeline(*model, exit_status);
}

} // namespace lanai::models
