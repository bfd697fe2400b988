/// A command's options as one value, declared and read by the same code.
///
/// The initializer declares each option once, with its type, default and allowed values, and
/// reads it in the same call (`fps = try p.option("--fps", default: 60.0, in: 1...240, help:
/// "...")`). It runs twice: once on a declaring parser, which records the declarations (the
/// ``CommandSpec`` behind usage, help, completions and the man page) and hands back defaults,
/// and once on a parsing parser, which hands back what the command line says. A name that is
/// read is therefore always declared: there is no way to read an option by a string alone.
///
/// ``validate()`` runs after parsing and before the command does anything (opens a file, takes
/// over a signal), for checks between options (`--6d` and `--9d` exclude each other).
public protocol ParsableOptions: Sendable {
  /// Declares and reads the options.
  ///
  /// - Parameter parser: The declaring or the parsing parser; only its declaring and reading
  ///   methods may be called.
  /// - Throws: ``UsageError`` for a value of the wrong type or out of range (parsing only: a
  ///   declaring parser never throws).
  init(_ parser: inout OptionParser) throws(UsageError)

  /// Checks the options together, before any side effect (default: nothing to check).
  ///
  /// - Throws: ``UsageError`` for options that do not fit together.
  func validate() throws(UsageError)
}

extension ParsableOptions {
  /// Nothing to check.
  public func validate() throws(UsageError) {}
}

/// Options shown together under a heading (`Scene options:`) and used by several commands, each
/// of which reads them with ``OptionParser/group(_:)``.
public protocol ParsableOptionGroup: ParsableOptions {
  /// The heading in help, without the colon.
  static var title: String { get }
}

/// The text of a command's help around its options.
public struct CommandAbout: Hashable, Sendable {
  /// The command's name (`record`).
  public var name: String
  /// One line for the command list.
  public var summary: String
  /// What it does: the paragraph(s) between usage and options.
  public var discussion: String
  /// Text after the options (keys, examples).
  public var epilogue: String
  /// Example command lines for the man page's EXAMPLES (each without the `swell `).
  public var examples: [String]

  /// Describes a command.
  ///
  /// - Parameters:
  ///   - name: The name.
  ///   - summary: One line.
  ///   - discussion: What it does.
  ///   - epilogue: Text after the options.
  ///   - examples: Example command lines, without the tool's name.
  public init(
    _ name: String, summary: String, discussion: String, epilogue: String = "",
    examples: [String] = []
  ) {
    self.name = name
    self.summary = summary
    self.discussion = discussion
    self.epilogue = epilogue
    self.examples = examples
  }
}

/// The bounds of a numeric option: a closed range, or greater than a lower bound.
public struct NumberRange: Hashable, Sendable {
  /// The lowest allowed value (or the bound values must exceed when ``lowerIsOpen``).
  public var lower: Double
  /// True when the value must be greater than ``lower``.
  public var lowerIsOpen: Bool
  /// The highest allowed value.
  public var upper: Double

  /// A range.
  ///
  /// - Parameters:
  ///   - lower: The lower bound.
  ///   - lowerIsOpen: Whether the lower bound itself is excluded.
  ///   - upper: The upper bound (included).
  public init(lower: Double, lowerIsOpen: Bool = false, upper: Double) {
    self.lower = lower
    self.lowerIsOpen = lowerIsOpen
    self.upper = upper
  }

  /// Every finite number.
  public static let any = NumberRange(
    lower: -Double.greatestFiniteMagnitude, upper: Double.greatestFiniteMagnitude)

  /// Every number greater than zero.
  public static let positive = NumberRange(
    lower: 0, lowerIsOpen: true, upper: Double.greatestFiniteMagnitude)

  /// Numbers greater than zero, up to a limit.
  ///
  /// - Parameter upper: The highest allowed value.
  /// - Returns: The range.
  public static func positive(atMost upper: Double) -> NumberRange {
    NumberRange(lower: 0, lowerIsOpen: true, upper: upper)
  }

  /// A closed range.
  ///
  /// - Parameter range: The allowed values.
  /// - Returns: The range.
  public static func closed(_ range: ClosedRange<Double>) -> NumberRange {
    NumberRange(lower: range.lowerBound, upper: range.upperBound)
  }

