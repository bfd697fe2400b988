#!/usr/bin/env bash
# Fuzzes every parser with libFuzzer, coverage-guided, within a total time that includes the build.
#
#   bash Scripts/fuzz.sh [--seconds TOTAL] [--parser NAME]... [--keep DIR] [--update-corpus]
#
# TOTAL (default 150 s) covers the build of the harness (Tests/Fuzz, a package of its own, built
# with `-sanitize=fuzzer,address` in Tests/Fuzz/.build) and every parser's run, which share what
# the build leaves, at least 5 s each. Each parser starts from its checked-in corpus
# (Tests/Fuzz/Corpus/NAME/) and the test fixtures of its format; new inputs go to a temporary
# folder, or to DIR/NAME/ with --keep DIR (read again by the next run with --keep DIR, so long
# local runs can be done in parts). --update-corpus then adds to Tests/Fuzz/Corpus/NAME/ the 8 of
# them that reach the most code the corpus does not (Scripts/fuzz-corpus-pick.pl), which keeps
# what is committed to a handful of small files a parser.
#
# A crash, a timeout (an input taking over 10 s), an out-of-memory (over 2 GB) or an
# AddressSanitizer report fails the script and leaves the input in the package root as
# fuzz-KIND-NAME.bin (KIND: crash, timeout, oom, leak); replay it with
#   SWELL_FUZZ_PARSER=NAME Tests/Fuzz/.build/debug/swell-fuzz fuzz-KIND-NAME.bin
set -euo pipefail
cd "$(dirname "$0")/.."
total=150
update=0
keep=""
chosen=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) total="$2"; shift 2 ;;
    --parser) chosen+=("$2"); shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --update-corpus) update=1; shift ;;
    *) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

# Test fixtures that seed a parser besides its corpus (libFuzzer reads at most -max_len bytes of
# each, so the large ones seed with their beginning). A parser may also have a dictionary,
# Tests/Fuzz/Dictionaries/NAME.dict: tokens the fuzzer cannot learn from the code's comparisons.
declare -A seeds
m=Tests/SwellRecordingsTests/Fixtures
seeds[raw-imu-csv]=$m/broad_24_excerpt.csv
seeds[device-motion-csv]=Tests/SwellToolTests/Fixtures/live-roll.csv
seeds[phyphox-csv]=$m/broad_24_excerpt.csv,$m/sensorlogger-ios-rotation/GyroscopeUncalibrated.csv
seeds[scene-json]=Tests/SwellToolTests/Fixtures/live-plain.json
seeds[evemu]=$(ls Tests/SwellEvdevTests/Fixtures/*.evemu | paste -sd, -)

# libFuzzer comes with the Swift toolchain's clang runtime; say so plainly when it does not.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
if ! ls "$toolchain"/lib/swift/clang/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1 \
  && ! ls "$toolchain"/lib/clang/*/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
  echo "fuzz.sh: the Swift toolchain in $toolchain has no libFuzzer runtime" \
    "(libclang_rt.fuzzer); use a swift.org Linux toolchain" >&2
  exit 1
fi

start=$(date +%s)
log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$log" "$work"' EXIT
if [ -n "$keep" ]; then mkdir -p "$keep"; fi
# The linker warns about every AddressSanitizer helper it cannot export; only errors matter.
if ! swift build --package-path Tests/Fuzz --product swell-fuzz -Xswiftc -sanitize=fuzzer,address \
  -Xswiftc -warnings-as-errors >"$log" 2>&1; then
  grep -v "Cannot export local symbol" "$log" >&2
  echo "fuzz.sh: the harness did not build" >&2
  exit 1
fi
built=$(($(date +%s) - $start))
harness=Tests/Fuzz/.build/debug/swell-fuzz
# A Swift trap must reach libFuzzer's handler, which saves the input: the Swift runtime's own
# backtracer would take the signal first and, in this process, never finish.
export SWIFT_BACKTRACE=enable=no
parsers=("${chosen[@]}")
if [ ${#parsers[@]} -eq 0 ]; then mapfile -t parsers < <(SWELL_FUZZ_PARSER=list "$harness"); fi
# About a second a parser goes to starting libFuzzer and reading the corpus.
each=$((($total - $built) / ${#parsers[@]} - 1))
if [ "$each" -lt 5 ]; then each=5; fi
echo "fuzz.sh: harness built in ${built} s; ${#parsers[@]} parsers, ${each} s each"
failed=0
for p in "${parsers[@]}"; do
  new="$work/$p/new"
  if [ -n "$keep" ]; then new="$keep/$p"; fi
  mkdir -p "$new" "$work/$p/artifacts"
  extra=()
  if [ -n "${seeds[$p]:-}" ]; then extra+=(-seed_inputs="${seeds[$p]}"); fi
  dict="Tests/Fuzz/Dictionaries/$p.dict"
  if [ -f "$dict" ]; then extra+=(-dict="$dict"); fi
  set +e
  SWELL_FUZZ_PARSER="$p" "$harness" -max_total_time="$each" -max_len=4096 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/$p/artifacts/" \
    ${extra[@]+"${extra[@]}"} "$new" "Tests/Fuzz/Corpus/$p" >"$log" 2>&1
  status=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -o "cov: [0-9]*" "$log" | tail -1 || true)
  found=$(find "$new/" -type f | wc -l)
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    for artifact in "$work/$p/artifacts"/*; do
      [ -e "$artifact" ] || continue
      kind=$(basename "$artifact" | cut -d- -f1)
      cp "$artifact" "fuzz-$kind-$p.bin"
      echo "fuzz.sh: $p: $kind; the input is in fuzz-$kind-$p.bin" >&2
    done
    echo "fuzz.sh: $p failed (exit $status)" >&2
    failed=1
    continue
  fi
  echo "$p: ${runs:-0} inputs in ${each} s, ${cov:-cov: ?} edges, $found interesting inputs found"
  if [ "$update" = 1 ] && [ "$found" -gt 0 ]; then
    # libFuzzer's merge measures the edges each input reaches; the pick keeps the 8 new inputs
    # that add the most to the corpus's.
    mkdir -p "$work/$p/merged"
    SWELL_FUZZ_PARSER="$p" "$harness" -merge=1 -merge_control_file="$work/$p/control" \
      -max_len=4096 -timeout=10 -rss_limit_mb=2048 "$work/$p/merged" "Tests/Fuzz/Corpus/$p" \
      "$new" >"$log" 2>&1
    perl Scripts/fuzz-corpus-pick.pl "$work/$p/control" "Tests/Fuzz/Corpus/$p" 8 \
      | xargs -r cp -t "Tests/Fuzz/Corpus/$p/"
    echo "$p: corpus now $(find "Tests/Fuzz/Corpus/$p" -type f | wc -l) files"
  fi
done
echo "fuzz.sh: $(($(date +%s) - $start)) s in all"
exit "$failed"
