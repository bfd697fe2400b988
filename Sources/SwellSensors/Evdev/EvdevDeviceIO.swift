import Glibc
import SwellEvdev

/// The few calls on an event node that need `ioctl(2)`, behind one seam.
///
/// Everything else an ``EvdevSource`` does (discovery, reading `struct input_event` records,
/// decoding, resynchronising, hot-plug) goes through sysfs files and `read(2)` and is tested on
/// a fake tree with a FIFO; tests replace this seam with one that answers from the fake
/// device's published numbers. Every call returns the `errno` it saw.
struct EvdevDeviceIO: Sendable {
  /// `EVIOCGABS(code)`: an absolute axis's value, range, fuzz, flat and resolution, or `nil`
  /// and the error.
  var absInfo: @Sendable (_ fd: Int32, _ code: UInt16) -> (info: EvdevAbsInfo?, error: Int32)
  /// `EVIOCSCLOCKID` with `CLOCK_MONOTONIC`: event times on the monotonic clock instead of the
  /// realtime one; 0, or the error.
  var useMonotonicClock: @Sendable (_ fd: Int32) -> Int32

  /// The real ioctls.
  static let live = EvdevDeviceIO(
    absInfo: { fd, code in
      // struct input_absinfo: six __s32 (value, minimum, maximum, fuzz, flat, resolution).
      var raw = [Int32](repeating: 0, count: 6)
      let r = raw.withUnsafeMutableBytes { bytes -> Int32 in
        guard let base = bytes.baseAddress else { return -1 }
        return ioctl(fd, EvdevIoctl.getAbs(code), base)
      }
      if r < 0 { return (nil, errno) }
      return (
        EvdevAbsInfo(
          value: raw[0], minimum: raw[1], maximum: raw[2], fuzz: raw[3], flat: raw[4],
          resolution: raw[5]), 0
      )
    },
    useMonotonicClock: { fd in
      var clock = Int32(CLOCK_MONOTONIC)
      return ioctl(fd, EvdevIoctl.setClockID, &clock) < 0 ? errno : 0
    })
}

/// The request numbers of the evdev ioctls Swell uses.
///
/// From `include/uapi/linux/input.h`: `EVIOCGABS(abs)` is `_IOR('E', 0x40 + (abs), struct
/// input_absinfo)` and `EVIOCSCLOCKID` is `_IOW('E', 0xa0, int)`. `_IOC(dir, type, nr, size)`
/// (`include/uapi/asm-generic/ioctl.h`, the layout of x86, Arm and RISC-V) is
/// `dir << 30 | size << 16 | type << 8 | nr`, with `_IOC_WRITE` 1 and `_IOC_READ` 2.
/// `struct input_absinfo` is six `__s32`: 24 bytes.
enum EvdevIoctl {
  static func request(direction: UInt, number: UInt, size: UInt) -> UInt {
    direction << 30 | size << 16 | UInt(UInt8(ascii: "E")) << 8 | number
  }

  /// `EVIOCGABS(code)`: 0x8018_4540 + code.
  static func getAbs(_ code: UInt16) -> UInt {
    request(direction: 2, number: 0x40 + UInt(code), size: 24)
  }

  /// `EVIOCSCLOCKID`: 0x4004_45a0.
  static let setClockID = request(direction: 1, number: 0xa0, size: 4)
}
