#!/usr/bin/env python3
"""Motion-to-photon latency of `swell live` with a UDP source at a given rate.

Sends Swell JSON lines (docs/sensors.md) of a device at rest to udp:PORT at RATE Hz from
this process, runs `swell live SCENE --motion udp:PORT --frames N --stats` (it needs a
display: run under `xvfb-run -s "-screen 0 1300x2600x24"` for the full phone size), and
prints the statistics line (`latency_ms_median`, `latency_ms_p99`, docs/formats.md) and the
target of issue 11: one frame interval plus one sample period.

    xvfb-run -a -s "-screen 0 1300x2600x24" python3 bench/udp_latency.py \
        --swell .build/release/swell --size 390x844@3 --frames 600
"""

import argparse
import json
import math
import random
import socket
import subprocess
import threading
import time


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--swell", default=".build/release/swell")
    p.add_argument("--scene", default="waterwave")
    p.add_argument("--size", default="195x422@1")
    p.add_argument("--frames", type=int, default=600)
    p.add_argument("--rate", type=float, default=100.0)
    p.add_argument("--renderer", default="auto", help="swell live --renderer: auto, opengl, software")
    p.add_argument("--rock", type=float, default=0.0,
                   help="rock the device about the screen's normal by this many degrees at 0.5 Hz "
                        "(default 0: at rest, when only the water's crest moves)")
    p.add_argument("--whole-frames", action="store_true",
                   help="swell live --whole-frames: draw and show every frame whole")
    args = p.parse_args()

    port = random.randint(30000, 60000)
    stop = threading.Event()

    def send() -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        period = 1.0 / args.rate
        next_time = time.monotonic()
        start = time.monotonic()
        amplitude = math.radians(args.rock)
        omega = 2 * math.pi * 0.5
        while not stop.is_set():
            t = time.monotonic()
            angle = amplitude * math.sin(omega * (t - start))
            rate = amplitude * omega * math.cos(omega * (t - start))
            line = {"t": t, "gyro": [0.0, 0.0, rate],
                    "accel": [9.81 * math.sin(angle), 9.81 * math.cos(angle), 0.0]}
            s.sendto((json.dumps(line) + "\n").encode(), ("127.0.0.1", port))
            next_time += period
            time.sleep(max(0.0, next_time - time.monotonic()))

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    try:
        r = subprocess.run(
            [args.swell, "live", args.scene, "--motion", f"udp:{port}", "--size", args.size,
             "--renderer", args.renderer, "--frames", str(args.frames), "--stats"]
            + (["--whole-frames"] if args.whole_frames else []),
            capture_output=True, text=True, check=False)
    finally:
        stop.set()
    if r.returncode != 0:
        raise SystemExit(f"swell live exited {r.returncode}: {r.stderr.strip()}")
    stats = json.loads(r.stdout.strip().splitlines()[-1])
    frame_ms = 1000.0 / stats["fps_target"]
    target = frame_ms + 1000.0 / args.rate
    print(json.dumps(stats))
    print(f"latency median {stats['latency_ms_median']:.1f} ms, p99 {stats['latency_ms_p99']:.1f} ms; "
          f"target (one frame + one sample) {target:.1f} ms; dropped {stats['dropped']} of {stats['frames']}")


if __name__ == "__main__":
    main()
