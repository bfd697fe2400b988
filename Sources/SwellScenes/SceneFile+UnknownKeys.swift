import Foundation

extension SceneFile {
  /// The keys of a scene file that Swell does not read (a misspelt optional key, say), as JSON
  /// paths (`layers[1].cornerRadious`), in file order.
  ///
  /// A key is known when it survives decoding and encoding again: the file is decoded, encoded
  /// back, and every key of the original JSON that has no counterpart at the same path in the
  /// re-encoded JSON is reported. (`viewerOffset` is not searched: its decoder already refuses
  /// keys it does not know, and its encoder leaves out the defaults.)
  ///
  /// - Parameters:
  ///   - data: The file's JSON.
  ///   - file: The decoded scene (``SceneFile/decode(_:source:)``).
  /// - Returns: The unknown keys' paths (empty when there are none or the JSON is not an object).
  public static func unknownKeys(in data: Data, decoded file: SceneFile) -> [String] {
    guard let original = try? JSONSerialization.jsonObject(with: data),
      let reencoded = try? file.encoded(),
      let known = try? JSONSerialization.jsonObject(with: reencoded)
    else { return [] }
    var out: [String] = []
    collect(original, known, path: "", into: &out)
    return out
  }

  private static func collect(_ value: Any, _ known: Any, path: String, into out: inout [String]) {
    if let object = value as? [String: Any] {
      let knownObject = known as? [String: Any] ?? [:]
      for key in object.keys.sorted() {
        let child = path.isEmpty ? key : "\(path).\(key)"
        if child == "viewerOffset" { continue }
        guard let k = knownObject[key] else {
          out.append(child)
          continue
        }
        if let v = object[key] { collect(v, k, path: child, into: &out) }
      }
    } else if let array = value as? [Any] {
      let knownArray = known as? [Any] ?? []
      for (i, element) in array.enumerated() where i < knownArray.count {
        collect(element, knownArray[i], path: "\(path)[\(i)]", into: &out)
      }
    }
  }
}
