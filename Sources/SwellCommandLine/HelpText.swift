extension CommandSpec {
  /// The usage line: `Usage: swell NAME [options] ARGS`.
  ///
  /// - Parameter tool: The tool's name (`swell`).
  /// - Returns: The line, without a line break.
  public func usage(tool: String = "swell") -> String {
    var words = ["Usage:", tool, name]
    if !options.isEmpty { words.append("[options]") }
    for a in arguments where a.isShownInUsage {
      words.append(a.isOptional ? "[\(a.name)]" : a.name)
    }
    return words.joined(separator: " ")
  }

  /// The help text, generated from the declarations: usage, discussion, each option group with
  /// its options aligned (help wrapped at 100 columns), the epilogue.
  ///
  /// - Parameter tool: The tool's name (`swell`).
  /// - Returns: The text, ending with a line break.
  public func helpText(tool: String = "swell") -> String {
    var out = usage(tool: tool) + "\n\n"
    if !discussion.isEmpty { out += wrap(discussion, indent: "", width: 100) + "\n" }
    let help = OptionSpec("-h", "--help", help: "show this help")
    var groups = self.groups
    if let i = groups.firstIndex(where: { $0.title == nil }) {
      groups[i].options.append(help)
    } else {
      groups.insert(OptionGroup(nil, [help]), at: 0)
    }
    let column = min(
      28, (groups.flatMap(\.options).map { $0.signature.count }.max() ?? 0) + 4)
    for g in groups where !g.options.isEmpty {
      out += "\n" + (g.title.map { "\($0):" } ?? "Options:") + "\n"
      for o in g.options {
        let head = "  " + o.signature
        let body = wrap(o.fullHelp, indent: String(repeating: " ", count: column), width: 100)
        if head.count + 2 <= column {
          let padded = head.padding(toLength: column, withPad: " ", startingAt: 0)
          out += padded + body.dropFirst(column) + "\n"
        } else {
          out += head + "\n" + body + "\n"
        }
      }
    }
    if !epilogue.isEmpty { out += "\n" + wrap(epilogue, indent: "", width: 100) + "\n" }
    return out
  }
}

/// Wraps text at `width` columns, each line starting with `indent`; blank lines and lines that
/// start with spaces (examples, tables) are kept as written.
func wrap(_ text: String, indent: String, width: Int) -> String {
  var lines: [String] = []
  for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
    if paragraph.isEmpty || paragraph.hasPrefix(" ") {
      lines.append(paragraph.isEmpty ? "" : indent + paragraph)
      continue
    }
    var line = indent
    for word in paragraph.split(separator: " ") {
      if line.count > indent.count && line.count + 1 + word.count > width {
        lines.append(line)
        line = indent
      }
      line += (line.count > indent.count ? " " : "") + word
    }
    lines.append(line)
  }
  return lines.joined(separator: "\n")
}
