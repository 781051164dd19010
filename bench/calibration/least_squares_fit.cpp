// Levenberg-Marquardt with Marquardt's diagonal scaling (so parameters in
// MHz, cycles and nanoseconds need no common unit), forward differences
// with a relative step (the emulator's latencies move in steps of a cycle,
// so tiny steps only see noise), projection onto the bounds, and a final
// integer coordinate search.
#include "bench/calibration/least_squares_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "tools/numeric/dense_linear.hpp"

namespace lanai::bench {

namespace {

double sum_of_squares(const std::vector<double>& r) {
  double s = 0;
  for (const double v : r)
    s += v * v;
  return s;
}

class Problem {
public:
  Problem(const std::vector<FitParameter>& p, const ResidualFunction& f) : params_(p), f_(f) {}

  std::vector<double> clamp(std::vector<double> x) const {
    for (std::size_t j = 0; j < x.size(); ++j)
      x[j] = std::clamp(x[j], params_[j].lower, params_[j].upper);
    return x;
  }
  // The point the model is run at: within bounds, integers rounded.
  std::vector<double> evaluated_point(const std::vector<double>& x) const {
    std::vector<double> e = clamp(x);
    for (std::size_t j = 0; j < e.size(); ++j)
      if (params_[j].integer)
        e[j] =
            std::clamp(std::round(e[j]), std::ceil(params_[j].lower), std::floor(params_[j].upper));
    return e;
  }
  const std::vector<double>& residuals(const std::vector<double>& x) {
    const std::vector<double> e = evaluated_point(x);
    auto it = cache_.find(e);
    if (it != cache_.end())
      return it->second;
    std::vector<double> r = f_(e);
    ++evaluations_;
    if (size_ == 0)
      size_ = r.size();
    if (r.size() != size_ || r.empty())
      throw std::invalid_argument(
          "least-squares fit: the model returned a different number of residuals");
    return cache_.emplace(e, std::move(r)).first->second;
  }
  int evaluations() const { return evaluations_; }

private:
  const std::vector<FitParameter>& params_;
  const ResidualFunction& f_;
  std::map<std::vector<double>, std::vector<double>> cache_;
  std::size_t size_ = 0;
  int evaluations_ = 0;
};

// Hands each round's outcome to the caller's observer, if any.
class Reporter {
public:
  Reporter(const FitOptions& options, const Problem& problem)
      : options_(options), problem_(problem) {}
  void operator()(const char* phase, int round, const std::vector<double>& x, double cost,
                  double damping) const {
    if (options_.on_round)
      options_.on_round({phase, round, problem_.evaluated_point(x), cost, damping});
  }

private:
  const FitOptions& options_;
  const Problem& problem_;
};

void check_ranges(const std::vector<FitParameter>& parameters) {
  if (parameters.empty())
    throw std::invalid_argument("least-squares fit: no parameters to fit");
  for (const FitParameter& p : parameters)
    if (!(p.lower <= p.upper) || (p.integer && std::ceil(p.lower) > std::floor(p.upper)))
      throw std::invalid_argument(fmt::format("least-squares fit: {} has an empty range [{}, {}]",
                                              p.name, p.lower, p.upper));
}

// Forward-difference Jacobian, one row per parameter; backwards at an upper
// bound, and a zero row for a parameter pinned between its bounds.
std::vector<std::vector<double>> jacobian(Problem& problem,
                                          const std::vector<FitParameter>& parameters,
                                          const std::vector<double>& x,
                                          const std::vector<double>& r, const FitOptions& options) {
  const std::size_t n = parameters.size();
  std::vector<std::vector<double>> jac(n);
  for (std::size_t j = 0; j < n; ++j) {
    const FitParameter& p = parameters[j];
    double h = options.relative_step * std::max(std::abs(x[j]), 1e-3 * (p.upper - p.lower));
    if (p.integer)
      h = std::max(1.0, std::round(h));
    if (x[j] + h > p.upper)
      h = -h;
    std::vector<double> xh = x;
    xh[j] += h;
    const double actual = problem.evaluated_point(xh)[j] - problem.evaluated_point(x)[j];
    jac[j].assign(r.size(), 0.0);
    if (actual == 0)
      continue; // pinned between bounds
    const std::vector<double>& rh = problem.residuals(xh);
    for (std::size_t i = 0; i < r.size(); ++i)
      jac[j][i] = (rh[i] - r[i]) / actual;
  }
  return jac;
}

// The normal equations J J^T d = -J r of one round.
struct NormalEquations {
  std::vector<std::vector<double>> a;
  std::vector<double> g;
};

NormalEquations normal_equations(const std::vector<std::vector<double>>& jac,
                                 const std::vector<double>& r) {
  const std::size_t n = jac.size();
  NormalEquations eq{std::vector<std::vector<double>>(n, std::vector<double>(n, 0.0)),
                     std::vector<double>(n, 0.0)};
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t i = 0; i < r.size(); ++i)
        eq.a[j][k] += jac[j][i] * jac[k][i];
    for (std::size_t i = 0; i < r.size(); ++i)
      eq.g[j] -= jac[j][i] * r[i];
  }
  return eq;
}

