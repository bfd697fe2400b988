import Foundation

/// The files that ship with a tool, found relative to the running binary.
///
/// `Bundle.module` is not used: it traps (SIGILL) when its bundle is gone, as it is for a copied
/// or installed binary. The folders searched, first match wins (`BIN` is the folder of the
/// running executable, symbolic links resolved):
/// 1. beside the binary: `BIN/NAME`;
/// 2. the installed share folder: `BIN/../share/TOOL/NAME` (`/usr/bin/swell` finds
///    `/usr/share/swell`; a Debian package and a tarball install this layout);
/// 3. the SwiftPM bundle beside the binary: `BIN/BUNDLE/Resources/NAME`
///    (what `swift build` writes next to `.build/debug/TOOL`).
///
/// A resource in none of them is a ``ToolError`` naming every folder searched.
public struct ToolResources: Sendable {
  /// The tool's name: its share folder is `share/TOOL`.
  public var toolName: String
  /// The SwiftPM resource bundle's folder name (`PACKAGE_TARGET.resources`).
  public var bundleName: String

  /// Describes where a tool's resources are.
  ///
  /// - Parameters:
  ///   - toolName: The tool's name (`swell`).
  ///   - bundleName: The SwiftPM resource bundle's folder name.
  public init(toolName: String, bundleName: String) {
    self.toolName = toolName
    self.bundleName = bundleName
  }

  /// The folders searched for resources, in order.
  ///
  /// - Parameter binaryFolder: The folder of the running executable.
  /// - Returns: Beside the binary, the share folder, the SwiftPM bundle.
  public func searchFolders(binaryFolder: URL) -> [URL] {
    [
      binaryFolder,
      binaryFolder.appendingPathComponent("../share/\(toolName)").standardizedFileURL,
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
  public func locate(
    _ name: String, what: String, binaryFolder: URL? = ToolResources.binaryFolder,
    isFolder: (String) -> Bool = ToolResources.isFolder
  ) throws(ToolError) -> URL {
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

  /// The folder of the running executable (from `/proc/self/exe`, so a symbolic link such as
  /// `/usr/local/bin/swell` leads to the installed tree), or `nil` when it cannot be read.
  public static var binaryFolder: URL? {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return URL(fileURLWithPath: path).deletingLastPathComponent()
    }
    return Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
  }

  /// Whether `path` is an existing folder (following symbolic links).
  ///
  /// - Parameter path: The path.
  /// - Returns: True for a folder, or a link to one.
  public static func isFolder(_ path: String) -> Bool {
    var folder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
  }
}
