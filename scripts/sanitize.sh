#!/bin/sh
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer (the "dev-asan" preset: GCC, Debug at -O1
# as ASan's documentation advises, a unity build, -fsanitize=address,undefined,float-cast-overflow, no recovery) and runs the whole ctest suite under them. Any
# sanitizer report fails its test. LeakSanitizer suppressions (tests/lsan.supp) cover third-party libraries only.
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

cmake --preset dev-asan
cmake --build --preset dev-asan --parallel "$jobs"
# tst_planner simulates thousands of layouts (two minutes in the release build, about 7 times that here): it runs in
# the release suite; the planner itself runs here under tst_moe's and tst_pipelinecli's plans.
ctest --preset dev-asan --parallel "$jobs" -E "${HEADROOM_SANITIZE_EXCLUDE:-tst_planner}"
