#!/bin/sh
# The test suites under AddressSanitizer and UndefinedBehaviorSanitizer (GCC, -O1 as ASan's documentation advises,
# -fsanitize=address,undefined,float-cast-overflow, no recovery). Any sanitizer report fails its test. LeakSanitizer
# suppressions (tests/lsan.supp) cover third-party libraries only.
#
# By default (what scripts/run-tests.sh runs): the sanitized twins in build/release (HEADROOM_SANITIZER_TWINS,
# tests/CMakeLists.txt): the core and the loaders built with the sanitizers, each Qt Core suite's objects (compiled
# once, for the release suite too) linked to them, and the command line on them for the suites that run it. The
# window's suites are not sanitized here.
# HEADROOM_SANITIZE_FULL=1: everything, the window and its suites included, in a build of its own (the "dev-asan"
# preset, a unity build at -g1): about three times as long.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
jobs="$(nproc 2>/dev/null || echo 2)"

# The same settings as the dev-asan test preset, for running a test binary by hand after this script.
export QT_QPA_PLATFORM=offscreen
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0"
# Instrumented, a test function takes several times its release time (unoptimised, tst_schemas' mutations outlasted
# QtTest's default 5 minutes on a 2-core machine; at -O1 the whole suite takes 6).
export QTEST_FUNCTION_TIMEOUT=900000

# tst_planner simulates thousands of layouts (two minutes in the release build, about 7 times that here): it runs in
# the release suite; the planner itself runs here under tst_moe's and tst_pipelinecli's plans.
if [ "${HEADROOM_SANITIZE_FULL:-0}" = 1 ]; then
    cmake --preset dev-asan
    cmake --build --preset dev-asan --parallel "$jobs"
    ctest --preset dev-asan --parallel "$jobs" -E "${HEADROOM_SANITIZE_EXCLUDE:-tst_planner}"
else
    cmake --preset release -DHEADROOM_SANITIZER_TWINS=ON
    cmake --build --preset release --parallel "$jobs"
    ctest --preset release --parallel "$jobs" -L sanitized -E "${HEADROOM_SANITIZE_EXCLUDE:-tst_planner}"
fi