  /// Checks a value.
  ///
  /// - Parameters:
  ///   - v: The value.
  ///   - shown: The option's name as typed.
  /// - Throws: ``UsageError`` naming the option and the bounds.
  public func check(_ v: Double, shown: String) throws(UsageError) {
    let hasLower = lower > -Double.greatestFiniteMagnitude
    let hasUpper = upper < Double.greatestFiniteMagnitude
    let tooLow = lowerIsOpen ? v <= lower : v < lower
    guard tooLow || v > upper else { return }
    let got = ", got \(displayNumber(v))"
    if lowerIsOpen && tooLow {
      throw UsageError(
        "\(shown) must be greater than \(lower == 0 ? "zero" : displayNumber(lower))\(got)")
    }
    if hasLower && hasUpper && !lowerIsOpen {
      throw UsageError(
        "\(shown) must be between \(displayNumber(lower)) and \(displayNumber(upper))\(got)")
    }
    if tooLow { throw UsageError("\(shown) must be at least \(displayNumber(lower))\(got)") }
    throw UsageError("\(shown) must be at most \(displayNumber(upper))\(got)")
  }
}

/// Declares and reads options for ``ParsableOptions``: in a declaring pass it records each
/// declaration and returns its default; in a parsing pass it returns the command line's value,
/// converted and checked (type, range, allowed values).
public struct OptionParser {
  private enum Mode {
    case declaring
    case parsing(Arguments)
  }

  private var mode: Mode
  /// The groups declared so far, in order; the untitled group holds the command's own options.
  private(set) var groups: [OptionGroup] = [OptionGroup(nil, [])]
  /// The positional arguments declared so far.
  private(set) var arguments: [ArgumentSpec] = []
  private var currentGroup = 0
  private var nextPositional = 0

  /// True in the declaring pass (values are defaults; nothing is checked).
  public var isDeclaring: Bool {
    if case .declaring = mode { return true }
    return false
  }

  private init(mode: Mode) { self.mode = mode }

  // MARK: - The two passes

  /// The declarations of an options type, as groups and arguments.
  ///
  /// - Parameter type: The options type.
  /// - Returns: The groups (the untitled one first, left out when empty) and the arguments.
  public static func declarations<O: ParsableOptions>(of type: O.Type) -> (
    groups: [OptionGroup], arguments: [ArgumentSpec]
  ) {
    var p = OptionParser(mode: .declaring)
    // A declaring parser never throws: every reading method returns the default.
    _ = try? O(&p)
    return (p.groups.filter { $0.title != nil || !$0.options.isEmpty }, p.arguments)
  }

  /// Reads an options value from parsed words, then checks that every positional argument was
  /// taken and runs ``ParsableOptions/validate()``.
  ///
  /// - Parameters:
  ///   - type: The options type.
  ///   - arguments: The words, checked against the spec made from the same declarations.
  /// - Returns: The options.
  /// - Throws: ``UsageError`` for a bad value, an extra argument or a failed validation.
  public static func parse<O: ParsableOptions>(_ type: O.Type, from arguments: Arguments)
    throws(UsageError) -> O
  {
    var p = OptionParser(mode: .parsing(arguments))
    let options = try O(&p)
    if case .parsing(let a) = p.mode, p.nextPositional < a.positionalWords.count {
      throw UsageError("unexpected argument '\(a.positionalWords[p.nextPositional])'")
    }
    try options.validate()
    return options
  }

  // MARK: - Declaring

  private mutating func declare(_ option: OptionSpec) {
    groups[currentGroup].options.append(option)
  }

  private func values(_ option: OptionSpec) -> (shown: String, values: [String])? {
    guard case .parsing(let a) = mode else { return nil }
    guard let values = a.values(of: option), !values.isEmpty else { return nil }
    return (a.givenName(of: option) ?? option.displayName, values)
  }

  private static func spec(
    _ name: String, short: String?, aliases: [String], kind: OptionSpec.Kind,
    valueKind: OptionValueKind, defaultValue: String?, help: String
  ) -> OptionSpec {
    var spec = OptionSpec(name, aliases: aliases, kind: kind, help: help)
    if let short { spec.names = [short, name] }
    spec.valueKind = valueKind
    spec.defaultValue = defaultValue
    return spec
  }

