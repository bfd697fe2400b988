#!/usr/bin/env bash
# Makes the README's media from the bundled phone recording: docs/media/glass.gif, the built-in
# `glass` scene (physical water) under four seconds of the recording, 320 pixels wide, 12 frames
# per second. Run by hand after a change to the water or the scene (not in CI); commit the result.
#
#   bash Scripts/make-readme-media.sh [START_S]   START_S: seconds into the recording (default 2.5)
set -euo pipefail
cd "$(dirname "$0")/.."

start="${1:-2.5}"
span=4
recording=Sources/SwellTool/Resources/sensorlogger-ios-rotation
out=docs/media/glass.gif

swift build -c release --product swell
swell=.build/release/swell
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Device motion for the whole recording, then the window [start, start + span) of it.
"$swell" fuse "$recording" -o "$work/motion.csv"
awk -F, -v start="$start" -v span="$span" '
  /^#/ || /^time,/ { print; next }
  t0 == "" { t0 = $1 }
  $1 - t0 >= start && $1 - t0 < start + span { print }
' "$work/motion.csv" >"$work/window.csv"

# 390 × 844 points at 0.82 pixels per point: 320 × 692 pixels.
mkdir -p "$(dirname "$out")"
"$swell" render glass --motion "$work/window.csv" --size 390x844@0.8205 --fps 12 \
  --duration "$span" -o "$work/glass.gif"
mv "$work/glass.gif" "$out"
echo "wrote $out ($(wc -c <"$out") bytes)"
