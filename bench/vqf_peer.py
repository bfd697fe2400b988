#!/usr/bin/env python3
"""Swell's fusion speed against VQF's, timed in the same run on the same samples.

    python3 bench/vqf_peer.py [--swell PATH] [--rounds N] [--quick]

Runs `swell bench --only fusion --json` (which also writes its synthetic samples, 285.7 Hz,
to a temporary file through SWELL_BENCH_FUSION_SAMPLES) and times VQF's C++ loop on exactly
those samples through the `vqf` package's `VQF.updateBatch` (9D with the magnetometer, 6D
without; default parameters). Rounds alternate swell and VQF so that load from other jobs
hits both alike; the ratio of medians is printed per round and over all rounds.

Developer tooling, not run in CI. Needs numpy and vqf (`pip install vqf`) and a release build
of swell (`swift build -c release --product swell`).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from vqf import VQF


def swell_round(swell, samples_path, quick):
    env = dict(os.environ, SWELL_BENCH_FUSION_SAMPLES=samples_path)
    cmd = [swell, "bench", "--only", "fusion", "--json"] + (["--quick"] if quick else [])
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    figures = json.loads(out)
    return (figures["fusion.9d.samples_per_s"]["median"],
            figures["fusion.6d.samples_per_s"]["median"])


def vqf_round(data, repetitions):
    t, gyr, acc, mag = data
    ts = float(np.median(np.diff(t)))
    rates9, rates6 = [], []
    for _ in range(repetitions):
        v = VQF(ts)
        start = time.perf_counter()
        v.updateBatch(gyr, acc, mag)
        rates9.append(len(t) / (time.perf_counter() - start))
        v = VQF(ts)
        start = time.perf_counter()
        v.updateBatch(gyr, acc)
        rates6.append(len(t) / (time.perf_counter() - start))
    return statistics.median(rates9), statistics.median(rates6)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--swell", default=os.path.join(here, "..", ".build", "release", "swell"))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="swell's --quick data (rough numbers)")
    a = p.parse_args()
    if not os.path.exists(a.swell):
        sys.exit("no swell binary at %s; build with: swift build -c release --product swell" % a.swell)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "samples.csv")
        rows = []
        data = None
        for r in range(a.rounds):
            s9, s6 = swell_round(a.swell, path, a.quick)
            if data is None:
                raw = np.loadtxt(path, delimiter=",", skiprows=1)
                data = (raw[:, 0].copy(), np.ascontiguousarray(raw[:, 1:4]),
                        np.ascontiguousarray(raw[:, 4:7]), np.ascontiguousarray(raw[:, 7:10]))
                print("samples: %d from swell bench (%s)" % (len(data[0]), path))
            v9, v6 = vqf_round(data, 2 if a.quick else 9)
            rows.append((s9, s6, v9, v6))
            print("round %d: swell 9D %.3g/s, VQF 9D %.3g/s, ratio %.2f | swell 6D %.3g/s, "
                  "VQF 6D %.3g/s, ratio %.2f" % (r + 1, s9, v9, s9 / v9, s6, v6, s6 / v6))
            sys.stdout.flush()
    med = lambda k: statistics.median(row[k] for row in rows)
    print("median over %d rounds: 9D swell/VQF = %.2f (%.3g vs %.3g samples/s), "
          "6D swell/VQF = %.2f (%.3g vs %.3g samples/s)"
          % (len(rows), med(0) / med(2), med(0), med(2), med(1) / med(3), med(1), med(3)))


if __name__ == "__main__":
    main()
