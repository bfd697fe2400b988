import Foundation

/// A mistake in the command line: an unknown or misspelt option, a missing or malformed value.
/// The tool prints it as one line and exits with ``ExitCode/usage`` (64, `EX_USAGE`).
public struct UsageError: Error, CustomStringConvertible, Sendable {
  /// The one-line reason.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: The one-line reason.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}

/// A failure of the work itself (a bad input file, an encoder that failed): one line, exit 1.
public struct ToolError: Error, CustomStringConvertible, Sendable {
  /// The one-line reason.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: The one-line reason.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}

/// The exit statuses of the tool (`sysexits.h` for usage).
public enum ExitCode {
  /// Success.
  public static let success: Int32 = 0
  /// The work failed (bad input, a failed encoder).
  public static let failure: Int32 = 1
  /// The command line was wrong (`EX_USAGE`).
  public static let usage: Int32 = 64
  /// Interrupted by SIGINT (128 + 2).
  public static let interrupted: Int32 = 130
  /// Terminated by SIGTERM (128 + 15).
  public static let terminated: Int32 = 143
}

/// The words of a command line checked against a ``CommandSpec``: every option is declared,
/// values are where they must be, `--name=value` is split, `--` ends the options. The values
/// are read by ``OptionParser/parse(_:from:)`` through the same declarations that made the spec,
/// so no option can be read by a name alone.
public struct Arguments: Sendable {
  /// The command's declaration.
  public let spec: CommandSpec
  private var values: [String: [String]] = [:]
  private var given: [String: String] = [:]
  private var positionals: [String] = []
  /// True when `-h` or `--help` was given (before `--`).
  public private(set) var wantsHelp = false

  /// Parses the words after the command's name.
  ///
  /// - Parameters:
  ///   - words: The words.
  ///   - spec: The command's declaration.
  /// - Throws: ``UsageError`` for an unknown option (with "did you mean" when one is close) or
  ///   an option without its value.
  public init(_ words: [String], spec: CommandSpec) throws(UsageError) {
    self.spec = spec
    var i = 0
    var optionsEnded = false
    while i < words.count {
      let word = words[i]
      i += 1
      if optionsEnded || word == "-" || !word.hasPrefix("-") || Double(word) != nil {
        positionals.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      if word == "-h" || word == "--help" {
        wantsHelp = true
        continue
      }
      var name = word
      var inline: String?
      if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
        name = String(word[..<eq])
        inline = String(word[word.index(after: eq)...])
      }
      guard let option = spec.option(named: name) else {
        throw UsageError(
          "unknown option \(name)"
            + Suggestion.didYouMean(name, among: spec.options.flatMap(\.names) + ["--help"]))
      }
      let key = option.displayName
      given[key] = name
      switch option.kind {
      case .flag:
        if inline != nil { throw UsageError("\(name) takes no value") }
        values[key, default: []].append("")
      case .value, .repeated:
        let value: String
        if let inline {
          value = inline
        } else {
          guard i < words.count else { throw UsageError("\(name) needs a value") }
          value = words[i]
          i += 1
        }
        values[key, default: []].append(value)
      }
    }
  }

  /// Every value given for a declared option, or `nil` when it was not given.
  func values(of option: OptionSpec) -> [String]? {
    values[option.displayName]
  }

  /// The name an option was given by (`-o` or `--output`).
  func givenName(of option: OptionSpec) -> String? {
    given[option.displayName]
  }

  /// The positional words, in order.
  var positionalWords: [String] { positionals }
}

/// "Did you mean" for a misspelt command or option: the closest known word within an edit
/// distance of about a third of its length.
public enum Suggestion {
  /// The suffix of a message: ` (did you mean --output?)`, or empty.
  ///
  /// - Parameters:
  ///   - word: What was typed.
  ///   - candidates: The known words.
  /// - Returns: The suffix.
  public static func didYouMean(_ word: String, among candidates: [String]) -> String {
    guard let best = closest(word, among: candidates) else { return "" }
    return " (did you mean \(best)?)"
  }

  /// The closest candidate, if close enough.
  ///
  /// - Parameters:
  ///   - word: What was typed.
  ///   - candidates: The known words.
  /// - Returns: The candidate, or `nil`.
  public static func closest(_ word: String, among candidates: [String]) -> String? {
    let limit = max(1, min(3, word.count / 3))
    var best: (String, Int)?
    for c in candidates {
      let d = distance(word, c)
      if d <= limit, d < best?.1 ?? Int.max { best = (c, d) }
    }
    return best?.0
  }

  /// The Levenshtein distance (insertions, deletions, substitutions; an adjacent swap counts 1).
  static func distance(_ a: String, _ b: String) -> Int {
    let x = Array(a)
    let y = Array(b)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
    for i in 0...x.count { d[i][0] = i }
    for j in 0...y.count { d[0][j] = j }
    for i in 1...x.count {
      for j in 1...y.count {
        let cost = x[i - 1] == y[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[x.count][y.count]
  }
}

/// A number for people to read: the shortest decimal with at most 15 significant digits that
/// reads back as the same value to within the last bits (`0.1 + 0.02` prints `0.12`, not
/// `0.12000000000000001`); integers without a fraction; exponent form for very large or small.
///
/// - Parameter v: The value.
/// - Returns: The text.
public func displayNumber(_ v: Double) -> String {
  guard v.isFinite else { return "\(v)" }
  if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
  for digits in 1...15 {
    let text = String(format: "%.\(digits)g", v)
    if let back = Double(text), abs(back - v) <= 4 * v.ulp {
      return text.contains("e") ? text : text
    }
  }
  return "\(v)"
}
