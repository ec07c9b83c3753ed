#!/bin/sh
# Builds the libFuzzer targets (the "fuzz" preset: clang, AddressSanitizer and UndefinedBehaviorSanitizer, the core
# only, no Qt) and runs each one for a bounded time or number of executions, offline, as many at once as there are
# cores (a fuzzer is one process on one core: on two cores six targets of 30 s take 90 s). Reports executions and
# crashes per target and exits non-zero if any target crashed, leaked, hung, ran out of memory or stopped short of
# HEADROOM_FUZZ_RUNS.
#
#   HEADROOM_FUZZ_SECONDS   seconds per target (default 60)
#   HEADROOM_FUZZ_RUNS      executions per target instead (libFuzzer's -runs, the seeds included); no time limit
#                           then unless HEADROOM_FUZZ_SECONDS is set as well
#   HEADROOM_FUZZ_TARGETS   which targets (default: gpu model scenario hfconfig safetensors gguf)
#
# Every target to a million executions with no crash (docs/fuzzing.md; about an hour on two cores, most of it
# model and hfconfig):
#   HEADROOM_FUZZ_RUNS=1000000 sh scripts/fuzz.sh
#
# Seeds: the bundled GPUs and models, tests/data (the Hugging Face configs and the bad-input corpus),
# tests/fuzz/seeds and tests/fuzz/regressions (inputs that once crashed a target). New inputs go to
# build/fuzz/corpus/<target> (kept between runs), crashing inputs to build/fuzz/crashes/<target>, logs to
# build/fuzz/logs. Reproduce a crash with
#   build/fuzz/tests/fuzz/fuzz_<target> build/fuzz/crashes/<target>/crash-...
# then minimise it (-minimize_crash=1 -runs=10000) and fix the loader. A file the loader must refuse goes to
# tests/data/bad/ with a row in its README; a valid file that crashed the simulator goes to tests/fuzz/regressions/
# with a test in tst_loaders; an input that fooled the harness goes there too, with a test among its loader's.
set -eu
cd "$(dirname "$0")/.."

runs="${HEADROOM_FUZZ_RUNS:-}"
if [ -n "$runs" ]; then
    seconds="${HEADROOM_FUZZ_SECONDS:-0}" # 0: libFuzzer's "no limit"
else
    seconds="${HEADROOM_FUZZ_SECONDS:-60}"
fi
targets="${HEADROOM_FUZZ_TARGETS:-gpu model scenario hfconfig safetensors gguf}"
jobs="$(nproc 2>/dev/null || echo 2)"

# clang and its libFuzzer runtime (Debian 12: clang 14), installed like scripts/deps.sh installs the rest.
missing=""
for p in clang libclang-rt-14-dev; do
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

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --parallel "$jobs"

out=build/fuzz
mkdir -p "$out/logs"
# One target: runs it and writes "<exit code> <seconds>" to $out/logs/<target>.result.
fuzz_one() {
    t="$1"
    case "$t" in
    gpu) seeds="gpus tests/data/bad/gpu" ;;
    model) seeds="resources/models tests/data/bad/model" ;;
    scenario) seeds="tests/fuzz/seeds/scenario tests/data/bad/scenario" ;;
    hfconfig) seeds="tests/data/hf tests/data/bad/hfconfig" ;;
    safetensors) seeds="tests/fuzz/seeds/safetensors tests/data/bad/safetensors" ;;
    gguf) seeds="tests/fuzz/seeds/gguf" ;;
    esac
    # Inputs that once crashed a target (tests/fuzz/regressions/<target>) run first, every time.
    [ -d "tests/fuzz/regressions/$t" ] && seeds="tests/fuzz/regressions/$t $seeds"
    corpus="$out/corpus/$t"
    crashes="$out/crashes/$t"
    mkdir -p "$corpus" "$crashes"
    if [ -n "$runs" ]; then
        echo "== fuzz_$t: $runs executions"
        limit="-runs=$runs"
    else
        echo "== fuzz_$t: ${seconds} s"
        limit=""
    fi
    start="$(date +%s)"
    rc=0
    # -max_len: the seeds and the inputs that matter are a few KiB; longer ones only slow the search down.
    # -timeout: no single input may take 10 s; -rss_limit_mb: nor 2 GiB. New inputs go to the first directory.
    # shellcheck disable=SC2086
    "$out/tests/fuzz/fuzz_$t" "$corpus" $seeds $limit \
        -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -dict="tests/fuzz/$t.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
        >"$out/logs/$t.log" 2>&1 || rc=$?
    echo "$rc $(($(date +%s) - start))" >"$out/logs/$t.result"
}

for t in $targets; do
    case "$t" in
    gpu | model | scenario | hfconfig | safetensors | gguf) ;;
    *) echo "fuzz.sh: unknown target \"$t\"" >&2; exit 2 ;;
    esac
done
# As many targets at once as there are cores (each fuzzer is one process on one core), each for its full time.
running=0
for t in $targets; do
    rm -f "$out/logs/$t.result"
    fuzz_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait

summary=""
failed=0
for t in $targets; do
    log="$out/logs/$t.log"
    rc=1
    elapsed=0
    [ -f "$out/logs/$t.result" ] && read -r rc elapsed <"$out/logs/$t.result"
    corpus="$out/corpus/$t"
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    units="$(find "$corpus" -type f | wc -l)"
    found="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log")"
    if [ "$rc" -ne 0 ]; then
        failed=1
        echo "fuzz_$t FAILED (exit $rc); log: $log; input: ${found:-none written}" >&2
        grep -m 5 -E "ERROR|runtime error|fuzz invariant broken|Assertion|SUMMARY" "$log" >&2 || true
    elif [ -n "$runs" ] && [ "${execs:-0}" -lt "$runs" ]; then
        failed=1
        echo "fuzz_$t stopped after ${execs:-0} of $runs executions (HEADROOM_FUZZ_SECONDS=$seconds); log: $log" >&2
    fi
    rate=$((${execs:-0} / (elapsed > 0 ? elapsed : 1)))
    summary="$summary$(printf '%-12s %6s s %10s executions %6s exec/s %6s corpus %s crashes' "$t" "$elapsed" \
        "${execs:-?}" "$rate" "$units" "$([ "$rc" -ne 0 ] && echo 1 || echo 0)")
"
done

echo "== fuzz summary (logs in $out/logs)"
printf '%s' "$summary"
exit "$failed"
