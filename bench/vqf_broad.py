#!/usr/bin/env python3
"""VQF (the `vqf` package, `VQF.updateBatch`, default parameters) on BROAD trial CSVs, scored
the way `swell evaluate --broad` scores Swell, with the same optional input changes:

    python3 bench/vqf_broad.py DIR [--rate HZ] [--disturb-start] [--disturb-fade S]
                                   [--trials 01,06,...] [--json]
    python3 bench/vqf_broad.py DIR --inject all|taps1..3|vibration1..3[@SEED] [--swell PATH]

--disturb-start adds a magnet's field, (20, -20, 15) uT in the sensor frame, during the first
25 s of each trial (the trials rest there); --disturb-fade S lets it fade linearly to zero over
the last S seconds of those 25 s. --rate resamples first (boxcar bins of 1/rate s, each new
sample carrying the timestamp, truth and movement flag of its bin's last sample), as
`BroadTrial.resampled(rate:)` does. The disturbance is added before resampling.

--inject has swell add its seeded taps or vibration (`swell evaluate --broad DIR --inject K
--export TMP`) and runs VQF on the exported CSVs, so both filters read the same bytes; `all`
prints clean and the six disturbed means with their change from clean, like
`swell evaluate --broad DIR --inject all`.

Developer tooling, not run in CI. Needs numpy and vqf (`pip install vqf`).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from vqf import VQF

DISTURBANCE_FIELD = np.array([20.0, -20.0, 15.0])  # uT, sensor frame
DISTURBANCE_SECONDS = 25.0


def load(path):
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    return {
        "t": data[:, 0].copy(),
        "gyr": np.ascontiguousarray(data[:, 1:4]),
        "acc": np.ascontiguousarray(data[:, 4:7]),
        "mag": np.ascontiguousarray(data[:, 7:10]),
        "quat": np.ascontiguousarray(data[:, 10:14]),
        "movement": data[:, 14] == 1,
    }


def disturb(trial, seconds=DISTURBANCE_SECONDS, fade=0.0, field=DISTURBANCE_FIELD):
    t = trial["t"] - trial["t"][0]
    if fade > 0:
        scale = np.clip((seconds - t) / fade, 0.0, 1.0)
    else:
        scale = (t < seconds).astype(float)
    out = dict(trial)
    out["mag"] = np.ascontiguousarray(trial["mag"] + scale[:, None] * field[None, :])
    return out


def resample(trial, rate):
    t = trial["t"]
    bins = np.floor((t - t[0]) * rate).astype(np.int64)
    starts = np.flatnonzero(np.r_[True, bins[1:] != bins[:-1]])
    ends = np.r_[starts[1:], len(t)]
    counts = (ends - starts)[:, None]
    out = {}
    for key in ("gyr", "acc", "mag"):
        out[key] = np.ascontiguousarray(np.add.reduceat(trial[key], starts, axis=0) / counts)
    last = ends - 1
    out["t"] = t[last]
    out["quat"] = np.ascontiguousarray(trial["quat"][last])
    out["movement"] = trial["movement"][last]
    return out


def qmul(a, b):
    aw, ax, ay, az = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
    bw, bx, by, bz = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    return np.stack([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ], axis=1)


def wrap(a):
    return (a + math.pi) % (2 * math.pi) - math.pi


def score(est, truth, scored, align):
    """BROAD's RMSEs (degrees): total, heading, inclination; 6D removes the best constant
    heading offset (the minimiser of the sum of squared wrapped heading errors)."""
    ok = scored & np.all(np.isfinite(truth), axis=1)
    q = est[ok]
    q = q / np.linalg.norm(q, axis=1)[:, None]
    r = truth[ok] / np.linalg.norm(truth[ok], axis=1)[:, None]
    conj = r * np.array([1, -1, -1, -1])
    e = qmul(q, conj)
    e[e[:, 0] < 0] *= -1
    if align:
        psi = 2 * np.arctan2(e[:, 3], e[:, 0])  # signed heading error, additive in the offset
        best, best_cost = 0.0, math.inf
        for start in np.linspace(-math.pi, math.pi, 73):
            d = start
            for _ in range(50):
                step = -np.mean(wrap(psi + d))
                d += step
                if abs(step) < 1e-12:
                    break
            cost = np.sum(wrap(psi + d) ** 2)
            if cost < best_cost:
                best, best_cost = d, cost
        rot = np.array([[math.cos(best / 2), 0, 0, math.sin(best / 2)]])
        e = qmul(np.repeat(rot, len(e), axis=0), e)
        e[e[:, 0] < 0] *= -1
    w = np.clip(np.abs(e[:, 0]), 0, 1)
    total = 2 * np.arccos(w)
    heading = 2 * np.arctan(np.abs(e[:, 3] / e[:, 0]))
    incl = 2 * np.arccos(np.clip(np.sqrt(e[:, 0] ** 2 + e[:, 3] ** 2), 0, 1))
    rms = lambda x: math.degrees(math.sqrt(np.mean(x ** 2)))
    return rms(total), rms(heading), rms(incl)


def run_vqf(trial, rate=None):
    ts = 1.0 / rate if rate else float(np.median(np.diff(trial["t"])))
    v = VQF(ts)
    out = v.updateBatch(trial["gyr"], trial["acc"], trial["mag"])
    v6 = VQF(ts)
    out6 = v6.updateBatch(trial["gyr"], trial["acc"])
    return out["quat9D"], out6["quat6D"]


def evaluate(directory, names, a):
    rows = []
    for n in names:
        trial = load(os.path.join(directory, n))
        if a.disturb_start or a.disturb_fade > 0:
            trial = disturb(trial, fade=a.disturb_fade)
        if a.rate:
            trial = resample(trial, a.rate)
        q9, q6 = run_vqf(trial, a.rate)
        r9 = score(q9, trial["quat"], trial["movement"], False)
        r6 = score(q6, trial["quat"], trial["movement"], True)
        rows.append((n[:-4], r9, r6))
        if not a.json and not a.quiet:
            f = lambda r: "%.2f / %.2f / %.2f" % r
            print("%-44s %-22s %s" % (n[:-4], f(r9), f(r6)))
            sys.stdout.flush()
    return rows


def exported(a, kind, tmp):
    """Has swell write the trials with the injection `kind` to a folder in `tmp`."""
    out = os.path.join(tmp, kind)
    cmd = [a.swell, "evaluate", "--broad", a.directory, "--inject", kind, "--export", out]
    if a.trials:
        cmd += ["--trials", a.trials]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("directory")
    p.add_argument("--rate", type=float)
    p.add_argument("--disturb-start", action="store_true")
    p.add_argument("--disturb-fade", type=float, default=0.0)
    p.add_argument("--trials", help="comma-separated trial-number prefixes, e.g. 01,06")
    p.add_argument("--json", action="store_true")
    p.add_argument("--inject", help="taps1-3, vibration1-3 or all, each optionally @SEED "
                   "(added by swell)")
    p.add_argument("--swell", default=".build/release/swell", help="the swell binary")
    a = p.parse_args()
    a.quiet = False
    names = sorted(n for n in os.listdir(a.directory) if n.endswith(".csv"))
    if a.trials:
        keep = a.trials.split(",")
        names = [n for n in names if any(n.startswith(k) for k in keep)]
    if a.inject and a.inject.split("@")[0] == "all":
        seed = "@" + a.inject.split("@", 1)[1] if "@" in a.inject else ""
        a.quiet = True
        f = lambda r: "%.2f / %.2f / %.2f" % r
        clean = evaluate(a.directory, names, a)
        c9 = tuple(np.mean([r[1][k] for r in clean]) for k in range(3))
        c6 = tuple(np.mean([r[2][k] for r in clean]) for k in range(3))
        print("VQF, mean of %d trials, total / heading / inclination (change of total)"
              % len(names))
        print("%-14s%-32s%s" % ("clean", f(c9), f(c6)))
        with tempfile.TemporaryDirectory() as tmp:
            for kind in ["taps1", "taps2", "taps3", "vibration1", "vibration2", "vibration3"]:
                rows = evaluate(exported(a, kind + seed, tmp), names, a)
                m9 = tuple(np.mean([r[1][k] for r in rows]) for k in range(3))
                m6 = tuple(np.mean([r[2][k] for r in rows]) for k in range(3))
                print("%-14s%-32s%s" % (kind, "%s (%+.2f)" % (f(m9), m9[0] - c9[0]),
                                        "%s (%+.2f)" % (f(m6), m6[0] - c6[0])))
                sys.stdout.flush()
        return
    if a.inject:
        with tempfile.TemporaryDirectory() as tmp:
            rows = evaluate(exported(a, a.inject, tmp), names, a)
    else:
        rows = evaluate(a.directory, names, a)
    m9 = tuple(np.mean([r[1][k] for r in rows]) for k in range(3))
    m6 = tuple(np.mean([r[2][k] for r in rows]) for k in range(3))
    if a.json:
        print(json.dumps({"trials": [{"trial": n, "9d": r9, "6d": r6} for n, r9, r6 in rows],
                          "mean": {"9d": m9, "6d": m6}}))
    else:
        f = lambda r: "%.2f / %.2f / %.2f" % r
        print("%-44s %-22s %s" % ("mean of %d" % len(rows), f(m9), f(m6)))


if __name__ == "__main__":
    main()
