import Foundation
import SwellMotion
import SwellScenes
import Testing

/// Splits CSV text into records of fields per RFC 4180 (quoted fields may hold commas, doubled
/// quotes and line breaks); written here so the test does not trust the writer's rules.
private func parseCSV(_ text: String) -> [[String]] {
  var records: [[String]] = []
  var record: [String] = []
  var field = ""
  var quoted = false
  var chars = Array(text.unicodeScalars)[...]
  while let c = chars.popFirst() {
    if quoted {
      if c == "\"" {
        if chars.first == "\"" {
          chars.removeFirst()
          field.unicodeScalars.append("\"")
        } else {
          quoted = false
        }
      } else {
        field.unicodeScalars.append(c)
      }
    } else if c == "\"" && field.isEmpty {
      quoted = true
    } else if c == "," {
      record.append(field)
      field = ""
    } else if c == "\n" {
      record.append(field)
      records.append(record)
      record = []
      field = ""
    } else {
      field.unicodeScalars.append(c)
    }
  }
  if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
  return records
}

/// Names that break naive CSV and JSON writers.
private let hostileNames = [
  #"wa"ter,1"#, "a,b", #"say "hi""#, "line\nbreak", "cr\r\nlf", #"back\slash\"#, "tab\there",
  "bell\u{07}nul\u{00}esc\u{1B}", "\u{1F}unit", " padded ", "Wasser·水🌊", "é\u{301}",
  "\u{2028}separator", "",
]

@Suite("Trace escaping")
private struct TraceEscapingTests {
  /// The trace text for the keys and two rows.
  private func trace(keys: [String], json: Bool) -> String {
    let format = SceneTraceFormat(keys: keys, json: json)
    var text = format.header
    let rows = [
      [0.0] + keys.indices.map { Double($0) + 0.5 }, [1.0 / 60] + keys.indices.map { -Double($0) },
    ]
    for (i, row) in rows.enumerated() { format.appendRow(row, first: i == 0, to: &text) }
    return text + format.footer
  }

  @Test("JSON traces with hostile key names parse with JSONSerialization and keep the names")
  func jsonParses() throws {
    let keys = hostileNames.map { "\($0).amplitude" }
    let text = trace(keys: keys, json: true)
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let objects = try #require(parsed as? [[String: Any]])
    #expect(objects.count == 2)
    for (row, object) in objects.enumerated() {
      #expect(object.count == keys.count + 1)
      #expect(object["time"] is NSNumber)
      for (i, key) in keys.enumerated() {
        let value = try #require(object[key] as? NSNumber, "missing \(key.debugDescription)")
        #expect(value.doubleValue == (row == 0 ? Double(i) + 0.5 : -Double(i)))
      }
    }
  }

  @Test("CSV traces with hostile key names have as many fields in the header as in each row")
  func csvFieldsAlign() {
    let keys = hostileNames.map { "\($0).volume" }
    let records = parseCSV(trace(keys: keys, json: false))
    #expect(records.count == 3)
    #expect(records[0] == ["time"] + keys)
    for record in records.dropFirst() { #expect(record.count == keys.count + 1) }
  }

  @Test("escapes follow RFC 8259 and RFC 4180 character by character")
  func escapes() {
    #expect(SceneTraceFormat.jsonString(#"wa"ter,1"#) == #""wa\"ter,1""#)
    #expect(
      SceneTraceFormat.jsonString("a\\b\n\t\u{00}\u{1F}\u{08}\u{0C}\r")
        == #""a\\b\n\t\u0000\u001F\b\f\r""#)
    #expect(SceneTraceFormat.jsonString("é水🌊\u{7F}") == "\"é水🌊\u{7F}\"")
    #expect(SceneTraceFormat.csvField(#"wa"ter,1"#) == #""wa""ter,1""#)
    #expect(SceneTraceFormat.csvField("plain.key") == "plain.key")
    #expect(SceneTraceFormat.csvField("two\nlines") == "\"two\nlines\"")
  }

  @Test("a scene whose water layer is named wa\"ter,1 traces to valid JSON and aligned CSV")
  func sceneWithHostileLayerName() throws {
    let json = """
      {"swellScene": 1, "name": "hostile",
       "canvas": {"width": 100, "height": 200, "scale": 1, "background": "#FFFFFF"},
       "layers": [{"type": "waterWave", "name": "wa\\"ter,1",
                   "water": {"fillLevel": 0.5,
                             "waves": [{"amplitude": 4, "wavelength": 80, "phaseSpeed": 1,
                                        "fill": "#3380F2"}]}}]}
      """
    let scene = FileScene(file: try SceneFile.decode(Data(json.utf8), source: "hostile.json"))
    #expect(scene.traceKeys.first == #"wa"ter,1.transform.rotation.z"#)
    var driver = SceneDriver(
      scene: scene,
      motion: try MotionScript(parsing: "tilt 20deg right over 0.2s").samples(rate: 100),
      framesPerSecond: 30)
    let rows = try driver.trace(frames: 6)
    for json in [false, true] {
      let format = SceneTraceFormat(keys: scene.traceKeys, json: json)
      var text = format.header
      for (i, row) in rows.enumerated() { format.appendRow(row, first: i == 0, to: &text) }
      text += format.footer
      if json {
        let objects = try #require(
          try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(objects.count == rows.count)
        #expect(objects.allSatisfy { $0[#"wa"ter,1.amplitude"#] is NSNumber })
      } else {
        let records = parseCSV(text)
        #expect(records.count == rows.count + 1)
        #expect(records.allSatisfy { $0.count == scene.traceKeys.count + 1 })
        #expect(records[0][1] == #"wa"ter,1.transform.rotation.z"#)
      }
    }
  }
}