  /// Reads a group of options declared once for several commands, under its heading.
  ///
  /// - Parameter type: The group's type.
  /// - Returns: The group's options (validated when parsing).
  /// - Throws: ``UsageError`` from the group's options or its ``ParsableOptions/validate()``.
  public mutating func group<G: ParsableOptionGroup>(_ type: G.Type) throws(UsageError) -> G {
    let saved = currentGroup
    if let i = groups.firstIndex(where: { $0.title == G.title }) {
      currentGroup = i
    } else {
      groups.append(OptionGroup(G.title, []))
      currentGroup = groups.count - 1
    }
    defer { currentGroup = saved }
    let g = try G(&self)
    if !isDeclaring { try g.validate() }
    return g
  }

  /// The long names of the options of the group being read that were given so far, in the
  /// order they were declared (empty in the declaring pass): a group that applies its options
  /// to several things uses it to say which were given.
  public var givenInGroup: [String] {
    guard case .parsing(let a) = mode else { return [] }
    return groups[currentGroup].options.filter { !(a.values(of: $0) ?? []).isEmpty }
      .map(\.displayName)
  }

  /// Declares the options that follow under a heading of the command's own (until the next
  /// heading; `nil` goes back to the command's untitled options).
  ///
  /// - Parameter title: The heading, without the colon.
  public mutating func heading(_ title: String?) {
    if let i = groups.firstIndex(where: { $0.title == title }) {
      currentGroup = i
    } else {
      groups.append(OptionGroup(title, []))
      currentGroup = groups.count - 1
    }
  }

  // MARK: - Flags

  /// A flag: true when given.
  ///
  /// - Parameters:
  ///   - name: Its long name (`--reduce-motion`).
  ///   - short: A short name (`-v`), if any.
  ///   - aliases: Names also accepted but not shown.
  ///   - help: The help text.
  /// - Returns: Whether it was given (false when declaring).
  public mutating func flag(
    _ name: String, short: String? = nil, aliases: [String] = [], help: String
  ) -> Bool {
    let spec = Self.spec(
      name, short: short, aliases: aliases, kind: .flag, valueKind: .flag, defaultValue: nil,
      help: help)
    declare(spec)
    return values(spec) != nil
  }

  // MARK: - Text and paths

  /// A text or path option with a default.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - short: A short name, if any.
  ///   - aliases: Names also accepted but not shown.
  ///   - value: The value's placeholder in help (`DIR`).
  ///   - kind: What the value is, for completions (`.text`, `.file`, `.directory`).
  ///   - defaultValue: The value when not given (shown in help).
  ///   - help: The help text.
  /// - Returns: The last value given, or the default.
  public mutating func option(
    _ name: String, short: String? = nil, aliases: [String] = [], value: String,
    kind: OptionValueKind = .text, default defaultValue: String, help: String
  ) -> String {
    let spec = Self.spec(
      name, short: short, aliases: aliases, kind: .value(value), valueKind: kind,
      defaultValue: defaultValue, help: help)
    declare(spec)
    return values(spec)?.values.last ?? defaultValue
  }

  /// A text or path option without a default.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - short: A short name, if any.
  ///   - aliases: Names also accepted but not shown.
  ///   - value: The value's placeholder in help (`FILE`).
  ///   - kind: What the value is, for completions.
  ///   - defaultText: What happens when it is not given, shown as `(default: ...)`, if anything.
  ///   - help: The help text.
  /// - Returns: The last value given, or `nil`.
  public mutating func option(
    _ name: String, short: String? = nil, aliases: [String] = [], value: String,
    kind: OptionValueKind = .text, defaultText: String? = nil, help: String
  ) -> String? {
    let spec = Self.spec(
      name, short: short, aliases: aliases, kind: .value(value), valueKind: kind,
      defaultValue: defaultText, help: help)
    declare(spec)
    return values(spec)?.values.last
  }

