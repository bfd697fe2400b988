#!/usr/bin/env bash
# Builds the release `swell` with the Swift runtime linked statically and packages it for
# machines without a Swift toolchain:
#
#   dist/swell_VERSION_amd64.deb               a Debian package (dpkg-deb)
#   dist/swell-VERSION-linux-x86_64.tar.gz     the same files under swell-VERSION-linux-x86_64/
#                                              (bin/, share/: unpack into a prefix such as
#                                              /usr/local with --strip-components=1)
#
#   bash Scripts/package.sh [--out DIR]
#
# VERSION is the one in Sources/SwellVersion (read back from the built binary's --version).
# Installed files:
#   usr/bin/swell                                   the binary (stripped)
#   usr/share/swell/<resource>/                     the folders of Sources/SwellTool/Resources
#                                                   (the bundled recording with its licence)
#   usr/share/doc/swell/copyright, changelog.gz
#   usr/share/man/man1/swell.1.gz                   from `swell man`, when the binary has it
#   usr/share/bash-completion/completions/swell     from `swell completion bash|zsh|fish`,
#   usr/share/zsh/vendor-completions/_swell           when the binary has it
#   usr/share/fish/vendor_completions.d/swell.fish
#   usr/share/lintian/overrides/swell               the explained lintian findings
# Depends: is computed from the binary by dpkg-shlibdeps (the Debian libraries it links);
# the script fails when the binary links a Swift runtime library. Needs dpkg-dev (dpkg-deb,
# dpkg-shlibdeps), binutils (strip) and git for the changelog date (all in install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022

out=dist
while [ "$#" -gt 0 ]; do
  case "$1" in
    --out)
      out="$2"
      shift 2
      ;;
    *)
      echo "package.sh: unknown argument '$1' (usage: Scripts/package.sh [--out DIR])" >&2
      exit 64
      ;;
  esac
done
mkdir -p "$out"
out="$(cd "$out" && pwd -P)"

# Its own build folder: the static-runtime flags would otherwise rebuild .build/release.
scratch=.build/package
# -z now: every symbol bound at start, so the GOT can be read-only (lintian: hardening-no-bindnow).
build=(swift build -c release --product swell --static-swift-stdlib --scratch-path "$scratch"
  -Xlinker -z -Xlinker now)
echo "== ${build[*]}"
started=$SECONDS
"${build[@]}"
echo "package.sh: release build took $((SECONDS - started)) s"
binary="$("${build[@]}" --show-bin-path)/swell"

echo "== the binary links no Swift runtime library"
# The libraries of the toolchain (lib/swift/linux): with --static-swift-stdlib none is loaded.
swift_runtime='libswift|libFoundation|lib_Foundation|libdispatch\.so|libBlocksRuntime|libXCTest|libTesting'
if ldd "$binary" | grep -E "$swift_runtime"; then
  echo "package.sh: $binary links the Swift runtime dynamically (above): not packageable" >&2
  exit 1
fi

version_line="$("$binary" --version)"
version="$(printf '%s\n' "$version_line" | awk '{ print $2 }')"
if ! printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$'; then
  echo "package.sh: '$binary --version' printed '$version_line', not 'swell MAJOR.MINOR.PATCH'" >&2
  exit 1
fi
echo "package.sh: $version_line"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="$work/swell_${version}_amd64"
mkdir -p "$stage/DEBIAN"

# Timestamps from the commit (reproducible archives), else now.
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
export SOURCE_DATE_EPOCH

