/*
 * A device clock the test moves (LD_PRELOAD): gettimeofday and clock_gettime(CLOCK_REALTIME), which mono's and
 * IL2CPP's DateTime.UtcNow read (mono/utils/mono-time.c mono_100ns_datetime), run CLOCKSHIFT_SECONDS ahead (or
 * behind) of the real clock; the monotonic clocks are left alone, as a player or NTP moving the clock leaves them.
 * The probe sets the variable with Environment.SetEnvironmentVariable (mono: g_setenv), read at every call.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long shift(void)
{
  const char *text = getenv("CLOCKSHIFT_SECONDS");
  return text ? strtol(text, NULL, 10) : 0;
}

int gettimeofday(struct timeval *tv, void *tz)
{
  static int (*real)(struct timeval *, void *);
  if (!real) real = (int (*)(struct timeval *, void *))dlsym(RTLD_NEXT, "gettimeofday");
  int result = real(tv, tz);
  if (result == 0 && tv) tv->tv_sec += shift();
  return result;
}

int clock_gettime(clockid_t clock, struct timespec *ts)
{
  static int (*real)(clockid_t, struct timespec *);
  if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  int result = real(clock, ts);
  if (result == 0 && ts && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) ts->tv_sec += shift();
  return result;
}
