import Foundation

/// The files that ship with `swell`: the bundled recording with its licence and notes (the scenes
/// are built in), found beside the binary, in `../share/swell` or in the SwiftPM bundle
/// (``ToolResources``; `Bundle.module` traps when its bundle is gone).
enum BundledResources {
  /// Where `swell`'s resources are (package `Swell`, target `SwellTool`).
  static let files = ToolResources(toolName: "swell", bundleName: "Swell_SwellTool.resources")

  /// The bundled recording's folder (a Sensor Logger export), for the running binary.
  ///
  /// - Returns: Its URL.
  /// - Throws: ``ToolError`` naming the folders searched when it is missing.
  static func recording() throws -> URL {
    try files.locate("sensorlogger-ios-rotation", what: "the bundled recording")
  }
}
