// swift-tools-version:6.0
// A program that needs device motion only: it depends on the SwellMotion and SwellFiles products
// alone (motion, and its files cleaned up on Ctrl-C), so it compiles neither the renderer nor the
// live window and links neither Cairo nor SDL2.

import PackageDescription

let package = Package(
  name: "MotionOnly",
  dependencies: [.package(name: "Swell", path: "../..")],
  targets: [
    .executableTarget(
      name: "motion-only",
      dependencies: [
        .product(name: "SwellMotion", package: "Swell"),
        .product(name: "SwellFiles", package: "Swell"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
