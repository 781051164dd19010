#include "models/model_commands.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <optional>

#include "models/qna_model_file.hpp"
#include "models/qna_report.hpp"

namespace lanai::models {

namespace {

struct QnaOptions {
  std::string model;
  std::optional<double> rate;
  bool json = false;
};

void add_qna(CLI::App& model, int& exit_status) {
  auto opts = std::make_shared<QnaOptions>();
  CLI::App* qna = model.add_subcommand(
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

} // namespace

void add_model_commands(CLI::App& app, int& exit_status) {
  CLI::App* model = app.add_subcommand("model", "analytic models to check the emulator against");
  model->require_subcommand(1);
  add_qna(*model, exit_status);
}

} // namespace lanai::models
