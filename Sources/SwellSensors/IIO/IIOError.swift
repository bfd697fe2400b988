import Glibc

/// An error reading or configuring a Linux IIO sensor, naming the file involved.
public struct IIOError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The one-line reason, naming the file and, for permission problems, the fix.
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

  /// True when the error means the device is gone (it was unplugged or its driver unbound).
  public var isDeviceGone: Bool { code == ENODEV || code == ENOENT || code == ENXIO }

  /// True when the error is a permission problem.
  public var isPermissionDenied: Bool { code == EACCES || code == EPERM }

  /// A udev rule that gives the `iio` group access to IIO devices and their buffer controls.
  ///
  /// Install it as `/etc/udev/rules.d/99-iio.rules`, create the group (`groupadd -r iio`), add
  /// yourself to it (`usermod -aG iio $USER`), then reload (`udevadm control --reload` and
  /// `udevadm trigger`) and log in again.
  public static let udevRule =
    #"SUBSYSTEM=="iio", KERNEL=="iio:device*", GROUP="iio", MODE="0660", "#
    + #"RUN+="/bin/sh -c 'chgrp -R iio /sys%p && chmod -R g+w /sys%p'""#

  /// Builds the error for a failed system call on a file.
  ///
  /// - Parameters:
  ///   - action: What was being done, e.g. "opening" or "writing 1 to".
  ///   - path: The file.
  ///   - code: The `errno` value.
  /// - Returns: An error whose message explains permission problems and how to fix them.
  static func system(_ action: String, path: String, code: Int32) -> IIOError {
    var text = "\(action) \(path): \(errorText(code))"
    if code == EACCES || code == EPERM {
      text +=
        " (run as root, or add the udev rule "
        + #"'SUBSYSTEM=="iio", KERNEL=="iio:device*", GROUP="iio", MODE="0660", "#
        + #"RUN+="/bin/sh -c 'chgrp -R iio /sys%p && chmod -R g+w /sys%p'"' and join the iio group)"#
    } else if code == ENODEV || code == ENOENT {
      text += " (the device is gone)"
    }
    return IIOError(text, path: path, code: code)
  }
}
