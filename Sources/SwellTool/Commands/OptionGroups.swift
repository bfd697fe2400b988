import SwellScenes

/// What several commands' help texts share (their option groups are in `Options/`).
enum SharedOptions {
  /// The built-in scene names, for help texts.
  static var sceneNames: String { BuiltInScenes.names.joined(separator: ", ") }
}
