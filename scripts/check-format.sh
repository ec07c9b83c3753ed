#!/bin/sh
# Style and static-analysis gate. Exits non-zero on any drift or finding.
#
#   1. clang-format: every *.cpp and *.h under src/ and tests/ must already be formatted as .clang-format says
#      (clang-format --dry-run -Werror). Fix a file with `clang-format -i FILE`.
#   2. clang-tidy: every source of src/core (the headroom_core target, in its unity batches), and the src/core
#      headers they include, with the checks in .clang-tidy; any warning is an error. It reads the compile commands
#      of its own configure-only build directory, build/tidy (src/core has no generated files, so nothing is built).
#
#   3. clang-tidy over src/app and src/gui (only when HEADROOM_TIDY_APP names a built build directory, as
#      scripts/run-tests.sh does after its release build: their translation units need the generated moc and uic
#      headers). A unity build's batches are checked as they are compiled; findings are reported in the original
#      files, with the same checks as the core's.
#
#   HEADROOM_SKIP_FORMAT=1   skip step 1
#   HEADROOM_SKIP_TIDY=1     skip step 2
#   HEADROOM_TIDY_APP=DIR    run step 3 with DIR's compile commands
#   CLANG_FORMAT, CLANG_TIDY the binaries (default clang-format, clang-tidy; the style is written for version 14,
#                            Debian 12's, and other versions may format some constructs differently)
#
# Both tools are installed (Debian packages clang-format, clang-tidy) if missing. The tidy configuration needs what
# the normal build needs (Qt 6 and nlohmann_json, see scripts/deps.sh).
set -eu
cd "$(dirname "$0")/.."

jobs="$(nproc 2>/dev/null || echo 2)"
clang_format="${CLANG_FORMAT:-clang-format}"
clang_tidy="${CLANG_TIDY:-clang-tidy}"

missing=""
for p in clang-format clang-tidy; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "Installing:$missing"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

log="build/check-format"
mkdir -p "$log"
failed=0

if [ "${HEADROOM_SKIP_FORMAT:-0}" != 1 ]; then
    version="$("$clang_format" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')"
    [ "$version" = 14 ] || echo "check-format.sh: warning: $clang_format is version $version;" \
        ".clang-format is written for 14" >&2
    # Sources only: no build trees, no generated files (moc, uic and rcc output lives under build/).
    find src tests -type d \( -name 'build*' -o -name '*_autogen' -o -name '.*' \) -prune -o \
        -type f \( -name '*.cpp' -o -name '*.h' \) -print | LC_ALL=C sort >"$log/format-files.txt"
    count="$(wc -l <"$log/format-files.txt")"
    echo "== clang-format: $count files"
    # One file per call, so that parallel output cannot interleave: each call prints its file's name if it drifts.
    # shellcheck disable=SC2016
    xargs -P "$jobs" -n 1 sh -c '"$0" --style=file --dry-run -Werror "$1" >/dev/null 2>&1 || echo "$1"' \
        "$clang_format" <"$log/format-files.txt" | LC_ALL=C sort >"$log/format-bad.txt"
    if [ -s "$log/format-bad.txt" ]; then
        failed=1
        # The places, one file after the other (also shows a style file clang-format cannot read).
        xargs "$clang_format" --style=file --dry-run <"$log/format-bad.txt" >"$log/format.log" 2>&1 || true
        echo "clang-format: $(wc -l <"$log/format-bad.txt") of $count files not formatted ($(grep -c \
            'code should be clang-formatted' "$log/format.log") places; details in $log/format.log):" >&2
        sed 's/^/  /' "$log/format-bad.txt" >&2
        grep -v 'code should be clang-formatted' "$log/format.log" | grep -E '^(Error|error|Invalid|YAML)|: error:' \
            | head -n 5 >&2 || true
        echo "Fix with: $clang_format -i FILE (then review the diff)" >&2
    fi
fi

