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
    args = p.parse_args()

    port = random.randint(30000, 60000)
    stop = threading.Event()

    def send() -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        period = 1.0 / args.rate
        next_time = time.monotonic()
        while not stop.is_set():
            line = {"t": time.monotonic(), "gyro": [0.0, 0.0, 0.0], "accel": [0.0, 9.81, 0.0]}
            s.sendto((json.dumps(line) + "\n").encode(), ("127.0.0.1", port))
            next_time += period
            time.sleep(max(0.0, next_time - time.monotonic()))

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    try:
        r = subprocess.run(
            [args.swell, "live", args.scene, "--motion", f"udp:{port}", "--size", args.size,
             "--renderer", args.renderer, "--frames", str(args.frames), "--stats"],
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