  /// The output option, declared the same way by every command: `-o FILE` or `--output FILE`
  /// (`--out` is accepted too), completed as a path.
  ///
  /// - Parameters:
  ///   - defaultText: What is written when it is not given, if anything.
  ///   - help: The help text.
  /// - Returns: The last value given, or `nil`.
  public mutating func output(defaultText: String? = nil, help: String) -> String? {
    option(
      "--output", short: "-o", aliases: ["--out"], value: "FILE", kind: .file,
      defaultText: defaultText, help: help)
  }

  /// The output option with a default file (see ``output(defaultText:help:)``).
  ///
  /// - Parameters:
  ///   - defaultValue: The file written when it is not given (shown in help).
  ///   - help: The help text.
  /// - Returns: The last value given, or the default.
  public mutating func output(default defaultValue: String, help: String) -> String {
    option(
      "--output", short: "-o", aliases: ["--out"], value: "FILE", kind: .file,
      default: defaultValue, help: help)
  }

  /// An option that may be given several times (`--set NAME=VALUE`).
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The value's placeholder.
  ///   - kind: What the value is, for completions.
  ///   - help: The help text.
  /// - Returns: Every value, in order (empty when not given).
  public mutating func repeatedOption(
    _ name: String, value: String, kind: OptionValueKind = .text, help: String
  ) -> [String] {
    let spec = Self.spec(
      name, short: nil, aliases: [], kind: .repeated(value), valueKind: kind, defaultValue: nil,
      help: help)
    declare(spec)
    return values(spec)?.values ?? []
  }

  // MARK: - Numbers

  private func number(_ spec: OptionSpec, in range: NumberRange) throws(UsageError) -> Double? {
    guard let (shown, values) = values(spec), let text = values.last else { return nil }
    guard let v = Self.numberValue(text, placeholder: spec.valuePlaceholder), v.isFinite else {
      throw UsageError("\(shown) must be a number, got '\(clipped(text))'")
    }
    try range.check(v, shown: shown)
    return v
  }

  /// A number as typed: plain, or with the unit its placeholder names, as the motion-script
  /// language writes them: seconds (`S`, `T`) as `3s`, `3sec` or `500ms`, rates (`HZ`) as `100Hz`.
  /// The seconds' units are the script parser's (`MotionScriptParser.duration`: `s`, `sec`,
  /// `ms`); this module imports no Swell module, so the table is repeated here.
  static func numberValue(_ text: String, placeholder: String?) -> Double? {
    let t = text.trimmingCharacters(in: .whitespaces)
    if let v = Double(t) { return v }
    let lower = t.lowercased()
    let units: [(suffix: String, scale: Double)]
    switch placeholder {
    case "S", "T": units = [("ms", 1e-3), ("sec", 1), ("s", 1)]
    case "HZ": units = [("hz", 1)]
    default: return nil
    }
    for unit in units where lower.hasSuffix(unit.suffix) {
      let number = lower.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
      // A bare unit or a second sign ("-s") is no number.
      guard let v = Double(number), number.last?.isNumber == true else { return nil }
      return v * unit.scale
    }
    return nil
  }

  /// A number with a default.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The placeholder (`N`, `HZ`, `S`).
  ///   - defaultValue: The value when not given (shown in help).
  ///   - range: The allowed values.
  ///   - help: The help text.
  /// - Returns: The number.
  /// - Throws: ``UsageError`` for a non-number, a non-finite number or one out of range.
  public mutating func option(
    _ name: String, value: String = "N", default defaultValue: Double, in range: NumberRange,
    help: String
  ) throws(UsageError) -> Double {
    let spec = Self.spec(
      name, short: nil, aliases: [], kind: .value(value), valueKind: .number,
      defaultValue: displayNumber(defaultValue), help: help)
    declare(spec)
    return try number(spec, in: range) ?? defaultValue
  }

  /// A number with a default, in a closed range.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The placeholder.
  ///   - defaultValue: The value when not given.
  ///   - range: The allowed values.
  ///   - help: The help text.
  /// - Returns: The number.
  /// - Throws: ``UsageError`` for a non-number or one out of range.
  public mutating func option(
    _ name: String, value: String = "N", default defaultValue: Double,
    in range: ClosedRange<Double>,
    help: String
  ) throws(UsageError) -> Double {
    try option(name, value: value, default: defaultValue, in: .closed(range), help: help)
  }

