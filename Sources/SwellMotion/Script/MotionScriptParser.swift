import Foundation
import SwellGeometry

/// The parser of the motion-script language (see ``MotionScript`` and `docs/script.md`).
enum MotionScriptParser {
  struct Word {
    var text: String
    var line: Int
    var column: Int
  }

  /// Splits the text into statements of words with positions; `;` and newlines end statements,
  /// `#` starts a comment to the end of the line.
  static func statements(_ text: String) -> [[Word]] {
    var out: [[Word]] = []
    var current: [Word] = []
    var word = ""
    var wordLine = 1
    var wordColumn = 1
    var line = 1
    var column = 1
    var inComment = false
    func flushWord() {
      if !word.isEmpty { current.append(Word(text: word, line: wordLine, column: wordColumn)) }
      word = ""
    }
    func flushStatement() {
      flushWord()
      if !current.isEmpty { out.append(current) }
      current = []
    }
    for ch in text {
      if ch == "\n" || ch == "\r\n" {
        inComment = false
        flushStatement()
        line += 1
        column = 1
        continue
      }
      defer { column += 1 }
      if inComment { continue }
      if ch == "#" {
        inComment = true
        flushStatement()
      } else if ch == ";" {
        flushStatement()
      } else if ch.isWhitespace || ch == "," {
        flushWord()
      } else {
        if word.isEmpty {
          wordLine = line
          wordColumn = column
        }
        word.append(ch)
      }
    }
    flushStatement()
    return out
  }

  static func parse(_ text: String) throws(MotionScriptError) -> [MotionScript.Step] {
    var steps: [MotionScript.Step] = []
    for words in statements(text) {
      var cursor = Cursor(words: words)
      steps.append(try cursor.statement())
    }
    return steps
  }

  /// Reads one statement.
  struct Cursor {
    let words: [Word]
    var index = 0

    init(words: [Word]) { self.words = words }

    var endPosition: (Int, Int) {
      guard let last = words.last else { return (1, 1) }
      return (last.line, last.column + last.text.count)
    }

    mutating func next(_ what: String, after: String) throws(MotionScriptError) -> Word {
      guard index < words.count else {
        let (l, c) = endPosition
        throw MotionScriptError("missing \(what) after '\(after)'", line: l, column: c)
      }
      defer { index += 1 }
      return words[index]
    }

    func finish() throws(MotionScriptError) {
      if index < words.count {
        let w = words[index]
        throw MotionScriptError(
          "unexpected script word '\(w.text)' (use ';' between steps)", line: w.line,
          column: w.column)
      }
    }

    func peek() -> String? { index < words.count ? words[index].text.lowercased() : nil }

