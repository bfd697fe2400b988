#!/usr/bin/env bash
# Builds the DocC documentation of every module that has a catalog
# (Sources/<Module>/Documentation.docc) and fails on any DocC warning: a broken ``symbol`` link, a
# Topics entry that names no symbol, a parameter documented under the wrong name.
#
#   Scripts/check-docs.sh                 every module with a catalog
#   Scripts/check-docs.sh SwellMotion ... only these modules
#
# One `swift package dump-symbol-graph` (one debug build, with the same flags as Scripts/test.sh so
# it reuses that build) writes every module's symbol graph; then `docc convert` runs once per module
# on that module's graphs only (its own file plus its `Module@Other` extension files), offline,
# all modules at once.
# Links to symbols of another module cannot be resolved by a per-module build: write them in single
# backticks (`Layer`), and keep double-backtick links (``Layer``) for the module's own symbols.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -gt 0 ]; then
  modules=("$@")
else
  modules=()
  for catalog in Sources/*/Documentation.docc; do
    [ -d "$catalog" ] || continue
    module="${catalog#Sources/}"
    modules+=("${module%/Documentation.docc}")
  done
fi
if [ "${#modules[@]}" -eq 0 ]; then
  echo "check-docs: no Sources/*/Documentation.docc catalog found" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
touch "$work/stamp"

echo "== swift package dump-symbol-graph"
# The dump also tries the test modules and exits non-zero when they are not built; that is not a
# docs failure, so the status is ignored here and each module's own graph is checked below.
swift package -Xswiftc -warnings-as-errors dump-symbol-graph --emit-extension-block-symbols \
  >"$work/dump.log" 2>&1 || true
graphs="$(sed -n 's/^Files written to //p' "$work/dump.log" | tail -n 1)"
if [ -z "$graphs" ] || [ ! -d "$graphs" ]; then
  grep -E "error:" "$work/dump.log" >&2 || tail -n 20 "$work/dump.log" >&2
  echo "check-docs: swift package dump-symbol-graph wrote no symbol graphs" >&2
  exit 1
fi

failed=()
pids=()
started=()
for module in "${modules[@]}"; do
  catalog="Sources/$module/Documentation.docc"
  if [ ! -d "$catalog" ]; then
    echo "check-docs: $catalog does not exist" >&2
    failed+=("$module")
    continue
  fi
  if [ ! "$graphs/$module.symbols.json" -nt "$work/stamp" ]; then
    grep -E "error:.*'$module'" "$work/dump.log" >&2 || true
    echo "check-docs: no fresh symbol graph for $module in $graphs" >&2
    failed+=("$module")
    continue
  fi
  mkdir -p "$work/graphs/$module"
  # Only this dump's files: a graph left over from an older build must not be documented.
  find "$graphs" -maxdepth 1 -newer "$work/stamp" \
    \( -name "$module.symbols.json" -o -name "$module@*.symbols.json" \) \
    -exec cp {} "$work/graphs/$module/" \;
  echo "== docc convert $module"
  # docc spends most of its time waiting rather than computing, so the modules run side by side
  # (about 5 s for all of them instead of 2-4 s each).
  docc convert "$catalog" \
    --additional-symbol-graph-dir "$work/graphs/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "swell.$module" \
    --output-path "$work/$module.doccarchive" \
    --warnings-as-errors >"$work/$module.log" 2>&1 &
  pids+=("$!")
  started+=("$module")
done
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    cat "$work/${started[$i]}.log" >&2
    failed+=("${started[$i]}")
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "check-docs: documentation has errors in: ${failed[*]}" >&2
  exit 1
fi
echo "check-docs: ${#modules[@]} module(s) documented without warnings: ${modules[*]}"
