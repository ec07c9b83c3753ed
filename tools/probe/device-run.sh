#!/bin/sh
# The one prepared script for a session lent a GPU machine (15 minutes of device time in all, the machine's start
# included): the runs that settle the most first, each grid under its own time budget, and what they write packed into
# at most eight files of under 16 MiB under $OUT, to be committed to tests/data/measured/ (docs/formats.md, the probe).
#
#   sh tools/probe/device-run.sh "$OUT"                 # on the GPU machine (the device tool's run, timeout_s 540)
#   sh tools/probe/device-run.sh /tmp/out --cpu --smoke  # its logic, on a CPU, in a few minutes
#
# 1. residuals (about 2.5 min): the measured runs whose memory Headroom does not yet explain, with the caching
#    allocator's record, turned into compact traces (history_trace.py; the snapshot pickles stay behind);
# 2. finetune (about 3 min): LoRA and DoRA through peft;
# 3. time (what is left): batch sweeps of the five models for the step-time model.
# Budgets in seconds: RESIDUALS_S, FINETUNE_S, TIME_S (defaults 150, 180, 150). A grid starts no run it expects to
# overrun its budget, so the script ends within their sum and the process start-up of one run.
set -u
OUT=${1:?usage: device-run.sh OUT_DIR [--cpu] [--smoke]}
shift
DEVICE=cuda
SMOKE=
for a in "$@"; do
    case "$a" in
    --cpu) DEVICE=cpu ;;
    --smoke) SMOKE=--smoke ;;
    *) echo "device-run.sh: unknown option $a" >&2; exit 2 ;;
    esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1

run_grid() { # name budget
    mkdir -p "$WORK/$1"
    echo "== grid $1 (budget $2 s)"
    $PY "$HERE/grid.py" --grid "$1" --device "$DEVICE" --out "$WORK/$1" --budget-seconds "$2" $SMOKE \
        2>&1 | tee "$WORK/$1/grid-stdout.log"
}

{
    date -u +"%Y-%m-%dT%H:%M:%SZ start"
    $PY -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())' 2>&1
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 || true
    run_grid residuals "${RESIDUALS_S:-150}"
    if ls "$WORK"/residuals/*.pickle > /dev/null 2>&1; then
        $PY "$HERE/history_trace.py" "$WORK"/residuals/*.pickle && rm -f "$WORK"/residuals/*.pickle
    fi
    run_grid finetune "${FINETUNE_S:-180}"
    run_grid time "${TIME_S:-150}"
    date -u +"%Y-%m-%dT%H:%M:%SZ end"
} 2>&1 | tee "$OUT/device-run.log"

# Each grid in one archive, split below the 16 MiB a file may have on its way back.
for g in residuals finetune time; do
    [ -d "$WORK/$g" ] || continue
    tar -C "$WORK" -cJf "$WORK/$g.tar.xz" "$g"
    split -b 15m -d -a 1 "$WORK/$g.tar.xz" "$OUT/$g.tar.xz."
done
ls -l "$OUT"