echo "== staging usr/"
install -D -m 0755 "$binary" "$stage/usr/bin/swell"
# As dh_strip does: the symbol table and debug sections go (Swift's metadata sections stay).
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$stage/usr/bin/swell"
share="$stage/usr/share/swell"
mkdir -p "$share"
for resource in Sources/SwellTool/Resources/*/; do
  cp -R "$resource" "$share/"
done
doc="$stage/usr/share/doc/swell"
mkdir -p "$doc"
recording_licence=Sources/SwellTool/Resources/sensorlogger-ios-rotation/LICENSE-MIT.txt
{
  echo "Swell: motion-driven interface effects of iOS on Linux (the swell command-line tool)"
  echo
  echo "Files: usr/bin/swell"
  grep -m1 '^Copyright' LICENSE
  echo "License: MIT (the LICENSE file of the Swell repository)"
  sed -e 's/^/ /' -e 's/^ $/ ./' LICENSE
  echo
  echo "Files: usr/share/swell/sensorlogger-ios-rotation/*"
  echo "A real iPhone Sensor Logger recording, the motion of the \"swell demo\" command."
  grep -m1 '^Copyright' "$recording_licence"
  echo "License: MIT (also in usr/share/swell/sensorlogger-ios-rotation/LICENSE-MIT.txt)"
  sed -e 's/^/ /' -e 's/^ $/ ./' "$recording_licence"
} >"$doc/copyright"
maintainer="${SWELL_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || true)}"
maintainer="${maintainer:-Swell maintainers <swell@localhost.invalid>}"
commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo "an unknown commit")"
{
  echo "swell ($version) unstable; urgency=medium"
  echo
  echo "  * Built by Scripts/package.sh from commit $commit."
  echo
  echo " -- $maintainer  $(date -R -u -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.gz" # a native package (no Debian revision): changelog.gz

# Generated by the binary itself from its option declarations (`swell manpage`,
# `swell completion SHELL`), so they cannot drift from what the tool accepts.
generate() { # generate FILE ARGS...: the binary's output into FILE
  local file="$1" status=0
  shift
  mkdir -p "$(dirname "$file")"
  "$stage/usr/bin/swell" "$@" >"$file" 2>"$work/generate.err" || status=$?
  if [ "$status" -ne 0 ] || [ ! -s "$file" ]; then
    echo "package.sh: 'swell $*' failed (exit $status):" >&2
    cat "$work/generate.err" >&2
    exit 1
  fi
}
generate "$stage/usr/share/man/man1/swell.1" manpage
gzip -9n "$stage/usr/share/man/man1/swell.1"
generate "$stage/usr/share/bash-completion/completions/swell" completion bash
generate "$stage/usr/share/zsh/vendor-completions/_swell" completion zsh
generate "$stage/usr/share/fish/vendor_completions.d/swell.fish" completion fish
find "$stage/usr/share" -type d -empty -delete

overrides="$stage/usr/share/lintian/overrides/swell"
mkdir -p "$(dirname "$overrides")"
# Each override with its reason; the other findings are info-level and explained in
# Scripts/check-package.sh.
{
  echo "# The licence and notes of the recording travel with it, as its licence asks; swell reads"
  echo "# the folder as data (the copyright file holds the same licence text)."
  echo "swell: package-contains-documentation-outside-usr-share-doc [usr/share/swell/*]"
} >"$overrides"

echo "== DEBIAN/control (Depends: from dpkg-shlibdeps)"
# dpkg-shlibdeps wants a debian/control of a source package: a minimal one in a folder of its own.
mkdir -p "$work/shlibs/debian"
printf 'Source: swell\n\nPackage: swell\nArchitecture: any\n' >"$work/shlibs/debian/control"
if ! (cd "$work/shlibs" && dpkg-shlibdeps -O -e"$stage/usr/bin/swell") >"$work/shlibdeps.out" \
  2>"$work/shlibdeps.err"; then
  cat "$work/shlibdeps.err" >&2
  exit 1
fi
depends="$(sed -n 's/^shlibs:Depends=//p' "$work/shlibdeps.out")"
if [ -z "$depends" ]; then
  echo "package.sh: dpkg-shlibdeps found no dependencies:" >&2
  cat "$work/shlibdeps.err" >&2
  exit 1
fi
echo "Depends: $depends"
installed_size="$(du -sk --apparent-size "$stage/usr" | cut -f1)"
cat >"$stage/DEBIAN/control" <<EOF
Package: swell
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: ffmpeg
Suggests: bash-completion
Section: graphics
Priority: optional
Description: motion-driven interface effects of iOS on Linux
 swell renders and shows CoreMotion-style device motion and UIKit-style
 motion effects on Linux: the motion-reactive water wave of the WaterWave
 demo, parallax and tilt effects, and scenes described in JSON. It fuses
 raw phone or Linux IIO sensor recordings into device motion, plays scenes
 live in an SDL2 window or a terminal, and exports PNG, SVG and PDF frames
 and MP4, GIF or WebP video (video export runs ffmpeg).
 .
 The package ships a real iPhone recording for the "swell demo" command.
EOF
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

deb="$out/swell_${version}_amd64.deb"
echo "== dpkg-deb --build"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb"

tarball="$out/swell-$version-linux-x86_64.tar.gz"
echo "== $tarball"
tree="$work/swell-$version-linux-x86_64"
mkdir -p "$tree"
cp -a "$stage/usr/." "$tree/"
rm -rf "$tree/share/lintian"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
  -C "$work" -cf - "swell-$version-linux-x86_64" | gzip -6n >"$tarball" # -9 saves 0.4 %, 2.5x the time

echo "package.sh: wrote $deb ($(du -h "$deb" | cut -f1)) and $tarball ($(du -h "$tarball" | cut -f1))"
echo "package.sh: total $((SECONDS - started)) s"
