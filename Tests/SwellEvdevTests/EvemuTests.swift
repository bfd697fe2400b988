import Foundation
import SwellEvdev
import SwellMotion
import SwellTestSupport
import Testing

/// A valid header, then `body`.
private func evemu(_ body: String) -> String {
  """
  # EVEMU 1.3
  N: Test Motion Sensors
  I: 0003 054c 0ce6 8111
  P: 40 00 00 00 00 00 00 00
  B: 03 3f 00 00 00 00 00 00 00
  A: 00 -32768 32768 16 0 8192

  """ + body
}

@Suite("evemu recordings")
private struct EvemuTests {
  @Test("the header's lines become the description")
  func header() throws {
    let text = evemu(
      """
      B: 00 0b 00 00 00 00 00 00 00
      B: 01 00 00 00 00 00 00 00 00
      B: 01 00 00 00 00 00 00 00 00
      B: 01 00 00 00 00 00 00 01 00
      L: 00 1
      S: 00 0
      E: 0.000001 0003 0000 0012\t# EV_ABS / ABS_X                 12
      E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
      """)
    let r = try EvemuRecording.parse(text, fileName: "t.evemu")
    #expect(r.description.name == "Test Motion Sensors")
    #expect(r.description.bus == 3 && r.description.vendor == 0x054c)
    #expect(r.description.product == 0x0ce6 && r.description.version == 0x8111)
    #expect(r.description.properties == [6])
    #expect(r.description.eventCodes[.absolute] == [0, 1, 2, 3, 4, 5])
    #expect(r.description.eventCodes[.synchronization] == [0, 1, 3])
    // The third line for EV_KEY continues the mask at bit 128: byte 6, bit 0 is code 176.
    #expect(r.description.eventCodes[.key] == [176])
    #expect(
      r.description.absoluteAxes[0]
        == EvdevAbsInfo(
          value: 0, minimum: -32768, maximum: 32768, fuzz: 16, flat: 0, resolution: 8192))
    #expect(
      r.events == [
        EvdevEvent(seconds: 0, microseconds: 1, type: .absolute, code: 0, value: 12),
        EvdevEvent(seconds: 0, microseconds: 1, type: .synchronization, code: 0, value: 0),
      ])
  }

  @Test("files older than format 1.2 have no resolution field: the decoder then refuses")
  func oldFormat() throws {
    let text = """
      # EVEMU 1.1
      N: Old
      I: 0003 0001 0002 0003
      P: 40 00 00 00 00 00 00 00
      A: 00 -10 10 0 0
      A: 01 -10 10 0 0
      A: 02 -10 10 0 0
      A: 03 -10 10 0 0
      A: 04 -10 10 0 0
      A: 05 -10 10 0 0
      E: 0.000001 0000 0000 0

      """
    let r = try EvemuRecording.parse(text, fileName: "old.evemu")
    #expect(r.description.absoluteAxes[0]?.resolution == 0)
    #expect(throws: EvdevDecodeError.missingResolution(device: "Old", code: 0)) {
      try r.samples()
    }
    #expect(throws: RecordingError.self) {
      try EvemuRecording.parse(text.replacingOccurrences(of: "1.1", with: "1.3"), fileName: "x")
    }
  }

  /// Malformed lines: (the line, the field named, the message).
  static let malformed: [(String, String?, String)] = [
    ("E: 0.1 0003 0000 5", "time", "'0.1' is not SECONDS.MICROSECONDS (six digits)"),
    ("E: 0.000001 zz 0000 5", "type", "'zz' is not a 16-bit hex number"),
    ("E: 0.000001 0020 0000 5", "type", "event type 0x20 is above EV_MAX (0x1f)"),
    ("E: 0.000001 0003 0300 5", "code", "code 0x300 is above KEY_MAX (0x2ff)"),
    ("E: 0.000001 0003 0000 99999999999", "value", "'99999999999' is not a 32-bit integer"),
    ("E: 0.000001 0003 0000", "value", "missing"),
    ("E: 0.000001 0003 0000 5 6", nil, "unexpected text after the last field"),
    ("E: 99999999999.000000 0003 0000 5", "time", "99999999999 s is beyond 10000000000.0 s"),
    ("B: 03 3f 00", "mask byte 3", "missing (a mask line has 8 bytes)"),
    ("P: 40 00 00 00 00 00 00 1ff", "mask byte 8", "'1ff' is not a hex byte"),
    ("A: 40 0 1 0 0 1", "code", "axis 0x40 is above ABS_MAX (0x3f)"),
    ("A: 01 5 1 0 0 1", "maximum", "maximum 1 is below minimum 5"),
    ("A: 01 0 x 0 0 1", "maximum", "'x' is not a 32-bit integer"),
    ("N: Second", "name", "a second 'N:' line"),
    ("hello", nil, "not an evemu line (expected 'X: ...' or a '# comment')"),
  ]

  @Test(
    "a malformed line names the file, the line and the field",
    arguments: 0..<EvemuTests.malformed.count)
  func malformedLine(_ index: Int) {
    let (line, field, message) = Self.malformed[index]
    // The header is 6 lines; the bad line is line 7.
    let expected = RecordingError(file: "bad.evemu", line: 7, column: field, message: message)
    #expect(throws: expected) {
      try EvemuRecording.parse(evemu(line + "\n"), fileName: "bad.evemu")
    }
  }

  @Test("structural problems: no name, events before the header, time going backwards")
  func structure() {
    #expect(
      throws: RecordingError(
        file: "e.evemu", message: "not an evemu recording: no 'N:' (device name) line")
    ) {
      try EvemuRecording.parse("# EVEMU 1.3\n# nothing\n", fileName: "e.evemu")
    }
    #expect(
      throws: RecordingError(
        file: "e.evemu", line: 2, message: "an event before the 'N:' and 'I:' lines")
    ) {
      try EvemuRecording.parse("N: x\nE: 0.000001 0000 0000 0\n", fileName: "e.evemu")
    }
    #expect(
      throws: RecordingError(
        file: "e.evemu", line: 8, column: "time",
        message: "goes back in time (before the previous event's)")
    ) {
      try EvemuRecording.parse(
        evemu("E: 1.000000 0000 0000 0\nE: 0.999999 0000 0000 0\n"), fileName: "e.evemu")
    }
    #expect(
      throws: RecordingError(
        file: "e.evemu", line: 8, message: "a description line after the first event")
    ) {
      try EvemuRecording.parse(
        evemu("E: 1.000000 0000 0000 0\nA: 01 0 1 0 0 1\n"), fileName: "e.evemu")
    }
    let long = String(repeating: "#", count: EvemuRecording.maximumLineLength + 1)
    #expect(
      throws: RecordingError(file: "e.evemu", line: 1, message: "line longer than 4096 bytes")
    ) {
      try EvemuRecording.parse(long, fileName: "e.evemu")
    }
  }

  @Test("event lines are written as evemu_write_event does (printf's %04x and %04d)")
  func eventLines() {
    var writer = EvemuWriter(description: dualSenseDescription(), relativeTime: false)
    let e = EvdevEvent(seconds: 12, microseconds: 34, type: .absolute, code: 0x1f, value: -5)
    #expect(writer.line(for: e) == "E: 12.000034 0003 001f -005\n")
    let f = EvdevEvent(seconds: 0, microseconds: 999_999, type: .miscellaneous, code: 5, value: 7)
    #expect(writer.line(for: f) == "E: 0.999999 0004 0005 0007\n")
    let g = EvdevEvent(seconds: 1, microseconds: 0, type: .absolute, code: 0, value: -123_456)
    #expect(writer.line(for: g) == "E: 1.000000 0003 0000 -123456\n")
    // Relative time, as evemu-record: the first event is at 0.000001.
    var relative = EvemuWriter(description: dualSenseDescription())
    #expect(relative.line(for: e) == "E: 0.000001 0003 001f -005\n")
    let later = EvdevEvent(seconds: 13, microseconds: 500_034, type: .absolute, code: 1, value: 0)
    #expect(relative.line(for: later) == "E: 1.500001 0003 0001 0000\n")
  }

  @Test("the header is evemu's N:, I:, P:, B: and A: lines")
  func headerLines() {
    let lines = EvemuWriter(description: dualSenseDescription()).header.split(separator: "\n")
    let kept = lines.filter { !$0.hasPrefix("#") }
    #expect(
      kept == [
        "N: Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
        "I: 0003 054c 0ce6 8111",
        "P: 40 00 00 00 00 00 00 00",
        "B: 00 0b 00 00 00 00 00 00 00",
        "B: 03 3f 00 00 00 00 00 00 00",
        "B: 04 20 00 00 00 00 00 00 00",
        "A: 00 -32768 32768 16 0 8192",
        "A: 01 -32768 32768 16 0 8192",
        "A: 02 -32768 32768 16 0 8192",
        "A: 03 -2097152 2097152 16 0 1024",
        "A: 04 -2097152 2097152 16 0 1024",
        "A: 05 -2097152 2097152 16 0 1024",
      ])
    #expect(lines.first == "# EVEMU 1.3")
  }

  @Test("random recordings survive text() and parse() (seeded)", arguments: [UInt64(1), 2, 3, 26])
  func roundTrip(_ seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<20 {
      let letters = Array("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789-_()\"'é")
      var name = String(
        (0..<Int.random(in: 1...60, using: &rng)).map { _ in
          letters.randomElement(using: &rng)!
        })
      name = "N" + name + "X"
      var codes: [EvdevEventType: Set<UInt16>] = [:]
      for _ in 0..<Int.random(in: 0...4, using: &rng) {
        let type = EvdevEventType(rawValue: UInt16.random(in: 0...0x1f, using: &rng))
        codes[type] = Set(
          (0..<Int.random(in: 0...20, using: &rng)).map { _ in
            UInt16.random(in: 0...0x2ff, using: &rng)
          })
      }
      var axes: [UInt16: EvdevAbsInfo] = [:]
      for _ in 0..<Int.random(in: 0...8, using: &rng) {
        let lo = Int32.random(in: -3_000_000...0, using: &rng)
        axes[UInt16.random(in: 0...0x3f, using: &rng)] = EvdevAbsInfo(
          minimum: lo, maximum: lo + Int32.random(in: 0...5_000_000, using: &rng),
          fuzz: Int32.random(in: 0...64, using: &rng), flat: Int32.random(in: 0...8, using: &rng),
          resolution: Int32.random(in: -5...20000, using: &rng))
      }
      let description = EvdevDeviceDescription(
        name: name, bus: .random(in: 0...0xffff, using: &rng),
        vendor: .random(in: 0...0xffff, using: &rng), product: .random(in: 0...0xffff, using: &rng),
        version: .random(in: 0...0xffff, using: &rng),
        properties: Set(
          (0..<Int.random(in: 0...5, using: &rng)).map { _ in
            Int.random(in: 0...0x1f, using: &rng)
          }),
        absoluteAxes: axes, eventCodes: codes,
        uniq: Bool.random(using: &rng) ? "aa:bb:\(seed)" : nil,
        phys: Bool.random(using: &rng) ? "usb-0000:00:14.0-\(seed)/input3" : nil)
      var micros = Int64.random(in: 0...5_000_000_000, using: &rng)
      var events: [EvdevEvent] = []
      for _ in 0..<Int.random(in: 0...200, using: &rng) {
        micros += Int64.random(in: 0...10_000, using: &rng)
        events.append(
          EvdevEvent(
            seconds: micros / 1_000_000, microseconds: micros % 1_000_000,
            type: EvdevEventType(rawValue: .random(in: 0...0x1f, using: &rng)),
            code: .random(in: 0...0x2ff, using: &rng),
            value: .random(in: .min ... .max, using: &rng)))
      }
      let recording = EvemuRecording(description: description, events: events)
      let parsed = try EvemuRecording.parse(recording.text(), fileName: "r.evemu")
      #expect(parsed == recording)
    }
  }

  @Test("a recording written with the streaming writer decodes like the events fed directly")
  func streamingWriter() throws {
    let source = try fixture("dualsense.evemu")
    var writer = EvemuWriter(description: source.description, relativeTime: false)
    var text = writer.header
    for e in source.events { text += writer.line(for: e) }
    let again = try EvemuRecording.parse(text, fileName: "again.evemu")
    #expect(again == source)
    #expect(try again.samples() == source.samples())
  }
}