  /// A number without a default.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The placeholder.
  ///   - range: The allowed values.
  ///   - defaultText: What happens when it is not given, shown as `(default: ...)`, if anything.
  ///   - help: The help text.
  /// - Returns: The number, or `nil` when not given.
  /// - Throws: ``UsageError`` for a non-number or one out of range.
  public mutating func option(
    _ name: String, value: String = "N", in range: NumberRange, defaultText: String? = nil,
    help: String
  ) throws(UsageError) -> Double? {
    let spec = Self.spec(
      name, short: nil, aliases: [], kind: .value(value), valueKind: .number,
      defaultValue: defaultText, help: help)
    declare(spec)
    return try number(spec, in: range)
  }

  /// A number without a default, in a closed range.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The placeholder.
  ///   - range: The allowed values.
  ///   - defaultText: What happens when it is not given, if anything.
  ///   - help: The help text.
  /// - Returns: The number, or `nil` when not given.
  /// - Throws: ``UsageError`` for a non-number or one out of range.
  public mutating func option(
    _ name: String, value: String = "N", in range: ClosedRange<Double>, defaultText: String? = nil,
    help: String
  ) throws(UsageError) -> Double? {
    try option(name, value: value, in: .closed(range), defaultText: defaultText, help: help)
  }

  /// A whole number without a default.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The placeholder.
  ///   - range: The allowed values.
  ///   - defaultText: What happens when it is not given, if anything.
  ///   - help: The help text.
  /// - Returns: The number, or `nil` when not given.
  /// - Throws: ``UsageError`` for a non-number, a fraction or one out of range.
  public mutating func option(
    _ name: String, value: String = "N", in range: ClosedRange<Int>, defaultText: String? = nil,
    help: String
  ) throws(UsageError) -> Int? {
    let spec = Self.spec(
      name, short: nil, aliases: [], kind: .value(value), valueKind: .number,
      defaultValue: defaultText, help: help)
    declare(spec)
    let bounds = NumberRange.closed(Double(range.lowerBound)...Double(range.upperBound))
    guard let v = try number(spec, in: bounds) else { return nil }
    guard v == v.rounded() else {
      let shown = values(spec)?.shown ?? name
      throw UsageError("\(shown) must be a whole number, got \(displayNumber(v))")
    }
    return Int(v)
  }

  // MARK: - Choices

  private func choice<T: CaseIterable>(
    _ spec: OptionSpec, named label: (T) -> String, aliases: [String: T]
  ) throws(UsageError) -> T? {
    guard let (shown, values) = values(spec), let text = values.last else { return nil }
    if let v = T.allCases.first(where: { label($0) == text }) ?? aliases[text] { return v }
    let names = T.allCases.map(label)
    throw UsageError(
      "\(shown) must be one of \(names.joined(separator: ", ")), "
        + "got '\(clipped(text))'"
        + Suggestion.didYouMean(text, among: names))
  }

  private static func choiceSpec<T: CaseIterable>(
    _ name: String, value: String, label: (T) -> String, defaultValue: String?, help: String
  ) -> OptionSpec {
    spec(
      name, short: nil, aliases: [], kind: .value(value),
      valueKind: .choice(T.allCases.map(label)), defaultValue: defaultValue, help: help)
  }

  /// A choice among an enumeration's cases, by raw value, with a default.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The placeholder (`NAME`).
  ///   - defaultValue: The case when not given.
  ///   - aliases: Other spellings accepted (`"automatic"` for `auto`), not shown.
  ///   - help: The help text; the allowed values and the default are added to it.
  /// - Returns: The case.
  /// - Throws: ``UsageError`` listing the allowed values for another word.
  public mutating func option<T: CaseIterable & RawRepresentable>(
    _ name: String, value: String = "NAME", default defaultValue: T, aliases: [String: T] = [:],
    help: String
  ) throws(UsageError) -> T where T.RawValue == String {
    try option(
      name, value: value, default: defaultValue, named: \.rawValue, aliases: aliases, help: help)
  }

