/* clock.c -- time measured on the monotonic clock, which no change of the
 * wall clock moves: what progress reports and engine timings count. */
#include "config.h"

#include "base_private.h"

double xmt_seconds_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) +
         (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}
