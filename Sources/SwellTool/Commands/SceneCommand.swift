import Foundation
import SwellMotion
import SwellRender
import SwellScenes

/// `swell scene print NAME` writes a built-in scene as a scene file; `swell scene check FILE`
/// validates one.
struct SceneCommand: TypedToolCommand {
  static let about = CommandAbout(
    "scene", summary: "print a built-in scene as a JSON scene file, or check a scene file",
    discussion: """
      swell scene print NAME writes the built-in scene NAME \
      (\(BuiltInScenes.fileNames.joined(separator: ", "))) as a scene file (docs/scenes.md), to \
      standard output or atomically to FILE: a starting point for your own scenes ('swell render \
      FILE.json'); --size lays it out for that canvas, as 'swell render NAME --size' does.

      swell scene check FILE.json reads and validates a scene file and prints a one-line \
      summary, or the first problem with the JSON path of the bad field: a motion effect \
      whose key path the layer lacks or whose values are of the wrong kind is refused. Keys \
      Swell does not know (a misspelt optional key) and motion effects without their minimum \
      or maximum are warned about on standard error, or refused with --strict.
      """,
    examples: ["scene print waterwave -o my-scene.json", "scene check my-scene.json --strict"])

  enum Action: String, CaseIterable, Sendable { case print, check }

  struct Options: ParsableOptions {
    var output: String?
    var size: String?
    var strict: Bool
    var action: String?
    var target: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      output = p.output(
        help: "print: write to FILE (atomically) instead of standard output")
      size = p.option(
        "--size", value: "WxH[@S]", help: "print: canvas size in points and pixels per point")
      strict = p.flag(
        "--strict", help: "check: unknown keys and unfinished motion effects are errors")
      action = p.argument(
        "print NAME | check FILE.json", kind: .choice(Action.allCases.map(\.rawValue)))
      target = p.argument(nil, kind: .scene)
    }

    func validate() throws(UsageError) {
      guard let action else { throw UsageError("needs an action: print NAME or check FILE.json") }
      switch Action(rawValue: action) {
      case .print?:
        guard !strict else { throw UsageError("--strict applies to check") }
        guard target != nil else {
          throw UsageError(
            "print needs a scene name (\(BuiltInScenes.fileNames.joined(separator: ", ")))")
        }
      case .check?:
        guard output == nil else { throw UsageError("check takes no -o") }
        guard size == nil else { throw UsageError("check takes no --size") }
        guard target != nil else { throw UsageError("check needs a scene FILE.json") }
      case nil:
        throw UsageError("unknown action '\(action)' (print or check)")
      }
    }
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    let (output, target, strict) = (o.output, o.target ?? "", o.strict)
    switch o.action {
    case "print":
      var options = SceneOptions()
      if let sizeSpec = o.size {
        try options.setSize(sizeSpec, maximumPixels: ImageSurface.maximumDimension)
      }
      let data = try BuiltInScenes.fileData(target, options: options)
      if let output {
        try AtomicWrite.write(data, to: URL(fileURLWithPath: output))
      } else {
        console.out(String(decoding: data, as: UTF8.self))
      }
      return 0
    default:
      let check = try SceneFileCheck(contentsOf: URL(fileURLWithPath: target))
      if let text = check.unknownKeysText(name: target) {
        if strict { throw ToolError(text + " (--strict)") }
        console.err("swell scene: warning: \(text)\n")
      }
      for warning in check.effectWarnings {
        if strict { throw ToolError("\(target): \(warning) (--strict)") }
        console.err("swell scene: warning: \(target): \(warning)\n")
      }
      console.out(check.summary(name: target) + "\n")
      return 0
    }
  }
}