// Where the fit stands: the point, its residuals and cost, and the damping.
struct FitState {
  std::vector<double> x;
  std::vector<double> r;
  double cost = 0;
  double lambda = 1e-2;
};

enum class Step { accepted, converged, rejected };

// Up to ten damped steps from the state, the damping raised after each
// that fails to lower the cost and lowered after one that does.
Step damped_step(Problem& problem, const NormalEquations& eq, double max_diag,
                 const FitOptions& options, FitState& s) {
  const std::size_t n = eq.g.size();
  for (int attempt = 0; attempt < 10; ++attempt) {
    std::vector<std::vector<double>> damped = eq.a;
    for (std::size_t j = 0; j < n; ++j)
      damped[j][j] += s.lambda * std::max(eq.a[j][j], 1e-9 * max_diag);
    std::vector<double> step;
    if (!numeric::solve_dense(damped, eq.g, step)) {
      s.lambda *= 4;
      continue;
    }
    std::vector<double> trial = s.x;
    for (std::size_t j = 0; j < n; ++j)
      trial[j] += step[j];
    trial = problem.clamp(trial);
    const std::vector<double>& rt = problem.residuals(trial);
    const double trial_cost = sum_of_squares(rt);
    if (trial_cost < s.cost) {
      const double gain = (s.cost - trial_cost) / std::max(s.cost, 1e-300);
      s.x = trial;
      s.r = rt;
      s.cost = trial_cost;
      s.lambda = std::max(s.lambda / 3, 1e-7);
      return gain < options.tolerance ? Step::converged : Step::accepted;
    }
    s.lambda *= 4;
  }
  return Step::rejected;
}

// Levenberg-Marquardt rounds until converged, stuck or out of rounds.
void levenberg_marquardt(Problem& problem, const std::vector<FitParameter>& parameters,
                         const FitOptions& options, const Reporter& report, FitState& s) {
  for (int round = 1; round <= options.max_rounds; ++round) {
    const NormalEquations eq =
        normal_equations(jacobian(problem, parameters, s.x, s.r, options), s.r);
    double max_diag = 0;
    for (std::size_t j = 0; j < eq.g.size(); ++j)
      max_diag = std::max(max_diag, eq.a[j][j]);
    if (max_diag == 0)
      return; // no parameter moves the model
    const Step step = damped_step(problem, eq, max_diag, options, s);
    if (step == Step::rejected)
      return;
    report("lm", round, s.x, s.cost, s.lambda);
    if (step == Step::converged)
      return;
  }
}

// Settles the integer parameters: coordinate search, steps shrinking from a
// few percent of the value down to one unit.
void settle_integers(Problem& problem, const std::vector<FitParameter>& parameters,
                     const FitOptions& options, const Reporter& report, FitState& s) {
  const std::size_t n = parameters.size();
  s.x = problem.evaluated_point(s.x);
  std::vector<double> step(n, 0.0);
  bool any_integer = false;
  for (std::size_t j = 0; j < n; ++j)
    if (parameters[j].integer) {
      step[j] = std::max(1.0, std::round(0.04 * std::abs(s.x[j])));
      any_integer = true;
    }
  for (int pass = 1; any_integer && pass <= options.max_integer_passes; ++pass) {
    bool improved = false;
    for (std::size_t j = 0; j < n; ++j) {
      if (!parameters[j].integer)
        continue;
      for (const double dir : {1.0, -1.0}) {
        for (;;) {
          std::vector<double> trial = s.x;
          trial[j] += dir * step[j];
          trial = problem.evaluated_point(trial);
          if (trial == s.x)
            break;
          const double trial_cost = sum_of_squares(problem.residuals(trial));
          if (!(trial_cost < s.cost))
            break;
          s.x = trial;
          s.cost = trial_cost;
          improved = true;
        }
      }
    }
    report("integer", pass, s.x, s.cost, 0);
    if (!improved) {
      bool all_unit = true;
      for (std::size_t j = 0; j < n; ++j)
        if (parameters[j].integer && step[j] > 1) {
          step[j] = std::max(1.0, std::round(step[j] / 2));
          all_unit = false;
        }
      if (all_unit)
        break;
    }
  }
}

} // namespace

FitResult fit_least_squares(const std::vector<FitParameter>& parameters,
                            const ResidualFunction& model, const FitOptions& options) {
  check_ranges(parameters);
  Problem problem(parameters, model);
  const Reporter report(options, problem);

  FitState s;
  for (const FitParameter& p : parameters)
    s.x.push_back(p.initial);
  s.x = problem.clamp(s.x);
  s.r = problem.residuals(s.x);
  s.cost = sum_of_squares(s.r);
  report("start", 0, s.x, s.cost, 0);

  levenberg_marquardt(problem, parameters, options, report, s);
  settle_integers(problem, parameters, options, report, s);

  FitResult result;
  result.values = problem.evaluated_point(s.x);
  result.residuals = problem.residuals(result.values);
  result.cost = sum_of_squares(result.residuals);
  result.evaluations = problem.evaluations();
  return result;
}

} // namespace lanai::bench
