/* What the C test programs share: CHECK counts a condition that does not hold and goes on,
 * MUST stops the program at a call that did not succeed (and check() is the same as a
 * function), message_mentions reads the last error, and finish() prints "all checks
 * passed" and gives the exit status. The C++ builds of the programs include it too. */
#ifndef SWERVE_TEST_CHECKS_H
#define SWERVE_TEST_CHECKS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve.h"

/* The number of failed checks (a function's static, so that programs that never CHECK do
 * not warn of an unused variable). */
static inline int *check_failures(void) {
  static int count = 0;
  return &count;
}
#define failures (*check_failures())

#define CHECK(condition)                                                            \
  do {                                                                              \
    if (!(condition)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

/* A call that must succeed; the program cannot go on if it does not. */
#define MUST(call)                                                                        \
  do {                                                                                    \
    SwerveStatus must_status = (call);                                                    \
    if (must_status != SWERVE_STATUS_OK) {                                                \
      fprintf(stderr, "%s:%d: %s failed with status %d: %s\n", __FILE__, __LINE__, #call, \
              (int)must_status, swerve_last_error_message());                             \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

static inline void check(SwerveStatus status, const char *what) {
  if (status != SWERVE_STATUS_OK) {
    fprintf(stderr, "%s failed with status %d: %s\n", what, (int)status, swerve_last_error_message());
    exit(1);
  }
}

static inline int message_mentions(const char *text) { return strstr(swerve_last_error_message(), text) != NULL; }

/* The exit status: 0 and "all checks passed" when every check held. */
static inline int finish(void) {
  if (failures == 0) {
    printf("all checks passed\n");
    return 0;
  }
  return 1;
}

#endif /* SWERVE_TEST_CHECKS_H */
