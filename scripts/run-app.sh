#!/bin/sh
# Sets up (Debian packages), builds and launches Headroom.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
cmake --preset release
cmake --build --preset release --parallel
exec ./build/release/src/headroom "$@"
