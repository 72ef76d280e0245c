#!/usr/bin/env python3
"""Estimates what one record costs a coder, in a way that a noisy machine does not disturb.

Instruction counts alone mislead: a Codable coder's code is spread over the standard library's
boxes, the runtime's metadata caches and the package's own containers, and on this machine that
code does not fit the 32 KB instruction cache, where a hand mapping's does. So this runs one of the
benchmark's `--profile` loops under callgrind with its cache and branch simulation, at two counts,
and prints per record (the difference of the two runs divided by the difference of the counts, so
that the program's start cancels out):

    instructions, instruction-cache misses, mispredicted branches, and
    cost = instructions + 10 x cache misses + 15 x mispredicted branches

`cost` is a rough cycle count. On the flat model its ratios (coder / hand mapping) match the
benchmark's measured time ratios within about 5%, where instruction ratios alone do not.

    swift build -c release --package-path Benchmarks/CoderBenchmark --product benchmark
    python3 Benchmarks/CoderBenchmark/estimate-cycles.py encode-flat encode-flat-hand encode-flat-floor

Needs valgrind. Each name is one of the benchmark's `--profile` loops.
"""

import os
import re
import subprocess
import sys

# The benchmark's package keeps its build beside this script, wherever it is run from.
BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".build", "release", "benchmark")
COUNTS = (1_000, 3_000)


def totals(what, count):
    """Instructions, I1 misses and mispredicted branches of one run of `what`, `count` times."""
    run = subprocess.run(
        # Without address randomisation, so that the simulated caches see the same layout each run.
        ["setarch", "-R", "valgrind", "--tool=callgrind", "--cache-sim=yes", "--branch-sim=yes",
         "--callgrind-out-file=/dev/null", BINARY, "--profile", what, str(count)],
        # With deterministic hashing, so that dictionaries lay their keys out alike each run.
        env=dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1"), capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"the benchmark's --profile {what} failed:\n{run.stdout or run.stderr[-2000:]}")

    def number(label):
        match = re.search(label + r":\s*([\d,]+)", run.stderr)
        if not match:
            sys.exit(f"no '{label}' in callgrind's summary of {what}:\n{run.stderr}")
        return int(match.group(1).replace(",", ""))

    return number("I\\s+refs"), number("I1\\s+misses"), number("Mispredicts")


def main(names):
    if not names:
        sys.exit(__doc__)
    print(f"{'loop':<24}{'instructions':>14}{'I1 misses':>11}{'mispredicts':>13}{'cost':>9}")
    for what in names:
        low, high = (totals(what, count) for count in COUNTS)
        per_record = [(b - a) / (COUNTS[1] - COUNTS[0]) for a, b in zip(low, high)]
        instructions, misses, mispredicts = per_record
        cost = instructions + 10 * misses + 15 * mispredicts
        print(f"{what:<24}{instructions:>14,.0f}{misses:>11,.0f}{mispredicts:>13,.0f}{cost:>9,.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