if [ "${HEADROOM_SKIP_TIDY:-0}" != 1 ]; then
    # Configure only: the core's compile commands, without the window, the tests or the benchmarks.
    # A unity build, as the release build compiles the core: each batch parses the headers once instead of once per
    # source (about half the time on 2 cores); findings are reported in the original files.
    cmake -S . -B build/tidy -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_UNITY_BUILD=ON -DHEADROOM_BUILD_GUI=OFF \
        -DHEADROOM_BUILD_TESTS=OFF -DHEADROOM_BUILD_BENCHMARKS=OFF -DHEADROOM_BUILD_FUZZERS=OFF \
        >"$log/tidy-configure.log" 2>&1 || {
        cat "$log/tidy-configure.log" >&2
        echo "check-format.sh: configuring build/tidy failed (missing Qt or nlohmann_json? run scripts/deps.sh)" >&2
        exit 1
    }
    sed -n 's#^ *"file": "\(.*/src/core/[^"]*\.c[px][px]\)",*$#\1#p' build/tidy/compile_commands.json \
        | grep -E '/src/core/(.*\.cpp|CMakeFiles/headroom_core\.dir/Unity/unity_[0-9]+_cxx\.cxx)$' | LC_ALL=C sort -u \
        >"$log/tidy-files.txt"
    count="$(wc -l <"$log/tidy-files.txt")"
    if [ "$count" -eq 0 ]; then
        echo "check-format.sh: no src/core sources in build/tidy/compile_commands.json" >&2
        exit 1
    fi
    echo "== clang-tidy: $count src/core translation units, $jobs at a time"
    start="$(date +%s)"
    rm -rf "$log/tidy" && mkdir -p "$log/tidy"
    rc=0
    # One log per translation unit, so that parallel output cannot interleave.
    # shellcheck disable=SC2016
    xargs -P "$jobs" -n 1 sh -c '"$0" -p build/tidy --quiet --warnings-as-errors="*" \
        --checks=-bugprone-suspicious-include "$2" >"$1/${2##*/}.log" 2>&1' \
        "$clang_tidy" "$log/tidy" <"$log/tidy-files.txt" || rc=$?
    cat "$log"/tidy/*.log >"$log/tidy.log"
    echo "   $(($(date +%s) - start)) s"
    if [ "$rc" -ne 0 ]; then
        failed=1
        # A header's finding is reported once per translation unit that includes it: list each once.
        findings="$(grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error):' "$log/tidy.log" | LC_ALL=C sort -u)"
        echo "clang-tidy: $(printf '%s\n' "$findings" | grep -c .) findings (full output in $log/tidy.log):" >&2
        printf '%s\n' "$findings" | sed "s|^$(pwd)/||" >&2
        [ -n "$findings" ] || tail -n 20 "$log/tidy.log" >&2
    fi
fi

if [ -n "${HEADROOM_TIDY_APP:-}" ]; then
    db="$HEADROOM_TIDY_APP/compile_commands.json"
    [ -f "$db" ] || { echo "check-format.sh: $db is missing; build $HEADROOM_TIDY_APP first" >&2; exit 1; }
    # The app's and the window's sources, or a unity build's batches of them; not moc, uic or rcc output.
    sed -n 's|^ *"file": "\(.*\)",*$|\1|p' "$db" \
        | grep -E '/src/(app|gui)/(.*\.cpp|CMakeFiles/headroom_(app|gui)\.dir/Unity/unity_[0-9]+_cxx\.cxx)$' \
        | grep -v -e '_autogen/' -e '/\.rcc/' | LC_ALL=C sort -u >"$log/tidy-app-files.txt"
    count="$(wc -l <"$log/tidy-app-files.txt")"
    [ "$count" -gt 0 ] || { echo "check-format.sh: no src/app or src/gui sources in $db" >&2; exit 1; }
    echo "== clang-tidy: $count src/app and src/gui translation units, $jobs at a time"
    start="$(date +%s)"
    rm -rf "$log/tidy-app" && mkdir -p "$log/tidy-app"
    rc=0
    # A unity batch #includes its .cpp files (bugprone-suspicious-include); they are checked as headers would be.
    # shellcheck disable=SC2016
    xargs -P "$jobs" -n 1 sh -c '"$0" -p "$2" --quiet --warnings-as-errors="*" --checks=-bugprone-suspicious-include \
        --header-filter="/src/(app|gui)/" "$3" >"$1/$(echo "$3" | tr / _).log" 2>&1' \
        "$clang_tidy" "$log/tidy-app" "$HEADROOM_TIDY_APP" <"$log/tidy-app-files.txt" || rc=$?
    cat "$log"/tidy-app/*.log >"$log/tidy-app.log"
    echo "   $(($(date +%s) - start)) s"
    if [ "$rc" -ne 0 ]; then
        failed=1
        findings="$(grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error):' "$log/tidy-app.log" | LC_ALL=C sort -u)"
        echo "clang-tidy: $(printf '%s\n' "$findings" | grep -c .) findings in src/app and src/gui (full output in" \
            "$log/tidy-app.log):" >&2
        printf '%s\n' "$findings" | sed "s|^$(pwd)/||" >&2
        [ -n "$findings" ] || tail -n 20 "$log/tidy-app.log" >&2
    fi
fi

exit "$failed"
