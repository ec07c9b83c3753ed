#!/bin/sh
# Packaging check, the last stage of scripts/run-tests.sh: builds the .deb with CPack, validates its desktop file
# and AppStream metainfo, unpacks it into a temporary root and runs the unpacked binary headless.
# Needs the tools scripts/deps.sh installs. Uses build/release (configured and built if need be), or with
# HEADROOM_PACKAGE_BUILD_DIR=dir a build directory of its own that has only the app (no tests, no benchmarks).
set -eu
cd "$(dirname "$0")/.."

APP_ID=io.github.headroom.Headroom
BUILD=${HEADROOM_PACKAGE_BUILD_DIR:-build/release}
MIN_GPUS=30
START=$(date +%s)

fail() {
    echo "check-package: FAIL: $*" >&2
    exit 1
}
step() { echo "check-package: $*"; }

for tool in cmake cpack dpkg-deb dpkg-shlibdeps desktop-file-validate appstreamcli file readelf; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing; run scripts/deps.sh as root"
done

# --- build the package -------------------------------------------------------------------------------------------
if [ "$BUILD" = build/release ]; then
    [ -f "$BUILD/CMakeCache.txt" ] || cmake --preset release
elif [ ! -f "$BUILD/CMakeCache.txt" ]; then
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHEADROOM_BUILD_TESTS=OFF -DHEADROOM_BUILD_BENCHMARKS=OFF
fi
cmake --build "$BUILD" --parallel # a no-op after run-tests.sh's build; cpack would build everything anyway

version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$BUILD/CPackConfig.cmake")
[ -n "$version" ] || fail "no CPACK_PACKAGE_VERSION in $BUILD/CPackConfig.cmake; is packaging/CPackConfig.cmake in use?"
deb="$BUILD/headroom_${version}_$(dpkg --print-architecture).deb"
rm -f "$deb"
step "cpack -G DEB"
(cd "$BUILD" && cpack -G DEB) || fail "cpack failed (see above)"
[ -f "$deb" ] || fail "cpack did not write $deb"
step "built $deb ($(wc -c <"$deb") bytes)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
root="$tmp/root"
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x $deb failed"

# --- control fields ----------------------------------------------------------------------------------------------
[ "$(dpkg-deb -f "$deb" Package)" = headroom ] || fail "package name is not headroom"
[ "$(dpkg-deb -f "$deb" Section)" = science ] || fail "section is not science"
depends=$(dpkg-deb -f "$deb" Depends)
step "Depends: $depends"
for p in libc6 libstdc++6 libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6svg6; do
    echo ", $depends," | grep -q ", ${p}[ ,]" \
        || fail "Depends lacks $p; add it to CPACK_DEBIAN_PACKAGE_DEPENDS in packaging/CPackConfig.cmake"
done

# --- desktop file and metainfo, as installed ---------------------------------------------------------------------
desktop="$root/usr/share/applications/$APP_ID.desktop"
metainfo="$root/usr/share/metainfo/$APP_ID.metainfo.xml"
icon="$root/usr/share/icons/hicolor/scalable/apps/$APP_ID.svg"
bin="$root/usr/bin/headroom"
for f in "$bin" "$desktop" "$metainfo" "$icon" "$root/usr/share/doc/headroom/copyright"; do
    [ -f "$f" ] || fail "the package lacks ${f#"$root"}"
done

step "desktop-file-validate"
out=$(desktop-file-validate "$desktop" 2>&1) || {
    echo "$out"
    fail "desktop-file-validate: errors in packaging/$APP_ID.desktop"
}
[ -z "$out" ] || echo "$out"
# Hints (several main categories: Education;Science;Development is deliberate) are fine; warnings are not.
if echo "$out" | grep -q ': warning:'; then fail "desktop-file-validate: warnings in packaging/$APP_ID.desktop"; fi

step "appstreamcli validate --no-net"
appstreamcli validate --no-net "$metainfo" || fail "appstreamcli: packaging/$APP_ID.metainfo.xml is not valid"
# The installed tree as a whole: the launchable must name a desktop file the package ships.
step "appstreamcli validate-tree --no-net"
appstreamcli validate-tree --no-net "$root" \
    || fail "appstreamcli validate-tree: the package's metainfo and desktop file disagree"

