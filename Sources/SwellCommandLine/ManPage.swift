/// The tool's manual page, `TOOL(1)` in roff (the `man` macros), generated from the command
/// declarations: NAME, SYNOPSIS, DESCRIPTION, the tool's options, a section per command with its
/// options and their defaults, and EXAMPLES.
public enum ManPage {
  /// The page's roff source.
  ///
  /// - Parameters:
  ///   - tool: The tool's name (`swell`).
  ///   - version: The version shown in the footer.
  ///   - summary: One line for NAME.
  ///   - description: The DESCRIPTION paragraphs.
  ///   - toolOptions: The tool's own options.
  ///   - commands: Every command's declaration.
  ///   - seeAlso: Pages for SEE ALSO (`ffmpeg(1)`).
  /// - Returns: The page, ending with a line break.
  public static func roff(
    tool: String, version: String, summary: String, description: String,
    toolOptions: [OptionSpec], commands: [CommandSpec], seeAlso: [String] = []
  ) -> String {
    var s =
      ".TH \(tool.uppercased()) 1 \"\" \"\(tool) \(escape(version))\" \"User Commands\"\n.nh\n.ad l\n"
    s += ".SH NAME\n\(tool) \\- \(escape(summary))\n"
    s += ".SH SYNOPSIS\n.B \(tool)\n.I COMMAND\n.RI [ options ]\n.br\n"
    s += ".B \(tool) help\n.I COMMAND\n"
    s += ".SH DESCRIPTION\n" + paragraphs(description)
    s += ".SH OPTIONS\n"
    for o in toolOptions + [OptionSpec("-h", "--help", help: "show the help and exit")] {
      s += item(o)
    }
    s += ".SH COMMANDS\n"
    for c in commands {
      s += ".SS \"\(tool) \(c.name)\"\n"
      s += ".B \(tool) \(c.name)\n"
      if !c.options.isEmpty { s += ".RI [ options ]\n" }
      for a in c.arguments where a.isShownInUsage {
        s += a.isOptional ? ".RI [ \(escape(a.name)) ]\n" : ".I \(quoted(a.name))\n"
      }
      s += ".PP\n" + escape(c.summary) + ".\n"
      s += paragraphs(c.discussion)
      for g in c.groups where !g.options.isEmpty {
        s += ".PP\n" + (g.title.map { "\\fB\(escape($0)):\\fR" } ?? "\\fBOptions:\\fR") + "\n"
        for o in g.options { s += item(o) }
      }
      if !c.epilogue.isEmpty { s += paragraphs(c.epilogue) }
    }
    let examples = commands.flatMap { c in c.examples.map { "\(tool) \($0)" } }
    if !examples.isEmpty {
      s += ".SH EXAMPLES\n"
      for e in examples { s += ".PP\n.nf\n  \(escape(e))\n.fi\n" }
    }
    s += ".SH EXIT STATUS\n"
    s += ".TP\n0\nsuccess\n.TP\n1\nthe work failed (bad input, a failed encoder)\n"
    s += ".TP\n64\nthe command line was wrong\n"
    s += ".TP\n130, 143\ninterrupted by SIGINT or terminated by SIGTERM\n"
    if !seeAlso.isEmpty {
      s += ".SH SEE ALSO\n"
      s +=
        seeAlso.map { page -> String in
          guard let open = page.firstIndex(of: "(") else { return escape(page) }
          return "\\fB\(escape(String(page[..<open])))\\fR\(page[open...])"
        }.joined(separator: ",\n") + "\n"
    }
    return s
  }

  /// One option as a tagged paragraph: names and value in bold and italics, then its help with
  /// the generated default.
  private static func item(_ o: OptionSpec) -> String {
    let names = o.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
    var head = names
    switch o.kind {
    case .flag: break
    case .value(let v), .repeated(let v): head += " \\fI\(escape(v))\\fR"
    }
    return ".TP\n\(head)\n\(escape(o.fullHelp))\n"
  }

  /// Paragraphs of help text: blank lines separate them; indented lines (examples, tables) are
  /// kept as written.
  private static func paragraphs(_ text: String) -> String {
    var out = ""
    var inLiteral = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty {
        if inLiteral {
          out += ".fi\n"
          inLiteral = false
        }
        continue
      }
      if line.hasPrefix(" ") {
        if !inLiteral {
          out += ".PP\n.nf\n"
          inLiteral = true
        }
        out += escape(String(line)) + "\n"
        continue
      }
      if inLiteral {
        out += ".fi\n"
        inLiteral = false
      }
      out += ".PP\n" + escape(String(line)) + "\n"
    }
    if inLiteral { out += ".fi\n" }
    return out
  }

  private static func quoted(_ text: String) -> String {
    text.contains(" ") ? "\"\(escape(text))\"" : escape(text)
  }

  /// Text for roff: backslashes and hyphens escaped, a leading dot or quote protected.
  static func escape(_ text: String) -> String {
    var s = text.replacingOccurrences(of: "\\", with: "\\e")
    s = s.replacingOccurrences(of: "-", with: "\\-")
    if s.hasPrefix(".") || s.hasPrefix("'") { s = "\\&" + s }
    // A long word (a list of buffer names) may break after its commas and semicolons.
    return s.split(separator: " ", omittingEmptySubsequences: false).map { word in
      guard word.count > 40 else { return String(word) }
      return word.replacingOccurrences(of: ",", with: ",\\:")
        .replacingOccurrences(of: ";", with: ";\\:")
    }.joined(separator: " ")
  }
}
