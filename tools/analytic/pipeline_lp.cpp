// The per-k linear program of the store-and-forward pipeline, built and
// solved with GLPK's simplex. Sizes are carried in KB so that the matrix's
// coefficients are the stage table's G values.
#include "tools/analytic/pipeline_lp.hpp"

#include <fmt/format.h>
#include <glpk.h>

#include <algorithm>
#include <climits>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace lanai::models {

namespace {

// GLPK prints to the terminal unless told not to; the setting is global, so
// it is put back as it was.
class QuietGlpk {
public:
  QuietGlpk() : previous_(glp_term_out(GLP_OFF)) {}
  ~QuietGlpk() { glp_term_out(previous_); }
  QuietGlpk(const QuietGlpk&) = delete;
  QuietGlpk& operator=(const QuietGlpk&) = delete;

private:
  int previous_;
};

struct ProblemDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

// The constraint matrix in GLPK's 1-based triplet form, one row at a time.
class Rows {
public:
  explicit Rows(glp_prob* lp) : lp_(lp), ia_(1), ja_(1), ar_(1) {}

  // A row sum_c coef_c v_c >= lower.
  void add(std::initializer_list<std::pair<int, double>> terms, double lower) {
    const int row = add_empty(lower, false);
    for (const auto& [col, coef] : terms)
      add_term(row, col, coef);
  }
  // A row without terms yet: >= lower, or == lower when `fixed`.
  int add_empty(double lower, bool fixed) {
    const int row = glp_add_rows(lp_, 1);
    glp_set_row_bnds(lp_, row, fixed ? GLP_FX : GLP_LO, lower, lower);
    return row;
  }
  void add_term(int row, int col, double coef) {
    if (coef == 0.0)
      return;
    ia_.push_back(row);
    ja_.push_back(col);
    ar_.push_back(coef);
  }
  void load() {
    glp_load_matrix(lp_, static_cast<int>(ia_.size()) - 1, ia_.data(), ja_.data(), ar_.data());
  }

private:
  glp_prob* lp_;
  std::vector<int> ia_, ja_;
  std::vector<double> ar_;
};

const char* simplex_failure(int code) {
  switch (code) {
  case GLP_EBADB:
    return "invalid initial basis";
  case GLP_ESING:
    return "singular basis matrix";
  case GLP_ECOND:
    return "ill-conditioned basis matrix";
  case GLP_EBOUND:
    return "inconsistent bounds";
  case GLP_EFAIL:
    return "solver failure";
  case GLP_EITLIM:
    return "iteration limit reached";
  case GLP_ETMLIM:
    return "time limit reached";
  default:
    return "unexpected return code";
  }
}

// The problem is highly degenerate (many paths through the stages are
// critical at once), and a floating-point simplex can stall or fail on it,
// depending on the method and the starting basis. So a few of those run in
// turn, each with an iteration budget, and the first optimum wins; the
// rational simplex, exact but slow on large packets (whose sizes make long
// fractions), is the last resort.
struct Attempt {
  int method;
  bool advanced_basis; // Bixby's crash basis rather than all slacks
};
constexpr Attempt kAttempts[] = {
    {GLP_DUALP, true}, {GLP_PRIMAL, false}, {GLP_DUALP, false}, {GLP_PRIMAL, true}};

void solve(glp_prob* lp, int k) {
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.it_lim = 10 * (glp_get_num_rows(lp) + glp_get_num_cols(lp));
  for (const Attempt& attempt : kAttempts) {
    if (attempt.advanced_basis)
      glp_adv_basis(lp, 0);
    else
      glp_std_basis(lp);
    parm.meth = attempt.method;
    if (glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT)
      return;
  }
  glp_std_basis(lp);
  parm.it_lim = INT_MAX;
  const int code = glp_exact(lp, &parm);
  if (code != 0)
    throw PipelineLpError(fmt::format("pipeline LP with {} fragments: simplex failed ({})", k,
                                      simplex_failure(code)));
  if (glp_get_status(lp) != GLP_OPT)
    throw PipelineLpError(
        fmt::format("pipeline LP with {} fragments: no optimal solution (GLPK status {})", k,
                    glp_get_status(lp)));
}

} // namespace

PipelineOptimum optimal_latency(std::span<const PipelineStage> stages, double bytes,
                                std::int64_t k_fragments) {
  check_pipeline(stages, bytes);
  if (k_fragments < 1 || k_fragments > 1'000'000)
    throw std::invalid_argument(
        fmt::format("fragment count must be in 1..1000000 (got {})", k_fragments));
  const QuietGlpk quiet;
  const int k = static_cast<int>(k_fragments);
  const int n = static_cast<int>(stages.size());
  std::unique_ptr<glp_prob, ProblemDeleter> owner(glp_create_prob());
  glp_prob* lp = owner.get();
  glp_set_obj_dir(lp, GLP_MIN);

  // Columns: x_i (KB), then s_ij, then T; all >= 0.
  const int columns = k + k * n + 1;
  glp_add_cols(lp, columns);
  for (int c = 1; c <= columns; ++c)
    glp_set_col_bnds(lp, c, GLP_LO, 0.0, 0.0);
  auto x = [](int i) { return 1 + i; };
  auto s = [k, n](int i, int j) { return 1 + k + i * n + j; };
  const int t = columns;
  glp_set_obj_coef(lp, t, 1.0);

  Rows rows(lp);
  const int total = rows.add_empty(bytes / kPipelineBytesPerKb, true);
  for (int i = 0; i < k; ++i)
    rows.add_term(total, x(i), 1.0);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < n; ++j) {
      if (j > 0) {
        const PipelineStage& before = stages[static_cast<std::size_t>(j - 1)];
        rows.add({{s(i, j), 1.0}, {s(i, j - 1), -1.0}, {x(i), -before.G_us_per_kb}}, before.g_us);
      }
      if (i > 0) {
        const PipelineStage& here = stages[static_cast<std::size_t>(j)];
        rows.add({{s(i, j), 1.0}, {s(i - 1, j), -1.0}, {x(i - 1), -here.G_us_per_kb}}, here.g_us);
      }
    }
  const PipelineStage& last = stages.back();
  rows.add({{t, 1.0}, {s(k - 1, n - 1), -1.0}, {x(k - 1), -last.G_us_per_kb}}, last.g_us);
  rows.load();

  solve(lp, k);
  PipelineOptimum out;
  out.us = glp_get_obj_val(lp);
  out.fragments.reserve(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i)
    out.fragments.push_back(std::max(0.0, glp_get_col_prim(lp, x(i))) * kPipelineBytesPerKb);
  return out;
}

} // namespace lanai::models
