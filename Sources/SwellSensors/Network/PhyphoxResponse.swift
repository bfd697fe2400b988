import Foundation

/// The JSON answer of phyphox's `/get`:
/// `{"buffer": {"NAME": {"size": N, "updateMode": "single"|"full"|"partial", "buffer": [...]}},
/// "status": {"session": "…", "measuring": true, "timedRun": false, "countDown": 0}}`.
///
/// phyphox writes numbers with 8 significant digits (`1.2345678E1`) and NaN or infinite values
/// as `null`; buffers it does not know are left out of `buffer`.
struct PhyphoxResponse: Decodable, Sendable {
  /// One buffer of the answer.
  struct Buffer: Decodable, Sendable {
    /// The buffer's capacity in the experiment (0 = unbounded).
    var size: Int?
    /// `single` (the last value), `full` (every value) or `partial` (values after a threshold).
    var updateMode: String?
    /// The values; `nil` where phyphox sent `null`.
    var buffer: [Double?]
  }

  /// The experiment state.
  struct Status: Decodable, Sendable {
    /// An id of the remote-access session (changes when the experiment is reloaded).
    var session: String?
    /// Whether the experiment is running.
    var measuring: Bool?
  }

  /// The buffers by name.
  var buffer: [String: Buffer]
  /// The experiment state, when sent.
  var status: Status?

  /// Decodes a body.
  ///
  /// - Parameter body: The UTF-8 JSON.
  /// - Returns: The response.
  /// - Throws: A short reason when the body is not a phyphox `/get` answer.
  static func decode(_ body: [UInt8]) throws(PhyphoxDecodeError) -> PhyphoxResponse {
    do {
      return try JSONDecoder().decode(PhyphoxResponse.self, from: Data(body))
    } catch let DecodingError.keyNotFound(key, context) {
      throw PhyphoxDecodeError(
        "missing key '\(key.stringValue)'\(path(context.codingPath))")
    } catch let DecodingError.typeMismatch(_, context) {
      throw PhyphoxDecodeError("wrong type\(path(context.codingPath))")
    } catch let DecodingError.valueNotFound(_, context) {
      throw PhyphoxDecodeError("unexpected null\(path(context.codingPath))")
    } catch {
      throw PhyphoxDecodeError(body.isEmpty ? "empty body" : "invalid JSON")
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.isEmpty
      ? ""
      : " at "
        + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        .joined(separator: ".")
  }
}

/// A body that is not a phyphox `/get` answer.
struct PhyphoxDecodeError: Error, Sendable {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
