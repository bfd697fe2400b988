import SwellMotion

/// Why a node's description cannot be decoded into motion samples.
public enum EvdevDecodeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The node lacks `INPUT_PROP_ACCELEROMETER`: it is a gamepad, touchpad or other input node,
  /// not the motion node beside it. The payload is the device's name.
  case notMotionSensor(device: String)
  /// The node does not describe one of the six axes Swell needs (`ABS_X`...`ABS_RZ`).
  case missingAxis(device: String, code: UInt16)
  /// An axis's `resolution` is zero or negative, so its units are unknown (Swell takes units only
  /// from `input_absinfo.resolution`, never from a table of guesses).
  case missingResolution(device: String, code: UInt16)

  /// One line naming the device and what is wrong.
  public var description: String {
    switch self {
    case .notMotionSensor(let device):
      return "'\(UntrustedText.clipped(device))' is not a motion sensor node "
        + "(no INPUT_PROP_ACCELEROMETER property)"
    case .missingAxis(let device, let code):
      return "'\(UntrustedText.clipped(device))' has no \(EvdevCode.absName(code)) axis"
    case .missingResolution(let device, let code):
      return "'\(UntrustedText.clipped(device))': axis \(EvdevCode.absName(code)) has no "
        + "resolution, so its units are unknown"
    }
  }
}

extension EvdevCode {
  /// The `ABS_*` name of a motion axis code, or the code in hex.
  static func absName(_ code: UInt16) -> String {
    let names = ["ABS_X", "ABS_Y", "ABS_Z", "ABS_RX", "ABS_RY", "ABS_RZ"]
    return code < names.count ? names[Int(code)] : "ABS 0x" + String(code, radix: 16)
  }
}
