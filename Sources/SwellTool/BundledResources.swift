import Foundation

/// The files that ship with the tool (the bundled recording with its licence and notes; the
/// scenes are built in), found relative to the running binary.
///
/// `Bundle.module` is not used: it traps (SIGILL) when its bundle is gone, as it is for a copied
/// or installed binary. The folders searched, first match wins (`BIN` is the folder of the
/// running executable, symbolic links resolved):
/// 1. beside the binary: `BIN/NAME`;
/// 2. the installed share folder: `BIN/../share/swell/NAME` (`/usr/bin/swell` finds
///    `/usr/share/swell`; the Debian package and the tarball install this layout);
/// 3. the SwiftPM bundle beside the binary: `BIN/Swell_SwellTool.resources/Resources/NAME`
///    (what `swift build` writes next to `.build/debug/swell`).
///
/// A resource in none of them is a ``ToolError`` naming every folder searched.
enum BundledResources {
  /// The SwiftPM resource bundle's folder name (package `Swell`, target `SwellTool`).
  static let bundleName = "Swell_SwellTool.resources"

  /// The bundled phone recording (a Sensor Logger folder, with its licence and README).
  static let recordingName = "sensorlogger-ios-rotation"

  /// The folders searched for resources, in order.
  ///
  /// - Parameter binaryFolder: The folder of the running executable.
  /// - Returns: Beside the binary, the share folder, the SwiftPM bundle.
  static func searchFolders(binaryFolder: URL) -> [URL] {
    [
      binaryFolder,
      binaryFolder.appendingPathComponent("../share/swell").standardizedFileURL,
      binaryFolder.appendingPathComponent(bundleName).appendingPathComponent("Resources"),
    ]
  }

  /// Finds a bundled folder.
  ///
  /// - Parameters:
  ///   - name: The resource's folder name.
  ///   - what: How the error names it ("the bundled recording").
  ///   - binaryFolder: The folder of the running executable, or `nil` when unknown.
  ///   - isFolder: Whether a path is an existing folder (injected by tests).
  /// - Returns: The first match of ``searchFolders(binaryFolder:)``.
  /// - Throws: ``ToolError`` naming the folders searched when none holds it.
  static func locate(
    _ name: String, what: String, binaryFolder: URL?,
    isFolder: (String) -> Bool = BundledResources.isFolder
  ) throws -> URL {
    guard let binaryFolder else {
      throw ToolError("\(what) \(name) is missing: the running binary's folder is unknown")
    }
    let candidates = searchFolders(binaryFolder: binaryFolder).map {
      $0.appendingPathComponent(name)
    }
    if let found = candidates.first(where: { isFolder($0.path) }) { return found }
    let looked = candidates.map { $0.deletingLastPathComponent().path }
    throw ToolError(
      "\(what) \(name) is missing: looked in \(looked.dropLast().joined(separator: ", ")) and "
        + "\(looked[looked.count - 1])")
  }

  /// The bundled recording's folder, for the running binary.
  ///
  /// - Returns: Its URL.
  /// - Throws: ``ToolError`` naming the folders searched when it is missing.
  static func recording() throws -> URL {
    try locate(recordingName, what: "the bundled recording", binaryFolder: binaryFolder)
  }

  /// The folder of the running executable (from `/proc/self/exe`, so a symbolic link such as
  /// `/usr/local/bin/swell` leads to the installed tree), or `nil` when it cannot be read.
  static var binaryFolder: URL? {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return URL(fileURLWithPath: path).deletingLastPathComponent()
    }
    return Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
  }

  /// Whether `path` is an existing folder (following symbolic links).
  static func isFolder(_ path: String) -> Bool {
    var folder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
  }
}
