#!/usr/bin/env bash
# Fuzzes every parser for a bounded time with the seeded mutation driver swell-fuzz
# (Tests/Fuzz/Driver) over the checked-in corpus (Tests/Fuzz/Corpus/PARSER/).
#
#   bash Scripts/fuzz.sh [--seconds TOTAL] [--seed N]   (default 60 s in all, seed from the clock)
#
# Each parser gets an equal share of TOTAL. A crash leaves fuzz-crash-PARSER.bin (the input) in
# the package root and fails the script; replay it with
#   .build/debug/swell-fuzz PARSER --corpus DIR_WITH_THAT_FILE --seconds 0
# The driver mutates inputs itself (no coverage feedback); the toolchain's libFuzzer
# (swiftc -sanitize=fuzzer) also works here and is the next step (see docs/limits.md).
set -euo pipefail
cd "$(dirname "$0")/.."
total=60
seed=$(date +%s)
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) total="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
parsers=(raw-imu-csv device-motion-csv sensor-logger-zip phyphox-csv scene-json svg-path motion-script iio-scan-type iio-sysfs-value phone-packet evemu dsu-packet)
each=$(awk -v t="$total" -v n="${#parsers[@]}" 'BEGIN { printf "%.2f", t / n }')
swift build --product swell-fuzz >/dev/null
failed=0
for p in "${parsers[@]}"; do
  if ! .build/debug/swell-fuzz "$p" --corpus Tests/Fuzz/Corpus --seconds "$each" --seed "$seed"; then
    echo "fuzz.sh: $p crashed (seed $seed); the input is in fuzz-crash-$p.bin" >&2
    failed=1
  fi
done
exit "$failed"
