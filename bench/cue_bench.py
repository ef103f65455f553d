#!/usr/bin/python3
"""Times the cue-task training natively and in the PyTorch peer, in one run, and prints ratios.

    /usr/bin/python3 bench/cue_bench.py [--cli build/cli/attention-lab] [--blocks 2]
                                        [--epochs 30] [--seed 3] [--repeat 1] [--json]

Runs the same 30-epoch training four ways: the native engine with its default last-query
shortcut and with the full last block (--no-last-query-only), and bench/cue_pytorch.py (one
thread) with the full last block (how PyTorch code is usually written) and with the same
shortcut. Each is run --repeat times, alternating, and its fastest run is kept. The ratio is
PyTorch seconds / native seconds: above 1 means native is faster. Each program times its own
training (data, model, 30 epochs, validation), not the process start.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_json(command):
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=os.path.join(ROOT, "build", "cli", "attention-lab"))
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    common = ["--blocks", str(args.blocks), "--epochs", str(args.epochs), "--seed", str(args.seed)]
    peer = [sys.executable if sys.executable else "/usr/bin/python3", os.path.join(HERE, "cue_pytorch.py")]
    runs = {
        "native, last-query shortcut": [args.cli, "cue", *common, "--json"],
        "native, full last block": [args.cli, "cue", *common, "--no-last-query-only", "--json"],
        "pytorch, full last block": [*peer, *common],
        "pytorch, last-query shortcut": [*peer, *common, "--last-query-only"],
    }
    best = {}
    for _ in range(args.repeat):
        for name, command in runs.items():
            result = run_json(command)
            if name not in best or result["elapsedSeconds"] < best[name]["elapsedSeconds"]:
                best[name] = result

    seconds = {name: r["elapsedSeconds"] for name, r in best.items()}
    ratios = {
        "pytorch full / native shortcut": seconds["pytorch, full last block"] / seconds["native, last-query shortcut"],
        "pytorch full / native full": seconds["pytorch, full last block"] / seconds["native, full last block"],
        "pytorch shortcut / native shortcut":
            seconds["pytorch, last-query shortcut"] / seconds["native, last-query shortcut"],
        "native full / native shortcut": seconds["native, full last block"] / seconds["native, last-query shortcut"],
    }
    if args.json:
        print(json.dumps({"blocks": args.blocks, "epochs": args.epochs, "seed": args.seed,
                          "repeat": args.repeat, "seconds": seconds, "ratios": ratios,
                          "bestValidationAccuracy": {n: r["bestValidationAccuracy"] for n, r in best.items()}}))
        return
    print("cue task, %d block(s), %d epochs, seed %d, fastest of %d run(s) each"
          % (args.blocks, args.epochs, args.seed, args.repeat))
    width = max(map(len, runs)) + 2
    print("%-*s %9s %9s" % (width, "run", "seconds", "best acc"))
    for name in runs:
        print("%-*s %9.2f %9.4f" % (width, name, seconds[name], best[name]["bestValidationAccuracy"]))
    print()
    for name, ratio in ratios.items():
        print("%-*s %8.2fx" % (width + 10, name, ratio))
    goal = ratios["pytorch full / native shortcut"]
    print("\ngoal (native >= 3x faster than the PyTorch peer): %s" % ("met" if goal >= 3 else "NOT met"))


if __name__ == "__main__":
    main()