# The ids must agree: metainfo id and launchable, desktop file name and Icon, and the desktop file name the window
# gives the compositor (QGuiApplication::setDesktopFileName).
grep -qF "<id>$APP_ID</id>" "$metainfo" || fail "metainfo <id> is not $APP_ID"
grep -qF "<launchable type=\"desktop-id\">$APP_ID.desktop</launchable>" "$metainfo" \
    || fail "metainfo <launchable> is not $APP_ID.desktop"
grep -qxF "Icon=$APP_ID" "$desktop" || fail "the desktop file's Icon is not $APP_ID"
grep -qx "Exec=headroom" "$desktop" || fail "the desktop file's Exec is not headroom"
grep -qF "setDesktopFileName(QStringLiteral(\"$APP_ID\"))" src/gui/shell/guiapp.cpp \
    || fail "src/gui/shell/guiapp.cpp does not call setDesktopFileName with $APP_ID"
[ "$(file -b --mime-type "$icon")" = image/svg+xml ] || fail "the icon is not an SVG file"

# --- data files --------------------------------------------------------------------------------------------------
gpus=$(find "$root/usr/share/headroom/gpus" -name '*.json' | wc -l)
[ "$gpus" -ge "$MIN_GPUS" ] || fail "the package has $gpus GPU files in /usr/share/headroom/gpus; expected >= $MIN_GPUS"
models=0
for m in resources/models/*.json; do
    cmp -s "$m" "$root/usr/share/headroom/models/$(basename "$m")" || fail "the package lacks the model preset $m"
    models=$((models + 1))
done
step "$gpus GPU files, $models model presets"

# --- the unpacked binary, headless -------------------------------------------------------------------------------
case "$(file -b "$bin")" in
*ELF*executable*) ;;
*) fail "/usr/bin/headroom is not an ELF executable: $(file -b "$bin")" ;;
esac
if readelf -d "$bin" | grep -Eq 'R(UN)?PATH'; then
    fail "/usr/bin/headroom has a RUNPATH; one in /usr needs none (see INSTALL_RPATH in packaging/CPackConfig.cmake)"
fi

# Run it as a fresh user would: no display, and settings and data in the temporary directory.
mkdir -p "$tmp/home" "$tmp/run"
chmod 700 "$tmp/run"
run() {
    env QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8 HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" \
        XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share" \
        XDG_CACHE_HOME="$tmp/home/.cache" "$bin" "$@"
}

step "headroom --version"
v=$(run --version) || fail "headroom --version failed"
[ "$v" = "headroom $version" ] || fail "headroom --version printed \"$v\"; expected \"headroom $version\""

step "headroom --help"
run --help >"$tmp/help.txt" || fail "headroom --help failed"
grep -q '^Usage: headroom \[options\] \[command\]' "$tmp/help.txt" || fail "headroom --help has no Usage line"

step "headroom estimate --json"
run estimate --json >"$tmp/estimate.json" || fail "headroom estimate --json failed"
[ "$(head -c 1 "$tmp/estimate.json")" = "{" ] || fail "headroom estimate --json did not print a JSON object"
grep -q '"fits": *\(true\|false\)' "$tmp/estimate.json" || fail "headroom estimate --json has no \"fits\""

step "headroom list gpus"
run list gpus >"$tmp/gpus.txt" || fail "headroom list gpus failed"
listed=$(grep -c . "$tmp/gpus.txt")
[ "$listed" -ge "$MIN_GPUS" ] || fail "headroom list gpus listed $listed GPUs; expected >= $MIN_GPUS"

if run export --help >/dev/null 2>&1; then
    step "headroom export --chart all --out fig.svg"
    run export --chart all --out "$tmp/fig.svg" || fail "headroom export --chart all --out fig.svg failed"
    [ -s "$tmp/fig.svg" ] || fail "headroom export wrote no fig.svg"
    [ "$(file -b --mime-type "$tmp/fig.svg")" = image/svg+xml ] \
        || fail "headroom export wrote $(file -b "$tmp/fig.svg"), not SVG"
else
    step "headroom export: no such command in this build; skipped"
fi

# The window itself, from the package, on the offscreen platform.
step "headroom --screenshot window.png"
run --screenshot "$tmp/window.png" --size 1280x800 >"$tmp/window.log" 2>&1 || {
    cat "$tmp/window.log"
    fail "headroom --screenshot failed"
}
[ "$(file -b --mime-type "$tmp/window.png")" = image/png ] || fail "headroom --screenshot wrote no PNG"

step "OK: $deb ($(($(date +%s) - START)) s)"
