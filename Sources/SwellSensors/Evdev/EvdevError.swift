import Glibc

/// An error finding, opening or reading a Linux input (evdev) motion-sensor node, naming the
/// file involved.
public struct EvdevError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The one-line reason, naming the file and, for a permission problem, the node's group and
  /// the udev rule that grants access.
  public var message: String
  /// The file or directory involved.
  public var path: String
  /// The `errno` value behind the failure, or 0 when it is a content problem.
  public var code: Int32

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - message: The one-line reason.
  ///   - path: The file involved.
  ///   - code: The `errno` value, or 0.
  public init(_ message: String, path: String, code: Int32 = 0) {
    self.message = message
    self.path = path
    self.code = code
  }

  /// The message.
  public var description: String { message }

  /// True when the error means the node is gone (the pad was unplugged or its driver unbound).
  public var isDeviceGone: Bool { code == ENODEV || code == ENOENT || code == ENXIO }

  /// True when the error is a permission problem.
  public var isPermissionDenied: Bool { code == EACCES || code == EPERM }

  /// The udev rule that lets the person at the seat read every motion-sensor node.
  ///
  /// systemd's `70-uaccess.rules` tags joysticks with `uaccess` (`SUBSYSTEM=="input",
  /// ENV{ID_INPUT_JOYSTICK}=="?*", TAG+="uaccess"`), so a pad's buttons are readable, but its
  /// motion node is classified `ID_INPUT_ACCELEROMETER` by udev's `input_id` builtin (from
  /// `INPUT_PROP_ACCELEROMETER`, systemd `src/udev/udev-builtin-input_id.c`) and stays
  /// `root:input 0660`. The tag is turned into an ACL by `73-seat-late.rules`, so the file's
  /// number must sort before 73: install it as ``udevRulePath``, then run
  /// `udevadm control --reload` and `udevadm trigger`, and plug the pad in again.
  public static let udevRule =
    #"SUBSYSTEM=="input", KERNEL=="event*", ENV{ID_INPUT_ACCELEROMETER}=="1", TAG+="uaccess""#

  /// Where ``udevRule`` goes.
  public static let udevRulePath = "/etc/udev/rules.d/70-swell-motion.rules"

  /// Builds the error for a failed system call on a file.
  ///
  /// - Parameters:
  ///   - action: What was being done, e.g. "cannot open".
  ///   - path: The file.
  ///   - code: The `errno` value.
  /// - Returns: An error whose message names the node's group and the fix for a permission
  ///   problem, and says "the device is gone" for a vanished node.
  static func system(_ action: String, path: String, code: Int32) -> EvdevError {
    var text = "\(action) \(path): \(errorText(code))"
    if code == EACCES || code == EPERM {
      text += permissionAdvice(for: path)
    } else if code == ENODEV || code == ENOENT || code == ENXIO {
      text += " (the device is gone)"
    }
    return EvdevError(text, path: path, code: code)
  }

  /// The rest of the permission line: who owns the node and how to get access.
  static func permissionAdvice(for path: String) -> String {
    var info = stat()
    var owner = ""
    if stat(path, &info) == 0 {
      let group = groupName(info.st_gid)
      owner = " (group \(group), mode \(String(info.st_mode & 0o777, radix: 8)))"
      return owner
        + "; add the udev rule '\(udevRule)' as \(udevRulePath) and replug the pad, "
        + "or join the \(group) group"
    }
    return "; add the udev rule '\(udevRule)' as \(udevRulePath) and replug the pad"
  }

  /// The name of a group id (`getgrgid_r`), or the number when it has no name.
  static func groupName(_ gid: gid_t) -> String {
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 4096)
    let status = getgrgid_r(gid, &entry, &buffer, buffer.count, &result)
    guard status == 0, result != nil, let name = entry.gr_name else { return String(gid) }
    return String(cString: name)
  }
}
