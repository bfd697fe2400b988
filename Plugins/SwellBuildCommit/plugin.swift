import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` (the git commit of the checkout, or `nil` outside git) into the
/// target's generated sources before every build, through `Scripts/build-commit.sh`; the file
/// is rewritten only when the commit changed, so an unchanged checkout rebuilds nothing.
@main
struct SwellBuildCommit: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
    let script = context.package.directoryURL.appendingPathComponent("Scripts/build-commit.sh")
    return [
      .prebuildCommand(
        displayName: "Writing the build's git commit for \(target.name)",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: [script.path, context.package.directoryURL.path, output.path],
        outputFilesDirectory: output)
    ]
  }
}
