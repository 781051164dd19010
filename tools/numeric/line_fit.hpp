// Ordinary least-squares fit of a straight line y = intercept + slope x,
// as the direct method fits a pipeline stage's overhead and per-byte time
// to its times for several message sizes.
#pragma once

#include <span>

namespace lanai::numeric {

struct LineFit {
  double intercept = 0.0;
  double slope = 0.0;
  double max_residual = 0.0; // largest |y - fit| over the points
};

// Throws std::invalid_argument unless x and y have the same length, there
// are at least two points and the x are not all equal.
LineFit fit_line(std::span<const double> x, std::span<const double> y);

} // namespace lanai::numeric
