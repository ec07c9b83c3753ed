#!/bin/sh
# Sets up (Debian packages), builds everything and runs every test. This is what CI runs (.ci/run).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
cmake --preset release
cmake --build --preset release --parallel
QT_QPA_PLATFORM=offscreen ctest --preset release --parallel 2
