#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Swell needs, skipping those already present.
set -euo pipefail
packages=(
  libcairo2-dev libsdl2-dev pkg-config ffmpeg xvfb xauth
  poppler-utils librsvg2-bin webp tmux imagemagick
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
