#!/usr/bin/env python3
"""Where a CPU training step's memory peaks, from torch.profiler's memory events (docs/accuracy.md 1.7, ViT-B/16).

Runs one forward and backward of a torchvision model on the CPU (FP32, or under CPU autocast) (no caching allocator: every allocation and
free is an event), and prints the bytes alive at the end of the forward pass, the peak above them and the operators
around it, to compare with `headroom estimate --timeline` for the same model, batch and torch release.

    /usr/bin/python3 tools/cpu_peak_trace.py --model vit_b_16 --batch 8
"""
import argparse
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="vit_b_16", help="a torchvision.models builder (default vit_b_16)")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--side", type=int, default=224, help="image side in pixels")
    ap.add_argument("--around", type=int, default=12, help="events printed on each side of the peak")
    ap.add_argument("--autocast", choices=["none", "bf16"], default="none", help="CPU autocast (default none: FP32)")
    args = ap.parse_args(argv)
    import torch
    import torchvision
    from torch.profiler import ProfilerActivity, profile, record_function

    torch.manual_seed(0)
    model = getattr(torchvision.models, args.model)().train()
    x = torch.randn(args.batch, 3, args.side, args.side)
    y = torch.randint(0, 1000, (args.batch,))
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.autocast == "bf16"):
            out = model(x)
            loss = torch.nn.functional.cross_entropy(out, y)
        del out
        with record_function("BACKWARD"):
            loss.backward()
    events = prof.profiler.kineto_results.events()
    memory = sorted((e for e in events if e.name() == "[memory]"), key=lambda e: e.start_us())
    ops = [e for e in events if e.name() != "[memory]"]
    backward = next(e for e in ops if e.name() == "BACKWARD").start_us()

    def where(ts):
        inside = [e for e in ops if e.start_us() <= ts <= e.start_us() + e.duration_us()
                  and not e.name().startswith(("aten::empty", "aten::zero", "aten::fill_"))]
        inside.sort(key=lambda e: -e.duration_us())
        return " > ".join(e.name().replace("autograd::engine::evaluate_function: ", "") for e in inside[-3:])

    live, alive = 0, []
    for e in memory:
        live += e.nbytes()
        alive.append(live)
    first_backward = next(i for i, e in enumerate(memory) if e.start_us() >= backward)
    peak = max(range(len(alive)), key=alive.__getitem__)
    forward_end = alive[first_backward - 1]
    print("end of forward %.3f MB, peak %.3f MB (+%.3f MB) at event %d: %s"
          % (forward_end / 1e6, alive[peak] / 1e6, (alive[peak] - forward_end) / 1e6, peak, where(memory[peak].start_us())))
    for i in range(max(0, peak - args.around), min(len(memory), peak + args.around)):
        print("%6d %+10.3f %10.3f  %s" % (i, memory[i].nbytes() / 1e6, alive[i] / 1e6, where(memory[i].start_us())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
