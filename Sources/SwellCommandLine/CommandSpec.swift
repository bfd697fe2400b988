/// The declaration of one option: its names, what it takes, and its help line. Usage and help
/// text are generated from these declarations (as swift-argument-parser's `@Option`/`@Flag` do),
/// so the help cannot drift from what the parser accepts.
public struct OptionSpec: Hashable, Sendable {
  /// What follows the option on the command line.
  public enum Kind: Hashable, Sendable {
    /// Nothing: a flag.
    case flag
    /// One value, e.g. `--fps N`.
    case value(String)
    /// One value each time it is given; the option may repeat (`--set NAME=VALUE`).
    case repeated(String)
  }

  /// The names shown in help, short first (`-o`, `--output`).
  public var names: [String]
  /// Names also accepted but not shown (`--out`, an older spelling).
  public var aliases: [String]
  /// What it takes.
  public var kind: Kind
  /// The help text (may span lines; it is wrapped at 100 columns).
  public var help: String
  /// What the value is, for completions and the man page (`.flag` for a flag).
  public var valueKind: OptionValueKind
  /// The default as help shows it (`(default: X)`), or `nil` when help shows none.
  public var defaultValue: String?

  /// Declares an option.
  ///
  /// - Parameters:
  ///   - names: The names shown in help (`"-o", "--output"`).
  ///   - aliases: Names accepted but not shown.
  ///   - kind: A flag, or the value's placeholder (`.value("N")`).
  ///   - help: The help text.
  public init(_ names: String..., aliases: [String] = [], kind: Kind = .flag, help: String) {
    self.names = names
    self.aliases = aliases
    self.kind = kind
    self.help = help
    if case .flag = kind { valueKind = .flag } else { valueKind = .text }
    defaultValue = nil
  }

  /// The help text with what the declaration adds: the allowed values of a choice and the
  /// default, as ` (one of a, b, c; default: a)`.
  public var fullHelp: String {
    var notes: [String] = []
    if case .choice(let names) = valueKind {
      notes.append("one of " + names.joined(separator: ", "))
    }
    if let defaultValue { notes.append("default: " + defaultValue) }
    return notes.isEmpty ? help : help + " (" + notes.joined(separator: "; ") + ")"
  }

  /// Every name that selects the option.
  public var allNames: [String] { names + aliases }

  /// The option's name in messages: its first long name, else its first.
  public var displayName: String { names.first { $0.hasPrefix("--") } ?? names.first ?? "" }

  /// True when the option takes a value.
  public var takesValue: Bool {
    if case .flag = kind { return false }
    return true
  }

  /// The value's placeholder (`N`, `S`, `FILE`), or `nil` for a flag.
  public var valuePlaceholder: String? {
    switch kind {
    case .flag: return nil
    case .value(let v), .repeated(let v): return v
    }
  }

  /// The names and value as help shows them (`-o, --output FILE`).
  public var signature: String {
    let joined = names.joined(separator: ", ")
    switch kind {
    case .flag: return joined
    case .value(let v), .repeated(let v): return "\(joined) \(v)"
    }
  }
}

/// What an option's value or an argument is: for help, shell completions and the man page.
public enum OptionValueKind: Hashable, Sendable {
  /// No value: a flag.
  case flag
  /// A number.
  case number
  /// Free text.
  case text
  /// A file's path.
  case file
  /// A folder's path.
  case directory
  /// One of these words.
  case choice([String])
  /// A built-in scene's name or a scene file.
  case scene
  /// One of these words, or a file's path (`--motion keyboard` or `--motion rec.csv`).
  case choiceOrFile([String])
}

/// Options shown together under a heading (`Scene options:`), shared by several commands.
public struct OptionGroup: Hashable, Sendable {
  /// The heading, or `nil` for the command's own options (`Options:`).
  public var title: String?
  /// The options.
  public var options: [OptionSpec]

  /// Creates a group.
  ///
  /// - Parameters:
  ///   - title: The heading, or `nil`.
  ///   - options: The options.
  public init(_ title: String? = nil, _ options: [OptionSpec]) {
    self.title = title
    self.options = options
  }
}

/// A positional argument (`SCENE`, `INPUT`).
public struct ArgumentSpec: Hashable, Sendable {
  /// Its placeholder in usage (`SCENE|FILE.json`).
  public var name: String
  /// Whether it may be left out.
  public var isOptional: Bool
  /// What it is, for completions (default `.text`).
  public var valueKind: OptionValueKind = .text
  /// Whether usage and the man page show it (false for an argument that an earlier
  /// placeholder already describes, as `print NAME | check FILE.json` describes the scene's).
  public var isShownInUsage = true

  /// Declares an argument.
  ///
  /// - Parameters:
  ///   - name: The placeholder.
  ///   - isOptional: Whether it may be left out (default false).
  public init(_ name: String, isOptional: Bool = false) {
    self.name = name
    self.isOptional = isOptional
  }
}

/// Everything the parser and the help know about one command.
public struct CommandSpec: Hashable, Sendable {
  /// The command's name (`render`, or `scene check` for a subcommand).
  public var name: String
  /// One line for the command list.
  public var summary: String
  /// Its positional arguments.
  public var arguments: [ArgumentSpec]
  /// What it does: the paragraph(s) of help between usage and options.
  public var discussion: String
  /// Its option groups; every command also takes `-h, --help`.
  public var groups: [OptionGroup]
  /// Text after the options (keys, examples).
  public var epilogue: String
  /// Example command lines for the man page (without the tool's name).
  public var examples: [String] = []

  /// Declares a command.
  ///
  /// - Parameters:
  ///   - name: The name.
  ///   - summary: One line.
  ///   - arguments: Positional arguments.
  ///   - discussion: What it does.
  ///   - groups: Option groups.
  ///   - epilogue: Text after the options.
  public init(
    _ name: String, summary: String, arguments: [ArgumentSpec] = [], discussion: String,
    groups: [OptionGroup], epilogue: String = ""
  ) {
    self.name = name
    self.summary = summary
    self.arguments = arguments
    self.discussion = discussion
    self.groups = groups
    self.epilogue = epilogue
  }

  /// Every option of every group.
  public var options: [OptionSpec] { groups.flatMap(\.options) }

  /// The option a name selects.
  ///
  /// - Parameter name: `--fps`, `-o`, an alias.
  /// - Returns: The option, or `nil`.
  public func option(named name: String) -> OptionSpec? {
    options.first { $0.allNames.contains(name) }
  }
}
