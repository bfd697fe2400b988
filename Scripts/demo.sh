#!/usr/bin/env bash
# Installs what is missing, then runs the WaterWave demo (a live window where a display
# exists, else swell-demo.mp4).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build -c release --product swell
exec .build/release/swell demo "$@"
