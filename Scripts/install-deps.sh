#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Swell needs, skipping those already present, and prints
# what it installed.
#
# `programs` lists every program that the build, the tests, the demo and the docs check start,
# with the Debian package that provides it; `libraries` lists the C libraries the build links.
# Programs from Debian's essential or required packages (bash, sh, coreutils, grep, sed, perl,
# apt, ...) and from the Swift toolchain (swift, docc) need no entry. Scripts/check-programs.sh
# (run by Scripts/test.sh) fails when a test or script starts a program that is missing here,
# and the tests read this table to name the package when a program is absent.
set -euo pipefail

programs=(
  # program     Debian package
  "pkg-config   pkg-config"
  "git          git"
  "ffmpeg       ffmpeg"
  "ffprobe      ffmpeg"
  "xvfb-run     xvfb"
  "Xvfb         xvfb"
  "xauth        xauth"
  "pdfinfo      poppler-utils"
  "pdftoppm     poppler-utils"
  "rsvg-convert librsvg2-bin"
  "webpinfo     webp"
  "webpmux      webp"
  "dwebp        webp"
  "tmux         tmux"
  "xdotool      xdotool"
  "strip        binutils"
  "dpkg-shlibdeps dpkg-dev"
  "lintian      lintian"
  "man          man-db"
  "groff        groff-base"
  "zsh          zsh"
  "dbus-daemon  dbus-daemon"
  "fish         fish"
)
libraries=(libcairo2-dev libsdl2-dev zlib1g-dev libgtk-4-dev libdbus-1-dev)

if [ "${1:-}" = "--list-programs" ]; then
  # For Scripts/check-programs.sh and the tests: one "program package" line each.
  printf '%s\n' "${programs[@]}" | tr -s ' '
  exit 0
fi

packages=("${libraries[@]}")
for entry in "${programs[@]}"; do
  read -r _ package <<<"$entry"
  packages+=("$package")
done
mapfile -t packages < <(printf '%s\n' "${packages[@]}" | sort -u)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present: nothing installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
still=()
for p in "${missing[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || still+=("$p")
done
if [ ${#still[@]} -gt 0 ]; then
  echo "install-deps: apt-get did not install ${still[*]}" >&2
  exit 1
fi
echo "install-deps: installed ${missing[*]}"
