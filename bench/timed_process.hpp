// Another program run to its end and timed, for a benchmark that measures
// itself against it in the same run: the processor time each took, so
// that a busy host slows both alike.
#pragma once

#include <string>
#include <vector>

namespace lanai::bench {

struct TimedProcess {
  double cpu_s = 0;   // user and system time of the program
  std::string output; // what it wrote to its standard output
};

// Runs `command` (a program found as the shell would, then its arguments)
// with this process's standard error, and waits for it. Throws
// std::runtime_error naming the program if it cannot be started, is killed
// by a signal or exits with a status other than 0.
TimedProcess run_timed_process(const std::vector<std::string>& command);

// Processor time this process has used so far, in seconds (its own threads;
// not the programs it ran).
double own_cpu_seconds();

} // namespace lanai::bench
