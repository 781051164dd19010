#include "tools/numeric/line_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lanai::numeric {

LineFit fit_line(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size())
    throw std::invalid_argument("fit_line: x and y differ in length");
  if (x.size() < 2)
    throw std::invalid_argument("fit_line: a line needs at least two points");
  const double n = static_cast<double>(x.size());
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    mean_x += x[i] / n, mean_y += y[i] / n;
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mean_x) * (x[i] - mean_x);
    sxy += (x[i] - mean_x) * (y[i] - mean_y);
  }
  if (sxx == 0)
    throw std::invalid_argument("fit_line: every x is the same");
  LineFit fit;
  fit.slope = sxy / sxx;
  fit.intercept = mean_y - fit.slope * mean_x;
  for (std::size_t i = 0; i < x.size(); ++i)
    fit.max_residual =
        std::max(fit.max_residual, std::abs(y[i] - fit.intercept - fit.slope * x[i]));
  return fit;
}

} // namespace lanai::numeric
