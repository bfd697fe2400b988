// swift-tools-version:6.0
// Swell inside a GTK 4 program: a GtkDrawingArea whose draw function draws the water wave through
// SwellPlayback's ScenePlayer into GTK's own Cairo context, ticked by GTK's frame clock, tilted
// with the arrow keys. Swell owns neither the window nor the loop.

import PackageDescription

let package = Package(
  name: "GtkWaterwave",
  dependencies: [.package(name: "Swell", path: "../..")],
  targets: [
    .systemLibrary(
      name: "CGtk4", path: "Sources/CGtk4", pkgConfig: "gtk4",
      providers: [.apt(["libgtk-4-dev"])]),
    .executableTarget(
      name: "gtk-waterwave",
      dependencies: [
        "CGtk4",
        .product(name: "SwellMotion", package: "Swell"),
        .product(name: "SwellPlayback", package: "Swell"),
        .product(name: "SwellScenes", package: "Swell"),
        .product(name: "SwellRender", package: "Swell"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
