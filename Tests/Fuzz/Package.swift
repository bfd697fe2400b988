// swift-tools-version:6.0
// Swell's libFuzzer harness: one executable, `swell-fuzz`, that hands every input libFuzzer makes
// to the parser named by the SWELL_FUZZ_PARSER environment variable. It is a package of its own so
// that the root package's build never links libFuzzer; `Scripts/fuzz.sh` builds it with
// `-sanitize=fuzzer,address`, which instruments the package's parsers too.

import PackageDescription

let package = Package(
  name: "SwellFuzz",
  dependencies: [.package(name: "Swell", path: "../..")],
  targets: [
    .executableTarget(
      name: "swell-fuzz",
      dependencies: [
        .product(name: "SwellGeometry", package: "Swell"),
        .product(name: "SwellMotion", package: "Swell"),
        .product(name: "SwellEvdev", package: "Swell"),
        .product(name: "SwellRecordings", package: "Swell"),
        .product(name: "SwellScenes", package: "Swell"),
        .product(name: "SwellSensors", package: "Swell"), "CLibFuzzer",
      ],
      path: "Harness"),
    // libFuzzer's entry point, declared for Swift (the library comes with -sanitize=fuzzer).
    .systemLibrary(name: "CLibFuzzer", path: "CLibFuzzer"),
  ],
  swiftLanguageModes: [.v6]
)
