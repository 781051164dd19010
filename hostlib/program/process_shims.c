/* What a launched VIA program asks of its process, answered by its
 * emulated node: the clocks, sleeping, its host name and exit. These
 * definitions are linked into the program itself (a static library ahead
 * of the C library on its link line), so the program's own calls reach
 * them in whatever process loads it; outside an emulated node each one
 * forwards to the C library.
 *
 * Virtual time: CLOCK_MONOTONIC (and its raw, coarse and boot-time
 * variants) reads the node's virtual time; CLOCK_REALTIME, gettimeofday and
 * time read it from LANAI_EMU_EPOCH_S. Each read costs the profile's
 * host.clock_read_ns of host CPU time, so a loop waiting for the clock to
 * move sees it move. The CPU-time clocks stay the real process's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "vipl_emu.h"

/* The C library's definition of `name`, the next one after the program. */
static void* libc_function(const char* name) {
  void* function = dlsym(RTLD_NEXT, name);
  if (!function) {
    fprintf(stderr, "lanai-emu: %s is missing from the C library\n", name);
    abort();
  }
  return function;
}

static int on_node(void) { return lanai_emu_node() >= 0; }

static int virtual_clock(clockid_t clock) {
  switch (clock) {
  case CLOCK_REALTIME:
  case CLOCK_REALTIME_COARSE:
  case CLOCK_MONOTONIC:
  case CLOCK_MONOTONIC_RAW:
  case CLOCK_MONOTONIC_COARSE:
  case CLOCK_BOOTTIME:
    return 1;
  default:
    return 0;
  }
}

static int realtime(clockid_t clock) {
  return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE;
}

/* Virtual nanoseconds on `clock` now, charging one clock read. */
static uint64_t read_clock(clockid_t clock) {
  const uint64_t now = lanai_emu_clock_read_ns();
  return realtime(clock) ? now + (uint64_t)LANAI_EMU_EPOCH_S * 1000000000u : now;
}

int clock_gettime(clockid_t clock, struct timespec* time) {
  if (!on_node() || !virtual_clock(clock)) {
    int (*real)(clockid_t, struct timespec*) = libc_function("clock_gettime");
    return real(clock, time);
  }
  const uint64_t ns = read_clock(clock);
  time->tv_sec = (time_t)(ns / 1000000000u);
  time->tv_nsec = (long)(ns % 1000000000u);
  return 0;
}

int gettimeofday(struct timeval* restrict time, void* restrict zone) {
  if (!on_node()) {
    int (*real)(struct timeval*, void*) = libc_function("gettimeofday");
    return real(time, zone);
  }
  if (zone)
    memset(zone, 0, sizeof(struct timezone));
  /* The C library declares `time` never null. */
  const uint64_t ns = read_clock(CLOCK_REALTIME);
  time->tv_sec = (time_t)(ns / 1000000000u);
  time->tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
  return 0;
}

time_t time(time_t* out) {
  if (!on_node()) {
    time_t (*real)(time_t*) = libc_function("time");
    return real(out);
  }
  const time_t now = (time_t)(read_clock(CLOCK_REALTIME) / 1000000000u);
  if (out)
    *out = now;
  return now;
}

static uint64_t timespec_ns(const struct timespec* time) {
  return (uint64_t)time->tv_sec * 1000000000u + (uint64_t)time->tv_nsec;
}

static int valid_timespec(const struct timespec* time) {
  return time && time->tv_sec >= 0 && time->tv_nsec >= 0 && time->tv_nsec < 1000000000;
}

int nanosleep(const struct timespec* request, struct timespec* remaining) {
  if (!on_node()) {
    int (*real)(const struct timespec*, struct timespec*) = libc_function("nanosleep");
    return real(request, remaining);
  }
  if (!valid_timespec(request)) {
    errno = EINVAL;
    return -1;
  }
  lanai_emu_sleep_ns(timespec_ns(request));
  if (remaining)
    remaining->tv_sec = 0, remaining->tv_nsec = 0;
  return 0;
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec* request,
                    struct timespec* remaining) {
  if (!on_node() || !virtual_clock(clock)) {
    int (*real)(clockid_t, int, const struct timespec*, struct timespec*) =
        libc_function("clock_nanosleep");
    return real(clock, flags, request, remaining);
  }
  if (!valid_timespec(request))
    return EINVAL;
  uint64_t ns = timespec_ns(request);
  if (flags & TIMER_ABSTIME) {
    const uint64_t now = read_clock(clock);
    ns = ns > now ? ns - now : 0;
  }
  lanai_emu_sleep_ns(ns);
  if (remaining && !(flags & TIMER_ABSTIME))
    remaining->tv_sec = 0, remaining->tv_nsec = 0;
  return 0;
}

int usleep(useconds_t microseconds) {
  if (!on_node()) {
    int (*real)(useconds_t) = libc_function("usleep");
    return real(microseconds);
  }
  lanai_emu_sleep_ns((uint64_t)microseconds * 1000u);
  return 0;
}

unsigned int sleep(unsigned int seconds) {
  if (!on_node()) {
    unsigned int (*real)(unsigned int) = libc_function("sleep");
    return real(seconds);
  }
  lanai_emu_sleep_ns((uint64_t)seconds * 1000000000u);
  return 0;
}

/* "node<i>", the name the launcher gives node i. */
static int node_name(char* name, size_t length) {
  char own[32];
  const int written = snprintf(own, sizeof own, "node%d", lanai_emu_node());
  if (!name || (size_t)written >= length) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(name, own, (size_t)written + 1);
  return 0;
}

int gethostname(char* name, size_t length) {
  if (!on_node()) {
    int (*real)(char*, size_t) = libc_function("gethostname");
    return real(name, length);
  }
  return node_name(name, length);
}

int uname(struct utsname* about) {
  int (*real)(struct utsname*) = libc_function("uname");
  const int status = real(about);
  if (status == 0 && on_node())
    node_name(about->nodename, sizeof about->nodename);
  return status;
}

void exit(int status) {
  lanai_emu_exit(status); /* returns only outside an emulated node */
  void (*real)(int) = libc_function("exit");
  real(status);
  __builtin_unreachable();
}
