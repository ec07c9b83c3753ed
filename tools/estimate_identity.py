#!/usr/bin/env python3
"""Proves that a change left the simulator's answers as they were.

Runs `headroom estimate --json --timeline` for every model preset x {fp32, bf16, fp16, fp8} x {no checkpointing,
full}, plus a few ZeRO / data-parallel / offload / accumulation variants, with two builds of Headroom, and compares
the outputs byte for byte.

    tools/estimate_identity.py --before OLD/headroom --after build/release/src/headroom
    tools/estimate_identity.py --after build/release/src/headroom --record snapshots/   # keep one side's outputs
    tools/estimate_identity.py --after build/release/src/headroom --against snapshots/
    tools/estimate_identity.py ... --ignore suggestions    # a top-level key the newer build adds on purpose
    tools/estimate_identity.py ... --float-tolerance 1e-12 # non-integer numbers may differ in their last digits

--float-tolerance is for a change that reorders floating-point sums (a repeated block's time multiplied instead of
added once per block): numbers written with a fraction or exponent may then differ relatively by at most the tolerance; numbers written
as integers (every byte count, step index and layer) and all text must still be identical.

An older build comes from a worktree: `git worktree add /tmp/old REV && cmake -S /tmp/old -B /tmp/old/b
-DHEADROOM_BUILD_TESTS=OFF && cmake --build /tmp/old/b --target headroom`. Exit status 0 when every case is
identical, 1 when any differs (the first differing line of each is printed), 2 on bad use.
"""
import argparse
import difflib
import json
import os
import subprocess
import sys

PRECISIONS = ["fp32", "bf16", "fp16", "fp8"]
CHECKPOINTING = ["none", "full"]
# Variants beyond the matrix: every one touches another part of the lowering or the time model.
VARIANTS = {
    "zero3-dp8": ["--zero", "3", "--dp", "8", "--gpu", "h100-sxm5-80gb"],
    "zero2-dp4-accum4": ["--zero", "2", "--dp", "4", "--grad-accum", "4", "--gpu", "a100-sxm4-80gb"],
    "offload-8bit": ["--offload", "--optimizer", "adamw-8bit"],
    "eager-selective": ["--attention", "eager", "--checkpointing", "selective", "--batch", "2"],
}


def presets(repo):
    d = os.path.join(repo, "resources", "models")
    return sorted(f[:-5] for f in os.listdir(d) if f.endswith(".json"))


def cases(repo):
    for model in presets(repo):
        for p in PRECISIONS:
            for c in CHECKPOINTING:
                yield f"{model}.{p}.{c}", ["--model", model, "--precision", p, "--checkpointing", c]
        for name, extra in VARIANTS.items():
            yield f"{model}.{name}", ["--model", model] + extra


def run(binary, args):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LC_ALL="C")
    # A private data folder, so that the user's own models and GPUs cannot shadow a preset.
    env["XDG_DATA_HOME"] = env["XDG_CONFIG_HOME"] = "/nonexistent-headroom-identity"
    r = subprocess.run([binary, "estimate", "--json", "--timeline"] + args, capture_output=True, text=True, env=env)
    return f"exit {r.returncode}\n{r.stdout}{r.stderr}"


def without(text, keys):
    """The output with the named top-level JSON keys taken out (the exit line kept)."""
    if not keys:
        return text
    head, _, body = text.partition("\n")
    try:
        doc = json.loads(body)
    except ValueError:
        return text
    for k in keys:
        doc.pop(k, None)
    return head + "\n" + json.dumps(doc, indent=2, sort_keys=True) + "\n"


def same_within(a, b, tol, path="$"):
    """The first place where two parsed JSON values differ beyond `tol` for non-whole numbers, or None."""
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        if type(a) is not type(b):
            return path
        if isinstance(a, dict):
            if a.keys() != b.keys():
                return path + " (keys)"
            for k in a:
                d = same_within(a[k], b[k], tol, f"{path}.{k}")
                if d:
                    return d
            return None
        if isinstance(a, list):
            if len(a) != len(b):
                return path + " (length)"
            for i, (x, y) in enumerate(zip(a, b)):
                d = same_within(x, y, tol, f"{path}[{i}]")
                if d:
                    return d
            return None
        return None if a == b else path
    if a == b:
        return None
    whole = isinstance(a, int) or isinstance(b, int)  # written without a decimal point: a count or a byte figure
    if whole or abs(a - b) > tol * max(abs(a), abs(b)):
        return f"{path}: {a!r} vs {b!r}"
    return None


def compare(before, after, tol):
    """None when the two outputs agree (byte for byte, or within `tol` for non-whole numbers), else a description."""
    if before == after:
        return None
    if tol > 0:
        hb, _, bb = before.partition("\n")
        ha, _, ba = after.partition("\n")
        try:
            d = same_within(json.loads(bb), json.loads(ba), tol) if hb == ha else "exit status"
        except ValueError:
            d = "output is not JSON"
        if d is None:
            return None
        return d
    diff = difflib.unified_diff(before.splitlines(), after.splitlines(), "before", "after", n=0, lineterm="")
    return " | ".join([l for l in diff if not l.startswith(("---", "+++"))][:4])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", help="the older headroom binary")
    ap.add_argument("--after", required=True, help="the newer headroom binary")
    ap.add_argument("--record", help="write the --after outputs to this folder")
    ap.add_argument("--against", help="compare the --after outputs with a folder written by --record")
    ap.add_argument("--ignore", action="append", default=[], help="a top-level JSON key to leave out of the comparison")
    ap.add_argument("--float-tolerance", type=float, default=0.0,
                    help="largest relative difference allowed between non-integer numbers (default 0)")
    a = ap.parse_args()
    if not a.before and not a.record and not a.against:
        ap.error("say --before, --record or --against")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    total = differ = within = 0
    for name, args in cases(repo):
        total += 1
        after = run(a.after, args)
        if a.record:
            os.makedirs(a.record, exist_ok=True)
            with open(os.path.join(a.record, name + ".json"), "w") as f:
                f.write(after)
        if a.against:
            with open(os.path.join(a.against, name + ".json")) as f:
                before = f.read()
        elif a.before:
            before = run(a.before, args)
        else:
            continue
        before, after = without(before, a.ignore), without(after, a.ignore)
        d = compare(before, after, a.float_tolerance)
        if d:
            differ += 1
            print(f"DIFFERS {name}: {d}")
        elif before != after:
            within += 1
    print(f"{total} cases, {total - differ - within} identical, {within} within the float tolerance, {differ} different")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
