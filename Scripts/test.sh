#!/usr/bin/env bash
# Installs what is missing, checks formatting, builds with warnings as errors and runs every
# test (under a virtual X display, so the SDL window tests run too).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
echo "== every program the tests and scripts start is installed by install-deps.sh"
perl Scripts/check-programs.pl
echo "== the module picture: imports go down docs/architecture.md's table, as Package.swift declares"
perl Scripts/check-modules.pl
echo "== swift format lint --strict"
git ls-files '*.swift' | xargs swift format lint --strict --parallel
echo "== swift build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors
# The tests run the built tool and examples: make sure they are linked too.
swift build -Xswiftc -warnings-as-errors
echo "== examples: a program that depends only on the SwellMotion product"
# It builds the package's motion modules in a package of its own, and must link neither SDL2,
# Cairo nor zlib (the other examples are targets of this package, run by ExamplesTests).
swift build --package-path Examples/MotionOnly -Xswiftc -warnings-as-errors
Examples/MotionOnly/.build/debug/motion-only
if ldd Examples/MotionOnly/.build/debug/motion-only | grep -E "libSDL2|libcairo|libz\.so"; then
  echo "test.sh: the motion-only example links SDL2, Cairo or zlib" >&2
  exit 1
fi
# Ctrl-C cleanup without the renderer: SIGINT while a file is being written leaves nothing.
motion_out=$(mktemp -d)
status=0
Examples/MotionOnly/.build/debug/motion-only --interrupt-while-writing "$motion_out" || status=$?
if [ "$status" -ne 130 ] || [ -n "$(ls -A "$motion_out")" ]; then
  echo "test.sh: motion-only's SIGINT cleanup: exit $status, left: $(ls -A "$motion_out")" >&2
  exit 1
fi
rm -rf "$motion_out"
echo "== examples: a host with a display of its own runs the live loop (SwellLiveLoop alone)"
# Examples/LoopOnly runs LiveLoop on its own display and manual clock: it must link no SDL2.
swift build --package-path Examples/LoopOnly -Xswiftc -warnings-as-errors
Examples/LoopOnly/.build/debug/loop-only | tee /dev/stderr | grep -q "frames drawn: 120"
if ldd Examples/LoopOnly/.build/debug/loop-only | grep -E "libSDL2"; then
  echo "test.sh: the loop-only example links SDL2" >&2
  exit 1
fi
echo "== examples: Swell inside a GTK 4 window (Examples/gtk-waterwave)"
# GTK owns the window and the loop; the water is drawn through SwellPlayback into GTK's Cairo
# context. GSK's Cairo renderer: under Xvfb OpenGL is a software rasterizer.
swift build --package-path Examples/gtk-waterwave -Xswiftc -warnings-as-errors
gtk_shot=$(mktemp -d)
GSK_RENDERER=cairo xvfb-run -a Examples/gtk-waterwave/.build/debug/gtk-waterwave \
  --frames 120 --screenshot "$gtk_shot/gtk-waterwave.png"
test -s "$gtk_shot/gtk-waterwave.png"
# On a fixed timeline (1/60 s a tick) under scripted motion, the 60th frame is the PNG that
# `swell render` writes for the same size, time and motion, byte for byte.
gtk_script="hold 0.3s; tilt 30deg right over 0.5s; shake x 3Hz 2rad/s for 0.6s"
GSK_RENDERER=cairo xvfb-run -a Examples/gtk-waterwave/.build/debug/gtk-waterwave \
  --frames 60 --fps 60 --size 200x360 --script "$gtk_script" --screenshot "$gtk_shot/gtk.png"
.build/debug/swell render waterwave --script "$gtk_script" --size 200x360@1 --fps 60 \
  --time 0.9833 -o "$gtk_shot/render.png"
cmp "$gtk_shot/gtk.png" "$gtk_shot/render.png"
rm -rf "$gtk_shot"
echo "== docs (DocC, warnings are errors)"
bash Scripts/check-docs.sh
echo "== fuzz (libFuzzer, coverage-guided, under AddressSanitizer: every parser, 150 s in all)"
# The 150 s include building the harness (Tests/Fuzz, instrumented); the parsers share the rest.
bash Scripts/fuzz.sh --seconds 150
echo "== package: the static-runtime .deb and tarball, run without a Swift toolchain"
# Builds Scripts/package.sh's release binary, runs lintian, extracts the .deb with dpkg-deb -x
# and runs the extracted swell with the toolchain removed from PATH and LD_LIBRARY_PATH.
bash Scripts/check-package.sh
echo "== swift test"
# A hung test must fail the run, not stall CI: the whole suite normally takes about a minute.
# The sensor tests (real sockets, FIFOs and reader threads with wall-clock timeouts) run in a
# second pass of their own, so the CPU-heavy rendering and fusion tests cannot starve them.
# The tests that drive a live window with keys (xdotool) or a terminal (tmux) join that second
# pass too: they wait for windows and keys in real time; so do `swell serve dsu` and the sensor
# doctor (a DSU server and the tool over loopback).
timed="SwellSensorsTests|LiveWindowToolTests|LiveTerminalToolTests|ServeCommandTests|SensorsCommandTests|EvdevToolTests|ReduceMotionToolTests"
timeout 1200 xvfb-run -a -s "-screen 0 1280x1024x24" swift test --skip-build --skip "$timed"
timeout 600 xvfb-run -a -s "-screen 0 1280x1024x24" swift test --skip-build --filter "$timed"
