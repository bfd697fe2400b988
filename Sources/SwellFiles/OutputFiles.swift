import Foundation

/// The temporary files of the outputs this process is writing (every Swell writer's: frames,
/// videos, traces, recordings, device motion, and any ``AtomicOutput`` of the program's own),
/// and the encoder processes writing them: the registry a signal handler empties, so an
/// interrupted program leaves no hidden `.NAME.swell-PID-*.tmp` behind. A program that writes
/// only motion files gets this cleanup without linking Cairo or SDL:
///
/// ```swift
/// import SwellFiles
///
/// OutputFiles.installSignalCleanup(programName: "my-recorder")
/// ```
public enum OutputFiles {
  /// Removes the temporary file of every output in progress in this process (for a signal
  /// handler: an interrupted render leaves no hidden `.NAME.swell-PID-*.tmp` behind), after
  /// killing the encoder processes writing them. Safe to call from any thread; the writers'
  /// later writes fail.
  public static func removeUnfinishedFiles() { UnfinishedOutputs.removeAll() }

  /// Adds a temporary file of the program's own to the registry: removed by
  /// ``removeUnfinishedFiles()`` (and so on `SIGINT`/`SIGTERM` once
  /// ``installSignalCleanup(programName:)`` ran) until ``forget(temporaryFile:)``.
  /// ``AtomicOutput`` registers its own files.
  ///
  /// - Parameter path: The temporary file's path.
  public static func register(temporaryFile path: String) { UnfinishedOutputs.insert(path) }

  /// Takes a temporary file out of the registry (it was renamed into place or removed).
  ///
  /// - Parameter path: The path given to ``register(temporaryFile:)``.
  public static func forget(temporaryFile path: String) { UnfinishedOutputs.remove(path) }

  /// Whether a temporary file is in the registry.
  ///
  /// - Parameter path: The path.
  /// - Returns: True while it would be removed by ``removeUnfinishedFiles()``.
  public static func isRegistered(temporaryFile path: String) -> Bool {
    UnfinishedOutputs.contains(path)
  }
}
