// The sweep's progress line on a terminal:
//   [#######-------]  7/36 points  0:42 elapsed
// redrawn in place; silent when the stream is not a terminal, so logs and
// pipes get no control characters. Wall time appears here and nowhere else.
// Under MPI, rank 0 draws it for every rank's points:
//   [#######-------]  7/36 points  0:42 elapsed  3 ranks
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

namespace lanai::bench {

class ProgressBar {
public:
  // Enabled only if `stream` is a terminal.
  explicit ProgressBar(std::FILE* stream);
  // Enabled as told (an MPI rank's stderr is a pipe even when mpirun's is a
  // terminal).
  ProgressBar(std::FILE* stream, bool enabled);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();

  void update(std::size_t done, std::size_t total);
  // Ends the line (once), so later messages start on a fresh one.
  void finish();
  bool enabled() const { return enabled_; }
  // Text after the elapsed time, e.g. "3 ranks".
  void set_note(std::string note) { note_ = std::move(note); }

private:
  std::FILE* stream_;
  bool enabled_;
  bool drawn_ = false;
  std::string note_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace lanai::bench
