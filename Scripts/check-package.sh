#!/usr/bin/env bash
# Checks the Debian package as a user without a Swift toolchain gets it: builds it with
# Scripts/package.sh (or takes a built .deb), runs lintian, extracts it with `dpkg-deb -x` into a
# temporary root and runs the extracted `swell` with the Swift toolchain removed from PATH and
# LD_LIBRARY_PATH: --version, `render waterwave` to MP4 (ffprobe reads it back), `fuse` on the
# installed recording (header and rows checked), `demo` to MP4 offline; then the same binary
# from the tarball, and with its share folder gone (one line, exit 1).
#
#   bash Scripts/check-package.sh                 build with Scripts/package.sh, then check
#   bash Scripts/check-package.sh DEB [TARBALL]   check built files
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() {
  echo "check-package: $*" >&2
  exit 1
}

if [ "$#" -gt 0 ]; then
  deb="$(readlink -f "$1")"
  tarball="${2:+$(readlink -f "$2")}"
else
  bash Scripts/package.sh --out "$work/dist"
  deb="$(echo "$work"/dist/swell_*_amd64.deb)"
  tarball="$(echo "$work"/dist/swell-*-linux-x86_64.tar.gz)"
fi
[ -f "$deb" ] || fail "no package at $deb"

echo "== lintian $deb"
# Findings that the package cannot fix are overridden, with the reason, in
# usr/share/lintian/overrides/swell (Scripts/package.sh); any other warning or error fails.
# Two info-level findings remain, both from the statically linked Swift runtime:
# hardening-no-fortify-functions (Swift calls libc without the _chk wrappers that C's
# _FORTIFY_SOURCE adds; Swell compiles no C) and spelling-error-in-binary (strings of ICU,
# Foundation and the regex parser inside the runtime, not Swell's own).
lintian --fail-on error,warning --display-info --tag-display-limit 0 "$deb"

echo "== dpkg-deb -x into a temporary root"
root="$work/root"
dpkg-deb -x "$deb" "$root"
swell="$root/usr/bin/swell"
[ -x "$swell" ] || fail "the package has no usr/bin/swell"
(cd "$root/usr" && find . -path ./share/lintian -prune -o -type f -print | sort) >"$work/deb-files.txt"

