#include "tools/numeric/dense_linear.hpp"

#include <cmath>
#include <utility>

namespace lanai::numeric {

bool solve_dense(std::vector<std::vector<double>> a, std::vector<double> b, std::vector<double>& x,
                 double tolerance) {
  const std::size_t n = b.size();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col]))
        pivot = r;
    if (!(std::fabs(a[pivot][col]) > tolerance))
      return false;
    std::swap(a[pivot], a[col]);
    std::swap(b[pivot], b[col]);
    for (std::size_t r = col + 1; r < n; ++r) {
      const double f = a[r][col] / a[col][col];
      for (std::size_t c = col; c < n; ++c)
        a[r][c] -= f * a[col][c];
      b[r] -= f * b[col];
    }
  }
  x.assign(n, 0.0);
  for (std::size_t r = n; r-- > 0;) {
    double s = b[r];
    for (std::size_t c = r + 1; c < n; ++c)
      s -= a[r][c] * x[c];
    x[r] = s / a[r][r];
  }
  return true;
}

} // namespace lanai::numeric
