#!/bin/sh
# Installs the Debian 12 packages Headroom needs, if any are missing. Run as root (or with sudo available).
# `deps.sh test` also installs what only the tests need: Debian's PyTorch and torchvision (CPU), for headroom-probe's CPU
# runs, and poppler's pdftotext, which reads the report's text back.
set -eu

PACKAGES="build-essential cmake pkg-config \
qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-l10n-tools qt6-tools-dev-tools \
nlohmann-json3-dev libgl-dev libbenchmark-dev xvfb xauth fonts-noto-cjk qt6-translations-l10n \
desktop-file-utils appstream dpkg-dev file"
if [ "${1:-}" = "test" ]; then
    PACKAGES="$PACKAGES python3-torch python3-torchvision poppler-utils"
fi

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "Installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "Missing packages:$missing; run this script as root" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
