#pragma once

// Checks that the sanitizer pass (scripts/sanitize.sh) leaves to the release pass.
//
// The planner simulates thousands of layouts: unoptimised under AddressSanitizer (GCC defines __SANITIZE_ADDRESS__)
// one plan outlasts the minute a command may take (clirun.h) and the half minute the Plan dock is given. Its checks
// run in the release pass, as tst_planner's do.

#include <QTest>

#if defined(__SANITIZE_ADDRESS__)
#define HEADROOM_SKIP_PLANNER_UNDER_SANITIZER()                                                                        \
    QSKIP("the planner under AddressSanitizer outlasts the time a check gives it: the release pass runs this")
#else
#define HEADROOM_SKIP_PLANNER_UNDER_SANITIZER() (void)0
#endif
