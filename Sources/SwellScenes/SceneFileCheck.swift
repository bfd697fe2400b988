import Foundation

/// A scene file read and checked (`swell scene check`): the scene, the keys it has that the
/// format does not know, and a one-line description.
public struct SceneFileCheck {
  /// The scene the file describes.
  public let scene: FileScene
  /// The file's keys the format does not know (JSON paths, in the file's order).
  public let unknownKeys: [String]

  /// Reads and checks a scene file.
  ///
  /// - Parameter url: The scene file.
  /// - Throws: ``SceneFileError`` for a file that is not a valid scene.
  public init(contentsOf url: URL) throws {
    self.init(scene: try FileScene(contentsOf: url), contentsOf: url)
  }

  /// Checks a scene already read from a file for keys the format does not know.
  ///
  /// - Parameters:
  ///   - scene: The scene read from `url`.
  ///   - url: Its file (read again for its keys; an unreadable file has none).
  public init(scene: FileScene, contentsOf url: URL) {
    self.scene = scene
    let data = (try? Data(contentsOf: url)) ?? Data()
    unknownKeys = SceneFile.unknownKeys(in: data, decoded: scene.file)
  }

  /// The unknown keys as one line (up to five named), `nil` when there are none.
  ///
  /// - Parameter name: How the line names the file (the path as given).
  /// - Returns: `NAME: 2 unknown keys: a, b.c`, without a line break.
  public func unknownKeysText(name: String) -> String? {
    guard !unknownKeys.isEmpty else { return nil }
    let list =
      unknownKeys.prefix(5).joined(separator: ", ") + (unknownKeys.count > 5 ? ", ..." : "")
    return "\(name): \(unknownKeys.count) unknown key\(unknownKeys.count == 1 ? "" : "s"): \(list)"
  }

  /// The scene in one line: its name, size in points, scale, and how many layers, water layers
  /// and layers with motion effects it has.
  ///
  /// - Parameter name: How the line names the file (the path as given).
  /// - Returns: The line, without a line break.
  public func summary(name: String) -> String {
    let layers = scene.root.allLayers.count - 1
    return "\(name): scene '\(scene.name)', \(Int(scene.size.width))x\(Int(scene.size.height)) "
      + "points @\(scene.scale)x, \(layers) layer\(layers == 1 ? "" : "s"), "
      + "\(scene.waterLayers.count + scene.waterBodyLayers.count) water, "
      + "\(scene.effectLayers.count) with motion effects"
  }
}
