// Bounded nonlinear least squares for calibration: Levenberg-Marquardt on a
// finite-difference Jacobian, for models that are only available as
// "evaluate these parameters" (here: run the emulator). Integer-valued
// parameters are treated as continuous and rounded when evaluated, then
// settled by a coordinate search on integers around the continuous optimum.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace lanai::bench {

struct FitParameter {
  std::string name;
  double initial = 0;
  double lower = 0; // inclusive bounds
  double upper = 0;
  bool integer = false;
};

// Residuals of the model at the given parameter values (integer parameters
// already rounded). The cost minimised is the sum of their squares.
using ResidualFunction = std::function<std::vector<double>(const std::vector<double>&)>;

struct FitRound {
  std::string phase; // "start", "lm" or "integer"
  int round = 0;
  std::vector<double> values; // as evaluated
  double cost = 0;
  double damping = 0; // Levenberg-Marquardt lambda ("lm" rounds)
};

struct FitOptions {
  int max_rounds = 20;         // Levenberg-Marquardt iterations
  int max_integer_passes = 8;  // sweeps of the final integer search
  double relative_step = 0.05; // finite-difference step, relative to |value|
  double tolerance = 1e-4;     // stop when a round improves the cost by less (relative)
  std::function<void(const FitRound&)> on_round; // progress
};

struct FitResult {
  std::vector<double> values; // integers rounded, within bounds
  double cost = 0;
  std::vector<double> residuals;
  int evaluations = 0;
};

// Starts from the initial values (clamped into their bounds). Throws
// std::invalid_argument for no parameters, inverted bounds or residual
// vectors that change length.
FitResult fit_least_squares(const std::vector<FitParameter>& parameters,
                            const ResidualFunction& residuals, const FitOptions& options = {});

} // namespace lanai::bench
