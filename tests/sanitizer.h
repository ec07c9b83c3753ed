#pragma once

// Checks that the sanitizer pass (scripts/sanitize.sh) leaves to the release pass.
//
// The Plan dock plans in the background and is given half a minute: under AddressSanitizer (GCC defines
// __SANITIZE_ADDRESS__; the sanitizer build is -O1, a plan about 7 times slower than in the release build) that
// leaves too little margin on a slow machine, so its checks run in the release pass, as tst_planner's do. The
// command-line plans (tst_moe, tst_pipelinecli) run under the sanitizers: the slowest takes seconds there.

#include <QTest>

#if defined(__SANITIZE_ADDRESS__)
#define HEADROOM_SKIP_PLANNER_UNDER_SANITIZER()                                                                        \
    QSKIP("the planner under AddressSanitizer outlasts the time a check gives it: the release pass runs this")
#else
#define HEADROOM_SKIP_PLANNER_UNDER_SANITIZER() (void)0
#endif
