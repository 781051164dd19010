/* What a launched program's process looks like from inside: private
 * globals, its host name, clocks and sleeps on virtual time, and exit().
 * Every node prints one line of facts; a node that finds one wrong prints
 * "WRONG: ..." and returns 1. With -x CODE the last node calls exit(CODE)
 * from a nested call instead of returning. */
#define _DEFAULT_SOURCE /* gethostname, getopt, usleep under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static int runs;           /* each copy's own: 1 */
static char seen[64] = ""; /* initialised data, also each copy's own */

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int wrong(const char* what) {
  printf("WRONG: %s\n", what);
  return 1;
}

static void leave(int code) {
  printf("leaving with %d\n", code);
  exit(code);
}

int main(int argc, char** argv) {
  int exit_code = -1, opt;
  while ((opt = getopt(argc, argv, "x:")) != -1)
    if (opt == 'x')
      exit_code = atoi(optarg);
  char host[64];
  struct utsname about;
  if (gethostname(host, sizeof host) != 0 || uname(&about) != 0)
    return wrong("no host name");
  if (strncmp(host, "node", 4) != 0 || strcmp(host, about.nodename) != 0)
    return wrong("host name is not node<i>");
  if (++runs != 1 || seen[0] != '\0')
    return wrong("globals shared between nodes");
  strcpy(seen, host);

  /* Sleeps take exactly their virtual time; a clock read costs a little. */
  const long long before = now_ns();
  usleep(1000);
  const long long after_usleep = now_ns();
  struct timespec pause = {0, 2000000};
  nanosleep(&pause, NULL);
  const long long after_nanosleep = now_ns();
  const long long slept = after_usleep - before, napped = after_nanosleep - after_usleep;
  if (slept < 1000000 || slept > 1001000 || napped < 2000000 || napped > 2001000)
    return wrong("sleeps do not take their virtual time");
  /* A loop waiting for the clock to move sees it move. */
  const long long until = now_ns() + 10000;
  long long reads = 0;
  while (now_ns() < until)
    ++reads;
  struct timeval wall;
  gettimeofday(&wall, NULL);
  if (wall.tv_sec < 946684800 || wall.tv_sec > 946684800 + 60 || time(NULL) != wall.tv_sec)
    return wrong("wall clock is not virtual time from 2000-01-01");

  printf("%s: private globals, usleep(1000) took %lld ns, 10 us of clock reads took %lld reads\n",
         host, slept, reads);
  fprintf(stderr, "%s: stderr too\n", host);
  if (exit_code >= 0 && strcmp(argv[argc - 1], host) == 0)
    leave(exit_code);
  return 0;
}