# The environment of a machine without Swift: the toolchain's folder (the one holding the real
# `swift`, and everything under its parent, such as usr/lib/swift) is dropped from PATH and
# LD_LIBRARY_PATH, and nothing else of this shell's environment is passed on.
without_toolchain() { # without_toolchain LIST: the ':' list without entries under the toolchain
  local entry kept=()
  IFS=: read -r -a entries <<<"$1"
  for entry in "${entries[@]}"; do
    [ -n "$entry" ] || continue
    if [ -n "$toolchain" ] && case "$(readlink -f "$entry" 2>/dev/null || echo "$entry")/" in
      "$toolchain"/*) true ;; *) false ;; esac; then
      continue
    fi
    kept+=("$entry")
  done
  (IFS=:; echo "${kept[*]}")
}
toolchain=""
if command -v swift >/dev/null 2>&1; then
  toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
fi
clean_path="$(without_toolchain "$PATH")"
clean_library_path="$(without_toolchain "${LD_LIBRARY_PATH:-}")"
mkdir -p "$work/home"
run_clean() { # run_clean PROGRAM ARGS...: in the environment above
  env -i HOME="$work/home" PATH="$clean_path" LANG=C.UTF-8 \
    ${clean_library_path:+LD_LIBRARY_PATH="$clean_library_path"} "$@"
}
echo "toolchain removed: ${toolchain:-(no swift on PATH)}"
echo "PATH=$clean_path"
if run_clean sh -c 'command -v swift' >/dev/null; then
  fail "swift is still on the cleaned PATH"
fi
echo "== ldd (no Swift runtime, nothing missing)"
run_clean ldd "$swell" >"$work/ldd.txt"
echo "$(wc -l <"$work/ldd.txt") libraries, all from the system"
if grep -E 'libswift|libFoundation|lib_Foundation|libdispatch\.so|libBlocksRuntime' "$work/ldd.txt"; then
  fail "the packaged binary links a Swift runtime library"
fi
if grep -q "not found" "$work/ldd.txt"; then fail "a library of the packaged binary is missing"; fi

echo "== control fields"
# The completions need bash-completion to be loaded; the package suggests it (and ffmpeg, which
# the video formats need, is recommended).
[ "$(dpkg-deb -f "$deb" Suggests)" = "bash-completion" ] || fail "the package does not suggest bash-completion"
[ "$(dpkg-deb -f "$deb" Recommends)" = "ffmpeg" ] || fail "the package does not recommend ffmpeg"
echo "Suggests: bash-completion, Recommends: ffmpeg"

echo "== swell --version"
version="$(dpkg-deb -f "$deb" Version)"
run_clean "$swell" --version >"$work/version.txt"
cat "$work/version.txt"
[ "$(wc -l <"$work/version.txt")" -eq 1 ] || fail "--version printed more than one line"
grep -Eq "^swell $version( \(commit [0-9a-f]{12}(-dirty)?\))?\$" "$work/version.txt" ||
  fail "--version does not name the version $version of the package"

echo "== the man page and completions"
page="$root/usr/share/man/man1/swell.1.gz"
[ -f "$page" ] || fail "no man page in the package"
MANWIDTH=80 man --warnings -l "$page" >/dev/null 2>"$work/man.err"
if [ -s "$work/man.err" ]; then
  cat "$work/man.err" >&2
  fail "man reports warnings for swell.1"
fi
for completion in "$root/usr/share/bash-completion/completions/swell" \
  "$root/usr/share/zsh/vendor-completions/_swell" \
  "$root/usr/share/fish/vendor_completions.d/swell.fish"; do
  [ -s "$completion" ] || fail "no completion script ${completion#"$root"/} in the package"
done
bash -n "$root/usr/share/bash-completion/completions/swell" ||
  fail "the bash completion does not parse"
zsh -n "$root/usr/share/zsh/vendor-completions/_swell" || fail "the zsh completion does not parse"
fish -n "$root/usr/share/fish/vendor_completions.d/swell.fish" ||
  fail "the fish completion does not parse"

echo "== swell render waterwave to MP4"
run_clean "$swell" render waterwave --duration 1 --fps 30 --size 200x432@1 -o "$work/wave.mp4"
probe() { # probe FILE: codec,width,height,frames of the first video stream
  ffprobe -v error -select_streams v:0 -count_frames \
    -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$1"
}
[ "$(probe "$work/wave.mp4")" = "h264,200,432,30" ] ||
  fail "render: ffprobe reads '$(probe "$work/wave.mp4")', not h264,200,432,30"

echo "== swell fuse the installed recording"
recording="$root/usr/share/swell/sensorlogger-ios-rotation"
[ -f "$recording/LICENSE-MIT.txt" ] || fail "the licence of the recording is not installed"
run_clean "$swell" fuse "$recording" -o "$work/motion.csv"
header="time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x,gravity.y,gravity.z"
header+=",userAcceleration.x,userAcceleration.y,userAcceleration.z"
header+=",rotationRate.x,rotationRate.y,rotationRate.z"
[ "$(grep -v '^#' "$work/motion.csv" | head -1)" = "$header" ] || fail "fuse: wrong CSV header"
rows="$(grep -v '^#' "$work/motion.csv" | tail -n +2 | awk -F, 'NF == 14' | wc -l)"
[ "$rows" -eq 2704 ] || fail "fuse: $rows rows of 14 fields, expected 2704"

echo "== swell demo to MP4 (offline, no display; the recording found in ../share/swell)"
run_clean "$swell" demo --file --duration 1 --fps 10 --size 100x216@1 -o "$work/demo.mp4"
[ "$(probe "$work/demo.mp4")" = "h264,100,216,10" ] || fail "demo: ffprobe reads '$(probe "$work/demo.mp4")'"

echo "== the share folder gone: one line, exit 1"
mv "$root/usr/share/swell" "$work/share-away"
status=0
run_clean "$swell" demo --file --duration 1 -o "$work/none.mp4" 2>"$work/missing.txt" || status=$?
cat "$work/missing.txt"
[ "$status" -eq 1 ] || fail "demo without the share folder exited $status, not 1"
[ "$(wc -l <"$work/missing.txt")" -eq 1 ] || fail "demo without the share folder: not one line"
grep -q "$root/usr/share/swell" "$work/missing.txt" || fail "the error does not name the share folder"

if [ -n "$tarball" ]; then
  echo "== the tarball: the same files, bin/ and share/ under one folder"
  mkdir -p "$work/prefix"
  tar -xzf "$tarball" -C "$work/prefix" --strip-components=1
  (cd "$work/prefix" && find . -type f -print | sort) >"$work/tar-files.txt"
  diff "$work/deb-files.txt" "$work/tar-files.txt" ||
    fail "the tarball's files (>) differ from the package's usr/ (<)"
  cmp "$work/prefix/bin/swell" "$swell" || fail "the tarball's binary differs from the package's"
  run_clean "$work/prefix/bin/swell" demo --file --duration 0.5 --fps 10 --size 100x216@1 \
    -o "$work/tar-demo.mp4"
  [ "$(probe "$work/tar-demo.mp4")" = "h264,100,216,5" ] || fail "demo from the tarball failed"
fi

echo "check-package: all checks passed in $((SECONDS - started)) s"
