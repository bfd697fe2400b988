// swift-tools-version:6.0
// Swell: CoreMotion-style device motion, UIKit-style motion effects and the
// motion-reactive water wave, on Linux.

import PackageDescription

// MARK: - Targets

let package = Package(
  name: "Swell",
  products: [
    // MARK: Public API: one library per module, and the umbrella that imports them all
    .library(name: "SwellGeometry", targets: ["SwellGeometry"]),
    .library(name: "SwellTime", targets: ["SwellTime"]),
    .library(name: "SwellFiles", targets: ["SwellFiles"]),
    .library(name: "SwellMotion", targets: ["SwellMotion"]),
    .library(name: "SwellEvdev", targets: ["SwellEvdev"]),
    .library(name: "SwellRecordings", targets: ["SwellRecordings"]),
    .library(name: "SwellEvaluation", targets: ["SwellEvaluation"]),
    .library(name: "SwellSensors", targets: ["SwellSensors"]),
    .library(name: "SwellLayers", targets: ["SwellLayers"]),
    .library(name: "SwellEffects", targets: ["SwellEffects"]),
    .library(name: "SwellWaves", targets: ["SwellWaves"]),
    .library(name: "SwellCairo", targets: ["SwellCairo"]),
    .library(name: "SwellRender", targets: ["SwellRender"]),
    .library(name: "SwellScenes", targets: ["SwellScenes"]),
    .library(name: "SwellPlayback", targets: ["SwellPlayback"]),
    .library(name: "SwellLive", targets: ["SwellLive"]),
    .library(name: "SwellLiveLoop", targets: ["SwellLiveLoop"]),
    .library(name: "Swell", targets: ["Swell"]),
    .executable(name: "swell", targets: ["swell"]),
  ],
  targets: [
    // MARK: C libraries from Debian
    .systemLibrary(
      name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev"])]),
    .systemLibrary(
      name: "CSDL2", path: "Sources/CSDL2",
      providers: [.apt(["libsdl2-dev"])]),
    .systemLibrary(
      name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(
      name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1",
      providers: [.apt(["libdbus-1-dev"])]),

    // MARK: Pure modules
    .target(name: "SwellGeometry"),
    // The one injected clock type: monotonic seconds, and a manual clock for tests.
    .target(name: "SwellTime"),
    // Output paths, atomic replacement and the registry of unfinished files, shared by the
    // motion writers and the renderer's sinks (package access only: no public API).
    .target(name: "SwellFiles", dependencies: ["SwellTime"]),
    // The motion core: samples, device motion, fusion, the manager, sources, scripts.
    .target(name: "SwellMotion", dependencies: ["SwellGeometry", "SwellTime", "SwellFiles"]),
    // Linux evdev motion-sensor events: descriptions, decoding into samples, evemu recordings.
    .target(name: "SwellEvdev", dependencies: ["SwellGeometry", "SwellMotion"]),
    // Recording formats and archives (CSV, Sensor Logger, phyphox, evemu, zip through zlib).
    .target(
      name: "SwellRecordings",
      dependencies: [
        "SwellGeometry", "SwellTime", "SwellMotion", "SwellEvdev", "SwellFiles", "CZlib",
      ]),
    // The BROAD-style evaluation harness.
    .target(
      name: "SwellEvaluation", dependencies: ["SwellGeometry", "SwellMotion", "SwellRecordings"]),
    .target(name: "SwellLayers", dependencies: ["SwellGeometry", "SwellTime"]),
    .target(name: "SwellEffects", dependencies: ["SwellGeometry", "SwellMotion", "SwellLayers"]),
    .target(name: "SwellWaves", dependencies: ["SwellGeometry", "SwellMotion", "SwellLayers"]),
    .target(
      name: "SwellScenes",
      dependencies: [
        "SwellGeometry", "SwellTime", "SwellMotion", "SwellRecordings", "SwellLayers",
        "SwellEffects", "SwellWaves",
      ]),

    // MARK: Platform modules
    .target(
      name: "SwellSensors",
      dependencies: ["SwellGeometry", "SwellTime", "SwellMotion", "SwellEvdev"]),
    // The desktop's settings over D-Bus (the portal's Reduce Motion).
    .target(name: "SwellDesktop", dependencies: ["CDBus"]),
    .target(name: "SwellCairo", dependencies: ["CCairo"]),
    .target(
      name: "SwellRender",
      dependencies: [
        "SwellGeometry", "SwellTime", "SwellLayers", "SwellCairo", "SwellFiles", "CZlib",
      ]),
    // Headless playback: the scene player (drawing into caller-owned pixels), offline export
    // and trace; no window, no SDL.
    .target(
      name: "SwellPlayback",
      dependencies: [
        "SwellGeometry", "SwellMotion", "SwellLayers", "SwellScenes", "SwellCairo", "SwellRender",
      ]),
    // The live loop, its pacing, canvas and statistics: no SDL, any display.
    .target(
      name: "SwellLiveLoop",
      dependencies: ["SwellGeometry", "SwellTime", "SwellLayers", "SwellCairo", "SwellRender"]),
    .target(
      name: "SwellLive",
      dependencies: [
        "SwellGeometry", "SwellTime", "SwellMotion", "SwellLayers", "SwellScenes", "SwellCairo",
        "SwellRender", "SwellPlayback", "SwellLiveLoop", "CSDL2",
      ]),

    // MARK: The umbrella module
    .target(
      name: "Swell",
      dependencies: [
        "SwellGeometry", "SwellTime", "SwellFiles", "SwellMotion", "SwellEvdev", "SwellRecordings",
        "SwellEvaluation", "SwellSensors", "SwellLayers", "SwellEffects", "SwellWaves",
        "SwellCairo", "SwellRender", "SwellScenes", "SwellPlayback", "SwellLiveLoop", "SwellLive",
        "SwellDesktop",
      ]),

    // MARK: The command-line tool
    .target(name: "SwellCommandLine"),
    // The version number, and the git commit that the plugin writes before each build.
    .target(name: "SwellVersion", plugins: ["SwellBuildCommit"]),
    .plugin(name: "SwellBuildCommit", capability: .buildTool()),
    .target(
      name: "SwellBenchmarks",
      dependencies: [
        "SwellGeometry", "SwellTime", "SwellMotion", "SwellEvdev", "SwellLayers", "SwellWaves",
        "SwellCairo", "SwellRender", "SwellScenes",
      ]),
    .target(
      name: "SwellTool",
      dependencies: [
        "SwellGeometry", "SwellMotion", "SwellRecordings", "SwellEvaluation", "SwellSensors",
        "SwellLayers", "SwellEffects", "SwellWaves", "SwellRender", "SwellScenes", "SwellPlayback",
        "SwellLive", "SwellBenchmarks", "SwellCommandLine", "SwellVersion", "SwellEvdev",
        "SwellTime", "SwellFiles", "SwellDesktop",
      ],
      resources: [.copy("Resources")]),
    .executableTarget(name: "swell", dependencies: ["SwellTool"]),

    // MARK: Examples (built with the package, run by the tests; see Examples/README.md)
    .executableTarget(
      name: "motion-attitude", dependencies: ["SwellMotion", "SwellRecordings"],
      path: "Examples/motion-attitude"),
    .executableTarget(
      name: "custom-effect",
      dependencies: ["SwellEffects", "SwellGeometry", "SwellLayers", "SwellMotion"],
      path: "Examples/custom-effect"),
    .executableTarget(
      name: "waterwave-window", dependencies: ["SwellLive", "SwellScenes"],
      path: "Examples/waterwave-window"),
    .executableTarget(
      name: "progress-wave",
      dependencies: ["SwellGeometry", "SwellLayers", "SwellRender", "SwellWaves"],
      path: "Examples/progress-wave"),

    // MARK: Tests
    .target(
      name: "SwellTestSupport",
      dependencies: ["SwellGeometry", "SwellTime", "SwellMotion", "SwellEvaluation", "CDBus"],
      path: "Tests/SwellTestSupport"),
    .testTarget(name: "SwellGeometryTests", dependencies: ["SwellGeometry", "SwellTestSupport"]),
    .testTarget(name: "SwellTimeTests", dependencies: ["SwellTime"]),
    .testTarget(name: "SwellFilesTests", dependencies: ["SwellFiles"]),
    .testTarget(
      name: "SwellMotionTests",
      dependencies: [
        "SwellMotion", "SwellRecordings", "SwellEvaluation", "SwellTime", "SwellTestSupport",
      ]),
    .testTarget(
      name: "SwellRecordingsTests",
      dependencies: [
        "SwellRecordings", "SwellMotion", "SwellEvaluation", "SwellTime", "SwellTestSupport",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "SwellEvaluationTests",
      dependencies: [
        "SwellEvaluation", "SwellRecordings", "SwellMotion", "SwellTestSupport",
      ]),
    .testTarget(
      name: "SwellEvdevTests",
      dependencies: ["SwellEvdev", "SwellRecordings", "SwellTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "SwellSensorsTests",
      dependencies: [
        "SwellSensors", "SwellEvdev", "SwellRecordings", "SwellTime", "SwellTestSupport",
      ]),
    .testTarget(
      name: "SwellLayersTests", dependencies: ["SwellLayers", "SwellTime", "SwellTestSupport"]),
    .testTarget(
      name: "SwellEffectsTests", dependencies: ["SwellEffects", "SwellTestSupport"]),
    .testTarget(name: "SwellWavesTests", dependencies: ["SwellWaves", "SwellTestSupport"]),
    .testTarget(
      name: "SwellDesktopTests", dependencies: ["SwellDesktop", "SwellTestSupport"]),
    .testTarget(name: "SwellCairoTests", dependencies: ["SwellCairo", "SwellTestSupport"]),
    .testTarget(
      name: "SwellRenderTests", dependencies: ["SwellRender", "SwellTestSupport"]),
    .testTarget(
      name: "SwellPlaybackTests",
      dependencies: [
        "SwellPlayback", "SwellScenes", "SwellRender", "SwellWaves", "SwellMotion", "SwellLayers",
        "SwellGeometry", "SwellCairo", "SwellTestSupport",
      ]),
    .testTarget(
      name: "SwellLiveLoopTests",
      dependencies: ["SwellLiveLoop", "SwellGeometry", "SwellLayers", "SwellTime"]),
    .testTarget(
      name: "SwellLiveTests", dependencies: ["SwellLive", "SwellTime", "SwellTestSupport"]),
    .testTarget(
      name: "SwellScenesTests",
      dependencies: ["SwellScenes", "SwellRecordings", "SwellTime", "SwellTestSupport"]),
    .testTarget(
      name: "SwellToolTests", dependencies: ["SwellTool", "SwellRecordings", "SwellTestSupport"],
      exclude: ["Fixtures", "Help"]),
  ],
  swiftLanguageModes: [.v6]
)
