// Small dense linear systems, for the analytic models and the calibration
// fitter: a handful of unknowns, solved directly.
#pragma once

#include <vector>

namespace lanai::numeric {

// Solves a x = b by Gaussian elimination with partial pivoting. Returns
// false if a pivot's magnitude is at most `tolerance` (a singular system).
bool solve_dense(std::vector<std::vector<double>> a, std::vector<double> b, std::vector<double>& x,
                 double tolerance = 0.0);

} // namespace lanai::numeric
