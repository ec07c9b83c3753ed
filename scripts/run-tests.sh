#!/bin/sh
# Sets up (Debian packages), builds everything and runs every test. This is what CI runs (.ci/run).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh test
# Format drift (clang-format --dry-run -Werror) and clang-tidy over src/core fail the run before the long build;
# skip them with HEADROOM_SKIP_FORMAT=1 / HEADROOM_SKIP_TIDY=1 (scripts/check-format.sh). The release, sanitizer
# and fuzz presets are unity builds (CMakePresets.json); the dev preset compiles file by file.
sh scripts/check-format.sh
# HEADROOM_SANITIZER_TWINS: the same build also makes the sanitized core, loaders and Qt Core suites that
# scripts/sanitize.sh runs below.
cmake --preset release -DHEADROOM_SANITIZER_TWINS=ON
cmake --build --preset release --parallel
# clang-tidy over the app and the window: their translation units need the moc and uic headers the build made.
if [ "${HEADROOM_SKIP_TIDY:-0}" != 1 ]; then
    HEADROOM_SKIP_FORMAT=1 HEADROOM_SKIP_TIDY=1 HEADROOM_TIDY_APP=build/release sh scripts/check-format.sh
fi
QT_QPA_PLATFORM=offscreen ctest --preset release --parallel 2 -LE sanitized

# Bad input (tests/data/bad, tests/fuzz): the Qt Core suites on the core and the loaders built with ASan and UBSan
# (scripts/sanitize.sh; HEADROOM_SANITIZE_FULL=1 builds and sanitizes the window too), then every fuzzer for a short
# while.
# Skip either with HEADROOM_SKIP_SANITIZE=1 or HEADROOM_SKIP_FUZZ=1; HEADROOM_FUZZ_SECONDS sets the time per fuzzer.
if [ "${HEADROOM_SKIP_SANITIZE:-0}" != 1 ]; then
    sh scripts/sanitize.sh
fi
if [ "${HEADROOM_SKIP_FUZZ:-0}" != 1 ]; then
    HEADROOM_FUZZ_SECONDS="${HEADROOM_FUZZ_SECONDS:-30}" sh scripts/fuzz.sh
fi

# Packaging (scripts/check-package.sh): build the .deb, validate its desktop file and metainfo, and run the unpacked
# binary headless. Skip with HEADROOM_SKIP_PACKAGE=1.
if [ "${HEADROOM_SKIP_PACKAGE:-0}" != 1 ]; then
    sh scripts/check-package.sh
fi
