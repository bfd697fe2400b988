// swift-tools-version:6.0
// A host with a display of its own: it depends on the SwellLiveLoop product alone, so it runs
// Swell's live loop (pacing, HUD, statistics) without SDL2 linked.

import PackageDescription

let package = Package(
  name: "LoopOnly",
  dependencies: [.package(name: "Swell", path: "../..")],
  targets: [
    .executableTarget(
      name: "loop-only",
      dependencies: [.product(name: "SwellLiveLoop", package: "Swell")])
  ],
  swiftLanguageModes: [.v6]
)
