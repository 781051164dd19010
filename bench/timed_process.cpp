#include "bench/timed_process.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lanai::bench {

namespace {

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; }

// Closes a descriptor when it goes out of scope.
class Descriptor {
public:
  explicit Descriptor(int fd = -1) : fd_(fd) {}
  ~Descriptor() { close_now(); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  void close_now() {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = -1;
  }

private:
  int fd_;
};

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0)
      text.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      return text;
  }
}

} // namespace

TimedProcess run_timed_process(const std::vector<std::string>& command) {
  if (command.empty())
    throw std::runtime_error("no program to run");
  const std::string& name = command.front();
  std::vector<char*> args;
  for (const std::string& word : command)
    args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);

  // The child's output comes back on one pipe; on the other, which closes
  // at a successful exec, the error that kept it from starting.
  int out_pipe[2], error_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(error_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error(fmt::format("{}: cannot make a pipe: {}", name, std::strerror(errno)));
  Descriptor out_read(out_pipe[0]), out_write(out_pipe[1]);
  Descriptor error_read(error_pipe[0]), error_write(error_pipe[1]);

  const pid_t child = ::fork();
  if (child < 0)
    throw std::runtime_error(fmt::format("{}: cannot fork: {}", name, std::strerror(errno)));
  if (child == 0) {
    if (::dup2(out_write.get(), STDOUT_FILENO) >= 0)
      ::execvp(args[0], args.data());
    const int error = errno;
    (void)!::write(error_write.get(), &error, sizeof error);
    ::_exit(127);
  }
  out_write.close_now();
  error_write.close_now();
  int exec_error = 0;
  const bool not_started =
      ::read(error_read.get(), &exec_error, sizeof exec_error) == sizeof exec_error;
  TimedProcess run;
  run.output = read_all(out_read.get());
  int status = 0;
  rusage usage{};
  while (::wait4(child, &status, 0, &usage) < 0) {
    if (errno != EINTR)
      throw std::runtime_error(fmt::format("{}: cannot wait: {}", name, std::strerror(errno)));
  }
  if (not_started)
    throw std::runtime_error(fmt::format("{}: cannot run: {}", name, std::strerror(exec_error)));
  if (WIFSIGNALED(status))
    throw std::runtime_error(fmt::format("{}: killed by signal {}", name, WTERMSIG(status)));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(fmt::format("{}: exited with status {}", name, WEXITSTATUS(status)));
  run.cpu_s = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  return run;
}

double own_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + t.tv_nsec / 1e9;
}

} // namespace lanai::bench