  /// A choice among an enumeration's cases, by raw value, without a default.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The placeholder.
  ///   - type: The enumeration.
  ///   - aliases: Other spellings accepted, not shown.
  ///   - defaultText: What happens when it is not given, if anything.
  ///   - help: The help text; the allowed values are added to it.
  /// - Returns: The case, or `nil` when not given.
  /// - Throws: ``UsageError`` listing the allowed values for another word.
  public mutating func option<T: CaseIterable & RawRepresentable>(
    _ name: String, value: String = "NAME", as type: T.Type, aliases: [String: T] = [:],
    defaultText: String? = nil, help: String
  ) throws(UsageError) -> T? where T.RawValue == String {
    try option(
      name, value: value, as: type, named: \.rawValue, aliases: aliases, defaultText: defaultText,
      help: help)
  }

  /// A choice among an enumeration's cases, by a name of each, with a default.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The placeholder.
  ///   - defaultValue: The case when not given.
  ///   - label: Each case's name on the command line.
  ///   - aliases: Other spellings accepted, not shown.
  ///   - help: The help text; the allowed values and the default are added to it.
  /// - Returns: The case.
  /// - Throws: ``UsageError`` listing the allowed values for another word.
  public mutating func option<T: CaseIterable>(
    _ name: String, value: String = "NAME", default defaultValue: T, named label: (T) -> String,
    aliases: [String: T] = [:], help: String
  ) throws(UsageError) -> T {
    let spec = Self.choiceSpec(
      name, value: value, label: label, defaultValue: label(defaultValue), help: help)
    declare(spec)
    return try choice(spec, named: label, aliases: aliases) ?? defaultValue
  }

  /// A choice among an enumeration's cases, by a name of each, without a default.
  ///
  /// - Parameters:
  ///   - name: Its long name.
  ///   - value: The placeholder.
  ///   - type: The enumeration.
  ///   - label: Each case's name on the command line.
  ///   - aliases: Other spellings accepted, not shown.
  ///   - defaultText: What happens when it is not given, if anything.
  ///   - help: The help text; the allowed values are added to it.
  /// - Returns: The case, or `nil` when not given.
  /// - Throws: ``UsageError`` listing the allowed values for another word.
  public mutating func option<T: CaseIterable>(
    _ name: String, value: String = "NAME", as type: T.Type, named label: (T) -> String,
    aliases: [String: T] = [:], defaultText: String? = nil, help: String
  ) throws(UsageError) -> T? {
    let spec = Self.choiceSpec(
      name, value: value, label: label, defaultValue: defaultText, help: help)
    declare(spec)
    return try choice(spec, named: label, aliases: aliases)
  }

  // MARK: - Positional arguments

  /// The next positional argument.
  ///
  /// - Parameters:
  ///   - placeholder: Its name in usage (`INPUT`); `nil` for one that the previous
  ///     placeholder already shows (`print NAME`).
  ///   - kind: What it is, for completions.
  ///   - isOptional: Whether usage shows it in brackets.
  /// - Returns: The word, or `nil` when there is none (always when declaring).
  public mutating func argument(
    _ placeholder: String?, kind: OptionValueKind = .text, isOptional: Bool = false
  ) -> String? {
    // An argument without a placeholder is not shown in usage, but completions know its kind.
    var a = ArgumentSpec(placeholder ?? "", isOptional: isOptional)
    a.valueKind = kind
    a.isShownInUsage = placeholder != nil
    arguments.append(a)
    guard case .parsing(let a) = mode, nextPositional < a.positionalWords.count else {
      return nil
    }
    defer { nextPositional += 1 }
    return a.positionalWords[nextPositional]
  }
}

extension CommandSpec {
  /// The spec of a command whose options are declared by an options type: usage, help,
  /// completions and the man page all come from it.
  ///
  /// - Parameters:
  ///   - about: The command's name and help text.
  ///   - options: The options type.
  public init<O: ParsableOptions>(_ about: CommandAbout, options: O.Type) {
    let (groups, arguments) = OptionParser.declarations(of: options)
    self.init(
      about.name, summary: about.summary, arguments: arguments, discussion: about.discussion,
      groups: groups, epilogue: about.epilogue)
    examples = about.examples
  }
}

/// A word from the command line for a message, cut to 60 characters (the tool escapes control
/// characters when it prints the message).
private func clipped(_ text: String) -> String {
  text.count > 60 ? String(text.prefix(59)) + "…" : text
}