    mutating func statement() throws(MotionScriptError) -> MotionScript.Step {
      let head = words[index]
      index += 1
      let step: MotionScript.Step
      switch head.text.lowercased() {
      case "hold", "wait":
        step = .hold(duration: try duration(after: head.text))
      case "flat": step = .pose(.flat)
      case "portrait", "upright": step = .pose(.portrait)
      case "landscape":
        let side = try next("'left' or 'right'", after: head.text)
        switch side.text.lowercased() {
        case "left": step = .pose(.landscapeLeft)
        case "right": step = .pose(.landscapeRight)
        default:
          throw MotionScriptError(
            "expected 'left' or 'right', got '\(side.text)'", line: side.line, column: side.column)
        }
      case "tilt":
        let a = try angle(after: head.text)
        let dir = try next("a direction (left, right, forward, back)", after: head.text)
        let axis: Vector3
        let sign: Double
        switch dir.text.lowercased() {
        case "right", "clockwise": (axis, sign) = (.unitZ, -1)
        case "left", "counterclockwise": (axis, sign) = (.unitZ, 1)
        case "forward", "away": (axis, sign) = (.unitX, -1)
        case "back", "backward", "toward": (axis, sign) = (.unitX, 1)
        default:
          throw MotionScriptError(
            "unknown tilt direction '\(dir.text)' (use left, right, forward or back)",
            line: dir.line, column: dir.column)
        }
        step = .rotate(
          axis: axis, inReferenceFrame: false, angle: sign * a, duration: try over(after: dir))
      case "rotate":
        let a = try angle(after: head.text)
        let about = try next("'about'", after: head.text)
        guard about.text.lowercased() == "about" else {
          throw MotionScriptError(
            "expected 'about', got '\(about.text)'", line: about.line, column: about.column)
        }
        let axis = try self.axis(after: about.text)
        step = .rotate(
          axis: axis, inReferenceFrame: false, angle: a, duration: try over(after: about))
      case "turn":
        let a = try angle(after: head.text)
        let dir = try next("'left' or 'right'", after: head.text)
        let sign: Double
        switch dir.text.lowercased() {
        case "left": sign = 1
        case "right": sign = -1
        default:
          throw MotionScriptError(
            "expected 'left' or 'right', got '\(dir.text)'", line: dir.line, column: dir.column)
        }
        step = .rotate(
          axis: .unitZ, inReferenceFrame: true, angle: sign * a, duration: try over(after: dir))
      case "shake":
        let axis = try self.axis(after: head.text)
        let f = try quantity("a frequency like '3Hz'", after: head.text, units: ["hz": 1])
        guard f > 0 else {
          let w = words[index - 1]
          throw MotionScriptError(
            "frequency must be positive, got '\(w.text)'", line: w.line, column: w.column)
        }
        let rate = try quantity(
          "a rate like '2rad/s'", after: head.text,
          units: ["rad/s": 1, "deg/s": .pi / 180, "°/s": .pi / 180])
        let forWord = try next("'for'", after: head.text)
        guard forWord.text.lowercased() == "for" else {
          throw MotionScriptError(
            "expected 'for', got '\(forWord.text)'", line: forWord.line, column: forWord.column)
        }
        step = .shake(
          axis: axis, frequency: f, peakRate: rate, duration: try duration(after: "for"))
      case "push":
        let axis = try self.axis(after: head.text)
        let g = try quantity(
          "an acceleration like '0.5g'", after: head.text,
          units: ["g": 1, "m/s2": 1 / 9.806_65, "m/s²": 1 / 9.806_65])
        let forWord = try next("'for'", after: head.text)
        guard forWord.text.lowercased() == "for" else {
          throw MotionScriptError(
            "expected 'for', got '\(forWord.text)'", line: forWord.line, column: forWord.column)
        }
        step = .push(acceleration: axis * g, duration: try duration(after: "for"))
      default:
        throw MotionScriptError(
          "unknown script word '\(head.text)'", line: head.line, column: head.column)
      }
      try finish()
      return step
    }

    /// `over DURATION`, optional (default 0.5 s).
    mutating func over(after: Word) throws(MotionScriptError) -> Double {
      guard let p = peek() else { return 0.5 }
      guard p == "over" else {
        let w = words[index]
        throw MotionScriptError(
          "expected 'over', got '\(w.text)'", line: w.line, column: w.column)
      }
      index += 1
      return try duration(after: "over")
    }

    mutating func axis(after: String) throws(MotionScriptError) -> Vector3 {
      let w = try next("an axis (x, y or z)", after: after)
      switch w.text.lowercased() {
      case "x", "+x": return .unitX
      case "y", "+y": return .unitY
      case "z", "+z": return .unitZ
      case "-x": return -Vector3.unitX
      case "-y": return -Vector3.unitY
      case "-z": return -Vector3.unitZ
      default:
        throw MotionScriptError(
          "expected an axis (x, y or z), got '\(w.text)'", line: w.line, column: w.column)
      }
    }

    mutating func duration(after: String) throws(MotionScriptError) -> Double {
      let v = try quantity(
        "a duration like '1s'", after: after, units: ["s": 1, "ms": 0.001, "sec": 1])
      guard v >= 0 else {
        let w = words[index - 1]
        throw MotionScriptError(
          "duration must not be negative, got '\(w.text)'", line: w.line, column: w.column)
      }
      return v
    }

    mutating func angle(after: String) throws(MotionScriptError) -> Double {
      try quantity(
        "an angle like '30deg'", after: after, units: ["deg": .pi / 180, "°": .pi / 180, "rad": 1])
    }

    /// A number immediately followed by one of the units (case-insensitive), or a number word
    /// followed by a unit word (`30 deg`).
    mutating func quantity(_ what: String, after: String, units: [String: Double])
      throws(MotionScriptError) -> Double
    {
      let w = try next(what, after: after)
      var text = w.text.lowercased()
      if Double(text) != nil, let u = peek(), units[u] != nil {
        text += u
        index += 1
      }
      // Longest unit suffix first so that `ms` wins over `s`.
      for (unit, factor) in units.sorted(by: { $0.key.count > $1.key.count })
      where text.hasSuffix(unit) {
        let number = String(text.dropLast(unit.count))
        guard let v = Double(number), v.isFinite else { break }
        let r = v * factor
        guard r.isFinite, abs(r) < 1e9 else { break }
        return r
      }
      throw MotionScriptError(
        "expected \(what), got '\(w.text)'", line: w.line, column: w.column)
    }
  }
}
