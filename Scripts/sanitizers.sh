#!/usr/bin/env bash
# Runs the tests that exercise threads, sockets and parsers under AddressSanitizer and then
# ThreadSanitizer (MotionManager, the live loop, the sensor readers, the importers and the
# hostile-input suites), each in a build folder of its own.
#
#   bash Scripts/sanitizers.sh [address|thread]   (default: both)
#
# The tests that run the tool under `prlimit --as` are skipped: a sanitizer reserves terabytes of
# shadow address space, which no address-space limit allows.
# Exits non-zero when a sanitizer reports an error or a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
filter='Manager|Sensor|IIO|UDP|Phyphox|Live|Terminal|Zip|Import|Recording|Hostile|Scene'
kinds=("${@:-address thread}")
read -r -a kinds <<<"${kinds[*]}"
status=0
for kind in "${kinds[@]}"; do
  echo "== $kind sanitizer"
  swift build --build-tests --build-path ".build-$kind" -Xswiftc "-sanitize=$kind"
  export ASAN_OPTIONS=detect_leaks=0 TSAN_OPTIONS=halt_on_error=1
  if ! timeout 3600 xvfb-run -a swift test --skip-build --build-path ".build-$kind" \
    --filter "$filter" --skip HostileInputTests; then
    status=1
  fi
done
exit "$status"
