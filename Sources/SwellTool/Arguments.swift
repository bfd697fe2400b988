import Foundation

/// A command-line usage error: the words of the call are off. Exit status 2.
public struct UsageError: Error, CustomStringConvertible, Sendable {
  /// The one-line reason.
  public var message: String

  /// Creates a usage error.
  ///
  /// - Parameter message: The one-line reason.
  public init(_ message: String) { self.message = message }

  /// The reason.
  public var description: String { message }
}

/// A failure while running a command (bad input file, unwritable output, ...). Exit status 1.
public struct ToolError: Error, CustomStringConvertible, Sendable {
  /// The one-line reason, naming the file, line and field where there is one.
  public var message: String

  /// Creates a tool error.
  ///
  /// - Parameter message: The one-line reason.
  public init(_ message: String) { self.message = message }

  /// The reason.
  public var description: String { message }
}

/// The parsed words of one command: options (`--name value`, `--name=value`, `-o value`), flags
/// (`--name`) and positional arguments, consumed by name so that leftovers can be reported.
public struct Arguments: Sendable {
  private var words: [String]
  private var used: [Bool]

  /// Creates the argument list of a command (without the program and command names).
  ///
  /// - Parameter words: The raw words.
  public init(_ words: [String]) {
    // Split `--name=value` into two words.
    var out: [String] = []
    for w in words {
      if w.hasPrefix("--"), let eq = w.firstIndex(of: "=") {
        out.append(String(w[..<eq]))
        out.append(String(w[w.index(after: eq)...]))
      } else {
        out.append(w)
      }
    }
    self.words = out
    used = Array(repeating: false, count: out.count)
  }

  /// True when `--help` or `-h` is present.
  public var wantsHelp: Bool { words.contains("--help") || words.contains("-h") }

  /// Consumes a flag such as `--stats`.
  ///
  /// - Parameter names: The spellings, e.g. `["--stats"]`.
  /// - Returns: Whether it was present.
  public mutating func flag(_ names: String...) -> Bool {
    var found = false
    for (i, w) in words.enumerated() where !used[i] && names.contains(w) {
      used[i] = true
      found = true
    }
    return found
  }

  /// Consumes an option with a value, such as `--fps 60` or `-o out.mp4`.
  ///
  /// - Parameter names: The spellings.
  /// - Returns: The value of the last occurrence, or `nil` when absent.
  /// - Throws: ``UsageError`` when the option has no value.
  public mutating func option(_ names: String...) throws(UsageError) -> String? {
    try option(names)
  }

  /// Consumes an option with a value, given its spellings as an array.
  ///
  /// - Parameter names: The spellings.
  /// - Returns: The value of the last occurrence, or `nil` when absent.
  /// - Throws: ``UsageError`` when the option has no value.
  public mutating func option(_ names: [String]) throws(UsageError) -> String? {
    var value: String?
    var i = 0
    while i < words.count {
      if !used[i] && names.contains(words[i]) {
        guard i + 1 < words.count else {
          throw UsageError("\(words[i]) needs a value")
        }
        used[i] = true
        used[i + 1] = true
        value = words[i + 1]
        i += 2
      } else {
        i += 1
      }
    }
    return value
  }

  /// Consumes every occurrence of a repeatable option, such as `--set A=1 --set B=2`.
  ///
  /// - Parameter names: The spellings.
  /// - Returns: The values in command-line order (empty when absent).
  /// - Throws: ``UsageError`` when an occurrence has no value.
  public mutating func repeatedOption(_ names: String...) throws(UsageError) -> [String] {
    var values: [String] = []
    var i = 0
    while i < words.count {
      if !used[i] && names.contains(words[i]) {
        guard i + 1 < words.count else { throw UsageError("\(words[i]) needs a value") }
        used[i] = true
        used[i + 1] = true
        values.append(words[i + 1])
        i += 2
      } else {
        i += 1
      }
    }
    return values
  }

  /// Consumes a numeric option.
  ///
  /// - Parameters:
  ///   - names: The spellings.
  ///   - range: The allowed range; values outside it are a usage error.
  /// - Returns: The value, or `nil` when absent.
  /// - Throws: ``UsageError`` for a non-number, NaN, infinity or a value out of range.
  public mutating func number(
    _ names: String...,
    in range: ClosedRange<Double> = -Double
      .greatestFiniteMagnitude...Double
      .greatestFiniteMagnitude
  ) throws(UsageError) -> Double? {
    guard let (name, v) = try parsedNumber(names) else { return nil }
    guard range.contains(v) else {
      throw UsageError(
        "\(name) must be between \(Arguments.format(range.lowerBound)) and "
          + "\(Arguments.format(range.upperBound)), got \(Arguments.format(v))")
    }
    return v
  }

  /// Consumes a number that must be strictly positive, such as `--fps` or `--duration`.
  ///
  /// - Parameter names: The spellings.
  /// - Returns: The value, or `nil` when absent.
  /// - Throws: ``UsageError`` for zero, negative or non-numeric values.
  public mutating func positiveNumber(_ names: String...) throws(UsageError) -> Double? {
    guard let (name, v) = try parsedNumber(names) else { return nil }
    guard v > 0 else {
      throw UsageError("\(name) must be greater than zero, got \(Arguments.format(v))")
    }
    return v
  }

  /// Consumes the last of several spellings of a numeric option and parses it as a finite number.
  private mutating func parsedNumber(_ names: [String]) throws(UsageError) -> (String, Double)? {
    var value: String?
    var name = names.first ?? ""
    for n in names {
      if let v = try option([n]) {
        value = v
        name = n
      }
    }
    guard let text = value else { return nil }
    guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite else {
      throw UsageError("\(name) must be a number, got '\(text)'")
    }
    return (name, v)
  }

  /// Consumes the next positional argument (a word not starting with `-`, or `-` alone).
  ///
  /// - Returns: The argument, or `nil` when none is left.
  public mutating func positional() -> String? {
    for (i, w) in words.enumerated() where !used[i] {
      if w == "-" || !w.hasPrefix("-") || Double(w) != nil {
        used[i] = true
        return w
      }
    }
    return nil
  }

  /// Throws when any word was not consumed.
  ///
  /// - Throws: ``UsageError`` naming the first unknown word.
  public func finish() throws(UsageError) {
    for (i, w) in words.enumerated() where !used[i] {
      if w.hasPrefix("-") && w != "-" {
        throw UsageError("unknown option \(w)")
      }
      throw UsageError("unexpected argument '\(w)'")
    }
  }

  private static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }
}
